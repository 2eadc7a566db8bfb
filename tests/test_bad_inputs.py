"""Inputs a designer can get wrong (issue 18): a whole number written as a float, NaN and
infinities, sizes that would exhaust memory or processes, and report targets that are not new
regular files, each refused where it is written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from boneyard.engine.agents import AgentSpecError, parse_spec
from boneyard.pipeline.cli import cli
from boneyard.pipeline.load import check_set
from click.testing import CliRunner

from boneyard.paths import CARDS


def _edited(tmp_path, name, file, old, new):
    folder = tmp_path / name
    shutil.copytree(CARDS / name, folder)
    text = (folder / file).read_text()
    assert old in text
    (folder / file).write_text(text.replace(old, new, 1))
    return [str(p).removeprefix(f"{folder}/") for p in check_set(folder).problems]


@pytest.mark.parametrize("name, file, old, new, where, says", [
    ("day-of-the-dead", "characters.yaml", "power: 7", "power: 7.0", "characters.yaml:",
     "must be a whole number"),
    ("grave-feast", "deck.yaml", "copies: 2", "copies: 2.0", "deck.yaml:", "write 2"),
    ("grave-feast", "game.yaml", "coin_p_heads: 0.5", "coin_p_heads: .nan", "game.yaml:",
     "is not a number a card set can use"),
    ("grave-feast", "game.yaml", "race_p: 0.5", "race_p: .inf", "game.yaml:",
     "is not a number a card set can use"),
    ("grave-feast", "game.yaml", "games: 400", "games: 1000000000000", "game.yaml:",
     "at most 10000000"),
])
def test_a_bad_number_is_refused_at_its_place(tmp_path, name, file, old, new, where, says):
    problems = _edited(tmp_path, name, file, old, new)
    assert len(problems) == 1 and problems[0].startswith(where) and says in problems[0], problems


def test_an_mcts_budget_past_the_limit_is_a_usage_error():
    assert parse_spec("mcts:99999") == ("mcts", 99999)
    with pytest.raises(AgentSpecError, match="from 1 to 99999"):
        parse_spec("mcts:1000000")


@pytest.mark.parametrize("spec", ["mcts:", "gate:", "greedy: "])
def test_an_agent_spec_ending_in_a_colon_is_refused_not_taken_as_the_default(spec):
    with pytest.raises(AgentSpecError, match="nothing after the ':'"):
        parse_spec(spec)


@pytest.mark.parametrize("spec, said", [
    ("gate:nonsense", "the gate's only variant is gate:fast (write 'gate' or 'gate:fast')"),
    ("greedy:3", "only mcts takes a budget (write 'greedy')"),
])
def test_an_agent_spec_with_a_wrong_variant_says_what_the_agent_takes(spec, said):
    """gate:nonsense was told "only mcts takes a budget", though gate:fast is an agent."""
    with pytest.raises(AgentSpecError) as err:
        parse_spec(spec)
    assert str(err.value) == f"agent '{spec}': {said}"


def test_jobs_beyond_the_cores_are_capped_with_a_note():
    res = CliRunner().invoke(cli, ["simulate", "day-of-the-dead", "-n", "20", "--jobs", "1000",
                                   "--agents", "random", "-q"])
    assert res.exit_code == 0, res.output
    assert "note: --jobs 1000 is more than the" in res.output


@pytest.mark.parametrize("args, says", [
    (["--json", ""], "--json: give a file name"),
    (["--json", "/dev/null"], "not a regular file"),
    (["--json", "same.json", "--log", "same.json"], "the same file as --json"),
])
def test_report_targets_must_be_new_regular_files(tmp_path, monkeypatch, args, says):
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(cli, ["simulate", "day-of-the-dead", "-n", "5", *args])
    assert res.exit_code == 2 and says in res.output, res.output
    assert not (tmp_path / "same.json").exists()


def test_a_back_defined_twice_is_one_located_problem(tmp_path):
    problems = _edited(tmp_path, "day-of-the-dead", "game.yaml",
                       '  - {id: unearth, name: Unearth,', '  - {id: double, name: Unearth,')
    assert any(p.startswith("game.yaml:13:") and "back 'double' is defined twice (each back once)" in p
               for p in problems), problems


def test_a_card_file_that_is_a_fifo_is_named_as_such(tmp_path):
    import os

    folder = tmp_path / "gf"
    shutil.copytree(CARDS / "grave-feast", folder)
    (folder / "deck.yaml").unlink()
    os.mkfifo(folder / "deck.yaml")
    problems = [str(p).removeprefix(f"{folder}/") for p in check_set(folder).problems]
    assert any("card file 'deck.yaml' is not a regular file" in p for p in problems), problems


@pytest.mark.parametrize("target, says", [
    ("/proc/version", "--json /proc/version: cannot be written, the folder /proc takes no new files"),
    ("afile/report.json", "--json afile/report.json: cannot be written, afile is a file, not a folder"),
])
def test_a_report_that_cannot_be_written_is_refused_before_any_game(tmp_path, monkeypatch,
                                                                     target, says):
    from boneyard.pipeline import cmd_sim

    if target.startswith("/proc") and not Path(target).is_file():
        pytest.skip("no /proc here")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "afile").write_text("x")
    played = []
    monkeypatch.setattr(cmd_sim, "simulate", lambda *a, **kw: played.append(1))
    res = CliRunner().invoke(cli, ["simulate", "day-of-the-dead", "-n", "5", "--json", target])
    assert res.exit_code == 2 and not played, res.output
    assert says in " ".join(res.output.split()) and "No such file" not in res.output, res.output


def test_a_report_in_a_folder_not_made_yet_is_still_written(tmp_path):
    out = tmp_path / "new" / "report.json"
    res = CliRunner().invoke(cli, ["simulate", "day-of-the-dead", "-n", "5", "-q", "--jobs", "1",
                                   "--json", str(out)])
    assert res.exit_code == 0 and out.is_file(), res.output
    assert sorted(p.name for p in out.parent.iterdir()) == ["report.json"]


@pytest.mark.parametrize("file, old, new, where", [
    ("characters.yaml", "name: Anger", "name: An\u202eger", "characters.yaml:92:9: "),
    ("game.yaml", "why: six turns", "why: six \u2067turns", "game.yaml:80:12: "),
])
def test_an_invisible_bidi_control_is_refused_where_it_is_written(tmp_path, file, old, new, where):
    """A right-to-left override makes a name or a gate's why read otherwise in the terminal,
    the report and on the card than in the file."""
    problems = _edited(tmp_path, "day-of-the-dead", file, old, new)
    assert len(problems) == 1 and problems[0].startswith(where), problems
    assert "U+202E RIGHT-TO-LEFT OVERRIDE at character 3" in problems[0] or "U+2067" in problems[0]
    assert "delete it" in problems[0]


def test_an_empty_template_says_what_it_needs(tmp_path):
    folder = tmp_path / "day-of-the-dead"
    shutil.copytree(CARDS / "day-of-the-dead", folder)
    (folder / "template.yaml").write_text("")
    r = CliRunner().invoke(cli, ["validate", str(folder)])
    assert r.exit_code == 1
    assert f"{folder}/template.yaml:1:1: file is empty (it needs at least layouts:; a bundled " \
        "set's file of that name shows one)" in r.output


def test_an_option_several_commands_share_takes_the_same_values_and_words_in_each():
    """--jobs took 1-64 in diff and watch but 1-1024 in build and simulate, play's --seed took
    the negative numbers the others refuse, and diff's --fast and watch's --out said less."""
    import click

    numbers: dict[str, dict[str, tuple[object, ...]]] = {}
    helps: dict[str, dict[str, str]] = {}
    for name, command in cli.commands.items():
        for p in command.params:
            if not isinstance(p, click.Option):
                continue
            flag = max(p.opts, key=len)
            if isinstance(p.type, click.IntRange | click.FloatRange) or p.type in (click.INT, click.FLOAT):
                numbers.setdefault(flag, {})[name] = (type(p.type).__name__, getattr(p.type, "min", None),
                                                      getattr(p.type, "max", None))
            folder = flag == "--out" and isinstance(p.type, click.Path) and not p.type.file_okay
            if flag == "--fast" or folder:  # (export's --out is a file: its own words)
                helps.setdefault(flag, {})[name] = (p.help or "").split(";")[0]
    assert numbers["--jobs"].keys() >= {"simulate", "build", "diff", "watch"}
    assert numbers["--seed"].keys() >= {"simulate", "build", "play"}
    for flag, per_command in numbers.items():
        assert len(set(per_command.values())) == 1, (flag, per_command)
    assert helps["--fast"].keys() == {"build", "diff"} and helps["--out"].keys() == {"build", "render", "watch"}
    for flag, per_command in helps.items():
        assert len(set(per_command.values())) == 1, (flag, per_command)
