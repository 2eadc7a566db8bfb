"""Conformance: many random Day of the Dead games under every switch value.

At every step: the player to move has a legal action; every legal action applies (on clones, for
a share of the games); all cards are in exactly one zone (decks, hands, lines, spirits, discard
piles, or the cards an Unearth is looking at); the lines stay paired; scores never go backwards
unless the set has a card that takes victory points away; the observation lists the same legal
actions and determinizes into a consistent state. Same seed, same game.
"""

from __future__ import annotations

import random

import pytest
from boneyard.engine.core import TERMINAL
from boneyard.engine.dotd import DotdGame
from boneyard.engine.dotd.convert import character_from_dict
from boneyard.engine.dotd.rules import SWITCHES
from boneyard.engine.dotd.sets import make_card_set
from boneyard.pipeline.load import load_set

VARIANTS = [("defaults", {})]
for _key, (_default, _values) in SWITCHES.items():
    for _v in _values:
        if _v != _default:
            VARIANTS.append((f"{_key}={_v}", {_key: _v}))
VARIANTS.append(("all-non-default", {k: v for _, sw in VARIANTS[1:] for k, v in sw.items()}))

# A set that uses every primitive, a negative VP card and Dig 2, so every code path is exercised.
CHAOS = [
    {"id": "oaf", "power": 7},
    {"id": "anger", "power": 3, "effect": [{"power": 5}]},
    {"id": "jinx", "power": 1, "effect": [{"set_power": {"who": "opponent", "amount": 0}}]},
    {"id": "nemesis", "power": 0, "effect": [{"auto_win": "self"}]},
    {"id": "coward", "power": 9, "effect": [{"auto_lose": "self", "when": {"opposing_power": {"ge": 5}}}]},
    {"id": "stubborn", "power": 6, "effect": [{"win_ties": "self"}]},
    {"id": "taxman", "power": 6, "effect": [{"gain_vp": {"amount": -2, "who": "opponent"}}]},
    {"id": "twin", "power": 1, "effect": [{"copy_effect": "own_active"}]},
    {"id": "mirror", "power": 5, "effect": [{"copy_effect": "opposing"}]},
    {"id": "digger", "power": 4, "effect": [{"dig": 2}]},
    {"id": "spook", "power": 2, "effect": [{"unearth": "self"}, {"power": 1}]},
    {"id": "snatcher", "power": 0, "effect": [{"force_unearth": "opposing"}]},
    {"id": "bugler", "power": 2, "effect": [{"flip": "own_fallen"}]},
    {"id": "polter", "power": 3, "effect": [{"flip": "opponent_fought"}]},
    {"id": "pooper", "power": 2, "effect": [{"suppress_spirit": "opponent"}, {"power": 3}]},
    {"id": "hush", "power": 1, "effect": [{"negate": True}, {"power": 3}]},
    {"id": "riser", "power": 5, "effect": [{"take_priority": True}]},
    {"id": "butler", "power": 8, "effect": [{"give_priority": True}]},
    {"id": "owl", "power": 4, "effect": [{"power": 4, "when": {"priority": "opponent", "turn": {"ge": 2}}}]},
    {"id": "stand", "power": 3, "effect": [{"auto_win": "self", "when": {"count": {"of": "own_fallen", "ge": 2}}}]},
    {"id": "sore", "power": 3, "effect": [{"power": 4, "when": {"losing": True}}]},
    {"id": "conga", "power": 4, "effect": [{"power": {"amount": 2, "per": "own_adjacent_active"}}]},
    {"id": "grudge", "power": 6, "effect": [{"power": {"amount": 1, "per": "opponent_winners"}}]},
    {"id": "fan", "power": 6, "effect": [{"power": 2, "when": {"own_spirit": "power_up", "slot": "newest"}}]},
]


def _bundled():
    return load_set("day-of-the-dead")


def _chaos():
    return make_card_set([character_from_dict(c) for c in CHAOS])


def _play_checked(game: DotdGame, seed: int, try_all: bool, may_lose_vp: bool) -> list[int]:
    rng = random.Random(seed)
    s = game.new_initial_state(seed)
    last = list(s.scores)
    steps = 0
    while not s.is_terminal():
        p = s.current_player()
        assert p in (0, 1)
        legal = s.legal_actions()
        assert legal, "a decision point without a legal action"
        assert len(set(legal)) == len(legal)
        s.check_invariants()
        if not may_lose_vp:
            assert s.scores[0] >= last[0] and s.scores[1] >= last[1]
        last = list(s.scores)
        if try_all:
            for a in legal:
                c = s.clone()
                c.apply_action(a)
                c.check_invariants()
            obs = s.observation(p)
            assert obs.legal_actions() == legal
            assert s.observation(1 - p).legal_actions() == []
            d = obs.determinize(random.Random(steps))
            d.check_invariants()
            assert d.current_player() == p and sorted(d.legal_actions()) == sorted(legal)
            assert list(d.hands[p]) == list(s.hands[p])
        s.apply_action(legal[rng.randrange(len(legal))])
        steps += 1
        assert steps < 2000
    assert s.current_player() == TERMINAL and s.legal_actions() == []
    s.check_invariants()
    r = s.returns()
    assert sorted(r) in ([0.0, 1.0], [0.5, 0.5])
    total = sum(len(x) for x in s.decks) + sum(len(x) for x in s.discards)
    total += sum(len(h) for h in s.hands) + sum(len(x) for x in s.lines) + 2
    assert total == game.n
    assert len(s.lines[0]) == game.turns
    assert len(s.score_log) == game.turns
    return s.history


@pytest.mark.parametrize("name,switches", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_random_games_conform(name, switches):
    bundled = DotdGame(_bundled(), **switches)
    assert bundled.n == 108
    for seed in range(60):
        _play_checked(bundled, seed, try_all=seed < 6, may_lose_vp=False)
    chaos = DotdGame(_chaos(), **switches)
    for seed in range(40):
        _play_checked(chaos, 1000 + seed, try_all=seed < 6, may_lose_vp=True)


def test_same_seed_same_game_and_clone_is_independent():
    g = DotdGame(_bundled())
    assert _play_checked(g, 5, False, False) == _play_checked(g, 5, False, False)
    assert _play_checked(g, 5, False, False) != _play_checked(g, 6, False, False)
    s = g.new_initial_state(3)
    c = s.clone()
    before = c.to_json()
    s.apply_action(s.legal_actions()[0])
    assert c.to_json() == before


def test_every_character_reaches_play_over_many_games():
    g = DotdGame(_bundled())
    played = set()
    rng = random.Random(0)
    for seed in range(200):
        s = g.new_initial_state(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
        for seat in s.summary().played:
            played.update(seat)
    assert played == {c.id for c in g.card_set.characters}
