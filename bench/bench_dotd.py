"""Random-vs-random Day of the Dead games per second on one core (issue 3, target >= 5,000).

Each game is played through the public verbs only (``legal_actions`` + ``apply_action``) with a
plain seeded random choice, so the figure is what a simulator or a search rollout pays. Run:

    .venv/bin/python bench/bench_dotd.py [--games N] [--repeat R] [--switch KEY=VALUE ...]

Rates are given by CPU time (``time.process_time``: what one core delivers, little affected by
other processes on a shared machine) and by wall time (what you wait for; noisy under load), with
the 1-minute load average at the start of the run so a figure can be read in context.
"""

from __future__ import annotations

import argparse
import os
import random
import time

from boneyard.engine.dotd import COMPILED, DotdGame
from boneyard.pipeline.load import load_set


def play(game: DotdGame, n: int, seed: int) -> tuple[float, float, int]:
    """Play ``n`` random games; (CPU seconds, wall seconds, decisions)."""
    rng = random.Random(seed)
    rnd = rng.random
    actions = 0
    t0 = time.process_time()
    w0 = time.perf_counter()
    for k in range(n):
        s = game.new_initial_state(seed * 1_000_003 + k)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(legal[int(rnd() * len(legal))])
            actions += 1
    return time.process_time() - t0, time.perf_counter() - w0, actions


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
    print(f"load average (1 min) at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    print("engine: " + ("compiled by mypyc (setup.py; BONEYARD_PURE=1 for the pure-Python source)"
                        if COMPILED else "pure Python (engine/dotd/game.py as written)"))
    best_cpu = best_wall = best_dps = 0.0
    for r in range(args.repeat):
        cpu, wall, actions = play(game, args.games, r + 1)
        rate, wall_rate, dps = args.games / cpu, args.games / wall, actions / cpu
        print(
            f"run {r + 1}: {rate:,.0f} games/s CPU, {wall_rate:,.0f} games/s wall, "
            f"{dps:,.0f} decisions/s CPU ({actions / args.games:.1f} decisions/game, {cpu:.2f} s CPU)"
        )
        best_cpu, best_wall, best_dps = max(best_cpu, rate), max(best_wall, wall_rate), max(best_dps, dps)
    print(
        f"best: {best_cpu:,.0f} random games/s on one core by CPU time, {best_wall:,.0f} by wall time, "
        f"{best_dps:,.0f} decisions/s (target 5,000 games/s)"
    )
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
