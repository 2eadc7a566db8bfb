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

import contextlib
import hashlib
import json
import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from boneyard.engine.agents import parse_spec
from boneyard.engine.agents.mcts import DEFAULT_BUDGET
from boneyard.engine.cards import CardSet
from boneyard.engine.games import make_game, spec_of
from boneyard.engine.sim import (
    STUCK_LISTED,
    BrokenInvariant,
    game_metrics,
    hash_seed,
    simulate,
)
from boneyard.engine.sim import default_jobs as sim_default_jobs
from boneyard.engine.stats import (
    Z95,
    Metric,
    diff_proportions,
    mean_metric,
    proportion_metric,
    shifted,
)
from boneyard.engine.stats import lead_story as stats_lead_story
from boneyard.pipeline.gates import (
    FAIL,
    PASS,
    UNDECIDED,
    Gate,
    evaluate,
    failed,
    gated_metrics,
    open_metrics,
    outliers,
    stuck_metric,
)
from boneyard.pipeline.lastgames import Played
from boneyard.pipeline.lastpass import Base
from boneyard.pipeline.paired import (
    LAST_PASS_KIND,
    UNSETTLED_KIND,
    Pairing,
    change_of,
    jackknife_change,
    run_pairings,
)
from boneyard.pipeline.paired import (
    _returns_for as _returns_for,  # re-exported (bench/agreement.py)
)
from boneyard.pipeline.paired import dealt_by_seat as dealt_by_seat
from boneyard.pipeline.playtest_config import PlaytestConfig, Run
from boneyard.pipeline.sensitivity import sensitivity_metrics

from boneyard import __version__
from boneyard.errors import GateError, RulesError

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
    return _hash(cfg.to_json())


def declared_hash(cfg: PlaytestConfig) -> str:
    """Hash of the settings as game.yaml and the options declare them, without the gates derived
    from the content (coverage, sensitivity): what a last pass must share to be a base. An edit
    that adds a primitive or drops a card kind changes those gates, and it is exactly such an
    edit that must be judged against its last pass (the changed-card gates), not from scratch."""
    data = cfg.to_json()
    if cfg.derived_gates:
        data["gates"] = data["gates"][:-cfg.derived_gates]
    return _hash(data)


def _hash(data: Mapping[str, Any]) -> str:
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"))
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
    logs: list[Any] = [s.get("scores_per_turn") for s in summaries]
    if logs and all(isinstance(x, list) and x for x in logs):
        story = [lead_story(x, r) for x, r in zip(logs, returns, strict=True)]
        summaries = [dict(s, lead_changes=c, decided_turn=d) for s, (c, d) in zip(summaries, story, strict=True)]
    for key, name, unit in (
        ("lead_changes", "lead_changes_mean", "changes"),
        ("decided_turn", "decided_turn_mean", "turns"),
        ("decided_round", "decided_round_mean", "rounds"),
    ):
        vals: list[Any] = [s.get(key) for s in summaries if s.get(key) is not None]  # draws: no turn
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
    firsts: list[Any] = [s.get("first_priority") for s in summaries]
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


def fight_rates(card_set: CardSet, metrics: Sequence[Metric], player_games: int) -> list[Metric]:
    """``card.<id>.fight_rate``: fights the character was fielded in per player-game (from the
    engine's ``fights_won_rate``, whose ``n`` counts its fights; 0 when it never fought). What a
    card does for its holder: a card the skilled player only ever dumps never fights.

    Its interval is the engine's per-player-game one where the game reports that count
    (``card.<id>.fights_fielded``): a character's fights come in bunches (none where it was not
    dealt, two or three where it was), so a Poisson interval on the count is too narrow.
    Otherwise the Poisson interval stands."""
    fights = {m.subject: m.n for m in metrics if m.name.endswith(".fights_won_rate") and m.subject}
    if not fights or player_games <= 0:
        return []
    have = {m.name for m in metrics}
    fielded = {m.subject: m for m in metrics if m.name.endswith(".fights_fielded") and m.subject
               and m.n == player_games and not math.isnan(m.low)}
    out = []
    for cid, _ in spec_of(card_set.rules).units(card_set):
        name = f"card.{cid}.fight_rate"
        if name in have:
            continue
        f = fights.get(cid, 0)
        rate = f / player_games
        half = Z95 * math.sqrt(max(f, 1)) / player_games  # Poisson count: sd sqrt(f)
        low, high = max(0.0, rate - half), rate + half
        m = fielded.get(cid)
        if m is not None and f > 0 and math.isclose(m.value, rate, rel_tol=1e-9):
            low, high = max(0.0, m.low), m.high
        out.append(Metric(name, rate, low, high, player_games, "card", cid, "fights"))
    return out


