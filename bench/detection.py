"""Does the build refuse realistic design mistakes and pass harmless edits? The detection table.

    .venv/bin/python bench/detection.py [--fast] [--seeds 1,2,3] [--only NAME,...] [--jobs N] [--dir D]

For each game and seed the unmodified bundled set is built from scratch (its last pass kept),
then every fixture of tests/fixtures/mistakes/ is applied to a copy and built change-aware against
that last pass, as a designer's next build would be. Prints one row per fixture: refused or
passed at each seed, the gates that failed, and the seconds each build took. Default profile
unless --fast (the tests run the fast profile). --dir judges a folder of fixtures in the same
format instead of the bundled ones (a blind batch written without reading the gates).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from mistakes_support import baseline, fixtures, judge


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fast", action="store_true")
    ap.add_argument("--seeds", default="1,2,3")
    ap.add_argument("--only", default="")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--dir", type=Path, default=None, help="fixtures to judge instead of tests/fixtures/mistakes")
    args = ap.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    chosen = [f for f in (fixtures(args.dir) if args.dir else fixtures()) if not args.only or f.name in args.only.split(",")]
    print(f"profile {'fast' if args.fast else 'default'}, seeds {seeds}, load {os.getloadavg()[0]:.1f}")
    rows: dict[str, list[str]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for game in sorted({f.game for f in chosen}):
            for seed in seeds:
                work = Path(tmp) / f"{game}-{seed}"
                t0 = time.perf_counter()
                base_out, outcome = baseline(game, work, seed=seed, fast=args.fast, jobs=args.jobs)
                print(f"baseline {game} seed {seed}: passed={outcome.passed} in {time.perf_counter() - t0:.1f} s",
                      flush=True)
                if not outcome.passed:
                    print("   failed:", [g.metric.name if g.metric else g.gate.metric for g in outcome.failed_gates()])
                    continue
                for fx in (f for f in chosen if f.game == game):
                    v = judge(fx, base_out, work / fx.name, seed=seed, fast=args.fast, jobs=args.jobs)
                    mark = ("refused" if not v.passed else "passed") + (
                        "" if v.right else " (known miss)" if fx.known_miss else " (WRONG)")
                    rows.setdefault(fx.name, []).append(f"s{seed} {mark} {v.seconds:.0f}s")
                    print(f"  {fx.kind:8} {fx.name:26} seed {seed}: {mark:18} {v.seconds:5.1f} s  "
                          f"{'; '.join(v.failed[:3])}", flush=True)
    print("\n| fixture | kind | what | " + " | ".join(f"seed {s}" for s in seeds) + " |")
    print("|---|---|---|" + "---|" * len(seeds))
    for fx in chosen:
        print(f"| {fx.name} | {fx.kind} | {fx.what} | " + " | ".join(rows.get(fx.name, [])) + " |")


if __name__ == "__main__":
    main()
