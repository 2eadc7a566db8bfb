"""A whole-number parameter written as ``6.0`` is one located problem, never a crash.

JSON Schema counts 6.0 as an integer, so the cards used to be judged against ``turns: 6.0`` and
``range()`` raised a TypeError in every command that loads the set.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from boneyard.pipeline.cli import cli
from boneyard.pipeline.load import check_set
from click.testing import CliRunner

from boneyard.paths import CARDS


@pytest.mark.parametrize("game, line, fix", [
    ("day-of-the-dead", "  turns: 6 ", "params.turns must be a whole number, got 6.0 (write 6)"),
    ("day-of-the-dead", "  hand_per_back: 3 ", "params.hand_per_back must be a whole number, got 3.0"),
    ("grave-feast", "  min_family: 3 ", "params.min_family must be a whole number, got 3.0 (write 3)"),
])
def test_a_whole_number_written_with_a_point_is_one_located_problem(tmp_path: Path, game: str,
                                                                     line: str, fix: str) -> None:
    root = tmp_path / game
    shutil.copytree(CARDS / game, root)
    path = root / "game.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(line) == 1
    path.write_text(text.replace(line, line.rstrip() + ".0 "), encoding="utf-8")
    problems = check_set(root).problems
    assert len(problems) == 1, problems
    assert fix in str(problems[0]) and re.search(r"game\.yaml:\d+:\d+: ", str(problems[0]))
    for args in (["validate", str(root)], ["cards", str(root)]):
        r = CliRunner().invoke(cli, args)
        assert r.exit_code == 1 and isinstance(r.exception, (SystemExit, type(None))), r.output
        assert fix in r.output
