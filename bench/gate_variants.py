"""Which Day of the Dead gate? Named variants of the gate agent against one opponent, on all cores.

Each variant plays the same deals against ``--opponent`` (seats rotated, a draw counts half; the
deals of ``bench/gate_eval.py``) and is timed with the agent in both seats (games/s, process CPU
time, one core). The variants are the measurements behind the gate's settings (engine/dotd/gate.py,
docs/simulation.md):

    nice .venv/bin/python bench/gate_variants.py --games 1600 --seed 8 --jobs 2 \
        --variants gate,random-playouts,former

``gate`` is the agent as it is (5 deals and ``PRUNE`` since 2026-12-07; 6 deals without it
before); ``random-playouts`` the gate of
2026-12-01 (random playouts, all seven kinds searched, 2 standard errors to stop); ``former`` is
gate:fast. The others change one
setting of ``gate``: ``hindsight-2`` (conversions two deep too), ``convert-0`` (conversions' own
playouts at random), ``unearth-1`` (the Unearths one deep), ``deals-2``, ``race-2.0``, ``dig``
(Dig searched too), ``every-card`` (every spirit played out, not one of each back). Named by
pattern: ``deals-N`` (up to N deals for every searched kind), ``deals-N@Z`` (and the early stop
at Z standard errors), ``kind=N[+kind=N...]`` (only those kinds on up to N deals), and any
variant with ``+prune`` or ``+noprune`` (an action clearly behind gets no more deals, or every
action gets them all: ``GateAgent(prune=...)``; without either, ``PRUNE`` decides).
"""

from __future__ import annotations

import argparse
import math
import sys
from functools import partial
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from boneyard.engine.agents import make_agent
from boneyard.engine.dotd import gate as dotd_gate
from boneyard.engine.games import make_game
from boneyard.pipeline.load import load_set
from gate_eval import every_seat, mean_interval, results

_GAME: Any = None


def game() -> Any:
    global _GAME
    if _GAME is None:
        _GAME = make_game(load_set("day-of-the-dead"), 2)
    return _GAME


class _EveryCard(dotd_gate.GateAgent):
    """The gate with every spirit played out (not one of each back)."""

    def _one_of_each_back(self, obs: Any, legal: list[int], pick: int) -> list[int]:
        return legal


def variant(name: str) -> Any:
    """The agent a variant name stands for (an agent spec for any other name)."""
    g = game()
    search, hindsight = dict(dotd_gate.SEARCH), dict(dotd_gate.HINDSIGHT)
    prune = dotd_gate.PRUNE  # <variant>+prune / +noprune: each action dropped once clearly behind, or not
    for suffix, on in (("+prune", True), ("+noprune", False)):
        if name.endswith(suffix):
            name, prune = name[:-len(suffix)], on
    if name == "gate":
        return dotd_gate.GateAgent(g, prune=prune)  # (gate+noprune: every deal for every action)
    if name == "random-playouts":
        return dotd_gate.GateAgent(g, search=dict.fromkeys(dotd_gate.KINDS, 3), hindsight={},
                                   race_z=2.0, prune=False)
    if name == "former":
        return dotd_gate.GateAgent(g, search=dotd_gate.FAST, hindsight={})
    if name == "every-card":
        return _EveryCard(g)
    changes: dict[str, tuple[dict[str, int], dict[str, int], float]] = {
        "hindsight-2": ({}, {"convert": 2}, dotd_gate.RACE_Z),
        "convert-0": ({}, {"convert": 0}, dotd_gate.RACE_Z),
        "unearth-1": ({}, {"unearth_target": 1, "unearth_pick": 1}, dotd_gate.RACE_Z),
        "deals-2": (dict.fromkeys(search, 2), {}, dotd_gate.RACE_Z),
        "race-2.0": ({}, {}, 2.0),
        "dig": ({"dig_deck": 3, "dig_discard": 3}, {"dig_deck": 2, "dig_discard": 2}, dotd_gate.RACE_Z),
    }
    if name.startswith("deals-") and name not in changes:  # deals-N[@Z]: N deals, race at Z
        n, _, z = name[6:].partition("@")
        changes[name] = (dict.fromkeys(search, int(n)), {}, float(z) if z else dotd_gate.RACE_Z)
    if "=" in name:  # kind=N[+kind=N...]: those kinds on up to N sampled deals
        deals = {k: int(n) for k, n in (part.split("=") for part in name.split("+"))}
        changes[name] = (deals, {}, dotd_gate.RACE_Z)
    if name in changes:
        s, h, z = changes[name]
        return dotd_gate.GateAgent(g, search={**search, **s}, hindsight={**hindsight, **h}, race_z=z,
                                   prune=prune)
    return make_agent(name, g)


def _play(task: tuple[str, str, int, int, int]) -> list[float]:
    name, opponent, seed, lo, hi = task
    return results(game(), variant(name), opponent, lo, hi, seed)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--variants", default="gate,random-playouts,former")
    ap.add_argument("--opponent", default="mcts:50")
    ap.add_argument("--games", type=int, default=1600)
    ap.add_argument("--seed", type=int, default=8)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--speed", type=int, default=300, help="games timed in every seat (0: none)")
    args = ap.parse_args()
    print(f"{'variant':16} {'games/s':>8}  vs {args.opponent} ({args.games} games, seed {args.seed})",
          flush=True)
    for name in args.variants.split(","):
        gps = every_seat(game(), partial(variant, name), args.speed) if args.speed else math.nan
        blocks = 4 * args.jobs
        tasks = [(name, args.opponent, args.seed, k * args.games // blocks, (k + 1) * args.games // blocks)
                 for k in range(blocks)]
        with Pool(args.jobs) as pool:
            shares = [r for block in pool.map(_play, tasks) for r in block]
        m, half = mean_interval(shares)
        print(f"{name:16} {gps:8.1f}  {100 * m:5.1f}% ({100 * (m - half):.1f}-{100 * (m + half):.1f})",
              flush=True)


if __name__ == "__main__":
    main()
