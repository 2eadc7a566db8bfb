"""Printed faces as data: what each printed side shows and which faces pair up.

A *face* is one distinct printed side; a *print card* is one physical card, a front face and a
back face. Each game folder turns its card set into a :class:`Deck` (``GameSpec.deck``); the
renderer in ``pipeline/render`` reads only these values, so it never knows which game it prints
and the engine never imports the pipeline. Sheets print every physical card; images are made
once per face.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boneyard.engine.cards import CardSet

from boneyard.errors import RenderError

Runs = tuple[tuple[str, str], ...]
"""Rules text as (text, style) runs; style ``plain`` or ``keyword``."""

RulesRuns = Callable[[Any], list[tuple[str, str]]]
"""A card definition's rules text as runs (tests pass their own to pin the layout)."""


@dataclass(frozen=True, slots=True)
class Face:
    """One printed side. ``layouts``: candidate layout names, most specific first."""

    id: str
    side: str  # "front" | "back"
    layouts: tuple[str, ...]
    fields: Mapping[str, Any]
    rules: Runs = ()
    group: str = ""  # the back type this face belongs to (Tabletop Simulator sheet, file names)


@dataclass(frozen=True, slots=True)
class PrintCard:
    front: Face
    back: Face


@dataclass(frozen=True, slots=True)
class Deck:
    """Everything a renderer needs from a card set, in print order."""

    set_name: str
    slug: str
    content_hash: str
    fronts: tuple[Face, ...]
    backs: tuple[Face, ...]
    cards: tuple[PrintCard, ...] = field(default=())

    @property
    def faces(self) -> tuple[Face, ...]:
        return self.fronts + self.backs


def art_path(card_set: CardSet, card_id: str, art: str | None) -> str:
    """The art file's absolute path ('' for none); a missing or escaping file is an error."""
    if not art:
        return ""
    root = Path(card_set.root or ".").resolve()
    path = (root / art).resolve()
    if not path.is_relative_to(root):
        raise RenderError(f"card '{card_id}': art {art!r} lies outside the set folder {root} "
                          "(keep art files inside the set's folder)")
    if not path.is_file():
        raise RenderError(f"card '{card_id}': art file {art!r} not found in {root} "
                          "(add the image or remove the card's 'art:' line)")
    return str(path)


def base_fields(card_set: CardSet) -> dict[str, Any]:
    """Fields every face of a set carries (footers print them)."""
    return {"set_name": card_set.name, "content_hash": card_set.content_hash}

