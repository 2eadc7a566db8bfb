"""Day of the Dead playtest figures from game summaries, each with a 95% interval.

Names are stable (the gates in game.yaml refer to them):

    games                          number of games
    seat.<k>.win_rate              seat k (1-based), a draw counts half
    first_priority_win_rate        the player holding priority on turn 1
    draw_rate                      games ending level
    score_mean, score_sd, score_margin   final scores; margin = winner minus loser
    lead_changes                   times the leader changed between turns (mean per game)
    decided_turn                   turn after which the final winner led for good (won games:
                                   a draw was never decided; engine/stats.py lead_story)
    card.<id>.play_rate            share of player-games in which the character was put into play
    card.<id>.fights_won_rate      fights won / fights fought by the character
    card.<id>.win_rate_played      win rate of player-games where it was played
    card.<id>.win_rate_not_played  ... where it was not
    card.<id>.win_delta            the difference (Newcombe interval)

A player-game is one player's side of one game; win rates count a draw as half a win.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boneyard.engine.stats import Metric, Tally, diff_proportions, lead_story, proportion_metric

from .summary import DotdSummary


def _result(s: DotdSummary, p: int) -> float:
    if s.winner is None:
        return 0.5
    return 1.0 if s.winner == p else 0.0


def tally(t: Tally, summary: DotdSummary | Mapping[str, Any], num_players: int = 2) -> None:
    """Add one game's summary to ``t`` (counts and sums only, so blocks of games merge exactly).

    ``summary`` is a :class:`DotdSummary`, or its logged form (``to_json()``, as runs kept in
    memory and logs hold it).
    """
    s = summary if isinstance(summary, DotdSummary) else DotdSummary.from_json(summary)
    add = t.add
    add("games", 1)
    results = [_result(s, k) for k in range(num_players)]
    for k in range(num_players):
        add(f"seat.{k + 1}.win_rate", results[k])
    add("first_priority_win_rate", results[s.first_player])
    add("draw_rate", 1 if s.winner is None else 0)
    scores = s.scores
    for v in scores:
        add("score", v)
    add("score_margin", abs(scores[0] - scores[1]))
    c, d = lead_story(s.scores_per_turn, s.winner)
    add("lead_changes", c)
    if d is not None:
        add("decided_turn", d)
    sums = t.sums
    for cid in s.characters:
        if f"card.{cid}.played" not in sums:
            sums[f"card.{cid}.played"] = [0, 0.0, 0.0]
    for p, seat in enumerate(s.seats):
        r = results[p]
        add("player_game", r)
        for cid in seat.played:
            add(f"card.{cid}.played", r)
        for cid, f in seat.fights:
            add(f"card.{cid}.fights", f)
        for cid, f in seat.fights_won:
            add(f"card.{cid}.fights_won", f)


def metrics(t: Tally, num_players: int = 2) -> list[Metric]:
    """Every Day of the Dead metric from a tally (see the module docstring)."""
    n = t.n("games")
    out: list[Metric] = [Metric("games", float(n), float(n), float(n), n)]
    if n == 0:
        return out
    for k in range(num_players):
        out.append(t.proportion_metric(f"seat.{k + 1}.win_rate", group="seat", subject=f"seat {k + 1}"))
    out.append(t.proportion_metric("first_priority_win_rate"))
    out.append(t.proportion_metric("draw_rate"))
    out.append(t.mean_metric("score_mean", "score", unit="points"))
    out.append(t.sd_metric("score_sd", "score", unit="points"))
    out.append(t.mean_metric("score_margin", unit="points"))
    out.append(t.mean_metric("lead_changes"))
    if t.n("decided_turn"):
        out.append(t.mean_metric("decided_turn", unit="turns"))

    pg = t.n("player_game")
    all_wins = t.total("player_game")
    roster = sorted(k[len("card."):-len(".played")] for k in t.names("card.") if k.endswith(".played"))
    for cid in roster:
        n_p, w_p = t.n(f"card.{cid}.played"), t.total(f"card.{cid}.played")
        n_n, w_n = pg - n_p, all_wins - w_p
        fights, won = int(t.total(f"card.{cid}.fights")), t.total(f"card.{cid}.fights_won")
        out.append(proportion_metric(f"card.{cid}.play_rate", n_p, pg, group="card", subject=cid))
        out.append(proportion_metric(f"card.{cid}.fights_won_rate", won, fights, group="card", subject=cid))
        out.append(proportion_metric(f"card.{cid}.win_rate_played", w_p, n_p, group="card", subject=cid))
        out.append(
            proportion_metric(f"card.{cid}.win_rate_not_played", w_n, n_n, group="card", subject=cid)
        )
        d, lo, hi = diff_proportions(w_p, n_p, w_n, n_n)
        out.append(Metric(f"card.{cid}.win_delta", d, lo, hi, min(n_p, n_n), "card", cid, "%"))
    return out


def game_metrics(summaries: Sequence[DotdSummary | Mapping[str, Any]], num_players: int = 2) -> list[Metric]:
    """Every Day of the Dead metric over ``summaries`` (see the module docstring)."""
    t = Tally()
    for s in summaries:
        tally(t, s, num_players)
    return metrics(t, num_players)


__all__ = ["game_metrics", "metrics", "tally"]
