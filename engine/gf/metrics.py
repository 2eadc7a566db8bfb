"""Grave Feast playtest figures from game summaries, each with a 95% interval.

Names are stable: the gates of issue 6 and the diff reports refer to them.

    seat.<k>.win_rate        share of games seat k won, k from 1 like every seat in Boneyard's texts
                             (a capped game's split counts as a share)
    seat_win_spread          best seat's win rate minus the worst's; interval: Newcombe's for that
                             pair, low end clamped at 0 (see _spread)
    mean_turns, mean_rounds  game length (rounds = turns / players)
    draw_rate, cap_rate      games without a sole winner; games stopped by the turn cap
    reshuffles_per_game      draw pile recycled
    steals_per_game, preaches_per_game, counters_per_game, kills_per_game, feasts_per_game,
    flubs_per_game, chains_per_game, mean_chain_length
    feast.<kind>.in_winning_feast_rate  share of decided games whose winner's last (winning) feast
                             held this card kind (blood, brains, vampire, zombie)
    rare.<card>.held_rate    games where some player held the rare (devil_wife, exorcist)
    rare.<card>.holder_win_rate  of those, games a player who held it won
    rare.<card>.win_delta    per player-game, holders' win share minus the others' (the gate)
    rare_event.<event>.per_game  e.g. dw_seductions, exorcist_blasts, dw_killed, explosions, confused
    coin_flips_per_game      (the rare figures only when the rares are in the deck)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boneyard.engine.stats import Metric, diff_proportions, mean_metric, proportion_metric

FEAST_KINDS = ("blood", "brains", "vampire", "zombie")


def _per_game(name: str, summaries: Sequence[dict[str, Any]], key: str) -> Metric:
    return mean_metric(name, [float(s.get(key, 0)) for s in summaries])


def game_metrics(summaries: list[dict[str, Any]], num_players: int) -> list[Metric]:
    """All figures for a batch of finished games (summaries from ``FeastState.summary()``)."""
    games = [s for s in summaries if s.get("over", True)]
    n = len(games)
    out: list[Metric] = []
    if n == 0:
        return out
    wins = [0.0] * num_players
    for s in games:
        for i, r in enumerate(s["returns"][:num_players]):
            wins[i] += r
    for i in range(num_players):
        out.append(proportion_metric(f"seat.{i + 1}.win_rate", wins[i], n, group="seat",
                                     subject=f"seat {i + 1}"))
    out.append(_spread(wins, n))
    out.append(mean_metric("mean_turns", [float(s["turns"]) for s in games]))
    out.append(mean_metric("mean_rounds", [float(s["turns"]) / num_players for s in games]))
    out.append(proportion_metric("draw_rate", sum(1 for s in games if s.get("winner") is None), n))
    out.append(proportion_metric("cap_rate", sum(1 for s in games if s.get("capped")), n))
    for key in ("reshuffles", "steals", "preaches", "counters", "kills", "feasts", "flubs"):
        out.append(_per_game(f"{key}_per_game", games, key))
    out.append(mean_metric("chains_per_game", [float(len(s.get("chains", []))) for s in games]))
    chains = [float(c) for s in games for c in s.get("chains", [])]
    out.append(mean_metric("mean_chain_length", chains, unit="cards"))
    decided = [s for s in games if s.get("winner") is not None and s.get("winner_last_feast")]
    for kind in FEAST_KINDS:
        hits = sum(1 for s in decided if kind in s["winner_last_feast"])
        out.append(proportion_metric(f"feast.{kind}.in_winning_feast_rate", hits, len(decided),
                                     group="card", subject=kind))
    rare_games = [s for s in games if s.get("rares")]
    if rare_games:
        out.extend(_rare_metrics(rare_games))
    return out


def _spread(wins: list[float], n: int) -> Metric:
    """Best minus worst seat win rate, with an interval that never goes below 0.

    The interval is Newcombe's for the difference of the two extreme seats. Its low end may fall
    below 0, but a spread (max - min) cannot: and the true spread is at least the true difference
    of any two seats, so clamping the low end at 0 keeps a valid lower bound. The value (>= 0)
    always lies inside. (A bootstrap of max - min would be biased upward by the selection of the
    extreme seats; this keeps the figure simple and deterministic.)
    """
    hi = max(range(len(wins)), key=lambda i: wins[i])
    lo = min(range(len(wins)), key=lambda i: wins[i])
    d, dlo, dhi = diff_proportions(wins[hi], n, wins[lo], n)
    return Metric("seat_win_spread", d, min(d, max(0.0, dlo)), max(d, dhi), n, "seat", None, "%")


def _rare_metrics(games: list[dict[str, Any]]) -> list[Metric]:
    out: list[Metric] = []
    n = len(games)
    names = sorted({name for s in games for name in s.get("rare_holders", {})})
    for name in names:
        held = [s for s in games if s["rare_holders"].get(name)]
        out.append(proportion_metric(f"rare.{name}.held_rate", len(held), n, group="rare", subject=name))
        won = sum(1 for s in held if s.get("winner") in s["rare_holders"][name])
        out.append(proportion_metric(f"rare.{name}.holder_win_rate", won, len(held), group="rare",
                                     subject=name))
        # per player-game: the win share of players who held it minus that of those who did not
        w_in = n_in = w_out = n_out = 0.0
        for s in games:
            seats = set(s["rare_holders"].get(name, ()))
            for k, share in enumerate(s["returns"]):
                if k in seats:
                    w_in, n_in = w_in + share, n_in + 1
                else:
                    w_out, n_out = w_out + share, n_out + 1
        d, lo, hi = diff_proportions(w_in, int(n_in), w_out, int(n_out))
        out.append(Metric(f"rare.{name}.win_delta", d, lo, hi, int(n_in), "rare", name, "%"))
    events = sorted({k for s in games for k in s.get("rare_events", {})})
    for key in events:
        values = [float(s["rare_events"].get(key, 0)) for s in games]
        out.append(mean_metric(f"rare_event.{key}.per_game", values, group="rare_event", subject=key))
    out.append(mean_metric("coin_flips_per_game", [float(s.get("coin_flips", 0)) for s in games]))
    return out
