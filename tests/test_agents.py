"""Agents: reproducible choices, search that only sees what a player may know, and the
no-peeking proof on every game: change what an agent cannot see, its choice must not change."""

from __future__ import annotations

import importlib
import random
from typing import Any

import pytest
from boneyard.engine.agents import AgentSpecError, MctsAgent, make_agent
from boneyard.engine.sim import simulate
from toy.game import ToyGame


def _real_game(rules_dir: str, set_name: str, **kw: Any) -> Any:
    importlib.import_module(f"boneyard.engine.{rules_dir}.greedy")  # every game has its greedy
    from boneyard.engine.games import make_game
    from boneyard.pipeline.load import load_set

    return make_game(load_set(set_name), **kw)


GAMES = {
    "toy": lambda: ToyGame(),
    "toy3": lambda: ToyGame(num_players=3, copies=3),
    "dotd": lambda: _real_game("dotd", "day-of-the-dead"),
    "gf2": lambda: _real_game("gf", "grave-feast", num_players=2),
    "gf4": lambda: _real_game("gf", "grave-feast", num_players=4),
}


def _decision_points(game: Any, seed: int, limit: int) -> list[Any]:
    """States at real decisions (two or more legal actions) along random games."""
    out = []
    rng = random.Random(seed)
    g = 0
    while len(out) < limit and g < 50:
        state = game.new_initial_state(seed * 1000 + g)
        g += 1
        while not state.is_terminal() and len(out) < limit:
            acts = state.legal_actions()
            if len(acts) > 1 and rng.random() < 0.3:
                out.append(state.clone())
            state.apply_action(acts[rng.randrange(len(acts))])
    return out


@pytest.mark.parametrize("game_id", list(GAMES))
@pytest.mark.parametrize("spec", ["random", "greedy", "gate", "mcts:12", "bare-mcts"])
def test_no_peeking(game_id, spec):
    """Re-deal every card the mover cannot see (opponents' hands, face-down cards, deck order)
    consistently with its observation: with the same seed, the agent must choose the same.
    ``bare-mcts`` (full random playouts, no greedy prior) is the most sensitive to its samples."""
    game = GAMES[game_id]()
    if spec == "gate" and game_id.startswith("toy"):  # the toy game brings no gate agent
        with pytest.raises(AgentSpecError, match="no gate agent"):
            make_agent(spec, game)
        return
    agent = MctsAgent(12) if spec == "bare-mcts" else make_agent(spec, game)
    states = _decision_points(game, seed=7, limit=8 if "mcts" in spec else 25)
    assert states
    changed = 0
    for k, truth in enumerate(states):
        p = truth.current_player()
        obs = truth.observation(p)
        for j in range(2):
            alt = obs.determinize(random.Random(1000 * k + j))
            alt_obs = alt.observation(p)
            assert alt.current_player() == p
            assert alt_obs.to_json() == obs.to_json(), "the altered truth must look the same to the mover"
            assert alt_obs.legal_actions() == obs.legal_actions()
            others = [q for q in range(game.num_players) if q != p]
            if any(alt.observation(q).to_json() != truth.observation(q).to_json() for q in others):
                changed += 1
            seed = 99 + k
            assert agent.choose(alt_obs, random.Random(seed)) == agent.choose(obs, random.Random(seed))
    # the test means something only if the hidden cards really were different
    assert changed >= len(states)


@pytest.mark.parametrize("game_id", list(GAMES))
def test_mcts_is_reproducible(game_id):
    game = GAMES[game_id]()
    agent = make_agent("mcts:15", game)
    for state in _decision_points(game, seed=3, limit=4):
        obs = state.observation(state.current_player())
        picks = [agent.choose(obs, random.Random(5)) for _ in range(2)]
        assert picks[0] == picks[1] and picks[0] in obs.legal_actions()


class _OnlyTheProtocol:
    """An observation that offers nothing beyond the core protocol, and counts samples."""

    def __init__(self, obs: Any) -> None:
        self._obs = obs
        self.player = obs.player
        self.samples = 0

    def legal_actions(self) -> list[int]:
        return self._obs.legal_actions()

    def determinize(self, rng: random.Random) -> Any:
        self.samples += 1
        return self._obs.determinize(rng)

    def to_json(self) -> dict[str, Any]:
        return self._obs.to_json()


def test_mcts_sees_hidden_cards_only_through_determinize():
    game = ToyGame(hand=4)
    state = game.new_initial_state(2)
    obs = state.observation(0)
    spy = _OnlyTheProtocol(obs)
    agent = MctsAgent(40)
    assert agent.choose(spy, random.Random(1)) == agent.choose(obs, random.Random(1))
    assert spy.samples == 40  # one fresh determinization per simulation


def test_mcts_spends_nothing_on_forced_moves():
    game = ToyGame(hand=1, rounds=1)
    obs = game.new_initial_state(4).observation(0)
    spy = _OnlyTheProtocol(obs)
    assert MctsAgent(50).choose(spy, random.Random(0)) == obs.legal_actions()[0]
    assert spy.samples == 0


