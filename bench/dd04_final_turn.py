"""DD-04: does `final_turn_free_back` change any legal-move set of the final turn's choice?

Plays random games of the bundled Day of the Dead set (or with ``--param key=value`` changed) and,
at every spirit choice of the final turn, compares the options offered with the parameter on and
off at the same position. Prints the figures the ruling in docs/rules/day-of-the-dead.md quotes:

    .venv/bin/python bench/dd04_final_turn.py --games 40
    .venv/bin/python bench/dd04_final_turn.py --games 40 --param turns=5
"""

from __future__ import annotations

import argparse
import random
from dataclasses import replace

from boneyard.engine.dotd import DotdGame
from boneyard.engine.dotd.cards import dotd_set
from boneyard.engine.dotd.codes import D_SELECT
from boneyard.pipeline.load import load_set


def measure(games: int, params: dict[str, int]) -> tuple[int, int, int]:
    """(final-turn choices seen, choices whose options differ, choices offering the whole hand)."""
    base = dotd_set(load_set("day-of-the-dead"))
    on = DotdGame(replace(base, params={**base.params, **params, "final_turn_free_back": True}))
    off = DotdGame(replace(base, params={**base.params, **params, "final_turn_free_back": False}))
    seen = differ = whole = 0
    for seed in range(games):
        s = on.new_initial_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            if s.dk == D_SELECT and s.turn == on.turns:
                seen += 1
                t = s.clone()
                t.g = off
                p = s.current_player()
                free = sorted(s._selectable(p))
                bound = sorted(t._selectable(p))
                differ += free != bound
                hand = [c for c in s.hands[p] if c not in s.chosen[p]]
                whole += free == sorted(hand)
            s.apply_action(rng.choice(s.legal_actions()))
    return seen, differ, whole


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--param", action="append", default=[], help="key=value (an integer param)")
    args = ap.parse_args()
    params = {k: int(v) for k, v in (p.split("=", 1) for p in args.param)}
    seen, differ, whole = measure(args.games, params)
    print(f"{args.games} random games, params {params or 'as bundled'}: {seen} final-turn choices, "
          f"{differ} with other options when final_turn_free_back is off, "
          f"{whole} offering the whole hand when it is on")


if __name__ == "__main__":
    main()
