"""``boneyard scenario FILE``: play a scenario of a game and print the resulting state.

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
from boneyard.engine.cards import CardSet
from boneyard.engine.games import names, spec_of, specs
from boneyard.engine.spec import GameSpec
from boneyard.pipeline.load import SetNotFoundError, load_set
from boneyard.pipeline.schemas import SETTINGS
from boneyard.pipeline.validate import schema_problems
from boneyard.pipeline.validate_yaml import YamlDoc, read_yaml

from boneyard.errors import BoneyardError, ScenarioError
from boneyard.paths import CARDS


def _schema_problems(doc: YamlDoc, spec: GameSpec) -> list[str]:
    """Schema problems worded and located as in card files; invented cards are checked against
    the game's card schema, positions kept."""
    own = doc
    if isinstance(doc.data, dict) and "game" not in doc.data:
        # the schema tells the games apart by game: (or a bundled set's name); a set given as
        # a folder's path plays its rules, so the file is checked as that game's scenario
        own = YamlDoc(doc.file, {**doc.data, "game": spec.name}, doc.values, doc.keys)
    out = [str(p) for p in schema_problems(own, "scenario", is_card_list=False)]
    out += [str(p) for p in schema_problems(doc, SETTINGS + spec.name, is_card_list=False)]
    key = spec.scenario_cards_key
    chars = doc.data.get(key) if key and isinstance(doc.data, dict) else None
    if isinstance(chars, list):
        def inner(table: dict[Any, tuple[int, int]]) -> dict[Any, tuple[int, int]]:
            return {p[1:]: pos for p, pos in table.items() if p[:1] == (key,)}

        sub = YamlDoc(doc.file, chars, inner(doc.values), inner(doc.keys))
        out += [str(p) for p in schema_problems(sub, spec.card_schema, is_card_list=True)]
    if len(out) > 1 and isinstance(doc.data, dict):
        return _other_game(doc, spec, len(out)) or out
    return out


def _other_game(doc: YamlDoc, spec: GameSpec, found: int) -> list[str]:
    """A file written for another game is one mistake, not one message per key: said once, at
    its ``game:`` (or ``set:``), when the file is a valid scenario of that other game."""
    for other in specs():
        if other.name == spec.name or other.scenario is None:
            continue
        alt = YamlDoc(doc.file, {**doc.data, "game": other.name}, doc.values, doc.keys)
        if schema_problems(alt, "scenario", is_card_list=False) or \
                schema_problems(alt, SETTINGS + other.name, is_card_list=False):
            continue
        key = next((k for k in ("game", "set") if k in doc.data), None)
        line, col = doc.where((key,)) if key else (1, 1)
        says = {"game": f"its game: says {spec.name}", "set": f"its set: is a {spec.title} set",
                None: f"a file without game: is read as {spec.title}"}[key]
        fix = f"name a {other.title} set" if key == "set" else f"write game: {other.name}"
        return [f"{doc.file}:{line}:{col}: the file is written as a {other.title} scenario "
                f"({found} of its keys and values do not fit {spec.title}'s), but {says} "
                f"({fix}, or rewrite the file for {spec.title})"]
    return []


_PATH = re.compile(r"(expect )?([A-Za-z_]\w*(?:\[\d+\]|\.[A-Za-z_]\w*)*)")


def _located(doc: YamlDoc, message: str) -> str:
    """``file: actions[2]: ...`` / ``file: expect scores[0]: ...`` as ``file:line:col: ...``,
    at the action or the expected fact in the scenario file."""
    head = f"{doc.file}: "
    if not message.startswith(head):
        return message
    m = _PATH.match(message, len(head))
    if m is None or message[m.end():m.end() + 1] != ":":
        return _named_value(doc, message) or message
    path: list[str | int] = ["expect"] if m.group(1) else []
    for part in re.findall(r"\[(\d+)\]|\.?([A-Za-z_]\w*)", m.group(2)):
        path.append(int(part[0]) if part[0] else part[1])
    if path[:2] == ["expect", "state"]:
        path = ["expect", *path[2:]]
    top = isinstance(doc.data, dict) and path[0] in doc.data  # any key the file writes
    if (m.group(1) or top) and doc.data is not None:
        line, col = doc.where(tuple(path))
        return f"{doc.file}:{line}:{col}: {message[len(head):]}"
    return _named_value(doc, message) or message


