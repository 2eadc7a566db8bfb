"""Grave Feast's invariants for ``simulate --check``: every card in exactly one zone (draw pile,
discard, removed, each player's hand, mash, grave, devil wives, families and eaters), scores
whole, and no score at ``win_score`` while the game runs (reaching it wins at once, GF-15).
Scores may go negative (GF-27: a spiritual explosion costs 6), so there is no floor.

Kept out of the engine modules: it reads the state's public fields only and runs on every step
of a checked run, never in a normal one.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any


def invariants(state: Any) -> list[str]:
    """What is wrong with ``state`` (a FeastState), [] when sound."""
    out: list[str] = []
    size = state.g.size
    zones = state.zones()
    every = sorted(c for cards in zones.values() for c in cards)
    if every != list(range(size)):  # the cheap test; the details only when it fails
        out.append(_partition_problem(zones, size))
    scores = list(state.score)
    if len(scores) != state.n or any(not isinstance(v, int) for v in scores):
        out.append(f"scores {scores} are not {state.n} whole numbers")
    elif not state.is_terminal() and max(scores) >= state.g.win_score:
        out.append(f"scores {scores} reach win_score {state.g.win_score} but the game goes on")
    return out


def _partition_problem(zones: Mapping[str, Sequence[int]], size: int) -> str:
    seen: Counter[int] = Counter()
    where: dict[int, list[str]] = {}
    for zone, cards in zones.items():
        for c in cards:
            seen[c] += 1
            where.setdefault(c, []).append(zone)
    parts = []
    missing = [c for c in range(size) if seen[c] == 0]
    doubled = [f"{c} ({', '.join(where[c])})" for c in range(size) if seen[c] > 1]
    strays = [c for c in seen if not 0 <= c < size]
    if missing:
        parts.append(f"cards in no zone: {', '.join(map(str, missing[:8]))}")
    if doubled:
        parts.append(f"cards in two zones: {'; '.join(doubled[:8])}")
    if strays:
        parts.append(f"card ids outside the deck of {size}: {strays[:8]}")
    return "; ".join(parts)