def test_mcts_root_statistics_follow_the_budget():
    game = ToyGame(hand=4)
    obs = game.new_initial_state(8).observation(0)
    root = MctsAgent(120).search(obs, random.Random(3))
    assert root.visits == 120
    assert sum(c.visits for c in root.children.values()) == 120
    assert set(root.children) == {(0, a) for a in obs.legal_actions()}


def test_mcts_beats_random_two_and_three_players():
    two = simulate(ToyGame(), ["mcts:40", "random"], 80, seed=1)
    assert two.metric("agent.mcts:40.win_rate").low > 0.5
    three = simulate(ToyGame(num_players=3, copies=3), ["mcts:40", "random", "random"], 60, seed=1)
    share = three.metric("agent.mcts:40.win_rate")
    assert share.low > 1 / 3  # each node maximises its mover's own return


def test_mcts_obvious_choice():
    """With the prize at stake and an unbeatable card in hand, search must play it."""
    game = ToyGame(rounds=1, hand=3)
    for seed in range(40):
        state = game.new_initial_state(seed)
        hand = state.hands[0]
        if 9 in hand and state.prize >= 5 and hand.count(9) == 1 and state.hands[1].count(9) == 0:
            break
    else:
        pytest.fail("no seed below 40 deals the position this test needs")
    pick = MctsAgent(200).choose(state.observation(0), random.Random(0))
    assert pick == 9


def test_playout_horizon_hands_over_to_the_evaluation():
    calls = []

    def evaluate(state):
        calls.append(state.is_terminal())
        return [0.5, 0.5]

    game = ToyGame(hand=4)
    obs = game.new_initial_state(3).observation(0)
    MctsAgent(30, horizon=0, evaluate=evaluate).choose(obs, random.Random(1))
    assert len(calls) == 30 and not any(calls)  # every playout stopped at once, mid-game
    with pytest.raises(ValueError, match="horizon needs an evaluation"):
        MctsAgent(10, horizon=5)


def test_race_evaluation_favours_the_leader():
    from boneyard.engine.agents.evaluators import race_returns

    shares = race_returns([8, 5, 5, 0], 9)
    assert sum(shares) == pytest.approx(1.0)
    assert shares[0] > shares[1] == shares[2] > shares[3]
    assert race_returns([3, 3], 9) == [0.5, 0.5]


class _Lowest:
    """A deliberately poor prior: always the smallest action."""

    name = "lowest"

    def choose(self, obs: Any, rng: random.Random) -> int:
        return min(obs.legal_actions())


def _prize_in_reach() -> Any:
    """A one-round toy deal where player 0 holds the only 9 it can see and the prize is big."""
    game = ToyGame(rounds=1, hand=3)
    for seed in range(40):
        state = game.new_initial_state(seed)
        hand = state.hands[0]
        if 9 in hand and min(hand) < 9 and state.prize >= 5 and state.hands[1].count(9) == 0:
            return state
    pytest.fail("no seed below 40 deals the position this test needs")


def test_paired_search_overrules_a_bad_prior_only_on_evidence():
    obs = _prize_in_reach().observation(0)
    assert MctsAgent(30, paired=True, prior=_Lowest()).choose(obs, random.Random(0)) == 9
    # no mean return can beat the prior's by more than 1: the prior's choice must stand
    stubborn = MctsAgent(30, paired=True, prior=_Lowest(), margin=1.0)
    assert stubborn.choose(obs, random.Random(0)) == min(obs.legal_actions())


def test_paired_search_shares_each_sampled_world_between_all_actions():
    obs = ToyGame(hand=4).new_initial_state(2).observation(0)
    spy = _OnlyTheProtocol(obs)
    agent = MctsAgent(10, paired=True, prior=_Lowest())
    means = agent.paired_means(spy, random.Random(1))
    assert spy.samples == 10  # one world per simulation, not one per action
    assert set(means) == set(obs.legal_actions()) and all(0.0 <= v <= 1.0 for v in means.values())
    assert agent.choose(spy, random.Random(1)) == agent.choose(obs, random.Random(1))


def test_feast_outlook_is_a_share_of_the_win():
    """Shares sum to 1, and of two players with no family on the board the higher score leads."""
    from boneyard.engine.gf.search import feast_outlook

    game = GAMES["gf4"]()
    greedy = make_agent("greedy", game)
    seen = 0
    for seed in range(3):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            shares = feast_outlook(state)
            assert sum(shares) == pytest.approx(1.0) and all(0.0 < s < 1.0 for s in shares)
            view = state.observation(0)
            bare = [q for q in range(4) if not view.families[q]]
            for q in bare:
                for r in bare:
                    if view.scores[q] > view.scores[r]:
                        assert shares[q] > shares[r]
                        seen += 1
            p = state.current_player()
            state.apply_action(greedy.choose(state.observation(p), rng))
    assert seen  # the comparison happened
