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
    no_legal_card_rate             games in which a player had no card of a back under the back
                                   limit and played any card (DD-04's fallback)
    power_up_edge_win_rate         fights won by the side with the Power Up spirit's bonus, of the
                                   fights where only one side had it (games are the unit of its
                                   interval: engine/stats.py Tally.ratio_metric)
    double_edge_win_rate           the same for a Double spirit in force (not suppressed): what
                                   repeating the fighter's effect is worth
    unearth_edge_win_rate          the same for an Unearth spirit, whose worth was its Unearth when
                                   it arrived, so it wins fewer of these fights than the others
    card.<id>.play_rate            share of player-games in which the character was put into play
    card.<id>.fights_won_rate      fights won / fights fought by the character
    card.<id>.win_rate_played      win rate of player-games where it was played
    card.<id>.win_rate_not_played  ... where it was not
    card.<id>.win_delta            the difference (Newcombe interval)
    card.<id>.fights_fielded       fights the character fought (both fighters active) per player-game
    card.<id>.effect_fired         uses of its effect in which a step ran, per game (a Double counts
                                   each use; a copied effect counts for the copier)
    fired.primitive.<name>         times a step of that effect primitive ran, all games
    fired.ability.<name>           times a rules ability applied (double_use, power_up_fight,
                                   spirit_unearth, conversion, ...), all games
    fired.card.<id>                uses of the character's effect in which a step ran, all games
    (the fired.* figures are exact counts, their interval the count itself: the coverage gates)

A player-game is one player's side of one game; win rates count a draw as half a win.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from boneyard.engine.stats import Metric, Tally, diff_proportions, lead_story, proportion_metric

from .codes import ABILITY_NAMES, EDGES
from .effects import PRIMITIVES
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
    sums = t.sums
    _add(sums, "games", 1)
    results = [_result(s, k) for k in range(num_players)]
    for k in range(num_players):
        _add(sums, f"seat.{k + 1}.win_rate", results[k])
    _add(sums, "first_priority_win_rate", results[s.first_player])
    _add(sums, "draw_rate", 1 if s.winner is None else 0)
    scores = s.scores
    for v in scores:
        _add(sums, "score", v)
    _add(sums, "score_margin", abs(scores[0] - scores[1]))
    c, d = lead_story(s.scores_per_turn, s.winner)
    _add(sums, "lead_changes", c)
    if d is not None:
        _add(sums, "decided_turn", d)
    for cid in s.characters:
        played = _names(cid)[0]
        if played not in sums:
            sums[played] = [0, 0.0, 0.0]
    for name, n in s.primitives:
        _add(sums, "fired.primitive." + name, n)
    counts = dict(s.abilities)
    for name, n in s.abilities:
        _add(sums, "fired.ability." + name, n)
    _add(sums, "no_legal_card_rate", 1 if counts.get("no_legal_card", 0) else 0)
    for e in EDGES:
        edge = counts.get(f"{e}_edge", 0)
        if edge:
            _add(sums, f"{e}_edge_cross", edge * counts.get(f"{e}_edge_won", 0))
    for cid, n in s.effects:
        _add(sums, _names(cid)[3], n)
    for p, seat in enumerate(s.seats):
        r = results[p]
        _add(sums, "player_game", r)
        for cid in seat.played:
            _add(sums, _names(cid)[0], r)
        for cid, f in seat.fights:
            _add(sums, _names(cid)[1], f)
        for cid, f in seat.fights_won:
            _add(sums, _names(cid)[2], f)


def _add(sums: dict[str, list[float]], name: str, x: float) -> None:
    """``Tally.add`` on its sums, as a plain function: the tally runs compiled (pyproject.toml),
    and a call into the uncompiled class per figure would cost as much as the rest of it."""
    acc = sums.get(name)
    if acc is None:
        sums[name] = [1, x, x * x]
    else:
        acc[0] += 1
        acc[1] += x
        acc[2] += x * x


_NAMES: dict[str, tuple[str, str, str, str]] = {}


def _names(cid: str) -> tuple[str, str, str, str]:
    """The tally names of a character's figures, made once (a tally runs once per game)."""
    try:
        return _NAMES[cid]
    except KeyError:
        names = _NAMES[cid] = (f"card.{cid}.played", f"card.{cid}.fights",
                               f"card.{cid}.fights_won", f"card.{cid}.effect_fired")
        return names


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
    out.append(t.mean_metric("score_margin", unit="points", least=0.0))
    out.append(t.mean_metric("lead_changes", least=0.0))
    if t.n("decided_turn"):
        out.append(t.mean_metric("decided_turn", unit="turns", least=1.0))
    if t.n("no_legal_card_rate"):
        out.append(t.proportion_metric("no_legal_card_rate"))
    for e in EDGES:
        out.append(t.ratio_metric(f"{e}_edge_win_rate", f"fired.ability.{e}_edge_won",
                                  f"fired.ability.{e}_edge", f"{e}_edge_cross", n))

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
        out.append(t.mean_metric(f"card.{cid}.fights_fielded", f"card.{cid}.fights", group="card",
                                 subject=cid, unit="fights", over=pg, least=0.0))
        out.append(t.mean_metric(f"card.{cid}.effect_fired", group="card", subject=cid, unit="uses",
                                 over=n, least=0.0))
        # the same uses counted exactly: the coverage gate on each character's own effect
        out.append(count_metric(f"fired.card.{cid}", int(t.total(f"card.{cid}.effect_fired")), n,
                                "coverage", f"card.{cid}"))
    # every item of the vocabulary and the rules, 0 when it never fired (the coverage gates
    # need the zeros; which ones a set must fire is coverage.py's question)
    fired = {f"fired.primitive.{p}" for p in PRIMITIVES} | set(t.names("fired.")) | \
        {f"fired.ability.{a}" for a in (*ABILITY_NAMES, "conversion")}
    for key in sorted(fired):
        out.append(count_metric(key, int(t.total(key)), n, "coverage", key[len("fired."):]))
    return out


def count_metric(name: str, count: int, games: int, group: str, subject: str | None) -> Metric:
    """An exact count over ``games`` games: its interval is the count itself."""
    return Metric(name, float(count), float(count), float(count), games, group, subject, "times")


def game_metrics(summaries: Sequence[DotdSummary | Mapping[str, Any]], num_players: int = 2) -> list[Metric]:
    """Every Day of the Dead metric over ``summaries`` (see the module docstring)."""
    t = Tally()
    for s in summaries:
        tally(t, s, num_players)
    return metrics(t, num_players)


__all__ = ["game_metrics", "metrics", "tally"]
