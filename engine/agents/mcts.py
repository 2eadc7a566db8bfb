"""Information-set Monte Carlo tree search (single-observer ISMCTS), for any game of the core.

Why this flavour: both bundled games hide cards (hands, face-down spirits, deck order), so the
search must not look at the true state. Each simulation draws a fresh determinization from
``obs.determinize(rng)`` -- a full state consistent with what the player can see -- and walks one
shared tree of action sequences on it. A child's UCB term uses its *availability* count (how often
it was legal when its parent was reached), the standard ISMCTS correction. Every node stores the
return of the player who moved into it, so each player maximises their own share in multi-player
games. Forced moves (a single legal action, e.g. "pass" in a response window) are applied without
a tree node so the budget is spent on real choices; children are keyed by (mover, action) because
two samples can reach different players' decisions along the same actions. Playouts are uniformly
random, to the end of the game or, for long games, to a ``horizon`` of actions where a cheap
evaluation of the position (e.g. the race to the winning score) stands in for the result. An
optional ``prior`` agent's choice starts with a few virtual winning visits at the root. Per-game
settings live in :mod:`boneyard.engine.agents.evaluators`.

Paired mode (``paired=True``, used for Grave Feast): a flat, depth-one search for long,
high-variance games where a good heuristic already exists. Each of ``budget`` determinizations is a
shared "world": every legal action is tried in it, followed by the same ``playout`` policy with the
same playout seed (common random numbers), so candidates are compared on identical luck and the
noise of the comparison is the effect of the move, not of the draw. The ``prior`` agent's choice
is kept unless another action's mean return beats it by more than ``margin``: search overrules the
heuristic only on evidence. This is rollout-based policy improvement over the playout policy.

Reproducible by construction: all randomness comes from the ``rng`` given to :meth:`choose`;
children are scanned in the order of ``legal_actions()``, never a set or by time; the budget is a
number of simulations (sampled worlds), not seconds.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from boneyard.engine.core import Agent, Observation, State

DEFAULT_BUDGET = 50
"""Simulations per decision; see bench/bench_agents.py for the time this costs per decision."""

EXPLORATION = 0.7
"""UCB constant for returns in [0, 1]."""


class _Node:
    __slots__ = ("avail", "children", "player", "total", "visits")

    def __init__(self, player: int) -> None:
        self.player = player  # who chose the action leading here (whose return this node sums)
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        # keyed by (mover, action): in different samples the same action sequence can reach a
        # decision of another player (e.g. a response window only some hands can use)
        self.children: dict[tuple[int, int], _Node] = {}


class MctsAgent:
    """ISMCTS with ``budget`` simulations per decision, or with ``paired`` a flat search over
    ``budget`` sampled worlds shared by all actions (decisions with one legal action are free)."""

    __slots__ = ("budget", "evaluate", "exploration", "horizon", "margin", "name", "paired",
                 "playout", "prior", "prior_visits")

    def __init__(self, budget: int = DEFAULT_BUDGET, exploration: float = EXPLORATION,
                 name: str | None = None, horizon: int | None = None,
                 evaluate: Callable[[State], list[float]] | None = None,
                 playout: Callable[[State, random.Random], int] | None = None,
                 prior: Agent | None = None, prior_visits: int = 0, paired: bool = False,
                 margin: float = 0.0) -> None:
        if budget < 1:
            raise ValueError("mcts budget must be >= 1")
        if (horizon is None) != (evaluate is None):
            raise ValueError("a playout horizon needs an evaluation of the position it stops in")
        self.budget = budget
        self.exploration = exploration
        self.name = name or f"mcts:{budget}"
        self.horizon = horizon  # playout actions before ``evaluate`` estimates the returns
        self.evaluate = evaluate
        self.playout = playout  # playout policy on the sampled state; None = uniformly random
        # A cheap agent whose choice starts with ``prior_visits`` virtual winning visits at the
        # root: search must find something clearly better before it overrules it.
        self.prior = prior
        self.prior_visits = prior_visits
        # paired mode: every action tried in every sampled world; the prior's choice stands
        # unless another beats its mean return by more than ``margin``
        self.paired = paired
        self.margin = margin

    def choose(self, obs: Observation, rng: random.Random) -> int:
        legal = obs.legal_actions()
        if len(legal) == 1:
            return legal[0]
        favourite = None
        if self.prior is not None and (self.prior_visits > 0 or self.paired):
            favourite = self.prior.choose(obs, random.Random(rng.getrandbits(64)))
        if self.paired:
            means = self.paired_means(obs, rng)
            best = max(legal, key=lambda a: (means[a], a == favourite))  # first of equals
            if favourite is None or means[best] - means[favourite] > self.margin:
                return best
            return favourite
        root = self.search(obs, rng, favourite)
        best = legal[0]
        best_key = (-1, -math.inf)
        me = obs.player
        for a in legal:
            child = root.children.get((me, a))
            if child is None:
                continue
            key = (child.visits, child.total / child.visits)
            if key > best_key:  # strict: the first of equals (in legal order) wins
                best, best_key = a, key
        return best

    def search(self, obs: Observation, rng: random.Random, favourite: int | None = None) -> _Node:
        """Run the budget of simulations; the root's children carry the statistics."""
        root = _Node(obs.player)
        if favourite is not None:
            fav = root.children[(obs.player, favourite)] = _Node(obs.player)
            fav.visits = fav.avail = self.prior_visits
            fav.total = float(self.prior_visits)
        c = self.exploration
        log = math.log
        sqrt = math.sqrt
        horizon = -1 if self.horizon is None else self.horizon
        evaluate = self.evaluate
        policy = self.playout
        uniform = rng.random  # int(random() * n) is uniform over n and cheaper than randrange
        for _ in range(self.budget):
            state = obs.determinize(rng)
            node = root
            path: list[_Node] = []
            # Selection and expansion: descend while every legal action already has a child.
            while not state.is_terminal():
                acts = state.legal_actions()
                if len(acts) == 1:
                    state.apply_action(acts[0])
                    continue
                children = node.children
                mover = state.current_player()
                untried = [a for a in acts if (mover, a) not in children]
                for a in acts:
                    ch = children.get((mover, a))
                    if ch is not None:
                        ch.avail += 1
                if untried:
                    a = untried[rng.randrange(len(untried))]
                    child = _Node(mover)
                    child.avail = 1
                    children[(mover, a)] = child
                    state.apply_action(a)
                    path.append(child)
                    break
                best_a = acts[0]
                best_child = children[(mover, best_a)]
                best_u = -math.inf
                for a in acts:
                    ch = children[(mover, a)]
                    u = ch.total / ch.visits + c * sqrt(log(ch.avail) / ch.visits)
                    if u > best_u:
                        best_u, best_a, best_child = u, a, ch
                state.apply_action(best_a)
                path.append(best_child)
                node = best_child
            # Playout: uniformly random to the end of the game, or to the horizon.
            steps = 0
            while not state.is_terminal():
                if steps == horizon:
                    ret = evaluate(state)  # type: ignore[misc]
                    break
                if policy is None:
                    acts = state.legal_actions()
                    state.apply_action(acts[int(uniform() * len(acts))])
                else:
                    state.apply_action(policy(state, rng))
                steps += 1
            else:
                ret = state.returns()
            root.visits += 1
            for n in path:
                n.visits += 1
                n.total += ret[n.player]
        return root

    def paired_means(self, obs: Observation, rng: random.Random) -> dict[int, float]:
        """Mean return of each legal action over ``budget`` sampled worlds shared by all actions."""
        legal = obs.legal_actions()
        me = obs.player
        totals = dict.fromkeys(legal, 0.0)
        for _ in range(self.budget):
            world = obs.determinize(rng)
            seed = rng.getrandbits(64)  # one playout stream per world: the same luck for every action
            for a in legal:
                state = world.clone()
                state.apply_action(a)
                totals[a] += self.rollout(state, random.Random(seed))[me]
        return {a: t / self.budget for a, t in totals.items()}

    def rollout(self, state: State, rng: random.Random) -> list[float]:
        """Play ``state`` on by the playout policy; the result, or the evaluation at the horizon."""
        policy = self.playout
        horizon = -1 if self.horizon is None else self.horizon
        steps = 0
        while not state.is_terminal():
            if steps == horizon:
                return self.evaluate(state)  # type: ignore[misc]
            acts = state.legal_actions()
            if len(acts) == 1:
                state.apply_action(acts[0])
            elif policy is None:
                state.apply_action(acts[int(rng.random() * len(acts))])
            else:
                state.apply_action(policy(state, rng))
            steps += 1
        return state.returns()
