"""The shared card-set model: frozen, typed values the rules engines and renderers read.

The engine never parses YAML. ``boneyard.pipeline.load`` turns card files into these objects at
the boundary, after validation; everything downstream can trust them. Each game's own card model
lives in its folder (Day of the Dead: ``boneyard.engine.dotd.cards``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # annotations only: the shared model never imports a game at run time
    from boneyard.engine.dotd.cards import Character, DeadCard

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
