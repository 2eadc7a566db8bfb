"""Paired win share of a gate agent against an opponent, and its speed (tuning and bench aids)."""
from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from boneyard.engine.agents import make_agent


def results(game: Any, agent: Any, opponent: str | Any, lo: int, hi: int, seed: int = 7,
            players: int = 2) -> list[float]:
    """The agent's result in games ``lo``..``hi``-1 of the deals below (seats rotated, a draw
    counts half): a slice, so that blocks of them can run on several cores."""
    opp = make_agent(opponent, game) if isinstance(opponent, str) else opponent
    out = []
    for i in range(lo, hi):
        state = game.new_initial_state(seed * 1_000_003 + i)
        mine = i % players
        rngs = [random.Random(seed * 7919 + i * 31 + k) for k in range(players)]
        while not state.is_terminal():
            p = state.current_player()
            obs = state.observation(p)
            legal = obs.legal_actions()
            if len(legal) == 1:
                state.apply_action(legal[0])
                continue
            who = agent if p == mine else opp
            state.apply_action(who.choose(obs, rngs[p]))
        out.append(state.returns()[mine])
    return out


def mean_interval(rs: list[float]) -> tuple[float, float]:
    """(mean, half-width of its 95% interval)."""
    m = sum(rs) / len(rs)
    sd = math.sqrt(max(0.0, sum(r * r for r in rs) / len(rs) - m * m))
    return m, 1.96 * sd / math.sqrt(len(rs))


def win_share(game: Any, agent: Any, opponent: str | Any, games: int, seed: int = 7,
              players: int = 2) -> tuple[float, float]:
    """(share, half-width of the 95% interval); seats rotated, a draw counts half."""
    return mean_interval(results(game, agent, opponent, 0, games, seed, players))


def every_seat(game: Any, make: Callable[[], Any], games: int, seed: int = 3) -> float:
    """Games/s (process CPU time, one core) with an agent from ``make`` in every seat."""
    players = getattr(game, "num_players", 2)
    agents = [make() for _ in range(players)]
    t = time.process_time()
    for i in range(games):
        state = game.new_initial_state(seed * 1_000_003 + i)
        rngs = [random.Random(i * 10 + k) for k in range(players)]
        while not state.is_terminal():
            p = state.current_player()
            state.apply_action(agents[p].choose(state.observation(p), rngs[p]))
    return games / (time.process_time() - t)
