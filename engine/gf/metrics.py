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
    humans_per_feast         humans taken to the graveyard per feast (final scores over feasts;
                             games are the unit of its interval)
    feast.<kind>.in_winning_feast_rate  share of decided games whose winner's last (winning) feast
                             held this card kind (blood, brains, vampire, zombie)
    rare.<card>.held_rate    games where some player held the rare (devil_wife, exorcist)
    rare.<card>.holder_win_rate  of those, games a player who held it won
    rare.<card>.win_delta    per player-game, holders' win share minus the others' (the gate)
    rare_event.<event>.per_game  e.g. dw_seductions, exorcist_blasts, dw_killed, explosions, confused
    coin_flips_per_game      (the rare figures only when the rares are in the deck)
    coin_heads_rate          of those coin flips, the share that landed heads, read off the
                             outcomes each decides (tails: a monster confused by the maelstrom,
                             the Exorcist's self-loathing suicide, the Devil Wife killed by two
                             preachers, the Exorcist seduced by two succubi; every flip is one
                             of these four and heads is the other outcome)
    fired.ability.<name>     times a rules ability applied over all games (coverage.py lists them;
                             a count: its interval is the count itself)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boneyard.engine.gf.coverage import ABILITIES
from boneyard.engine.gf.summary import FeastSummary
from boneyard.engine.stats import Metric, Tally, diff_proportions, proportion_metric

FEAST_KINDS = ("blood", "brains", "vampire", "zombie")
#: The abilities that are a coin flip landing tails (heads is the other outcome of each flip).
TAILS = ("maelstrom_confused", "exorcist_self_loathing_suicide", "dw_killed_by_two_preachers",
         "exorcist_seduced")
#: FeastSummary fields counted per game (``<name>_per_game``).
COUNTS = ("reshuffles", "steals", "preaches", "counters", "kills", "feasts", "flubs")


def tally(t: Tally, summary: FeastSummary | Mapping[str, Any], num_players: int) -> None:
    """Add one game's summary to ``t``: counts and sums only, so blocks of games merge exactly.

    The shared simulator hands over the summary's plain form (``to_json()``: it crosses process
    boundaries as plain data); it is read back into a ``FeastSummary`` first.
    """
    s = summary if isinstance(summary, FeastSummary) else FeastSummary.from_json(summary)
    if not s.over:
        return
    add = t.add
    add("games", 1)
    for i, r in enumerate(s.returns[:num_players]):
        add(f"seat.{i + 1}.win_rate", r)
    add("mean_turns", s.turns)
    add("mean_rounds", s.turns / num_players)
    winner = s.feast_winner
    add("draw_rate", 1 if winner is None else 0)
    add("cap_rate", 1 if s.capped else 0)
    for key in COUNTS:
        add(f"{key}_per_game", getattr(s, key))
    add("chains_per_game", len(s.chains))
    eaten = sum(s.scores)
    add("humans_eaten", eaten)
    add("humans_per_feast_cross", eaten * s.feasts)
    for c in s.chains:
        add("mean_chain_length", c)
    if winner is not None and s.winner_last_feast:
        last = s.winner_last_feast
        for kind in FEAST_KINDS:
            add(f"feast.{kind}.in_winning_feast_rate", 1 if kind in last else 0)
    if s.rares:
        _tally_rares(t, s, winner)
    for name, k in (s.abilities or {}).items():
        add(f"fired.ability.{name}", k)