def rare_metrics(summaries: Sequence[Mapping[str, Any]], returns: Sequence[Sequence[float]],
                 have: set[str]) -> list[Metric]:
    """``rare.<id>.win_delta``: win share of players who held a rare minus those who did not
    (observational; Grave Feast has no neutral stand-in for a rare, see docs/playtest.md)."""
    holders: list[Any] = [s.get("rare_holders") for s in summaries]
    if not holders or not all(isinstance(h, Mapping) for h in holders):
        return []
    names = sorted({k for h in holders for k in h})
    out = []
    for rid in [*names, "any"]:
        held: list[float] = [0.0, 0.0]  # (wins, player-games)
        other: list[float] = [0.0, 0.0]
        for h, r in zip(holders, returns, strict=True):
            seats = {k for key, ks in h.items() if rid in (key, "any") for k in ks}
            for k, share in enumerate(r):
                acc = held if k in seats else other
                acc[0] += share
                acc[1] += 1
        name = f"rare.{rid}.win_delta"
        if name not in have:
            d, lo, hi = diff_proportions(held[0], int(held[1]), other[0], int(other[1]))
            out.append(Metric(name, d, lo, hi, int(held[1]), "rare", rid, "%"))
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
    scores: list[Any] = [s.get("scores") for s in summaries]
    if scores and all(isinstance(sc, list) and sc for sc in scores):
        win: list[float] = []
        lose: list[float] = []
        margin: list[float] = []
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


# --- paired-seed substitution (pipeline/paired.py) -------------------------------------------


def card_pairings(card_set: CardSet, cfg: PlaytestConfig, base: Base | None,
                  focus: Sequence[str]) -> tuple[list[Pairing], list[Metric], int]:
    """What each character's ``sub_delta`` comes from in this build: (pairings to sample,
    metrics carried over from the last pass, size of the family the gate corrects for).

    From scratch every character is paired with the stand-in. Against a last pass, an unchanged
    character keeps its last value (nothing it touches changed); a changed one is paired with
    its last-pass version (value = last value + the paired difference, both errors counted) when
    the last pass measured it on more deals than a first look plays, else with the stand-in like
    a new one or one named with ``--focus``: its last value would bring an error no narrower
    than a fresh first look's, and the change's on top (Pale Vampire 7 -> 6 took 1,600 paired
    games to settle against a last pass of 200, where 200 with the stand-in settle it). Changed
    and focused characters are pre-declared hypotheses, judged at the full alpha."""
    spec = spec_of(card_set.rules)
    units = [cid for cid, _ in spec.units(card_set)]
    if not units or spec.stand_in is None or cfg.substitution_games <= 0:
        return [], [], 0
    unknown = (set(cfg.substitution_cards or ()) | set(focus)) - set(units)
    if unknown:
        raise GateError(f"no character {', '.join(sorted(unknown))} in '{card_set.name}' "
                        "(playtest.substitution.cards or --focus)")
    chosen = [cid for cid in units if cfg.substitution_cards is None or cid in cfg.substitution_cards]
    first_look = cfg.sub_looks()[0]
    pairings: list[Pairing] = []
    carried: list[Metric] = []
    for cid in chosen:
        name = f"card.{cid}.sub_delta"
        declared = cid in focus or (base is not None and cid in base.changed)
        old = base.metric(name) if base is not None else None
        if base is not None and cid in base.changed and old is not None and not math.isnan(old.value) \
                and spec.swap_unit is not None and cid in base.units and old.n > first_look:
            pairings.append(Pairing(cid, name, spec.swap_unit(card_set, cid, base.card_set),
                                    anchor=old, declared=True, kind=LAST_PASS_KIND))
        elif base is None or declared or old is None:
            pairings.append(Pairing(cid, name, spec.stand_in(card_set, cid, cfg.stand_in),
                                    declared=declared))
        else:
            carried.append(old)
    family = sum(1 for p in pairings if not p.declared) + len(carried)
    return pairings, carried, family


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


