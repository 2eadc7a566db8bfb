"""Grave Feast as the shared layers see it: the one place this folder is wired to them."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, cast

from boneyard.engine.cards import CardSet
from boneyard.engine.core import Agent, Game
from boneyard.engine.gf import checks, convert, faces, invariants, listing
from boneyard.engine.gf.cards import feast_set
from boneyard.engine.gf.search import SEARCH
from boneyard.engine.gf.summary import FeastSummary
from boneyard.engine.sheet import SheetSpec
from boneyard.engine.spec import GameOption, GameSpec, Metrics, ScenarioResult
from boneyard.engine.table import TableView


def _make_game(card_set: CardSet, num_players: int | None = None, **options: Any) -> Game:
    from boneyard.engine.gf import FeastGame

    game = FeastGame(card_set, **options) if num_players is None else \
        FeastGame(card_set, num_players=num_players, **options)
    return cast(Game, game)


def _greedy(game: Game) -> Agent:
    from boneyard.engine.gf.greedy import GreedyAgent

    return cast(Agent, GreedyAgent(game))


def _gate(game: Game) -> Agent:
    from boneyard.engine.gf.gate import GateAgent

    return cast(Agent, GateAgent(game))


def _metrics() -> Metrics:
    from boneyard.engine.gf import metrics

    return Metrics(metrics.tally, metrics.metrics)


def _scenario(data: Mapping[str, Any], card_set: CardSet | None, where: str) -> ScenarioResult:
    from boneyard.engine.gf.scenario import run

    return run(data, card_set, where)


def _rules_text(card_set: CardSet) -> dict[str, str]:
    """Grave Feast cards carry no rules text: a card's kind is its rule (the rulebook)."""
    card_set = feast_set(card_set)
    return {f.id: "" for f in (*card_set.feast_cards, *card_set.rares)}


def _unit_content(card_set: CardSet) -> dict[str, Any]:
    """Each face of the deck and of the rares file by id, so a change-aware build names the
    cards an edit changed (copies, numbers, kind) instead of "no card or rule"."""
    card_set = feast_set(card_set)
    return {f.id: f for f in (*card_set.feast_cards, *card_set.rares)}


def _table() -> TableView:
    """The play table's view (table.py), imported only by ``boneyard play``."""
    from boneyard.engine.gf.table import table

    return cast(TableView, table())


def _sheet() -> SheetSpec:
    from boneyard.engine.gf.sheet import SHEET

    return SHEET


def _coverage(game: Game) -> list[tuple[str, str, str, bool]]:
    from boneyard.engine.gf.coverage import items

    return items(cast(Any, game))  # make_game made it: a FeastGame


def _variants(card_set: CardSet) -> list[tuple[str, str, CardSet]]:
    from boneyard.engine.gf.variants import variants

    return variants(card_set)


SPEC = GameSpec(
    name="grave-feast",
    title="Grave Feast",
    min_players=2,
    max_players=checks.MAX_PLAYERS,
    card_schema="feast-cards",
    game_schema=Path(__file__).with_name("game.schema.json"),
    settings_defs="gf",
    check=checks.check,
    build=convert.build,
    make_game=_make_game,
    greedy=_greedy,
    search=SEARCH,
    metrics=_metrics,
    deck=faces.build_deck,
    rules_text=_rules_text,
    set_tables=listing.set_tables,
    cards_table=listing.cards_table,
    cards_json=listing.cards_json,
    extra_card_files=("rares_file",),
    options=(GameOption("rares", "shuffle in the rares.", flag=True),
             GameOption("decks", "decks (1 or 2).", low=1, high=2)),
    bundled_set="grave-feast",
    summary_from_json=FeastSummary.from_json,
    gate=_gate,
    agent_reference=Path(__file__).with_name("agent_reference.json"),
    scenario=_scenario,
    scenario_help="schema/scenario.schema.json ($defs/feast), tests/scenarios/gf-*.yaml, "
                  "docs/rules/grave-feast.md",
    invariants=invariants.invariants,  # simulate --check
    table=_table,  # boneyard play
    sheet=_sheet,  # boneyard export / import
    coverage=_coverage,
    unit_content=_unit_content,
    variants=_variants,
)