def metrics(t: Tally, num_players: int) -> list[Metric]:
    """All figures from a tally of finished games (see the module docstring)."""
    n = t.n("games")
    out: list[Metric] = []
    if n == 0:
        return out
    wins = [t.total(f"seat.{i + 1}.win_rate") for i in range(num_players)]
    for i in range(num_players):
        out.append(proportion_metric(f"seat.{i + 1}.win_rate", wins[i], n, group="seat",
                                     subject=f"seat {i + 1}"))
    out.append(_spread(wins, n))
    out.append(t.mean_metric("mean_turns", least=0.0))
    out.append(t.mean_metric("mean_rounds", least=0.0))
    out.append(t.proportion_metric("draw_rate"))
    out.append(t.proportion_metric("cap_rate"))
    for key in COUNTS:
        out.append(t.mean_metric(f"{key}_per_game", least=0.0))
    out.append(t.mean_metric("chains_per_game", least=0.0))
    out.append(t.ratio_metric("humans_per_feast", "humans_eaten", "feasts_per_game",
                              "humans_per_feast_cross", n, unit="humans"))
    out.append(t.mean_metric("mean_chain_length", unit="cards", least=0.0))
    for kind in FEAST_KINDS:
        out.append(t.proportion_metric(f"feast.{kind}.in_winning_feast_rate", group="card", subject=kind))
    if t.n("rare_games"):
        out.extend(_rare_metrics(t))
    # every ability, 0 when it never fired (the coverage gates need the zeros)
    for key in sorted(set(t.names("fired.")) | {f"fired.ability.{a}" for a in ABILITIES}):
        k = t.total(key)
        out.append(Metric(key, k, k, k, n, "coverage", key[len("fired."):], "times"))
    return out


def game_metrics(summaries: Sequence[FeastSummary | Mapping[str, Any]], num_players: int) -> list[Metric]:
    """All figures for a batch of finished games (summaries from ``FeastState.summary()``)."""
    t = Tally()
    for s in summaries:
        tally(t, s, num_players)
    return metrics(t, num_players)


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


def _tally_rares(t: Tally, s: FeastSummary, winner: int | None) -> None:
    add = t.add
    add("rare_games", 1)
    holders = s.rare_holders or {}
    returns = s.returns
    for name, seats in holders.items():
        add(f"rare.{name}.held_rate", 1 if seats else 0)
        if seats:
            add(f"rare.{name}.holder_win_rate", 1 if winner in seats else 0)
            for k in set(seats):
                add(f"rare.{name}.holders", returns[k])
    for share in returns:
        add("rare_player_games", share)
    for key, v in (s.rare_events or {}).items():
        add(f"rare_event.{key}.per_game", v)
    add("coin_flips_per_game", s.coin_flips or 0)
    fired = s.abilities or {}
    flips = fired.get("coin_flip", 0)
    if flips:
        t.add("coin_flips", flips)
        t.add("coin_heads", flips - sum(fired.get(k, 0) for k in TAILS))


def _rare_metrics(t: Tally) -> list[Metric]:
    """Held and win rates per rare; per player-game, holders' win share minus the others'."""
    out: list[Metric] = []
    n = t.n("rare_games")
    pg, all_wins = t.n("rare_player_games"), t.total("rare_player_games")
    names = [k[len("rare."):-len(".held_rate")] for k in t.names("rare.") if k.endswith(".held_rate")]
    for name in names:
        held = int(t.total(f"rare.{name}.held_rate"))
        out.append(proportion_metric(f"rare.{name}.held_rate", held, n, group="rare", subject=name))
        out.append(proportion_metric(f"rare.{name}.holder_win_rate", t.total(f"rare.{name}.holder_win_rate"),
                                     held, group="rare", subject=name))
        n_in, w_in = t.n(f"rare.{name}.holders"), t.total(f"rare.{name}.holders")
        d, lo, hi = diff_proportions(w_in, n_in, all_wins - w_in, pg - n_in)
        out.append(Metric(f"rare.{name}.win_delta", d, lo, hi, n_in, "rare", name, "%"))
    for key in t.names("rare_event."):
        # a game without the event counts as 0 for it
        out.append(t.mean_metric(key, group="rare_event", subject=key.split(".")[1], over=n, least=0.0))
    out.append(t.mean_metric("coin_flips_per_game", least=0.0))
    if t.total("coin_flips"):
        # flips are independent given the game so far, so a share over all flips (not games)
        out.append(proportion_metric("coin_heads_rate", t.total("coin_heads"), int(t.total("coin_flips"))))
    return out
