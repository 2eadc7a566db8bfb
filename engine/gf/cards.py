"""The Grave Feast card model: its card kinds and foods, a card face, and the set that holds them.

``boneyard.pipeline.load`` builds a :class:`FeastCardSet` through ``engine/gf/convert.py``; the
shared :class:`~boneyard.engine.cards.CardSet` it extends holds only what every game's set has.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from boneyard.engine.cards import PRINT_ONLY, CardSet

from boneyard.errors import RulesError

GF_KINDS: tuple[str, ...] = (
    "human",
    "vampire",
    "zombie",
    "succubus",
    "preacher",
    "devil_wife",
    "exorcist",
)
FOODS: tuple[str, ...] = ("blood", "brains")


@dataclass(frozen=True, slots=True)
class FeastCard:
    """One kind of Grave Feast card face (``copies`` physical cards of it in one deck)."""

    id: str
    name: str
    kind: str
    food: str | None = None  # humans only
    number: int | None = None  # humans only, 1..9
    copies: int = 1
    rare: bool = False
    flavor: str | None = field(default=None, metadata=PRINT_ONLY)
    art: str | None = field(default=None, metadata=PRINT_ONLY)


@dataclass(frozen=True, slots=True)
class FeastCardSet(CardSet):
    """A Grave Feast set: the shared fields, the regular deck and the rares."""

    # the shared CardSet's former Day of the Dead fields: hashed as before (see CardSet)
    HASH_AS_EMPTY: ClassVar[tuple[str, ...]] = ("backs", "cards", "characters")

    feast_cards: tuple[FeastCard, ...] = ()  # the regular deck
    rares: tuple[FeastCard, ...] = ()  # in play only by deck option


def feast_set(card_set: CardSet) -> FeastCardSet:
    """``card_set`` as a Grave Feast set: the game's hooks receive the shared type."""
    if not isinstance(card_set, FeastCardSet):
        raise RulesError(f"card set {card_set.name!r} has no Grave Feast cards")
    return card_set
