"""The facts of a finished (or stopped) Grave Feast game that the statistics read (metrics.py).

``FeastSummary`` is typed so that readers name fields instead of guessing a dict's shape. Its
first six fields are the ones every game's summary shares; ``to_json()`` is the plain form logs,
replays and reports store, key for key the dict the engine has always written, so old logs still
replay and reports stay byte-identical.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from boneyard.engine.gf.constants import OVER

if TYPE_CHECKING:
    from boneyard.engine.gf.state import FeastState

#: The stats counters every game has; the rest of ``FeastState.stats`` are the rares' events.
_BASE_STATS = ("steals", "preaches", "kills", "feasts", "reshuffles", "flubs", "chains", "counters")


@dataclass(frozen=True, slots=True)
class FeastSummary:
    """One Grave Feast game in figures.

    Shared by every game: ``winner`` (the seat whose return is 1.0: a feast's winner, or the
    sole leader at the turn cap; None when the win is shared or the game is not over), ``draw``
    (over without a sole winner), ``scores``, ``first_player``, ``turns`` and ``played`` (card
    kinds each seat played: not recorded by this engine, so an empty tuple per seat).

    Grave Feast's own: the rest. ``rare_holders``, ``rare_events`` and ``coin_flips`` are None
    unless the rares were in the deck. ``first_player`` is -1 in a summary rebuilt from its
    JSON form (which, as the logs always had it, does not carry it).
    """

    winner: int | None
    draw: bool
    scores: tuple[int, ...]
    first_player: int
    turns: int
    played: tuple[tuple[str, ...], ...]
    players: int
    over: bool
    returns: tuple[float, ...]
    capped: bool
    rounds: float
    reshuffles: int
    steals: int
    preaches: int
    counters: int
    kills: int
    feasts: int
    flubs: int
    chains: tuple[int, ...]
    winner_last_feast: tuple[Any, ...] | None  # (food, humans, eater kind) of the winning feast
    rares: bool
    decks: int
    rare_holders: dict[str, list[int]] | None = None  # rare card id -> seats that held it
    rare_events: dict[str, int] | None = None  # e.g. dw_seductions, explosions, confused
    coin_flips: int | None = None

    @property
    def feast_winner(self) -> int | None:
        """Who reached the winning score (None at the turn cap): the ``winner`` of the JSON form."""
        return None if self.capped else self.winner

    def to_json(self) -> dict[str, Any]:
        """The summary as plain data, exactly as the engine wrote it before it was typed."""
        out: dict[str, Any] = {
            "game": "grave-feast",
            "players": self.players,
            "over": self.over,
            "returns": list(self.returns),
            "winner": self.feast_winner,
            "capped": self.capped,
            "scores": list(self.scores),
            "first_player": self.first_player,
            "turns": self.turns,
            "rounds": self.rounds,
            "reshuffles": self.reshuffles,
            "steals": self.steals,
            "preaches": self.preaches,
            "counters": self.counters,
            "kills": self.kills,
            "feasts": self.feasts,
            "flubs": self.flubs,
            "chains": list(self.chains),
            "winner_last_feast": None if self.winner_last_feast is None else list(self.winner_last_feast),
            "rares": self.rares,
            "decks": self.decks,
        }
        if self.rare_holders is not None:
            out["rare_holders"] = {k: list(v) for k, v in self.rare_holders.items()}
            out["rare_events"] = dict(self.rare_events or {})
            out["coin_flips"] = self.coin_flips
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> FeastSummary:
        """A summary back from its plain form (a log, a worker's row): the inverse of to_json."""
        returns = tuple(float(r) for r in data["returns"])
        winner = _sole_winner(returns)
        last = data.get("winner_last_feast")
        holders = data.get("rare_holders")
        return cls(
            winner=winner,
            draw=bool(data["over"]) and winner is None,
            scores=tuple(data["scores"]),
            first_player=int(data.get("first_player", -1)),  # -1: a log from before it was kept
            turns=data["turns"],
            played=tuple(() for _ in range(data["players"])),
            players=data["players"],
            over=data["over"],
            returns=returns,
            capped=data["capped"],
            rounds=data["rounds"],
            reshuffles=data["reshuffles"],
            steals=data["steals"],
            preaches=data["preaches"],
            counters=data["counters"],
            kills=data["kills"],
            feasts=data["feasts"],
            flubs=data["flubs"],
            chains=tuple(data["chains"]),
            winner_last_feast=None if last is None else tuple(last),
            rares=data["rares"],
            decks=data["decks"],
            rare_holders=None if holders is None else {k: list(v) for k, v in holders.items()},
            rare_events=None if holders is None else dict(data.get("rare_events") or {}),
            coin_flips=None if holders is None else data.get("coin_flips"),
        )


def _sole_winner(returns: tuple[float, ...]) -> int | None:
    winners = [i for i, r in enumerate(returns) if r == 1.0]
    return winners[0] if len(winners) == 1 else None


def summarize(s: FeastState) -> FeastSummary:
    """The summary of a position (``FeastState.summary``)."""
    returns = tuple(s.returns())
    winner = _sole_winner(returns)
    over = s.phase == OVER
    st = s.stats
    g = s.g
    last = s.last_feast[winner] if winner is not None and not s.capped else None
    holders: dict[str, list[int]] | None = None
    events: dict[str, int] | None = None
    flips: int | None = None
    if g.rares:
        holders = {g.faces[g.face[c]].id: sorted(ps) for c, ps in s.held_rare.items()}
        events = {k: v for k, v in st.items() if k not in _BASE_STATS and not isinstance(v, list)}
        flips = sum(1 for e in s.log if e[0] == "coin")
    return FeastSummary(
        winner=winner,
        draw=over and winner is None,
        scores=tuple(s.score),
        first_player=s.first,
        turns=s.turn_no,
        played=tuple(() for _ in range(s.n)),
        players=s.n,
        over=over,
        returns=returns,
        capped=s.capped,
        rounds=s.turn_no / s.n,
        reshuffles=st["reshuffles"],
        steals=st["steals"],
        preaches=st["preaches"],
        counters=st["counters"],
        kills=st["kills"],
        feasts=st["feasts"],
        flubs=st["flubs"],
        chains=tuple(st["chains"]),
        winner_last_feast=tuple(last) if last else None,
        rares=g.rares,
        decks=g.decks,
        rare_holders=holders,
        rare_events=events,
        coin_flips=flips,
    )
