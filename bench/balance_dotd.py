"""Balance check of the Day of the Dead characters: per-character win-rate deltas by simulation.

Used to tune characters.yaml (H-content). For each seat of each game, a character counts as
"played" if that seat put it into play (fighter or spirit); its delta is the seat's win rate in
games where it played it minus the win rate where it did not (a draw counts half), with a 95%
normal interval. Observational, so biased (see docs/playtest.md for the paired-seed figures the
gates use), but cheap and good enough to find outliers while tuning.

    .venv/bin/python bench/balance_dotd.py [-n 4000] [--agents greedy,greedy] [--seed 1] [--jobs 1]
"""

from __future__ import annotations

import argparse
import math
import time

from boneyard.engine.sim import simulate
from boneyard.pipeline.load import load_set


def deltas(summaries: list[dict], ids: list[str]) -> dict[str, tuple[float, float, float, int]]:
    """Per character: (delta, half-width of its 95% interval, play rate, times played)."""
    out = {}
    for cid in ids:
        yes: list[float] = []
        no: list[float] = []
        for s in summaries:
            for seat, player in enumerate(s["players"]):
                w = 0.5 if s["winner"] is None else float(s["winner"] == seat)
                (yes if cid in player["played"] else no).append(w)
        if not yes or not no:
            out[cid] = (math.nan, math.nan, len(yes) / max(1, len(yes) + len(no)), len(yes))
            continue
        my, mn = sum(yes) / len(yes), sum(no) / len(no)
        vy = sum((x - my) ** 2 for x in yes) / max(1, len(yes) - 1)
        vn = sum((x - mn) ** 2 for x in no) / max(1, len(no) - 1)
        half = 1.96 * math.sqrt(vy / len(yes) + vn / len(no))
        out[cid] = (my - mn, half, len(yes) / (len(yes) + len(no)), len(yes))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("-n", type=int, default=4000)
    ap.add_argument("--agents", default="greedy,greedy")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--set", default="day-of-the-dead")
    args = ap.parse_args()

    cs = load_set(args.set)
    t0 = time.perf_counter()
    res = simulate(cs, args.agents.split(","), args.n, args.seed, jobs=args.jobs, keep_games=True)
    took = time.perf_counter() - t0
    sums = res.summaries
    first = [
        0.5 if s["winner"] is None else float(s["winner"] == s["first_priority"]) for s in sums
    ]
    fp = sum(first) / len(first)
    fp_half = 1.96 * math.sqrt(fp * (1 - fp) / len(first))
    draws = sum(s["winner"] is None for s in sums) / len(sums)
    scores = [sc for s in sums for sc in s["scores"]]
    print(
        f"{len(sums)} games ({args.agents}, seed {args.seed}) in {took:.1f}s; "
        f"first-priority win rate {fp:.3f} +- {fp_half:.3f}; draws {draws:.3f}; "
        f"mean score {sum(scores) / len(scores):.1f}"
    )
    ids = [c.id for c in cs.characters]
    power = {c.id: c.power for c in cs.characters}
    fights: dict[str, list[int]] = {cid: [0, 0] for cid in ids}
    for s in sums:
        for p in s["players"]:
            for cid, k in p.get("fights", {}).items():
                fights[cid][0] += k
            for cid, k in p.get("fights_won", {}).items():
                fights[cid][1] += k
    table = deltas(sums, ids)
    print(
        f"{'character':16} {'pow':>3} {'delta':>7} {'+-':>6} {'play':>5} {'fights':>7} {'won':>5}"
    )
    for cid in sorted(ids, key=lambda c: -table[c][0]):
        d, h, rate, _ = table[cid]
        f, w = fights[cid]
        flag = " <<" if abs(d) > 0.10 else ""
        print(
            f"{cid:16} {power[cid]:>3} {d:+7.3f} {h:6.3f} {rate:5.2f} {f:7d} "
            f"{(w / f if f else 0):5.2f}{flag}"
        )


if __name__ == "__main__":
    main()
