"""Could a policy stand in for the Day of the Dead gate's search? How well one predicts it.

The gate plays about 45 games/s a core because each choice of a spirit, fighter, conversion or
Unearth is a lookahead on sampled deals (engine/dotd/gate.py). A policy over card-generic
features would play at greedy's speed if it chose as the search does. This bench plays games
with the gate in both seats, records each searched decision (the gate's card-generic features of
every candidate, ``gate.FEATURES``, and the candidate the search chose), fits a softmax policy
per decision kind on some games (linear, or with ``--hidden N`` one hidden layer of N units) and
scores it on other games: how often it picks what the search picked (greedy's pick for
comparison), and, for a policy that searched only where unsure, the share of decisions it is
sure of (top probability at least P) and how often it is right there.

    nice .venv/bin/python bench/distill_gate.py --train 1500 --test 500 [--hidden 32]
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from typing import Any

import numpy as np
from boneyard.engine.agents import make_agent
from boneyard.engine.dotd import gate as dotd_gate
from boneyard.engine.games import make_game
from boneyard.pipeline.load import load_set

Sample = tuple[np.ndarray, int]  # candidates' features (rows), index of the search's choice
SURE = (0.6, 0.7, 0.8, 0.9)


def collect(game: Any, games: int, seed: int) -> dict[str, list[Sample]]:
    """The gate's searched decisions in ``games`` games, gate in both seats, by kind."""
    data: dict[str, list[Sample]] = defaultdict(list)

    class Recording(dotd_gate.GateAgent):
        def _lookahead(self, obs: Any, legal: list[int], pick: int, worlds: int,
                       rng: random.Random, depth: int | None = None) -> int:
            chosen = super()._lookahead(obs, legal, pick, worlds, rng, depth)
            kind = self.kind_of(obs)
            assert kind is not None  # only searched kinds get here
            rows = dotd_gate.FEATURES[kind](self, obs, legal, pick)
            data[kind].append((np.array(rows, dtype=float), legal.index(chosen)))
            return chosen

    agents = [Recording(game), Recording(game)]
    for i in range(games):
        state = game.new_initial_state(seed * 1_000_003 + i)
        rngs = [random.Random(seed * 7919 + i * 31 + k) for k in range(2)]
        while not state.is_terminal():
            p = state.current_player()
            state.apply_action(agents[p].choose(state.observation(p), rngs[p]))
    return data


def _pad(samples: list[Sample], width: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    dim = samples[0][0].shape[1]
    x = np.zeros((len(samples), width, dim))
    mask = np.zeros((len(samples), width), bool)
    for i, (rows, _y) in enumerate(samples):
        x[i, :len(rows)] = rows
        mask[i, :len(rows)] = True
    return x, mask, np.array([y for _rows, y in samples])


class Policy:
    """Softmax over the candidates of a decision; a score per candidate from its standardised
    features, linear plus (``hidden`` > 0) a one-hidden-layer ReLU network."""

    def __init__(self, dim: int, hidden: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.p: dict[str, np.ndarray] = {"w": np.zeros(dim)}
        if hidden:
            self.p.update(w1=rng.normal(0.0, 0.3, (dim, hidden)), b1=np.zeros(hidden),
                          w2=rng.normal(0.0, 0.3, hidden))
        self.mean = np.zeros(dim)
        self.sd = np.ones(dim)

    def _scores(self, z: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
        s = z @ self.p["w"]
        if "w1" not in self.p:
            return s, None
        h = np.maximum(0.0, z @ self.p["w1"] + self.p["b1"])
        return s + h @ self.p["w2"], h

    def probs(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return self._softmax(self._scores(self._z(x, mask))[0], mask)

    def _z(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        return (x - self.mean) / self.sd * mask[..., None]

    @staticmethod
    def _softmax(s: np.ndarray, mask: np.ndarray) -> np.ndarray:
        s = np.where(mask, s, -1e9)
        e = np.exp(s - s.max(1, keepdims=True)) * mask
        return e / e.sum(1, keepdims=True)

    def fit(self, x: np.ndarray, mask: np.ndarray, y: np.ndarray, steps: int = 1500,
            l2: float = 1e-3, lr: float = 0.03) -> None:
        """Cross-entropy with the search's choice as the label, by Adam."""
        self.mean = x[mask].mean(0)
        sd = x[mask].std(0)
        self.sd = np.where(sd < 1e-6, 1.0, sd)
        z = self._z(x, mask)
        n = len(y)
        m1 = {k: np.zeros_like(v) for k, v in self.p.items()}
        m2 = {k: np.zeros_like(v) for k, v in self.p.items()}
        for t in range(1, steps + 1):
            s, h = self._scores(z)
            g = self._softmax(s, mask)
            g[np.arange(n), y] -= 1.0
            g /= n
            grads = {"w": np.einsum("nc,ncd->d", g, z) + l2 * self.p["w"]}
            if h is not None:
                grads["w2"] = np.einsum("nc,nch->h", g, h) + l2 * self.p["w2"]
                dh = g[..., None] * self.p["w2"] * (h > 0)
                grads["w1"] = np.einsum("nch,ncd->dh", dh, z) + l2 * self.p["w1"]
                grads["b1"] = dh.sum((0, 1))
            for k, grad in grads.items():
                m1[k] = 0.9 * m1[k] + 0.1 * grad
                m2[k] = 0.999 * m2[k] + 0.001 * grad * grad
                self.p[k] -= lr * (m1[k] / (1 - 0.9 ** t)) / (np.sqrt(m2[k] / (1 - 0.999 ** t)) + 1e-8)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--train", type=int, default=1500, help="games to fit on")
    ap.add_argument("--test", type=int, default=500, help="other games to score on")
    ap.add_argument("--hidden", type=int, default=0, help="hidden units (0: linear)")
    ap.add_argument("--seed", type=int, default=20)
    args = ap.parse_args()
    game = make_game(load_set("day-of-the-dead"), 2)
    make_agent("gate", game)  # fails early on a set the gate cannot play
    train = collect(game, args.train, args.seed)
    test = collect(game, args.test, args.seed + 1)
    print(f"policy: {'linear' if not args.hidden else f'{args.hidden} hidden units'}; "
          f"{args.train} games to fit, {args.test} to score")
    print(f"{'kind':15} {'decisions':>9} {'agrees':>7} {'greedy':>7}  sure (share, agrees) at p >= "
          + ", ".join(map(str, SURE)))
    for kind in dotd_gate.KINDS:
        if kind not in train or kind not in test:
            continue
        width = max(len(r) for r, _y in train[kind] + test[kind])
        x, mask, y = _pad(train[kind], width)
        policy = Policy(x.shape[2], args.hidden, args.seed)
        policy.fit(x, mask, y)
        xt, mt, yt = _pad(test[kind], width)
        pr = policy.probs(xt, mt)
        right = pr.argmax(1) == yt
        greedy = xt[:, :, 0].argmax(1) == yt  # feature 0: greedy's pick
        top = pr.max(1)
        sure = [f"{100 * (top >= p).mean():.0f}% {100 * right[top >= p].mean():.0f}%"
                if (top >= p).any() else "0% -" for p in SURE]
        print(f"{kind:15} {len(yt):9d} {100 * right.mean():6.1f}% {100 * greedy.mean():6.1f}%  "
              + "; ".join(sure), flush=True)


if __name__ == "__main__":
    main()