@contextlib.contextmanager
def _said_where(where: str) -> Iterator[None]:
    """A game the rules cannot play on, said with the set and run it stopped in (the engine
    names the game and its seed, not the set)."""
    try:
        yield
    except BrokenInvariant:
        raise
    except RulesError as exc:
        raise RulesError(f"{where}: {exc}") from exc


def run_one(card_set: CardSet, run: Run, cfg: PlaytestConfig, progress: Progress | None = None,
            base: Base | None = None, focus: Sequence[str] = (),
            refused_by: str | None = None, played: Played | None = None) -> dict[str, Any]:
    """Simulate one run in looks until every gated metric is decided (or the cap), then the
    paired card comparisons, each sequential too. Against a last pass (``base``) the same games
    are played on the old content (or taken from the ones it kept) and every main metric is the
    last pass's value plus the paired change. ``played`` collects this content's main games.

    ``refused_by``: the label of an earlier run whose gate already failed. The build is refused
    whatever this run shows, so it plays its first look only (its paired comparisons too, as a
    run whose own main games failed a gate does): its figures are in the report, and a designer
    waits for the proof, not for the rest of the sampling."""
    game = make_game(card_set, run.players, **dict(run.options))
    players = game.num_players
    specs = cfg.agent_specs(players) if not isinstance(cfg.agents, str) else [cfg.agents]
    seeds0 = batch_seed(cfg.seed, run.label, 0)
    change = base is not None
    sizes = cfg.main_looks(change)
    looks = cfg.looks()
    old_metrics = base.run_metrics(run.label) if base is not None else {}
    summaries: list[dict[str, Any]] = []
    returns: list[list[float]] = []
    seats: list[list[str]] = []
    old_games: tuple[list[dict[str, Any]], list[list[float]], list[list[str]]] = ([], [], [])
    paired_changes: dict[str, tuple[float, float, float]] = {}  # the main figures' paired changes
    batch, started = 0, time.perf_counter()
    stuck: list[dict[str, Any]] = []
    stuck_count = 0
    run_gates = [g for g in cfg.gates if g.run in (None, run.label)]
    declared = _declared(card_set, base, focus)
    metrics: list[Metric] = []
    keys: list[tuple[int, int]] = []  # every main game by (run seed, index), in play order
    known: dict[tuple[int, int], list[float]] = {}  # and its outcome
    pairings, carried, family = card_pairings(card_set, cfg, base, focus)
    sub: list[Metric] = []
    paired_done = False
    refused = False
    t_sub = 0.0
    while batch < len(sizes):
        n = sizes[batch] - len(returns)
        label = f"{run.label}: games"

        def prog(done: int, total: int, label: str = label, base_n: int = len(returns)) -> None:
            if progress:
                progress(label, base_n + done, max(sizes[0], base_n + total))

        bseed = batch_seed(cfg.seed, run.label, batch)
        res = simulate(card_set, specs, n, bseed, jobs=cfg.jobs,
                       num_players=run.players, options=run.options, progress=prog,
                       keep_games=True, scheduler=cfg.scheduler,
                       check=True if cfg.profile == CHECKED_PROFILE else None)
        stuck_count += res.stuck_count
        stuck += [dict(s, batch=batch, run_seed=res.seed)  # simulate --seed run_seed replays it
                  for s in res.stuck][:max(0, STUCK_LISTED - len(stuck))]
        summaries += res.summaries
        returns += res.returns
        seats += res.seats
        if played is not None and not res.stuck_count and not res.partial:
            played.add(run.label, bseed, specs, run.players, run.options,
                       (res.summaries, res.returns, res.seats))
        if base is not None:  # the old content's side: the last pass's own games, if it kept them
            was = base.games.take(run.label, bseed, specs, run.players, run.options, n) \
                if base.games else None
            if was is None:
                old = simulate(base.card_set, specs, n, bseed, jobs=cfg.jobs, num_players=run.players,
                               options=run.options, keep_games=True, scheduler=cfg.scheduler)
                was = (old.summaries, old.returns, old.seats)
            old_games[0].extend(was[0])
            old_games[1].extend(was[1])
            old_games[2].extend(was[2])
        if not res.stuck_count:  # (a stuck game has no outcome: the indices would not line up)
            keys += [(bseed, i) for i in range(len(res.returns))]
            known.update(zip(keys[len(known):], res.returns, strict=True))
        metrics = _measure(card_set, summaries, returns, seats, players)
        if base is not None and len(old_games[1]) == len(returns):
            metrics = _anchored(card_set, base, metrics, old_metrics, (summaries, returns, seats),
                                old_games, players, changes=paired_changes)
        if stuck_count:
            metrics.append(stuck_metric(stuck_count, len(returns) + stuck_count))
        batch += 1
        if base is not None and not paired_done:
            # change-aware: the changed cards first, so a refused card ends the sampling early
            t0 = time.perf_counter()
            sub = _pair(card_set, run, cfg, pairings, specs, keys, known, seeds0, run_gates, looks,
                        family, progress, first_only=refused_by is not None)
            paired_done, t_sub = True, time.perf_counter() - t0
        verdicts = evaluate(run_gates, {run.label: [*metrics, *sub, *carried]}, alpha=cfg.alpha,
                            looks=looks, declared=declared)
        if any(r.status == FAIL and not r.gate.count for r in verdicts):
            refused = True
            break  # the build is refused whatever more games say: stop sampling
        if refused_by is not None:
            break  # (see the docstring)
        undecided = open_metrics(run_gates, metrics, alpha=cfg.alpha, looks=looks, declared=declared,
                                 run=run.label)
        wide = [m for m in gated_metrics(run_gates, metrics) if too_wide(m, cfg.precision)] \
            if cfg.precision is not None else []
        if not undecided and not wide:
            break
    t_games = time.perf_counter() - started - t_sub
    if not paired_done:
        t0 = time.perf_counter()
        sub = _pair(card_set, run, cfg, pairings, specs, keys, known, seeds0, run_gates, looks, family,
                    progress, first_only=refused or refused_by is not None)
        t_sub = time.perf_counter() - t0
    sub_metrics = {m.name: m for m in [*carried, *sub]}
    order = [f"card.{cid}.sub_delta" for cid, _ in spec_of(card_set.rules).units(card_set)]
    metrics += [sub_metrics[n] for n in order if n in sub_metrics]
    # issue 13.7: per-kind sensitivity and the rares' paired deltas (pipeline/sensitivity.py), on
    # the first look's games (one run seed, so a variant replays each of them)
    t0 = time.perf_counter()
    first = sizes[0]
    metrics += sensitivity_metrics(card_set, run, cfg, specs, seeds0, summaries[:first], returns[:first], progress)
    t_sub += time.perf_counter() - t0
    if base is not None and base.same_code:
        strength, notes = base.strength(run.label)
    else:
        strength, notes = strength_metrics(card_set, run, specs, cfg.seed, cfg.strength_games, cfg.jobs,
                                           cfg.strength_rivals, cfg.strength_rival_games, cfg.scheduler)
    t_strength = time.perf_counter() - started - t_games - t_sub
    for p in pairings:  # a changed card's sub_delta: its change against its last-pass self
        found = change_of(p)
        if found is not None:
            paired_changes[p.metric] = found
    return {
        "label": run.label,
        "players": players,
        "options": dict(run.options),
        "agents": specs,
        "games": len(returns),
        "batches": batch,
        "looks": {"planned": looks, "main": batch, "main_games": sizes},
        "seconds": round(time.perf_counter() - started, 2),
        **({"refused": True} if refused else {}),
        **({"first_look_only": f"the build was already refused by run {refused_by}"}
           if refused_by is not None and not refused else {}),
        "stage_seconds": {"games": round(t_games, 2), "substitution": round(t_sub, 2),
                          "strength": round(t_strength, 2)},
        "substitution": {
            "games_per_card": {m.subject: m.n for m in sub_metrics.values()},
            "stand_in": dict(cfg.stand_in) or {"power": "median printed power"},
            "against": {p.cid: p.kind for p in pairings},
            "looks": {p.cid: p.looks for p in pairings},
            "carried": sorted(m.subject or "" for m in carried),
        },
        "metrics": [m.to_json() for m in metrics],
        "outliers": [{"metric": m.name, "subject": m.subject, "why": why} for m, why in outliers(metrics)],
        "strength": [m.to_json() for m in strength],
        "strength_notes": notes,
        "distributions": distributions(summaries, returns),
        "fair_share": _fair_share(players),
        **({"last_pass_values": {**{m.name: old_metrics[m.name].value for m in metrics
                                    if m.name in old_metrics and not m.name.endswith(".sub_delta")},
                                 **{p.metric: p.anchor.value for p in pairings if p.anchor is not None}}}
           if base is not None else {}),
        **({"paired_changes": {name: list(c) for name, c in sorted(paired_changes.items())}}
           if base is not None else {}),
        **({"paired_with_last_pass": sorted(
            [m.name for m in metrics if m.name in old_metrics and m.name != "games"
             and not m.name.endswith(".sub_delta")]
            + [p.metric for p in pairings if p.kind == LAST_PASS_KIND] + [m.name for m in carried])}
           if base is not None else {}),
        # only when it happened (games that hit the action cap: game index, seed and seats,
        # replayable with ``boneyard simulate --seed <run_seed> --log``), so a sound record
        # keeps its bytes
        **({"stuck": {"games": stuck_count, "listed": stuck}} if stuck_count else {}),
    }


