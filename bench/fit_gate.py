"""Fit the gate agent's weights to search: how ``engine/<game>/gate.py``'s WEIGHTS were made.

Two steps, so features can change without paying for search again:

    label: play games with a behaviour agent (``--behaviour greedy`` or ``gate``, both seats), and
           at a sample of real decisions of the kinds the gate scores, run mcts (``--teacher``) and
           keep the root's visit share of each legal action, with the game seed and the actions so
           far (the position is replayed from them, never pickled). Appends JSON lines to --data.
    fit:   replays every position, computes the gate's card-generic features of each candidate,
           and fits one weight vector per decision kind by softmax regression on the visit shares
           (cross-entropy, L2, gradient descent on standardised features); prints the weights as
           Python for WEIGHTS and how often the fitted model agrees with the teacher's top choice.

    nice .venv/bin/python bench/fit_gate.py label --game dotd --games 200 --teacher mcts:100 \
        --data output/gate_dotd.jsonl --seed 1
    .venv/bin/python bench/fit_gate.py fit --game dotd --data output/gate_dotd.jsonl
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from pathlib import Path
from typing import Any

from boneyard.engine.agents import make_agent
from boneyard.engine.games import make_game
from boneyard.pipeline.load import load_set

GAMES = {"dotd": ("day-of-the-dead", 2), "gf2": ("grave-feast", 2), "gf4": ("grave-feast", 4)}


def _game(key: str, rares: bool = False) -> Any:
    set_name, players = GAMES[key]
    kw: dict[str, Any] = {}
    if set_name == "grave-feast":
        kw["num_players"] = players
        if rares:
            kw["rares"] = True
    return make_game(load_set(set_name), **kw)


def _gate(game: Any) -> Any:
    return make_agent("gate", game)


def label(args: argparse.Namespace) -> None:
    game = _game(args.game, args.rares)
    behaviour = make_agent(args.behaviour, game)
    teacher = make_agent(args.teacher, game)
    gate = _gate(game)
    rng = random.Random(args.seed)
    out = args.data.open("a", encoding="utf-8")
    n = 0
    for i in range(args.games):
        seed = args.seed * 1_000_003 + i
        state = game.new_initial_state(seed)
        prefix: list[int] = []
        arng = random.Random(seed)
        while not state.is_terminal():
            p = state.current_player()
            obs = state.observation(p)
            legal = obs.legal_actions()
            kind = gate.kind_of(obs) if len(legal) > 1 else None
            if kind is not None and (not args.kinds or kind in args.kinds) and rng.random() < args.share:
                root = teacher.search(obs, random.Random(rng.getrandbits(64)))
                kids = [root.children.get((p, a)) for a in legal]
                visits = [k.visits if k is not None else 0 for k in kids]
                means = [k.total / k.visits if k is not None and k.visits else None for k in kids]
                out.write(json.dumps({"seed": seed, "actions": list(prefix), "legal": legal,
                                      "visits": visits, "means": means}) + "\n")
                n += 1
                obs = state.observation(p)
            if args.explore and rng.random() < args.explore and len(legal) > 1:
                a = legal[rng.randrange(len(legal))]
            else:
                a = behaviour.choose(obs, arng)
            state.apply_action(a)
            prefix.append(a)
        out.flush()
        print(f"game {i + 1}/{args.games}: {n} positions", file=sys.stderr, flush=True)
    out.close()


def _replay(game: Any, seed: int, actions: list[int]) -> Any:
    state = game.new_initial_state(seed)
    for a in actions:
        state.apply_action(a)
    return state


def _fit_kind(data: list[tuple[list[list[float]], list[float]]], l2: float,
              steps: int, hard: bool = False) -> tuple[list[float], float]:
    """Softmax regression on standardised features; returns raw-scale weights. Soft targets
    (visit shares), or with ``hard`` the teacher's top choice weighted by its lead in share."""
    if hard:
        out = []
        for rows, t in data:
            order = sorted(range(len(t)), key=lambda i: -t[i])
            lead = t[order[0]] - t[order[1]]
            if lead > 0:
                out.append((rows, [lead if i == order[0] else 0.0 for i in range(len(t))]))
        data = out
    dim = len(data[0][0][0])
    mean = [0.0] * dim
    sq = [0.0] * dim
    cnt = 0
    for rows, _t in data:
        for r in rows:
            cnt += 1
            for k, x in enumerate(r):
                mean[k] += x
                sq[k] += x * x
    mean = [m / cnt for m in mean]
    sd = [math.sqrt(max(1e-12, s / cnt - m * m)) for s, m in zip(sq, mean, strict=True)]
    sd = [s if s > 1e-6 else 1.0 for s in sd]
    zs = [([[(x - m) / s for x, m, s in zip(r, mean, sd, strict=True)] for r in rows], t)
          for rows, t in data]
    w = [0.0] * dim
    # Adam on the mean cross-entropy
    m1 = [0.0] * dim
    m2 = [0.0] * dim
    lr = 0.05
    for it in range(1, steps + 1):
        grad = [l2 * x for x in w]
        for rows, t in zs:
            scores = [sum(a * b for a, b in zip(w, r, strict=True)) for r in rows]
            top = max(scores)
            ex = [math.exp(s - top) for s in scores]
            tot = sum(ex)
            mass = sum(t)
            for r, e, q in zip(rows, ex, t, strict=True):
                coef = (mass * e / tot - q) / len(zs)
                if coef:
                    for k, x in enumerate(r):
                        grad[k] += coef * x
        for k in range(dim):
            m1[k] = 0.9 * m1[k] + 0.1 * grad[k]
            m2[k] = 0.999 * m2[k] + 0.001 * grad[k] ** 2
            w[k] -= lr * (m1[k] / (1 - 0.9 ** it)) / (math.sqrt(m2[k] / (1 - 0.999 ** it)) + 1e-8)
    raw = [wk / s for wk, s in zip(w, sd, strict=True)]  # the mean shift is the same for all rows
    agree = 0
    for rows, t in data:
        scores = [sum(a * b for a, b in zip(raw, r, strict=True)) for r in rows]
        agree += scores.index(max(scores)) == t.index(max(t))
    return raw, agree / len(data)


