"""The gate agent's playouts (engine/dotd/gate.py), compiled with the engine.

Why a module of its own: the lookahead spends most of its time applying actions to the end of a
turn, a loop of a few cheap calls per action. Compiled beside the state machine (pyproject.toml
``[tool.boneyard] compiled``) those calls are native, which the gate's own module (a Python
subclass of greedy that reads the observation) cannot be. Pure Python runs the same code to the
same numbers: only int and float arithmetic and the engine's own moves.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .codes import D_CONVERT, D_UE_PICK, D_UE_TARGET
from .game import DotdState


def lookahead(determinize: Callable[[random.Random], DotdState], legal: list[int], pick: int,
              worlds: int, rng: random.Random, me: int, final_weight: float, depth: int,
              per_deal: int, luck_size: int, race_min: int, race_z: float, prune: bool) -> int:
    """The index in ``legal`` of the action the gate's lookahead picks (``GateAgent._lookahead``,
    which says how), ``pick`` the index of greedy's pick; ``depth`` < 0: random playouts, else
    the hindsight playouts that deep. Here, compiled, rather than in the agent: in Python the
    loop over the deals (drawing each deal's numbers, keeping the rows, the race) took about 6%
    of the agent's time, compiled about 4% (cProfile, 150 games); the same draws in the same
    order, so the same games."""
    n = len(legal)
    totals = [0.0] * n
    seen: list[list[float]] = []
    active = list(range(n))
    rnd = rng.random
    world = determinize(rng)
    for w in range(1, worlds + 1):
        if w > 1 and (w - 1) % per_deal == 0:
            world = determinize(rng)
        # one stream of playout numbers, replayed for every action (common random numbers)
        luck = [rnd() for _ in range(luck_size)]
        acts = legal if len(active) == n else [legal[i] for i in active]
        if depth < 0:
            vals = action_values(world, acts, luck, me, final_weight)
        else:
            vals = hindsight_values(world, acts, luck, me, final_weight, depth)
        if len(active) < n:  # a full row, the dropped actions' places unused
            row = [0.0] * n
            for j in range(len(active)):
                row[active[j]] = vals[j]
            vals = row
        for i in active:
            totals[i] += vals[i]
        seen.append(vals)
        if race_min <= w < worlds:
            if prune:
                active = survivors(seen, totals, active, pick, race_z)
                if len(active) == 1:
                    break
            elif separated(seen, totals, pick, race_z):
                break
    best = pick if pick in active else active[0]
    for i in active:
        if totals[i] > totals[best]:
            best = i
    return best


def action_values(world: DotdState, legal: list[int], luck: list[float], me: int,
                  final_weight: float) -> list[float]:
    """Each action of ``legal`` applied to a copy of ``world`` and played on at random to the end
    of the turn, every action with the same ``luck`` (reused cyclically: common random numbers);
    its value is the score difference for ``me`` then, or ``final_weight`` times ``me``'s
    result when the game ended."""
    vals: list[float] = []
    period = len(luck)
    for a in legal:
        state = world.fork()
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


def hindsight_values(world: DotdState, legal: list[int], luck: list[float], me: int,
                     final_weight: float, depth: int) -> list[float]:
    """Each action of ``legal`` applied to a copy of ``world`` and played on to the end of the
    turn, as :func:`action_values` plays it, except ``me``'s own choices of what to Unearth,
    which card to keep from the look and whether to convert a loser: each is the best for ``me``
    in this sampled deal (every option played on, the best value kept), up to ``depth`` such
    choices along any line of play. The rival's moves stay random, with the same ``luck`` for
    every option (common random numbers). A finished game is worth ``final_weight`` times
    ``me``'s result plus the final score difference (of two wins, the wider is safer).

    Why: a random playout Unearths a random card and keeps a random one of the three, so an
    Unearth spirit, or a loser with an Unearth back, looked no better than chance; in the deal
    the agent knows every card, so what the choice is worth there is what a player who makes it
    well gets (perfect-information sampling, as card-game programs since GIB do)."""
    vals: list[float] = []
    for a in legal:
        state = world.fork()
        state.apply_action(a)
        vals.append(_hindsight(state, luck, 0, me, state.turn, depth, final_weight))
    return vals


def _hindsight(state: DotdState, luck: list[float], k: int, me: int, turn: int, depth: int,
               final_weight: float) -> float:
    """The value of ``state`` for ``me`` at the end of ``turn`` (see :func:`hindsight_values`);
    ``k`` is the next random number of ``luck`` to use."""
    period = len(luck)
    while not state.done and state.turn == turn:
        acts = state.dl
        n = len(acts)
        kind = state.dk
        if depth > 0 and n > 1 and state.dp == me and kind in (D_UE_TARGET, D_UE_PICK, D_CONVERT):
            best = -1e300
            last = n - 1
            for j in range(n):  # each option meets the same luck after it
                # the last option plays on this state itself, which nothing reads after it
                branch = state.fork() if j < last else state
                branch.apply_action(acts[j])
                v = _hindsight(branch, luck, k + 1, me, turn, depth - 1, final_weight)
                if v > best:
                    best = v
            return best
        state.apply_action(acts[int(luck[k % period] * n)])
        k += 1
    d = float(state.scores[me] - state.scores[1 - me])
    if state.done:
        return final_weight * state.returns()[me] + d
    return d


def _ahead(seen: list[list[float]], lead: int, i: int, z: float) -> bool:
    """Is action ``lead`` ahead of action ``i`` by ``z`` standard errors of their paired per-deal
    difference (``seen``: one row of values a deal), or equal to it on every deal?"""
    k = len(seen)
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
        return m >= 0.0
    return m > 0.0 and m * m * k >= z * z * var


def separated(seen: list[list[float]], totals: list[float], pick: int, z: float) -> bool:
    """Is the leader (``pick`` among equals) ahead of every other action by ``z`` standard errors
    of the paired per-deal difference (``seen``: one row of values a deal), or equal to it on
    every deal?"""
    return len(survivors(seen, totals, list(range(len(totals))), pick, z)) == 1


def survivors(seen: list[list[float]], totals: list[float], active: list[int], pick: int,
              z: float) -> list[int]:
    """The actions of ``active`` still in the race: the leader among them (``pick`` among equals,
    else the first) and each one it is not ahead of by ``z`` standard errors of their paired
    per-deal difference (``seen``: one row of values a deal; an action equal to the leader on
    every deal is out). Why: an action clearly behind needs no more playouts, while the close
    ones get every deal (successive elimination)."""
    lead = pick if pick in active else active[0]
    for i in active:
        if totals[i] > totals[lead]:
            lead = i
    return [i for i in active if i == lead or not _ahead(seen, lead, i, z)]
