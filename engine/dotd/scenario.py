"""Scenarios: pin down any Day of the Dead position from plain data, then play given choices.

A designer (or a test) writes the cards in each zone, the turn, the phase, priority and scores,
and the choices to make as action strings (``"convert oaf@double"``, ``"keep nemesis@double"``,
``"no"``); :func:`build_state` makes the State and :func:`play_scenario` applies the choices.
The format is described by ``schema/scenario.schema.json``; the CLI (``boneyard scenario FILE``)
reads YAML and prints the result as JSON. Every card of the set not placed explicitly goes into
its back's deck, shuffled from ``seed`` beneath any cards listed on top.

Phases:
  ``start``  the beginning of ``turn``: the spirits given move into the new slot, then both
             players select (turn 1: lines empty, nothing moves).
  ``reveal`` both players have chosen: ``spirit`` is the card chosen this turn (on turn 1 the
             single line card is the fighter just placed); step 3 flips the field, Unearth
             spirits resolve, then the fights.
  ``fight``  the field is as given; fights start at ``slot`` (1-based, default the newest).

``end_turn`` ends the game after that turn's Rewards (default: the last turn), so a scenario
about one turn needs no hand cards for the next.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from boneyard.errors import ScenarioError

from .cards import BACKS
from .codes import T_FIGHT, T_REVEAL, T_REWARDS, T_TURN
from .game import DotdGame, DotdState

PHASES = ("start", "reveal", "fight")


class _Cards:
    """Hands out each physical card once, by ``character@back`` id."""

    def __init__(self, game: DotdGame, where: str) -> None:
        self.game = game
        self.used: set[int] = set()
        self.where = where

    def take(self, ref: Any, what: str) -> int:
        if not isinstance(ref, str) or "@" not in ref:
            raise ScenarioError(
                f"{self.where}: {what}: '{ref}' is not a card id (write character@back, e.g. oaf@double)"
            )
        copies = self.game.card_index.get(ref.strip().lower())
        if copies is None:
            raise ScenarioError(f"{self.where}: {what}: no card '{ref}' in this set")
        for c in copies:
            if c not in self.used:
                self.used.add(c)
                return c
        n = len(copies)
        raise ScenarioError(
            f"{self.where}: {what}: card '{ref}' is used more often than the set has it ({n})"
        )


def build_state(game: DotdGame, data: Mapping[str, Any], where: str = "scenario") -> DotdState:
    """A State at the position ``data`` describes; ScenarioError names the first problem."""
    phase = data.get("phase", "fight")
    if phase not in PHASES:
        raise ScenarioError(f"{where}: phase '{phase}' is not one of {', '.join(PHASES)}")
    turn = int(data.get("turn", 1))
    if not 1 <= turn <= game.turns:
        raise ScenarioError(f"{where}: turn {turn} is outside 1..{game.turns}")
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
        for c in (data.get("discards") or {}).get(back, []):
            c = cards.take(c, f"{back} discard pile")
            if game.back[c] != b:
                raise ScenarioError(f"{where}: {game.card_name(c)} cannot lie in the {back} discard pile")
            s.discards[b].append(c)
            s.pub[c] = True
    tops: list[list[int]] = [[], [], []]
    for b, back in enumerate(BACKS):
        for c in (data.get("decks") or {}).get(back, []):
            c = cards.take(c, f"{back} deck")
            if game.back[c] != b:
                raise ScenarioError(f"{where}: {game.card_name(c)} cannot lie in the {back} deck")
            tops[b].append(c)
    for b in range(3):
        rest = [c for c in game.deck_order[b] if c not in cards.used]
        rng.shuffle(rest)
        s.decks[b] = rest + tops[b][::-1]  # the first listed card is the top (end of the list)
    if len(s.lines[0]) != len(s.lines[1]):
        raise ScenarioError(f"{where}: both lines must have the same number of slots")
    n = len(s.lines[0])
    if phase == "start":
        s.turn = turn - 1
        if n != turn - 1:
            raise ScenarioError(f"{where}: at the start of turn {turn} each line has {turn - 1} slots")
        if turn > 1 and any(x < 0 for x in s.spirit):
            raise ScenarioError(f"{where}: at the start of turn {turn} each player needs a spirit")
        s.stack = [(T_TURN,)]
    elif phase == "reveal":
        s.turn = turn
        if n != turn:
            raise ScenarioError(f"{where}: at the reveal of turn {turn} each line has {turn} slots")
        for p in (0, 1):
            if s.spirit[p] < 0:
                raise ScenarioError(f"{where}: player {p} needs the spirit chosen this turn")
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
            raise ScenarioError(f"{where}: during the fights of turn {turn} each line has {turn} slots")
        if any(x < 0 for x in s.spirit):
            raise ScenarioError(f"{where}: during the fights each player needs a spirit")
        slot = data.get("slot", n)
        if not 1 <= int(slot) <= n:
            raise ScenarioError(f"{where}: slot {slot} is outside 1..{n}")
        s.stack = [(T_REWARDS,)] + [(T_FIGHT, i) for i in range(int(slot))]
    end_turn = int(data.get("end_turn", game.turns))
    if not turn <= end_turn <= game.turns:
        raise ScenarioError(f"{where}: end_turn {end_turn} is outside {turn}..{game.turns}")
    s.end_turn = end_turn
    s.history = []
    s.count_backs()
    s._advance()
    return s


def apply_choice(state: DotdState, text: str, where: str = "scenario") -> None:
    """Apply the legal action whose text is ``text`` (case and spaces ignored)."""
    if state.is_terminal():
        raise ScenarioError(f"{where}: choice '{text}': the game is already over")
    want = " ".join(str(text).lower().split())
    legal = state.legal_actions()
    for a in legal:
        if state.action_to_string(a).lower() == want:
            state.apply_action(a)
            return
    options = ", ".join(f"'{state.action_to_string(a)}'" for a in legal)
    raise ScenarioError(
        f"{where}: choice '{text}' is not legal for player {state.current_player()} now (legal: {options})"
    )


def play_scenario(game: DotdGame, data: Mapping[str, Any], where: str = "scenario") -> tuple[DotdState, list[dict[str, Any]]]:
    """Build the state, apply every listed choice; returns the state and a log of the choices."""
    state = build_state(game, data, where)
    log: list[dict[str, Any]] = []
    for k, text in enumerate(data.get("actions", []) or []):
        player = state.current_player()
        apply_choice(state, text, f"{where}: actions[{k}]")
        log.append({"player": player, "action": text, "scores": list(state.scores)})
    return state, log



def check_expect(actual: Any, expect: Any, path: str = "") -> list[str]:
    """Where ``actual`` (the JSON a scenario prints) differs from the facts in ``expect``.

    Mappings are compared key by key (keys not in ``expect`` are ignored), lists element by
    element; a line slot may be expected as a bare card id, meaning only its card is checked.
    """
    here = path or "state"
    if isinstance(expect, Mapping):
        if not isinstance(actual, Mapping):
            return [f"{here}: expected a mapping, got {actual!r}"]
        out: list[str] = []
        for k, v in expect.items():
            if k not in actual:
                out.append(f"{here}.{k}: missing")
            else:
                out += check_expect(actual[k], v, f"{path}.{k}" if path else str(k))
        return out
    if isinstance(expect, list):
        if not isinstance(actual, list) or len(actual) != len(expect):
            return [f"{here}: expected {expect!r}, got {actual!r}"]
        out = []
        for k, (a, e) in enumerate(zip(actual, expect, strict=True)):
            out += check_expect(a, e, f"{here}[{k}]")
        return out
    if isinstance(expect, str) and isinstance(actual, Mapping) and "card" in actual:
        actual = actual["card"]
    if actual != expect:
        return [f"{here}: expected {expect!r}, got {actual!r}"]
    return []
