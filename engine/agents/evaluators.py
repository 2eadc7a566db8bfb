"""Per-game search settings that make mcts affordable and sound on long games.

A random Grave Feast playout runs 100+ actions (a race to 9 humans with stalls and reshuffles),
and a few dozen of those per decision cannot separate ten candidate plays. So for Grave Feast the
playout stops after a short horizon and the race is scored instead (each player's share of a win
grows exponentially as they near the winning score), and the greedy agent's choice enters the
root with a few virtual winning visits, so search overrules the heuristic only on evidence.
Only the sampled (determinized) state is read, so none of this can peek. Day of the Dead games
are six turns long: full random playouts, no prior.

Measured (bench/strength.py, 1,000 games, seats rotated): Day of the Dead mcts:50 beats greedy
(about 81%); in Grave Feast mcts:30 with these settings only matches greedy (about 50% at 2
players, 24% against a fair 25% at 4), and doubling the budget does not change that. Greedy
playouts (``greedy_playout=0.1``, 50 simulations) looked better on 150 games but were back to 52%
after 400, at ten times the cost; a stronger Grave Feast search needs a better leaf evaluation.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from boneyard.engine.core import Agent, State

RACE_TEMPERATURE = 1.5
"""Humans of lead that make a player e (~2.7) times as likely to win."""


def race_returns(scores: list[int], target: int, temperature: float = RACE_TEMPERATURE) -> list[float]:
    """Win shares from a race to ``target`` (sums to 1; equal scores share equally)."""
    weights = [math.exp(-max(0, target - s) / temperature) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]


def _feast_race(state: State) -> list[float]:
    return race_returns(state.score, state.g.win_score)  # type: ignore[attr-defined]


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """How mcts searches one game (see bench/strength.py for the figures behind the numbers)."""

    default_budget: int = 100  # simulations per decision for a bare "mcts"
    horizon: int | None = None  # playout actions before ``evaluate`` stands in for the result
    evaluate: Callable[[State], list[float]] | None = None
    prior_share: float = 0.0  # virtual visits for the greedy choice, as a share of the budget
    greedy_playout: float | None = None  # playouts by greedy, with this chance of a random move


def greedy_playout(greedy: Agent, explore: float) -> Callable[[State, random.Random], int]:
    """A playout policy: the greedy agent on the sampled state, sometimes a random move."""

    def policy(state: State, rng: random.Random) -> int:
        acts = state.legal_actions()
        if len(acts) == 1:
            return acts[0]
        if rng.random() < explore:
            return acts[int(rng.random() * len(acts))]
        return greedy.choose(state.observation(state.current_player()), rng)

    return policy


SETTINGS: dict[str, SearchSettings] = {
    "day-of-the-dead": SearchSettings(default_budget=50),
    "grave-feast": SearchSettings(default_budget=30, horizon=20, evaluate=_feast_race, prior_share=0.2),
}
