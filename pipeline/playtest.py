"""The playtest a build runs: simulate, measure, substitute, rate the agents, judge the gates.

Everything here is deterministic in (card content, switches, playtest settings): batch ``b`` of
a run is the simulator's run with seed ``batch_seed(seed, label, b)``; paired-seed substitution
replays *exactly* the games of the main batch in which a character was played (same deal, same
shuffles, same agent streams: ``engine.sim.game_seed``/``agent_seed``) on a copy of the set where
that character is a neutral stand-in, so the difference of the two outcomes is the card's own
effect, with common random numbers narrowing its interval. The result is a plain JSON-able
record (``output/<set>/playtest.json``) that the report, the render footer and ``diff`` read.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from boneyard.engine.agents import make_agent, parse_spec
from boneyard.engine.agents.mcts import DEFAULT_BUDGET
from boneyard.engine.cards import CardSet
from boneyard.engine.games import make_game, spec_of
from boneyard.engine.sim import (
    STUCK_LISTED,
    game_metrics,
    game_seed,
    hash_seed,
    map_tasks,
    play_game,
    seat_agents,
    simulate,
)
from boneyard.engine.sim import default_jobs as sim_default_jobs
from boneyard.engine.stats import Metric, diff_proportions, mean_metric, proportion_metric
from boneyard.engine.stats import lead_story as stats_lead_story
from boneyard.pipeline.gates import PASS, evaluate, gated_metrics, outliers, stuck_metric
from boneyard.pipeline.playtest_config import PlaytestConfig, Run
from boneyard.pipeline.sensitivity import sensitivity_metrics

from boneyard import __version__
from boneyard.errors import GateError

RECORD_FORMAT = 1
CHECKED_PROFILE = "fast"
"""The CI profile: its games run with the engines' invariant checks (``simulate --check``)."""
Progress = Callable[[str, int, int], None]


def batch_seed(seed: int, label: str, batch: int) -> int:
    """Seed of batch ``batch`` of a run: batch 0 is ``seed`` itself, so
    ``boneyard simulate --seed S -n GAMES`` reproduces a build's main games exactly."""
    return seed if batch == 0 else hash_seed("batch", seed, label, batch)


def default_jobs() -> int:
    """All cores (the simulator's default); the record does not depend on it."""
    return sim_default_jobs()


def config_hash(cfg: PlaytestConfig) -> str:
    """Hash of the settings that change what a playtest measures (not jobs: results ignore it)."""
    blob = json.dumps(cfg.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode()).hexdigest()[:16]


# --- widths and precision --------------------------------------------------------------------


def is_rate(m: Metric) -> bool:
    """Proportions and differences of proportions: precision is an absolute width for them."""
    return m.unit == "%"


def too_wide(m: Metric, precision: float) -> bool:
    """True when ``m`` needs more games: rates need width <= precision, other figures (rounds,
    reshuffles) width <= precision x max(|value|, 1), since "0.02 rounds" means nothing."""
    if math.isnan(m.value) or math.isnan(m.width):
        return False
    limit = precision if is_rate(m) else precision * max(abs(m.value), 1.0)
    return m.width > limit + 1e-12


# --- extra game-level figures ----------------------------------------------------------------


def lead_story(per_turn: Sequence[Sequence[float]], returns: Sequence[float]) -> tuple[int, int | None]:
    """(lead changes, turn after which the eventual winner led at every later turn end); a draw
    has no decided turn (one definition: boneyard.engine.stats.lead_story)."""
    return stats_lead_story(per_turn, returns.index(1.0) if 1.0 in returns else None)


def _extra_metrics(summaries: Sequence[Mapping[str, Any]], returns: Sequence[Sequence[float]],
                   have: set[str]) -> list[Metric]:
    """Lead changes and how early the winner is decided, from the engine's score log."""
    out: list[Metric] = []
    logs = [s.get("scores_per_turn") for s in summaries]
    if logs and all(isinstance(x, list) and x for x in logs):
        story = [lead_story(x, r) for x, r in zip(logs, returns, strict=True)]
        summaries = [dict(s, lead_changes=c, decided_turn=d) for s, (c, d) in zip(summaries, story, strict=True)]
    for key, name, unit in (
        ("lead_changes", "lead_changes_mean", "changes"),
        ("decided_turn", "decided_turn_mean", "turns"),
        ("decided_round", "decided_round_mean", "rounds"),
    ):
        vals = [s.get(key) for s in summaries if s.get(key) is not None]  # draws: no turn
        if name not in have and key not in have and vals and all(isinstance(v, (int, float)) for v in vals):
            out.append(mean_metric(name, [float(v) for v in vals], unit=unit))
    return out


