"""``python -m boneyard.pipeline.coverage_counts SET [--fast] [--agents A] [--jobs J]``.

Each playtest run's coverage counts (its main games only: no substitution, no sensitivity), what
the coverage gates require and what game.yaml exempts, so a designer can see how far from its
bound each rule and effect is before a build (pipeline/coverage.py). Exit 1 when something
required fired too rarely.
"""

from __future__ import annotations

from collections.abc import Sequence

from boneyard.engine.sim import simulate
from boneyard.pipeline.build import config_for
from boneyard.pipeline.coverage import EXEMPT, PREFIX, TESTED, run_items
from boneyard.pipeline.load import load_set
from boneyard.pipeline.playtest import batch_seed


def main(argv: Sequence[str] | None = None) -> int:
    """Print each run's coverage counts (module docstring); 1 when a required one is short."""
    import argparse

    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("set")
    ap.add_argument("--fast", action="store_true")
    ap.add_argument("--agents", default=None)
    ap.add_argument("--jobs", type=int, default=None)
    args = ap.parse_args(argv)
    card_set = load_set(args.set)
    cfg = config_for(card_set, fast=args.fast, agents=args.agents, jobs=args.jobs)
    gates = {(g.run, g.metric[len(PREFIX):]): g for g in cfg.gates if g.why.startswith((TESTED, EXEMPT))}
    bad = 0
    for run in cfg.runs:
        specs = cfg.agent_specs(run.players or 2) if not isinstance(cfg.agents, str) else [cfg.agents]
        res = simulate(card_set, specs, cfg.games, batch_seed(cfg.seed, run.label, 0), jobs=cfg.jobs,
                       num_players=run.players, options=run.options)
        fired = {m.name[len(PREFIX):]: int(m.value) for m in res.metrics if m.name.startswith(PREFIX)}
        items = run_items(card_set, cfg).get(run.label, [])
        print(f"{card_set.name}, run {run.label} ({cfg.games} games, agents {cfg.agents}):")
        for item in (i for i in items if i.on):
            gate = gates.get((run.label, item.name))
            n = fired.get(item.name, 0)
            if gate is None:
                state = "not gated (playtest.coverage.min is 0)"
            elif gate.why.startswith(EXEMPT):
                state = "exempt"
            elif gate.min is not None and n < gate.min:
                state, bad = f"FAIL (< {gate.min:.0f})", bad + 1
            else:
                state = "ok"
            print(f"  {item.name:45s} {n:7d}  {state}")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
