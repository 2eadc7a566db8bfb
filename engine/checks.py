"""Helpers the games' semantic checks share: positions of earlier occurrences, defensive reads
of raw card data, and whether a comparison can ever hold."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from boneyard.engine.spec import LocatedDoc

COMPARATORS: tuple[str, ...] = ("lt", "le", "eq", "ne", "ge", "gt")


def seen_at(doc: LocatedDoc, file: str, line: int) -> str:
    """Where an earlier occurrence is: the line alone if it is in the same file."""
    return f"line {line}" if file == doc.file else f"{file}:{line}"


def cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


def items(doc: LocatedDoc) -> list[tuple[int, dict[str, Any]]]:
    data = doc.data if isinstance(doc.data, list) else []
    return [(i, c) for i, c in enumerate(data) if isinstance(c, dict)]


def cid_of(card: dict[str, Any]) -> str | None:
    cid = card.get("id")
    return cid if isinstance(cid, str) and cid else None


def comparison_values(value: Any) -> list[tuple[str, int]]:
    if isinstance(value, int) and not isinstance(value, bool):
        return [("eq", value)]
    if isinstance(value, dict):
        return [(k, v) for k, v in value.items()
                if k in COMPARATORS and isinstance(v, int) and not isinstance(v, bool)]
    return []


_TESTS: dict[str, Callable[[int, int], bool]] = {
    "lt": lambda x, n: x < n, "le": lambda x, n: x <= n, "eq": lambda x, n: x == n,
    "ne": lambda x, n: x != n, "ge": lambda x, n: x >= n, "gt": lambda x, n: x > n,
}


def can_hold(pairs: list[tuple[str, int]], lo: int, hi: int) -> bool:
    """Whether some whole number in lo..hi satisfies all comparisons.

    Only a few numbers need trying, however wide the range (a bound on a score may be in the
    thousands): the smallest number that satisfies them all is ``lo`` or comes right after a
    number that fails one, so it is one of the compared numbers or the one after it.
    """
    tries = {lo, *(x for _, n in pairs for x in (n, n + 1))}
    return any(lo <= x <= hi and all(_TESTS[op](x, n) for op, n in pairs) for x in tries)


def _params_rules(schema: Path, defs: str) -> dict[str, Any]:
    return _rule_at(schema, ("$defs", defs, "properties"))


def sound_params(schema: Path, defs: str, params: Any) -> dict[str, Any]:
    """game.yaml's ``params`` as the cards are judged against: each value the game's schema
    (``schema`` ``$defs`` ``defs``) refuses, or leaves out, is its default.

    Why: the schema reports a bad value once, where it is written; a check that judged the cards
    by it (``turns: 0``, ``hand_per_back: 99``) would add a message per card or back that only
    repeats it.
    """
    given: Mapping[str, Any] = params if isinstance(params, dict) else {}
    out: dict[str, Any] = {}
    for key, rule in _params_rules(schema, defs).items():
        value = given.get(key, rule.get("default"))
        if key in given and not _valid(rule, value):
            value = rule.get("default")
        out[key] = value
    return out


def schema_accepts(schema: Path, path: tuple[str, ...], value: Any) -> bool:
    """Whether the rule at ``path`` in the JSON Schema file ``schema`` accepts ``value``.

    Why: a game's checks read card files the schema has already refused values in; a count
    built on such a value (``copies: 1000000000``) would only repeat the schema's message.
    """
    return _valid(_rule_at(schema, path), value)


@cache
def _schema_file(schema: Path) -> dict[str, Any]:
    return dict(json.loads(schema.read_text(encoding="utf-8")))


def _rule_at(schema: Path, path: tuple[str, ...]) -> dict[str, Any]:
    rule: Any = _schema_file(schema)
    for part in path:
        rule = rule[part]
    return dict(rule)


def _valid(rule: dict[str, Any], value: Any) -> bool:
    if isinstance(value, bool) and rule.get("type") in ("integer", "number"):
        return False  # YAML's true is not 1
    if rule.get("type") == "integer" and not isinstance(value, int):
        return False  # JSON Schema counts 6.0 a whole number; range() and the engine do not
    return bool(jsonschema.Draft202012Validator(rule).is_valid(value))