def fallback_metrics(card_set: CardSet, summaries: Sequence[Mapping[str, Any]],
                     returns: Sequence[Sequence[float]], have: set[str]) -> list[Metric]:
    """The figures the gates need, computed here when the engine's metrics do not define them:
    ``first_priority_win_rate`` and per character ``card.<id>.play_rate`` (share of player-games
    in which that player played it) and ``card.<id>.win_delta`` (win share of player-games where
    it was played minus where it was not)."""
    out: list[Metric] = []
    firsts = [s.get("first_priority") for s in summaries]
    if "first_priority_win_rate" not in have and firsts and all(isinstance(f, int) for f in firsts):
        out.append(proportion_metric("first_priority_win_rate",
                                     sum(r[f] for f, r in zip(firsts, returns, strict=True)), len(returns)))
    units = spec_of(card_set.rules).units(card_set)
    if not units or not summaries:
        return out
    players = len(returns[0])
    seats = [played_by_seat(s, players) for s in summaries]
    if any(x is None for x in seats):
        return out
    for cid, _name in units:
        n_played, w_played, w_not = 0, 0.0, 0.0
        for who, r in zip(seats, returns, strict=True):
            for k in range(players):
                if cid in who[k]:  # type: ignore[index]
                    n_played += 1
                    w_played += r[k]
                else:
                    w_not += r[k]
        total = players * len(returns)
        if f"card.{cid}.play_rate" not in have:
            out.append(proportion_metric(f"card.{cid}.play_rate", n_played, total, group="card", subject=cid))
        if f"card.{cid}.win_delta" not in have:
            d, lo, hi = diff_proportions(w_played, n_played, w_not, total - n_played)
            out.append(Metric(f"card.{cid}.win_delta", d, lo, hi, n_played, "card", cid, "%"))
    return out


def rare_metrics(summaries: Sequence[Mapping[str, Any]], returns: Sequence[Sequence[float]],
                 have: set[str]) -> list[Metric]:
    """``rare.<id>.win_delta``: win share of players who held a rare minus those who did not
    (observational; Grave Feast has no neutral stand-in for a rare, see docs/playtest.md)."""
    holders = [s.get("rare_holders") for s in summaries]
    if not holders or not all(isinstance(h, Mapping) for h in holders):
        return []
    names = sorted({k for h in holders for k in h})
    out = []
    for rid in [*names, "any"]:
        held = [0.0, 0]
        other = [0.0, 0]
        for h, r in zip(holders, returns, strict=True):
            seats = {k for key, ks in h.items() if rid in (key, "any") for k in ks}
            for k, share in enumerate(r):
                acc = held if k in seats else other
                acc[0] += share
                acc[1] += 1
        name = f"rare.{rid}.win_delta"
        if name not in have:
            d, lo, hi = diff_proportions(held[0], held[1], other[0], other[1])
            out.append(Metric(name, d, lo, hi, held[1], "rare", rid, "%"))
    return out


def _distribution(values: Sequence[float]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for v in values:
        key = str(round(v))
        counts[key] = counts.get(key, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: float(kv[0])))


def _length_key(summaries: Sequence[Mapping[str, Any]]) -> str | None:
    for key in ("rounds", "turns"):
        if summaries and all(isinstance(s.get(key), (int, float)) for s in summaries):
            return key
    return None


