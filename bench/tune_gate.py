"""Refine the gate's fitted weights by playing: a (1+1) evolution strategy on the paired win share.

Distillation from search gives the direction; this step checks it at the table. Each candidate
(a random perturbation of the incumbent's weights, scaled per weight) plays ``--games`` games
against ``--opponent`` on the same deals as the incumbent (common random numbers), and replaces
it when it wins a larger share. Prints the incumbent as Python for WEIGHTS after each gain.

    nice .venv/bin/python bench/tune_gate.py --game dotd --start weights.txt --games 600 --iters 150
"""
from __future__ import annotations

import argparse
import ast
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from boneyard.engine.agents import make_agent
from fit_gate import _game
from gate_eval import win_share


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--game", default="dotd")
    ap.add_argument("--start", type=Path, required=True, help="a file holding a WEIGHTS dict")
    ap.add_argument("--opponent", default="greedy")
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--iters", type=int, default=100)
    ap.add_argument("--sigma", type=float, default=0.5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rares", action="store_true")
    ap.add_argument("--floor", type=float, default=1e-3, help="least step scale of a weight")
    ap.add_argument("--kinds", default="", help="comma list: tune only these entries")
    args = ap.parse_args()
    game = _game(args.game, args.rares)
    players = game.num_players
    txt = args.start.read_text()
    best = {k: list(v) for k, v in ast.literal_eval(txt[txt.index("{"):txt.index("}") + 1]).items()}
    agent = make_agent("gate", game)
    rng = random.Random(args.seed)
    seed = 1000 + args.seed
    agent.weights = {k: tuple(v) for k, v in best.items()}
    best_v, _ = win_share(game, agent, args.opponent, args.games, seed, players)
    print(f"start {best_v:.3f}", flush=True)
    for it in range(args.iters):
        if it and it % 25 == 0:  # fresh deals now and then: do not overfit one sample
            seed += 1
            agent.weights = {k: tuple(v) for k, v in best.items()}
            best_v, _ = win_share(game, agent, args.opponent, args.games, seed, players)
        cand = {}
        kinds = args.kinds.split(",") if args.kinds else list(best)
        touch = set(rng.sample(kinds, max(1, len(kinds) // 3)))
        for k, w in best.items():
            if k not in touch:
                cand[k] = list(w)
                continue
            scale = max(args.floor, sum(abs(x) for x in w) / len(w))
            cand[k] = [x + rng.gauss(0, args.sigma) * (0.5 * abs(x) + 0.5 * scale) for x in w]
        agent.weights = {k: tuple(v) for k, v in cand.items()}
        v, _ = win_share(game, agent, args.opponent, args.games, seed, players)
        if v > best_v:
            best, best_v = cand, v
            print(f"iter {it}: {v:.3f} ({','.join(sorted(touch))})", flush=True)
            print("WEIGHTS = {")
            for k, w in best.items():
                print(f"    {k!r}: ({', '.join(f'{x:.4g}' for x in w)}),")
            print("}", flush=True)
    print(f"final {best_v:.3f}")


if __name__ == "__main__":
    main()
