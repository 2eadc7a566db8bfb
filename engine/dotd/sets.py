"""Build Day of the Dead card sets in code: for tests, scenarios with invented cards, benches.

The real loader (``boneyard.pipeline.load``) validates card files; this module only assembles
already-trusted values, e.g. a set with a character invented in a test, so that the engine can
be shown to play cards it has never seen (no card has its own code path). Characters written as
mappings go through the one converter, ``convert.character_from_dict``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boneyard.engine.cards import BackDef, CardSet, freeze
from boneyard.engine.hashing import content_hash

from .cards import BACKS, Character, DeadCard
from .rules import SWITCHES

_BACKS_DEFS = (
    BackDef("double", "Double", "#161616", "black"),
    BackDef("power_up", "Power Up", "#8c8c8c", "gray"),
    BackDef("unearth", "Unearth", "#f2f0ea", "white"),
)


def make_card_set(
    characters: Sequence[Character],
    switches: Mapping[str, Any] | None = None,
    params: Mapping[str, Any] | None = None,
    name: str = "Day of the Dead (built in code)",
) -> CardSet:
    """A CardSet of ``characters`` x their backs x copies, switches filled with defaults."""
    sw = {k: d for k, (d, _) in SWITCHES.items()}
    sw.update(switches or {})
    cards: list[DeadCard] = []
    for back in BACKS:
        for ch in characters:
            if back in ch.backs:
                for _ in range(ch.copies):
                    cards.append(DeadCard(len(cards), ch, back))
    cs = CardSet(
        name=name,
        slug="dotd-code",
        rules="day-of-the-dead",
        params=freeze(params or {}),
        switches=freeze(sw),
        content_hash="",
        backs=_BACKS_DEFS,
        characters=tuple(characters),
        cards=tuple(cards),
    )
    from dataclasses import replace

    return replace(cs, content_hash=content_hash(cs))
