"""Scenarios: pin down any Day of the Dead position from plain data, then play given choices.

A designer (or a test) writes the cards in each zone, the turn, the phase, priority and scores,
and the choices to make as action strings (``"convert oaf@double"``, ``"player 1: no"``);
:func:`build_state` makes the State, :func:`run` plays the choices and checks the facts
(``expect:``, also between choices; matchers and what one player ``sees``: engine/expect.py).
The format is ``schema/scenario.schema.json`` and docs/scenarios.md; the CLI (``boneyard
scenario FILE``) reads YAML and prints the result as JSON. Every card of the set not placed
explicitly goes into its back's deck, shuffled from ``seed`` beneath any cards listed on top;
``oaf@double#2`` is the second copy of a card the set has several of.

Phases:
  ``deal``   the rules' setup from ``seed``: decks shuffled, hands dealt, priority drawn.
  ``start``  the beginning of ``turn``: the spirits given move into the new slot, then both
             players select (turn 1: lines empty, nothing moves).
  ``reveal`` both players have chosen: ``spirit`` is the card chosen this turn (on turn 1 the
             single line card is the fighter just placed); step 3 flips the field, Unearth
             spirits resolve, then the fights.
  ``fight``  the field is as given; fights start at ``slot`` (1-based, default the newest).

``end_turn`` ends the game after that turn's Rewards (default: the last turn), so a scenario
about one turn needs no hand cards for the next. A choice with one option, which the engine takes
at once, may be listed or left out; a position the rules cannot reach is played with a warning.
"""

from __future__ import annotations

import difflib
import os
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from boneyard.engine.expect import match
from boneyard.engine.spec import JsonPath

from boneyard.errors import Problem, RulesError, ScenarioError, excerpt
from boneyard.paths import CARDS

from .cards import BACKS
from .checks import character_facts, invented_problems, judged_game
from .codes import T_FIGHT, T_REVEAL, T_REWARDS, T_TURN
from .game import DotdGame, DotdState
from .narrate import state_json
from .tables import GameTables

PHASES = ("deal", "start", "reveal", "fight")


class _Cards:
    """Hands out each physical card once, by ``character@back`` id; ``oaf@double#2`` is the
    second copy of that card when the set has several (``copies:``)."""

    def __init__(self, game: DotdGame, where: str) -> None:
        self.game = game
        self.used: set[int] = set()
        self.where = where

    def take(self, ref: Any, what: str) -> int:
        if not isinstance(ref, str) or "@" not in ref:
            raise ScenarioError(
                f"{self.where}: {what}: '{ref}' is not a card id (write character@back, e.g. oaf@double)"
            )
        cid, _, nth = ref.strip().lower().partition("#")
        copies = self.game.card_index.get(cid)
        if copies is None:
            near = difflib.get_close_matches(cid, list(self.game.card_index), 3)
            hint = f" (did you mean {' or '.join(repr(x) for x in near)}?)" if near else ""
            raise ScenarioError(f"{self.where}: {what}: no card '{ref}' in this set{hint}")
        n = len(copies)
        if nth:
            if not nth.isdigit() or not 1 <= int(nth) <= n:
                raise ScenarioError(f"{self.where}: {what}: card '{ref}': the set has {n} "
                                    f"cop{'y' if n == 1 else 'ies'} of {cid} (write {cid}#1 .. #{n})")
            c = copies[int(nth) - 1]
            if c in self.used:
                raise ScenarioError(f"{self.where}: {what}: card '{ref}' is placed twice")
            self.used.add(c)
            return c
        for c in copies:
            if c not in self.used:
                self.used.add(c)
                return c
        raise ScenarioError(
            f"{self.where}: {what}: card '{ref}' is used more often than the set has it ({n})"
        )


def card_namer(game: GameTables) -> Callable[[int], str]:
    """A card's name in scenario output: its id, with ``#k`` when the set has copies of it."""
    index = game.card_index

    def name(c: int) -> str:
        cid = game.card_name(c)
        copies = index[cid]
        return cid if len(copies) == 1 else f"{cid}#{copies.index(c) + 1}"

    return name


