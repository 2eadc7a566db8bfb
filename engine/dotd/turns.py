"""The turn structure of Day of the Dead: opening a turn, the reveal, the rewards (DD-03 .. DD-05,
DD-20). Functions of the state, compiled with it (setup.py).
"""

from __future__ import annotations

from itertools import compress

from boneyard.engine.core import TERMINAL

from .codes import (
    A_TIE_BROKEN,
    A_UNSCORED,
    T_FIGHT,
    T_REVEAL,
    T_REWARDS,
    T_SELECT,
    T_SPIRIT_UNEARTH,
    UNEARTH,
)
from .narrate import note_reveal, note_rewards
from .position import Position


def _select_tasks(first: int, turn1: bool) -> tuple[tuple[int, ...], ...]:
    second = 1 - first
    # pushed last runs first. Turn 1: a fighter each, then a spirit each (DD-03: both fighters
    # go down, backs showing, before either spirit is chosen, as the summoning example plays it)
    seq = ((second, 1), (first, 1), (second, 0), (first, 0)) if turn1 else ((second, 1), (first, 1))
    return ((T_REVEAL,), *((T_SELECT, p, kind) for p, kind in seq))


# [turn 1?][priority holder] -> the tasks that open a turn (shared, never mutated)
SELECT_TASKS = [[_select_tasks(f, t1) for f in (0, 1)] for t1 in (False, True)]
FIGHT_TASKS = [(T_FIGHT, i) for i in range(16)]  # a turn's fights, shared tuples


def start_turn(st: Position) -> None:
    st.turn += 1
    lines, up, spirit = st.lines, st.up, st.spirit
    ev = st.events
    if ev is not None:
        ev.append(f"turn {st.turn}: player {st.prio + 1} holds priority")
    if st.turn > 1:
        for p in (0, 1):  # DD-05: the current spirit opens the new slot, face down
            s = spirit[p]
            if s >= 0:
                lines[p].append(s)
                up[p].append(False)
                spirit[p] = -1
                if ev is not None:
                    ev.append(f"player {p + 1}'s spirit {st.g.describe(s)} opens slot {len(lines[p])}")
    st.wonc = []
    st.lostc = []
    st.won_n = [0, 0]
    st.conv_n = [0, 0]
    st.retrig = [0, 0]
    # Reveal after the selections; the priority holder selects first (pushed last)
    st.stack += SELECT_TASKS[st.turn == 1][st.prio]


def reveal(st: Position) -> None:
    g = st.g
    pub = st.pub
    back = g.back
    char = g.char
    turn1 = st.turn == 1
    chosen, hands, lines, stats, nback = st.chosen, st.hands, st.lines, st.stats, st.nback
    up, spirit, eff_back = st.up, st.spirit, st.eff_back
    for p in (0, 1):
        ch = chosen[p]
        hand = hands[p]
        nb = nback[p]
        played = stats[p][0]
        for c in ch:
            hand.remove(c)
            nb[back[c]] += 1
            played.append(char[c])
        line = lines[p]
        if turn1:
            line.append(ch[0])  # the turn-1 fighter (face up with the field just below)
        s = ch[-1]
        spirit[p] = s
        eff_back[p] = back[s]
        chosen[p] = []
        up[p] = [True] * len(line)  # step 3: the field flips face up
        for c in line:
            pub[c] = True
        if st.events is not None:
            note_reveal(st, p, ch)
    stack = st.stack
    stack.append((T_REWARDS,))
    n = len(lines[0])
    if n <= len(FIGHT_TASKS):  # pushed oldest first: the newest slot fights first
        stack += FIGHT_TASKS[:n]
    else:
        stack += [(T_FIGHT, i) for i in range(n)]
    first = st.prio
    for p in (1 - first, first):  # DD-06: Unearth spirits resolve in priority order
        if back[spirit[p]] == UNEARTH:
            stack.append((T_SPIRIT_UNEARTH, p))


def rewards(st: Position) -> None:
    g = st.g
    power = g.power
    scores = st.scores
    if g.score_won_only:
        wonc = st.wonc
        for p in (0, 1):
            pts = 0
            for c, u in zip(st.lines[p], st.up[p], strict=True):
                if u:
                    if c in wonc:
                        pts += power[c]
                    else:
                        st.fired[A_UNSCORED] += 1  # active, but it won no fight this turn
            scores[p] += pts
    else:
        lines, up, get = st.lines, st.up, power.__getitem__
        scores[0] += sum(compress(map(get, lines[0]), up[0]))
        scores[1] += sum(compress(map(get, lines[1]), up[1]))
    st.score_log.append((st.scores[0], st.scores[1], st.prio))
    st.prio = 1 - st.prio  # pass priority
    st.fslot = -1
    if st.events is not None:
        note_rewards(st)
    if st.turn >= st.end_turn:
        st.done = True
        st.dp = TERMINAL
        st.dl = []
        if g.tie_chain and scores[0] == scores[1] and st.winner() is not None:
            st.fired[A_TIE_BROKEN] += 1  # tie_break: chain decided a level game
        if st.events is not None:
            w = st.winner()
            res = "a draw" if w is None else f"player {w + 1} wins"
            st.events.append(f"game over: {st.scores[0]} to {st.scores[1]}, {res}")
    else:  # the next turn starts at once (as a T_TURN task on top of the stack would)
        start_turn(st)
