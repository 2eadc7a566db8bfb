"""The effect interpreter: compiled effect steps run against a Day of the Dead state.

Every card's effect goes through :func:`exec_steps`, one branch per operation of the vocabulary
(``effects.RUN_*``); no card has its own code path. The fight-context operations cover most
primitives (power, auto_win, set_power, win_ties, suppress_spirit, negate are a field and a
value, see ``effects.PRIMITIVE_DEFS``), so a new primitive of that kind needs no code here.
Compiled with the state (setup.py): these run in every fight.
"""

from __future__ import annotations

from boneyard.errors import RulesError

from .choices import available, decide, look_at, start_dig, start_unearth
from .codes import (
    A_DOUBLE,
    C_ACTIVE,
    C_ADJACENT_ACTIVE,
    C_WINNERS,
    D_COPY,
    D_FLIP,
    DOUBLE,
    F_NEG,
    F_SUP,
    M_COUNT,
    M_HAS_EFFECT,
    M_LINE_BACK,
    M_LOSING,
    M_PRINTED_POWER,
    M_PRIORITY,
    M_SCORE_DIFF,
    M_SLOT,
    M_SLOT_NEWEST,
    M_SLOT_OLDEST,
    M_SPIRIT_BACK,
    M_TURN,
    RUN_COPY,
    RUN_DIG,
    RUN_FIGHT_ADD,
    RUN_FIGHT_SET,
    RUN_FLIP,
    RUN_FORCE_UNEARTH,
    RUN_PRIORITY,
    RUN_UNEARTH,
    RUN_VP,
    T_STEPS,
    CompiledCond,
    CompiledStep,
)
from .position import Position


def count(st: Position, p: int, counter: int) -> int:
    """A counter of docs/effects.md from ``p``'s side of the current fight.

    ``counter`` is a compiled counter code: its measure (C_*) shifted left by one, the side
    (0 ``p``'s, 1 the opponent's) in the low bit (effects.Counter.code).
    """
    side = p ^ (counter & 1)
    measure = counter >> 1
    if measure == C_WINNERS:
        return st.won_n[side]
    up = st.up[side]
    if measure == C_ADJACENT_ACTIVE:
        i = st.fslot
        n = 0
        if i > 0 and up[i - 1]:
            n += 1
        if i + 1 < len(up) and up[i + 1]:
            n += 1
        return n
    n_up = sum(up)
    return n_up if measure == C_ACTIVE else len(up) - n_up


def conds_hold(st: Position, p: int, conds: tuple[CompiledCond, ...]) -> bool:
    """Every test of a step's ``when:``, measured now from ``p``'s side of the fight.

    Each test is compiled to ``(measure, lo, hi, negated, arg)``: it holds when
    ``lo <= measured <= hi`` (or, negated, when not), so no comparison function is called.
    ``arg`` is the side measured (0 ``p``'s, 1 the opponent's) or the counter of M_COUNT.
    """
    g = st.g
    i = st.fslot
    for measure, lo, hi, neg, arg in conds:
        if measure == M_PRIORITY:
            x = 0 if st.prio == p else 1
        elif measure == M_TURN:
            x = st.turn
        elif measure == M_SLOT:
            x = i + 1
        elif measure == M_SPIRIT_BACK:
            s = st.spirit[p ^ arg]
            x = g.back[s] if s >= 0 else -1
        elif measure == M_LINE_BACK:
            x = g.back[st.lines[p ^ arg][i]]
        elif measure == M_PRINTED_POWER:
            x = g.power[st.lines[p ^ arg][i]]
        elif measure == M_HAS_EFFECT:
            x = int(g.has_effect[st.lines[p ^ arg][i]])
        elif measure == M_COUNT:
            x = count(st, p, arg)
        elif measure == M_SCORE_DIFF:
            x = st.scores[p] - st.scores[1 - p]
        elif measure == M_LOSING:
            x = int(st.losing(p))
        elif measure == M_SLOT_NEWEST:
            x = int(i == len(st.lines[p]) - 1)
        elif measure == M_SLOT_OLDEST:
            x = int(i == 0)
        else:
            return False
        if lo <= x <= hi:  # (in an if, each comparison takes CPython's fast int path)
            if neg:
                return False
        elif not neg:
            return False
    return True


