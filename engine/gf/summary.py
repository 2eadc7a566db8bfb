"""The facts of a finished (or stopped) Grave Feast game that the statistics read (metrics.py).

``FeastSummary`` is typed so that readers name fields instead of guessing a dict's shape. Its
first six fields are the ones every game's summary shares; ``to_json()`` is the plain form logs,
replays and reports store, key for key the dict the engine has always written, so old logs still
replay and reports stay byte-identical.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from boneyard.engine.gf.constants import OVER
from boneyard.engine.gf.position import Position

#: The stats counters every game has; the rest of ``Position.stats`` are the rares' events.
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
    # coverage: times each rules ability applied (rules_abilities), only those that did; empty
    # in a summary read from a log made before it was kept
    abilities: dict[str, int] | None = None

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
        out["abilities"] = dict(self.abilities or {})
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
            abilities=dict(data.get("abilities") or {}),
        )


def _sole_winner(returns: tuple[float, ...]) -> int | None:
    winners = [i for i, r in enumerate(returns) if r == 1.0]
    return winners[0] if len(winners) == 1 else None


def summarize(s: Position) -> FeastSummary:
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
        events = {k: v for k, v in st.items()
                  if k not in _BASE_STATS and k not in _SWITCHED and not isinstance(v, list)}
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
        abilities=abilities(s),
    )


#: Which event of the log (its first item) is which ability.
_LOGGED = {"steal": "steal_family", "steal_mash": "steal_mash", "race_lost": "race_lost",
           "exorcist_suicide": "exorcist_self_loathing_suicide", "explosion": "explosion",
           "dw_killed_by_preacher": "dw_killed_by_preacher_from_hand"}
#: Counters of ``Position.stats`` that only a switch reading away from the default can set: what
#: that reading makes happen (coverage), never a rare event. Set when first counted, so a game
#: without them has the stats it always had.
_SWITCHED = {"second_eaters": "second_eater", "turns_passed": "turn_passed",
             "join_discards": "join_discarded_eater", "out_of_turn_plays": "out_of_turn_play",
             "played_after_feast": "played_after_own_feast",
             "instants_kept_action": "instant_kept_action", "attach_announced": "attach_and_announce",
             "flubs_uncalled": "flub_not_called_out", "succubi_returned": "succubus_returned",
             "dw_splits": "dw_split_family", "exorcist_splits": "exorcist_split_family",
             "preachers_spared": "exorcist_spared_preacher", "maelstrom_spared": "maelstrom_spared_owner"}
#: Counters of ``Position.stats`` that are abilities under another name.
_COUNTED = {"feasts": "feast", "preaches": "preach", "counters": "evil_preacher_counter",
            "kills": "eater_killed", "reshuffles": "recycle", "flubs": "flub",
            "dw_placed": "dw_placed", "dw_seductions": "dw_seduction",
            "dw_hand_steals": "dw_from_hand", "dw_survived_preachers": "dw_survived_two_preachers",
            "exorcist_blasts": "exorcist_blast", "exorcist_hid": "exorcist_hid",
            "exorcist_seduced": "exorcist_seduced", "exorcist_killed_by_dw": "exorcist_killed_by_dw",
            "confused": "maelstrom_confused", "rare_attacks_fizzled": "rare_attack_fizzled",
            **_SWITCHED}


def abilities(s: Position) -> dict[str, int]:
    """How often each rules ability applied in the game (coverage), read off its counters and its
    event log after the game, so play pays nothing for it. The names are ``coverage.ABILITIES``."""
    out: dict[str, int] = {}
    st = s.stats
    for key, name in _COUNTED.items():
        v = st.get(key, 0)
        if isinstance(v, int):
            _add(out, name, v)
    _add(out, "preacher_chain", sum(1 for n in st["chains"] if n >= 2))
    # the Devil Wife's deaths: a preacher taken from a hand is logged apart from two preachers'
    killed = st.get("dw_killed", 0)
    for e in s.log:
        kind = e[0]
        logged = _LOGGED.get(kind)
        if logged is not None:
            _add(out, logged, 1)
            if kind == "dw_killed_by_preacher":
                killed -= 1
        elif kind == "coin":
            _add(out, "coin_flip", 1)
            why = e[1]
            if why.startswith("maelstrom"):
                _add(out, "exorcist_maelstrom", 1)
            elif why == "self-loathing":
                _add(out, "exorcist_self_loathing", 1)
    _add(out, "dw_killed_by_two_preachers", killed)
    return dict(sorted(out.items()))


def _add(out: dict[str, int], name: str, n: int) -> None:
    if n:
        out[name] = out.get(name, 0) + n
