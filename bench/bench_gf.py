"""Grave Feast speed: random games per second on one core at 2 players, 4 players and 4 players
with the rares (issue 4 target: >= 1,000 four-player games/s). Drives the engine through the
core verbs the simulator uses: legal_actions, a uniformly random choice from a seeded Random,
apply_action; then once more through each player's observation, as agents see it.

    .venv/bin/python bench/bench_gf.py [--games N] [--rares]

``--rares`` is kept for old command lines: the rares row is always measured now. A decision is
a choice among two or more legal actions (forced moves are made by the engine).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from boneyard.engine.gf import COMPILED, FeastGame


def card_set():
    from boneyard.pipeline.load import load_set

    return load_set("grave-feast")


def bench(players: int, games: int, rares: bool, observe: bool) -> tuple[float, float, float, float]:
    game = FeastGame(card_set(), num_players=players, rares=rares, decks=2 if rares else None)
    rng = random.Random(1)
    steps = turns = 0
    t0 = time.process_time()  # CPU time of this process: one core, whatever else runs
    w0 = time.perf_counter()  # wall time: what a user waits, noisy when others load the machine
    for i in range(games):
        s = game.new_initial_state(i)
        while not s.is_terminal():
            if observe:
                legal = s.observation(s.current_player()).legal_actions()
            else:
                legal = s.legal_actions()
            s.apply_action(legal[int(rng.random() * len(legal))])
            steps += 1
        s.summary()
        turns += s.turn_no
    dt = time.process_time() - t0
    wall = time.perf_counter() - w0
    return games / dt, games / wall, steps / games, turns / games


def loop_ns() -> float:
    """CPU ns of one trivial interpreter loop step, to compare machines and loads: figures from
    elsewhere (e.g. the issue's OpenSpiel rates) scale with it."""
    x = 0
    t0 = time.process_time()
    for i in range(2_000_000):
        x = (x + i) & 1023
    return (time.process_time() - t0) / 2_000_000 * 1e9


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--rares", action="store_true", help="accepted for old command lines; rares always run")
    args = ap.parse_args()
    print(f"interpreter speed here: {loop_ns():.0f} ns per trivial loop step (CPU)")
    print("engine: " + ("compiled by mypyc (setup.py; BONEYARD_PURE=1 for the pure-Python source)"
                        if COMPILED else "pure Python (engine/gf as written)"))
    for players, rares in ((2, False), (4, False), (4, True)):
        for observe in (False, True):
            rate, wall, steps, turns = bench(players, args.games, rares, observe)
            how = "via observation" if observe else "state verbs"
            print(f"{players} players{' + rares' if rares else ''} ({how}): "
                  f"{rate:,.0f} random games/s CPU, {wall:,.0f}/s wall; "
                  f"{steps:.0f} decisions and {turns:.0f} turns per game")


if __name__ == "__main__":
    main()
