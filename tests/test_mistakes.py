"""The build refuses realistic design mistakes and passes harmless edits (fast profile).

Each fixture of tests/fixtures/mistakes/ is applied to a copy of its bundled set and built
change-aware against the last pass of the unmodified set, as the designer's next build would be.
The unmodified sets are built from scratch at each seed of SEEDS and must pass (no false alarm);
each fixture is judged at one of those seeds in turn (bench/detection.py judges every fixture at
every seed, with the default profile).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from conftest import FastBuilds
from mistakes_support import Fixture, baseline, failed_gates, fixtures, judge

# `make test` judges at seed 1 (each from-scratch baseline of the 36 characters under the gate
# agent costs 70-90 s); BONEYARD_MISTAKE_SEEDS=1,2,3 gives the three-seed sweep, and
# bench/detection.py judges every fixture at every seed.
# A known miss (documented in its fixture, measured by the benches) costs a whole build to confirm
# it is still missed, so only the sweep plays it.
SWEEP = os.environ.get("BONEYARD_MISTAKE_SEEDS")
SEEDS = tuple(int(s) for s in (SWEEP or "1").split(","))
ALL = fixtures()


@pytest.fixture(scope="module")
def bases(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, int], Any]:
    return {}


def base_for(bases: dict[tuple[str, int], Any], game: str, seed: int, tmp: Path,
             shared: FastBuilds) -> Path:
    """The unmodified set's output folder at ``seed`` (built once per module; seed 1 is the
    session's shared from-scratch build), asserting it passed. ``judge`` copies it before use."""
    if seed == 1:
        _src, out, passed, bad = shared.get(game)
        assert passed, f"the unmodified {game} fails its gates at seed 1: {bad}"
        return out
    if (game, seed) not in bases:
        out, outcome = baseline(game, tmp / f"base-{game}-{seed}", seed=seed, fast=True, jobs=2)
        bases[(game, seed)] = (out, outcome.passed, failed_gates(outcome))
    out, passed, bad = bases[(game, seed)]
    assert passed, f"the unmodified {game} fails its gates at seed {seed}: {bad}"
    return out


def test_there_are_enough_fixtures_of_each_kind():
    mistakes = [f for f in ALL if f.kind == "mistake"]
    harmless = [f for f in ALL if f.kind == "harmless"]
    assert len([f for f in mistakes if not f.known_miss]) >= 12 and len(harmless) >= 6
    assert {f.game for f in mistakes} == {f.game for f in harmless} == {"day-of-the-dead", "grave-feast"}
    assert any(e[0] == "game.yaml" for f in mistakes for e in f.edits)  # rules params, not only cards
    assert any(e[0] != "game.yaml" for f in mistakes for e in f.edits)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("game", ["day-of-the-dead", "grave-feast"])
def test_the_unmodified_sets_pass_from_scratch(game, seed, bases, tmp_path_factory, fast_builds):
    base_for(bases, game, seed, tmp_path_factory.mktemp("base"), fast_builds)


@pytest.mark.parametrize("fx", ALL, ids=[f.name for f in ALL])
def test_the_build_refuses_each_mistake_and_passes_each_harmless_edit(fx: Fixture, bases, tmp_path_factory,
                                                                     fast_builds):
    if fx.known_miss and SWEEP is None:
        pytest.skip(f"known miss, judged by the sweep and bench/detection.py: {fx.known_miss}")
    seed = SEEDS[ALL.index(fx) % len(SEEDS)]
    out = base_for(bases, fx.game, seed, tmp_path_factory.mktemp("base"), fast_builds)
    v = judge(fx, out, tmp_path_factory.mktemp(fx.name), seed=seed, fast=True, jobs=2)
    assert v.change is not None, "the build did not find the last pass: it was not change-aware"
    if fx.kind == "mistake":
        if v.passed and fx.known_miss:
            pytest.xfail(f"known miss: {fx.known_miss}")
        assert not v.passed, f"{fx.name} ({fx.what}) passed at seed {seed}"
    else:
        assert v.passed, f"{fx.name} ({fx.what}) was refused at seed {seed}: {v.failed}"