_NAMED = re.compile(r"\b(switch|card) '([^']+)'")


def _named_value(doc: YamlDoc, message: str) -> str | None:
    """A message about an unknown switch or card located where the scenario writes it: the
    switch's key under ``switches:``, else the first place the card id is written."""
    m = _NAMED.search(message)
    if m is None or not message.startswith(f"{doc.file}: "):
        return None
    kind, name = m.groups()
    switches = doc.data.get("switches") if isinstance(doc.data, dict) else None
    if kind == "switch" and isinstance(switches, dict) and name in switches:
        where: tuple[str | int, ...] | None = ("switches", name)
    else:
        where = _find(doc.data, name)
    if where is None:
        return None
    line, col = doc.where(where, key=kind == "switch")
    return f"{doc.file}:{line}:{col}: {message[len(doc.file) + 2:]}"


def _find(data: Any, value: str, path: tuple[str | int, ...] = ()) -> tuple[str | int, ...] | None:
    """The path of the first string ``value`` in ``data`` (its position in the file)."""
    if isinstance(data, str):
        return path if data.strip().lower() == value.strip().lower() else None
    items = data.items() if isinstance(data, dict) else enumerate(data) if isinstance(data, list) else ()
    for k, v in items:
        if k == "expect":
            continue
        found = _find(v, value, (*path, k))
        if found is not None:
            return found
    return None


def _duplicate_ids(doc: YamlDoc, key: str) -> list[str]:
    """Invented cards that reuse an id: the later one would silently replace the first."""
    cards = doc.data.get(key) if key and isinstance(doc.data, dict) else None
    seen: dict[str, int] = {}
    out = []
    for i, card in enumerate(cards if isinstance(cards, list) else []):
        cid = card.get("id") if isinstance(card, dict) else None
        if not isinstance(cid, str):
            continue
        if cid in seen:
            line, col = doc.where((key, i, "id"))
            first = doc.where((key, seen[cid], "id"))[0]
            out.append(f"{doc.file}:{line}:{col}: invented card id '{cid}' is used twice "
                       f"(first at line {first}); give each card its own id")
        else:
            seen[cid] = i
    return out


def _named(doc: YamlDoc, message: str) -> str:
    """``file: ... 'NAME' ...`` located at the first place the file writes NAME (a switch's key,
    a card id): an engine's message about a value it names, without a path."""
    head = f"{doc.file}: "
    if not message.startswith(head):
        return message
    for name in re.findall(r"'([^']+)'", message):
        for path, pos in doc.keys.items():
            if path and path[-1] == name:
                return f"{doc.file}:{pos[0]}:{pos[1]}: {message[len(head):]}"
        for path, pos in doc.values.items():
            if path and _value_at(doc.data, path) == name:
                return f"{doc.file}:{pos[0]}:{pos[1]}: {message[len(head):]}"
    return message


def _value_at(data: Any, path: tuple[str | int, ...]) -> Any:
    for part in path:
        try:
            data = data[part]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _game_of(doc: YamlDoc) -> GameSpec:
    """The game a scenario plays: its ``game:`` key, else the rules of its ``set:``, else the game
    whose invented cards it writes (``scenario_cards_key``), else the first registered game that
    reads scenarios (the format began with it; files of the other games say ``game:``)."""
    data = doc.data
    runners = [s for s in specs() if s.scenario is not None]
    name = data.get("game")
    if isinstance(data.get("set"), str):
        rules = _base_set(doc).rules
        if name is None:
            name = rules
        elif name != rules:
            line, col = doc.where(("set",))
            raise ScenarioError(f"{doc.file}:{line}:{col}: set '{data['set']}' plays {rules}, "
                                f"but the scenario says game: {name} (remove one of them, or "
                                f"name a set of {name})")
    if name is None:
        keyed = [s for s in runners if s.scenario_cards_key and s.scenario_cards_key in data]
        if keyed or runners:
            return (keyed or runners)[0]
        raise ScenarioError(f"{doc.file}:1:1: say which game the scenario plays with 'game:' "
                            f"(one of: {', '.join(s.name for s in runners)})")
    line, col = doc.where(("game",)) if "game" in data else doc.where(("set",))
    if name not in names():
        raise ScenarioError(f"{doc.file}:{line}:{col}: no game called {name!r} "
                            f"(known: {', '.join(names())})")
    spec = spec_of(name)
    if spec.scenario is None:
        raise ScenarioError(f"{doc.file}:{line}:{col}: {spec.title} has no scenario format yet")
    return spec


