"""Time `boneyard build` end to end per set and profile (wall clock and CPU seconds), from nothing
and after one change (change-aware: the new content against the last pass on paired games).

    .venv/bin/python bench/bench_build.py [SET ...] [--fast] [--jobs N] [--no-render] [--no-change]

CPU seconds (this process plus its worker processes) say what the build costs on a quiet
machine when the wall clock is inflated by other work. The issue's targets (wall clock, 2 cores):
Day of the Dead from nothing under 3 minutes, after changing one card under 45 s, the fast (CI)
profile under 30 s; Grave Feast the same or less.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import tempfile
import time
from pathlib import Path

from boneyard.pipeline.build import build_set
from boneyard.pipeline.load import load_set

from boneyard.paths import CARDS

ONE_CHANGE = {  # (file, text, replacement): a small edit a designer makes between two builds
    "day-of-the-dead": ("characters.yaml", "- id: pale_vampire\n  name: Pale Vampire\n  power: 7\n",
                        "- id: pale_vampire\n  name: Pale Vampire\n  power: 6\n"),
    "grave-feast": ("deck.yaml", "kind: zombie\n  copies: 4\n", "kind: zombie\n  copies: 5\n"),
}


def cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def timed(label: str, root: Path, out: str, args: argparse.Namespace, fresh: bool) -> None:
    t0, c0 = time.perf_counter(), cpu()
    o = build_set(load_set(root), out=out, fast=args.fast, jobs=args.jobs, fresh=fresh, render=not args.no_render)
    wall, used = time.perf_counter() - t0, cpu() - c0
    stages = {r["label"]: r.get("stage_seconds") for r in o.record["runs"]}
    how = "change-aware" if o.record.get("change") else "from scratch"
    print(f"{label} ({'fast' if args.fast else 'default'}, {how}): {wall:.1f} s wall, {used:.1f} s CPU, "
          f"{o.record['games']} main games, passed={o.passed}, playtest {o.record['seconds']} s, "
          f"stages {stages}", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("sets", nargs="*", default=["day-of-the-dead", "grave-feast"])
    ap.add_argument("--fast", action="store_true")
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--no-render", action="store_true")
    ap.add_argument("--no-change", action="store_true", help="only the build from nothing")
    args = ap.parse_args()
    print(f"load average before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.sets:
            root = Path(tmp) / "src" / name
            shutil.copytree(CARDS / name, root)
            out = str(Path(tmp) / "out")
            timed(f"{name} from nothing", root, out, args, fresh=True)
            if args.no_change or name not in ONE_CHANGE:
                continue
            file, old, new = ONE_CHANGE[name]
            text = (root / file).read_text(encoding="utf-8")
            (root / file).write_text(text.replace(old, new, 1), encoding="utf-8")
            timed(f"{name} after one change", root, out, args, fresh=False)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
