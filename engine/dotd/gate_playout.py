"""The gate agent's playouts (engine/dotd/gate.py), compiled with the engine.

Why a module of its own: the lookahead spends most of its time applying random actions to the end
of a turn, a loop of a few cheap calls per action. Compiled beside the state machine (pyproject.toml
``[tool.boneyard] compiled``) those calls are native, which the gate's own module (a Python
subclass of greedy that reads the observation) cannot be. Pure Python runs the same code to the
same numbers: only int and float arithmetic and the engine's own moves.
"""

from __future__ import annotations

from .game import DotdState


def action_values(world: DotdState, legal: list[int], luck: list[float], me: int,
                  final_weight: float) -> list[float]:
    """Each action of ``legal`` applied to a copy of ``world`` and played on at random to the end
    of the turn, every action with the same ``luck`` (reused cyclically: common random numbers);
    its value is the score difference for ``me`` then, or ``final_weight`` times ``me``'s
    result when the game ended."""
    vals: list[float] = []
    period = len(luck)
    for a in legal:
        state = world.clone()
        state.apply_action(a)
        turn = state.turn
        k = 0
        while not state.done and state.turn == turn:
            acts = state.dl
            state.apply_action(acts[int(luck[k % period] * len(acts))])
            k += 1
        if state.done:
            vals.append(final_weight * state.returns()[me])
        else:
            vals.append(float(state.scores[me] - state.scores[1 - me]))
    return vals


def separated(seen: list[list[float]], totals: list[float], pick: int, z: float) -> bool:
    """Is the leader (``pick`` among equals) ahead of every other action by ``z`` standard errors
    of the paired per-deal difference (``seen``: one row of values a deal), or equal to it on
    every deal?"""
    n = len(totals)
    lead = pick
    for i in range(n):
        if totals[i] > totals[lead]:
            lead = i
    k = len(seen)
    for i in range(n):
        if i == lead:
            continue
        m = 0.0
        for v in seen:
            m += v[lead] - v[i]
        m /= k
        var = 0.0
        for v in seen:
            x = v[lead] - v[i] - m
            var += x * x
        var /= k - 1
        if var == 0.0:
            if m < 0.0:
                return False
            continue
        if m <= 0.0 or m * m * k < z * z * var:
            return False
    return True