def _pair(card_set: CardSet, run: Run, cfg: PlaytestConfig, pairings: Sequence[Pairing],
          specs: Sequence[str], keys: Sequence[tuple[int, int]], known: Mapping[tuple[int, int], Any],
          seed0: int, gates: Sequence[Gate], looks: int, family: int,
          progress: Progress | None, first_only: bool = False) -> list[Metric]:
    """Every card pairing of a run, sampled sequentially (pipeline/paired.py); ``first_only``:
    the first look only (the build is refused already).

    A changed card paired with its last-pass self and still undecided at the cap is measured
    again against the stand-in, and that verdict stands: its value is the last pass's plus the
    change, and the last pass's own error, which no number of paired games narrows, can keep a
    harmless edit of a card near its bound open for ever (Zombie Giant -4 -> -3: +11.7, +6.8 ..
    +16.7, against +18). Its ``kind`` then says so; its change is still the paired one."""
    sizes = cfg.sub_looks()

    def pair(these: Sequence[Pairing]) -> list[Metric]:
        return run_pairings(card_set, these, players=run.players, options=run.options, specs=specs,
                            keys=keys, extra_seed=hash_seed("paired", seed0, run.label), known=known,
                            sizes=sizes[:1] if first_only else sizes, gates=gates, alpha=cfg.alpha,
                            looks=looks, family=family, jobs=cfg.jobs, scheduler=cfg.scheduler,
                            progress=progress)

    measured = pair(pairings)
    stand_in = spec_of(card_set.rules).stand_in
    open_ = [p for p in pairings if p.kind == LAST_PASS_KIND and p.status == UNDECIDED]
    if first_only or stand_in is None or not open_:
        return measured
    again = [Pairing(p.cid, p.metric, stand_in(card_set, p.cid, cfg.stand_in), declared=True)
             for p in open_]
    fresh = {p.metric: m for p, m in zip(again, pair(again), strict=True)}
    for p in open_:
        p.kind = UNSETTLED_KIND
    return [fresh.get(m.name, m) for m in measured]


