"""Random agents played by the simulator's own loop (``engine/sim/play.py``: the draws made in one
loop, compiled where the game offers ``play_uniform``) give the very games the agents give when
they are asked move by move: a designer's seed means the same games however it is run."""

from __future__ import annotations

import random

import pytest
from boneyard.engine.agents import RandomAgent, uniform_choice
from boneyard.engine.games import make_game, spec_of
from boneyard.engine.sim.play import StuckGame, play_game
from boneyard.pipeline.load import load_set
from toy.game import ToyGame


class _Asked(RandomAgent):
    """The random agent asked at every decision (not ``uniform``: the loop may not take over)."""

    uniform = False
    legal_only = False


GAMES = [("day-of-the-dead", None), ("grave-feast", 2), ("grave-feast", 4)]


@pytest.mark.parametrize("rules, players", GAMES)
def test_the_loop_plays_the_games_the_agents_play(rules, players):
    game = make_game(load_set(spec_of(rules).bundled_set), players)
    n = game.num_players
    for seed in range(40):
        fast, fast_actions = play_game(game, [RandomAgent()] * n, seed)
        slow, slow_actions = play_game(game, [_Asked()] * n, seed)
        assert fast_actions == slow_actions, f"seed {seed}"
        assert fast.returns() == slow.returns()
        assert fast.summary().to_json() == slow.summary().to_json()


def test_a_game_without_a_compiled_loop_plays_the_same_games():
    game = ToyGame()
    assert not hasattr(game.new_initial_state(1), "play_uniform")
    for seed in range(20):
        assert play_game(game, [RandomAgent()] * game.num_players, seed)[1] == \
            play_game(game, [_Asked()] * game.num_players, seed)[1]


def test_the_draw_is_randranges():
    """The games random agents played before the loop existed are unchanged."""
    a, b = random.Random(7), random.Random(7)
    for n in [1, 2, 3, 5, 8, 9, 31, 64, 100] * 50:
        acts = list(range(n))
        assert uniform_choice(acts, a.getrandbits) == (b.randrange(n) if n > 1 else 0)


@pytest.mark.parametrize("rules, players", GAMES[:2])
def test_a_game_past_the_cap_is_stuck_either_way(rules, players):
    game = make_game(load_set(spec_of(rules).bundled_set), players)
    n = game.num_players
    with pytest.raises(StuckGame) as fast:
        play_game(game, [RandomAgent()] * n, 3, max_actions=10)
    with pytest.raises(StuckGame) as slow:
        play_game(game, [_Asked()] * n, 3, max_actions=10)
    assert fast.value.actions == slow.value.actions and len(fast.value.actions) == 10
