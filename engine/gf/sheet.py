"""Grave Feast as a spreadsheet: one row per card kind with its counts (a human family is one row
with its numbers), and a printed ``cards`` cell: how many physical cards the row makes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.sheet import SheetColumn, SheetSpec

COLUMNS: tuple[SheetColumn, ...] = (
    SheetColumn("id", "id", "text", 14, "unique id; a human's faces are id-number"),
    SheetColumn("name", "name", "text", 16, "printed name"),
    SheetColumn("kind", "kind", "text", 12, "human, vampire, zombie, succubus, preacher, ..."),
    SheetColumn("food", "food", "text", 9, "humans only: blood or brains"),
    SheetColumn("numbers", "numbers", "ints", 22, "humans only: the numbers printed, 1-9"),
    SheetColumn("copies", "copies", "int", 7, "physical cards per face in one deck"),
    SheetColumn("cards", "copies", "printed", 7, "physical cards this row makes (not read back)"),
    SheetColumn("rare", "rare", "bool", 7, "a rare (in play only by deck option)"),
    SheetColumn("flavor", "flavor", "text", 40, "flavor text, printed in italics"),
    SheetColumn("art", "art", "text", 16, "a PNG or JPEG in the set folder"),
)


def _printed(key: str, card: Mapping[str, Any], card_set: CardSet) -> str:
    """Physical cards of the row in one deck: faces x copies."""
    if key != "copies":
        raise KeyError(key)
    faces = len(card.get("numbers") or ()) if card.get("kind") == "human" else 1
    return str(faces * int(card.get("copies", 1)))


SHEET = SheetSpec("Cards", COLUMNS, _printed)
