"""Time `boneyard build` end to end per set and profile (wall clock and CPU seconds).

    .venv/bin/python bench/bench_build.py [SET ...] [--fast] [--jobs N]

CPU seconds (this process plus its worker processes) say what the build costs on a quiet
machine when the wall clock is inflated by other work; the issue's targets are wall-clock
figures on this 2-core machine: default profile under 60 s, fast profile under 15 s.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time

from boneyard.pipeline.build import build_set
from boneyard.pipeline.load import load_set


def cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("sets", nargs="*", default=["day-of-the-dead", "grave-feast"])
    ap.add_argument("--fast", action="store_true")
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--no-render", action="store_true")
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as out:
        for name in args.sets:
            t0, c0 = time.perf_counter(), cpu()
            cs = load_set(name)
            o = build_set(cs, out=out, fast=args.fast, jobs=args.jobs, fresh=True, render=not args.no_render)
            wall, used = time.perf_counter() - t0, cpu() - c0
            stages = {r["label"]: r.get("stage_seconds") for r in o.record["runs"]}
            print(f"{name} ({'fast' if args.fast else 'default'}): {wall:.1f} s wall, {used:.1f} s CPU, "
                  f"{o.record['games']} games, passed={o.passed}, playtest {o.record['seconds']} s, stages {stages}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