def use_inline(st: Position, p: int, card: int) -> None:
    """All uses of an effect that needs no decision (same rules as the T_USE task).

    An inline effect never changes the spirit backs, so whether a Double repeats it is known
    up front; negation and suppression (which an effect may set) are checked before each use.
    """
    fx = st.fx
    if fx[F_NEG + p]:  # negated: no use at all
        return
    g = st.g
    double = st.eff_back[p] == DOUBLE
    if st.events is not None:
        st.events.append(
            f"player {p + 1} uses {g.describe(card)}'s effect" + (" (Double spirit)" if double else "")
        )
    steps = g.effect[card]
    exec_steps(st, p, steps, 0, 0)
    if double:
        u = 1
        uses = g.double_uses
        while u < uses and not fx[F_NEG + p] and not fx[F_SUP + p]:
            st.fired[A_DOUBLE] += 1
            exec_steps(st, p, steps, 0, 0)
            u += 1


def exec_steps(st: Position, p: int, steps: tuple[CompiledStep, ...], idx: int, depth: int) -> None:
    """The effect interpreter: run compiled ``steps`` from ``idx`` for ``p``'s fighter.

    One branch per operation of the vocabulary (effects.RUN_*), every card goes through here.
    A step that asks a player or starts a task leaves the remaining steps as a T_STEPS
    continuation, so what it started runs before the rest of the effect.
    """
    fx = st.fx
    fired = st.fired
    # a fresh use of the fighter's own effect (not a continuation, not a copy): its first step
    # to run counts the character's "effect fired" once
    fresh = idx == 0 and depth == 0
    for run, amount, opp, per, target, conds, slot, use_slot in steps[idx:] if idx else steps:
        idx += 1  # (the index of the next step, for a continuation)
        if conds and not conds_hold(st, p, conds):
            continue
        fired[slot] += 1
        if fresh:
            fired[use_slot] += 1
            fresh = False
        if run == RUN_FIGHT_ADD:  # power (the commonest step), auto_win, auto_lose
            fx[target + (p ^ opp)] += amount if per < 0 else amount * count(st, p, per)
        elif run == RUN_FIGHT_SET:  # set_power, win_ties, suppress_spirit, negate
            fx[target + (p ^ opp)] = amount
        elif run == RUN_VP:
            side = p ^ opp
            vp = amount if per < 0 else amount * count(st, p, per)
            st.scores[side] += vp
            if st.events is not None:
                st.events.append(f"player {side + 1} {'gains' if vp >= 0 else 'loses'} {abs(vp)} VP")
        elif run == RUN_PRIORITY:
            st.prio = p ^ opp
            if st.events is not None:
                st.events.append(f"player {p + 1} gives priority to player {2 - p}" if opp
                                   else f"player {p + 1} takes priority")
        else:  # the steps that may ask a player or start a task
            stack = st.stack
            n0 = len(stack)
            asking_step(st, p, run, amount, target, depth)
            if idx < len(steps) and (st.dk >= 0 or len(stack) != n0):
                stack.insert(n0, (T_STEPS, p, steps, idx, depth))
                return


def asking_step(st: Position, p: int, run: int, amount: int, target: int, depth: int) -> None:
    """The operations that may need a decision: Unearth, Dig, force_unearth, flip, copy."""
    if run == RUN_UNEARTH:
        start_unearth(st, p, False)
    elif run == RUN_DIG:
        start_dig(st, p, amount, st.lines[p][st.fslot])
    elif run == RUN_FORCE_UNEARTH:
        o = 1 - p
        c = st.lines[o][st.fslot]
        if available(st, st.g.back[c]) > 0:
            look_at(st, p, c, o)
    elif run == RUN_FLIP:
        i = st.fslot
        if target == 0:
            opts = [c for c, u in zip(st.lines[p], st.up[p], strict=True) if not u]
        else:
            o = 1 - p
            opts = [c for j, c in enumerate(st.lines[o]) if j > i and st.up[o][j]]
        if opts:
            decide(st, D_FLIP, p, opts, target)
    elif run == RUN_COPY:
        if depth >= 1:  # DD-10: copy depth 1
            return
        i = st.fslot
        has = st.g.has_effect
        line, up = st.lines[p], st.up[p]
        if target == 0:
            c = st.lines[1 - p][i]
            opts = [c] if st.up[1 - p][i] and has[c] else []
        elif target == 1:
            opts = [
                line[j] for j in (i - 1, i + 1) if 0 <= j < len(line) and up[j] and has[line[j]]
            ]
        else:
            opts = [c for j, c in enumerate(line) if j != i and up[j] and has[c]]
        if opts:
            decide(st, D_COPY, p, opts, None)
    else:  # a RUN_* code the vocabulary has and this interpreter does not
        raise RulesError(f"the interpreter has no operation {run}")
