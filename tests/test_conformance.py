"""Every shipped game passes the generic conformance check (engine/conformance.py), at each
player count it allows and with its options; the check itself catches a broken game."""

from __future__ import annotations

import pytest
from boneyard.engine.conformance import ConformanceError, check_game
from boneyard.engine.games import spec_of
from boneyard.pipeline.load import load_set
from toy.game import ToyGame, ToyState
from toy.spec import SPEC as TOY


@pytest.mark.parametrize("rules, players, options, seeds", [
    ("day-of-the-dead", None, {}, range(12)),
    ("grave-feast", 2, {}, range(6)),
    ("grave-feast", 5, {}, range(3)),
    # issue 18: a looking Devil Wife's takes named cards of hands a sample had dealt anew
    ("grave-feast", 4, {"rares": True}, range(4)),
])
def test_shipped_games_pass_the_conformance_check(rules, players, options, seeds):
    spec = spec_of(rules)
    assert check_game(spec, load_set(spec.bundled_set), seeds, num_players=players,
                      **options) > 0


def test_the_check_catches_an_observation_that_shows_the_deck_order(monkeypatch):
    honest = ToyState.observation

    def leaky(self, player):
        obs = honest(self, player)
        view = obs.to_json()
        view["deck_order"] = list(self.deck)  # hidden: nobody may know it
        monkeypatch.setattr(obs, "to_json", lambda: view)
        return obs

    monkeypatch.setattr(ToyState, "observation", leaky)
    with pytest.raises(ConformanceError, match="view of a determinized state differs"):
        check_game(TOY, ToyGame().card_set, range(3))


def test_the_check_catches_an_engine_that_accepts_an_illegal_action(monkeypatch):
    strict = ToyState.apply_action

    def lenient(self, action):
        if action in self.legal_actions():
            strict(self, action)

    monkeypatch.setattr(ToyState, "apply_action", lenient)
    with pytest.raises(ConformanceError, match="was accepted"):
        check_game(TOY, ToyGame().card_set, range(1))


def test_the_check_catches_a_counter_that_disagrees_with_the_summaries():
    """A game's counter (its block's counts read from finished states) must give the very sums
    its summaries' tally gives: here one that forgets a character's play."""
    import dataclasses

    from boneyard.engine.spec import Metrics

    spec = spec_of("day-of-the-dead")
    own = spec.metrics()
    assert own.counter is not None

    class Forgetful:
        def __init__(self, game):
            self.inner = own.counter(game)

        def add(self, state):
            return self.inner.add(state)

        def into(self, sums):
            self.inner.into(sums)
            name = min(k for k in sums if k.endswith(".played") and sums[k][0])
            sums[name][0] -= 1

    broken = dataclasses.replace(spec, metrics=lambda: Metrics(own.tally, own.metrics, Forgetful))
    with pytest.raises(ConformanceError, match=r"the counter gives card\..*\.played"):
        check_game(broken, load_set(spec.bundled_set), range(2))
