"""Design-mistake fixtures (tests/fixtures/mistakes/*.yaml) applied to a copy of a bundled set.

Each fixture names the game, whether it is a ``mistake`` (the build must refuse it) or
``harmless`` (the build must pass it), and its edits: exact text replacements in the set's files,
each of which must match once (so a fixture that no longer applies says so instead of testing the
unmodified set). A baseline build of the unmodified set leaves its last pass in an output folder;
each fixture is then built change-aware against a copy of that folder, as a designer's next build
after the edit would be. Used by tests/test_mistakes.py (fast profile) and bench/detection.py
(default profile).
"""

from __future__ import annotations

import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from boneyard.pipeline.build import build_set
from boneyard.pipeline.load import load_set

from boneyard.errors import CardDataError
from boneyard.paths import CARDS

MISTAKES = Path(__file__).parent / "fixtures" / "mistakes"


@dataclass(frozen=True)
class Fixture:
    name: str
    game: str
    kind: str  # mistake | harmless
    what: str
    edits: tuple[tuple[str, str, str], ...]  # (file, text, replacement)
    known_miss: str = ""  # a mistake the gates are known not to catch reliably, and why


def fixtures(folder: Path = MISTAKES) -> list[Fixture]:
    """The fixtures in ``folder`` (the bundled ones unless a designer points at a batch of their own)."""
    out = []
    for path in sorted(folder.glob("*.yaml")):
        data: dict[str, Any] = yaml.safe_load(path.read_text(encoding="utf-8"))
        edits = tuple((e["file"], e["replace"], e["with"]) for e in data["edits"])
        out.append(Fixture(path.stem, data["game"], data["kind"], data["what"], edits,
                           str(data.get("known_miss") or "")))
    return out


def copy_set(game: str, into: Path) -> Path:
    """A copy of the bundled set ``game`` as ``into/<game>`` (the folder name is the set's slug,
    so the copy's output folder is the same whatever is edited)."""
    dest = into / game
    shutil.copytree(CARDS / game, dest)
    return dest


def apply(fixture: Fixture, into: Path) -> Path:
    """The bundled set with the fixture's edits, under ``into``."""
    root = copy_set(fixture.game, into)
    for file, text, new in fixture.edits:
        path = root / file
        body = path.read_text(encoding="utf-8")
        if body.count(text) != 1:
            raise AssertionError(f"{fixture.name}: {file} holds {body.count(text)} copies of {text!r}, not 1")
        path.write_text(body.replace(text, new), encoding="utf-8")
    return root


def failed_gates(outcome: Any) -> list[tuple[str, str]]:
    """(metric, status) of each gate a build's outcome failed: what an assertion message names."""
    return [(r.metric.name if r.metric else r.gate.metric, r.status) for r in outcome.failed_gates()]


def baseline(game: str, work: Path, *, seed: int, fast: bool, jobs: int) -> tuple[Path, Any]:
    """Build the unmodified set from scratch into ``work/base-out``; (output folder, outcome)."""
    src = work / "base-src"
    src.mkdir(parents=True, exist_ok=True)
    root = copy_set(game, src)
    out = work / "base-out"
    outcome = build_set(load_set(root), out=out, fast=fast, seed=seed, jobs=jobs, render=False)
    return out, outcome


@dataclass
class Verdict:
    fixture: Fixture
    seed: int
    passed: bool
    failed: list[str]
    seconds: float
    change: Any

    @property
    def right(self) -> bool:
        return self.passed == (self.fixture.kind == "harmless")


def judge(fixture: Fixture, base_out: Path, work: Path, *, seed: int, fast: bool, jobs: int) -> Verdict:
    """Build the edited set change-aware against a copy of the baseline's output folder."""
    work.mkdir(parents=True, exist_ok=True)
    root = apply(fixture, work / "src")
    out = work / "out"
    shutil.copytree(base_out, out)
    started = time.perf_counter()
    try:
        card_set = load_set(root)
    except CardDataError as e:  # refused before a game, as `boneyard build` would be
        return Verdict(fixture, seed, False, [f"validate: {p}" for p in e.problems],
                       time.perf_counter() - started, None)
    outcome = build_set(card_set, out=out, fast=fast, seed=seed, jobs=jobs, render=False)
    took = time.perf_counter() - started
    gates = sorted(outcome.failed_gates(), key=lambda r: r.status != "fail")  # proof first, then undecided
    bad = [f"{r.run}:{r.metric.name if r.metric else r.gate.metric} {r.status}" for r in gates]
    return Verdict(fixture, seed, outcome.passed, bad, took, outcome.record.get("change"))