def build_state(game: DotdGame, data: Mapping[str, Any], where: str = "scenario",
                warnings: list[str] | None = None) -> DotdState:
    """A State at the position ``data`` describes; ScenarioError names the first problem.

    A position the rules cannot reach (a broken back limit, more cards of a back than were dealt,
    priority that does not alternate) is played all the same and said in ``warnings``."""
    phase = data.get("phase", "fight")
    if phase not in PHASES:
        raise ScenarioError(f"{where}: phase '{phase}' is not one of {', '.join(PHASES)}")
    turn = int(data.get("turn", 1))
    if not 1 <= turn <= game.turns:
        raise ScenarioError(f"{where}: turn: turn {turn} is outside 1..{game.turns} "
                            f"(the game has {game.turns} turns: params.turns)")
    if phase == "deal":
        return _deal(game, data, where, turn)
    prio = data.get("priority", 0)
    if prio not in (0, 1):
        raise ScenarioError(f"{where}: priority must be 0 or 1 (the player holding the counter)")
    seed = int(data.get("seed", 0))
    rng = random.Random(seed)
    s = DotdState.__new__(DotdState)
    s._init(game, seed)
    s.prio = prio
    s.first_prio = int(data.get("first_priority", prio))
    scores = data.get("scores", [0, 0])
    if not (isinstance(scores, list) and len(scores) == 2):
        raise ScenarioError(f"{where}: scores must be a list of two numbers")
    s.scores = [int(scores[0]), int(scores[1])]
    beyond = _scores_beyond(game, s.scores, where)
    # the turns before are known only by the scores they left: each is logged at them (and its
    # priority holder), so the next Rewards narrate what they add, not the whole score
    s.score_log = [(s.scores[0], s.scores[1], prio ^ ((turn - t) & 1)) for t in range(1, turn)]
    players = data.get("players")
    if not isinstance(players, list) or len(players) != 2:
        raise ScenarioError(f"{where}: 'players' must list exactly two players")
    cards = _Cards(game, where)
    for p, pd in enumerate(players):
        here = f"player {p}"
        pd = pd or {}
        s.hands[p] = [cards.take(c, f"{here} hand") for c in pd.get("hand", [])]
        for k, item in enumerate(pd.get("line", [])):
            ref, state = (item.get("card"), item.get("state", "active")) if isinstance(item, Mapping) else (item, "active")
            if state not in ("active", "fallen"):
                raise ScenarioError(f"{where}: {here} line slot {k + 1}: state must be active or fallen")
            c = cards.take(ref, f"{here} line slot {k + 1}")
            s.lines[p].append(c)
            s.up[p].append(state == "active")
            if state == "active":
                s.pub[c] = True
        sp = pd.get("spirit")
        if sp is not None:
            s.spirit[p] = cards.take(sp, f"{here} spirit")
            s.eff_back[p] = game.back[s.spirit[p]]
    for b, back in enumerate(BACKS):
        for k, c in enumerate((data.get("discards") or {}).get(back, [])):
            c = cards.take(c, f"{back} discard pile")
            if game.back[c] != b:
                raise ScenarioError(f"{where}: discards.{back}[{k}]: {game.card_name(c)} cannot "
                                    f"lie in the {back} discard pile (list it under its own back)")
            s.discards[b].append(c)
            s.pub[c] = True
    tops: list[list[int]] = [[], [], []]
    for b, back in enumerate(BACKS):
        for k, c in enumerate((data.get("decks") or {}).get(back, [])):
            c = cards.take(c, f"{back} deck")
            if game.back[c] != b:
                raise ScenarioError(f"{where}: decks.{back}[{k}]: {game.card_name(c)} cannot lie "
                                    f"in the {back} deck (list it under its own back)")
            tops[b].append(c)
    for b in range(3):
        rest = [c for c in game.deck_order[b] if c not in cards.used]
        rng.shuffle(rest)
        s.decks[b] = rest + tops[b][::-1]  # the first listed card is the top (end of the list)
    if len(s.lines[0]) != len(s.lines[1]):
        raise ScenarioError(f"{where}: players[1].line: both lines must have the same number "
                            f"of slots (player 0 has {len(s.lines[0])}, player 1 "
                            f"{len(s.lines[1])})")
    n = len(s.lines[0])
    if phase == "start":
        s.turn = turn - 1
        if n != turn - 1:
            raise ScenarioError(f"{where}: players[0].line: at the start of turn {turn} each "
                                f"line has {turn - 1} slots, not {n}")
        if turn > 1 and any(x < 0 for x in s.spirit):
            p = s.spirit.index(-1)
            raise ScenarioError(f"{where}: players[{p}]: at the start of turn {turn} each "
                                f"player needs a spirit (add spirit: <card>)")
        s.stack = [(T_TURN,)]
    elif phase == "reveal":
        s.turn = turn
        if n != turn:
            raise ScenarioError(f"{where}: players[0].line: at the reveal of turn {turn} each "
                                f"line has {turn} slots, not {n}")
        for p in (0, 1):
            if s.spirit[p] < 0:
                raise ScenarioError(f"{where}: players[{p}]: player {p} needs the spirit chosen "
                                    f"this turn (add spirit: <card>)")
            chosen = [s.spirit[p]]
            if turn == 1:  # the fighter placed this turn is still a choice until the reveal
                chosen.insert(0, s.lines[p].pop())
                s.up[p].pop()
            s.spirit[p] = -1
            s.chosen[p] = chosen
            s.hands[p].extend(chosen)
        s.stack = [(T_REVEAL,)]
    else:
        s.turn = turn
        if n != turn:
            raise ScenarioError(f"{where}: players[0].line: during the fights of turn {turn} "
                                f"each line has {turn} slots, not {n}")
        if any(x < 0 for x in s.spirit):
            p = s.spirit.index(-1)
            raise ScenarioError(f"{where}: players[{p}]: during the fights each player needs a "
                                f"spirit (add spirit: <card>)")
        slot = data.get("slot", n)
        if not 1 <= int(slot) <= n:
            raise ScenarioError(f"{where}: slot: slot {slot} is outside 1..{n} (the lines have "
                                f"{n} slots)")
        s.stack = [(T_REWARDS,)] + [(T_FIGHT, i) for i in range(int(slot))]
    end_turn = int(data.get("end_turn", game.turns))
    if not turn <= end_turn <= game.turns:
        raise ScenarioError(f"{where}: end_turn: end_turn {end_turn} is outside "
                            f"{turn}..{game.turns} (from the scenario's turn to the last)")
    s.end_turn = end_turn
    s.history = []
    s.count_backs()
    if warnings is not None:
        warnings += beyond + _unreachable(s, data, phase)
    try:
        s._advance()
    except (IndexError, RulesError) as exc:
        raise _stuck(s, where, exc, False) from None
    return s


