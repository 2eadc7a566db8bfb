"""The typed summary of a finished Day of the Dead game (what the statistics read).

:class:`DotdSummary` has the fields every game's summary shares (``boneyard.engine.core.Summary``:
winner, draw, scores, first_player, turns, played) and Day of the Dead's own; ``to_json()`` is the
plain dict that logs, replays and reports have always stored, key for key.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .position import Position


@dataclass(frozen=True, slots=True)
class SeatSummary:
    """One player's side of a game: what they played and how their fighters did."""

    played: tuple[str, ...]  # character ids put into play, sorted
    fights: tuple[tuple[str, int], ...]  # (character id, fights fought), by id
    fights_won: tuple[tuple[str, int], ...]  # (character id, fights won), by id
    conversions: int
    unearths: int
    digs: int
    score: int

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatSummary:
        return cls(
            played=tuple(data.get("played", ())),
            fights=tuple(sorted((data.get("fights") or {}).items())),
            fights_won=tuple(sorted((data.get("fights_won") or {}).items())),
            conversions=int(data.get("conversions", 0)),
            unearths=int(data.get("unearths", 0)),
            digs=int(data.get("digs", 0)),
            score=int(data.get("score", 0)),
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "played": list(self.played),
            "fights": dict(self.fights),
            "fights_won": dict(self.fights_won),
            "conversions": self.conversions,
            "unearths": self.unearths,
            "digs": self.digs,
            "score": self.score,
        }


@dataclass(frozen=True, slots=True)
class DotdSummary:
    """Facts of a (finished) game; see the module docstring."""

    winner: int | None  # None for a draw or an unfinished game
    draw: bool
    scores: tuple[int, ...]
    first_player: int  # the turn-1 priority holder
    turns: int
    played: tuple[tuple[str, ...], ...]  # per seat, sorted character ids played
    scores_per_turn: tuple[tuple[int, int], ...]  # the scores after each turn's rewards
    actions: int  # decisions taken
    seats: tuple[SeatSummary, ...]
    characters: tuple[str, ...]  # every character of the set, in table order
    # coverage, both seats together, only what fired (empty in a log from before they were kept):
    # times each effect primitive ran (a step whose conditions held), each rules ability applied
    # (Double, Power Up, Unearth spirit, conversion...), each character's effect fired (a use in
    # which a step ran: a Double counts each use, a copied effect counts for the copier)
    primitives: tuple[tuple[str, int], ...] = ()
    abilities: tuple[tuple[str, int], ...] = ()
    effects: tuple[tuple[str, int], ...] = ()

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> DotdSummary:
        """The summary back from its logged form (missing facts read as empty)."""
        seats = tuple(SeatSummary.from_json(x) for x in data.get("players", ()))
        return cls(
            winner=data.get("winner"),
            draw=bool(data.get("draw", False)),
            scores=tuple(data.get("scores", ())),
            first_player=int(data.get("first_priority", 0)),
            turns=int(data.get("turns", 0)),
            played=tuple(seat.played for seat in seats),
            scores_per_turn=tuple((a, b) for a, b in data.get("scores_per_turn", ())),
            actions=int(data.get("actions", 0)),
            seats=seats,
            characters=tuple(data.get("characters", ())),
            primitives=tuple(sorted((data.get("primitives") or {}).items())),
            abilities=tuple(sorted((data.get("abilities") or {}).items())),
            effects=tuple(sorted((data.get("effects") or {}).items())),
        )

    def to_json(self) -> dict[str, Any]:
        """The summary as plain data, exactly as logs and replays store it."""
        return {
            "winner": self.winner,
            "draw": self.draw,
            "scores": list(self.scores),
            "scores_per_turn": [[a, b] for a, b in self.scores_per_turn],
            "first_priority": self.first_player,
            "turns": self.turns,
            "actions": self.actions,
            "players": [seat.to_json() for seat in self.seats],
            "characters": list(self.characters),
            "primitives": dict(self.primitives),
            "abilities": dict(self.abilities),
            "effects": dict(self.effects),
        }


def summarize(st: Position) -> DotdSummary:
    """The summary of ``st`` (any state; the statistics read finished ones)."""
    g = st.g
    ids = g.char_ids
    seats = []
    prims: dict[str, int] = {}
    abilities: dict[str, int] = {}
    effects: dict[str, int] = {}
    for (kind, name), n in zip(g.fired_names, st.fired, strict=True):
        if n:
            into = effects if kind == "card" else prims if kind == "primitive" else abilities
            into[name] = into.get(name, 0) + n
    conv = st.stats[0][2] + st.stats[1][2]
    if conv:
        abilities["conversion"] = conv
    for p in (0, 1):
        played, _unused, conv, ue, dig = st.stats[p]
        fights: dict[str, int] = {}
        wins: dict[str, int] = {}
        for f in st.fight_log:
            cid = ids[g.char[f[2 + p]]]
            fights[cid] = fights.get(cid, 0) + 1
            if f[6 + p]:
                wins[cid] = wins.get(cid, 0) + 1
        seats.append(SeatSummary(
            played=tuple(sorted({ids[c] for c in played})),
            fights=tuple(sorted(fights.items())),
            fights_won=tuple(sorted(wins.items())),
            conversions=conv,
            unearths=ue,
            digs=dig,
            score=st.scores[p],
        ))
    winner = st.winner() if st.done else None
    return DotdSummary(
        winner=winner,
        draw=st.done and winner is None,
        scores=tuple(st.scores),
        first_player=st.first_prio,
        turns=st.turn,
        played=tuple(seat.played for seat in seats),
        scores_per_turn=tuple((a, b) for a, b, _ in st.score_log),
        actions=len(st.history),
        seats=tuple(seats),
        characters=tuple(ids),
        primitives=tuple(sorted(prims.items())),
        abilities=tuple(sorted(abilities.items())),
        effects=tuple(sorted(effects.items())),
    )
