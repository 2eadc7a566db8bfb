"""The shared card-set model: frozen, typed values the rules engines and renderers read.

The engine never parses YAML. ``boneyard.pipeline.load`` turns card files into these objects at
the boundary, after validation; everything downstream can trust them. :class:`CardSet` holds what
every game's set has; each game's folder subclasses it with its own cards (Day of the Dead:
``boneyard.engine.dotd.cards.DotdCardSet``), so this module names no game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar, Self


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
PRINT_ONLY = {"play": False}
"""Metadata of a card field only the printer reads (flavor text, an art path): it counts in the
content hash but not in the play hash, so editing it replays no game (engine/hashing.py)."""


@dataclass(frozen=True, slots=True)
class CardSet:
    """A validated card set: what ``cards/<set>/`` says, ready for an engine or a renderer.

    ``rules`` names the rules engine (a game's key in the registry). ``params`` and ``switches``
    come from game.yaml (switches already filled with their defaults). ``content_hash`` covers
    the card data and the switches, so a playtest record can prove it was made on exactly this
    content. A game's cards are fields of its subclass.
    """

    # Fields a subclass's content hash counts as empty lists: the card fields the one shared
    # CardSet had before each game got its own, so that every recorded hash still matches.
    HASH_AS_EMPTY: ClassVar[tuple[str, ...]] = ()

    name: str
    slug: str = field(metadata=_NOT_CONTENT)
    rules: str
    params: Mapping[str, Any]
    switches: Mapping[str, Any]
    content_hash: str = field(metadata=_NOT_CONTENT)
    root: str = field(default="", metadata=_NOT_CONTENT)
    playtest: Mapping[str, Any] = field(default_factory=lambda: freeze({}))
    # (path, sha256) of every file that changes what is printed: template, what it pulls in, art
    files: tuple[tuple[str, str], ...] = ()

    def with_switches(self, **changes: Any) -> Self:
        """The same set under other rules switches (the content hash follows)."""
        from dataclasses import replace

        from boneyard.engine.hashing import content_hash

        switches = dict(self.switches)
        switches.update(changes)
        new = replace(self, switches=freeze(switches))
        return replace(new, content_hash=content_hash(new))
