"""What ``boneyard validate`` and ``boneyard cards`` show of a Grave Feast set: faces and cards per
kind, and one row per card face."""

from __future__ import annotations

from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.gf.cards import GF_KINDS, FeastCard, feast_set
from boneyard.engine.spec import Column, Table


def set_tables(card_set: CardSet) -> list[Table]:
    """Per kind: faces, cards per deck, rares."""
    card_set = feast_set(card_set)
    title = f"{card_set.name} ({card_set.slug}, content {card_set.content_hash})"
    rows = []
    for kind in GF_KINDS:
        faces = [f for f in card_set.feast_cards if f.kind == kind]
        rares = [f for f in card_set.rares if f.kind == kind]
        if faces or rares:
            rows.append((kind.replace("_", " "), str(len(faces) + len(rares)),
                         str(sum(f.copies for f in faces)), str(sum(f.copies for f in rares))))
    return [Table(
        title, (Column("kind"), Column("faces", "right"), Column("cards per deck", "right"),
                Column("rares", "right")), tuple(rows),
        total=("total", str(len(card_set.feast_cards) + len(card_set.rares)),
               str(sum(f.copies for f in card_set.feast_cards)),
               str(sum(f.copies for f in card_set.rares))),
        min_width=len(title))]


def cards_table(card_set: CardSet, back: str | None) -> Table:
    """One row per card face, the rares last."""
    card_set = feast_set(card_set)
    return Table(
        f"{card_set.name} ({card_set.content_hash})",
        tuple(Column(c, "right" if c in ("number", "copies") else "left")
              for c in ("id", "name", "kind", "food", "number", "copies", "rare")),
        tuple((f.id, f.name, f.kind.replace("_", " "), f.food or "-", str(f.number or "-"),
               str(f.copies), "yes" if f.rare else "")
              for f in (*card_set.feast_cards, *card_set.rares)))


def _face(f: FeastCard) -> dict[str, Any]:
    return {"id": f.id, "name": f.name, "kind": f.kind, "food": f.food, "number": f.number,
            "copies": f.copies, "rare": f.rare, "flavor": f.flavor, "art": f.art}


def cards_json(card_set: CardSet, back: str | None) -> dict[str, Any]:
    """The card faces as plain data (``boneyard cards --json``)."""
    card_set = feast_set(card_set)
    return {"cards": [_face(f) for f in card_set.feast_cards],
            "rares": [_face(f) for f in card_set.rares]}
