"""Grave Feast's per-kind sensitivity variants: the deck with one copy more or one fewer of a face.

The sensitivity playtest (pipeline/sensitivity.py) replays a run's games on each variant with the
same seeds and gates on how far one copy moves the game. Every face of the regular deck is
varied, and every human number 1-9 of each food the deck has, present or not (so a deck with a
hole, every Blood 5 removed, is asked what one Blood 5 would do). The rares are single prints:
they are judged by their holders instead (rare.<id>.paired_delta).
"""

from __future__ import annotations

from dataclasses import replace

from boneyard.engine.cards import CardSet
from boneyard.engine.hashing import content_hash

from .cards import FeastCard, feast_set


def variants(card_set: CardSet) -> list[tuple[str, str, CardSet]]:
    """(key, what changed, the varied set): ``<face>.plus`` and ``<face>.minus`` for each face,
    humans keyed ``<food>-<number>`` whatever their ids."""
    fs = feast_set(card_set)
    faces = list(fs.feast_cards)
    out: list[tuple[str, str, CardSet]] = []

    def varied(i: int | None, face: FeastCard, copies: int) -> CardSet:
        new = list(faces)
        if i is None:
            new.append(replace(face, copies=copies))
        elif copies:
            new[i] = replace(face, copies=copies)
        else:
            del new[i]
        vs = replace(fs, feast_cards=tuple(new))
        return replace(vs, content_hash=content_hash(vs))

    seen: set[str] = set()
    for i, f in enumerate(faces):
        key = f"{f.food}-{f.number}" if f.kind == "human" else f.id
        seen.add(key)
        out.append((f"{key}.plus", f"one more {f.name} ({f.copies + 1} copies)", varied(i, f, f.copies + 1)))
        out.append((f"{key}.minus", f"one {f.name} fewer ({f.copies - 1} copies)", varied(i, f, f.copies - 1)))
    for food in sorted({f.food for f in faces if f.kind == "human" and f.food}):
        like = next(f for f in faces if f.food == food)
        for n in range(1, 10):
            key = f"{food}-{n}"
            if key not in seen:
                name = f"{food.capitalize()} {n}"
                face = FeastCard(id=f"{food}-{n}", name=name, kind="human", food=food, number=n,
                                 copies=1, flavor=like.flavor, art=like.art)
                out.append((f"{key}.plus", f"one {name} (the deck has none)", varied(None, face, 1)))
    return out
