"""An agent's move with its reason, where the agent can give one.

An agent that has ``explain(obs, rng) -> (action, reason)`` gives its own. For the shared agents
the reason is read off the choice itself: random names how many moves it picked among, mcts the
statistics its search chose by (the same choice as ``MctsAgent.choose`` from the same stream; a
test holds the two together). A reason never names the move, so it may follow a hidden choice.
"""

from __future__ import annotations

import math
import random
from typing import Any

from boneyard.engine.agents import MctsAgent, RandomAgent
from boneyard.engine.core import Agent, Observation


def choose_with_reason(agent: Agent, obs: Observation, rng: random.Random) -> tuple[int, str | None]:
    """(the agent's action, its reason or None)."""
    explain: Any = getattr(agent, "explain", None)
    if callable(explain):
        action, reason = explain(obs, rng)
        return int(action), reason
    legal = obs.legal_actions()
    if len(legal) == 1:
        return legal[0], None
    if isinstance(agent, RandomAgent):
        return agent.choose(obs, rng), f"random: one of {len(legal)} moves"
    if isinstance(agent, MctsAgent):
        return _mcts(agent, obs, rng)
    return agent.choose(obs, rng), None


def _mcts(agent: MctsAgent, obs: Observation, rng: random.Random) -> tuple[int, str]:
    """``MctsAgent.choose``, step for step, keeping the figures it decided by."""
    legal = obs.legal_actions()
    favourite = None
    if agent.prior is not None and (agent.prior_visits > 0 or agent.paired):
        favourite = agent.prior.choose(obs, random.Random(rng.getrandbits(64)))
    if agent.paired:
        means = agent.paired_means(obs, rng)
        best = max(legal, key=lambda a: (means[a], a == favourite))
        if favourite is not None and means[best] - means[favourite] <= agent.margin:
            best = favourite
        ranked = sorted(means.values(), reverse=True)
        runner = ranked[1] if len(ranked) > 1 else ranked[0]
        return best, (f"{agent.name}: expected share of the win {means[best]:.2f} over "
                      f"{agent.budget} sampled deals (next best {runner:.2f}, {len(legal)} moves)")
    root = agent.search(obs, rng, favourite)
    best = legal[0]
    best_key: tuple[int, float] = (-1, -math.inf)
    me = obs.player
    for a in legal:
        child = root.children.get((me, a))
        if child is None:
            continue
        key = (child.visits, child.total / child.visits)
        if key > best_key:
            best, best_key = a, key
    visits, value = best_key
    if visits < 0:
        return best, f"{agent.name}: no simulation reached a move; the first is taken"
    return best, (f"{agent.name}: {visits} of {agent.budget} simulations chose it, expected "
                  f"share of the win {value:.2f} ({len(legal)} moves)")
