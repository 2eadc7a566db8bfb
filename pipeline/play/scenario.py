"""``boneyard play --scenario FILE``: the table starts from a scenario file's position.

The file is read and checked as ``boneyard scenario`` checks it (schema, invented cards, every
problem located), its steps are played, and the game's table view (``TableView.scenario``) hands
back the position reached, on the set the table plays. The human takes a seat from there.
"""

from __future__ import annotations

from pathlib import Path

from boneyard.engine.cards import CardSet
from boneyard.engine.core import State
from boneyard.engine.spec import GameSpec
from boneyard.engine.table import TableView
from boneyard.pipeline.cmd_scenario import (
    _duplicate_ids,
    _game_of,
    _located,
    _named,
    _schema_problems,
)
from boneyard.pipeline.validate_yaml import read_yaml

from boneyard.errors import BoneyardError, ScenarioError


def scenario_start(path: str | Path, card_set: CardSet, spec: GameSpec, table: TableView) -> State:
    """The position ``path`` describes, its steps played, on ``card_set``; ScenarioError names
    every problem with its file:line:column."""
    doc, problems = read_yaml(path)
    if problems:
        raise ScenarioError("\n".join(str(p) for p in problems))
    if not isinstance(doc.data, dict):
        raise ScenarioError(f"{doc.file}:1:1: a scenario is a mapping with at least 'players'")
    own = _game_of(doc)
    if own.name != spec.name:
        raise ScenarioError(f"{doc.file}:1:1: the scenario plays {own.title}, but the table "
                            f"plays {spec.title} (give a {spec.title} scenario, or play a "
                            f"{own.title} set)")
    msgs = _schema_problems(doc, spec) or _duplicate_ids(doc, spec.scenario_cards_key)
    if msgs:
        raise ScenarioError("\n".join(msgs))
    try:
        return table.scenario(doc.data, card_set, doc.file)
    except ScenarioError as exc:
        msg = _located(doc, str(exc))
        raise ScenarioError(_named(doc, msg) if msg == str(exc) else msg) from None
    except BoneyardError as exc:
        raise ScenarioError(_named(doc, f"{doc.file}: {exc}")) from None
