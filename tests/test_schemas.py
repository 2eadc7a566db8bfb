"""The schema files an editor reads are the ones validation composes from the game folders."""

from __future__ import annotations

from boneyard.engine.games import names
from boneyard.pipeline.schemas import game_schema_text, schema

from boneyard.paths import SCHEMA


def test_game_schema_file_is_composed_from_the_registered_games():
    on_disk = (SCHEMA / "game.schema.json").read_text(encoding="utf-8")
    assert on_disk == game_schema_text(), (
        "schema/game.schema.json is stale: run `.venv/bin/python -m boneyard.pipeline.schemas`")


def test_every_game_has_its_params_switches_and_rules_entry():
    game = schema("game")
    assert game["properties"]["rules"]["enum"] == names()
    consts = [e["if"]["properties"]["rules"]["const"] for e in game["allOf"]]
    assert consts == names()
    for entry in game["allOf"]:
        refs = {k: v["$ref"] for k, v in entry["then"]["properties"].items()
                if isinstance(v, dict) and "$ref" in v}
        for ref in refs.values():
            assert ref.removeprefix("#/$defs/") in game["$defs"]


def test_a_key_of_one_game_is_refused_in_another_with_its_owners_words():
    game = schema("game")
    by_rules = {e["if"]["properties"]["rules"]["const"]: e["then"]["properties"]
                for e in game["allOf"]}
    assert by_rules["day-of-the-dead"]["rares_file"]["errorMessage"] == \
        "only Grave Feast sets have rares"
    assert by_rules["grave-feast"]["backs"]["errorMessage"] == "Grave Feast cards have no backs"