def _fit_q(data: list[tuple[list[list[float]], list[float]]], l2: float) -> tuple[list[float], float]:
    """Least squares of the teacher's mean return of each action (centred per decision) on the
    centred features: the weights rank actions by how much they gain, not only which wins."""
    dim = len(data[0][0][0])
    ata = [[0.0] * dim for _ in range(dim)]
    atb = [0.0] * dim
    for rows, q in data:
        n = len(rows)
        mf = [sum(r[k] for r in rows) / n for k in range(dim)]
        mq = sum(q) / n
        for r, y in zip(rows, q, strict=True):
            x = [r[k] - mf[k] for k in range(dim)]
            for i in range(dim):
                if x[i]:
                    xi = x[i]
                    row = ata[i]
                    for j in range(dim):
                        row[j] += xi * x[j]
                    atb[i] += xi * (y - mq)
    scale = max(1e-9, max(ata[i][i] for i in range(dim)))
    for i in range(dim):
        ata[i][i] += l2 * scale
    w = _solve(ata, atb)
    agree = 0
    for rows, q in data:
        scores = [sum(a * b for a, b in zip(w, r, strict=True)) for r in rows]
        agree += scores.index(max(scores)) == q.index(max(q))
    return w, agree / len(data)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a small dense system)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        if abs(m[c][c]) < 1e-12:
            continue
        for r in range(n):
            if r != c and m[r][c]:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] if abs(m[i][i]) > 1e-12 else 0.0 for i in range(n)]


def fit(args: argparse.Namespace) -> None:
    game = _game(args.game, args.rares)
    gate = _gate(game)
    gate.weights = {}
    from importlib import import_module

    features = import_module(type(gate).__module__).FEATURES
    by_kind: dict[str, list[tuple[list[list[float]], list[float]]]] = {}
    greedy_agree: dict[str, int] = {}
    lines = [x for d in args.data for x in d.read_text(encoding="utf-8").splitlines()]
    for line in lines:
        rec = json.loads(line)
        state = _replay(game, rec["seed"], rec["actions"])
        obs = state.observation(state.current_player())
        legal = obs.legal_actions()
        if legal != rec["legal"]:
            raise SystemExit("a position replays differently: was the engine changed?")
        kind = gate.kind_of(obs)
        if kind is None or (args.kinds and kind not in args.kinds):
            continue
        if gate._game is not obs.game:
            gate._prepare(obs.game)
        pick = gate.choose(obs, random.Random(0))  # no weights: greedy's choice
        rows = features[kind](gate, obs, legal, pick)
        tot = sum(rec["visits"])
        target = [v / tot for v in rec["visits"]]
        if args.q:
            if "means" not in rec or any(m is None for m in rec["means"]):
                continue
            target = rec["means"]
        by_kind.setdefault(kind, []).append((rows, target))
        greedy_agree[kind] = greedy_agree.get(kind, 0) + (target[legal.index(pick)] == max(target))
    print("WEIGHTS = {")
    notes = []
    for kind, data in by_kind.items():
        if args.kinds and kind not in args.kinds:
            continue
        w, agree = _fit_q(data, args.l2) if args.q else _fit_kind(data, args.l2, args.steps, args.hard)
        print(f"    {kind!r}: ({', '.join(f'{x:.4g}' for x in w)}),")
        notes.append(f"{kind}: {len(data)} positions, teacher's top choice: fitted "
                     f"{100 * agree:.0f}%, greedy {100 * greedy_agree[kind] / len(data):.0f}%")
    print("}")
    for n in notes:
        print("#", n)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    lab = sub.add_parser("label")
    lab.add_argument("--game", choices=GAMES, default="dotd")
    lab.add_argument("--games", type=int, default=100)
    lab.add_argument("--teacher", default="mcts:100")
    lab.add_argument("--behaviour", default="greedy")
    lab.add_argument("--explore", type=float, default=0.05, help="chance of a random move")
    lab.add_argument("--share", type=float, default=0.3, help="share of decisions labelled")
    lab.add_argument("--seed", type=int, default=1)
    lab.add_argument("--rares", action="store_true")
    lab.add_argument("--data", type=Path, required=True)
    lab.add_argument("--kinds", type=lambda t: set(t.split(",")), default=None,
                     help="label only these decision kinds (comma list)")
    ft = sub.add_parser("fit")
    ft.add_argument("--game", choices=GAMES, default="dotd")
    ft.add_argument("--data", type=Path, nargs="+", required=True)
    ft.add_argument("--hard", action="store_true", help="fit the teacher's top choice")
    ft.add_argument("--q", action="store_true", help="fit the teacher's mean returns (least squares)")
    ft.add_argument("--kinds", type=lambda t: set(t.split(",")), default=None)
    ft.add_argument("--l2", type=float, default=1e-3)
    ft.add_argument("--steps", type=int, default=300)
    ft.add_argument("--rares", action="store_true")
    args = ap.parse_args()
    label(args) if args.cmd == "label" else fit(args)


if __name__ == "__main__":
    main()
