"""Day of the Dead checks across the character files and game.yaml that no schema can express:
unique ids and names, cards per back, enough cards to deal, art files, effect steps that can
never hold, always hold or do nothing, and primitives not known to keep hand sizes (ruling
DD-25). Characters a scenario invents get the same effect checks (:func:`invented_problems`)."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boneyard.engine.checks import (
    can_hold,
    cards,
    cid_of,
    comparison_values,
    items,
    schema_accepts,
    seen_at,
    sound_params,
)
from boneyard.engine.dotd.cards import BACKS, Character
from boneyard.engine.dotd.codes import DECK_BASE
from boneyard.engine.dotd.effects import COUNTERS, PRIMITIVE, PRIMITIVE_DEFS, PRIMITIVES, SLOTS
from boneyard.engine.spec import LocatedDoc, SetFiles

from boneyard.errors import Problem
from boneyard.paths import SCHEMA as SCHEMA_DIR

#: Primitives known to keep hand size and the number of cards of each back in hand and in play
#: (rulings DD-25, INV-3): Dig discards a card with the drawn card's back, every Unearth replaces
#: a card with one of the same back, and the rest never move cards between zones. Each primitive
#: says so in its definition (``keeps_hand`` in effects.py, no default): a new one must be
#: reviewed before any card may use it.
SCHEMA = Path(__file__).with_name("game.schema.json")  # the params' bounds and defaults
CARD_SCHEMA = SCHEMA_DIR / "characters.schema.json"  # a character's fields (copies' bounds)
HAND_SAFE: frozenset[str] = frozenset(p.name for p in PRIMITIVE_DEFS if p.keeps_hand)

#: The fix for a condition that holds in every game: it says nothing, or not what was meant.
ALWAYS_HINT = "remove the condition, or check the comparison"

#: At most this many characters are named as those not printed on a back that is short of
#: cards_per_back; more are a design (a back left off on purpose), not the card forgotten.
FEW = 3

#: The most physical cards a set may hold: the engine numbers them 0, 1, ... (characters x backs
#: x copies) and uses the number as the action that plays the card, while the actions from
#: DECK_BASE = 1000 on dig from a deck (codes.py; 1000 + back): so the numbers 0..999.
MAX_CARDS = DECK_BASE

#: One effect step as the checks read it: (primitive, amount, per, target); None where the
#: card file writes no such value (or a value of another type: the schema says so).
StepFacts = tuple[str, Any, Any, Any]


@dataclass(frozen=True, slots=True)
class CardFacts:
    """What the effect checks read of one character, from a card file's mapping or a Character."""

    power: int | None
    backs: tuple[str, ...] | None  # None: not a list of backs (the schema says so)
    steps: tuple[StepFacts, ...]


