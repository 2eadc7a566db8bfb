"""Grave Feast's printed faces: one front per card kind (and per human number), one shared back;
the rares print after the regular deck, so a print-and-play copy holds every card."""

from __future__ import annotations

from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.faces import Deck, Face, PrintCard, RulesRuns, art_path, base_fields
from boneyard.engine.gf.cards import FeastCard, feast_set

KIND_NAMES = {
    "human": "Human",
    "vampire": "Vampire",
    "zombie": "Zombie",
    "succubus": "Succubus",
    "preacher": "Preacher",
    "devil_wife": "Devil Wife",
    "exorcist": "Exorcist",
}


def kind_name(kind: str) -> str:
    return KIND_NAMES.get(kind, kind.replace("_", " ").title())


def _face(card: FeastCard, card_set: CardSet, base: dict[str, Any]) -> Face:
    layouts = []
    if card.food:
        layouts.append(f"front-{card.kind}-{card.food}")
    layouts.append(f"front-{card.kind}")
    if card.rare:
        layouts.append("front-rare")
    layouts.append("front")
    return Face(
        id=card.id, side="front", layouts=tuple(layouts), group="deck",
        fields={**base, "id": card.id, "name": card.name, "kind": card.kind,
                "kind_name": kind_name(card.kind), "food": card.food or "",
                "food_name": (card.food or "").title(),
                "number": "" if card.number is None else str(card.number),
                "rare": "yes" if card.rare else "", "flavor": card.flavor or "",
                "art": art_path(card_set, card.id, card.art)})


def build_deck(card_set: CardSet, rules_runs: RulesRuns | None = None) -> Deck:
    """Every face and physical card; Grave Feast cards print no rules text (``rules_runs``
    is accepted for the common signature and unused)."""
    card_set = feast_set(card_set)
    base = base_fields(card_set)
    back = Face(id="back", side="back", layouts=("back",), group="deck",
                fields={**base, "name": card_set.name})
    fronts: list[Face] = []
    cards: list[PrintCard] = []
    for card in (*card_set.feast_cards, *card_set.rares):
        face = _face(card, card_set, base)
        fronts.append(face)
        cards.extend(PrintCard(face, back) for _ in range(card.copies))
    return Deck(card_set.name, card_set.slug, card_set.content_hash, tuple(fronts), (back,),
                tuple(cards))
