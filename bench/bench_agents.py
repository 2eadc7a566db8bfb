"""Time per agent decision (mcts at several budgets, greedy, random) on both bundled games.

Decisions are sampled along greedy-vs-greedy games (only real decisions: two or more legal
actions; forced moves cost mcts nothing). Run: .venv/bin/python bench/bench_agents.py
[--budgets 50,100,200,400] [--decisions 40] [--only dotd,gf2,gf4]
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from boneyard.engine.agents import make_agent
from boneyard.engine.games import make_game, spec_of
from boneyard.pipeline.load import load_set

CONFIGS = {
    "dotd": ("day-of-the-dead", {}),
    "gf2": ("grave-feast", {"num_players": 2}),
    "gf4": ("grave-feast", {"num_players": 4}),
}


def decision_points(game, count: int, seed: int = 1) -> list:
    """States at real decisions along greedy games."""
    greedy = make_agent("greedy", game)
    rng = random.Random(seed)
    out = []
    g = 0
    while len(out) < count:
        state = game.new_initial_state(seed * 10_000 + g)
        g += 1
        while not state.is_terminal() and len(out) < count:
            p = state.current_player()
            obs = state.observation(p)
            if len(obs.legal_actions()) > 1 and rng.random() < 0.25:
                out.append(state.clone())  # an observation may be a live view of the state
            state.apply_action(greedy.choose(obs, rng))
    return out


def time_agent(spec: str, game, points: list) -> list[float]:
    agent = make_agent(spec, game)
    times = []
    for k, state in enumerate(points):
        obs = state.observation(state.current_player())
        t = time.process_time()  # CPU time: fair on a machine shared with other jobs
        agent.choose(obs, random.Random(k))
        times.append(time.process_time() - t)
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--budgets", default="", help="mcts budgets, e.g. 30,60 (default: each game's "
                    "default budget and its double)")
    ap.add_argument("--decisions", type=int, default=40)
    ap.add_argument("--only", default=",".join(CONFIGS))
    args = ap.parse_args()
    print(f"{'game':6} {'agent':10} {'mean ms':>9} {'median':>8} {'max':>8}  decisions (CPU time)")
    for key in args.only.split(","):
        set_name, kw = CONFIGS[key]
        game = make_game(load_set(set_name), **kw)
        points = decision_points(game, args.decisions)
        default = spec_of(game.card_set.rules).search.default_budget
        budgets = args.budgets.split(",") if args.budgets else [str(default), str(2 * default)]
        specs = ["random", "greedy"] + [f"mcts:{b}" for b in budgets]
        for spec in specs:
            ts = [1000 * t for t in time_agent(spec, game, points)]
            print(f"{key:6} {spec:10} {statistics.fmean(ts):9.2f} {statistics.median(ts):8.2f} "
                  f"{max(ts):8.2f}  {len(ts)}", flush=True)


if __name__ == "__main__":
    main()
