"""Per-kind sensitivity (issue 13.7): what one copy more or one fewer of a card kind does.

A game whose spec lists ``variants`` (Grave Feast: every face of the deck, and every human number
of each food, one copy up and one down) has each variant replay the first ``games`` games of one
playtest run with the same seeds (same agent streams and seats; the deal differs only by the card
changed), and each per-game figure (game.yaml ``figures``: summary fields such as rounds, steals,
kills) is compared game by game:

    kind.<key>.<figure>_delta   variant minus the run's own game, mean with its paired interval
    kind.<key>.seat_win_spread  the variant's best seat's win rate minus its worst's

Rares are single prints, so they are judged inside each game instead: ``rare.<id>.paired_delta``
is, over the run's games in which some but not every seat held the rare, the holders' mean result
minus the other seats' in the same game. The gates are game.yaml's (``sensitivity.gates``, in the
run they name or the sensitivity run); being ordinary gates on a run's metrics, a saved record
re-judges them like any other. game.yaml::

    playtest:
      sensitivity:
        run: p4            # which run's games the variants replay
        games: 300         # paired games a variant (0: off); profiles may lower it
        figures: [rounds, steals, kills]
        gates:
          - {metric: "kind.*.rounds_delta", min: -1.5, max: 1.5, why: ...}
"""

from __future__ import annotations

import difflib
import fnmatch
import re
from collections.abc import Mapping, Sequence
from typing import Any

from boneyard.engine.agents import make_agent
from boneyard.engine.cards import CardSet
from boneyard.engine.games import make_game, spec_of
from boneyard.engine.sim import StuckGame, game_seed, map_tasks, play_game, seat_agents
from boneyard.engine.stats import Metric, diff_proportions, mean_metric
from boneyard.pipeline.gates import Gate, parse_gates
from boneyard.pipeline.playtest_config import PlaytestConfig, Run

from boneyard.errors import GateError

DEFAULT_FIGURES = ("turns",)


def section(card_set: CardSet, key: str, profile: str) -> dict[str, Any]:
    """``playtest.<key>`` of game.yaml with ``playtest.profiles.<profile>.<key>`` laid over it."""
    raw = dict((card_set.playtest or {}).get(key) or {})
    if profile != "default":
        over = ((card_set.playtest or {}).get("profiles") or {}).get(profile) or {}
        for k, v in (over.get(key) or {}).items():
            raw[k] = dict(raw.get(k) or {}, **v) if isinstance(v, Mapping) and isinstance(raw.get(k), Mapping) else v
    return raw


def settings(card_set: CardSet, cfg: PlaytestConfig, where: str = "playtest") -> dict[str, Any]:
    """The resolved ``sensitivity`` section: run, games, figures, gates; GateError when bad."""
    where = f"{where}.sensitivity"
    raw = section(card_set, "sensitivity", cfg.profile)
    problems = []
    unknown = set(raw) - {"run", "games", "figures", "gates"}
    if unknown:
        problems.append(f"{where}: unknown key {', '.join(sorted(unknown))} (known: run, games, figures, gates)")
    labels = [r.label for r in cfg.runs]
    run = raw.get("run", labels[0])
    if run not in labels:
        problems.append(f"{where}.run: '{run}' is not a playtest run (runs: {', '.join(labels)})")
    games = raw.get("games", 0)
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        problems.append(f"{where}.games: expected a whole number >= 0 (0: off), got {games!r}")
    figures = raw.get("figures", list(DEFAULT_FIGURES))
    if not (isinstance(figures, list) and figures and all(isinstance(f, str) for f in figures)):
        problems.append(f"{where}.figures: expected a list of per-game summary fields, e.g. [rounds, steals]")
    gates: list[Gate] = []
    try:
        gates = parse_gates(raw.get("gates"), f"{where}.gates")
    except GateError as exc:
        problems.append(str(exc))
    for i, g in enumerate(gates):
        if g.run is not None and g.run not in labels:
            problems.append(f"{where}.gates[{i}]: run '{g.run}' is not a playtest run (runs: {', '.join(labels)})")
    if isinstance(figures, list) and figures and all(isinstance(f, str) for f in figures):
        chosen = next((r for r in cfg.runs if r.label == run), None)
        misspelt = _unknown_figures(card_set, chosen, figures) if chosen is not None else []
        problems += [f"{where}.figures[{j}]: {why}" for j, why in misspelt]
        if not misspelt:  # a misspelt figure: its gates' names follow from it, not said again
            problems += [f"{where}.gates[{i}].metric: {why}" for i, g in enumerate(gates)
                         for why in [metric_problem(g.metric, figures)] if why]
    if problems:
        raise GateError("\n".join(problems))
    return {"run": run, "games": games, "figures": list(figures), "gates": gates}


