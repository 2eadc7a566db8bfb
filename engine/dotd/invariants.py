"""Day of the Dead's invariants for ``simulate --check``: every card in exactly one zone, the two
lines as long as each other (the state's own check), scores whole numbers (a card's ``gain_vp``
may take a score below zero: DD-20, no floor).

Kept out of the engine module: it reads the state's public fields only and runs on every step
of a checked run, never in a normal one.
"""

from __future__ import annotations

from typing import Any

from boneyard.errors import RulesError


def invariants(state: Any) -> list[str]:
    """What is wrong with ``state`` (a DotdState), [] when sound."""
    out: list[str] = []
    try:
        state.check_invariants()
    except RulesError as exc:
        out.append(str(exc))
    scores = list(state.scores)
    if len(scores) != 2 or any(not isinstance(v, int) or isinstance(v, bool) for v in scores):
        out.append(f"scores {scores} are not two whole numbers")
    return out
