"""``boneyard diff``: a change to the cards, playtested on the same seeds, shows what moved."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from boneyard.pipeline.build import config_for, write_record
from boneyard.pipeline.cli import cli
from boneyard.pipeline.diff import compare, describe, diff, moved
from boneyard.pipeline.load import load_set
from boneyard.pipeline.playtest import playtest
from click.testing import CliRunner

from boneyard.errors import BoneyardError

FIXTURES = Path(__file__).parent / "fixtures" / "sets"


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
                   cwd=repo, check=True, capture_output=True)


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    """A git repository holding the 'useless' fixture, then changed to the 'overpowered' one."""
    root = tmp_path_factory.mktemp("repo")
    folder = root / "sets" / "mine"
    shutil.copytree(FIXTURES / "dotd-useless", folder)
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "useless Oaf")
    shutil.copy(FIXTURES / "dotd-overpowered" / "characters.yaml", folder / "characters.yaml")
    return root, folder


def test_diff_against_a_git_revision_lists_the_changed_card_first(repo):
    _, folder = repo
    card_set = load_set(folder)
    before, after, moves = diff(card_set, "HEAD", games=300, jobs=1)
    assert before["content_hash"] != after["content_hash"]
    assert before["seed"] == after["seed"] and before["games"] == after["games"] == 300
    shown = moved(moves)
    assert shown and shown[0].name.startswith("card.oaf.")
    names = [m.name for m in shown]
    assert "card.oaf.sub_delta" in names
    sub = next(m for m in shown if m.name == "card.oaf.sub_delta")
    assert sub.before.value < 0.1 < 0.3 < sub.after.value
    line = describe(sub, {"oaf": "Overlord"})
    assert line.startswith("Overlord: win-rate change vs stand-in ") and " -> +" in line
    # the seat balance did not change, and the diff does not claim it did
    assert "first_priority_win_rate" not in names


def test_same_content_moves_nothing(repo, tmp_path):
    _, folder = repo
    card_set = load_set(folder)
    # a saved record of the current content, diffed against the current content: identical
    record = playtest(card_set, config_for(card_set, games=200, jobs=1))
    path = write_record(record, tmp_path)
    before, after, moves = diff(card_set, str(path), jobs=1)
    assert moves and not moved(moves)
    assert before["runs"][0]["metrics"] == after["runs"][0]["metrics"]
    assert after["games"] == 200  # the saved record's settings, not the set's own


def test_compare_uses_both_intervals():
    def rec(value, half):
        m = {"name": "x", "value": value, "low": value - half, "high": value + half, "n": 100,
             "group": "game", "subject": None, "unit": "%"}
        return {"runs": [{"label": "main", "metrics": [m], "strength": []}]}

    assert not moved(compare(rec(0.50, 0.03), rec(0.54, 0.03)))  # 4 points, +-4.2: not proven
    assert moved(compare(rec(0.50, 0.02), rec(0.56, 0.02)))  # 6 points, +-2.8: moved


def test_cli_diff_and_bad_revision(repo):
    _, folder = repo
    res = CliRunner().invoke(cli, ["diff", str(folder), "--against", "no-such-rev", "--games", "50"])
    assert isinstance(res.exception, BoneyardError)
    assert "not a git revision nor a playtest.json" in str(res.exception)
    res = CliRunner().invoke(cli, ["diff", str(folder), "--against", "HEAD", "--games", "200", "--jobs", "1"])
    assert res.exit_code == 0, res.output
    assert "moved beyond their intervals" in res.output and "Overlord:" in res.output
    assert "gate card.*.sub_delta on card.oaf.sub_delta: pass -> fail" in res.output