def set_ref(doc: YamlDoc) -> str | Path:
    """What the scenario's ``set:`` names: a bundled set's name, else a path from the scenario
    file's folder when it is there (as art paths are from the set's folder), else as given."""
    name: str = doc.data["set"]
    if "/" not in name and "\\" not in name and (CARDS / name / "game.yaml").is_file():
        return name
    beside = Path(doc.file).parent / name
    return beside if name and not Path(name).is_absolute() and beside.exists() else name


def _base_set(doc: YamlDoc) -> CardSet:
    """The set the scenario's ``set:`` names; a set that is not there is said at that key (a
    broken set says its own problems, in its own files)."""
    try:
        return load_set(set_ref(doc))
    except SetNotFoundError as exc:
        line, col = doc.where(("set",))
        raise ScenarioError(f"{doc.file}:{line}:{col}: set: {exc}") from None


def run_scenario(path: str | Path) -> tuple[dict[str, Any], list[str]]:
    """Play the scenario file; returns the printed result and the failed expectations."""
    doc, problems = read_yaml(path)
    if problems:
        raise ScenarioError("\n".join(str(p) for p in problems))
    if not isinstance(doc.data, dict):
        raise ScenarioError(f"{doc.file}:1:1: a scenario is a mapping with at least 'players'")
    spec = _game_of(doc)
    msgs = _schema_problems(doc, spec) or _duplicate_ids(doc, spec.scenario_cards_key)
    if msgs:
        raise ScenarioError("\n".join(msgs))
    data = doc.data
    invented = data.get(spec.scenario_cards_key) if spec.scenario_cards_key else None
    base = _base_set(doc) if "set" in data else None if invented else load_set(spec.bundled_set)
    assert spec.scenario is not None
    try:
        out, failed = spec.scenario(data, base, doc.file)
    except ScenarioError as exc:
        msg = _located(doc, str(exc))
        msg = _named(doc, msg) if msg == str(exc) else msg
        # what was noticed first, and likely the cause, is said first, as a warning
        raise ScenarioError("\n".join([*(f"warning: {_located(doc, w)}" for w in exc.warnings),
                                        *(_located(doc, m) for m in exc.failed), msg])) from None
    except BoneyardError as exc:
        raise ScenarioError(_named(doc, f"{doc.file}: {exc}")) from None
    if "warnings" in out:
        out["warnings"] = [_located(doc, w) for w in out["warnings"]]
    return out, [_located(doc, m) for m in failed]


def register(group: click.Group) -> None:
    @group.command("scenario")
    @click.argument("file", type=click.Path(dir_okay=False))
    def scenario(file: str) -> None:
        """Play a scenario FILE and print the resulting state as JSON.

        FILE names its game (`game:`, or the rules of its `set:`), sets up a position (Day of
        the Dead: cards in each line, hand, deck and discard pile; turn, phase, priority,
        scores; optional invented characters. Grave Feast: hands, families with their eaters,
        mashes, Devil Wives, graveyards, scores, discard and draw piles, markers, scripted
        coins and phrases) or deals from a seed, with `switches:` and `params:`, lists the
        choices to make and may state facts under `expect:`, also between choices (exact or
        with matchers contains, absent, at_least, at_most; what one player `sees`; the
        narrated `events`). Every expectation that does not hold is printed and the exit code
        is 1; a position the rules cannot reach is warned about. Format: docs/scenarios.md,
        schema/scenario.schema.json; examples: tests/scenarios/; rules and switches:
        docs/rules/.
        """
        if not Path(file).exists():
            raise click.UsageError(f"no scenario file '{file}'")
        out, failed = run_scenario(file)
        click.echo(json.dumps(out, indent=2))
        for w in out.get("warnings", []):
            click.echo(f"warning: {w}", err=True)
        if failed:
            raise ScenarioError("\n".join(failed))