@dataclass(frozen=True, slots=True)
class Judged:
    """The game a set's effect conditions are judged against: its turns, the backs game.yaml
    defines, the most points two scores can be apart (None: no bound can be given), why, and the
    backs some copying character is printed on (it then uses another card's effect as its own,
    and a test of "this card's" back reads the copier's)."""

    turns: int
    backs: tuple[str, ...]
    lead: int | None
    lead_why: str
    copier_backs: frozenset[str]


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
    switches = sound_params(SCHEMA, "dotd_switches", g.get("switches"))
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
        # a misspelt id (unearthh) is one mistake, which the schema says with the right id:
        # the back it stands for is not also said to be missing
        for typo in (b for b in back_ids if isinstance(b, str) and b not in BACKS):
            meant = difflib.get_close_matches(typo, missing, n=1, cutoff=0.6)
            missing = [b for b in missing if b not in meant]
        if missing:
            out.append(game.problem(("backs",), f"backs: {', '.join(missing)} missing; Day of "
                                    f"the Dead needs {', '.join(BACKS)}", hint="define each "
                                    "back once with its name and colour"))

    judged = _judged(turns, sound["double_uses"],
                     bool(switches["replacement_uses_effect_this_fight"]), known_backs,
                     [_facts(card, known_backs) for doc in docs for _, card in items(doc)])
    ids: dict[str, tuple[str, int]] = {}
    names: dict[str, tuple[str, int]] = {}
    per_back = dict.fromkeys(known_backs, 0)
    printed: list[tuple[str, list[Any]]] = []  # (character, its backs) for a back short of cards
    odd_count = False  # a card's backs or copies refused: the per-back counts are not judged
    copied: list[tuple[Any, int, str | None, int, list[Any]]] = []  # cards with copies: N
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
            printed.append((cid or str(name or f"card {idx + 1}"), backs))
            copies = card.get("copies", 1)
            if not schema_accepts(CARD_SCHEMA, ("$defs", "character", "properties", "copies"),
                                  copies):
                copies, odd_count = 1, True  # the schema's: a count built on it would echo it
            elif "copies" in card and copies != 1:
                copied.append((doc, idx, cid, copies, backs))
            for b in backs:
                if b in per_back:
                    per_back[b] += copies
                else:
                    # a back game.yaml does not define (it misses or misspells it, and says so
                    # there once) or none at all (the schema's): the counts would say it again
                    odd_count = True
            art = card.get("art")
            if isinstance(art, str) and art:
                why = files.art_problem(art)
                if why:
                    out.append(doc.problem((idx, "art"), why, card=cid))  # with its fix
            out += _effect_semantics(doc, idx, card, cid, judged)

    want = g.get("cards_per_back") if complete and not odd_count else None
    at: tuple[str, ...]
    counts = {per_back[b] for b in known_backs}
    if isinstance(want, int) and not isinstance(want, bool) and want >= 1 and len(known_backs) > 1 \
            and len(counts) == 1 and want not in counts:
        # one value off for every back alike: one problem, at the value
        have = counts.pop()
        diff = have - want
        fix = f"remove {diff}" if diff > 0 else f"add {-diff}"
        extra = [c for c in copied if c[3] > 1 and all(b in c[4] for b in known_backs)]
        if diff > 0 and len(extra) == 1 and extra[0][3] - 1 == diff:
            # the one card printed more than once accounts for the surplus: said at its copies
            doc, idx, cid, printed_n, _ = extra[0]
            line, col = game.where(("cards_per_back",))
            out.append(doc.problem((idx, "copies"), f"copies: {printed_n} makes every back {cards(have)}, "
                                   f"but cards_per_back is {want} (game.yaml:{line}:{col})",
                                   card=cid, hint=f"remove the line for one of each, or write "
                                   f"cards_per_back: {have} in game.yaml"))
        else:
            named = "".join(f"; {c[2]} has copies: {c[3]}" for c in copied[:5])
            out.append(game.problem(("cards_per_back",), f"every back has {cards(have)} but "
                                    f"cards_per_back is {want}{named}", hint=f"{fix} of each "
                                    f"back using backs: or copies: on a character, or write "
                                    f"cards_per_back: {have}"))
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
                                    f"cards_per_back is {n}{_lacking(b, printed, diff)}",
                                    hint=f"{fix} with that back "
                                    "using backs: or copies: on a character, or change "
                                    "cards_per_back"))
    total = sum(per_back[b] for b in known_backs)
    if complete and not odd_count and total > MAX_CARDS:
        # at the count the designer keeps of the deck (cards_per_back), else at the backs
        counts = {per_back[b] for b in known_backs}
        each = (f"{counts.pop():,} on each of the {len(known_backs)} backs" if len(counts) == 1
                else ", ".join(f"{per_back[b]:,} {b}" for b in known_backs))
        fit = MAX_CARDS // len(known_backs)
        out.append(game.problem(("cards_per_back",) if "cards_per_back" in g else ("backs",),
                                f"the set holds {total:,} cards ({each}), but the engine deals "
                                f"at most {MAX_CARDS:,} cards a game",
                                hint=f"cut {cards(total - MAX_CARDS)}: fewer characters, "
                                     f"copies: or backs: on a character; {fit:,} on each back "
                                     "fit"))
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


def _lacking(back: str, printed: list[tuple[str, list[Any]]], diff: int) -> str:
    """The characters not printed on a back that is short of cards, when they are few: the
    likeliest fix is one of them, forgotten in its ``backs:`` (said at game.yaml, where the
    count is, the card would otherwise go unnamed)."""
    if diff >= 0:
        return ""
    without = [who for who, backs in printed if back not in backs]
    if not 0 < len(without) <= FEW:
        return ""
    return f"; {_and(without)} {'is' if len(without) == 1 else 'are'} not printed on it"


# --- what the effect checks know of a set ---------------------------------------------------------


