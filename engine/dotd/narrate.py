"""What a Day of the Dead state says about itself: transcript events (only while
``DotdGame.record_events`` is on) and the state as plain data.

Kept out of the state module: none of it is on the hot path of a playout.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from boneyard.errors import RulesError

from .cards import BACKS
from .codes import (
    D_UE_PICK,
    DECISION_NAMES,
    F_AL,
    F_AW,
    F_BONUS,
    F_NEG,
    F_SETP,
    F_SUP,
    F_WT,
    NO_SETP,
    POWER_UP,
)
from .phrases import DEFAULT_BACK_NAMES
from .position import Position


def note_fighters_down(st: Position) -> None:
    """Turn 1, step 1 done: the fighters lie face down, their backs seen before the spirits."""
    g = st.g
    events = st.events
    assert events is not None  # only called while recording
    backs = ", ".join(f"player {p + 1}'s shows {DEFAULT_BACK_NAMES.get(BACKS[g.back[st.chosen[p][0]]], '?')}"
                      for p in (0, 1) if st.chosen[p])
    events.append(f"the turn-1 fighters go down face down: {backs}")


def note_reveal(st: Position, p: int, chosen: list[int]) -> None:
    g = st.g
    picks = [g.describe(c) for c in chosen]
    what = f"fighter {picks[0]}, spirit {picks[-1]}" if len(picks) > 1 else f"spirit {picks[0]}"
    field = ", ".join(f"{j + 1} {g.describe(c)}" for j, c in enumerate(st.lines[p]))
    events = st.events
    assert events is not None  # only called while recording
    events.append(f"player {p + 1} reveals {what}; the field flips face up: {field}")


def side_detail(st: Position, p: int, card: int, total: int) -> str:
    """``Oaf 9 = 7 +2 Power Up`` with the flags that decided the fight."""
    g = st.g
    fx = st.fx
    sp = fx[F_SETP + p]
    parts = [str(g.power[card]) if sp == NO_SETP else f"set to {sp}"]
    if fx[F_BONUS + p]:
        parts.append(f"{fx[F_BONUS + p]:+d} effects")
    if st.eff_back[p] == POWER_UP and not fx[F_SUP + p]:
        parts.append(f"{g.pu_bonus:+d} Power Up")
    if g.fp_power and p == st.first_prio:
        parts.append(f"{g.fp_power:+d} first player")
    flags = [
        name
        for idx, name in ((F_AW, "auto-win"), (F_AL, "auto-lose"), (F_WT, "wins ties"),
                          (F_SUP, "spirit suppressed"), (F_NEG, "negated"))
        if fx[idx + p]
    ]
    tail = f" [{', '.join(flags)}]" if flags else ""
    return f"player {p + 1}'s {g.characters[g.char[card]].name} {total} = {' '.join(parts)}{tail}"


def note_fight(st: Position, i: int, a: int, b: int, t0: int, t1: int, win0: bool, win1: bool) -> None:
    if win0 and win1:
        res = "tie, both win"
    elif win0:
        res = "player 1 wins, player 2's fighter falls"
    elif win1:
        res = "player 2 wins, player 1's fighter falls"
    else:
        res = "both lose and fall"
    events = st.events
    assert events is not None  # only called while recording
    events.append(
        f"fight slot {i + 1}: {side_detail(st, 0, a, t0)} vs {side_detail(st, 1, b, t1)}: {res}"
    )


def note_rewards(st: Position) -> None:
    log = st.score_log
    prev = log[-2] if len(log) > 1 else (0, 0, 0)
    now = log[-1]
    events = st.events
    assert events is not None  # only called while recording
    events.append(
        f"scores after turn {st.turn}: player 1 {now[0]} ({now[0] - prev[0]:+d}), "
        f"player 2 {now[1]} ({now[1] - prev[1]:+d}); priority passes to player {st.prio + 1}"
    )


def state_json(st: Position, name: Callable[[int], str] | None = None) -> dict[str, Any]:
    """The whole state as plain data (every card face shown: a referee's view); ``name`` names a
    card (a scenario tells copies apart with it), by default its id."""
    g = st.g
    name = name or g.card_name

    def zone(p: int) -> dict[str, Any]:
        return {
            "hand": [name(c) for c in st.hands[p]],
            "line": [
                {"card": name(c), "state": "active" if u else "fallen"}
                for c, u in zip(st.lines[p], st.up[p], strict=True)
            ],
            "spirit": name(st.spirit[p]) if st.spirit[p] >= 0 else None,
            "chosen": [name(c) for c in st.chosen[p]],
            "score": st.scores[p],
        }

    return {
        "turn": st.turn,
        "priority": st.prio,
        "first_priority": st.first_prio,
        "terminal": st.done,
        "winner": st.winner() if st.done else None,
        "scores": list(st.scores),
        "players": [zone(0), zone(1)],
        "fights": [
            {
                "turn": t,
                "slot": i + 1,
                "cards": [name(a), name(b)],
                "power": [t0, t1],
                "won": [w0, w1],
            }
            for t, i, a, b, t0, t1, w0, w1 in st.fight_log
        ],
        "decks": {BACKS[b]: len(st.decks[b]) for b in range(3)},
        "discards": {BACKS[b]: [name(c) for c in st.discards[b]] for b in range(3)},
        "decision": None
        if st.dk < 0
        else {
            "kind": DECISION_NAMES[st.dk],
            "player": st.dp,
            "legal": [_renamed(st, a, name) for a in st.dl],
        },
    }


def _renamed(st: Position, a: int, name: Callable[[int], str]) -> str:
    text = st.action_to_string(a)
    return text.replace(st.g.card_name(a), name(a), 1) if 0 <= a < st.g.n else text


def check_invariants(st: Position) -> None:
    """Every card is in exactly one zone (used by the conformance tests and scenarios)."""
    g = st.g
    seen = [0] * g.n
    zones = [*st.decks, *st.discards, *st.hands, *st.lines]
    for z in zones:
        for c in z:
            seen[c] += 1
    for s in st.spirit:
        if s >= 0:
            seen[s] += 1
    if st.dk == D_UE_PICK:
        for c in st.dc[2]:
            seen[c] += 1
    bad = [g.card_name(c) for c in range(g.n) if seen[c] != 1]
    if bad:
        raise RulesError(f"cards not in exactly one zone: {', '.join(bad[:8])}")
    if len(st.lines[0]) != len(st.lines[1]):
        raise RulesError("the two lines have different lengths")