def _stuck(s: DotdState, where: str, exc: Exception, in_choice: bool) -> ScenarioError:
    """The engine could not go on from a scripted position (a hand with no card to play on a
    turn the scenario reaches): said at the player's hand, or at the choice that led there,
    instead of the engine's IndexError."""
    empty = [p for p in (0, 1) if not [c for c in s.hands[p] if c not in s.chosen[p]]]
    if not empty:
        at = "" if in_choice else " players:"
        return ScenarioError(f"{where}:{at} the game cannot go on from here ({exc})")
    p = empty[0]
    turn = max(s.turn, 1)
    fix = f"give player {p} more hand cards" + (
        f", or end the game earlier with end_turn: {turn - 1}" if turn > 1 else "")
    at = "" if in_choice else f" players[{p}].hand:"
    return ScenarioError(f"{where}:{at} player {p} has no card left to play on turn {turn} "
                         f"({fix})")


def _deal(game: DotdGame, data: Mapping[str, Any], where: str, turn: int) -> DotdState:
    """The setup as the rules do it: the decks shuffled from ``seed``, 3 of each back dealt to
    each player, priority drawn; the game then waits for turn 1's first choice."""
    for key in ("players", "priority", "first_priority", "scores", "decks", "discards", "slot"):
        if key in data:
            raise ScenarioError(f"{where}: {key}: phase deal shuffles, deals and draws priority "
                                f"from the seed; to script the deal write phase: start, turn: 1 "
                                f"with each player's hand and priority")
    if turn != 1:
        raise ScenarioError(f"{where}: turn: the deal comes before turn 1")
    try:
        s = game.new_initial_state(int(data.get("seed", 0)))
    except RulesError as exc:
        raise ScenarioError(f"{where}: phase: {exc} (invent more characters, or place the "
                            f"cards with phase: start)") from None
    end_turn = int(data.get("end_turn", game.turns))
    if not 1 <= end_turn <= game.turns:
        raise ScenarioError(f"{where}: end_turn: end_turn {end_turn} is outside "
                            f"1..{game.turns} (the game has {game.turns} turns)")
    s.end_turn = end_turn
    return s