def _declared(card_set: CardSet, base: Base | None, focus: Sequence[str]) -> set[str]:
    """Metric names that are pre-declared hypotheses (changed and focused cards), all kinds."""
    cids = set(focus) | (set(base.changed) if base is not None else set())
    return {f"card.{cid}.{kind}" for cid in cids for kind in CARD_KINDS}


CARD_KINDS = ("sub_delta", "win_delta", "play_rate", "fights_won_rate", "win_rate_played",
              "win_rate_not_played", "fight_rate", "fight_rate_kept", "fight_rate_gain",
              "win_delta_gain", "fights_won_gain")


def _anchored(card_set: CardSet, base: Base, metrics: list[Metric], old: Mapping[str, Metric],
              new_games: tuple[list[dict[str, Any]], list[list[float]], list[list[str]]],
              old_games: tuple[list[dict[str, Any]], list[list[float]], list[list[str]]],
              players: int, changes: dict[str, tuple[float, float, float]] | None = None) -> list[Metric]:
    """Each main metric as the last pass's value plus its paired change on these games, the two
    errors added (``stats.shifted``); a metric the last pass did not have keeps its own
    measurement.

    Exact counts (coverage's ``fired.*``) keep their own measurement on these games: a count
    over this run's games, which an old count over another number of games plus a change would
    misstate, even below 0. Every other figure takes the narrower of its two intervals, the
    anchored one or its own on the new games: the anchored one is the narrower where the last
    pass played more games than this run and the new games follow the old ones (a small edit
    keeps the last pass's precision after a first look); an
    edit that changes most games (a card whose role changed, e.g. one now only dumped; a deck
    edit, which changes every deal) makes the paired change the noisier way to the new value
    (one more zombie in Grave Feast: +-5.4 points for a feast rate anchored, +-2.5 measured)."""
    names = [m.name for m in metrics if m.name in old and not math.isnan(old[m.name].value)
             and m.name != "games" and m.group != "coverage"]

    def measure(idx: Sequence[int]) -> dict[str, Metric]:
        keep = list(idx)
        new = _measure(card_set, [new_games[0][i] for i in keep], [new_games[1][i] for i in keep],
                       [new_games[2][i] for i in keep], players)
        was = {m.name: m for m in _measure(base.card_set, [old_games[0][i] for i in keep],
                                           [old_games[1][i] for i in keep],
                                           [old_games[2][i] for i in keep], players)}
        return {m.name: replace(m, value=m.value - was[m.name].value) for m in new if m.name in was}

    found = jackknife_change(measure, len(new_games[1]), names)
    if changes is not None:  # (the record keeps each paired change: ``boneyard diff`` lists them)
        changes.clear()
        changes.update(found)
    out = _gained(base, metrics, found)
    for m in metrics:
        if m.name in found:
            value, low, high = shifted(old[m.name], *found[m.name])
            out.append(m if m.high - m.low <= high - low else replace(m, value=value, low=low, high=high))
        else:
            out.append(m)
    return out + _kept(base, metrics, old)


