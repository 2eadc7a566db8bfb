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
    add = t.add
    for k in range(players):
        add(f"sim.seat.{k + 1}", returns[k])
        add(f"sim.agent.{seats[k]}", returns[k])
    add("sim.draw", 1 if max(returns) < 1.0 else 0)
    if 0 <= summary.first_player < players:
        add("sim.first", returns[summary.first_player])
    scores = summary.scores
    if len(scores) == players:
        for v in scores:
            add("sim.score", v)
        if players > 1:
            top = sorted(scores)
            add("sim.margin", top[-1] - top[-2])
    add("sim.turns", summary.turns)
    add("sim.games", 1)


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
    have = {m.name for m in own}
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
            add(t.mean_metric("score_margin", "sim.margin", unit="points"))
    if t.n("sim.turns") == n and not any("turns" in m.name for m in own):
        add(t.mean_metric("turns_mean", "sim.turns", unit="turns"))
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
