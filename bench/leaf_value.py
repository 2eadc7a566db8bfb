"""How much a fitted leaf value could add to the Day of the Dead gate's end-of-turn score difference.

The gate scores each playout where the turn ends by the score difference then. A value function
over the position there (the lines' static outlook, their printed power and scores, the best and
mean card left in each hand, who holds priority) would see what the score does not. Before
building one, this measures what it could gain: gate self-play, every position where a new turn
starts, and a least-squares fit of the final margin on those features, one fit per number of
turns left (both seats' views, so no intercept), each scored on held-out games against the score
difference alone.

    nice .venv/bin/python bench/leaf_value.py --games 12000 --seed 1

What it printed on 2026-12-02 (12,000 games, 12,000 positions for each number of turns left): the
held-out R^2 of the final margin moves from 0.661 to 0.665 with one turn left, 0.329 to 0.334 with
three and 0.077 to 0.087 with five; the score difference's own weight stays near 1. The position's
features explain almost nothing the score does not (the turns still to play decide the rest), so
the leaf was left as it is (docs/simulation.md).
"""

from __future__ import annotations

import argparse
import random
from typing import Any

import numpy as np
from boneyard.engine.dotd.gate import GateAgent
from boneyard.engine.games import make_game
from boneyard.pipeline.load import load_set

NAMES = ("score", "outlook", "line_fight", "line_gain", "hand_best", "hand_mean", "priority")


def features(s: Any, me: int, ag: GateAgent) -> list[float]:
    """The position from ``me``'s side; every feature flips its sign with the seat."""
    op = 1 - me
    fight, gain = ag._fight, ag._gain
    lm, lo, hm, ho = s.lines[me], s.lines[op], s.hands[me], s.hands[op]

    def best(h: list[int]) -> float:
        return max((fight[c] for c in h), default=0.0)

    def mean(h: list[int]) -> float:
        return sum(fight[c] for c in h) / max(1, len(h))

    return [float(s.scores[me] - s.scores[op]), ag._outlook(lm, lo),
            sum(fight[c] for c in lm) - sum(fight[c] for c in lo),
            sum(gain[c] for c in lm) - sum(gain[c] for c in lo),
            best(hm) - best(ho), mean(hm) - mean(ho), 1.0 if s.prio == me else -1.0]


def collect(games: int, seed: int) -> dict[int, list[tuple[list[float], float, int]]]:
    """turns left -> (features for seat 0, seat 0's final margin, game index)."""
    game = make_game(load_set("day-of-the-dead"), 2)
    ag = GateAgent(game)
    rows: dict[int, list[tuple[list[float], float, int]]] = {}
    for i in range(games):
        s = game.new_initial_state(seed * 1_000_003 + i)
        rngs = [random.Random(seed * 7919 + i * 31 + k) for k in range(2)]
        seen = []
        turn = s.turn
        while not s.done:
            legal = s.legal_actions()
            p = s.current_player()
            s.apply_action(legal[0] if len(legal) == 1 else ag.choose(s.observation(p), rngs[p]))
            if not s.done and s.turn != turn:
                turn = s.turn
                seen.append((s.end_turn - s.turn + 1, features(s, 0, ag)))
        margin = float(s.scores[0] - s.scores[1])
        for left, f in seen:
            rows.setdefault(left, []).append((f, margin, i))
    return rows


def r2(x: np.ndarray, y: np.ndarray, held: np.ndarray, cols: list[int]) -> tuple[float, np.ndarray]:
    """Held-out R^2 of a least-squares fit of ``y`` on the columns ``cols``, and its weights."""
    w, *_ = np.linalg.lstsq(x[~held][:, cols], y[~held], rcond=None)
    resid = y[held] - x[held][:, cols] @ w
    return 1.0 - float((resid ** 2).mean() / y[held].var()), w


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=12000)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rows = collect(args.games, args.seed)
    for left in sorted(rows):
        data = rows[left]
        x = np.array([f for f, _m, _i in data] + [[-v for v in f] for f, _m, _i in data])
        y = np.array([m for _f, m, _i in data] + [-m for _f, m, _i in data])
        held = np.array([i % 2 == 1 for _f, _m, i in data] * 2)  # odd games are held out

        alone, _ = r2(x, y, held, [0])
        full, w = r2(x, y, held, list(range(len(NAMES))))
        print(f"{left} turns left, {len(data)} positions: held-out R^2 of the final margin "
              f"{alone:.3f} from the score alone, {full:.3f} with the position")
        print("   weights: " + " ".join(f"{n}={v:+.2f}" for n, v in zip(NAMES, w, strict=True)))


if __name__ == "__main__":
    main()
