"""Random agents played by the simulator's own loop (``engine/sim/play.py``: the draws made in one
loop, compiled where the game offers ``play_uniform``) give the very games the agents give when
they are asked move by move: a designer's seed means the same games however it is run."""

from __future__ import annotations

import random

import pytest
from boneyard.engine.agents import RandomAgent, uniform_choice
from boneyard.engine.games import make_game, spec_of
from boneyard.engine.sim.play import RunSpec, StuckGame, play_block, play_game
from boneyard.engine.sim.seeds import agent_seed, agent_streams, game_seed, hash_seed
from boneyard.engine.sim.tally import (
    engine_metrics_module,
    tally_game,
    tally_metrics,
    typed_summary,
)
from boneyard.engine.stats import Tally
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


SWITCHED = [{}, {"tie_break": "chain", "score_basis": "won_this_turn"},
            {"selection": "priority_first", "conversion_window": "any_loser_this_turn",
             "prev_spirit_enters_as": "active", "deck_empty": "skip"}]


@pytest.mark.parametrize("switches", SWITCHED)
@pytest.mark.parametrize("agents", [("random",), ("greedy", "random")])
def test_the_counter_gives_the_tally_of_the_summaries(switches, agents):
    """A run that keeps no games counts them straight from their states (the game's
    ``Metrics.counter``): every sum, so every figure, is the one the summaries give."""
    card_set = load_set("day-of-the-dead").with_switches(**switches)
    game = make_game(card_set)
    engine = engine_metrics_module(card_set.rules)
    assert engine is not None and engine.counter is not None
    block = play_block(game, RunSpec(agents, 5, None, {}, keep_games=True), 0, 300)
    slow = Tally()
    for row in block["rows"]:
        tally_game(slow, engine, row["seats"], row["returns"],
                   typed_summary(card_set.rules, row["summary"]), 2)
    assert block["tally"] == slow.sums
    assert slow.n("decided_turn") < slow.n("games") or slow.total("draw_rate") == 0
    fast = [m.to_json() for m in tally_metrics(card_set.rules, Tally(block["tally"]), 2)]
    assert fast == [m.to_json() for m in tally_metrics(card_set.rules, slow, 2)]
    assert len(fast) > 200  # the per-character figures are there


@pytest.mark.parametrize("players", [2, 4])
def test_a_game_without_a_counter_tallies_its_summaries(players):
    """Grave Feast has no counter: its block tallies each summary, and the figures every game
    has are summed a block at a time, the same sums as one tally a game."""
    card_set = load_set("grave-feast")
    game = make_game(card_set, players)
    engine = engine_metrics_module(card_set.rules)
    assert engine is not None and engine.counter is None
    agents = ("greedy",) + ("random",) * (players - 1)
    block = play_block(game, RunSpec(agents, 2, players, {}, keep_games=True), 0, 60)
    slow = Tally()
    for row in block["rows"]:
        tally_game(slow, engine, row["seats"], row["returns"],
                   typed_summary(card_set.rules, row["summary"]), players)
    assert block["tally"] == slow.sums
    assert slow.n("sim.agent.greedy") == 60 and slow.n("sim.agent.random") == 60 * (players - 1)


def test_the_agents_streams_are_randoms():
    """The simulator seeds its agents' streams without Random's Python wrappers: the same
    generator, so the same games as ``random.Random(seed)`` always gave."""
    for seed in [0, 1, 7, 2**31 - 1, 2**62 + 5, agent_seed(3, 1)]:
        streams = agent_streams(seed, 3)
        assert [r.getstate() for r in streams] == \
            [random.Random(agent_seed(seed, k)).getstate() for k in range(3)]
        a, b = random.Random(agent_seed(seed, 2)), streams[2]
        assert [a.random() for _ in range(8)] == [b.random() for _ in range(8)]
        assert a.gauss(0, 1) == b.gauss(0, 1) and a.getrandbits(70) == b.getrandbits(70)
    for seed, index in [(0, 0), (1, 5), (2**62, 10**6)]:  # the seeds, written out, are hash_seed's
        assert game_seed(seed, index) == hash_seed("game", seed, index)
        assert agent_seed(seed, index) == hash_seed("agent", seed, index)
