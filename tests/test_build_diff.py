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


def test_diff_against_another_copy_of_the_set_folder(tmp_path):
    # two copies side by side, no git: the copy is the old version, played paired like a revision
    old, new = tmp_path / "useless", tmp_path / "mine"
    shutil.copytree(FIXTURES / "dotd-useless", old)
    shutil.copytree(FIXTURES / "dotd-overpowered", new)
    before, after, moves = diff(load_set(new), str(old), games=300, jobs=1)
    assert before["content_hash"] == load_set(old).content_hash != after["content_hash"]
    shown = moved(moves)
    assert shown and shown[0].name.startswith("card.oaf.")
    sub = next(m for m in shown if m.name == "card.oaf.sub_delta")
    assert sub.before.value < 0.1 < 0.3 < sub.after.value
    with pytest.raises(BoneyardError, match="the set's own folder"):
        diff(load_set(new), str(new), games=20, jobs=1)


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
    assert "not a git revision, a set folder nor a playtest.json" in str(res.exception)
    res = CliRunner().invoke(cli, ["diff", str(folder), "--against", "HEAD", "--games", "200", "--jobs", "1"])
    assert res.exit_code == 0, res.output
    assert "moved beyond their intervals" in res.output and "Overlord:" in res.output
    assert "gate card.*.sub_delta on card.oaf.sub_delta: pass -> fail" in res.output


# --- a quick look is quick; an unusable REF is one located message, never a traceback ---------


def run_main(args, capsys):
    """``boneyard ARGS`` as the console script runs it: (exit code, stdout, stderr)."""
    from boneyard.pipeline.cli import main

    with pytest.raises(SystemExit) as done:
        main(args)
    out = capsys.readouterr()
    return done.value.code, out.out, out.err


def test_games_bounds_every_part_of_the_run():
    from boneyard.pipeline.diff import bounded, plan

    card_set = load_set(Path(__file__).parents[1] / "cards" / "day-of-the-dead")
    full = config_for(card_set, jobs=1)
    assert full.substitution_games > 5 and full.strength_games > 5  # the profile plays more
    cfg = bounded(config_for(card_set, jobs=1, games=5), 5)
    assert cfg.games == cfg.cap == 5
    assert cfg.substitution_games <= 5 and cfg.strength_games <= 5 and cfg.strength_rival_games <= 5
    assert cfg.substitution_cap == 0
    line = plan(cfg, card_set)
    assert "5 games per run" in line and "5 paired games for each of" in line
    assert "5 agent-strength games" in line
    # without --games the profile's sizes stand
    assert bounded(full, None).substitution_games == full.substitution_games


def test_games_bounds_the_paired_games_per_card(repo, capsys):
    _, folder = repo
    before, after, _ = diff(load_set(folder), "HEAD", games=12, jobs=1)
    for rec in (before, after):
        sub = next(m for m in rec["runs"][0]["metrics"] if m["name"] == "card.oaf.sub_delta")
        assert sub["n"] <= 12  # the profile's 80 paired games are not played
    code, out, err = run_main(["diff", str(folder), "--against", "HEAD", "--games", "12", "--jobs", "1"], capsys)
    assert code == 0, err
    assert "each version plays 12 games per run (1 run), 12 paired games for each of 1 card\n" in err


def test_a_broken_old_version_is_named_by_revision_and_path(tmp_path, capsys):
    folder = tmp_path / "sets" / "mine"
    shutil.copytree(FIXTURES / "dotd-useless", folder)
    cards = folder / "characters.yaml"
    good = cards.read_text()
    lines = good.splitlines(keepends=True)
    assert lines[12] == "  power: 0\n"
    lines[12] = "  power: zero\n"
    cards.write_text("".join(lines))
    git(tmp_path, "init", "-q")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "broken")
    cards.write_text(good)
    code, out, err = run_main(["diff", str(folder), "--against", "HEAD", "--games", "5", "--jobs", "1"], capsys)
    assert code == 1 and "Traceback" not in err
    assert "the old version of the set (revision HEAD) has a problem" in err
    assert "HEAD:sets/mine/characters.yaml:13:10: " in err and "'zero'" in err
    assert "boneyard-diff-" not in err and str(tmp_path) not in err.split("\n", 1)[1]


