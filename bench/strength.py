"""How strong are the agents? Win rates with 95% intervals, seats (and priority) rotated.

For each game (Day of the Dead; Grave Feast at 2 and 4 players) it plays, via the simulator:
    0 greedy vs random, 1 mcts vs greedy, 2 mcts at double budget vs mcts,
    3 gate vs greedy, 4 gate vs mcts
and, with ``--speed``, times the gate agent in every seat (games/s on one core, CPU time).
With more than two players the first agent takes one seat and the second agent all the others,
so a fair share is 1/players. An agent is "stronger" when the lower end of its 95% interval is
above the fair share. Slow (thousands of mcts games): run it with low priority, e.g.
    nice -n 10 .venv/bin/python bench/strength.py --games 1000 --jobs 1 --json output/strength.json
``--budget N`` sets the mcts budget (matchups mcts:N vs greedy and mcts:2N vs mcts:N); the CPU
cost of a Grave Feast run grows with the number of mcts seats times their budgets.
"""

from __future__ import annotations

import argparse
import datetime
import json
import shlex
import sys
import time
from pathlib import Path

from boneyard.engine.games import spec_of
from boneyard.engine.sim import simulate
from boneyard.pipeline import reference
from boneyard.pipeline.load import load_set

sys.path.insert(0, str(Path(__file__).parent))
from gate_eval import every_seat

CONFIGS = {
    "dotd": ("day-of-the-dead", 2),
    "gf2": ("grave-feast", 2),
    "gf4": ("grave-feast", 4),
}


TARGETS = {  # the targets for the gate (issue 12), by game and opponent kind
    ("dotd", "greedy"): ">= 75%",
    ("dotd", "mcts"): ">= 50%, low end >= 45%",
    ("gf2", "greedy"): ">= 60%",
    ("gf4", "greedy"): ">= 35% (fair share 25%)",
}


def matchups(budget: int) -> list[tuple[str, str]]:
    return [("greedy", "random"), (f"mcts:{budget}", "greedy"), (f"mcts:{2 * budget}", f"mcts:{budget}"),
            ("gate", "greedy"), ("gate", f"mcts:{budget}")]


def gate_speed(card_set, players: int, games: int, seed: int) -> float:
    """Games/s (process CPU time) of the gate agent in every seat, one core, no simulator."""
    from boneyard.engine.agents import make_agent
    from boneyard.engine.games import make_game

    game = make_game(card_set, players)
    return every_seat(game, lambda: make_agent("gate", game), games, seed)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--budget", type=int, default=None,
                    help="mcts simulations per decision (default: the game's, see agents/evaluators.py)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--only", default=",".join(CONFIGS), help="comma list of dotd, gf2, gf4")
    ap.add_argument("--matchups", default="0,1,2,3,4", help="which matchups (0-4, see above)")
    ap.add_argument("--speed", type=int, default=0, metavar="GAMES",
                    help="also time GAMES games of the gate agent in every seat")
    ap.add_argument("--json", type=Path, default=None, help="append results here (JSON lines)")
    ap.add_argument("--save", action="store_true",
                    help="keep the gate's figures in the game's agent reference (the build report quotes them)")
    args = ap.parse_args()
    command = "nice .venv/bin/python bench/strength.py " + shlex.join(sys.argv[1:])
    today = datetime.date.today().isoformat()
    picks = [int(i) for i in args.matchups.split(",")]
    print(f"{'game':5} {'agent':>10} vs {'opponent':10} {'games':>6} {'win share (95% CI)':>24} "
          f"{'fair':>5}  verdict   time", flush=True)
    for key in args.only.split(","):
        set_name, players = CONFIGS[key]
        card_set = load_set(set_name)
        budget = args.budget or spec_of(card_set.rules).search.default_budget
        saved: list[reference.Figure] = []
        if args.speed:
            gps = gate_speed(card_set, players, args.speed, args.seed)
            print(f"{key:5} {'gate':>10} in every seat: {gps:.0f} games/s per core "
                  f"({args.speed} games, CPU time)", flush=True)
            saved.append(reference.Figure(
                f"games/s per core, gate in every seat, {players} players", gps, None, None,
                {"dotd": ">= 300", "gf4": ">= 100"}.get(key, "none"), command, unit="games/s"))
        for i, (a, b) in enumerate(matchups(budget)):
            if i not in picks:  # (matchup numbers as in the module docstring)
                continue
            agents = [a] + [b] * (players - 1)
            t = time.perf_counter()
            res = simulate(card_set, agents, args.games, args.seed, jobs=args.jobs,
                           num_players=players)
            secs = time.perf_counter() - t
            m = res.metric(f"agent.{a}.win_rate")
            fair = 1 / players
            verdict = "stronger" if m.low > fair else ("weaker" if m.high < fair else "no diff")
            print(f"{key:5} {a:>10} vs {b:10} {args.games:6d} {100 * m.value:7.1f}% "
                  f"({100 * m.low:5.1f}-{100 * m.high:5.1f}%) {100 * fair:4.0f}%  {verdict:9} "
                  f"{secs:6.0f}s", flush=True)
            if a == "gate":
                saved.append(reference.Figure(
                    f"win share vs {b}" + (f", {players} players" if card_set.rules != "day-of-the-dead" else ""),
                    m.value, m.low, m.high, TARGETS.get((key, b.split(":")[0]), ""), command,
                    note=f"{args.games} games, seed {args.seed}", unit="%"))
            if args.json:
                row = {"game": key, "players": players, "agent": a, "opponent": b,
                       "games": args.games, "seed": args.seed, "win_share": m.value, "low": m.low,
                       "high": m.high, "fair": fair, "verdict": verdict, "seconds": secs,
                       "draw_rate": res.metric("draw_rate").value, "jobs": args.jobs}
                args.json.parent.mkdir(parents=True, exist_ok=True)
                with args.json.open("a", encoding="utf-8") as f:
                    f.write(json.dumps(row) + "\n")
        if args.save and saved:
            path = reference.save(card_set.rules, "gate", saved, today, players)
            print(f"{key:5} saved {len(saved)} figure(s) to {path}", flush=True)


if __name__ == "__main__":
    main()
