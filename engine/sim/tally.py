"""Counting finished games: the engine's own figures plus the ones any game has, and the
metrics computed from the counts (names in boneyard.engine.sim's docstring)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boneyard.engine.core import Summary
from boneyard.engine.stats import Metric, Tally


def engine_metrics_module(rules: str | None) -> Any:
    """The game's own tally and metrics (its spec's), None for a game outside the registry."""
    from boneyard.engine.games import GAMES, spec_of

    if rules not in GAMES:
        return None
    return spec_of(rules).metrics()


def typed_summary(rules: str | None, summary: Summary | Mapping[str, Any]) -> Summary:
    """A summary as its game's type: a logged (JSON) form is read back through the game's spec."""
    if not isinstance(summary, Mapping):
        return summary
    from boneyard.engine.games import GAMES, spec_of

    spec = spec_of(rules) if rules in GAMES else None
    if spec is None or spec.summary_from_json is None:
        raise TypeError(f"a summary of rules {rules!r} in its JSON form cannot be read back")
    return spec.summary_from_json(summary)


def _tally_generic(t: Tally, seats: Sequence[str], returns: Sequence[float],
                   summary: Summary, players: int) -> None:
    """The figures any game has (module docstring), as counts and sums under ``sim.``."""
    tally_facts(t, seats, returns, summary.first_player, summary.scores, summary.turns, players)


def tally_facts(t: Tally, seats: Sequence[str], returns: Sequence[float], first_player: int,
                scores: Sequence[int], turns: int, players: int) -> None:
    """:func:`_tally_generic` from the facts themselves (a game's ``Counter`` gives them)."""
    facts = Facts(players)
    facts.add(seats, returns, first_player, scores, turns)
    facts.into(t)


class Facts:
    """The figures any game has, summed over games and handed to a tally at once.

    Why: a block of random games spends about 100 us a game in the engine, and adding these
    figures one call and one built name at a time cost several more. The sums are those of
    one ``Tally.add`` a game (the same additions in the same order).
    """

    __slots__ = ("players", "seat", "agent", "draw", "first", "score", "margin", "turns", "games")

    def __init__(self, players: int) -> None:
        self.players = players
        self.seat: list[list[float]] = [[0, 0.0, 0.0] for _ in range(players)]
        self.agent: dict[str, list[float]] = {}
        self.draw: list[float] = [0, 0, 0]
        self.first: list[float] = [0, 0.0, 0.0]
        self.score: list[float] = [0, 0, 0]
        self.margin: list[float] = [0, 0, 0]
        self.turns: list[float] = [0, 0, 0]
        self.games = 0

    def add(self, seats: Sequence[str], returns: Sequence[float], first_player: int,
            scores: Sequence[int], turns: int) -> None:
        """One finished game: who sat where, its returns, the turn-1 first player, the final
        scores and the turns played. (Written out, not a call a figure: the hot loop.)"""
        players = self.players
        for k in range(players):
            r = returns[k]
            acc = self.seat[k]
            acc[0] += 1
            acc[1] += r
            acc[2] += r * r
            acc = self.agent.get(seats[k])  # type: ignore[assignment]
            if acc is None:
                acc = self.agent[seats[k]] = [0, 0.0, 0.0]
            acc[0] += 1
            acc[1] += r
            acc[2] += r * r
        acc = self.draw
        acc[0] += 1
        if max(returns) < 1.0:
            acc[1] += 1
            acc[2] += 1
        if 0 <= first_player < players:
            r = returns[first_player]
            acc = self.first
            acc[0] += 1
            acc[1] += r
            acc[2] += r * r
        if len(scores) == players:
            acc = self.score
            for v in scores:
                acc[0] += 1
                acc[1] += v
                acc[2] += v * v
            if players > 1:
                top = sorted(scores)
                m = top[-1] - top[-2]
                acc = self.margin
                acc[0] += 1
                acc[1] += m
                acc[2] += m * m
        acc = self.turns
        acc[0] += 1
        acc[1] += turns
        acc[2] += turns * turns
        self.games += 1

    def into(self, t: Tally) -> None:
        """Merge the sums into ``t`` under ``sim.`` (module docstring)."""
        if not self.games:
            return
        other = Tally()
        into = other.sums
        for k in range(self.players):
            into[f"sim.seat.{k + 1}"] = self.seat[k]
        for spec, acc in self.agent.items():
            into[f"sim.agent.{spec}"] = acc
        for name, acc in (("sim.draw", self.draw), ("sim.first", self.first),
                          ("sim.score", self.score), ("sim.margin", self.margin),
                          ("sim.turns", self.turns)):
            if acc[0]:
                into[name] = acc
        into["sim.games"] = [self.games, self.games, self.games]
        t.merge(other)


def tally_game(t: Tally, engine: Any, seats: Sequence[str], returns: Sequence[float],
               summary: Summary, players: int) -> None:
    """Add one finished game to ``t``: the engine's own figures plus the generic ones."""
    if engine is not None:
        engine.tally(t, summary, players)
    _tally_generic(t, seats, returns, summary, players)


def tally_metrics(rules: str | None, t: Tally, players: int) -> list[Metric]:
    """Engine metrics plus the generic seat/agent/draw/score figures (module docstring)."""
    engine = engine_metrics_module(rules)
    own = list(engine.metrics(t, players)) if engine is not None else []
    # a shared figure the game reports under its own name is not reported twice
    have = {m.name for m in own} | set(engine.replaces if engine is not None else ())
    n = t.n("sim.games")
    out: list[Metric] = []

    def add(m: Metric) -> None:
        if m.name not in have:
            out.append(m)
            have.add(m.name)

    if n == 0:
        return out + own
    engine_seats = any(m.group == "seat" for m in own)  # the engine's own seat table wins
    for k in range(0 if engine_seats else players):
        add(t.proportion_metric(f"seat.{k + 1}.win_rate", f"sim.seat.{k + 1}", group="seat",
                                subject=f"seat {k + 1}"))
    specs = [name[len("sim.agent."):] for name in t.names("sim.agent.")]
    if len(specs) > 1:
        for spec in specs:
            add(t.proportion_metric(f"agent.{spec}.win_rate", f"sim.agent.{spec}", group="agent",
                                    subject=spec))
    add(t.proportion_metric("draw_rate", "sim.draw"))
    if t.n("sim.first") == n:
        add(t.proportion_metric("first_player_win_rate", "sim.first"))
    if t.n("sim.score") == n * players:
        add(t.mean_metric("score_mean", "sim.score", unit="points"))
        add(t.sd_metric("score_sd", "sim.score", unit="points"))
        if players > 1:
            add(t.mean_metric("score_margin", "sim.margin", unit="points", least=0.0))
    if t.n("sim.turns") == n and not any("turns" in m.name for m in own):
        add(t.mean_metric("turns_mean", "sim.turns", unit="turns", least=0.0))
    return out + own


def game_metrics(
    rules: str | None, summaries: list[dict[str, Any]], returns: list[list[float]],
    seats: list[list[str]], players: int,
) -> list[Metric]:
    """:func:`tally_metrics` over games held in memory."""
    engine = engine_metrics_module(rules)
    t = Tally()
    for s, r, row in zip(summaries, returns, seats, strict=True):
        tally_game(t, engine, row, r, typed_summary(rules, s), players)
    return tally_metrics(rules, t, players)
