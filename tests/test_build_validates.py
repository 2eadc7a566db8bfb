"""``build`` and ``watch`` stop on every problem ``validate`` reports, whatever they skip.

They used to check a subset: ``watch --once --no-render`` called a set with a broken template
"valid" (exit 0), ``build --no-render`` played it, passed it and kept it as its last pass, and
``watch`` never looked for a misspelt gate. Both now ask :func:`boneyard.pipeline.set_checks.
set_problems`, validate's own checks, and say the same located lines.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from boneyard.pipeline import build as build_mod
from boneyard.pipeline import cmd_build
from boneyard.pipeline.load import check_set, load_set
from boneyard.pipeline.set_checks import set_problems
from test_validate import _edited as edited

from boneyard.paths import CARDS

GAME = "grave-feast"


def _edited(tmp_path: Path, file: str, *edits: tuple[str, str]) -> Path:
    """A copy of the bundled Grave Feast with each (old, new) replaced once in ``file``."""
    return edited(tmp_path, GAME, file, *edits)


def _negative_width(tmp_path: Path) -> Path:
    return _edited(tmp_path, "template.yaml", ("{name: panel, type: rect, x: 7, y: 7, w: 166",
                                               "{name: panel, type: rect, x: 7, y: 7, w: -100"))


def _linked_template(tmp_path: Path) -> Path:
    root = _edited(tmp_path, "game.yaml")
    (root / "template.yaml").rename(tmp_path / "elsewhere.yaml")
    (root / "template.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    return root


def _emoji_name(tmp_path: Path) -> Path:
    return _edited(tmp_path, "rares.yaml", ("  name: Devil Wife\n", '  name: "Devil Wife \U0001f480"\n'))


def _misspelt_gate(tmp_path: Path) -> Path:
    return _edited(tmp_path, "game.yaml", ("    - metric: seat_win_spread\n",
                                           "    - metric: seat_win_sprad\n"))


def _fast_profile_cap(tmp_path: Path) -> Path:
    return _edited(tmp_path, "game.yaml", ("      cap: 1600\n", "      cap: 100\n"))


BROKEN = {  # the card data loads (check_set is ok): only validate's later checks find these
    "negative width": (_negative_width, "w -100 pt is out of range"),
    "template linked from outside": (_linked_template, "leaves the set folder through a symlink"),
    "character no font has": (_emoji_name, "has no glyph for '\U0001f480'"),
    "misspelt gate": (_misspelt_gate, "did you mean 'seat_win_spread'?"),
    "fast profile": (_fast_profile_cap, "playtest.profiles.fast.cap: 100 is below games"),
}


def _validate_lines(run, root: Path) -> list[str]:
    res = run("validate", root)
    assert res.exit_code == 1, res.output
    lines = res.stderr.splitlines()
    assert lines[0].startswith("Grave Feast: ") and lines[-1] == "1 of 1 set invalid", lines
    return lines[1:-1]


@pytest.fixture
def no_build(monkeypatch):
    """Fails the test if a set reaches build_set (any game, record or last pass)."""
    def boom(*_a, **_k):
        raise AssertionError("build_set was called for a set validate rejects")

    monkeypatch.setattr(cmd_build, "build_set", boom)


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_watch_once_exits_1_with_validates_lines_whatever_it_skips(run, tmp_path, case):
    make, said = BROKEN[case]
    root = make(tmp_path)
    assert check_set(root).ok  # the card data itself is fine
    expected = _validate_lines(run, root)
    assert any(said in line for line in expected), expected
    for skip in (["--no-render", "--no-playtest"], ["--no-render"]):
        res = run("watch", root, "--once", "--no-page", *skip, "--out", tmp_path / "out")
        assert res.exit_code == 1, (skip, res.output)
        n = len(expected)
        assert f"cycle 1: {n} problem{'s' if n != 1 else ''}" in res.stdout, res.output
        shown = [line[2:] for line in res.stdout.splitlines() if line.startswith("  ")]
        assert shown == expected, (skip, res.output)
        assert "valid, content" not in res.stdout and "playtest (fast)" not in res.stdout


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_build_refuses_before_any_game_with_validates_lines(run, tmp_path, no_build, case):
    make, _said = BROKEN[case]
    root = make(tmp_path)
    expected = _validate_lines(run, root)
    out = tmp_path / "out"
    res = run("build", root, "--fast", "--no-render", "--out", out)
    assert res.exit_code == 1, res.output
    lines = res.stderr.splitlines()
    assert lines[1:-1] == expected, res.output
    assert lines[-1].startswith("not built: Grave Feast: fix the problems above"), res.output
    assert not out.exists()  # nothing played, written or kept as the last pass


def test_a_problem_of_the_profile_not_built_still_stops_the_build(run, tmp_path, no_build):
    """validate checks every profile; a build without --fast used to check the default only."""
    root = _fast_profile_cap(tmp_path)
    res = run("build", root, "--no-render", "--out", tmp_path / "out")
    assert res.exit_code == 1 and "profiles.fast.cap: 100 is below games" in res.stderr, res.output
    assert not (tmp_path / "out").exists()


def test_one_invalid_set_stops_the_build_of_all_before_any_game(run, tmp_path, no_build):
    root = _negative_width(tmp_path)
    res = run("build", "day-of-the-dead", root, "--fast", "--no-render", "--out", tmp_path / "out")
    assert res.exit_code == 1, res.output
    assert "w -100 pt is out of range" in res.stderr
    assert "not built: Grave Feast: fix" in res.stderr and "Day of the Dead" not in res.stderr
    assert not (tmp_path / "out").exists()


def test_a_valid_set_is_still_valid_to_watch(run, tmp_path):
    res = run("watch", CARDS / GAME, "--once", "--no-page", "--no-render", "--no-playtest")
    assert res.exit_code == 0, res.output
    assert "cycle 1: valid, content" in res.stdout and "problem" not in res.output


def test_the_gate_trial_is_not_played_again_for_a_print_only_edit(tmp_path, monkeypatch):
    """watch checks the gates on every save: a flavor-text edit replays no trial; an edit of
    game.yaml does (its lines are what the messages point at)."""
    root = _misspelt_gate(tmp_path)
    played: list[int] = []
    real = build_mod.playtest

    def counted(*a, **k):
        played.append(1)
        return real(*a, **k)

    monkeypatch.setattr(build_mod, "playtest", counted)
    first = set_problems(load_set(root))
    assert played and any("seat_win_sprad" in line for line in first[0])
    played.clear()
    rares = root / "rares.yaml"
    text = rares.read_text(encoding="utf-8")
    assert text.count("flavor: ") >= 1
    rares.write_text(text.replace("flavor: ", "flavor: Still ", 1), encoding="utf-8")
    again = set_problems(load_set(root))
    assert again == first and played == []
    game = root / "game.yaml"
    game.write_text("# a comment moves every line down\n" + game.read_text(encoding="utf-8"),
                    encoding="utf-8")
    moved = set_problems(load_set(root))
    assert played and moved != first
    assert [line.replace(":140:", ":139:") for line in moved[0]] == first[0]