def distributions(summaries: Sequence[Mapping[str, Any]], returns: Sequence[Sequence[float]]) -> dict[str, Any]:
    """Histograms the report draws: winner's and loser's scores, margins, game lengths."""
    out: dict[str, Any] = {}
    scores = [s.get("scores") for s in summaries]
    if scores and all(isinstance(sc, list) and sc for sc in scores):
        win, lose, margin = [], [], []
        for sc, r in zip(scores, returns, strict=True):
            order = sorted(range(len(sc)), key=lambda k: (r[k], sc[k]), reverse=True)
            win.append(sc[order[0]])
            lose.extend(sc[k] for k in order[1:])
            top = sorted(sc)
            margin.append(top[-1] - top[-2] if len(top) > 1 else 0)
        out["winner_score"] = _distribution(win)
        out["other_scores"] = _distribution(lose)
        out["margin"] = _distribution(margin)
    key = _length_key(summaries)
    if key:
        out["length"] = {"unit": key, "counts": _distribution([s[key] for s in summaries])}
    return out


# --- who played what -------------------------------------------------------------------------


def played_by_seat(summary: Mapping[str, Any], players: int) -> list[set[str]] | None:
    """Character ids each seat played, from the engine's summary (None if it does not say)."""
    per_seat = summary.get("players")
    if isinstance(per_seat, list) and len(per_seat) == players and all(
        isinstance(x, Mapping) and isinstance(x.get("played"), list) for x in per_seat
    ):
        return [{str(c).split("@")[0] for c in x["played"]} for x in per_seat]
    played = summary.get("played")
    if isinstance(played, list) and len(played) == players:
        return [{str(x).split("@")[0] for x in seat} for seat in played]
    if isinstance(played, Mapping):  # {character id: [seats]}
        seats: list[set[str]] = [set() for _ in range(players)]
        for cid, who in played.items():
            for k in who if isinstance(who, list) else [who]:
                if isinstance(k, int) and 0 <= k < players:
                    seats[k].add(str(cid).split("@")[0])
        return seats
    return None


# --- paired-seed substitution ----------------------------------------------------------------


def dealt_by_seat(game: Any, seed_of_game: int, players: int) -> list[set[str]] | None:
    """Character ids in each seat's opening hand (from each player's own observation)."""
    state = game.new_initial_state(seed_of_game)
    out = []
    for k in range(players):
        hand = state.observation(k).to_json().get("hand")
        if not isinstance(hand, list):
            return None
        out.append({str(c).split("@")[0] for c in hand})
    return out


def _returns_for(card_set: CardSet, players: int | None, options: Mapping[str, Any],
                 specs: Sequence[str], seed: int, indices: Sequence[int]) -> list[list[float]]:
    """Outcomes of games ``indices`` of the simulator's run with ``seed`` on ``card_set``."""
    game = make_game(card_set, players, **dict(options))
    out = []
    for i in indices:
        seats = seat_agents(list(specs), game.num_players, i)
        agents = [make_agent(s, game) for s in seats]
        state, _ = play_game(game, agents, game_seed(seed, i))
        out.append(list(state.returns()))
    return out


def _sub_task(args: tuple[Any, ...]) -> tuple[str, list[list[float]]]:
    cid, card_set, players, options, specs, seed, indices = args
    return cid, _returns_for(card_set, players, options, specs, seed, indices)


def _pool_map(tasks: list[tuple[Any, ...]], cfg: PlaytestConfig,
              done: Callable[[tuple[str, list[list[float]]]], None]) -> None:
    map_tasks(_sub_task, tasks, cfg.jobs, cfg.scheduler, done)


