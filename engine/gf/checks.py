"""Grave Feast checks across the deck files, the rares file and game.yaml that no schema can
express: unique ids, humans numbered once per food, every food with its eater, families that can
be built, enough cards to deal, art files, rares kept out of the regular deck."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from boneyard.engine.checks import cards, cid_of, items, schema_accepts, seen_at, sound_params
from boneyard.engine.gf.cards import GF_KINDS
from boneyard.engine.gf.constants import M10
from boneyard.engine.spec import JsonPath, LocatedDoc, SetFiles

from boneyard.errors import Problem
from boneyard.paths import SCHEMA as SCHEMA_DIR

EATERS = {"blood": "vampire", "brains": "zombie"}
RARE_KINDS = ("devil_wife", "exorcist")
MAX_PLAYERS = 8  # the most players Grave Feast takes (its GameSpec says so; the schema refuses more)
#: The most physical cards one game may hold (the regular deck times the decks, plus the rares):
#: the engine numbers every card of the game 0, 1, ... and packs the number into a 10-bit field
#: of its action ints (constants.pack, M10 = 1023), and a Devil Wife's blind take from a hand
#: writes M10 itself for "a random card" (rare_moves.py, rares.py): so the numbers 0..1022.
MAX_CARDS = M10
CARD_SCHEMA = SCHEMA_DIR / "feast-cards.schema.json"  # a card's fields (copies' bounds)
_COPIES = ("$defs", "card", "properties", "copies")
_NUMBERS = ("$defs", "card", "properties", "numbers")


def deck_size(doc: LocatedDoc, humans_only: bool = False) -> int:
    """Physical cards (``humans_only``: human cards) in one copy of the deck described by
    ``doc`` (defensive)."""
    return sum(_entry_size(card) for _, card in items(doc)
               if not humans_only or card.get("kind") == "human")


def _entry_size(card: dict[str, Any]) -> int:
    """Physical cards one entry of a deck file makes in one copy of the deck: its copies, times
    its numbers for a human (defensive)."""
    copies = card.get("copies", 1)
    if not isinstance(copies, int) or isinstance(copies, bool) or copies < 1:
        copies = 1  # a bad count is reported by the schema; do not add a second problem
    numbers = card.get("numbers")
    return copies * (len(numbers) if isinstance(numbers, list) and card.get("kind") == "human" else 1)


def _defined_again(doc: LocatedDoc, food: str,
                   again: list[tuple[int, int, tuple[str, int]]]) -> str:
    """``blood 3 is already defined at line 6``, or for several numbers of one entry
    ``blood 1, 2, 3 are already defined at line 6``: one message, grouped by where."""
    where: dict[tuple[str, int], list[int]] = {}
    for _, n, first in again:
        where.setdefault(first, []).append(n)
    return "; ".join(f"{food} {', '.join(map(str, ns))} {'is' if len(ns) == 1 else 'are'} "
                     f"already defined at {seen_at(doc, f, line)}" for (f, line), ns in where.items())


def check(files: SetFiles) -> list[Problem]:
    """Checks across deck files, the rares file and game.yaml that no schema can express.

    With ``files.complete`` False (a card file could not be read whole) nothing that needs the
    whole deck is checked: deck sizes, families, eaters.
    """
    game, docs, complete = files.game, files.docs, files.complete
    rares = files.extra.get("rares_file")
    out: list[Problem] = []
    g: dict[str, Any] = game.data if isinstance(game.data, dict) else {}
    raw_params = g.get("params")
    params: dict[str, Any] = raw_params if isinstance(raw_params, dict) else {}
    ids: dict[str, tuple[str, int]] = {}
    entries: dict[str, tuple[str, int]] = {}  # the written ids: a sheet's rows are keyed by them
    humans: dict[tuple[str, int], tuple[str, int]] = {}
    kinds: set[str] = set()
    foods: dict[str, tuple[LocatedDoc, JsonPath, str | None]] = {}
    odd_numbers = odd_kind = odd_food = False
    rare_seen: dict[str, str] = {}  # rare kind -> the first card of it in the rares file
    human_foods: set[str] = set()  # the foods of the regular deck's humans
    eaters: dict[str, tuple[LocatedDoc, int, str | None]] = {}  # eater kind -> its first card
    misplaced: set[str] = set()  # ids of rares written into the regular deck

    def claim(doc: LocatedDoc, at: JsonPath, cid: str, owner: str | None) -> None:
        if cid in ids:
            f, line = ids[cid]
            out.append(doc.problem(at, f"duplicate id '{cid}' (first used at {seen_at(doc, f, line)})",
                                   card=owner, hint="give each card its own id"))
        else:
            ids[cid] = (doc.file, doc.where(at)[0])

    names: dict[str, tuple[str, int]] = {}  # casefolded printed name -> where first written
    entries_of: dict[str, list[tuple[LocatedDoc, JsonPath, str | None]]] = defaultdict(list)
    all_docs = [(d, False) for d in docs] + ([(rares, True)] if rares is not None else [])
    for doc, is_rares in all_docs:
        for idx, card in items(doc):
            cid = cid_of(card)
            said = len(out)
            kind = card.get("kind")
            rare = card.get("rare", False)
            if is_rares and rare is False and "rare" in card:
                out.append(doc.problem((idx, "rare"), "a card in the rares file must not say "
                                       "rare: false", card=cid, hint="remove the line"))
            if not is_rares and rare is True:
                out.append(doc.problem((idx, "rare"), "rare card in the regular deck",
                                       card=cid, hint="move it to the rares file named by "
                                       "rares_file: in game.yaml"))
            elif not is_rares and kind in RARE_KINDS:
                out.append(doc.problem((idx, "kind"), f"{kind.replace('_', ' ')} is a rare "
                                       "and cannot be in the regular deck", card=cid,
                                       hint="move it to the rares file named by "
                                       "rares_file: in game.yaml, or remove it if that file "
                                       "has it already"))
                if cid:
                    misplaced.add(cid)
            copies = card.get("copies", 1)
            if is_rares and isinstance(copies, int) and not isinstance(copies, bool) and copies > 1:
                out.append(doc.problem((idx, "copies"), f"a rare is a single print (GF-01), got "
                                       f"copies: {copies}", card=cid,
                                       hint="remove the line: the rulebook prints one of each"))
            if is_rares and kind in RARE_KINDS:
                if kind in rare_seen:
                    out.append(doc.problem((idx, "kind"), f"a second {kind.replace('_', ' ').title()} "
                                           f"(the first is '{rare_seen[kind]}'): each rare is a "
                                           "single print (GF-01)", card=cid,
                                           hint="keep one card of each rare"))
                else:
                    rare_seen[kind] = cid or "?"
            if not is_rares and isinstance(kind, str):
                kinds.add(kind)
                if kind == "human":
                    if card.get("food") in EATERS:
                        human_foods.add(card["food"])
                    else:
                        odd_food = True  # the schema's problem: no eater is judged by it
                elif kind in EATERS.values() and kind not in eaters:
                    eaters[kind] = (doc, idx, cid)
            if kind not in GF_KINDS:
                odd_kind = True  # the schema says so; "no vampire in the deck" would mislead
            numbers = card.get("numbers")
            food = card.get("food")
            again_id = bool(cid) and cid in entries
            # a rare copied into the regular deck is said there, once, not again here
            if again_id and not (is_rares and cid in misplaced):
                # a human's cards are ids cid-1..cid-9, so a human and an eater both written
                # 'blood' collide nowhere in the deck, but export writes two rows 'blood' that
                # import cannot tell apart; said once, not again for each of its cards
                f, line = entries[str(cid)]
                out.append(doc.problem((idx, "id"), f"duplicate id '{cid}' (first used at "
                                       f"{seen_at(doc, f, line)})", card=cid,
                                       hint="give each card its own id"))
            elif cid and not again_id:
                entries[cid] = (doc.file, doc.where((idx, "id"))[0])
            if kind == "human" and isinstance(numbers, list) and cid:
                if isinstance(food, str) and not is_rares:
                    if food not in foods:
                        foods[food] = (doc, (idx, "food"), cid)
                    entries_of[food].append((doc, (idx, "numbers"), cid))
                if not numbers:
                    odd_numbers = True  # the schema's problem: a run of 0 would say it again
                listed: set[int] = set()
                again: list[tuple[int, int, tuple[str, int]]] = []  # (index, number, first)
                for j, n in enumerate(numbers):
                    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 9:
                        odd_numbers = True  # reported by the schema; runs would mislead
                        continue
                    if n in listed:
                        continue  # a number listed twice is the schema's, not a duplicate card
                    listed.add(n)
                    if not again_id:
                        claim(doc, (idx, "numbers", j), f"{cid}-{n}", cid)
                    if isinstance(food, str) and 1 <= n <= 9:
                        if (food, n) in humans:
                            again.append((j, n, humans[(food, n)]))
                        else:
                            humans[(food, n)] = (doc.file, doc.where((idx, "numbers", j))[0])
                if again:  # one wrong food: or a pasted entry is one problem, not one a number
                    odd_food = True  # and not also "zombies eat brains, but ... no brains humans"
                    out.append(doc.problem((idx, "numbers", again[0][0]),
                                           _defined_again(doc, str(food), again), card=cid,
                                           hint="raise copies: on one entry instead"))
            elif cid and not again_id:
                claim(doc, (idx, "id"), cid, cid)
            name = card.get("name")
            if isinstance(name, str) and name.strip():
                key = name.strip().casefold()
                if key in names and len(out) == said and not (is_rares and cid in misplaced):
                    # (a pasted entry, or a rare copied into the regular deck: said once above)
                    f, line = names[key]
                    out.append(doc.problem((idx, "name"), f"name '{name}' is already used at "
                                           f"{seen_at(doc, f, line)}", card=cid,
                                           hint="two kinds of card with one name confuse "
                                           "players: rename one"))
                elif key not in names:
                    names[key] = (doc.file, doc.where((idx, "name"))[0])
            art = card.get("art")
            if isinstance(art, str) and art:
                why = files.art_problem(art)
                if why:
                    out.append(doc.problem((idx, "art"), why, card=cid))  # with its fix

    # the cards are judged against a game the set can have (a bad value is the schema's problem)
    sound = sound_params(Path(__file__).with_name("game.schema.json"), "gf_params", raw_params)
    min_family = sound["min_family"]
    for food, (doc, at, cid) in foods.items():
        eater = EATERS.get(food)
        if complete and not odd_kind and eater and eater not in kinds:  # or in an unread file
            out.append(doc.problem(at, f"{food} humans but no {eater} in the deck: these "
                                   "families can never be eaten", card=cid,
                                   hint=f"add a {eater} card"))
        numbers = sorted(n for (f, n) in humans if f == food)
        longest = run = 0
        for i, n in enumerate(numbers):
            run = run + 1 if i and n == numbers[i - 1] + 1 else 1
            longest = max(longest, run)
        if complete and not odd_numbers and longest < min_family:
            if len(entries_of[food]) == 1:  # one entry holds every number: said at its list
                doc, at, cid = entries_of[food][0]
            out.append(doc.problem(at, f"no {food} family can ever be built: the longest run "
                                   f"of consecutive {food} numbers is {longest}, a family "
                                   f"needs {min_family}", card=cid,
                                   hint="add the missing numbers"))

    out += _nothing_to_eat(docs, kinds, human_foods, eaters,
                           complete and not odd_kind and not odd_food)

    players = g.get("players")
    most = players.get("max") if isinstance(players, dict) else players
    least = players.get("min") if isinstance(players, dict) else players
    if isinstance(players, dict) and isinstance(most, int) and isinstance(least, int) \
            and least > most:
        out.append(game.problem(("players", "min"), f"players min {least} is above max {most}",
                                hint="swap them"))
    decks = sound["decks"]
    if complete and docs and isinstance(most, int) and not isinstance(most, bool) \
            and 0 < most <= MAX_PLAYERS:  # (a count out of range is the schema's problem)
        out += _short_deal(game, params, docs, rares, sound, most)
    if complete and docs:
        out += _too_many_cards(docs, rares, g, decks, most)
    win = sound["win_score"]
    if min_family > win:
        out.append(game.problem(("params", "min_family"), f"min_family {min_family} is above "
                                f"win_score {win}", hint="a single family would win"))
    out += _rares_without_cards(game, g, rares)
    return out


def _short_deal(game: LocatedDoc, params: dict[str, Any], docs: Sequence[LocatedDoc],
                rares: LocatedDoc | None, sound: dict[str, Any], most: int) -> list[Problem]:
    """A game at its most players whose cards cannot deal every hand: the regular deck times
    the decks it is played with (``decks: auto``: two from 5 players or with the rares), plus
    the rares when they are in (they are shuffled into the deal). The hint offers only what
    would change it: two decks when the game has one and two would deal, hand_size as low as
    the cards allow."""
    hand, decks, rare = sound["hand_size"], sound["decks"], sound["rares"] is True
    size = sum(deck_size(d) for d in docs)
    n_decks = (2 if most >= 5 or rare else 1) if decks == "auto" else decks
    if not isinstance(n_decks, int) or isinstance(n_decks, bool):
        return []  # (a refused value is the schema's problem)
    extra = deck_size(rares) if rare and rares is not None else 0
    total = size * n_decks + extra
    if not 0 < total < hand * most:
        return []
    at: JsonPath = ("params", "hand_size") if "hand_size" in params else ("card_files",)
    fit = total // most  # the largest hand the cards deal to every player
    if n_decks == 1 and size * 2 + extra >= hand * most:
        return [game.problem(at, f"{cards(total)} cannot deal {hand} to each of {most} players",
                             hint="add cards, use two decks or lower hand_size")]
    made = "" if n_decks == 1 and not extra else (
        f" ({'one deck' if n_decks == 1 else f'{n_decks} decks'} of {size}"
        f"{'' if not extra else ' and the rare' if extra == 1 else f' and the {extra} rares'})")
    hint = f"add cards or lower hand_size to {fit}" if fit >= 1 else "add cards"
    return [game.problem(at, f"{cards(total)}{made} cannot deal {hand} to each of {most} "
                         "players", hint=hint)]


def _nothing_to_eat(docs: Sequence[LocatedDoc], kinds: set[str], human_foods: set[str],
                    eaters: dict[str, tuple[LocatedDoc, int, str | None]],
                    judged: bool) -> list[Problem]:
    """A deck without humans, or an eater without its food: such a deck validates, yet its
    games can never be won (no one scores) or the card is a dead draw, so say it before a
    playtest spends its cap on games that never end. ``judged`` False: a card file not read
    whole, or a kind or food the schema refused, so the deck is not known."""
    if not judged or not docs:
        return []
    if "human" not in kinds:
        return [Problem(docs[0].file, 1, 1, "the deck has no human cards: nobody can ever score",
                        hint="add human cards, e.g. blood and brains humans numbered 1-9")]
    out = []
    for food, eater in EATERS.items():
        if eater in eaters and food not in human_foods:
            doc, idx, cid = eaters[eater]
            out.append(doc.problem((idx, "kind"), f"{eater}s eat {food}, but the deck has no "
                                   f"{food} humans: this card can never eat", card=cid,
                                   hint=f"add {food} humans or remove it"))
    return out


def _games(g: dict[str, Any], decks: Any) -> list[tuple[Any, bool, str]]:
    """The deck options a set's games are played with: game.yaml's ``params`` (``decks`` as
    sound, the default for a refused value) and each ``options:`` of the playtest section
    (its own, its runs', its profiles'), each as (decks, rares, the words that name where),
    "" naming params."""
    params = g.get("params")
    rares = isinstance(params, dict) and params.get("rares") is True
    found: list[tuple[Any, bool, str]] = [(decks, rares, "")]

    def opts(section: Any, label: str) -> None:
        if not isinstance(section, dict):
            return
        sites = [(section.get("options"), f"{label}.options")]
        runs = section.get("runs")
        for i, run in enumerate(runs if isinstance(runs, list) else []):
            if isinstance(run, dict):
                name = run.get("label")
                named = f" ({name})" if isinstance(name, str) else ""
                sites.append((run.get("options"), f"{label}.runs item {i + 1}{named} options"))
        for o, where in sites:
            if not isinstance(o, dict) or not ("rares" in o or "decks" in o):
                continue
            d = o.get("decks", decks)
            r = o.get("rares", rares)
            if d in ("auto", 1, 2) and not isinstance(d, bool) and isinstance(r, bool):
                found.append((d, r, where))  # (a refused value is the schema's problem)

    playtest = g.get("playtest")
    opts(playtest, "playtest")
    profiles = playtest.get("profiles") if isinstance(playtest, dict) else None
    for name, profile in (profiles.items() if isinstance(profiles, dict) else ()):
        opts(profile, f"playtest.profiles.{name}")
    return found


def _too_many_cards(docs: Sequence[LocatedDoc], rares: LocatedDoc | None, g: dict[str, Any],
                    decks: Any, most: Any) -> list[Problem]:
    """A game holding more cards than the engine can number (MAX_CARDS): the regular deck times
    the decks it is played with, plus the rares when they are in. Judged for every set of deck
    options the set plays (params, each playtest ``options:``) at its most players (``decks:
    auto`` plays two from 5), and said once, for the largest game, at the card of the deck
    where the count passes what one deck may hold. Not judged when the schema refuses a
    ``copies:`` or ``numbers:`` (``copies: 999``): the count would only echo its problem."""
    if any(not schema_accepts(CARD_SCHEMA, _COPIES, card.get("copies", 1))
           or not schema_accepts(CARD_SCHEMA, _NUMBERS, card.get("numbers", [1]))
           for d in [*docs, *([rares] if rares is not None else [])] for _, card in items(d)):
        return []
    size = sum(deck_size(d) for d in docs)
    n_rares = deck_size(rares) if rares is not None else 0
    players = most if isinstance(most, int) and not isinstance(most, bool) \
        and 0 < most <= MAX_PLAYERS else 2  # (a bad count is the schema's problem)
    worst: tuple[int, int, bool, Any, str] | None = None
    for d, rare, where in _games(g, decks):
        n_decks = (2 if players >= 5 or rare else 1) if d == "auto" else d
        total = size * n_decks + (n_rares if rare else 0)
        if worst is None or total > worst[0]:
            worst = (total, n_decks, rare, d, where)
    if worst is None or worst[0] <= MAX_CARDS:
        return []
    total, n_decks, rare, d, where = worst
    extra = n_rares if rare else 0
    per_deck = max(0, (MAX_CARDS - extra) // n_decks)  # the most cards one deck may hold
    # the card at which the deck passes per_deck: where the cut is due, or the cards added
    run = 0
    doc, idx, card = docs[0], 0, {}
    for dd in docs:
        for i, c in items(dd):
            run += _entry_size(c)
            if run > per_deck:
                doc, idx, card = dd, i, c
                break
        else:
            continue
        break
    parts = [where] if where else []  # what makes the game this large, where it is said
    if n_decks > 1:
        parts.append("decks: 2" if d == 2 else f"decks: auto at {players} players" if not rare
                     else "decks: auto with the rares")
    why = f" ({'; '.join(parts)})" if parts else ""
    game_part = "" if n_decks == 1 and not extra else (
        f": {total:,} a game with {n_decks} deck{'s' if n_decks != 1 else ''}"
        f"{'' if not extra else ' and the rare' if extra == 1 else f' and the {extra} rares'}{why}")
    per_part = f", {per_deck:,} a deck" if game_part else ""
    message = (f"the deck holds {size:,} card{'s' if size != 1 else ''}{game_part}, but the "
               f"engine deals at most {MAX_CARDS:,} cards a game{per_part}: the deck passes "
               f"{per_deck:,} at this entry")
    hint = f"cut {cards(size - per_deck)} from the deck"
    if n_decks > 1 and size + extra <= MAX_CARDS:
        hint += ", or play one deck (decks: 1" + (", or players max 4" if d == "auto" and not rare
                                                  else "") + ")"
    at: JsonPath = (idx, "copies") if "copies" in card else (idx, "id") if "id" in card else (idx,)
    return [doc.problem(at, message, card=cid_of(card) or None, hint=hint)]


def _rares_on(g: dict[str, Any]) -> list[tuple[JsonPath, str]]:
    """Where game.yaml turns the rares on: ``params.rares: true`` and each ``options: {rares:
    true}`` of the playtest section (its own, its runs', its profiles'), each with the words
    that name the place in a message ("" for params, whose line says it)."""
    def opts(section: Any, at: JsonPath, label: str) -> list[tuple[JsonPath, str]]:
        if not isinstance(section, dict):
            return []
        out: list[tuple[JsonPath, str]] = []
        options = section.get("options")
        if isinstance(options, dict) and options.get("rares") is True:
            out.append(((*at, "options", "rares"), f"{label}.options"))
        runs = section.get("runs")
        for i, run in enumerate(runs if isinstance(runs, list) else []):
            o = run.get("options") if isinstance(run, dict) else None
            if isinstance(o, dict) and o.get("rares") is True:
                name = run.get("label")
                named = f" ({name})" if isinstance(name, str) else ""
                out.append(((*at, "runs", i, "options", "rares"),
                            f"{label}.runs item {i + 1}{named} options"))
        return out

    found: list[tuple[JsonPath, str]] = []
    params = g.get("params")
    if isinstance(params, dict) and params.get("rares") is True:
        found.append((("params", "rares"), ""))
    playtest = g.get("playtest")
    found += opts(playtest, ("playtest",), "playtest")
    profiles = playtest.get("profiles") if isinstance(playtest, dict) else None
    for name, profile in (profiles.items() if isinstance(profiles, dict) else ()):
        found += opts(profile, ("playtest", "profiles", name), f"playtest.profiles.{name}")
    return found


def _rares_without_cards(game: LocatedDoc, g: dict[str, Any],
                         rares: LocatedDoc | None) -> list[Problem]:
    """``rares: true`` with no rares to shuffle in: the games would be played, and gated, as
    rare games without a rare in them. One mistake, one message: at the first place that turns
    them on, naming the lines of the others. A rares file whose items are refused, or that is
    not read, is said by its own problems alone."""
    named = g.get("rares_file")
    # a file with no items at all: one whose items are refused (``- [a, b]``, ``- 3``, a tag
    # not allowed), or that is not read, has its own problems, and "holds no cards" would
    # only repeat them
    empty = rares is not None and rares.data == []
    places = _rares_on(g)
    if not places or not (empty or (rares is None and named is None)):
        return []
    (at, label), more = places[0], [game.where(a)[0] for a, _ in places[1:]]
    said = f"{label}: rares: true" if label else "rares: true"
    also = (f"; line {more[0]} turns them on too" if len(more) == 1 else
            f"; lines {', '.join(map(str, more))} turn them on too") if more else ""
    if not empty:
        return [game.problem(at, f"{said} but no rares_file{also}",
                             hint="add rares_file: rares.yaml")]
    return [game.problem(at, f"{said}, but the rares file {named!r} holds no cards{also}",
                         hint=f"add the Devil Wife and the Exorcist to {named}, or set rares: "
                              "false")]