def test_outside_git_and_unknown_revisions_say_what_to_do(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))  # none above tmp_path
    folder = tmp_path / "d1"
    shutil.copytree(FIXTURES / "dotd-useless", folder)
    code, _, err = run_main(["diff", str(folder), "--against", "HEAD", "--games", "5"], capsys)
    assert code == 1 and err.count("\n") == 1 and "rev-parse" not in err and "fatal" not in err
    assert "is not in a git repository" in err and "playtest.json" in err and "git init" in err
    # a repository with no commits, then one whose commits lack the set's folder
    git(tmp_path, "init", "-q")
    code, _, err = run_main(["diff", str(folder), "--against", "HEAD", "--games", "5"], capsys)
    assert code == 1 and err.count("\n") == 1 and "no commits yet" in err
    (tmp_path / "README").write_text("x\n")
    git(tmp_path, "add", "README")
    git(tmp_path, "commit", "-q", "-m", "readme")
    code, _, err = run_main(["diff", str(folder), "--against", "HEAD", "--games", "5"], capsys)
    assert code == 1 and err.count("\n") == 1
    assert "the set's folder d1/ is not in revision HEAD" in err
    code, _, err = run_main(["diff", str(folder), "--against", "nosuchref", "--games", "5"], capsys)
    assert code == 1 and err.count("\n") == 1
    assert "no revision 'nosuchref'" in err and "git log --oneline" in err
    code, _, err = run_main(["diff", str(folder), "--against", "gone.json", "--games", "5"], capsys)
    assert code == 1 and "--against gone.json: no such file" in err


def _shaped_record(**fields):
    """The least a playtest record holds (record.schema.json), with ``fields`` over it."""
    record = {"format": 1, "tool": "boneyard 0", "content_hash": "0" * 16, "config_hash": "0" * 16,
              "code_hash": "0" * 16, "profile": "default", "games": 5, "config": {"gates": []},
              "runs": [{"label": "main", "metrics": [{"name": "x", "value": 1.0, "low": 0.5,
                                                      "high": 1.5, "n": 5}]}],
              "gates": [], "passed": True, "gates_passed": 0, "gates_total": 0,
              "signature": "0" * 64, "rules": "day-of-the-dead", "set": "mine", "seed": 1}
    record.update(fields)
    return record


def test_a_damaged_or_foreign_record_is_one_message_before_any_game(tmp_path, capsys):
    import json

    folder = tmp_path / "mine"
    shutil.copytree(FIXTURES / "dotd-useless", folder)
    cases = {
        "cut.json": ('{"format": 1, "config": {"ga', "not a playtest record (not JSON: "),
        "noruns.json": (json.dumps({"config": {}}), "it has no 'content_hash', 'runs'"),
        "metric.json": (json.dumps(_shaped_record(runs=[{"label": "main", "metrics": [{"name": "x"}]}])),
                        "a damaged playtest record (its runs or gates cannot be read"),
        "empty.json": (json.dumps(_shaped_record(runs=[])),  # "No metric moved": compared nothing
                       "a damaged playtest record (its runs or gates cannot be read: ValueError "
                       "it holds no runs)"),
        "emptyobj.json": (json.dumps(_shaped_record(runs={})), "it holds no runs"),
        "feast.json": (json.dumps(_shaped_record(rules="grave-feast", set="grave-feast")),
                       "a playtest record of Grave Feast (set 'grave-feast'), not of Day of the Dead"),
        "cut.txt": ("{", "not a playtest record (not JSON: "),
    }
    for name, (text, said) in cases.items():
        (tmp_path / name).write_text(text)
        code, out, err = run_main(["diff", str(folder), "--against", str(tmp_path / name),
                                   "--games", "2", "--jobs", "1"], capsys)
        assert code == 1 and "Traceback" not in err, (name, err)
        assert err.startswith(f"{tmp_path / name}: ") and said in err, (name, err)
        assert err.count("\n") == 1 and "each version plays" not in err, (name, err)
        assert "a playtest.json that `boneyard build` wrote" in err or "its own game" in err
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "playtest.json").write_text("{}")
    code, _, err = run_main(["diff", str(folder), "--against", str(tmp_path / "out")], capsys)
    assert code == 1 and f"--against {tmp_path / 'out' / 'playtest.json'}" in err


def test_an_empty_against_is_a_usage_error_not_a_revision_named_nothing():
    r = CliRunner().invoke(cli, ["diff", "day-of-the-dead", "--against", "", "--games", "2"])
    assert r.exit_code == 2 and "give a git revision (HEAD~1, a tag), a copy of the set's folder or a playtest.json" in r.output
