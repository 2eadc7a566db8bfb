"""What `boneyard simulate --agents random` pays on top of the engine (issue 12: within 20%).

Alternates, in one process, the bare engine loop of bench/bench_dotd.py (the public verbs and a
plain seeded choice; its figure, the best of 3 runs) with the simulator's run (``engine.sim.simulate``: seeds, agents' streams,
tally, figures, exactly what the CLI does with ``--jobs 1``), and prints each one's games/s by
CPU time, their medians and the median of the pairwise ratios (pairs cancel the drift of a shared
machine). Run:

    .venv/bin/python bench/bench_overhead.py [--games N] [--pairs K]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from bench_dotd import play
from boneyard.engine.dotd import COMPILED, DotdGame
from boneyard.engine.sim import simulate
from boneyard.pipeline.load import load_set


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20000)
    ap.add_argument("--pairs", type=int, default=7)
    args = ap.parse_args()
    card_set = load_set("day-of-the-dead")
    game = DotdGame(card_set)
    print(f"load average (1 min) at start: {os.getloadavg()[0]:.2f}; engine "
          f"{'compiled' if COMPILED else 'pure Python'}; {args.games:,} games a run")
    bare: list[float] = []
    sim: list[float] = []
    for k in range(args.pairs):
        # the engine bench's figure: the best of 3 runs of a quarter as many games
        bare.append(max(args.games // 4 / play(game, args.games // 4, 3 * k + r + 1)[0] for r in range(3)))
        t0 = time.process_time()
        res = simulate(card_set, ["random"], args.games, k + 1, jobs=1)
        sim.append(res.n / (time.process_time() - t0))
        print(f"pair {k + 1}: engine {bare[-1]:,.0f}, simulate {sim[-1]:,.0f} games/s "
              f"({sim[-1] / bare[-1]:.0%})")
    ratio = statistics.median(s / b for s, b in zip(sim, bare, strict=True))
    print(f"median: engine {statistics.median(bare):,.0f}, simulate {statistics.median(sim):,.0f} "
          f"games/s; simulate at {ratio:.0%} of the engine (target >= 80%)")


if __name__ == "__main__":
    main()
