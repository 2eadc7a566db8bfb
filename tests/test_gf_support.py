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


def test_game_yaml_switches_match_the_engine_and_the_rulings_doc(root):
    """Every switch in game.yaml is one the engine honours, with the engine's default, and is
    documented in docs/rules/grave-feast.md."""
    import yaml
    from boneyard.engine.gf.game import SWITCHES

    data = yaml.safe_load((root / "cards" / "grave-feast" / "game.yaml").read_text())
    assert data["switches"] == {k: d for k, (d, _) in SWITCHES.items()}
    doc = (root / "docs" / "rules" / "grave-feast.md").read_text()
    for name in SWITCHES:
        assert f"`{name}`" in doc, name
