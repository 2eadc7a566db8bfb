"""The facts of a finished (or stopped) Grave Feast game that the statistics read (metrics.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from boneyard.engine.gf.constants import OVER

if TYPE_CHECKING:
    from boneyard.engine.gf.state import FeastState


def summarize(s: FeastState) -> dict[str, Any]:
    """Plain facts about the game for the statistics (engine/gf/metrics.py)."""
    res = s.returns()
    winner = None
    if s.result is not None and not s.capped:
        winner = res.index(1.0)
    st = s.stats
    out: dict[str, Any] = {
        "game": "grave-feast",
        "players": s.n,
        "over": s.phase == OVER,
        "returns": res,
        "winner": winner,
        "capped": s.capped,
        "scores": s.score[:],
        "turns": s.turn_no,
        "rounds": s.turn_no / s.n,
        "reshuffles": st["reshuffles"],
        "steals": st["steals"],
        "preaches": st["preaches"],
        "counters": st["counters"],
        "kills": st["kills"],
        "feasts": st["feasts"],
        "flubs": st["flubs"],
        "chains": st["chains"][:],
        "winner_last_feast": list(s.last_feast[winner]) if winner is not None and s.last_feast[winner] else None,
        "rares": s.g.rares,
        "decks": s.g.decks,
    }
    if s.g.rares:
        g = s.g
        out["rare_holders"] = {g.faces[g.face[c]].id: sorted(ps) for c, ps in s.held_rare.items()}
        out["rare_events"] = {
            k: v for k, v in st.items() if k not in out and not isinstance(v, list)
        }
        out["coin_flips"] = sum(1 for e in s.log if e[0] == "coin")
    return out
