"""Conformance: random games for 2-8 players, every switch reading: cards are conserved at every
step, every decision point offers a legal action, illegal actions are refused, games end."""

from __future__ import annotations

import random

import pytest
from boneyard.engine.core import TERMINAL
from boneyard.engine.gf import FeastGame
from test_gf_support import feast_set

from boneyard.errors import RulesError


def check_partition(state, size):
    seen = []
    for cards in state.zones().values():
        seen.extend(cards)
    assert sorted(seen) == list(range(size)), "a card is missing or in two places"


def run_games(game, games, seed, check_every=1):
    rng = random.Random(seed)
    lengths = []
    for i in range(games):
        s = game.new_initial_state(seed * 1000 + i)
        steps = 0
        while not s.is_terminal():
            legal = s.legal_actions()
            assert legal, f"no legal action at {s!r}"
            p = s.current_player()
            assert 0 <= p < game.num_players
            obs = s.observation(p)
            assert obs.legal_actions() == legal
            other = (p + 1) % game.num_players
            assert s.observation(other).legal_actions() == []
            if steps % check_every == 0:
                check_partition(s, game.size)
            s.apply_action(rng.choice(legal))
            steps += 1
            assert steps < 20000, "game does not end"
        check_partition(s, game.size)
        assert s.current_player() == TERMINAL
        r = s.returns()
        assert abs(sum(r) - 1.0) < 1e-9 and all(0.0 <= x <= 1.0 for x in r)
        summary = s.summary()
        assert summary.over and summary.turns == s.turn_no
        assert summary.first_player in range(game.num_players)
        if not summary.capped:
            assert max(s.score) >= game.win_score
        lengths.append(steps)
        with pytest.raises(RulesError):
            s.apply_action(0)
    return lengths


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8])
def test_random_games_conserve_cards_and_end(players):
    run_games(FeastGame(feast_set(), num_players=players), 25, players)


SWITCH_READINGS = [
    {"must_act": False},
    {"strict_one_card_extension": True},
    {"max_eaters_per_family": 2},
    {"join_two_fed": "discard_extra_eater"},
    {"phrase_error_rate": 0.3, "callout_rate": 0.5},
    {"graveyard_any_time": False},
    {"instants_use_action": True},
    {"instants_from_mash": False, "turn_start_window": False},
    {"preacher_after_announce": False},
    {"succubus_window_fresh_attach": False, "succubus_window_preattached": True},
    {"race_model": "probabilistic", "race_p": 0.3},
    {"recycle": "flip_then_shuffle_corpses"},
    {"out_of_turn_completion": True},
    {"win_score": 5, "turn_cap": 10, "hand_size": 4, "min_family": 2},
]
@pytest.mark.parametrize("options", SWITCH_READINGS, ids=lambda o: ",".join(o))
def test_every_switch_reading_plays_sound_games(options):
    for players in (2, 5):
        run_games(FeastGame(feast_set(), num_players=players, **options), 8, players, check_every=3)


@pytest.mark.parametrize("players", [2, 4, 5, 8])
def test_random_games_with_rares(players):
    run_games(FeastGame(feast_set(), num_players=players, rares=True, decks=2), 25, 100 + players)


RARE_READINGS = [
    {"coin_p_heads": 0.9},
    {"coin_p_heads": 0.1},
    {"exorcist_hits_preachers": True, "exorcist_broken_family": "split_singletons"},
    {"maelstrom_scope": "opponents_only", "single_succubus_vs_exorcist": "return_to_hand"},
    {"dw_family_take": "any_and_split", "phrase_error_rate": 0.2},
    {"out_of_turn_completion": True, "instants_from_mash": False, "max_eaters_per_family": 2},
]


@pytest.mark.parametrize("options", RARE_READINGS, ids=lambda o: ",".join(o))
def test_every_rare_switch_reading_plays_sound_games(options):
    for players in (3, 6):
        game = FeastGame(feast_set(), num_players=players, rares=True, decks=2, **options)
        run_games(game, 10, players, check_every=2)


def test_same_seed_same_game():
    game = FeastGame(feast_set(), num_players=4)

    def play(seed):
        rng = random.Random(7)
        s = game.new_initial_state(seed)
        trace = []
        while not s.is_terminal():
            a = rng.choice(s.legal_actions())
            trace.append(a)
            s.apply_action(a)
        return trace, s.summary()

    assert play(3) == play(3)
    assert play(3) != play(4)


def test_legal_actions_is_the_states_own_list_and_is_never_edited():
    """The contract (FeastState's docstring): the list belongs to the state, callers only read
    it, and it stays as it was after apply_action (the engine builds a new one)."""
    game = FeastGame(feast_set(), num_players=4, rares=True, decks=2)
    rng = random.Random(2)
    s = game.new_initial_state(5)
    while not s.is_terminal():
        legal = s.legal_actions()
        assert s.legal_actions() is legal and s.observation(s.current_player()).legal_actions() is legal
        before = legal[:]
        c = s.clone()
        c.apply_action(legal[-1])  # a clone's moves leave the shared list alone
        s.apply_action(rng.choice(legal))
        assert legal == before


def test_clone_is_independent_and_replays_identically():
    game = FeastGame(feast_set(), num_players=3, rares=True, decks=2)
    rng = random.Random(5)
    s = game.new_initial_state(11)
    for _ in range(40):
        s.apply_action(rng.choice(s.legal_actions()))
    c = s.clone()
    before = s.to_json()
    r1, r2 = random.Random(9), random.Random(9)
    while not c.is_terminal():
        c.apply_action(r1.choice(c.legal_actions()))
    assert s.to_json() == before
    while not s.is_terminal():
        s.apply_action(r2.choice(s.legal_actions()))
    assert s.summary() == c.summary()


def test_determinize_keeps_the_view_and_resamples_hidden_cards():
    game = FeastGame(feast_set(), num_players=4)
    rng = random.Random(2)
    s = game.new_initial_state(5)
    for _ in range(30):
        s.apply_action(rng.choice(s.legal_actions()))
    p = s.current_player()
    obs = s.observation(p)
    view = obs.to_json()
    changed = False
    for k in range(10):
        d = obs.determinize(random.Random(k))
        assert d.observation(p).to_json() == view
        check_partition(d, game.size)
        changed |= any(d.hands[q] != s.hands[q] for q in range(4) if q != p)
        while not d.is_terminal():  # a sampled world is a playable game
            d.apply_action(rng.choice(d.legal_actions()))
    assert changed
    assert "hands" not in view and len(view["hand"]) == len(s.hands[p])


def test_determinized_rare_positions_play_on():
    game = FeastGame(feast_set(), num_players=4, rares=True, decks=2)
    rng = random.Random(8)
    phases = set()
    for seed in range(12):
        s = game.new_initial_state(seed)
        step = 0
        while not s.is_terminal():
            if step % 17 == 0:
                p = s.current_player()
                d = s.observation(p).determinize(random.Random(step))
                phases.add(d.to_json()["phase"])
                check_partition(d, game.size)
                assert d.current_player() == p
                assert d.observation(p).to_json()["hand"] == s.observation(p).to_json()["hand"]
                for _ in range(30):
                    if d.is_terminal():
                        break
                    d.apply_action(rng.choice(d.legal_actions()))
            s.apply_action(rng.choice(s.legal_actions()))
            step += 1
    assert {"main", "window"} <= phases
