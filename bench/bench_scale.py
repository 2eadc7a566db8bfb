"""Simulation at scale: games/s on 1 and 2 processes, the Dask cluster path's overhead, memory.

    .venv/bin/python bench/bench_scale.py speed [--repeat 2]
    .venv/bin/python bench/bench_scale.py cluster [--games N]
    .venv/bin/python bench/bench_scale.py memory [--games N] [--stop 5] [--set day-of-the-dead]

``speed`` runs ``simulate`` (the path ``boneyard simulate`` takes: blocks, tallies, merge) for
both games with random and with greedy agents on ``--jobs 1`` and ``--jobs 2`` and prints games/s
and the scaling (2-process rate / 1-process rate; 2.0 is perfect on 2 cores). ``cluster`` runs
the same games on local processes and on a Dask LocalCluster of as many single-thread worker
processes on this machine (started beforehand, as a real cluster would be) and prints the
overhead. ``memory`` requests 10**5 and then 10**9 games (or ``--games N``), each in a fresh
process, stops each run after ``--stop`` seconds with a programmatic Ctrl-C (the run ends partial,
as ``simulate`` does), and prints the peak resident memory of the main process and of the largest
worker: the same for both sizes, as the blocks are made as they are handed out. Wall times: run
on a quiet machine.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time

from boneyard.engine.sim import simulate
from boneyard.pipeline.load import load_set

CASES = [  # (label, set, players, agents, games for a timing run)
    ("Day of the Dead, random", "day-of-the-dead", 2, ["random"], 40_000),
    ("Day of the Dead, greedy", "day-of-the-dead", 2, ["greedy"], 8_000),
    ("Grave Feast 4p, random", "grave-feast", 4, ["random"], 12_000),
    ("Grave Feast 4p, greedy", "grave-feast", 4, ["greedy"], 6_000),
]


def timed(card_set, players: int, agents: list[str], games: int, **kw) -> tuple[float, str]:
    t = time.perf_counter()
    res = simulate(card_set, agents, games, 1, num_players=players, **kw)
    return time.perf_counter() - t, json.dumps(res.to_json())


def speed(repeat: int, scale: float) -> None:
    print(f"{'case':26} {'games':>7} {'1 process':>12} {'2 processes':>12} {'scaling':>8}")
    for label, set_name, players, agents, games in CASES:
        games = max(100, int(games * scale))
        cs = load_set(set_name)
        best = {}
        reports = {}
        for jobs in (1, 2):
            runs = [timed(cs, players, agents, games, jobs=jobs) for _ in range(repeat)]
            best[jobs] = min(r[0] for r in runs)
            reports[jobs] = runs[0][1]
        same = "same report" if reports[1] == reports[2] else "REPORTS DIFFER"
        print(f"{label:26} {games:7d} {games / best[1]:9,.0f}/s {games / best[2]:9,.0f}/s "
              f"{best[1] / best[2]:7.2f}x  {same}", flush=True)


def cluster(games: int, workers: int) -> None:
    from distributed import LocalCluster

    cs = load_set("day-of-the-dead")
    t = time.perf_counter()
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as lc:
        start = time.perf_counter() - t
        timed(cs, 2, ["random"], 2_000, scheduler=lc.scheduler_address)  # warm the workers
        rows = []
        for agents in (["random"], ["greedy"]):
            n = games if agents == ["random"] else games // 5
            local, rep_l = timed(cs, 2, agents, n, jobs=workers)
            remote, rep_c = timed(cs, 2, agents, n, scheduler=lc.scheduler_address)
            rows.append((agents[0], n, local, remote, rep_l == rep_c))
    print(f"LocalCluster of {workers} worker processes started in {start:.1f} s (not counted)")
    print(f"{'agents':8} {'games':>7} {'local':>10} {'cluster':>10} {'overhead':>9}")
    for agent, n, local, remote, same in rows:
        print(f"{agent:8} {n:7d} {n / local:7,.0f}/s {n / remote:7,.0f}/s {100 * (remote / local - 1):8.1f}%"
              f"  {'same report' if same else 'REPORTS DIFFER'}")


def memory(set_name: str, sizes: list[int], jobs: int, players: int | None, stop: float) -> None:
    """Each size in its own process, so each peak is its own."""
    import subprocess

    for games in sizes:
        subprocess.run([sys.executable, __file__, "memory-one", "--games", str(games), "--jobs",
                        str(jobs), "--set", set_name, "--stop", str(stop)]
                       + (["--players", str(players)] if players else []), check=True)


def memory_one(set_name: str, games: int, jobs: int, players: int | None, stop: float) -> None:
    import signal
    import threading

    cs = load_set(set_name)
    t = time.perf_counter()
    timer = threading.Timer(stop, lambda: signal.raise_signal(signal.SIGINT)) if stop > 0 else None
    if timer is not None:
        timer.start()
    try:
        res = simulate(cs, ["random"], games, 1, jobs=jobs, num_players=players, interruptible=True)
    finally:
        if timer is not None:
            timer.cancel()
    secs = time.perf_counter() - t
    main_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    child_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"{set_name}: {games:,} games requested, {res.n:,} played in {secs:,.1f} s on {jobs} "
          f"processes{' (stopped)' if res.partial else ''}; peak resident memory: main process "
          f"{main_mb:,.0f} MB, largest worker {child_mb:,.0f} MB", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=["speed", "cluster", "memory", "memory-one"])
    ap.add_argument("--games", type=int, default=None)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--scale", type=float, default=1.0, help="speed: multiply the game counts")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--set", default="day-of-the-dead")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--stop", type=float, default=5.0, help="memory: stop each run after S seconds")
    args = ap.parse_args()
    if args.what == "speed":
        speed(args.repeat, args.scale)
    elif args.what == "cluster":
        cluster(args.games or 40_000, args.jobs)
    elif args.what == "memory":
        memory(args.set, [args.games] if args.games else [10**5, 10**9], args.jobs, args.players,
               args.stop)
    else:
        memory_one(args.set, args.games or 10**5, args.jobs, args.players, args.stop)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
