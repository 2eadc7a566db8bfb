"""The Day of the Dead card model: frozen, typed values the engine, the text generator and the
renderer read.

``boneyard.pipeline.load`` turns card files into these objects at the boundary, after
validation (through :mod:`boneyard.engine.dotd.convert`); everything downstream can trust them.
Effects are data (a tuple of :class:`Step`), interpreted by one interpreter and turned into
printed text by one generator, so behaviour and rules text cannot disagree. ``docs/effects.md``
is the reference for every primitive and condition.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

BACKS: tuple[str, ...] = ("double", "power_up", "unearth")
"""Back ids in their canonical order (deck order, table order)."""

#: Effect primitives of the Day of the Dead effect language (docs/effects.md).
PRIMITIVES: tuple[str, ...] = (
    "power",  # fight power change, flat or per count
    "set_power",  # a fighter's printed power counts as N in this fight
    "auto_win",  # a fighter wins its fight, no questions asked
    "auto_lose",  # a fighter loses its fight
    "win_ties",  # a power tie becomes a win for this side
    "gain_vp",  # victory points now, flat or per count
    "copy_effect",  # use another fighter's effect as this one's
    "dig",  # keyword: draw a card, discard one with the same back
    "unearth",  # keyword: replace one of your cards in play from its deck
    "force_unearth",  # unearth the opposing fighter; you choose its replacement
    "flip",  # turn a fighter face up or face down
    "suppress_spirit",  # a player's spirit has no effect on this fight
    "negate",  # the opposing fighter's effect does nothing this fight
    "take_priority",  # take the Priority counter now
    "give_priority",  # give the Priority counter away now
)

#: Subjects a step can apply to. ``self`` is this fighter/its controller, ``opponent`` the
#: opposing fighter/its controller.
WHO: tuple[str, ...] = ("self", "opponent")

#: Counters usable by ``per:`` on power/gain_vp and by the ``count`` condition.
COUNTERS: tuple[str, ...] = (
    "own_fallen",  # your fallen line cards
    "own_active",  # your active line cards (this fighter included)
    "opponent_fallen",
    "opponent_active",
    "own_winners",  # your fighters that have won a fight this turn (ties count)
    "opponent_winners",
    "own_adjacent_active",  # your active fighters in the slots next to this one
)

#: Targets of copy_effect.
COPY_SOURCES: tuple[str, ...] = ("opposing", "adjacent", "own_active")

#: Targets of flip: ``own_fallen`` turns one of your fallen fighters face up; ``opponent_fought``
#: turns one of the opponent's active fighters that has already fought this turn face down.
FLIP_TARGETS: tuple[str, ...] = ("own_fallen", "opponent_fought")

#: Condition tests (``when:``); see docs/effects.md for each one's subject and value.
CONDITION_TESTS: tuple[str, ...] = (
    "priority",  # value: self | opponent (who holds the counter now)
    "turn",  # comparison on the turn number 1..6
    "slot",  # value: newest | oldest | a slot number
    "own_spirit",  # value: a back id, or none
    "opponent_spirit",  # value: a back id, or none
    "own_back",  # value: this fighter's back
    "opposing_back",  # value: the opposing fighter's back
    "opposing_power",  # comparison on the opposing fighter's printed power
    "opposing_has_effect",  # value: true | false
    "count",  # comparison on a counter (subject = counter name)
    "score_diff",  # comparison on your score minus your opponent's
    "losing",  # value: true | false (fight totals so far, this side below the other)
)

COMPARATORS: tuple[str, ...] = ("lt", "le", "eq", "ne", "ge", "gt")


@dataclass(frozen=True, slots=True)
class Condition:
    """One test of a step's ``when:``; all of a step's conditions must hold.

    ``value`` is a str/bool for the equality tests, and for comparisons ``op`` is one of
    :data:`COMPARATORS` with an int ``value``. ``subject`` names the counter for ``count``.
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
    flavor: str | None = None
    art: str | None = None  # path relative to the set folder, already checked to stay inside
    backs: tuple[str, ...] = BACKS
    copies: int = 1  # physical copies per back

    @property
    def is_vanilla(self) -> bool:
        return not self.effect


@dataclass(frozen=True, slots=True)
class DeadCard:
    """One physical Day of the Dead card: a character printed on a back."""

    index: int  # position in CardSet.cards; the engines use this int as the card's identity
    character: Character
    back: str

    @property
    def id(self) -> str:
        return f"{self.character.id}@{self.back}"
