"""Shared set-up for the Grave Feast engine tests: the bundled set, as the loader reads it."""

from __future__ import annotations

from boneyard.engine.cards import CardSet
from boneyard.pipeline.load import load_set


def feast_set(**switches: object) -> CardSet:
    """cards/grave-feast (54 regular cards, two rares), optionally under other switches."""
    cs = load_set("grave-feast")
    return cs.with_switches(**switches) if switches else cs


def test_bundled_deck_sizes():
    from boneyard.engine.gf import FeastGame

    game = FeastGame(feast_set(), num_players=2)
    assert game.size == 54
    assert sorted(set(game.names)) == sorted(
        [f"{food} {n}" for food in ("blood", "brains") for n in range(1, 10)]
        + ["preacher", "succubus", "vampire", "zombie"]
    )
    assert FeastGame(feast_set(), num_players=6).size == 108
    assert FeastGame(feast_set(), num_players=6, rares=True).size == 110
