"""``boneyard scenario FILE``: play a Day of the Dead scenario and print the resulting state.

A scenario (schema/scenario.schema.json) pins down a position (the cards in each zone, turn,
phase, priority, scores) and the choices to make; the engine plays them and prints the state as
JSON, so a designer can check how a ruling or a new card plays out in one exact situation. If the
file lists ``expect:`` facts, each one that does not hold is reported and the exit code is 1.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import jsonschema
from boneyard.engine.dotd import DotdGame
from boneyard.engine.dotd.scenario import check_expect, play_scenario
from boneyard.engine.dotd.sets import character_from_dict, make_card_set
from boneyard.pipeline.load import load_set
from boneyard.pipeline.validate import schema
from boneyard.pipeline.validate_yaml import read_yaml

from boneyard.errors import BoneyardError, ScenarioError


def _schema_problems(doc: Any) -> list[str]:
    validator = jsonschema.Draft202012Validator(schema("scenario"))
    out = []
    for err in sorted(validator.iter_errors(doc.data), key=lambda e: list(map(str, e.absolute_path))):
        path = tuple(err.absolute_path)
        line, col = doc.where(path)
        where = "/".join(map(str, path)) or "top level"
        out.append(f"{doc.file}:{line}:{col}: {where}: {err.message}")
    chars = doc.data.get("characters") if isinstance(doc.data, dict) else None
    if isinstance(chars, list):
        cv = jsonschema.Draft202012Validator(schema("characters"))
        for err in cv.iter_errors(chars):
            path = ("characters", *err.absolute_path)
            line, col = doc.where(path)
            out.append(f"{doc.file}:{line}:{col}: {'/'.join(map(str, path))}: {err.message}")
    return out


def run_scenario(path: str | Path) -> tuple[dict[str, Any], list[str]]:
    """Play the scenario file; returns the printed result and the failed expectations."""
    doc, problems = read_yaml(path)
    if problems:
        raise ScenarioError("\n".join(str(p) for p in problems))
    if not isinstance(doc.data, dict):
        raise ScenarioError(f"{doc.file}:1:1: a scenario is a mapping with at least 'players'")
    msgs = _schema_problems(doc)
    if msgs:
        raise ScenarioError("\n".join(msgs))
    data = doc.data
    invented = [character_from_dict(c) for c in data.get("characters", [])]
    if "set" in data or not invented:
        base = load_set(data.get("set", "day-of-the-dead"))
        card_set = make_card_set(
            list(base.characters) + invented, dict(base.switches), dict(base.params), base.name
        ) if invented else base
    else:
        card_set = make_card_set(invented, name=f"scenario {doc.file}")
    try:
        game = DotdGame(card_set, **(data.get("switches") or {}))
        state, log = play_scenario(game, data, doc.file)
    except ScenarioError:
        raise
    except BoneyardError as exc:
        raise ScenarioError(f"{doc.file}: {exc}") from None
    out = state.to_json()
    out["choices"] = log
    if state.is_terminal():
        out["summary"] = state.summary()
    failed = check_expect(out, data.get("expect") or {})
    return out, [f"{doc.file}: expect {m}" for m in failed]


def register(group: click.Group) -> None:
    @group.command("scenario")
    @click.argument("file", type=click.Path(dir_okay=False))
    def scenario(file: str) -> None:
        """Play a Day of the Dead scenario FILE and print the resulting state as JSON."""
        if not Path(file).exists():
            raise click.UsageError(f"no scenario file '{file}'")
        out, failed = run_scenario(file)
        click.echo(json.dumps(out, indent=2))
        if failed:
            raise ScenarioError("\n".join(failed))
