"""Day of the Dead as the shared layers see it: the one place this folder is wired to them."""

from __future__ import annotations

import statistics
from collections.abc import Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, cast

from boneyard.engine.cards import CardSet
from boneyard.engine.core import Agent, Game
from boneyard.engine.dotd import checks, convert, docs, faces, invariants, listing
from boneyard.engine.dotd.cards import dotd_set
from boneyard.engine.dotd.effects import PRIMITIVES
from boneyard.engine.dotd.search import SEARCH
from boneyard.engine.dotd.summary import DotdSummary
from boneyard.engine.hashing import content_hash
from boneyard.engine.sheet import SheetSpec
from boneyard.engine.spec import GameSpec, Metrics, ScenarioResult
from boneyard.engine.table import TableView


def _make_game(card_set: CardSet, num_players: int | None = None, **options: Any) -> Game:
    from boneyard.engine.dotd import DotdGame

    game = DotdGame(card_set, **options) if num_players is None else \
        DotdGame(card_set, num_players=num_players, **options)
    return cast(Game, game)


def _greedy(game: Game) -> Agent:
    from boneyard.engine.dotd.greedy import GreedyAgent

    return cast(Agent, GreedyAgent(game))  # type: ignore[arg-type]


def _gate(game: Game) -> Agent:
    from boneyard.engine.dotd.gate import GateAgent

    return cast(Agent, GateAgent(game))  # type: ignore[arg-type]


def _gate_fast(game: Game) -> Agent:
    """``gate:fast``: the gate with its former search (gate.FAST: one deal of random playouts for
    conversions and Unearths), about 8 times cheaper and weaker, for CI."""
    from boneyard.engine.dotd.gate import FAST, GateAgent

    agent = GateAgent(game, search=FAST, hindsight={})  # type: ignore[arg-type]
    agent.name = "gate:fast"
    return cast(Agent, agent)


def _metrics() -> Metrics:
    from boneyard.engine.dotd import metrics
    from boneyard.engine.dotd.counter import GameCounter

    # the first player is the turn-1 priority holder: first_priority_win_rate, as the rulebook says
    return Metrics(metrics.tally, metrics.metrics, counter=GameCounter, replaces=("first_player_win_rate",))


def _units(card_set: CardSet) -> list[tuple[str, str]]:
    card_set = dotd_set(card_set)
    return [(c.id, c.name) for c in card_set.characters]


def _stand_in(card_set: CardSet, cid: str, settings: Mapping[str, Any]) -> CardSet:
    """The set with character ``cid`` replaced by a neutral stand-in: same id, name, backs and
    copies (so every deal and shuffle is identical), no effect, printed power = the set's budget
    value (``substitution.stand_in.power``; by default the median printed power of the set)."""
    card_set = dotd_set(card_set)
    power = settings.get("power")
    if power is None:
        power = round(statistics.median(c.power for c in card_set.characters))
    plain = replace(card_set.character(cid), power=int(power), effect=())
    chars = tuple(plain if c.id == cid else c for c in card_set.characters)
    cards = tuple(replace(dc, character=plain) if dc.character.id == cid else dc
                  for dc in card_set.cards)
    new = replace(card_set, characters=chars, cards=cards)
    return replace(new, content_hash=content_hash(new))


def _unit_content(card_set: CardSet) -> dict[str, Any]:
    """Each character as its card file gives it (name, power, backs, effect...), by id."""
    return {c.id: c for c in dotd_set(card_set).characters}


def _swap_unit(card_set: CardSet, cid: str, other: CardSet) -> CardSet:
    """``card_set`` with character ``cid`` as ``other`` has it (same place in every deck, so the
    deals match wherever its backs did not change)."""
    card_set, other = dotd_set(card_set), dotd_set(other)
    old = other.character(cid)
    chars = tuple(old if c.id == cid else c for c in card_set.characters)
    cards = tuple(replace(dc, character=old) if dc.character.id == cid else dc for dc in card_set.cards)
    new = replace(card_set, characters=chars, cards=cards)
    return replace(new, content_hash=content_hash(new))


def _scenario(data: Mapping[str, Any], base: CardSet | None, file: str) -> ScenarioResult:
    """Play a scenario file's position and choices (engine/dotd/scenario.py)."""
    from boneyard.engine.dotd import DotdGame
    from boneyard.engine.dotd.convert import character_from_dict
    from boneyard.engine.dotd.scenario import run, scenario_params
    from boneyard.engine.dotd.sets import make_card_set

    invented = [character_from_dict(c) for c in data.get("characters", [])]
    if base is None:
        card_set = make_card_set(invented, name=f"scenario {file}")
    elif invented:
        card_set = make_card_set(list(dotd_set(base).characters) + invented, dict(base.switches),
                                 dict(base.params), base.name)
    else:
        card_set = dotd_set(base)
    if data.get("params"):
        card_set = replace(card_set, params={**card_set.params,
                                             **scenario_params(data["params"], file)})
    game = DotdGame(card_set, **(data.get("switches") or {}))
    return run(game, data, file)



def _table() -> TableView:
    """The play table's view (table.py), imported only by ``boneyard play``."""
    from boneyard.engine.dotd.table import table

    return cast(TableView, table())


def _sheet() -> SheetSpec:
    from boneyard.engine.dotd.sheet import SHEET

    return SHEET


def _coverage(game: Game) -> list[tuple[str, str, str, bool]]:
    from boneyard.engine.dotd.coverage import items

    return items(cast(Any, game))  # make_game made it: a DotdGame


SPEC = GameSpec(
    name="day-of-the-dead",
    title="Day of the Dead",
    min_players=2,
    max_players=2,
    card_schema="characters",
    game_schema=Path(__file__).with_name("game.schema.json"),
    settings_defs="dotd",
    check=checks.check,
    build=convert.build,
    make_game=_make_game,
    greedy=_greedy,
    search=SEARCH,
    metrics=_metrics,
    deck=faces.build_deck,
    rules_text=listing.rules_texts,
    set_tables=listing.set_tables,
    cards_table=listing.cards_table,
    cards_json=listing.cards_json,
    card_groups=listing.card_groups,
    bundled_set="day-of-the-dead",
    scenario=_scenario,
    scenario_cards_key="characters",
    scenario_help="rules and switches: docs/rules/day-of-the-dead.md",
    units=_units,
    stand_in=_stand_in,
    unit_content=_unit_content,
    swap_unit=_swap_unit,
    docs=docs.set_docs,
    effect_words=PRIMITIVES,
    summary_from_json=DotdSummary.from_json,
    gate=_gate,
    gate_fast=_gate_fast,
    agent_reference=Path(__file__).with_name("agent_reference.json"),
    invariants=invariants.invariants,  # simulate --check
    table=_table,  # boneyard play
    sheet=_sheet,  # boneyard export / import
    coverage=_coverage,
)