GAINS = (("fight_rate", "fight_rate_gain", "fights"), ("win_delta", "win_delta_gain", "%"),
         ("fights_won_rate", "fights_won_gain", "%"))
"""(figure, its gain's name, unit): the changed cards' paired changes that ``_gained`` adds."""


def _gained(base: Base, metrics: Sequence[Metric],
            changes: Mapping[str, tuple[float, float, float]]) -> list[Metric]:
    """``card.<id>.fight_rate_gain``, ``card.<id>.win_delta_gain`` and ``card.<id>.fights_won_gain``
    for each changed card: its fights fielded per player-game, its ``win_delta`` and the share of
    its fights it wins, now minus at the last pass, the paired change on the same deals (jackknife
    interval).

    Why: an edit that makes a fighter win its slot every turn (a 3 that fights at 11, or at 15)
    shows in the games first as play, not as wins: the skilled agent fields it twice as often,
    yet in a game of 21 fights a player one fighter adds only a few points of win rate, inside
    what ``sub_delta`` can resolve. And a card the agent plays no better than a stand-in (Hoard
    at 8 VP: ``sub_delta`` about 0) can still lift its players' wins where it is played far
    above its old self, while its ``win_delta`` stays inside the set-wide backstop, which is wide
    because that figure is biased. Against its own old self, on the same deals, the bias cancels
    and the jump stands out. The other way, an edit that turns a fighter against itself (Jinx
    setting its own power to 0) leaves it fielded a third as often, since every card played as a
    spirit enters the line, so its use does not fall below ``fight_rate_kept``'s bound; but it
    now wins 6% of its fights where it won 63%."""
    n = {m.name: m.n for m in metrics}
    out = []
    for cid in sorted(base.changed):
        for figure, gain, unit in GAINS:
            name = f"card.{cid}.{figure}"
            if name in changes:
                d, lo, hi = changes[name]
                out.append(Metric(f"card.{cid}.{gain}", d, lo, hi, n.get(name, 0), "card", cid, unit))
    return out