def substitution_metrics(
    card_set: CardSet, run: Run, specs: Sequence[str], seed: int,
    summaries: Sequence[Mapping[str, Any]], returns: Sequence[Sequence[float]],
    cfg: PlaytestConfig, progress: Progress | None = None,
) -> list[Metric]:
    """``card.<id>.sub_delta`` for every character: over the main games in which exactly one
    seat was dealt it, that seat's result minus its result in the same game with the stand-in.

    The games are chosen by the deal, which the substitution does not change (a choice made
    during the game, such as playing the card, would select games by an outcome of the card
    itself and bias the comparison). Engines whose observation shows no ``hand`` fall back to
    the seat that played the card."""
    spec = spec_of(card_set.rules)
    units = [cid for cid, _ in spec.units(card_set)]
    if not units or spec.stand_in is None or cfg.substitution_games <= 0:
        return []
    players = len(returns[0]) if returns else (run.players or 2)
    chosen = [cid for cid in units
              if cfg.substitution_cards is None or cid in cfg.substitution_cards]
    unknown = set(cfg.substitution_cards or ()) - set(units)
    if unknown:
        raise GateError(f"playtest.substitution.cards: no character {', '.join(sorted(unknown))} in '{card_set.name}'")
    picks: dict[str, list[tuple[int, int]]] = {cid: [] for cid in chosen}
    game = make_game(card_set, run.players, **dict(run.options))
    for i, s in enumerate(summaries):
        seats = dealt_by_seat(game, game_seed(seed, i), players) or played_by_seat(s, players)
        if seats is None:
            return []
        for cid in chosen:
            who = [k for k in range(players) if cid in seats[k]]
            if len(who) == 1 and len(picks[cid]) < cfg.substitution_games:
                picks[cid].append((i, who[0]))
    tasks = []
    for cid in chosen:
        idx = [i for i, _ in picks[cid]]
        if idx:
            tasks.append((cid, spec.stand_in(card_set, cid, cfg.stand_in), run.players,
                          run.options, list(specs), seed, idx))
    results: dict[str, list[list[float]]] = {}
    total = len(tasks)

    def done(res: tuple[str, list[list[float]]]) -> None:
        results[res[0]] = res[1]
        if progress:
            progress("substitution", len(results), total)

    _pool_map(tasks, cfg, done)
    out = []
    for cid in chosen:
        pairs = picks[cid]
        subs = results.get(cid, [])
        diffs = [returns[i][seat] - sub[seat] for (i, seat), sub in zip(pairs, subs, strict=True)]
        m = mean_metric(f"card.{cid}.sub_delta", diffs, group="card", subject=cid, unit="%")
        if not diffs:
            m = Metric(m.name, math.nan, -1.0, 1.0, 0, "card", cid, "%")
        out.append(m)
    return out


# --- agent strength --------------------------------------------------------------------------


