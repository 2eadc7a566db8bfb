"""Day of the Dead checks across the character files and game.yaml that no schema can express:
unique ids and names, cards per back, enough cards to deal, art files, effect conditions that can
never hold or always hold, and primitives not known to keep hand sizes (ruling DD-25)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boneyard.engine.checks import (
    can_hold,
    cards,
    cid_of,
    comparison_values,
    items,
    seen_at,
    sound_params,
)
from boneyard.engine.dotd.cards import BACKS
from boneyard.engine.dotd.effects import COUNTERS, PRIMITIVE_DEFS, PRIMITIVES
from boneyard.engine.spec import LocatedDoc, SetFiles

from boneyard.errors import Problem

#: Primitives known to keep hand size and the number of cards of each back in hand and in play
#: (rulings DD-25, INV-3): Dig discards a card with the drawn card's back, every Unearth replaces
#: a card with one of the same back, and the rest never move cards between zones. Each primitive
#: says so in its definition (``keeps_hand`` in effects.py, no default): a new one must be
#: reviewed before any card may use it.
SCHEMA = Path(__file__).with_name("game.schema.json")  # the params' bounds and defaults
HAND_SAFE: frozenset[str] = frozenset(p.name for p in PRIMITIVE_DEFS if p.keeps_hand)

#: The fix for a condition that holds in every game: it says nothing, or not what was meant.
ALWAYS_HINT = "remove the condition, or check the comparison"


def check(files: SetFiles) -> list[Problem]:
    """Checks across the character files and game.yaml that no schema can express.

    With ``files.complete`` False (a card file could not be read) deck counts are not checked:
    they would only repeat the unreadable file's problem.
    """
    game, docs, complete = files.game, files.docs, files.complete
    out: list[Problem] = []
    g: dict[str, Any] = game.data if isinstance(game.data, dict) else {}
    raw_params = g.get("params")
    params: dict[str, Any] = raw_params if isinstance(raw_params, dict) else {}
    # the cards are judged against a game the set can have (a bad value is the schema's problem)
    sound = sound_params(SCHEMA, "dotd_params", raw_params)
    turns = sound["turns"]
    raw_backs = g.get("backs")
    backs_def: list[Any] = raw_backs if isinstance(raw_backs, list) else []
    back_ids = [b.get("id") for b in backs_def if isinstance(b, dict)]
    seen_back: set[Any] = set()
    for i, b in enumerate(back_ids):
        if b in seen_back:
            out.append(game.problem(("backs", i, "id"), f"back '{b}' is defined twice",
                                    hint="each back once"))
        seen_back.add(b)
    known_backs = [b for b in back_ids if b in BACKS]
    if isinstance(g.get("backs"), list):
        missing = [b for b in BACKS if b not in back_ids]
        if missing:
            out.append(game.problem(("backs",), f"backs: {', '.join(missing)} missing; Day of "
                                    f"the Dead needs {', '.join(BACKS)}", hint="define each "
                                    "back once with its name and colour"))

    ids: dict[str, tuple[str, int]] = {}
    names: dict[str, tuple[str, int]] = {}
    per_back = dict.fromkeys(known_backs, 0)
    odd_count = False  # a card's backs or copies refused: the per-back counts are not judged
    for doc in docs:
        for idx, card in items(doc):
            cid = cid_of(card)
            if cid:
                if cid in ids:
                    f, line = ids[cid]
                    out.append(doc.problem((idx, "id"), f"duplicate id '{cid}' (first used at "
                                           f"{seen_at(doc, f, line)})", card=cid, hint="give each character "
                                           "its own id"))
                else:
                    ids[cid] = (doc.file, doc.where((idx, "id"))[0])
            name = card.get("name")
            if isinstance(name, str) and name:
                key = name.casefold()
                if key in names:
                    f, line = names[key]
                    out.append(doc.problem((idx, "name"), f"name '{name}' is already used at "
                                           f"{seen_at(doc, f, line)}", card=cid, hint="two printed cards "
                                           "with one name confuse players"))
                else:
                    names[key] = (doc.file, doc.where((idx, "name"))[0])
            backs = card.get("backs", known_backs)
            if not isinstance(backs, list):
                backs, odd_count = known_backs, True
            elif not backs or len({repr(b) for b in backs}) < len(backs):
                odd_count = True  # no back or one twice: the schema's, the counts would echo it
            copies = card.get("copies", 1)
            if not isinstance(copies, int) or isinstance(copies, bool) or copies < 1:
                copies, odd_count = 1, True
            for j, b in enumerate(backs):
                if b in per_back:
                    per_back[b] += copies
                    continue
                odd_count = True  # said here or by the schema: the deck's counts would say it again
                if b in BACKS:
                    out.append(doc.problem((idx, "backs", j), f"back '{b}' is not defined in "
                                           f"{game.file}", card=cid, hint="add it to backs: "
                                           "in game.yaml or remove it here"))
            art = card.get("art")
            if isinstance(art, str) and art:
                why = files.art_problem(art)
                if why:
                    out.append(doc.problem((idx, "art"), why, card=cid))  # with its fix
            out += _effect_semantics(doc, idx, card, cid, turns, known_backs, game.file)

    want = g.get("cards_per_back") if complete and not odd_count else None
    at: tuple[str, ...]
    counts = {per_back[b] for b in known_backs}
    if isinstance(want, int) and not isinstance(want, bool) and want >= 1 and len(known_backs) > 1 \
            and len(counts) == 1 and want not in counts:
        # one value off for every back alike: one problem, at the value
        have = counts.pop()
        diff = have - want
        fix = f"remove {diff}" if diff > 0 else f"add {-diff}"
        out.append(game.problem(("cards_per_back",), f"every back has {cards(have)} but "
                                f"cards_per_back is {want}", hint=f"{fix} of each back using "
                                f"backs: or copies: on a character, or write cards_per_back: "
                                f"{have}"))
        want = None
    for b in known_backs:
        if isinstance(want, dict):
            n, at = want.get(b), ("cards_per_back", b)
            if n is None:
                continue
        else:
            n, at = want, ("cards_per_back",)
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            continue  # not a count (the schema says so, once)
        if per_back[b] != n:
            diff = per_back[b] - n
            fix = (f"remove {diff} card{'s' if diff != 1 else ''}" if diff > 0
                   else f"add {-diff} card{'s' if diff != -1 else ''}")
            out.append(game.problem(at, f"back '{b}' has {cards(per_back[b])} but "
                                    f"cards_per_back is {n}", hint=f"{fix} with that back "
                                    "using backs: or copies: on a character, or change "
                                    "cards_per_back"))
    hand = sound["hand_per_back"]
    players = 2  # the game's only player count (game.yaml saying otherwise is a schema error)
    if complete and not odd_count and isinstance(hand, int) and not isinstance(hand, bool):
        for b in known_backs:
            if 0 < per_back[b] < hand * players:
                out.append(game.problem(("params", "hand_per_back") if "hand_per_back" in params
                                        else ("backs",),
                                        f"back '{b}' has {cards(per_back[b])}, too few to deal "
                                        f"{hand} to each of {players} players",
                                        hint="add cards or lower hand_per_back"))
    # the hand must last the game: two cards on turn 1 (the first fallen fighter and a spirit),
    # one a turn after; Unearth and Dig only swap cards, so a short hand runs dry mid-game
    if isinstance(hand, int) and not isinstance(hand, bool) and isinstance(turns, int):
        dealt = hand * len(BACKS)
        if turns + 1 > dealt:
            # at the value the designer changed from the schema's default (the rulebook's)
            default = sound_params(SCHEMA, "dotd_params", {})
            written = [k for k in ("turns", "hand_per_back") if k in params]
            edited = next((k for k in written if params[k] != default[k]),
                          written[0] if written else None)
            out.append(game.problem(
                ("params", edited) if edited else ("params",),
                f"a game of {turns} turns plays {turns + 1} cards from each hand (two on turn 1, "
                f"one a turn after), but a hand holds {dealt} (hand_per_back {hand} x "
                f"{len(BACKS)} backs): the players would run out of cards on turn {dealt}",
                hint=f"lower turns to at most {dealt - 1} or raise hand_per_back to "
                     f"{-(-(turns + 1) // len(BACKS))}"))
    return out


def _effect_semantics(doc: LocatedDoc, idx: int, card: dict[str, Any], cid: str | None,
                      turns: int, backs: list[str], game_file: str) -> list[Problem]:
    out: list[Problem] = []
    effect = card.get("effect")
    if not isinstance(effect, list):
        return out
    for s, step in enumerate(effect):
        if not isinstance(step, dict):
            continue
        for op in step:
            if op in PRIMITIVES and op not in HAND_SAFE:
                out.append(doc.problem((idx, "effect", s, op), f"effect step {s + 1}: '{op}' "
                                       "is not known to keep hand size and cards per back "
                                       "unchanged", card=cid, hint="the engine relies on this, "
                                       "ruling DD-25; review the primitive and set its "
                                       "keeps_hand in engine/dotd/effects.py", key=True))
        when = step.get("when")
        if not isinstance(when, dict):
            continue
        at = (idx, "effect", s, "when")
        pairs = comparison_values(when.get("turn"))
        if pairs and not can_hold(pairs, 1, turns):
            out.append(doc.problem((*at, "turn"), f"effect step {s + 1}: condition on the turn "
                                   f"can never hold (the game has turns 1 to {turns})",
                                   card=cid, hint="check the comparison"))
        elif pairs and _always_holds(pairs, 1, None):  # in a game of any length
            out.append(doc.problem((*at, "turn"), f"effect step {s + 1}: condition on the turn "
                                   "always holds (turns are numbered from 1)", card=cid,
                                   hint=ALWAYS_HINT))
        slot = when.get("slot")
        if isinstance(slot, int) and not isinstance(slot, bool) and slot > turns:
            out.append(doc.problem((*at, "slot"), f"effect step {s + 1}: slot {slot} never "
                                   f"exists (the game has {turns} turns, one slot per turn)",
                                   card=cid))
        count = when.get("count")
        if isinstance(count, dict) and count.get("of") in COUNTERS:
            out += _count_semantics(doc, (*at, "count"), s, count, cid, turns)
        pairs = comparison_values(when.get("opposing_power"))
        if pairs and not can_hold(pairs, 0, 9):
            out.append(doc.problem((*at, "opposing_power"), f"effect step {s + 1}: printed "
                                   "powers are 0 to 9, so this condition can never hold",
                                   card=cid, hint="check the comparison"))
        elif pairs and _always_holds(pairs, 0, 9):
            out.append(doc.problem((*at, "opposing_power"), f"effect step {s + 1}: printed "
                                   "powers are 0 to 9, so this condition always holds",
                                   card=cid, hint=ALWAYS_HINT))
        for test in ("own_spirit", "opponent_spirit", "own_back", "opposing_back"):
            value = when.get(test)
            named = value.items() if isinstance(value, dict) else [(None, value)]
            if isinstance(value, dict) and isinstance(value.get("eq"), str) \
                    and value.get("eq") == value.get("ne"):
                out.append(doc.problem((*at, test), f"effect step {s + 1}: {test} cannot be "
                                       f"'{value['eq']}' and not '{value['eq']}' at once, so "
                                       "this condition can never hold", card=cid,
                                       hint="keep either eq or ne"))
            for op, b in named:
                if isinstance(b, str) and b in BACKS and b not in backs:
                    path = (*at, test) if op is None else (*at, test, op)
                    out.append(doc.problem(path, f"effect step {s + 1}: back '{b}' is not "
                                           f"defined in {game_file}", card=cid))
    return out


def _always_holds(pairs: list[tuple[str, int]], lo: int, hi: int | None) -> bool:
    """Whether every whole number in lo..hi (``hi`` None: no upper end) satisfies all
    comparisons. Past the largest number compared with, no comparison changes its answer, so
    the number after it stands for all the rest."""
    top = hi if hi is not None else max([lo, *(n for _, n in pairs)]) + 1
    return top >= lo and all(can_hold(pairs, x, x) for x in range(lo, top + 1))


def _count_why(of: str, turns: int) -> str:
    """Why a counter's range is narrower than 0 to the number of turns. Only an active fighter
    uses its effect (DD-13), and nothing turns the slot that is fighting face down before its
    fight is over (``flip: opponent_fought`` reaches only slots that have fought), so the
    fighter whose condition is checked is one of its player's active fighters; a line has one
    slot per turn played."""
    if of == "own_active":
        return "the fighter using the effect is one of them"
    if of == "own_fallen":
        slots = f"{turns} slot" + ("s" if turns != 1 else "")
        return f"the fighter using the effect is active, in a line of at most {slots}"
    return ""


def _count_semantics(doc: LocatedDoc, path: tuple[Any, ...], s: int, count: dict[str, Any],
                     cid: str | None, turns: int) -> list[Problem]:
    """A count condition that can never hold in this game, or holds in every game.

    A counter is 0 to ``turns`` (own_adjacent_active 0 to 2), own_active at least 1 and
    own_fallen at most ``turns`` - 1 (``_count_why``). "Always" is judged without the game's
    turns, as a card may be meant for longer games than this set's: only the bounds no game
    changes count (a count is never negative, own_active never 0, two slots are adjacent).
    """
    of = count["of"]
    pairs = comparison_values({k: v for k, v in count.items() if k != "of"})
    if not pairs:
        return []
    top = 2 if of == "own_adjacent_active" else None  # the same in every game
    loose = (0, top if top is not None else turns)
    low = 1 if of == "own_active" else 0
    high = turns - 1 if of == "own_fallen" else loose[1]
    why = _count_why(of, turns)
    if not can_hold(pairs, low, high):
        said = f" ({why})" if why and can_hold(pairs, *loose) else ""
        return [doc.problem(path, f"effect step {s + 1}: {of} is {low} to {high}{said}, so "
                            "this condition can never hold", card=cid,
                            hint="check the comparison")]
    if _always_holds(pairs, low, top):
        span = f"{low} to {top}" if top is not None else f"{low} or more"
        said = f" ({why})" if why and not _always_holds(pairs, 0, top) else ""
        return [doc.problem(path, f"effect step {s + 1}: {of} is {span}{said}, so this "
                            "condition always holds", card=cid, hint=ALWAYS_HINT)]
    return []
