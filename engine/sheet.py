"""A game's cards as spreadsheet columns: what ``boneyard export`` writes and ``import`` reads.

Each game's folder says which card-file key each column holds and how a cell is read
(``engine/<game>/sheet.py``, through ``GameSpec.sheet``); the pipeline reads and writes the
sheets and the YAML and never names a game. A column either holds a card-file key (edited in the
sheet, written back to the YAML) or is printed from the card (``kind="printed"``: the rules text
a reader checks at a glance; never read back).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from boneyard.engine.cards import CardSet

#: How a cell holds a card-file value.
#: text: the string; int: a whole number; bool: true/false; ints: whole numbers "1, 2, 3";
#: words: a list of words "double, power_up"; data: a one-line YAML flow value (lists and
#: mappings: ``[{power: 5, when: {turn: {ge: 5}}}]``); printed: made from the card, read only.
KINDS: tuple[str, ...] = ("text", "int", "bool", "ints", "words", "data", "printed")


@dataclass(frozen=True, slots=True)
class SheetColumn:
    """One column of a game's sheet."""

    heading: str  # the header cell; for a key column, the card-file key itself
    key: str  # the card-file key it holds (printed columns: the key it is printed from)
    kind: str  # one of KINDS
    width: int = 12  # characters, for the spreadsheet's column width
    note: str = ""  # what the column holds, for the docs and the header's comment

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"sheet column {self.heading!r}: unknown kind {self.kind!r}")


@dataclass(frozen=True, slots=True)
class SheetSpec:
    """A game's sheet: its tab name, its columns in order, and its printed cells."""

    title: str  # the worksheet's name ("Characters"); also what messages name
    columns: tuple[SheetColumn, ...]
    # (printed column's key, one card as its file writes it, the valid set) -> the cell's text
    printed: Callable[[str, Mapping[str, Any], CardSet], str]

    def column(self, heading: str) -> SheetColumn | None:
        return next((c for c in self.columns if c.heading == heading), None)
