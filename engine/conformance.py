"""The checks every game must pass, through the core verbs alone (OpenSpiel's random_sim_test).

:func:`check_game` plays random games of a registered game and checks, at every decision: a
player to move with a non-empty list of distinct legal actions until the end; an action outside
that list raises :class:`~boneyard.errors.RulesError` and changes nothing; a clone is independent
of its original; the mover's observation lists the same legal actions and never reveals a hidden
card (every sample of the hidden cards, ``determinize``, looks the same to that player); at the
end, returns in [0, 1] that sum to 1 and no legal action; the same seed gives the same game; a
game's ``Metrics.counter``, if it has one, gives the sums its summaries' tally gives. A
game that breaks one raises :class:`ConformanceError` naming the seed and the step.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable
from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.core import TERMINAL, State
from boneyard.engine.spec import GameSpec

from boneyard.errors import RulesError

MAX_STEPS = 100_000
"""Decisions before a game counts as stuck."""


class ConformanceError(AssertionError):
    """A game broke a rule of the core contract (the message names the seed and the step)."""


def _view(state: State, player: int) -> str:
    return json.dumps(state.observation(player).to_json(), sort_keys=True, default=str)


def _fail(seed: int, step: int, what: str) -> ConformanceError:
    return ConformanceError(f"seed {seed}, step {step}: {what}")


def _check_step(state: State, seed: int, step: int, rng: random.Random, players: int) -> None:
    p = state.current_player()
    if not 0 <= p < players:
        raise _fail(seed, step, f"current_player() is {p}, not a seat of {players}")
    legal = list(state.legal_actions())
    if not legal:
        raise _fail(seed, step, "a decision without a legal action")
    if len(set(legal)) != len(legal):
        raise _fail(seed, step, f"legal actions repeat: {legal}")
    obs = state.observation(p)
    if list(obs.legal_actions()) != legal:
        raise _fail(seed, step, "the observation lists other legal actions than the state")
    before = _view(state, p)
    bad = max(legal) + 1
    probe = state.clone()
    try:
        probe.apply_action(bad)
    except RulesError:
        pass
    else:
        raise _fail(seed, step, f"illegal action {bad} was accepted")
    if _view(state, p) != before:
        raise _fail(seed, step, "an illegal action on a clone changed the original")
    twin = state.clone()
    twin.apply_action(legal[rng.randrange(len(legal))])
    if _view(state, p) != before or list(state.legal_actions()) != legal:
        raise _fail(seed, step, "playing on a clone changed the original")
    for k in range(2):
        sample = obs.determinize(random.Random(seed * 7919 + step * 31 + k))
        if _view(sample, p) != before:
            raise _fail(seed, step, f"player {p}'s view of a determinized state differs from "
                                    "the view it came from (a hidden card shows, or is lost)")


def _finish(state: State, seed: int, step: int, players: int) -> list[float]:
    if state.current_player() != TERMINAL:
        raise _fail(seed, step, "a terminal state must have current_player() == TERMINAL")
    if state.legal_actions():
        raise _fail(seed, step, "a finished game still offers legal actions")
    returns = list(state.returns())
    if len(returns) != players or any(not 0.0 <= r <= 1.0 for r in returns) \
            or abs(sum(returns) - 1.0) > 1e-9:
        raise _fail(seed, step, f"returns {returns} are not shares of one win")
    return returns


def play_checked(spec: GameSpec, card_set: CardSet, seed: int, *,
                 num_players: int | None = None, **options: Any) -> tuple[list[int], list[float]]:
    """One random game with every check; its actions and returns."""
    game = spec.make_game(card_set, num_players, **options)
    players = game.num_players
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    actions: list[int] = []
    while not state.is_terminal():
        step = len(actions)
        if step >= MAX_STEPS:
            raise _fail(seed, step, f"no end after {MAX_STEPS} decisions")
        _check_step(state, seed, step, rng, players)
        legal = state.legal_actions()
        action = legal[rng.randrange(len(legal))]
        state.apply_action(action)
        actions.append(action)
    return actions, _finish(state, seed, len(actions), players)


def check_game(spec: GameSpec, card_set: CardSet, seeds: Iterable[int], *,
               num_players: int | None = None, **options: Any) -> int:
    """Play a checked random game per seed (each twice: same seed, same game); the decisions
    checked. Raises ConformanceError on the first broken rule."""
    checked = 0
    played: list[tuple[int, list[int]]] = []
    for seed in seeds:
        first = play_checked(spec, card_set, seed, num_players=num_players, **options)
        again = play_checked(spec, card_set, seed, num_players=num_players, **options)
        if first != again:
            raise ConformanceError(f"seed {seed}: the same seed played another game")
        checked += len(first[0])
        played.append((seed, first[0]))
    _check_counter(spec, card_set, played, num_players, options)
    return checked


def _check_counter(spec: GameSpec, card_set: CardSet, played: list[tuple[int, list[int]]],
                   num_players: int | None, options: dict[str, Any]) -> None:
    """The game's counter (a block's counts read from finished states) against the tally of the
    same games' summaries: every sum equal."""
    from boneyard.engine.stats import Tally

    metrics = spec.metrics()
    if metrics.counter is None:
        return
    game = spec.make_game(card_set, num_players, **options)
    counter = metrics.counter(game)
    slow = Tally()
    for seed, actions in played:
        state = game.new_initial_state(seed)
        for a in actions:
            state.apply_action(a)
        counter.add(state)
        metrics.tally(slow, state.summary(), game.num_players)
    fast: dict[str, list[float]] = {}
    counter.into(fast)
    for name in sorted(set(fast) | set(slow.sums)):
        if fast.get(name) != slow.sums.get(name):
            raise ConformanceError(f"the counter gives {name} = {fast.get(name)}, the summaries' "
                                   f"tally {slow.sums.get(name)}")
