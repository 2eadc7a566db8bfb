"""A Grave Feast position as plain data: the whole of it (``state_json``) and its families.

A player's view (``FeastObservation``) is in state.py: it calls the state's verbs (legal
actions, clone), so it sits with them, above the rules; this module stays below, on ``Position``.
"""

from __future__ import annotations

from typing import Any

from boneyard.engine.gf.constants import FOOD_NAMES, PHASE_NAMES, Fam
from boneyard.engine.gf.position import Position


def fam_json(s: Position, f: Fam) -> dict[str, Any]:
    g = s.g
    return {
        "id": f[0],
        "food": FOOD_NAMES[f[1]],
        "numbers": [g.num[c] for c in f[5]],
        "eaters": [g.names[e] for e in f[4]],
    }


def state_json(s: Position) -> dict[str, Any]:
    """The whole position as plain data (debugging, conformance checks)."""
    g = s.g
    return {
        "turn_player": s.tp,
        "turn": s.turn_no,
        "phase": PHASE_NAMES[s.phase],
        "current_player": s.current_player(),
        "scores": s.score[:],
        "hands": [[g.names[c] for c in h] for h in s.hands],
        "draw_pile": len(s.draw),
        "discard": [g.names[c] for c in s.discard],
        "families": [[fam_json(s, f) for f in fams] for fams in s.fams],
        "mashes": [[g.names[c] for c in m] for m in s.mash],
        "graveyards": [len(x) for x in s.grave],
        "devil_wives": [len(d) for d in s.dw],
        "removed": [g.names[c] for c in s.removed],
        "announced": s.announced[:],
        "chain": len(s.chain),
    }