def _facts(card: dict[str, Any], known_backs: Sequence[str]) -> CardFacts:
    """A card file's character as the effect checks read it; a value of the wrong type (the
    schema's problem) reads as missing."""
    power = card.get("power")
    backs = card.get("backs", list(known_backs))
    steps: list[StepFacts] = []
    effect = card.get("effect")
    for step in effect if isinstance(effect, list) else []:
        op = _op(step)
        if op is None:
            continue
        value, main = step[op], PRIMITIVE[op].main
        arg = PRIMITIVE[op].arg(main) if main else None
        given = value if isinstance(value, dict) else {arg.field: value} if arg else {}
        steps.append((op, _whole(given.get("amount")), given.get("per"), given.get("target")))
    return CardFacts(_whole(power),
                     tuple(backs) if isinstance(backs, list) and all(isinstance(b, str)
                                                                     for b in backs) else None,
                     tuple(steps))


def character_facts(ch: Character) -> CardFacts:
    """A loaded (or invented) Character as the effect checks read it."""
    return CardFacts(ch.power, tuple(ch.backs),
                     tuple((s.op, s.amount, s.per, s.target) for s in ch.effect))


def _whole(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _op(step: Any) -> str | None:
    """The step's one primitive, or None (none or several: the schema's problem)."""
    ops = [k for k in step if k in PRIMITIVE] if isinstance(step, dict) else []
    return ops[0] if len(ops) == 1 else None


def judged_game(turns: int, double_uses: int, chains: bool,
                characters: Iterable[Character]) -> Judged:
    """The game a scenario's invented characters are judged against: its turns and rules, with
    every character it plays (the set's and the invented), each back defined."""
    return _judged(turns, double_uses, chains, list(BACKS),
                   [character_facts(c) for c in characters])


def _judged(turns: int, double_uses: int, chains: bool, backs: Sequence[str],
            facts: Sequence[CardFacts]) -> Judged:
    """See :class:`Judged`; ``chains``: a replacement uses its effect in the same fight (switch
    replacement_uses_effect_this_fight), so no number of uses in a fight can be promised."""
    lead, why = _lead(turns, max(1, double_uses), chains, facts)
    copiers = frozenset(b for f in facts if f.backs and any(s[0] == "copy_effect" for s in f.steps)
                        for b in f.backs)
    return Judged(turns, tuple(backs), lead, why, copiers)


def _lead(turns: int, uses: int, chains: bool, facts: Sequence[CardFacts]) -> tuple[int | None, str]:
    """The most points two players' scores can be apart in a game, and why; (None, "") when no
    bound can be promised.

    A generous bound, not the best play's: only what no game can pass is refused. Turn t has t
    fights (a slot more each turn), so a game has F = turns x (turns + 1) / 2 of them. Rewards
    score each active fighter's printed power, at most F fighters of the highest printed power
    over the game. Victory points an effect moves (gain_vp) raise one score or lower the other:
    in each fight both fighters use their effects, each at most ``uses`` times (a Double spirit),
    and a use runs its own steps and, through copy_effect (copy depth 1), at most one other
    effect's. A replacement that uses its effect in the same fight (``chains``) can be replaced
    again, so with gain_vp in the set nothing bounds the points an effect moves.
    """
    fights = turns * (turns + 1) // 2
    top = max((f.power for f in facts if f.power is not None), default=0)
    moved = max((sum(abs(amount) * (_counter_top(per, turns) if isinstance(per, str) else 1)
                     for op, amount, per, _ in f.steps if op == "gain_vp" and amount is not None)
                 for f in facts), default=0)
    if moved and chains:
        return None, ""
    copies = any(op == "copy_effect" for f in facts for op, *_ in f.steps)
    effects = fights * 2 * uses * moved * (2 if copies else 1)
    why = (f"{turns} turns' Rewards score at most {fights} fighters in all, a slot more each "
           f"turn, each at most the highest printed power, {top}"
           + (f"; effects move at most {effects} points more" if effects else ""))
    return top * fights + effects, why


def _counter_top(per: str, turns: int) -> int:
    """The largest a counter can be: a line has one slot a turn, two of them next to one."""
    return 2 if per == "own_adjacent_active" else turns


# --- the effect checks --------------------------------------------------------------------------


def invented_problems(doc: LocatedDoc, judged: Judged) -> list[Problem]:
    """The effect checks of :func:`check` on characters a scenario invents (``doc.data`` their
    list), judged against the game the scenario plays: a card the validator refuses in a card
    file is refused there too."""
    return [p for idx, card in items(doc)
            for p in _effect_semantics(doc, idx, card, cid_of(card), judged)]


def _effect_semantics(doc: LocatedDoc, idx: int, card: dict[str, Any], cid: str | None,
                      judged: Judged) -> list[Problem]:
    out: list[Problem] = []
    effect = card.get("effect")
    if not isinstance(effect, list):
        return out
    turns = judged.turns
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
        out += _idle_step(doc, (idx, "effect", s), s, step, cid)
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
        # past SLOTS[1] the schema refuses the number: said there, once
        if isinstance(slot, int) and not isinstance(slot, bool) and turns < slot <= SLOTS[1]:
            out.append(doc.problem((*at, "slot"), f"effect step {s + 1}: slot {slot} never "
                                   f"exists (the game has {turns} turns, one slot per turn)",
                                   card=cid, hint=f"name a slot from 1 to {turns}, or newest "
                                   "or oldest"))
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
        out += _score_semantics(doc, (*at, "score_diff"), s, when.get("score_diff"), cid, judged)
        for test in ("own_spirit", "opponent_spirit", "own_back", "opposing_back"):
            value = when.get(test)
            if isinstance(value, dict) and isinstance(value.get("eq"), str) \
                    and value.get("eq") == value.get("ne"):
                out.append(doc.problem((*at, test), f"effect step {s + 1}: {test} cannot be "
                                       f"'{value['eq']}' and not '{value['eq']}' at once, so "
                                       "this condition can never hold", card=cid,
                                       hint="keep either eq or ne"))
            elif test == "own_back" and value is not None:
                out += _own_back(doc, (*at, test), s, value, card, cid, judged)
        out += _copies_nothing(doc, at, s, step, when, cid)
    out += _cancelling(doc, idx, effect, cid)
    return out


def _idle_step(doc: LocatedDoc, at: tuple[Any, ...], s: int, step: dict[str, Any],
               cid: str | None) -> list[Problem]:
    """A step whose amount makes it change nothing (``gain_vp: 0``): printed, never felt."""
    op = _op(step)
    prim = PRIMITIVE[op] if op else None
    if prim is None or prim.idle_amount is None:
        return []
    value = step[prim.name]
    path = (*at, prim.name, "amount") if isinstance(value, dict) else (*at, prim.name)
    amount = value.get("amount") if isinstance(value, dict) else value
    if _whole(amount) != prim.idle_amount:
        return []
    return [doc.problem(path, f"effect step {s + 1}: {prim.name} {amount} does nothing",
                        card=cid, hint="remove the step or give it an amount other than "
                                       f"{amount}")]


def _copies_nothing(doc: LocatedDoc, at: tuple[Any, ...], s: int, step: dict[str, Any],
                    when: dict[str, Any], cid: str | None) -> list[Problem]:
    """``copy_effect: opposing`` run only when the opposing fighter has no effect: there is then
    nothing to copy (the interpreter offers only a fighter with an effect), every time."""
    value = step.get("copy_effect")
    target = value.get("target") if isinstance(value, dict) else value
    if _op(step) != "copy_effect" or target != "opposing" \
            or when.get("opposing_has_effect") is not False:
        return []
    return [doc.problem((*at, "opposing_has_effect"), f"effect step {s + 1}: copy_effect: "
                        "opposing copies the opposing fighter's effect, but this condition "
                        "lets the step run only when it has none, so it copies nothing, every "
                        "time", card=cid, hint="remove the condition: a fighter without an "
                        "effect has nothing to copy anyway")]


def _cancelling(doc: LocatedDoc, idx: int, effect: list[Any], cid: str | None) -> list[Problem]:
    """Two unconditional steps of one effect that undo each other for the same fighter
    (``auto_win: self`` and ``auto_lose: self``: DD-12 weighs a side's automatic wins against
    its automatic losses, so the pair changes no fight). Steps with conditions are left alone:
    the conditions may keep them apart."""
    out: list[Problem] = []
    plain: list[tuple[int, str, str | None]] = []  # (step, primitive, subject)
    for s, step in enumerate(effect):
        op = _op(step)
        if op is not None and not step.get("when"):
            plain.append((s, op, _who(op, step[op])))
    paired: set[int] = set()
    for j, (s2, op2, who2) in enumerate(plain):
        for s1, op1, who1 in plain[:j]:
            if s1 in paired or PRIMITIVE[op1].cancelled_by != op2 or who1 != who2 \
                    or who1 is None:
                continue
            paired |= {s1, s2}
            out.append(doc.problem((idx, "effect", s2, op2), f"effect steps {s1 + 1} and "
                                   f"{s2 + 1}: {op1}: {who1} and {op2}: {who2} cancel each "
                                   "other out (ruling DD-12), so together they do nothing",
                                   card=cid, hint="remove one of them, or give them conditions "
                                   "that cannot hold at once"))
            break
    return out


def _who(op: str, value: Any) -> str | None:
    """The subject a step names, its default filled in; None if it names none readable."""
    arg = PRIMITIVE[op].arg("who")
    if arg is None:
        return None
    who = value.get("who", arg.default) if isinstance(value, dict) else \
        arg.default if value is None else value
    return who if isinstance(who, str) else None


def _own_back(doc: LocatedDoc, path: tuple[Any, ...], s: int, value: Any, card: dict[str, Any],
              cid: str | None, judged: Judged) -> list[Problem]:
    """A test of this card's back that the backs it is printed on decide: it reads the back of
    the card using the effect, which is this card unless a copier uses it (then the copier's;
    said, when a copier of the set is printed on a back that would meet it)."""
    backs = card.get("backs", list(judged.backs))
    if not isinstance(backs, list) or not backs \
            or any(b not in judged.backs for b in backs):
        return []  # the schema's problem, or game.yaml's: the card's backs are not known
    tests = [("eq", value)] if isinstance(value, str) else \
        list(value.items()) if isinstance(value, dict) else []
    if not tests or any(op not in ("eq", "ne") or b not in judged.backs for op, b in tests):
        return []  # the schema's problem, or game.yaml's (a back it does not define)

    def holds(back: str) -> bool:
        return all((back == b) == (op == "eq") for op, b in tests)

    meeting = [b for b in backs if holds(b)]
    if 0 < len(meeting) < len(backs):
        return []
    only = "only " if len(backs) < len(judged.backs) else ""
    printed = f"this card is printed {only}on the {_and(backs)} back{'s' if len(backs) > 1 else ''}"
    # a copier on another back reads its own back: said, so the message is true of every use
    other = [b for b in BACKS if b in judged.copier_backs and holds(b) != bool(meeting)]
    copier = f" (only a fighter on the {_and(other)} back copying its effect could " \
        f"{'fail' if meeting else 'meet'} it)" if other else ""
    if not meeting:
        wanted = [b for op, b in tests if op == "eq"]
        fix = f"add {wanted[0]} to its backs, or check the condition" if wanted \
            else "check the condition"
        return [doc.problem(path, f"effect step {s + 1}: {printed}, so the condition on its "
                            f"own back can never hold{copier}", card=cid, hint=fix)]
    return [doc.problem(path, f"effect step {s + 1}: {printed}, so the condition on its own "
                        f"back always holds{copier}", card=cid, hint=ALWAYS_HINT)]


def _and(words: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def _score_semantics(doc: LocatedDoc, path: tuple[Any, ...], s: int, value: Any,
                     cid: str | None, judged: Judged) -> list[Problem]:
    """A condition on the score difference that no game of the set can meet: its comparisons
    contradict each other, or it asks for a lead past the most any game reaches (``_lead``)."""
    pairs = comparison_values(value)
    if not pairs:
        return []
    nums = [n for _, n in pairs]
    if not can_hold(pairs, min(nums) - 1, max(nums) + 1):  # past these, nothing changes
        return [doc.problem(path, f"effect step {s + 1}: no score difference meets all of "
                            "these comparisons, so this condition can never hold", card=cid,
                            hint="check the comparison")]
    lead = judged.lead
    if lead is not None and not can_hold(pairs, -lead, lead):
        return [doc.problem(path, f"effect step {s + 1}: the scores are never more than {lead} "
                            f"points apart in this set's game ({judged.lead_why}), so this "
                            "condition can never hold", card=cid, hint="check the comparison")]
    return []


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