def _scores_beyond(game: DotdGame, scores: list[int], where: str) -> list[str]:
    """Scores no game of this set can show. Below 0 where no card takes points away (only a
    ``gain_vp`` with a negative amount does, DD-20): a slip, refused at the score. Further from
    0 than a whole game can move a score (:func:`judged_game`'s generous bound): played, and
    said as the other positions the rules cannot reach are."""
    characters = list(game.card_set.characters)
    facts = [character_facts(c) for c in characters]
    lowers = any(op == "gain_vp" and isinstance(amount, int) and amount < 0
                 for f in facts for op, amount, *_ in f.steps)
    for i, v in enumerate(scores):
        if v < 0 and not lowers:
            raise ScenarioError(f"{where}: scores[{i}]: {v} is below 0, which no game of this set "
                                "reaches: only a card that takes points away (gain_vp with a "
                                "negative amount, DD-20) lowers a score, and none does (write 0 "
                                "or more)")
    bound = judged_game(game.turns, game.double_uses, game.newcomer_uses, characters)
    if bound.lead is None:
        return []
    return [f"scores[{i}]: {v} is more points than a whole game can move a score (at most "
            f"{bound.lead}: {bound.lead_why})" for i, v in enumerate(scores) if abs(v) > bound.lead]


def _unreachable(s: DotdState, data: Mapping[str, Any], phase: str) -> list[str]:
    """What no game under these rules can show (``path: why``); the position is played anyway."""
    g = s.g
    out = []
    for p in (0, 1):
        in_play = s.lines[p] + ([s.spirit[p]] if s.spirit[p] >= 0 else []) + s.chosen[p]
        counts = [sum(1 for c in in_play if g.back[c] == b) for b in range(3)]
        # the card chosen on the final turn may break the limit (DD-04); a start has not chosen
        spare = 1 if phase != "start" and s.turn >= g.free_turn else 0
        over = sum(max(0, n - g.back_limit) for n in counts)
        if over > spare:
            backs = ", ".join(f"{n} {BACKS[b]} cards" for b, n in enumerate(counts) if n > g.back_limit)
            out.append(f"players[{p}]: {backs} in play, the back limit allows {g.back_limit} "
                       f"(DD-04)")
        held = [sum(1 for c in in_play + [c for c in s.hands[p] if c not in s.chosen[p]]
                    if g.back[c] == b) for b in range(3)]
        for b, n in enumerate(held):
            if n > g.hand_per_back:
                out.append(f"players[{p}]: {n} {BACKS[b]} cards in hand and in play, but "
                           f"{g.hand_per_back} of each back are dealt and no rule changes that")
    moves_counter = any(step.op in ("take_priority", "give_priority")
                        for ch in g.characters for step in ch.effect)
    if "first_priority" in data and not moves_counter:  # DD-21: such an effect moves it at once
        turn = s.turn + (1 if phase == "start" else 0)
        holder = s.first_prio if turn % 2 == 1 else 1 - s.first_prio
        if s.prio != holder:
            out.append(f"priority: player {s.prio} holds it on turn {turn}, but priority passes "
                       f"every turn from player {s.first_prio} (first_priority)")
    if any(s.scores) and s.turn + (1 if phase == "start" else 0) == 1:
        out.append("scores: points before the first Rewards")
    return out


