"""Day of the Dead as a spreadsheet: one row per character, its backs and copies in two cells.

The effect is written twice: ``effect text`` is the printed rules text (read only, from the
vocabulary's templates, so a reader sees what the card will say) and ``effect`` the steps as one
line of YAML flow (``[{power: 5, when: {turn: {ge: 5}}}]``), which is what an import reads.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.sheet import SheetColumn, SheetSpec

from .cards import dotd_set
from .convert import character_from_dict
from .text import rules_text

COLUMNS: tuple[SheetColumn, ...] = (
    SheetColumn("id", "id", "text", 16, "lower-case id, unique in the set"),
    SheetColumn("name", "name", "text", 18, "printed name"),
    SheetColumn("power", "power", "int", 7, "printed power 0..9"),
    SheetColumn("effect text", "effect", "printed", 48,
                "the printed rules text, made from the effect cell (not read back)"),
    SheetColumn("effect", "effect", "data", 40,
                "the effect steps as YAML flow, e.g. [{power: 5}]; empty: no effect"),
    SheetColumn("flavor", "flavor", "text", 40, "flavor text, printed in italics"),
    SheetColumn("art", "art", "text", 16, "a PNG or JPEG in the set folder"),
    SheetColumn("backs", "backs", "words", 24, "backs it is printed on; empty: all of them"),
    SheetColumn("copies", "copies", "int", 7, "physical copies per back; empty: 1"),
)


def _printed(key: str, card: Mapping[str, Any], card_set: CardSet) -> str:
    """The rules text the card prints (``effect text``)."""
    if key != "effect":
        raise KeyError(key)
    return rules_text(character_from_dict(card), dotd_set(card_set))


SHEET = SheetSpec("Characters", COLUMNS, _printed)
