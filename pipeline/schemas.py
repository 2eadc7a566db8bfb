"""The JSON Schemas card data is checked against, composed from the registered games.

``game.yaml``'s schema is a shared base (``pipeline/game.schema.json``: name, rules, players,
card files, params, switches, the playtest section) plus each game's own part (its
``GameSpec.game_schema``: the keys only it has, what its params and switches are, its player
range). A key one game owns is refused in another game's set with the owner's message. The
editor reads the composed result from ``schema/game.schema.json``, which this module writes
(``python -m boneyard.pipeline.schemas``; a test keeps it current); validation composes it
from the registry, so a game registered at run time is checked the same way.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from boneyard.engine.games import names, spec_of

from boneyard.paths import SCHEMA

BASE = Path(__file__).with_name("game.schema.json")


def _load(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


def compose_game_schema(rules: tuple[str, ...]) -> dict[str, Any]:
    """game.yaml's schema for the games ``rules`` (registry order)."""
    base = _load(BASE)
    parts = {r: _load(spec_of(r).game_schema) for r in rules}
    props: dict[str, Any] = {}
    for key, value in base["properties"].items():
        if key == "params":  # the games' own keys go before the settings, in registry order
            for part in parts.values():
                props.update(part.get("properties", {}))
        props[key] = value
    props["rules"] = dict(props["rules"], enum=list(rules))
    all_of = []
    for r, part in parts.items():
        spec = spec_of(r)
        then: dict[str, Any] = {k: v for k, v in part.get("then", {}).items() if k != "properties"}
        own: dict[str, Any] = {
            "params": {"$ref": f"#/$defs/{spec.settings_defs}_params"},
            "switches": {"$ref": f"#/$defs/{spec.settings_defs}_switches"},
        }
        for other, other_part in parts.items():
            if other == r:
                continue
            for key, message in other_part.get("absent", {}).items():
                if key not in part.get("properties", {}):
                    own[key] = {"not": {}, "errorMessage": message.format(title=spec.title)}
        own.update(part.get("then", {}).get("properties", {}))
        own["playtest"] = _playtest_options(spec)
        then["properties"] = own
        all_of.append({"if": {"properties": {"rules": {"const": r}}, "required": ["rules"]},
                       "then": then})
    out = {k: v for k, v in base.items() if k not in ("properties", "$defs")}
    out["properties"] = props
    out["allOf"] = all_of
    out["$defs"] = {}
    for part in parts.values():
        out["$defs"].update(part.get("$defs", {}))
    out["$defs"].update(base.get("$defs", {}))
    return out


def _options_schema(spec: Any) -> dict[str, Any]:
    """The engine options this game takes (``GameSpec.options``) and nothing else: a typo, a
    param or switch put under ``options:``, or ``num_players`` is refused where it is written,
    not by the engine halfway into a build."""
    props: dict[str, Any] = {
        o.name: {"type": "boolean", "description": o.help} if o.flag
        else {"type": "integer", "minimum": o.low, "maximum": o.high, "description": o.help}
        for o in spec.options}
    return {"type": "object", "additionalProperties": False, "properties": props}


def _playtest_options(spec: Any) -> dict[str, Any]:
    """``playtest:`` with this game's options, in the section, its runs and its profiles."""
    opts = _options_schema(spec)
    level = {"properties": {"options": opts, "runs": {"items": {"properties": {"options": opts}}}}}
    return {"properties": {**level["properties"], "profiles": {"additionalProperties": level}}}


SETTINGS = "settings:"
"""``settings:<rules>``: a document's ``params:`` and ``switches:`` as that game's game.yaml
takes them (a scenario's), so a typo or a value out of range is found where it is written."""


@cache
def _schema(name: str, rules: tuple[str, ...]) -> dict[str, Any]:
    if name == "game":
        return compose_game_schema(rules)
    if name.startswith(SETTINGS):
        defs = spec_of(name[len(SETTINGS):]).settings_defs
        return {"type": "object", "$defs": compose_game_schema(rules)["$defs"],
                "properties": {"params": {"$ref": f"#/$defs/{defs}_params"},
                               "switches": {"$ref": f"#/$defs/{defs}_switches"}}}
    for r in rules:
        spec = spec_of(r)
        if spec.card_schema == name and spec.schema_dir is not None:
            return _load(spec.schema_dir / f"{name}.schema.json")
    return _load(SCHEMA / f"{name}.schema.json")


def schema(name: str) -> dict[str, Any]:
    """A schema by file stem ("game", "characters", "feast-cards", "template", ...)."""
    return _schema(name, tuple(names()))


def game_schema_text() -> str:
    """schema/game.schema.json as it must be on disk for the bundled games."""
    return json.dumps(schema("game"), indent=2, ensure_ascii=False) + "\n"


def main() -> None:
    """Write schema/game.schema.json from the registered games."""
    (SCHEMA / "game.schema.json").write_text(game_schema_text(), encoding="utf-8")


if __name__ == "__main__":
    main()