_PLAYER = re.compile(r"\s*player\s+(\d+)\s*:\s*(.*)$", re.IGNORECASE)
_FORCED = re.compile(r"player (\d+) takes the only option: (.*)$")
_COPY = re.compile(r"(?<=\w)#\d+")


def _norm(text: str) -> str:
    return " ".join(str(text).lower().split())


def choice_texts(state: DotdState, name: Callable[[int], str]) -> list[tuple[int, str, str]]:
    """The pending decision's options: (action, its text, its text with copies told apart)."""
    out = []
    for a in state.legal_actions():
        text = state.action_to_string(a)
        exact = text.replace(state.g.card_name(a), name(a), 1) if 0 <= a < state.g.n else text
        out.append((a, text, exact))
    return out


def apply_choice(state: DotdState, text: str, where: str = "scenario",
                 name: Callable[[int], str] | None = None) -> None:
    """Apply the legal action whose text is ``text`` (case and spaces ignored); ``oaf@double#2``
    names one copy of a card the set has several of."""
    if state.is_terminal():
        raise ScenarioError(f"{where}: choice '{excerpt(text)}': the game is already over")
    want = _norm(text)
    options = choice_texts(state, name or card_namer(state.g))
    for a, plain, exact in options:
        if want in (_norm(plain), _norm(exact)):
            try:
                state.apply_action(a)
            except (IndexError, RulesError) as exc:
                raise _stuck(state, where, exc, True) from None
            return
    listed = ", ".join(f"'{exact}'" for _, _, exact in options)
    raise ScenarioError(
        f"{where}: choice '{excerpt(text)}' is not legal for player {state.current_player()} now (legal: {listed})"
    )


class _Invented:
    """The characters a scenario invents, read by the set's checks as they read a card file
    (engine/spec.py ``LocatedDoc``): each problem is kept with its path, which the scenario's
    messages name (``characters[0].effect[0].when.turn: ...``) for the CLI to locate."""

    def __init__(self, where: str, data: list[Any]) -> None:
        self.file = where
        self.data = data
        self.said: list[tuple[JsonPath, Problem]] = []

    def where(self, path: JsonPath, *, key: bool = False) -> tuple[int, int]:
        return 0, 0  # not known here: the scenario's path says where

    def problem(self, path: JsonPath, message: str, *, card: str | None = None,
                hint: str | None = None, key: bool = False) -> Problem:
        said = Problem(self.file, 0, 0, message, card, hint)
        self.said.append((path, said))
        return said


