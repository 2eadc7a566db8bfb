"""Prize duel registered like a shipped game: everything it owns is in this folder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from boneyard.engine.agents.evaluators import SearchSettings
from boneyard.engine.cards import CardSet
from boneyard.engine.checks import cid_of, items, seen_at
from boneyard.engine.core import Agent, Game
from boneyard.engine.faces import Deck, Face, PrintCard, RulesRuns, art_path, base_fields
from boneyard.engine.spec import Column, GameSpec, Metrics, SetFiles, Table
from boneyard.engine.stats import Metric, Tally

from boneyard.errors import Problem

from .game import PrizeCard, ToyCardSet, ToyGame, ToySummary

HERE = Path(__file__).parent


def check(files: SetFiles) -> list[Problem]:
    """Unique ids, and enough cards to deal every hand and the prizes."""
    out: list[Problem] = []
    ids: dict[str, tuple[str, int]] = {}
    total = 0
    for doc in files.docs:
        for idx, card in items(doc):
            cid = cid_of(card)
            if cid in ids:
                f, line = ids[cid]
                out.append(doc.problem((idx, "id"), f"duplicate id '{cid}' (first used at "
                                       f"{seen_at(doc, f, line)})", card=cid))
            elif cid:
                ids[cid] = (doc.file, doc.where((idx, "id"))[0])
            copies = card.get("copies", 1)
            total += copies if isinstance(copies, int) else 1
    if files.complete and total < 12:
        out.append(files.game.problem(("card_files",), f"{total} cards cannot deal 4 players "
                                      "and the prizes", hint="add cards"))
    return out


def build(files: SetFiles, base: dict[str, Any]) -> CardSet:
    prizes = tuple(PrizeCard(c["id"], c["name"], c["value"], c.get("copies", 1), c.get("flavor"))
                   for d in files.docs for c in d.data)
    return ToyCardSet(prizes=prizes, **base)


def make_game(card_set: CardSet, num_players: int | None = None, **options: Any) -> Game:
    return ToyGame(card_set, num_players or 2, **options)  # type: ignore[return-value]


def greedy(game: Game) -> Agent:
    return game.make_greedy()  # type: ignore[attr-defined, no-any-return]


def tally(t: Tally, summary: Any, players: int) -> None:
    t.add("toy.rounds", summary.turns)


def metrics(t: Tally, players: int) -> list[Metric]:
    return [t.mean_metric("rounds_mean", "toy.rounds", unit="rounds")] if t.n("toy.rounds") else []


def deck(card_set: CardSet, rules_runs: RulesRuns | None = None) -> Deck:
    assert isinstance(card_set, ToyCardSet)
    base = base_fields(card_set)
    back = Face("back", "back", ("back",), {**base, "name": card_set.name}, group="deck")
    fronts = [Face(c.id, "front", ("front",), {**base, "id": c.id, "name": c.name,
                                               "value": str(c.value), "flavor": c.flavor or "",
                                               "art": art_path(card_set, c.id, None)},
                   group="deck") for c in card_set.prizes]
    cards = tuple(PrintCard(f, back) for f, c in zip(fronts, card_set.prizes, strict=True)
                  for _ in range(c.copies))
    return Deck(card_set.name, card_set.slug, card_set.content_hash, tuple(fronts), (back,), cards)


def _prizes(card_set: CardSet) -> tuple[PrizeCard, ...]:
    assert isinstance(card_set, ToyCardSet)
    return card_set.prizes


def set_tables(card_set: CardSet) -> list[Table]:
    prizes = _prizes(card_set)
    return [Table(card_set.name, (Column("cards", "right"), Column("total value", "right")),
                  ((str(sum(c.copies for c in prizes)),
                    str(sum(c.value * c.copies for c in prizes))),))]


def cards_table(card_set: CardSet, group: str | None) -> Table:
    return Table(card_set.name, (Column("id"), Column("name"), Column("value", "right")),
                 tuple((c.id, c.name, str(c.value)) for c in _prizes(card_set)))


SPEC = GameSpec(
    name="toy",
    title="Prize duel",
    min_players=2,
    max_players=4,
    card_schema="cards",
    schema_dir=HERE,
    settings_defs="toy",
    game_schema=HERE / "game.schema.json",
    check=check,
    build=build,
    make_game=make_game,
    greedy=greedy,
    search=SearchSettings(default_budget=20),
    metrics=lambda: Metrics(tally, metrics),
    deck=deck,
    rules_text=lambda cs: {c.id: "" for c in _prizes(cs)},
    set_tables=set_tables,
    cards_table=cards_table,
    cards_json=lambda cs, g: {"cards": [{"id": c.id, "value": c.value} for c in _prizes(cs)]},
    summary_from_json=ToySummary.from_json,
)
