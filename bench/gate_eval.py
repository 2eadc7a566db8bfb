"""Quick paired win share of the gate agent with given weights against an opponent (tuning aid)."""
from __future__ import annotations

import math
import random
from typing import Any

from boneyard.engine.agents import make_agent


def win_share(game: Any, agent: Any, opponent: str | Any, games: int, seed: int = 7,
              players: int = 2) -> tuple[float, float]:
    """(share, half-width of the 95% interval); seats rotated, a draw counts half."""
    opp = make_agent(opponent, game) if isinstance(opponent, str) else opponent
    total = 0.0
    sq = 0.0
    for i in range(games):
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
        r = state.returns()[mine]
        total += r
        sq += r * r
    m = total / games
    sd = math.sqrt(max(0.0, sq / games - m * m))
    return m, 1.96 * sd / math.sqrt(games)