def _path_text(path: Sequence[str | int]) -> str:
    """``characters[0].effect[1].when``: a path as the scenario's messages write it."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else f".{part}" if out else part
    return out


def check_invented(game: DotdGame, data: Mapping[str, Any], where: str) -> None:
    """Refuse characters a scenario invents that the set's validator would refuse: an id or a
    name the set already has (the set would silently hold two cards of one id, and a card id
    in the scenario would name either), and the effect checks of ``boneyard validate`` (a
    condition that can never hold, a step that does nothing...), judged against the game the
    scenario plays. ScenarioError names the first problem.

    ``game`` plays the set's characters followed by the invented ones (as the game's scenario
    runner and the play table build it)."""
    invented = data.get("characters")
    if not isinstance(invented, list) or not invented:
        return
    every = game.card_set.characters
    base, added = every[:len(every) - len(invented)], every[len(every) - len(invented):]
    if [c.id for c in added] != [str(c.get("id")) for c in invented if isinstance(c, Mapping)]:
        base = ()  # not built as documented: nothing known of the set's own characters
    ref = data.get("set")
    named = ref if isinstance(ref, str) and ref else game.card_set.name
    folder = _set_folder(ref, where)
    ids = {c.id for c in base}
    # a name -> (the id of the card using it, the invented card's index or None: the set's)
    names: dict[str, tuple[str, int | None]] = {c.name.casefold(): (c.id, None) for c in base}
    for i, card in enumerate(invented):
        if not isinstance(card, Mapping):
            continue
        cid, name = card.get("id"), card.get("name")
        if isinstance(cid, str) and cid in ids:
            at = _written_at(folder, cid)
            raise ScenarioError(f"{where}: characters[{i}].id: id '{cid}' is already in {named}"
                                f"{f' ({at})' if at else ''}; give the invented card another id")
        if isinstance(name, str) and name.casefold() in names:
            first, k = names[name.casefold()]
            at = _written_at(folder, first) if k is None else f"characters[{k}]"
            said = f"{first} in {named}" if k is None else f"the invented {first}"
            raise ScenarioError(f"{where}: characters[{i}].name: name '{name}' is already used "
                                f"by {said}{f' ({at})' if at else ''}; give the invented card "
                                "another name")
        if isinstance(cid, str) and isinstance(name, str):
            names[name.casefold()] = (cid, i)
    judged = judged_game(game.turns, game.double_uses, game.newcomer_uses, every)
    scores = data.get("scores")
    if judged.lead is not None and isinstance(scores, list) and len(scores) == 2 \
            and all(isinstance(x, int) and not isinstance(x, bool) for x in scores):
        # the position starts from the scores written, not from 0 to 0
        judged = replace(judged, lead=judged.lead + abs(scores[0]) + abs(scores[1]),
                         lead_why=f"{judged.lead_why}, from the scenario's scores "
                                  f"{scores[0]} to {scores[1]}")
    doc = _Invented(where, invented)
    invented_problems(doc, judged)
    if doc.said:
        path, problem = doc.said[0]
        who = f"card '{problem.card}': " if problem.card else ""
        hint = f" ({problem.hint})" if problem.hint else ""
        raise ScenarioError(f"{where}: {_path_text(('characters', *path))}: {who}"
                            f"{problem.message}{hint}")


def _set_folder(ref: Any, where: str) -> Path | None:
    """The folder of the set a scenario's ``set:`` names, found as the CLI finds it (a bundled
    set's name, else a path from the scenario file's folder); None if there is none."""
    if not isinstance(ref, str) or not ref:
        return None
    if "/" not in ref and "\\" not in ref and (CARDS / ref / "game.yaml").is_file():
        return CARDS / ref
    beside = Path(where).parent / ref
    folder = beside if not Path(ref).is_absolute() and beside.exists() else Path(ref)
    return folder if folder.is_dir() else None


def _written_at(folder: Path | None, cid: str) -> str | None:
    """``file:line`` where the set in ``folder`` writes the character ``cid`` (its ``id:``),
    the file relative to the set folder; None if it cannot be told.

    The loaded set keeps no positions and the engine never parses YAML (the loader does): the
    line is found by the text ``id: <cid>`` in the set's YAML files besides game.yaml. An id
    is a lower-case word the set holds once, so its text names its line.
    """
    if folder is None:
        return None
    written = re.compile(rf"(?<![\w-])id:\s*(['\"]?){re.escape(cid)}\1\s*(?:[,}}#]|$)")
    for path in _yaml_files(folder):
        try:
            lines = path.read_text(encoding="utf-8").splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        for n, line in enumerate(lines, 1):
            if written.search(line):
                return f"{path.relative_to(folder).as_posix()}:{n}"
    return None


def _yaml_files(folder: Path, most: int = 100, looked: int = 5000) -> list[Path]:
    """The YAML files of a set folder besides game.yaml, the folder's own first: at most
    ``most``, after looking at most at ``looked`` names. A link is neither followed nor read
    (the folder is the designer's, untrusted: a link out of it could lead anywhere), and a
    folder of thousands of files is no set."""
    found: list[Path] = []
    seen = 0
    for top, folders, names in os.walk(folder):  # links to folders are not followed
        folders.sort()
        for name in sorted(names):
            seen += 1
            if seen > looked or len(found) >= most:
                return found
            path = Path(top) / name
            if path.suffix in (".yaml", ".yml") and path != folder / "game.yaml" \
                    and not path.is_symlink():
                found.append(path)
    return found


class _Play:
    """A scenario being played: the state, the log of choices, the facts that failed."""

    def __init__(self, game: DotdGame, data: Mapping[str, Any], where: str,
                 narrate: bool = False) -> None:
        check_invented(game, data, where)
        if narrate:  # the events a scenario prints and checks, with the choices taken alone
            game.record_events = True
            game.note_forced = True
        self.where = where
        self.warnings: list[str] = []
        self.state = build_state(game, data, where, self.warnings)
        self.name = card_namer(game)
        self.log: list[dict[str, Any]] = []
        self.failed: list[str] = []
        self.seen = 0  # events already looked at for choices the engine took by itself
        self.pending = self._forced()  # taken by the engine since the last listed choice

    def _forced(self) -> list[tuple[int, str]]:
        events = self.state.events or []
        out = []
        for line in events[self.seen:]:
            m = _FORCED.match(line)
            if m:
                out.append((int(m.group(1)) - 1, m.group(2)))
        self.seen = len(events)
        return out

    def step(self, k: int, item: Any) -> None:
        path = f"actions[{k}]"
        if isinstance(item, Mapping):
            self.check(item.get("expect") or {}, f"{path}.expect")
            return
        text = str(item)
        m = _PLAYER.match(text)
        named = int(m.group(1)) if m else None
        if m:
            text = m.group(2)
        s = self.state
        # a choice with one option the engine took by itself may be listed all the same (a
        # choice legal now comes first)
        now = not s.is_terminal() and named in (None, s.current_player()) and _norm(text) in {
            _norm(x) for _, plain, exact in choice_texts(s, self.name) for x in (plain, exact)}
        for i, (p, done) in enumerate([] if now else self.pending):
            if _norm(done) == _norm(_COPY.sub("", text)) and named in (None, p):
                del self.pending[: i + 1]
                self.log.append({"player": p, "action": text, "scores": list(s.scores),
                                 "only_option": True})
                return
        player = s.current_player()
        if named is not None and not s.is_terminal() and named != player:
            options = ", ".join(f"'{x}'" for _, _, x in choice_texts(s, self.name))
            raise ScenarioError(f"{self.where}: {path}: player {player} chooses now, not player "
                                f"{named} (legal: {options})")
        apply_choice(s, text, f"{self.where}: {path}", self.name)
        self.pending = self._forced()
        entry: dict[str, Any] = {"player": player, "action": text, "scores": list(s.scores)}
        if self.pending:
            entry["forced"] = [f"player {p}: {x}" for p, x in self.pending]
        self.log.append(entry)

    def printed(self) -> dict[str, Any]:
        s = self.state
        out = state_json(s, self.name)
        out["choices"] = self.log
        out["events"] = list(s.events or [])
        if s.is_terminal():
            out["summary"] = s.summary().to_json()
        return out

    def check(self, expect: Mapping[str, Any], path: str) -> None:
        """Every fact of ``expect`` that the position does not show, as a located message."""
        s = self.state
        printed = self.printed()
        head = f"{self.where}: {path}"
        for key, want in expect.items():
            where = f"{head} {key}" if path == "expect" else f"{head}.{key}"
            if key in ("legal", "illegal"):
                if isinstance(want, Mapping):  # {player: 1, choices: [...]}: that player chooses
                    chooser = None if s.is_terminal() else s.current_player()
                    if chooser != want["player"]:
                        now = "the game is over" if chooser is None else \
                            f"player {chooser} chooses now"
                        self.failed.append(f"{where}.player: player {want['player']} has no "
                                           f"choice now ({now})")
                        continue
                    want, where = want.get("choices", []), f"{where}.choices"
                texts = [t for _, plain, exact in choice_texts(s, self.name) for t in (plain, exact)]
                for i, t in enumerate(want):
                    if (_norm(t) in map(_norm, texts)) != (key == "legal"):
                        options = ", ".join(f"'{x}'" for _, _, x in choice_texts(s, self.name))
                        who = "nobody" if s.is_terminal() else f"player {s.current_player()}"
                        self.failed.append(f"{where}[{i}]: '{t}' is "
                                           f"{'not ' if key == 'legal' else ''}a legal choice "
                                           f"of {who} now (legal: {options or 'none'})")
            elif key == "sees":
                seat = int(want.get("player", 0))
                view = s.observation(seat).to_json()
                for k, v in want.items():
                    if k == "player":
                        continue
                    if k not in view:
                        self.failed.append(f"{where}.{k}: player {seat} sees no '{k}' (known: "
                                           f"{', '.join(view)})")
                    else:
                        self.failed += match(view[k], v, f"{where}.{k}")
            elif key == "events":
                self.failed += match(printed["events"], want, where, text=True)
            elif key in printed:  # a hand is a set of cards: its order is the engine's own
                self.failed += match(printed[key], want, where, unordered_keys=("hand",))
            else:
                self.failed.append(f"{where}: no such fact (known: "
                                   f"{', '.join([*printed, 'legal', 'illegal', 'sees'])})")


def play_scenario(game: DotdGame, data: Mapping[str, Any], where: str = "scenario") -> tuple[DotdState, list[dict[str, Any]]]:
    """Build the state, apply every listed choice; returns the state and a log of the choices."""
    run = _Play(game, data, where)
    for k, item in enumerate(data.get("actions", []) or []):
        run.step(k, item)
    return run.state, run.log


def run(game: DotdGame, data: Mapping[str, Any], where: str) -> tuple[dict[str, Any], list[str]]:
    """Play a scenario file's position and choices; (the printed result, failed facts)."""
    r = _Play(game, data, where, narrate=True)
    try:
        for k, item in enumerate(data.get("actions", []) or []):
            r.step(k, item)
        if data.get("expect"):
            r.check(data["expect"], "expect")
    except ScenarioError as exc:  # the position's warning is likely why a step fails: say both
        exc.warnings = tuple(_said(where, r.warnings))
        exc.failed = tuple(r.failed)  # an expectation that failed first says why the step did
        raise
    out = r.printed()
    if r.warnings:
        out["warnings"] = _said(where, r.warnings)
    return out, r.failed


def _said(where: str, warnings: list[str]) -> list[str]:
    """The position's warnings as printed, located by the caller from ``where``."""
    return [f"{where}: {w} (a position the rules cannot reach)" for w in warnings]


def check_expect(actual: Any, expect: Any, path: str = "") -> list[str]:
    """Where ``actual`` (the JSON a scenario prints) differs from the facts in ``expect``
    (exact values or matchers, engine/expect.py); keys not in ``expect`` are ignored."""
    return match(actual, expect, path)


def scenario_params(params: Mapping[str, Any], where: str) -> dict[str, Any]:
    """A scenario's ``params:`` checked as game.yaml's are (names, types, ranges: this game's
    part of the schema), so a typo is an error, not a silently ignored key."""
    import json
    from pathlib import Path

    spec = json.loads(Path(__file__).with_name("game.schema.json").read_text(encoding="utf-8"))
    known = spec["$defs"]["dotd_params"]["properties"]
    out = {}
    for key, value in params.items():
        rule = known.get(key)
        if rule is None:
            raise ScenarioError(f"{where}: params.{key}: unknown Day of the Dead param '{key}' "
                                f"(known: {', '.join(known)})")
        if rule.get("type") == "boolean":
            ok = isinstance(value, bool)
        else:
            ok = isinstance(value, int) and not isinstance(value, bool) and \
                rule.get("minimum", value) <= value <= rule.get("maximum", value)
        if not ok:
            kind = "true or false" if rule.get("type") == "boolean" else \
                f"a whole number in {rule.get('minimum')}..{rule.get('maximum')}"
            raise ScenarioError(f"{where}: params.{key}: param '{key}' must be {kind}, got {value!r}")
        out[key] = value
    return out
