"""Day of the Dead playtest figures from game summaries, each with a 95% interval.

Names are stable (the gates in game.yaml refer to them):

    games                          number of games
    seat.<k>.win_rate              seat k (1-based), a draw counts half
    first_priority_win_rate        the player holding priority on turn 1
    draw_rate                      games ending level
    score_mean, score_sd, score_margin   final scores; margin = winner minus loser
    lead_changes                   times the leader changed between turns (mean per game)
    decided_turn                   turn after which the final winner led for good (won games)
    card.<id>.play_rate            share of player-games in which the character was put into play
    card.<id>.fights_won_rate      fights won / fights fought by the character
    card.<id>.win_rate_played      win rate of player-games where it was played
    card.<id>.win_rate_not_played  ... where it was not
    card.<id>.win_delta            the difference (Newcombe interval)

A player-game is one player's side of one game; win rates count a draw as half a win.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from boneyard.engine.stats import (
    Z95,
    Metric,
    diff_proportions,
    mean_metric,
    proportion_metric,
)


def _result(summary: dict[str, Any], p: int) -> float:
    w = summary.get("winner")
    if w is None:
        return 0.5
    return 1.0 if w == p else 0.0


def _lead_story(summary: dict[str, Any]) -> tuple[int, int | None]:
    """(lead changes, turn after which the final winner led for good or None)."""
    leaders = []
    for a, b in summary.get("scores_per_turn", []):
        leaders.append(0 if a > b else 1 if b > a else -1)
    changes = 0
    last = -1
    for x in leaders:
        if x >= 0:
            if last >= 0 and x != last:
                changes += 1
            last = x
    w = summary.get("winner")
    decided = None
    if w is not None and leaders:
        decided = len(leaders)
        for t in range(len(leaders) - 1, -1, -1):
            if leaders[t] == w:
                decided = t + 1
            else:
                break
    return changes, decided


def game_metrics(summaries: Sequence[dict[str, Any]], num_players: int = 2) -> list[Metric]:
    """Every Day of the Dead metric over ``summaries`` (see the module docstring)."""
    n = len(summaries)
    out: list[Metric] = [Metric("games", float(n), float(n), float(n), n)]
    if n == 0:
        return out
    players = num_players
    for k in range(players):
        wins = sum(_result(s, k) for s in summaries)
        out.append(proportion_metric(f"seat.{k + 1}.win_rate", wins, n, group="seat", subject=f"seat {k + 1}"))
    first = sum(_result(s, s["first_priority"]) for s in summaries)
    out.append(proportion_metric("first_priority_win_rate", first, n))
    out.append(proportion_metric("draw_rate", sum(1 for s in summaries if s.get("winner") is None), n))
    flat = [float(v) for s in summaries for v in s["scores"]]
    out.append(mean_metric("score_mean", flat, unit="points"))
    m = math.fsum(flat) / len(flat)
    sd = math.sqrt(math.fsum((v - m) ** 2 for v in flat) / max(1, len(flat) - 1))
    se = sd / math.sqrt(2 * max(1, len(flat) - 1))
    out.append(Metric("score_sd", sd, max(0.0, sd - Z95 * se), sd + Z95 * se, len(flat), "game", None, "points"))
    out.append(mean_metric("score_margin", [float(abs(s["scores"][0] - s["scores"][1])) for s in summaries], unit="points"))
    changes: list[float] = []
    decided: list[float] = []
    for s in summaries:
        c, d = _lead_story(s)
        changes.append(float(c))
        if d is not None:
            decided.append(float(d))
    out.append(mean_metric("lead_changes", changes))
    if decided:
        out.append(mean_metric("decided_turn", decided, unit="turns"))

    # per character
    roster: list[str] = []
    seen: set[str] = set()
    for s in summaries:
        names = list(s.get("characters", ()))
        for pl in s["players"]:
            names.extend(pl["played"])
        for cid in names:
            if cid not in seen:
                seen.add(cid)
                roster.append(cid)
    stats = {cid: [0, 0.0, 0, 0.0, 0, 0] for cid in roster}  # played n, wins; not n, wins; fights, won
    for s in summaries:
        for p, pl in enumerate(s["players"]):
            r = _result(s, p)
            played = set(pl["played"])
            for cid, st in stats.items():
                if cid in played:
                    st[0] += 1
                    st[1] += r
                else:
                    st[2] += 1
                    st[3] += r
            for cid, f in pl["fights"].items():
                stats[cid][4] += f
            for cid, f in pl["fights_won"].items():
                stats[cid][5] += f
    pg = n * players
    for cid in sorted(roster):
        n_p, w_p, n_n, w_n, fights, won = stats[cid]
        out.append(proportion_metric(f"card.{cid}.play_rate", n_p, pg, group="card", subject=cid))
        out.append(proportion_metric(f"card.{cid}.fights_won_rate", won, fights, group="card", subject=cid))
        out.append(proportion_metric(f"card.{cid}.win_rate_played", w_p, n_p, group="card", subject=cid))
        out.append(
            proportion_metric(f"card.{cid}.win_rate_not_played", w_n, n_n, group="card", subject=cid)
        )
        d, lo, hi = diff_proportions(w_p, n_p, w_n, n_n)
        out.append(Metric(f"card.{cid}.win_delta", d, lo, hi, min(n_p, n_n), "card", cid, "%"))
    return out


__all__ = ["game_metrics"]
