"""The card model: frozen, typed values the rules engines and renderers read.

The engine never parses YAML. ``boneyard.pipeline.load`` turns card files into these objects at
the boundary, after validation; everything downstream can trust them. Effects are data (a tuple
of :class:`Step`), interpreted by one interpreter and turned into printed text by one generator,
so behaviour and rules text cannot disagree. ``docs/effects.md`` is the reference for every
primitive and condition below.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

# --- Day of the Dead -------------------------------------------------------------------------

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


# --- Grave Feast -----------------------------------------------------------------------------

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
    flavor: str | None = None
    art: str | None = None


# --- The set ---------------------------------------------------------------------------------


def freeze(mapping: Mapping[str, Any] | None) -> Mapping[str, Any]:
    """A read-only view, so rules parameters cannot be changed under a running engine."""
    return MappingProxyType(dict(mapping or {}))


@dataclass(frozen=True, slots=True)
class BackDef:
    id: str
    name: str
    colour: str  # "#rrggbb"
    colour_name: str


_NOT_CONTENT = {"content": False}  # the folder and the hash itself: not content (engine/hashing.py)


@dataclass(frozen=True, slots=True)
class CardSet:
    """A validated card set: what ``cards/<set>/`` says, ready for an engine or a renderer.

    ``rules`` names the rules engine ("day-of-the-dead" or "grave-feast"). ``params`` and
    ``switches`` come from game.yaml (switches already filled with their defaults).
    ``content_hash`` covers the card data and the switches, so a playtest record can prove it
    was made on exactly this content.
    """

    name: str
    slug: str = field(metadata=_NOT_CONTENT)
    rules: str
    params: Mapping[str, Any]
    switches: Mapping[str, Any]
    content_hash: str = field(metadata=_NOT_CONTENT)
    root: str = field(default="", metadata=_NOT_CONTENT)
    backs: tuple[BackDef, ...] = ()
    characters: tuple[Character, ...] = ()  # Day of the Dead
    cards: tuple[DeadCard, ...] = ()  # Day of the Dead: the physical deck, characters x backs
    feast_cards: tuple[FeastCard, ...] = ()  # Grave Feast: the regular deck
    rares: tuple[FeastCard, ...] = ()  # Grave Feast: rares, in play only by deck option
    playtest: Mapping[str, Any] = field(default_factory=lambda: freeze({}))
    # (path, sha256) of every file that changes what is printed: template, what it pulls in, art
    files: tuple[tuple[str, str], ...] = ()

    def character(self, cid: str) -> Character:
        for c in self.characters:
            if c.id == cid:
                return c
        raise KeyError(cid)

    def with_switches(self, **changes: Any) -> CardSet:
        """The same set under other rules switches (the content hash follows)."""
        from dataclasses import replace

        from boneyard.engine.hashing import content_hash

        switches = dict(self.switches)
        switches.update(changes)
        new = replace(self, switches=freeze(switches))
        return replace(new, content_hash=content_hash(new))
