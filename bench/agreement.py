"""Do two agents agree on the cards? Spearman rank correlation of per-character verdicts.

A build's verdicts (``card.<id>.win_delta``: games where a character was played against games
where it was not; ``card.<id>.sub_delta``: a seat's result minus its result on the same deal with
the character replaced by the neutral stand-in) should describe the cards, not the bot. This
plays the bundled Day of the Dead set with agent A in every seat and with agent B in every seat,
computes both verdicts per character for each, and prints their Spearman correlation with a 95%
interval (Fisher z, n = characters), plus each agent's self-agreement (split-half: even games
against odd games) as the ceiling the sample allows.

    nice .venv/bin/python bench/agreement.py --a gate --b mcts:30 --games 3000 --seed-b 10 --sub-games 60 --jobs 2

``--seed-b`` gives B other deals than A, so the two samples share no deal's luck (with the same
deals, a character dealt into strong hands by chance looks strong to both). Each verdict is also
shown corrected for attenuation: the observed agreement divided by the square root of the two
samples' reliabilities (split halves, Spearman-Brown), an estimate of what two noiseless
rankings would share.

The reference should be mcts at a budget where doubling no longer moves the ranking: compare
``--a mcts:N --b mcts:2N``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import shlex
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from boneyard.engine.games import make_game, spec_of
from boneyard.engine.sim import game_seed, map_tasks, simulate
from boneyard.pipeline import reference
from boneyard.pipeline.load import load_set
from boneyard.pipeline.paired import _task, dealt_by_seat

from boneyard.files import write_atomic


def ranks(xs: Sequence[float]) -> list[float]:
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    out = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float]:
    """rho with a 95% interval (Fisher z, standard error 1.03 / sqrt(n - 3))."""
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb, strict=True))
    va = math.sqrt(sum((x - ma) ** 2 for x in ra))
    vb = math.sqrt(sum((y - mb) ** 2 for y in rb))
    rho = cov / (va * vb) if va and vb else 0.0
    n = len(a)
    if n <= 3 or abs(rho) >= 1:
        return rho, rho, rho
    z = math.atanh(rho)
    half = 1.96 * 1.03 / math.sqrt(n - 3)
    return rho, math.tanh(z - half), math.tanh(z + half)


def tally(card_set: Any, spec: str, games: int, seed: int, jobs: int,
          cache: Path | None = None) -> dict[str, Any]:
    """Per character and half (even, odd games): [result sum, games] of the seats that played it
    and of those that did not; and every game's returns. Kept in ``cache`` (JSON) when given, so
    that a large sample is the sum of short runs (one seed each)."""
    path = cache / f"{spec.replace(':', '_')}-seed{seed}-{games}.json" if cache else None
    if path is not None and path.exists():
        return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]
    res = simulate(card_set, [spec], games, seed, jobs=jobs, keep_games=True)
    units = [cid for cid, _ in spec_of(card_set.rules).units(card_set)]
    counts = {cid: [[0.0, 0, 0.0, 0], [0.0, 0, 0.0, 0]] for cid in units}
    for i, (summary, ret) in enumerate(zip(res.summaries, res.returns, strict=True)):
        for seat, played in enumerate(_played(summary, ret)):
            for cid in units:
                c = counts[cid][i % 2]
                j = 0 if cid in played else 2
                c[j] += ret[seat]
                c[j + 1] += 1
    out = {"counts": counts, "returns": [list(r) for r in res.returns]}
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, json.dumps(out))
    return out


def win_deltas(tallies: list[dict[str, Any]]) -> tuple[dict[str, float], dict[int, dict[str, float]]]:
    """Per character: win_delta (mean result of the seats that played it minus the others')
    over all the tallies, and over their even / odd games (split half)."""
    units = list(tallies[0]["counts"])
    full: dict[str, float] = {}
    halves: dict[int, dict[str, float]] = {0: {}, 1: {}}
    for cid in units:
        tot = [0.0, 0, 0.0, 0]
        for h in (0, 1):
            c = [sum(t["counts"][cid][h][j] for t in tallies) for j in range(4)]
            halves[h][cid] = c[0] / c[1] - c[2] / c[3] if c[1] and c[3] else 0.0
            tot = [x + y for x, y in zip(tot, c, strict=True)]
        full[cid] = tot[0] / tot[1] - tot[2] / tot[3] if tot[1] and tot[3] else 0.0
    return full, halves


def _played(summary: dict[str, Any], ret: list[float]) -> list[set[str]]:
    from boneyard.pipeline.playtest import played_by_seat

    seats = played_by_seat(summary, len(ret))
    return seats or [set() for _ in ret]


SCAN = 12  # deals looked at per wanted paired deal of a character (as the playtest does)
CHUNK = 40  # games per worker task


def sub_deltas(card_set: Any, spec: str, known: list[list[float]], games: int, seed: int,
               jobs: int = 1, cache: Path | None = None) -> dict[str, list[float]]:
    """Per character: over its first ``games`` deals (in deal order) where exactly one seat was
    dealt it, that seat's result minus its result on the same deal with the stand-in, as the
    playtest computes ``sub_delta``. ``known`` holds the set's own results of the first games
    (the win_delta run); deals past them are played too. Lists, so a split half is possible.
    With ``cache``, a shorter run of the same agent and seed gives the first deals (a longer
    run's deals begin with a shorter one's), so a sample grows without playing them again."""
    path = cache / f"{spec.replace(':', '_')}-seed{seed}-sub{games}.json" if cache else None
    if path is not None and path.exists():
        return json.loads(path.read_text(encoding="utf-8"))  # type: ignore[no-any-return]
    # a shorter run of the same agent and seed: its deals are the first of these, kept as played
    shorter = [] if cache is None else sorted(
        (int(q.stem.rsplit("sub", 1)[1]), q) for q in cache.glob(f"{spec.replace(':', '_')}-seed{seed}-sub*.json")
        if q.stem.rsplit("sub", 1)[1].isdigit() and int(q.stem.rsplit("sub", 1)[1]) < games)
    prefix: dict[str, list[float]] = json.loads(shorter[-1][1].read_text(encoding="utf-8")) if shorter else {}
    gs = spec_of(card_set.rules)
    game = make_game(card_set)
    units = [cid for cid, _ in gs.units(card_set)]
    picks: dict[str, list[tuple[int, int]]] = {cid: [] for cid in units}
    i = 0
    while any(len(got) < games for got in picks.values()) and i < games * SCAN:
        seats = dealt_by_seat(game, game_seed(seed, i), 2) or []
        for cid, got in picks.items():
            who = [k for k in range(len(seats)) if cid in seats[k]]
            if len(who) == 1 and len(got) < games:
                got.append((i, who[0]))
        i += 1
    done = {cid: len(prefix.get(cid, [])) for cid in units}  # each character's deals already played
    todo = {cid: got[done[cid]:] for cid, got in picks.items()}
    extra = sorted({g for got in todo.values() for g, _ in got if g >= len(known)})
    sets = {"": card_set} | {cid: gs.stand_in(card_set, cid, {"power": 5}) for cid in units}
    wanted = {"": extra} | {cid: [g for g, _ in got] for cid, got in todo.items()}
    tasks: list[tuple[Any, ...]] = [(key, sets[key], None, {}, [spec], seed, idx[j:j + CHUNK])
             for key, idx in wanted.items() for j in range(0, len(idx), CHUNK)]
    played: dict[str, dict[int, list[float]]] = {key: {} for key in wanted}
    for task, (key, rets) in zip(tasks, map_tasks(_task, tasks, jobs), strict=True):
        played[key].update(zip(task[6], rets, strict=True))
    own = dict(enumerate(known)) | played[""]
    out = {cid: prefix.get(cid, [])[:done[cid]] + [own[g][k] - played[cid][g][k] for g, k in got]
           for cid, got in todo.items()}
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, json.dumps(out))
    return out


MIN_RELIABILITY = 0.5
"""Below this a sample is mostly noise, and dividing by its reliability corrects noise with noise:
no corrected figure is given."""


def reliability(split_half: float) -> float:
    """The whole sample's self-agreement from its halves' (Spearman-Brown)."""
    return 2 * split_half / (1 + split_half) if split_half > -1 else split_half


def agreement_rows(name_a: str, name_b: str, a: dict[str, float], b: dict[str, float],
                   halves_a: tuple[dict[str, float], dict[str, float]],
                   halves_b: tuple[dict[str, float], dict[str, float]]) -> list[tuple[str, float, float, float]]:
    """A against B, each one's split half, and A against B corrected for the attenuation both
    samples' noise causes (Spearman 1904: rho / sqrt(rel_a * rel_b), the reliabilities from the
    split halves by Spearman-Brown; the interval is rho's scaled alike, reliabilities taken as
    known; all clipped to -1..1). Why: with a few points between the characters' true effects, sampling noise alone
    caps what two rankings can share; the corrected figure estimates what they would share
    without it."""
    units = list(a)
    rho = spearman([a[u] for u in units], [b[u] for u in units])
    sa = spearman([halves_a[0][u] for u in units], [halves_a[1][u] for u in units])
    sb = spearman([halves_b[0][u] for u in units], [halves_b[1][u] for u in units])
    rows = [(f"{name_a} vs {name_b}", *rho), (f"{name_a} split half", *sa), (f"{name_b} split half", *sb)]
    ra, rb = reliability(sa[0]), reliability(sb[0])
    if ra >= MIN_RELIABILITY and rb >= MIN_RELIABILITY:
        k = 1 / math.sqrt(ra * rb)
        rows.append((f"{name_a} vs {name_b}, corrected (rel {ra:.2f}, {rb:.2f})",
                     *(max(-1.0, min(1.0, r * k)) for r in rho)))
    return rows


def _means(diffs: dict[str, list[float]]) -> tuple[dict[str, float], tuple[dict[str, float], dict[str, float]]]:
    full = {c: statistics.fmean(d) if d else 0.0 for c, d in diffs.items()}
    halves = tuple({c: statistics.fmean(d[h::2]) if d[h::2] else 0.0 for c, d in diffs.items()}
                   for h in (0, 1))
    return full, (halves[0], halves[1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", default="gate")
    ap.add_argument("--b", default="mcts:50")
    ap.add_argument("--games", type=int, default=3000, help="games per agent for win_delta")
    ap.add_argument("--games-b", type=int, default=None, help="games for agent B (default --games)")
    ap.add_argument("--sub-games", type=int, default=0, help="paired deals per character (0: skip)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seeds", type=int, default=1,
                    help="runs of --games each (seeds seed .. seed+N-1), summed; sub_delta uses the first")
    ap.add_argument("--cache", type=Path, default=None,
                    help="keep each run's tally here and reuse it (a large sample in short runs)")
    ap.add_argument("--seed-b", type=int, default=None,
                    help="B's first seed (default --seed): other deals, so the two samples share no deal's luck")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--save", action="store_true",
                    help="keep A's agreement figures in the game's agent reference (the build report quotes them)")
    args = ap.parse_args()
    command = "nice .venv/bin/python bench/agreement.py " + shlex.join(sys.argv[1:])
    saved: list[reference.Figure] = []
    card_set = load_set("day-of-the-dead")
    t = time.perf_counter()
    gb = args.games_b or args.games
    seed_b = args.seed if args.seed_b is None else args.seed_b
    seeds = range(args.seed, args.seed + args.seeds)
    seeds_b = range(seed_b, seed_b + args.seeds)
    ta = [tally(card_set, args.a, args.games, s, args.jobs, args.cache) for s in seeds]
    tb = [tally(card_set, args.b, gb, s, args.jobs, args.cache) for s in seeds_b]
    wa, ha = win_deltas(ta)
    wb, hb = win_deltas(tb)
    units = list(wa)
    print(f"Day of the Dead, {len(units)} characters; {args.a}: {args.games * args.seeds} games, seeds "
          f"{seeds[0]}..{seeds[-1]}; {args.b}: {gb * args.seeds} games, seeds {seeds_b[0]}..{seeds_b[-1]}"
          + ("" if seed_b != args.seed else " (the same deals: their luck is shared, use --seed-b)"))
    for name, rho, lo, hi in agreement_rows(args.a, args.b, wa, wb, (ha[0], ha[1]), (hb[0], hb[1])):
        print(f"{'win_delta ' + name:58} Spearman {rho:+.2f} ({lo:+.2f} .. {hi:+.2f})")
        if name.startswith(f"{args.a} vs {args.b}"):
            corrected = name.partition(", ")[2]
            saved.append(reference.Figure(
                f"win_delta rank agreement with {args.b}" + (", corrected for sampling noise" if corrected else ""),
                rho, lo, hi, ">= 0.8 (Spearman)", command,
                note=f"{args.games * args.seeds} and {gb * args.seeds} games"
                + (", the same deals" if seed_b == args.seed else ", other deals")
                + (f"; {corrected}" if corrected else "")))
    if args.sub_games:
        sa, sha = _means(sub_deltas(card_set, args.a, ta[0]["returns"], args.sub_games, args.seed,
                                    args.jobs, args.cache))
        sb, shb = _means(sub_deltas(card_set, args.b, tb[0]["returns"], args.sub_games, seed_b,
                                    args.jobs, args.cache))
        for name, rho, lo, hi in agreement_rows(args.a, args.b, sa, sb, sha, shb):
            print(f"{'sub_delta ' + name:58} Spearman {rho:+.2f} ({lo:+.2f} .. {hi:+.2f})"
                  f"  ({args.sub_games} deals per character)")
            if name.startswith(f"{args.a} vs {args.b}"):
                corrected = name.partition(", ")[2]
                saved.append(reference.Figure(
                    f"sub_delta rank agreement with {args.b}"
                    + (", corrected for sampling noise" if corrected else ""), rho, lo, hi,
                    ">= 0.8 (Spearman)", command,
                    note=f"{args.sub_games} deals per character"
                    + (", the same deals for both (their luck shared)" if seed_b == args.seed else "")
                    + (f"; {corrected}" if corrected else "")))
    if args.save:
        path = reference.save(card_set.rules, args.a, saved, datetime.date.today().isoformat())
        print(f"saved {len(saved)} figure(s) to {path}")
    print(f"({time.perf_counter() - t:.0f}s)")


if __name__ == "__main__":
    main()
