"""Strength against speed of the Day of the Dead gate agent: how many sampled deals it plays out.

The gate's lookahead (engine/dotd/gate.py) plays every candidate on up to W sampled deals; more
deals play better and cost more. For each W given (and ``fast``, the agent before 2026-12-01:
one deal of random playouts, conversions and Unearths only, ``gate:fast``) it prints the games/s with the agent in every seat
(process CPU time, one core) and the win share against ``--opponent`` with a 95% interval
(seats rotated, the same deals for every point, a draw counts half):

    nice .venv/bin/python bench/gate_curve.py --points fast,1,2,3,4,8 --games 1000 --opponent mcts:50
"""

from __future__ import annotations

import argparse
import sys
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from boneyard.engine.dotd import gate as dotd_gate
from boneyard.engine.games import make_game
from boneyard.pipeline.load import load_set
from gate_eval import every_seat, win_share


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--points", default="fast,1,2,3,4,8", help="comma list of W (deals) or fast")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--opponent", default="mcts:50")
    ap.add_argument("--speed", type=int, default=300, help="games timed in every seat")
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    game = make_game(load_set("day-of-the-dead"), 2)
    print(f"{'point':>5} {'games/s':>8}  vs {args.opponent} ({args.games} games)", flush=True)
    for point in args.points.split(","):
        fast = point == "fast"
        search = dict(dotd_gate.FAST) if fast else dict.fromkeys(dotd_gate.SEARCH, int(point))
        hindsight = {} if fast else None
        gps = every_seat(game, partial(dotd_gate.GateAgent, game, search=search, hindsight=hindsight),
                         args.speed)
        share, half = win_share(game, dotd_gate.GateAgent(game, search=search, hindsight=hindsight),
                                args.opponent, args.games, seed=args.seed)
        print(f"{point:>5} {gps:8.0f}  {100 * share:5.1f}% ({100 * (share - half):.1f}-"
              f"{100 * (share + half):.1f})", flush=True)


if __name__ == "__main__":
    main()
