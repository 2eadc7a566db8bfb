"""``boneyard scenario FILE``: play a Day of the Dead scenario and print the resulting state.

A scenario (schema/scenario.schema.json) pins down a position (the cards in each zone, turn,
phase, priority, scores) and the choices to make; the engine plays them and prints the state as
JSON, so a designer can check how a ruling or a new card plays out in one exact situation. If the
file lists ``expect:`` facts, each one that does not hold is reported and the exit code is 1.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import click
from boneyard.engine.dotd import DotdGame
from boneyard.engine.dotd.convert import character_from_dict
from boneyard.engine.dotd.scenario import check_expect, play_scenario
from boneyard.engine.dotd.sets import make_card_set
from boneyard.pipeline.load import load_set
from boneyard.pipeline.validate import schema_problems
from boneyard.pipeline.validate_yaml import YamlDoc, read_yaml

from boneyard.errors import BoneyardError, ScenarioError


def _schema_problems(doc: YamlDoc) -> list[str]:
    """Schema problems worded and located as in card files; invented characters are checked
    against the characters schema, positions kept."""
    out = [str(p) for p in schema_problems(doc, "scenario", is_card_list=False)]
    chars = doc.data.get("characters") if isinstance(doc.data, dict) else None
    if isinstance(chars, list):
        def inner(table: dict[Any, tuple[int, int]]) -> dict[Any, tuple[int, int]]:
            return {p[1:]: pos for p, pos in table.items() if p[:1] == ("characters",)}

        sub = YamlDoc(doc.file, chars, inner(doc.values), inner(doc.keys))
        out += [str(p) for p in schema_problems(sub, "characters", is_card_list=True)]
    return out


_PATH = re.compile(r"(expect )?([A-Za-z_]\w*(?:\[\d+\]|\.[A-Za-z_]\w*)*)")


def _located(doc: YamlDoc, message: str) -> str:
    """``file: actions[2]: ...`` / ``file: expect scores[0]: ...`` as ``file:line:col: ...``,
    at the action or the expected fact in the scenario file."""
    head = f"{doc.file}: "
    if not message.startswith(head):
        return message
    m = _PATH.match(message, len(head))
    if m is None or message[m.end():m.end() + 1] != ":":
        return message
    path: list[str | int] = ["expect"] if m.group(1) else []
    for part in re.findall(r"\[(\d+)\]|\.?([A-Za-z_]\w*)", m.group(2)):
        path.append(int(part[0]) if part[0] else part[1])
    if path[:2] == ["expect", "state"]:
        path = ["expect", *path[2:]]
    if (m.group(1) or path[0] == "actions") and doc.data is not None:
        line, col = doc.where(tuple(path))
        return f"{doc.file}:{line}:{col}: {message[len(head):]}"
    return message


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
    except ScenarioError as exc:
        raise ScenarioError(_located(doc, str(exc))) from None
    except BoneyardError as exc:
        raise ScenarioError(f"{doc.file}: {exc}") from None
    out = state.to_json()
    out["choices"] = log
    if state.is_terminal():
        out["summary"] = state.summary().to_json()
    failed = check_expect(out, data.get("expect") or {})
    return out, [_located(doc, f"{doc.file}: expect {m}") for m in failed]


def register(group: click.Group) -> None:
    @group.command("scenario")
    @click.argument("file", type=click.Path(dir_okay=False))
    def scenario(file: str) -> None:
        """Play a Day of the Dead scenario FILE and print the resulting state as JSON.

        FILE sets up a position (cards in each line, hand, deck and discard pile; turn, phase,
        priority, scores; optional invented characters and switches), lists the choices to make
        and may state facts under `expect:`. Every expectation that does not hold is printed
        and the exit code is 1. Format: schema/scenario.schema.json; examples: tests/scenarios/;
        rules and switches: docs/rules/day-of-the-dead.md.
        """
        if not Path(file).exists():
            raise click.UsageError(f"no scenario file '{file}'")
        out, failed = run_scenario(file)
        click.echo(json.dumps(out, indent=2))
        if failed:
            raise ScenarioError("\n".join(failed))