def _kept(base: Base, metrics: Sequence[Metric], old: Mapping[str, Metric]) -> list[Metric]:
    """``card.<id>.fight_rate_kept`` for each changed card: its fights fielded per player-game now
    over the last pass's, the interval from both intervals (widest ratio, both ways).

    Why: an edit that turns a card into one its holders only dump (fielded, say, 4 times in 100
    where it was 96) costs the holder nothing, so no win figure sees it, and the set-wide fight
    rate cannot tell it from the least-fielded sound card; against its own old self it stands out.
    """
    now = {m.name: m for m in metrics}
    out = []
    for cid in sorted(base.changed):
        name = f"card.{cid}.fight_rate"
        m, was = now.get(name), old.get(name)
        if m is None or was is None or not was.low > 0 or math.isnan(m.value):
            continue
        out.append(Metric(f"card.{cid}.fight_rate_kept", m.value / was.value, max(0.0, m.low) / was.high,
                          m.high / was.low, m.n, "card", cid, "%"))
    return out


def _measure(card_set: CardSet, summaries: list[dict[str, Any]], returns: list[list[float]],
             seats: list[list[str]], players: int) -> list[Metric]:
    """Every metric of a run: the simulator's and engine's, then the ones computed here."""
    metrics = game_metrics(card_set.rules, summaries, returns, seats, players)
    metrics += _extra_metrics(summaries, returns, {m.name for m in metrics})
    metrics += rare_metrics(summaries, returns, {m.name for m in metrics})
    metrics += fallback_metrics(card_set, summaries, returns, {m.name for m in metrics})
    metrics += fight_rates(card_set, metrics, players * len(returns))
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


def _from_json(m: Mapping[str, Any]) -> Metric:
    """A metric as a record stores it (an unmeasured value is null there)."""
    return Metric.from_json({k: (math.nan if k in ("value", "low", "high") and v is None else v)
                             for k, v in m.items()})


ExtraCheck = Callable[[CardSet, PlaytestConfig, Sequence[Mapping[str, Any]]],
                     Sequence[tuple[str, Sequence[Metric], Sequence[Gate]]]]
