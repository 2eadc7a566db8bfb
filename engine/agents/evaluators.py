"""Per-game search settings that make mcts affordable and sound on long games.

Each game's spec carries its :class:`SearchSettings` (``GameSpec.search``): a short game can be
searched with plain ISMCTS and random playouts; a long, high-variance race needs paired mode
(see :mod:`.mcts`), greedy playouts cut off after ``horizon`` actions and a static ``evaluate``
of the position (:func:`race_returns` helps write one). Only the sampled (determinized) state is
read, so none of this can peek. Figures: docs/simulation.md.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from boneyard.engine.core import Agent, State

RACE_TEMPERATURE = 1.5
"""Humans of lead that make a player e (~2.7) times as likely to win."""


def race_returns(scores: Sequence[float], target: int,
                 temperature: float = RACE_TEMPERATURE) -> list[float]:
    """Win shares from a race to ``target`` (sums to 1; equal scores share equally); a score
    may be fractional (expected humans)."""
    weights = [math.exp(-max(0.0, target - s) / temperature) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """How mcts searches one game (see bench/strength.py for the figures behind the numbers)."""

    default_budget: int = 100  # simulations per decision for a bare "mcts"
    horizon: int | None = None  # playout actions before ``evaluate`` stands in for the result
    evaluate: Callable[[State], list[float]] | None = None
    prior_share: float = 0.0  # virtual visits for the greedy choice, as a share of the budget
    greedy_playout: float | None = None  # playouts by greedy, with this chance of a random move
    paired: bool = False  # flat search: every action in every sampled world (see mcts.py)
    margin: float = 0.0  # paired: how much better than greedy's choice an action must look


def greedy_playout(greedy: Agent, explore: float) -> Callable[[State, random.Random], int]:
    """A playout policy: the greedy agent on the sampled state, sometimes a random move."""

    def policy(state: State, rng: random.Random) -> int:
        acts = state.legal_actions()
        if len(acts) == 1:
            return acts[0]
        if explore and rng.random() < explore:
            return acts[int(rng.random() * len(acts))]
        return greedy.choose(state.observation(state.current_player()), rng)

    return policy
