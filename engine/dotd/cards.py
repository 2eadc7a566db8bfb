"""The Day of the Dead card model: frozen, typed values the engine, the text generator and the
renderer read.

``boneyard.pipeline.load`` turns card files into these objects at the boundary, after
validation (through :mod:`boneyard.engine.dotd.convert`); everything downstream can trust them.
Effects are data (a tuple of :class:`Step`), interpreted by one interpreter and turned into
printed text by one generator, so behaviour and rules text cannot disagree. ``docs/effects.md``
is the reference for every primitive and condition; their names, arguments and meanings are
defined once, in ``effects.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from boneyard.engine.cards import PRINT_ONLY, BackDef, CardSet

from boneyard.errors import RulesError

BACKS: tuple[str, ...] = ("double", "power_up", "unearth")
"""Back ids in their canonical order (deck order, table order)."""

@dataclass(frozen=True, slots=True)
class Condition:
    """One test of a step's ``when:``; all of a step's conditions must hold.

    ``value`` is a str/bool for the equality tests, and for comparisons ``op`` is one of
    ``effects.COMPARATORS`` with an int ``value``. ``subject`` names the counter for ``count``.
    """

    test: str
    value: Any
    op: str = "eq"
    subject: str | None = None


@dataclass(frozen=True, slots=True)
class Step:
    """One effect step: a primitive with its arguments and optional conditions.

    A flat record rather than a class per primitive: the interpreter and the text generator
    each ``match`` on :attr:`op`, and unused fields keep their defaults.
    """

    op: str
    amount: int = 0  # power, gain_vp: the change; set_power: the value; dig: how many digs
    who: str = "self"  # power, set_power, auto_win, auto_lose, win_ties, gain_vp, suppress_spirit
    per: str | None = None  # power, gain_vp: multiply amount by this counter
    target: str | None = None  # copy_effect source, flip target, unearth/force_unearth target
    when: tuple[Condition, ...] = ()


@dataclass(frozen=True, slots=True)
class Character:
    """A Day of the Dead character as the designer wrote it (printed on one or more backs)."""

    id: str
    name: str
    power: int
    effect: tuple[Step, ...] = ()
    flavor: str | None = field(default=None, metadata=PRINT_ONLY)
    # a path relative to the set folder, already checked to stay inside
    art: str | None = field(default=None, metadata=PRINT_ONLY)
    backs: tuple[str, ...] = BACKS
    copies: int = 1  # physical copies per back

    @property
    def is_vanilla(self) -> bool:
        return not self.effect


@dataclass(frozen=True, slots=True)
class DeadCard:
    """One physical Day of the Dead card: a character printed on a back."""

    index: int  # position in DotdCardSet.cards; the engines use this int as the card's identity
    character: Character
    back: str

    @property
    def id(self) -> str:
        return f"{self.character.id}@{self.back}"


@dataclass(frozen=True, slots=True)
class DotdCardSet(CardSet):
    """A Day of the Dead set: the shared fields, the backs, the characters and the physical deck."""

    # the shared CardSet's former Grave Feast fields: hashed as before (see CardSet)
    HASH_AS_EMPTY: ClassVar[tuple[str, ...]] = ("feast_cards", "rares")

    backs: tuple[BackDef, ...] = ()
    characters: tuple[Character, ...] = ()
    cards: tuple[DeadCard, ...] = ()  # the physical deck, characters x backs

    def character(self, cid: str) -> Character:
        for c in self.characters:
            if c.id == cid:
                return c
        raise KeyError(cid)


def dotd_set(card_set: CardSet) -> DotdCardSet:
    """``card_set`` as a Day of the Dead set: the game's hooks receive the shared type."""
    if not isinstance(card_set, DotdCardSet):
        raise RulesError(f"card set '{card_set.name}' has no Day of the Dead cards")
    return card_set
