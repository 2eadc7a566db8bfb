"""Bad command-line input gets one clear message and a non-zero exit, never a traceback and
never a file written over: an output path that is one of the set's own files, a print-sheet
gutter that leaves one card a page, a diff against a set of another game, a replay log naming
an unknown game."""

from __future__ import annotations

import json
import os
import shutil
import subprocess

import pytest

from boneyard.errors import RenderError
from boneyard.paths import CARDS


@pytest.fixture
def dotd(tmp_path):
    """A private copy of Day of the Dead (called S, as a designer's own set would be)."""
    return shutil.copytree(CARDS / "day-of-the-dead", tmp_path / "S")


def _snapshot(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


# --- 1. an output path that is one of the set's own files -----------------------------------


@pytest.mark.parametrize(("option", "name", "role"), [
    ("--log", "game.yaml", "its game.yaml"),
    ("--json", "characters.yaml", "its card file characters.yaml"),
    ("--json", "template.yaml", "its template.yaml"),
])
def test_simulate_refuses_to_write_over_a_file_of_the_set(run, dotd, option, name, role):
    """`simulate S --log S/game.yaml` replaced the settings with a JSON log, exit 0."""
    before = _snapshot(dotd)
    res = run("simulate", dotd, "-n", "2", "--agents", "random", "--jobs", "1", "-q",
              option, dotd / name)
    assert res.exit_code == 2, res.output
    what = "the log" if option == "--log" else "the report"
    assert f"{option} {dotd / name}: that is one of the set's own files ({role}); write {what} " \
           "elsewhere (e.g. " in res.stderr
    assert "output/S/" in res.stderr and "Traceback" not in res.output
    assert res.stderr.count("\n") == 1  # one message
    assert _snapshot(dotd) == before  # nothing written, nothing left beside it


def test_the_same_file_by_another_name_is_refused_too(run, dotd, tmp_path):
    """A path through '..' or a hard link is still the card file."""
    before = _snapshot(dotd)
    res = run("simulate", dotd, "-n", "2", "--agents", "random", "--jobs", "1", "-q", "--json",
              f"{dotd}/../S/characters.yaml")
    assert res.exit_code == 2 and "its card file characters.yaml" in res.stderr
    os.link(dotd / "game.yaml", tmp_path / "linked.yaml")
    res = run("simulate", dotd, "-n", "2", "--agents", "random", "--jobs", "1", "-q", "--log",
              tmp_path / "linked.yaml")
    assert res.exit_code == 2 and "(its game.yaml)" in res.stderr
    assert _snapshot(dotd) == before


def test_art_and_a_broken_set_are_kept_as_well(run, dotd):
    """The art a card names is the set's too; a set that does not load (its game.yaml broken)
    keeps its YAML files all the same, said before its problems."""
    from PIL import Image

    (dotd / "art").mkdir()
    Image.new("RGB", (750, 1050), "white").save(dotd / "art" / "nemesis.png")
    text = (dotd / "characters.yaml").read_text()
    (dotd / "characters.yaml").write_text(text.replace(
        "  name: Nemesis\n", "  name: Nemesis\n  art: art/nemesis.png\n", 1))
    before = _snapshot(dotd)
    res = run("simulate", dotd, "-n", "2", "--agents", "random", "--jobs", "1", "-q", "--json",
              dotd / "art" / "nemesis.png")
    assert res.exit_code == 2 and "(art/nemesis.png, which its cards name)" in res.stderr
    (dotd / "game.yaml").write_text("name: [unclosed\n")
    res = run("simulate", dotd, "-n", "2", "--agents", "random", "--jobs", "1", "-q", "--json",
              dotd / "characters.yaml")
    assert res.exit_code == 2 and "one of the set's own files" in res.stderr
    assert _snapshot(dotd) == {**before, "game.yaml": b"name: [unclosed\n"}


def test_a_set_without_its_own_template_keeps_the_bundled_one(root):
    """It prints with its game's bundled template: that file is the set's too (checked on the
    list, not by a run that would write over the bundled template if it failed)."""
    from boneyard.pipeline.files import own_files

    folder = root / "tests" / "fixtures" / "sets" / "dotd-useless"
    assert not (folder / "template.yaml").exists()
    kept = {path.resolve(): role for path, role in own_files(folder).values()}
    bundled = (CARDS / "day-of-the-dead" / "template.yaml").resolve()
    assert kept[bundled].startswith("the template it prints with, ")
    assert kept[(folder / "game.yaml").resolve()] == "its game.yaml"
    assert kept[(folder / "characters.yaml").resolve()] == "its card file characters.yaml"


def test_a_new_file_in_the_set_folder_is_fine(run, dotd):
    """Only the set's own files are refused: a log kept beside them may be written again."""
    for _ in range(2):
        res = run("simulate", dotd, "-n", "2", "--agents", "random", "--jobs", "1", "-q",
                  "--log", dotd / "games.jsonl")
        assert res.exit_code == 0, res.output
    assert len((dotd / "games.jsonl").read_text().splitlines()) == 2


def test_play_refuses_a_log_that_is_a_card_file(run, dotd, monkeypatch):
    """'Save' read the card file, added a JSON line and wrote it back over the cards."""
    from boneyard.pipeline import cmd_play

    served: list[object] = []
    monkeypatch.setattr(cmd_play, "serve", lambda *a, **k: served.append(a))  # never a server
    before = _snapshot(dotd)
    res = run("play", dotd, "--no-open", "--port", "0", "--log", dotd / "characters.yaml")
    assert res.exit_code == 2, res.output
    assert f"--log {dotd / 'characters.yaml'}: that is one of the set's own files (its card " \
           "file characters.yaml); write the log elsewhere (e.g. " in res.stderr
    assert "play.log.jsonl" in res.stderr and not served and _snapshot(dotd) == before


def test_render_refuses_an_output_folder_that_is_the_set_folder(run, dotd):
    """--out the set's parent put the prints, whole folders of images replaced at once, in the
    set's own folder."""
    before = _snapshot(dotd)
    res = run("render", dotd, "--force", "--format", "pdf", "--out", dotd.parent)
    assert res.exit_code == 2, res.output
    assert f"--out {dotd.parent}: the prints would go to " in res.stderr
    assert "the set's own folder; write them elsewhere (leave out --out for " in res.stderr
    assert _snapshot(dotd) == before and "Traceback" not in res.output


@pytest.mark.parametrize("command", ["build", "render"])
def test_an_out_folder_that_is_the_sets_parent_is_refused_before_any_game(run, dotd, command):
    """--out the set's parent: reports, the record and image folders would go among its cards."""
    before = _snapshot(dotd)
    extra = ["--fast"] if command == "build" else ["--force", "--format", "pdf"]
    res = run(command, dotd, *extra, "--out", dotd.parent)
    assert res.exit_code == 2, res.output
    assert "the set's own folder; write them elsewhere (leave out --out for " in res.stderr
    assert _snapshot(dotd) == before and "Traceback" not in res.output


# --- 2. a print-sheet gutter that leaves one card a page ------------------------------------


def test_a_gutter_that_leaves_one_card_a_page_is_refused():
    from boneyard.pipeline.render.sheets import plan_sheet
    from boneyard.pipeline.render.units import CARD_SIZES, PT_PER_IN, CardSize, mm

    poker = CARD_SIZES["poker"]
    with pytest.raises(RenderError) as err:
        plan_sheet("letter", poker, gutter=99 * PT_PER_IN)
    assert str(err.value) == (
        "a 2514.6 mm --gutter leaves room for only one poker (63.5 x 88.9 mm) card a letter "
        "page, so it spaces no cards (at most 0.1 mm for 9 cards a page, 6.4 mm for 6, 76.4 mm "
        "for 4, 89.1 mm for 2; 3mm is usual, 0 butts them)")
    with pytest.raises(RenderError, match="at most 3.4 mm for 4 cards a page"):
        plan_sheet("letter", poker, gutter=mm(100), fold=True)
    assert plan_sheet("letter", poker, gutter=mm(5)).per_page == 6  # fewer cards: a choice
    assert plan_sheet("letter", poker, gutter=mm(89)).per_page == 2
    big = CardSize("big", mm(200), mm(250))  # one a page whatever the gutter
    assert plan_sheet("letter", big, gutter=mm(3)).per_page == 1
    with pytest.raises(RenderError, match="wider than the paper"):
        plan_sheet("letter", big, gutter=99 * PT_PER_IN)


def test_render_with_an_absurd_gutter_says_so_and_writes_nothing(run, dotd, tmp_path):
    """`--gutter 99in` made a 216-page PDF, one card a page, exit 0."""
    out = tmp_path / "out"
    res = run("render", dotd, "--force", "--format", "pdf", "--gutter", "99in", "--out", out)
    assert res.exit_code == 1, res.output
    assert res.stderr.startswith("a 2514.6 mm --gutter leaves room for only one poker")
    assert "Traceback" not in res.output and not list(out.rglob("*.pdf"))


@pytest.mark.parametrize("option", ["--gutter", "--printer-margin"])
def test_a_length_too_large_for_a_number_is_a_usage_error(run, dotd, tmp_path, option):
    """Four hundred digits overflowed to infinity: a traceback from the page layout."""
    res = run("render", dotd, "--force", "--format", "pdf", option, "9" * 400 + "mm",
              "--out", tmp_path / "out")
    assert res.exit_code == 2 and f"Invalid value for {option}: expected" in res.output
    assert "Traceback" not in res.output and not (tmp_path / "out").exists()


# --- 3. diff against a set of another game --------------------------------------------------


def test_diff_against_a_set_of_another_game_says_so(run, dotd, tmp_path):
    """It said "the old version: playtest.sensitivity.run: 'p2' is not a playtest run"."""
    other = shutil.copytree(CARDS / "grave-feast", tmp_path / "G")
    res = run("diff", dotd, "--against", other, "--games", "20", "--jobs", "1", "--fast")
    assert res.exit_code == 1, res.output
    assert res.stderr == (f"--against {other} is a Grave Feast set; {dotd} is Day of the Dead: "
                          f"compare versions of the same game (another copy of {dotd}, a git "
                          "revision where it is Day of the Dead, or its saved playtest.json)\n")


def test_diff_against_a_revision_of_another_game_says_so(run, tmp_path, monkeypatch):
    """The set was another game at the revision: the same mix-up, said the same way."""
    monkeypatch.chdir(tmp_path)
    shutil.copytree(CARDS / "grave-feast", tmp_path / "S")
    env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True, env=env)

    git("init", "-q")
    git("add", ".")
    git("commit", "-qm", "a feast")
    shutil.rmtree(tmp_path / "S")
    shutil.copytree(CARDS / "day-of-the-dead", tmp_path / "S")
    res = run("diff", "S", "--against", "HEAD", "--games", "20", "--jobs", "1", "--fast")
    assert res.exit_code == 1, res.output
    assert res.stderr.startswith("--against HEAD: at that revision the set was a Grave Feast "
                                 "set; S is Day of the Dead: compare versions of the same game")


# --- 4. a replay log naming an unknown game -------------------------------------------------


def test_replay_of_a_log_naming_an_unknown_game_lists_the_known_ones(run, tmp_path):
    """It said "replay it on a nope set"."""
    log = tmp_path / "games.jsonl"
    assert run("simulate", "day-of-the-dead", "-n", "1", "--agents", "random", "--jobs", "1",
               "-q", "--log", log).exit_code == 0
    rec = json.loads(log.read_text())
    rec["rules"] = "nope"
    log.write_text(json.dumps(rec) + "\n")
    for extra in ((), ("--set", "day-of-the-dead")):
        res = run("replay", log, *extra)
        assert res.exit_code == 1, res.output
        assert res.stderr == (
            f"{log}:1: game 0 names an unknown game, rules: \"nope\" (known games: "
            "day-of-the-dead (Day of the Dead), grave-feast (Grave Feast)); the line was edited "
            "or written by another version of Boneyard: use the line as simulate --log wrote "
            "it, or simulate the set again\n")