_NUMBERS: dict[tuple[Any, ...], tuple[str, ...]] = {}
"""The per-game numbers of a set's run (:func:`_summary_numbers`), by content and run."""


def _summary_numbers(card_set: CardSet, run: Run) -> tuple[str, ...]:
    """The numbers one game's summary of ``run`` holds (one seeded random game: the names are
    the game's, whatever happens in it); none for a game without sensitivity variants."""
    if spec_of(card_set.rules).variants is None:
        return ()
    key = (card_set.content_hash, card_set.rules, run.players, tuple(sorted(run.options.items())))
    if key not in _NUMBERS:
        game = make_game(card_set, run.players, **dict(run.options))
        agents = [make_agent("random", game) for _ in range(game.num_players)]
        try:
            state, _ = play_game(game, agents, game_seed(0, 0))
        except StuckGame:
            return ()
        summary = state.summary().to_json()
        _NUMBERS[key] = tuple(sorted(k for k, v in summary.items() if v is None  # (a number
                                     or isinstance(v, (int, float)) and not isinstance(v, bool)))
        # in another game, such as the winner of a game that ended shared)
        while len(_NUMBERS) > 16:
            del _NUMBERS[next(iter(_NUMBERS))]
    return _NUMBERS[key]


def _unknown_figures(card_set: CardSet, run: Run, figures: Sequence[str]) -> list[tuple[int, str]]:
    """(index, why) of each figure that is no per-game number of the run's games: the build
    would stop at its first batch of games with it, after validate said the set was fine."""
    numbers = _summary_numbers(card_set, run)
    if not numbers:
        return []
    out = []
    for j, f in enumerate(figures):
        if f in numbers:
            continue
        near = difflib.get_close_matches(f, list(numbers), n=1, cutoff=0.6)
        out.append((j, f"'{f}' is no per-game number of {spec_of(card_set.rules).title}'s "
                       f"games (" + (f"did you mean '{near[0]}'? " if near else "")
                    + f"the numbers: {', '.join(numbers)})"))
    return out


def metric_patterns(figures: Sequence[str]) -> list[str]:
    """The metrics this module reports, as the patterns a sensitivity gate names."""
    return [*(f"kind.*.{f}_delta" for f in figures), "kind.*.seat_win_spread", "rare.*.paired_delta"]


def metric_problem(metric: str, figures: Sequence[str]) -> str | None:
    """Why a sensitivity gate's ``metric`` can match nothing this module reports (a misspelt
    pattern, a figure not measured), or None. Such a gate would be "missing" only at the end of
    a build, after every variant's games; the names are known now, from the figures alone."""
    known = metric_patterns(figures)
    if any(fnmatch.fnmatchcase(metric, p) or fnmatch.fnmatchcase(p.replace("*", "x"), metric)
           for p in known):  # a name or narrower pattern (kind.vampire.*), or a broader one
        return None
    figure = re.fullmatch(r"kind\.[^.]+\.(\w+)_delta", metric)
    if figure and figure[1] not in figures:
        near = difflib.get_close_matches(figure[1], list(figures), n=1, cutoff=0.6)
        if not near:
            return (f"'{metric}' needs the figure '{figure[1]}', which is not measured "
                    f"(add it to playtest.sensitivity.figures: {', '.join(figures)})")
    near = difflib.get_close_matches(metric, known, n=1, cutoff=0.6)
    return (f"'{metric}' names no sensitivity metric ("
            + (f"did you mean '{near[0]}'? " if near else "")
            + f"the sensitivity metrics are {', '.join(known)})")


def sensitivity_gates(card_set: CardSet, cfg: PlaytestConfig, where: str = "playtest") -> list[Gate]:
    """The section's gates, each in its run (the sensitivity run unless it names one); none when
    the section is off. They are screens: a variant's sample is fixed, so only proof fails one
    and a straddling figure is flagged (the whole-deck gates in ``gates:`` are the sequential
    ones). The paired games a variant plays are part of each gate's why, so a record
    made with other sample sizes is not reused."""
    s = settings(card_set, cfg, where)
    if not s["games"] or spec_of(card_set.rules).variants is None:
        return []
    tail = f" [sensitivity: {s['games']} paired games a variant, figures {', '.join(s['figures'])}]"
    return [Gate(g.metric, g.min, g.max, g.why + tail, g.run or s["run"], screen=True) for g in s["gates"]]


def _figures(summary: Mapping[str, Any], figures: Sequence[str]) -> list[float] | None:
    vals = [summary.get(f) for f in figures]
    if not all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals):
        return None
    return [float(v) for v in vals]  # type: ignore[arg-type]