def strength_metrics(card_set: CardSet, run: Run, specs: Sequence[str], seed: int, games: int,
                     jobs: int, rivals: Sequence[str] = (), rival_games: int = 0,
                     scheduler: str | None = None) -> tuple[list[Metric], list[str]]:
    """Each agent against random, a searching agent against itself at half budget, and each
    agent against the configured stronger ``rivals``, so a designer can tell a strong card from a
    bot that misplays it. Seats rotate (simulator)."""
    if games <= 0:
        return [], []
    players = run.players or 2
    metrics: list[Metric] = []
    notes: list[str] = []
    extra = list(rivals)
    for spec in sorted(set(specs)):
        kind, budget = parse_spec(spec)
        matches: list[tuple[str, str, int]] = []
        if kind != "random":
            matches.append(("vs_random", "random", games))
        if kind == "mcts":
            half = max(1, (budget or DEFAULT_BUDGET) // 2)
            matches.append(("vs_half_budget", f"mcts:{half}", games))
        else:
            notes.append(f"{spec}: no search budget, so no half-budget comparison")
        matches += [(f"vs_{r}", r, rival_games) for r in extra if r != spec and rival_games > 0]
        for name, rival, n in matches:
            lineup = [spec] + [rival] * (players - 1)
            res = simulate(card_set, lineup, n, hash_seed("strength", seed, spec, rival),
                           jobs=jobs, num_players=run.players, options=run.options, keep_games=True,
                           scheduler=scheduler)
            wins = sum(r[k] for r, seats in zip(res.returns, res.seats, strict=True)
                       for k, s in enumerate(seats) if s == spec)
            # with lineup rotation each game has exactly one seat of ``spec`` (unless rival == spec)
            metrics.append(proportion_metric(f"agent.{spec}.{name}", wins, n, group="agent", subject=spec))
            metrics[-1] = replace(metrics[-1], subject=f"{spec} vs {rival} ({players} players)")
            m = metrics[-1]
            if name.startswith("vs_") and rival != "random" and m.high < 1.0 / players:
                notes.append(f"{spec} clearly loses to {rival} ({m.value * 100:.0f}% of games): a stronger "
                             f"player exists, so card verdicts describe play at {spec}'s level")
    return metrics, notes


# --- the whole playtest ----------------------------------------------------------------------


def _fair_share(players: int) -> float:
    return 1.0 / players


def run_one(card_set: CardSet, run: Run, cfg: PlaytestConfig, progress: Progress | None = None) -> dict[str, Any]:
    """Simulate one run in batches (more batches only under ``precision``) and measure it."""
    game = make_game(card_set, run.players, **dict(run.options))
    players = game.num_players
    specs = cfg.agent_specs(players) if not isinstance(cfg.agents, str) else [cfg.agents]
    seeds0 = batch_seed(cfg.seed, run.label, 0)
    summaries: list[dict[str, Any]] = []
    returns: list[list[float]] = []
    seats: list[list[str]] = []
    batch, started = 0, time.perf_counter()
    first_summaries: list[dict[str, Any]] = []
    first_returns: list[list[float]] = []
    stuck: list[dict[str, Any]] = []
    stuck_count = 0
    run_gates = [g for g in cfg.gates if g.run in (None, run.label)]
    while True:
        n = cfg.games if batch == 0 else min(cfg.games, cfg.cap - len(returns))
        label = f"{run.label}: games"

        def prog(done: int, total: int, label: str = label, base: int = len(returns)) -> None:
            if progress:
                progress(label, base + done, max(cfg.games, base + total))

        res = simulate(card_set, specs, n, batch_seed(cfg.seed, run.label, batch), jobs=cfg.jobs,
                       num_players=run.players, options=run.options, progress=prog,
                       keep_games=True, scheduler=cfg.scheduler,
                       check=True if cfg.profile == CHECKED_PROFILE else None)
        stuck_count += res.stuck_count
        stuck += [dict(s, batch=batch, run_seed=res.seed)  # simulate --seed run_seed replays it
                  for s in res.stuck][:max(0, STUCK_LISTED - len(stuck))]
        summaries += res.summaries
        returns += res.returns
        seats += res.seats
        if batch == 0:
            first_summaries, first_returns = list(res.summaries), list(res.returns)
        metrics = _measure(card_set, summaries, returns, seats, players)
        if stuck_count:
            metrics.append(stuck_metric(stuck_count, len(returns) + stuck_count))
        batch += 1
        if cfg.precision is None or len(returns) >= cfg.cap:
            break
        wide = [m for m in gated_metrics(run_gates, metrics) if too_wide(m, cfg.precision)]
        if not wide:
            break
    t_games = time.perf_counter() - started
    sub = substitution_metrics(card_set, run, specs, seeds0, first_summaries, first_returns, cfg, progress)
    if cfg.precision is not None and sub:
        # more paired games for the characters whose interval is still too wide
        sub = _refine_substitution(card_set, run, specs, seeds0, first_summaries, first_returns, cfg, sub, progress)
    metrics += sub
    # issue 13.7: per-kind sensitivity and the rares' paired deltas (pipeline/sensitivity.py)
    metrics += sensitivity_metrics(card_set, run, cfg, specs, seeds0, first_summaries, first_returns, progress)
    t_sub = time.perf_counter() - started - t_games
    strength, notes = strength_metrics(card_set, run, specs, cfg.seed, cfg.strength_games, cfg.jobs,
                                       cfg.strength_rivals, cfg.strength_rival_games, cfg.scheduler)
    t_strength = time.perf_counter() - started - t_games - t_sub
    return {
        "label": run.label,
        "players": players,
        "options": dict(run.options),
        "agents": specs,
        "games": len(returns),
        "batches": batch,
        "seconds": round(time.perf_counter() - started, 2),
        "stage_seconds": {"games": round(t_games, 2), "substitution": round(t_sub, 2),
                          "strength": round(t_strength, 2)},
        "substitution": {
            "games_per_card": {m.subject: m.n for m in sub},
            "stand_in": dict(cfg.stand_in) or {"power": "median printed power"},
        },
        "metrics": [m.to_json() for m in metrics],
        "outliers": [{"metric": m.name, "subject": m.subject, "why": why} for m, why in outliers(metrics)],
        "strength": [m.to_json() for m in strength],
        "strength_notes": notes,
        "distributions": distributions(summaries, returns),
        "fair_share": _fair_share(players),
        # only when it happened (games that hit the action cap: game index, seed and seats,
        # replayable with ``boneyard simulate --seed <run_seed> --log``), so a sound record
        # keeps its bytes
        **({"stuck": {"games": stuck_count, "listed": stuck}} if stuck_count else {}),
    }


def _measure(card_set: CardSet, summaries: list[dict[str, Any]], returns: list[list[float]],
             seats: list[list[str]], players: int) -> list[Metric]:
    """Every metric of a run: the simulator's and engine's, then the ones computed here."""
    metrics = game_metrics(card_set.rules, summaries, returns, seats, players)
    metrics += _extra_metrics(summaries, returns, {m.name for m in metrics})
    metrics += rare_metrics(summaries, returns, {m.name for m in metrics})
    metrics += fallback_metrics(card_set, summaries, returns, {m.name for m in metrics})
    if players > 1:
        seat_rates = [m for m in metrics if m.name.startswith("seat.") and m.name.endswith(".win_rate")]
        if seat_rates and "seat_win_spread" not in {m.name for m in metrics}:
            metrics.append(_spread(seat_rates, len(returns)))
    return metrics


def _spread(seat_rates: Sequence[Metric], n: int) -> Metric:
    """Highest minus lowest seat win rate; the interval from the extreme seats' intervals."""
    hi = max(seat_rates, key=lambda m: m.value)
    lo = min(seat_rates, key=lambda m: m.value)
    value = hi.value - lo.value
    low = max(0.0, value - math.hypot(hi.value - hi.low, lo.high - lo.value))
    high = value + math.hypot(hi.high - hi.value, lo.value - lo.low)
    return Metric("seat_win_spread", value, low, high, n, "seat", None, "%")


def _refine_substitution(card_set: CardSet, run: Run, specs: Sequence[str], seed: int,
                         summaries: Sequence[Mapping[str, Any]], returns: Sequence[Sequence[float]],
                         cfg: PlaytestConfig, sub: list[Metric], progress: Progress | None) -> list[Metric]:
    gated = {m.name for m in gated_metrics(cfg.gates, sub)}
    games = cfg.substitution_games
    while any(too_wide(m, cfg.precision or 1) for m in sub if m.name in gated) and games < cfg.cap:
        games = min(cfg.cap, games * 2)
        bigger = replace(cfg, substitution_games=games)
        new = substitution_metrics(card_set, run, specs, seed, summaries, returns, bigger, progress)
        if [m.n for m in new] == [m.n for m in sub]:
            break  # the main games hold no more games to pair
        sub = new
    return sub


def playtest(card_set: CardSet, cfg: PlaytestConfig, progress: Progress | None = None) -> dict[str, Any]:
    """Run every configured run, judge the gates and return the playtest record."""
    started = time.perf_counter()
    runs = [run_one(card_set, r, cfg, progress) for r in cfg.runs]
    by_label = {r["label"]: [Metric.from_json(m) for m in r["metrics"]] for r in runs}
    results = evaluate(cfg.gates, by_label)
    passed = not any(r.failed for r in results)
    return {
        "format": RECORD_FORMAT,
        "tool": f"boneyard {__version__}",
        "set": card_set.slug,
        "name": card_set.name,
        "rules": card_set.rules,
        "content_hash": card_set.content_hash,
        "switches": dict(card_set.switches),
        "config_hash": config_hash(cfg),
        "profile": cfg.profile,
        "seed": cfg.seed,
        "agents": cfg.agents if isinstance(cfg.agents, str) else list(cfg.agents),
        "games": sum(r["games"] for r in runs),
        "names": dict(spec_of(card_set.rules).units(card_set)),
        "config": cfg.to_json(),
        "runs": runs,
        "gates": [r.to_json() for r in results],
        "passed": passed,
        "gates_passed": sum(1 for r in results if not r.failed),
        "gates_total": len(results),
        "seconds": round(time.perf_counter() - started, 2),
        "status": PASS if passed else "fail",
    }