"""A check another module adds to every playtest (coverage, sensitivity): given the set, the
settings and the runs measured so far, it returns (run label, metrics, gates) to merge in; the
metrics join that run's metrics and the gates are judged with the others (and again, from the
record, whenever it is read: record["extra_gates"])."""

EXTRA_CHECKS: list[ExtraCheck] = []


def register_check(check: ExtraCheck) -> ExtraCheck:
    """Add ``check`` to every playtest (usable as a decorator); adding it twice is a no-op."""
    if check not in EXTRA_CHECKS:
        EXTRA_CHECKS.append(check)
    return check


def playtest(card_set: CardSet, cfg: PlaytestConfig, progress: Progress | None = None, *,
             base: Base | None = None, focus: Sequence[str] = (),
             accept_undecided: bool = False, played: Played | None = None) -> dict[str, Any]:
    """Run every configured run, judge the gates and return the playtest record.

    ``base``: the last passing record to judge this content against (change-aware build);
    ``focus``: characters to test as pre-declared hypotheses; ``accept_undecided``: metrics
    still open at the cap do not fail the build (the record says so); ``played``: collects the
    main games played, for the last pass to keep (pipeline/lastgames.py)."""
    started = time.perf_counter()
    if base is not None and base.same_play and not focus:
        # the engine sees exactly the last pass's content and code: every game would replay the
        # same, so its measurements stand (only what is printed changed)
        # (less what compared that pass with the one before it: nothing moved since)
        runs = [dict({k: v for k, v in r.items()
                      if k not in ("last_pass_values", "paired_with_last_pass", "paired_changes")},
                     seconds=0.0, same_games_as_last_pass=True) for r in base.record["runs"]]
    else:
        runs = []
        for planned in cfg.runs:
            by = next((x["label"] for x in runs if x.get("refused")), None)
            with _said_where(f"{card_set.name}, run '{planned.label}'"):
                runs.append(run_one(card_set, planned, cfg, progress, base=base, focus=focus,
                                    refused_by=by, played=played))
    extra: list[Gate] = []
    for check in EXTRA_CHECKS:
        with _said_where(card_set.name):
            found = check(card_set, cfg, runs)
        for label, metrics, gates in found:
            for r in runs:
                if r["label"] == label:
                    r["metrics"] = r["metrics"] + [m.to_json() for m in metrics]
            extra += gates
    by_label = {r["label"]: [_from_json(m) for m in r["metrics"]] for r in runs}
    declared = sorted(_declared(card_set, base, focus))
    results = evaluate([*cfg.gates, *extra], by_label, alpha=cfg.alpha, looks=cfg.looks(),
                       declared=declared)
    bad = failed(results, accept_undecided)
    passed = not bad
    return {
        "format": RECORD_FORMAT,
        "tool": f"boneyard {__version__}",
        "set": card_set.slug,
        "name": card_set.name,
        "rules": card_set.rules,
        "content_hash": card_set.content_hash,
        "switches": dict(card_set.switches),
        "config_hash": config_hash(cfg),
        "declared_hash": declared_hash(cfg),
        "profile": cfg.profile,
        "seed": cfg.seed,
        "agents": cfg.agents if isinstance(cfg.agents, str) else list(cfg.agents),
        "games": sum(r["games"] for r in runs),
        "names": dict(spec_of(card_set.rules).units(card_set)),
        "config": cfg.to_json(),
        "runs": runs,
        "gates": [r.to_json() for r in results],
        **({"extra_gates": [g.to_json() for g in extra]} if extra else {}),
        "declared": declared,
        "accept_undecided": accept_undecided,
        "change": base.describe() if base is not None else None,
        "undecided": sum(1 for r in results if r.status == UNDECIDED),
        "passed": passed,
        "gates_passed": len(results) - len(bad),
        "gates_total": len(results),
        "seconds": round(time.perf_counter() - started, 2),
        "status": PASS if passed else "fail",
    }
