"""A third game is one folder plus one registry line: Prize duel (tests/toy/) goes through
validate, simulate, build and render from the CLI, and passes the conformance check, without
any shared module knowing it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from boneyard.engine import games
from boneyard.engine.conformance import check_game
from boneyard.pipeline.cli import cli
from boneyard.pipeline.load import check_set, load_set
from click.testing import CliRunner
from toy.spec import SPEC

SET = Path(__file__).parent / "toy" / "set"


@pytest.fixture(autouse=True)
def toy_registered():
    games.register(SPEC)  # the one registry line
    yield
    games._SPECS.pop(SPEC.name, None)
    games.GAMES.pop(SPEC.name, None)


def _run(*args: str):
    res = CliRunner().invoke(cli, list(args))
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    return res


def test_validate_reads_the_toy_set_through_its_spec():
    res = _run("validate", str(SET))
    assert res.exit_code == 0, res.output
    assert "ok: Prize Duel is valid" in res.output
    assert load_set(SET).prizes[0].value == 1


def test_validate_reports_the_toy_games_own_problems_located(tmp_path):
    folder = tmp_path / "bad"
    shutil.copytree(SET, folder)
    text = (folder / "cards.yaml").read_text()
    (folder / "cards.yaml").write_text(text.replace("id: c2,", "id: c1,").replace("value: 9", "value: 99"))
    problems = [str(p).removeprefix(str(folder) + "/") for p in check_set(folder).problems]
    assert problems[0].startswith("cards.yaml:3:8: card 'c1': duplicate id 'c1'")  # the game's check
    assert problems[1] == "cards.yaml:10:33: card 'c9': value must be at most 20, got 99"  # schema
    res = _run("validate", str(folder))
    assert res.exit_code == 1


def test_simulate_runs_the_toy_game(tmp_path):
    out = tmp_path / "r.json"
    res = _run("simulate", str(SET), "-n", "60", "--agents", "greedy,random", "--jobs", "1",
               "--json", str(out), "-q")
    assert res.exit_code == 0, res.output
    report = json.loads(out.read_text())
    assert report["games"] == 60 and report["rules"] == "toy"
    names = {m["name"] for m in report["metrics"]}
    assert "rounds_mean" in names and "first_player_win_rate" in names


def test_build_gates_and_renders_the_toy_game(tmp_path):
    out = tmp_path / "out"
    res = _run("build", str(SET), "--fast", "--jobs", "1", "--out", str(out))
    assert res.exit_code == 0, res.output
    record = json.loads((out / "set" / "playtest.json").read_text())
    assert record["passed"] is True
    assert any(out.glob("set/*.pdf"))


def test_render_draws_the_toy_faces(tmp_path):
    out = tmp_path / "out"
    res = _run("render", str(SET), "--format", "png", "--out", str(out), "--force")
    assert res.exit_code == 0, res.output
    assert len(list((out / "set").rglob("*.png"))) >= 10


def test_the_toy_game_passes_the_conformance_check():
    assert check_game(SPEC, load_set(SET), range(20), num_players=3) > 0
