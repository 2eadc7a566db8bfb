"""Random-vs-random Day of the Dead games per second on one core (issue 3, target >= 5,000).

Each game is played through the public verbs only (``legal_actions`` + ``apply_action``) with a
plain seeded random choice, so the figure is what a simulator or a search rollout pays. Run:

    .venv/bin/python bench/bench_dotd.py [--games N] [--repeat R] [--switch KEY=VALUE ...]
"""

from __future__ import annotations

import argparse
import random
import time

from boneyard.engine.dotd import DotdGame
from boneyard.pipeline.load import load_set


def play(game: DotdGame, n: int, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    rnd = rng.random
    actions = 0
    t0 = time.process_time()
    for k in range(n):
        s = game.new_initial_state(seed * 1_000_003 + k)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(legal[int(rnd() * len(legal))])
            actions += 1
    return time.process_time() - t0, actions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=5000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--switch", action="append", default=[], metavar="KEY=VALUE")
    args = ap.parse_args()
    options = {}
    for item in args.switch:
        key, _, value = item.partition("=")
        options[key] = {"true": True, "false": False}.get(value, value)
    game = DotdGame(load_set("day-of-the-dead"), **options)
    best = None
    for r in range(args.repeat):
        dt, actions = play(game, args.games, r + 1)
        rate = args.games / dt
        print(f"run {r + 1}: {rate:,.0f} games/s ({actions / args.games:.1f} decisions/game, {dt:.2f} s CPU)")
        best = rate if best is None else max(best, rate)
    print(f"best: {best:,.0f} random games/s on one core (target 5,000)")
    # what a search agent pays per simulation step: copying a state and sampling a view
    s = game.new_initial_state(1)
    rng = random.Random(1)
    for _ in range(30):
        s.apply_action(rng.choice(s.legal_actions()))
    t0 = time.process_time()
    for _ in range(20_000):
        s.clone()
    clone_us = (time.process_time() - t0) / 20_000 * 1e6
    obs = s.observation(s.current_player())
    t0 = time.process_time()
    for _ in range(5_000):
        obs.determinize(rng)
    det_us = (time.process_time() - t0) / 5_000 * 1e6
    print(f"clone: {clone_us:.1f} us, determinize: {det_us:.1f} us (mid-game state)")


if __name__ == "__main__":
    main()
