"""Shared fixtures: the repository root, the bundled card sets and the console script."""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Every simulated game in the suite runs with the engines' invariant checks (simulate --check):
# cards conserved, legal moves, scores in bounds, at every step. Workers inherit it.
os.environ.setdefault("BONEYARD_CHECK", "1")


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


class Result:
    """What a designer sees of one command: its exit code, standard output and error."""

    def __init__(self, code: int, out: str, err: str) -> None:
        self.exit_code, self.stdout, self.stderr = code, out, err
        self.output = out + err


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Callable[..., Result]:
    """The console script's entry point (``boneyard.pipeline.cli.main``), so errors are
    reported, and exit codes given, the way a designer sees them."""
    from boneyard.pipeline.cli import main

    def invoke(*args: object) -> Result:
        with pytest.raises(SystemExit) as done:
            main([str(a) for a in args])
        cap = capsys.readouterr()
        return Result(int(done.value.code or 0), cap.out, cap.err)

    return invoke


class FastBuilds:
    """Each bundled set built once a session from scratch with the fast profile at seed 1 (no
    render): the from-scratch build that test_mistakes, test_record and test_render_cli all start
    from, so the suite pays for it once per set instead of once per module (25-45 s each).

    ``get(game)`` gives (the set's source copy, the output folder, whether it passed, its failed
    gates). Callers that change files copy the output folder first (``copy_out``): it is shared.
    """

    def __init__(self, tmp: pytest.TempPathFactory) -> None:
        self._tmp = tmp
        self._built: dict[str, tuple[Path, Path, bool, list[tuple[str, str]]]] = {}

    def get(self, game: str) -> tuple[Path, Path, bool, list[tuple[str, str]]]:
        if game not in self._built:
            from mistakes_support import baseline, failed_gates

            work = self._tmp.mktemp(f"fast-{game}")
            out, outcome = baseline(game, work, seed=1, fast=True, jobs=2)
            self._built[game] = (work / "base-src" / game, out, outcome.passed, failed_gates(outcome))
        return self._built[game]

    def copy_out(self, game: str, into: Path) -> Path:
        """A private copy of the set's output folder (``into/<game>``), asserting the build passed."""
        _src, out, passed, bad = self.get(game)
        assert passed, f"the unmodified {game} fails its gates from scratch: {bad}"
        shutil.copytree(out / game, into / game)
        return into


@pytest.fixture(scope="session")
def fast_builds(tmp_path_factory: pytest.TempPathFactory) -> FastBuilds:
    return FastBuilds(tmp_path_factory)