def _variant_task(args: tuple[Any, ...]) -> tuple[str, list[tuple[int, list[float], list[float]]]]:
    """Games ``0..games-1`` of the run on one variant: (index, figures, returns) per game."""
    key, card_set, players, options, specs, seed, games, figures = args
    game = make_game(card_set, players, **dict(options))
    out = []
    for i in range(games):
        agents = [make_agent(s, game) for s in seat_agents(list(specs), game.num_players, i)]
        try:
            state, _ = play_game(game, agents, game_seed(seed, i))
        except StuckGame:
            continue  # (the pair is dropped: a stuck game has no figures)
        vals = _figures(state.summary().to_json(), figures)
        if vals is not None:
            out.append((i, vals, list(state.returns())))
    return key, out


def seat_spread(name: str, returns: Sequence[Sequence[float]], subject: str | None) -> Metric:
    """Best seat's win rate minus the worst's, Newcombe's interval for that pair, low end >= 0."""
    n = len(returns)
    seats = len(returns[0]) if returns else 0
    wins = [sum(r[k] for r in returns) for k in range(seats)]
    hi = max(range(seats), key=lambda k: wins[k])
    lo = min(range(seats), key=lambda k: wins[k])
    d, dlo, dhi = diff_proportions(wins[hi], n, wins[lo], n)
    return Metric(name, d, min(d, max(0.0, dlo)), max(d, dhi), n, "kind", subject, "%")


def rare_paired(summaries: Sequence[Mapping[str, Any]], returns: Sequence[Sequence[float]]) -> list[Metric]:
    """``rare.<id>.paired_delta`` (module docstring); [] when the summaries name no rare holders."""
    diffs: dict[str, list[float]] = {}
    for s, r in zip(summaries, returns, strict=True):
        holders = s.get("rare_holders")
        if not isinstance(holders, Mapping):
            continue
        for rid, seats in holders.items():
            held = {k for k in seats if 0 <= k < len(r)}
            if 0 < len(held) < len(r):
                mine = sum(r[k] for k in held) / len(held)
                others = sum(r[k] for k in range(len(r)) if k not in held) / (len(r) - len(held))
                diffs.setdefault(str(rid), []).append(mine - others)
    return [mean_metric(f"rare.{rid}.paired_delta", d, group="rare", subject=rid, unit="%")
            for rid, d in sorted(diffs.items())]


def sensitivity_metrics(card_set: CardSet, run: Run, cfg: PlaytestConfig, specs: Sequence[str], seed: int,
                        summaries: Sequence[Mapping[str, Any]], returns: Sequence[Sequence[float]],
                        progress: Any = None) -> list[Metric]:
    """The run's sensitivity metrics: the rares' paired deltas from its own games, and (in the
    sensitivity run) every variant's paired deltas. ``seed``, ``summaries`` and ``returns`` are
    the run's first batch (the games the variants replay)."""
    out = rare_paired(summaries, returns)
    spec = spec_of(card_set.rules)
    s = settings(card_set, cfg)
    if spec.variants is None or not s["games"] or run.label != s["run"] or not summaries:
        return out
    figures = s["figures"]
    games = min(s["games"], len(summaries))
    base: dict[int, list[float]] = {}
    for i, summary in enumerate(summaries[:games]):
        vals = _figures(summary, figures)
        if vals is None:
            known = sorted(k for k, v in summary.items() if isinstance(v, (int, float)) and not isinstance(v, bool))
            raise GateError(f"playtest.sensitivity.figures: a game summary of '{card_set.rules}' has no "
                            f"number {', '.join(f for f in figures if not isinstance(summary.get(f), (int, float)))}"
                            f" (per-game numbers: {', '.join(known)})")
        base[i] = vals
    varied = spec.variants(card_set)
    what = {key: text for key, text, _ in varied}
    tasks = [(key, vs, run.players, dict(run.options), list(specs), seed, games, figures) for key, _, vs in varied]
    results: dict[str, list[tuple[int, list[float], list[float]]]] = {}

    def done(res: tuple[str, list[tuple[int, list[float], list[float]]]]) -> None:
        results[res[0]] = res[1]
        if progress:
            progress("sensitivity", len(results), len(tasks))

    map_tasks(_variant_task, tasks, cfg.jobs, cfg.scheduler, done)
    for key, _text, _vs in varied:
        rows = [row for row in results.get(key, []) if row[0] in base]
        subject = f"{key}: {what[key]}"
        for j, f in enumerate(figures):
            out.append(mean_metric(f"kind.{key}.{f}_delta", [v[j] - base[i][j] for i, v, _ in rows],
                                   group="kind", subject=subject, unit=f))
        if rows:
            out.append(seat_spread(f"kind.{key}.seat_win_spread", [r for _, _, r in rows], subject))
    return out
