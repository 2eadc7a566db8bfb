"""Grave Feast card files (already valid) -> the frozen card model: one FeastCard per kind, and
per number for humans; the rares file's cards marked rare."""

from __future__ import annotations

from typing import Any

from boneyard.engine.gf.cards import FeastCard, FeastCardSet
from boneyard.engine.spec import SetFiles


def build(files: SetFiles, base: dict[str, Any]) -> FeastCardSet:
    """The set's FeastCardSet (without its content hash; the loader adds it)."""
    rares = files.extra.get("rares_file")
    deck = tuple(f for d in files.docs for c in d.data for f in _feast_cards(c))
    rare_cards = tuple(f for c in (rares.data if rares else []) for f in _feast_cards(c, rare=True))
    return FeastCardSet(feast_cards=deck, rares=rare_cards, **base)


def _feast_cards(raw: dict[str, Any], *, rare: bool = False) -> list[FeastCard]:
    common = dict(kind=raw["kind"], copies=raw.get("copies", 1), rare=rare or raw.get("rare",
                  False), flavor=raw.get("flavor"), art=raw.get("art"))
    if raw["kind"] == "human":
        return [FeastCard(id=f"{raw['id']}-{n}", name=f"{raw['name']} {n}", food=raw["food"],
                          number=n, **common) for n in sorted(raw["numbers"])]
    return [FeastCard(id=raw["id"], name=raw["name"], **common)]
