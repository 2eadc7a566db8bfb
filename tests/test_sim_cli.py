"""`boneyard simulate` and `boneyard replay` as a designer runs them."""

from __future__ import annotations

import json

import pytest
from boneyard.pipeline.cli import cli
from click.testing import CliRunner


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def test_simulate_prints_figures_and_writes_report_and_log(tmp_path):
    report, log = tmp_path / "out" / "report.json", tmp_path / "games.jsonl"
    r = run("simulate", "day-of-the-dead", "-n", "30", "--agents", "greedy,random", "--seed", "4",
            "--json", str(report), "--log", str(log))
    assert r.exit_code == 0, r.output
    assert "30 games, 2 players, agents greedy,random, seed 4" in r.stdout
    for figure in ("seat 1", "greedy", "draw_rate", "first_priority_win_rate", "score_mean"):
        assert figure in r.stdout
    data = json.loads(report.read_text())
    assert data["games"] == 30 and data["agents"] == ["greedy", "random"]
    names = {m["name"] for m in data["metrics"]}
    assert {"seat.1.win_rate", "agent.greedy.win_rate", "draw_rate"} <= names
    lines = log.read_text().splitlines()
    assert len(lines) == 30
    rec = json.loads(lines[3])
    assert rec["game"] == 3 and rec["content_hash"] == data["content_hash"]
    assert rec["agents"] == ["random", "greedy"]  # seats rotate every game
    assert all(isinstance(a, int) for a in rec["actions"]) and len(rec["moves"]) == len(rec["actions"])
    assert not [p for p in tmp_path.rglob("*.tmp")]


def test_json_to_standard_output_is_the_report_alone(tmp_path, monkeypatch):
    """'--json -' wrote a file named '-' in the current folder."""
    monkeypatch.chdir(tmp_path)
    r = run("simulate", "day-of-the-dead", "-n", "6", "--agents", "random", "--json", "-",
            "--seed", "3")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)  # nothing but the JSON: no table around it
    assert data["games"] == 6 and data["seed"] == 3
    assert list(tmp_path.iterdir()) == []


def test_jobs_give_the_same_report(tmp_path):
    out = []
    for jobs in ("1", "2"):
        path = tmp_path / f"r{jobs}.json"
        r = run("simulate", "day-of-the-dead", "-n", "24", "--agents", "greedy", "--jobs", jobs,
                "--json", str(path))
        assert r.exit_code == 0, r.output
        out.append(path.read_bytes())
    assert out[0] == out[1]  # byte for byte: the report holds no timings


def test_replay_checks_and_prints_a_logged_game(tmp_path):
    log = tmp_path / "games.jsonl"
    assert run("simulate", "day-of-the-dead", "-n", "5", "--agents", "random,greedy", "--log",
               str(log)).exit_code == 0
    r = run("replay", str(log), "--game", "2")
    assert r.exit_code == 0, r.output
    rec = json.loads(log.read_text().splitlines()[2])
    assert r.stdout.startswith("game 2 of 'Day of the Dead'")
    for move in rec["moves"]:
        assert move in r.stdout
    assert "replay ok" in r.stdout

    # a log made on other card content is refused, naming both hashes
    rec["content_hash"] = "0000000000000000"
    bad = tmp_path / "other.jsonl"
    bad.write_text(json.dumps(rec) + "\n")
    r = run("replay", str(bad), "--game", "2")
    assert r.exit_code == 1
    assert "0000000000000000" in r.output and "re-run the simulation" in r.output

    # a log whose result differs from what the engine now does is refused
    rec = json.loads(log.read_text().splitlines()[2])
    rec["returns"] = [1.0 - x for x in rec["returns"]]
    bad.write_text(json.dumps(rec) + "\n")
    r = run("replay", str(bad), "--game", "2")
    assert r.exit_code == 1 and "returns" in r.output

    r = run("replay", str(log), "--game", "9")
    assert r.exit_code == 2 and "no game 9" in r.output
    broken = tmp_path / "broken.jsonl"
    broken.write_text("{not json\n")
    r = run("replay", str(broken))
    assert r.exit_code == 1 and f"{broken}:1:" in r.output


def test_show_prints_a_transcript():
    r = run("simulate", "day-of-the-dead", "-n", "3", "--agents", "greedy", "--show", "1")
    assert r.exit_code == 0, r.output
    assert "game 0 of 'Day of the Dead'" in r.stdout and "result: player 1:" in r.stdout
    assert "game 1 of" not in r.stdout


def test_switches_change_the_content_hash_and_replay_follows(tmp_path):
    log = tmp_path / "g.jsonl"
    r = run("simulate", "day-of-the-dead", "-n", "2", "--agents", "random", "--switch",
            "tie_break=chain", "--log", str(log))
    assert r.exit_code == 0, r.output
    rec = json.loads(log.read_text().splitlines()[0])
    assert rec["switches"]["tie_break"] == "chain"
    assert run("replay", str(log)).exit_code == 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agents", "alphago"], "unknown agent"),
        (["--agents", "greedy,random,random"], "3 agents, one for each seat, but Day of the Dead is played by 2 players"),
        (["--rares"], "is a Grave Feast option"),
        (["--switch", "nonsense=1"], "no such switch"),
        (["--switch", "tie_break"], "NAME=VALUE, e.g. --switch tie_break=draw"),  # the set's own
        (["--switch", "tie_brake=chain"], "no such switch (did you mean tie_break?"),
        (["--switch", "unearth_optional=7"], "expected true | false"),
        (["--switch", "tie_break=sudden_death"], "expected draw | chain"),
        (["--switch", "tie_break=chain", "--switch", "tie_break=draw"], "given twice"),
        (["--seed", "-1"], "Invalid value for '--seed': must be at least 0, got -1"),
        (["--seed", "abc"], "Invalid value for '--seed': 'abc' is not a whole number"),
        (["-n", "1e3"], "'1e3' is not a whole number (write 1000)"),
        (["-n", "10,000"], "'10,000' is not a whole number (write 10000)"),
        (["--agents", "greedy,"], "an empty agent between commas"),
        (["--jobs", "5000"], "Invalid value for '--jobs': must be from 1 to 1024, got 5000"),
        (["--scheduler", "udp://x:1"], "--scheduler (or BONEYARD_SCHEDULER) udp://x:1: only tcp://"),
    ],
)
def test_bad_options_are_one_clear_message(args, message):
    r = run("simulate", "day-of-the-dead", "-n", "2", *args)
    assert r.exit_code in (1, 2)
    assert message in r.output
    assert "Traceback" not in r.output


@pytest.mark.parametrize("value", ["2", "-0.5"])
def test_a_switch_value_out_of_the_schemas_range_is_a_usage_error_naming_the_range(value):
    """race_p=2 reached the engine and came back as exit 1 without naming --switch."""
    r = run("simulate", "grave-feast", "-n", "2", "--switch", f"race_p={value}")
    assert r.exit_code == 2, r.output
    assert f"--switch race_p={value}: expected a value from 0 to 1" in r.output
    assert "Traceback" not in r.output


def test_a_fraction_for_a_whole_number_switch_is_a_usage_error():
    """max_eaters_per_family=1.5 passed as a number and came back from the engine as exit 1,
    "grave-feast switch max_eaters_per_family: ...", without naming --switch."""
    r = run("simulate", "grave-feast", "-n", "2", "--switch", "max_eaters_per_family=1.5")
    assert r.exit_code == 2, r.output
    assert "--switch max_eaters_per_family=1.5: expected a whole number" in r.output


def test_a_replay_that_fails_says_where_and_what_differs(tmp_path):
    log = tmp_path / "games.jsonl"
    assert run("simulate", "day-of-the-dead", "-n", "2", "--agents", "random", "--log", str(log),
               "--quiet").exit_code == 0
    first, rec = (json.loads(line) for line in log.read_text().splitlines())
    bad_switch = dict(rec, switches=dict(rec["switches"], tie_break="sudden_death"))
    bad_summary = dict(rec, summary=dict(rec["summary"], winner=7))
    for tampered, message in ((bad_switch, "'sudden_death' is not one of"),
                              (bad_summary, "another summary than the log: winner: replay")):
        path = tmp_path / "one.jsonl"
        path.write_text(json.dumps(first) + "\n" + json.dumps(tampered) + "\n")
        r = run("replay", str(path), "--game", "1")
        assert r.exit_code == 1 and "Traceback" not in r.output
        assert f"{path}:2: game 1: " in r.output and message in r.output, r.output


@pytest.mark.parametrize("game", ["day-of-the-dead", "grave-feast"])
def test_a_replay_of_an_edited_log_says_what_was_edited(tmp_path, game):
    """An edited move was replayed "ok" (the moves were never read); an edited seed said only
    that the first action is not legal; a set that is not here was a usage error with no line."""
    log = tmp_path / "games.jsonl"
    assert run("simulate", game, "-n", "1", "--agents", "random", "--log", str(log),
               "--quiet").exit_code == 0
    rec = json.loads(log.read_text())
    path = tmp_path / "one.jsonl"
    moved = dict(rec, moves=["a move nobody made", *rec["moves"][1:]])
    path.write_text(json.dumps(moved) + "\n")
    r = run("replay", str(path))
    assert r.exit_code == 1 and f"{path}:1: game 0: move #1 is logged as 'a move nobody made', " \
        f"but its action ({rec['actions'][0]}) is {rec['moves'][0]!r} here" in r.output, r.output
    n = len(rec["agents"])
    for agents, said in ((["gate"], f"the log names 1 agent(s) for a {n}-player game"),
                         ([*rec["agents"][1:], "wizard"], "the log's agents: unknown agent 'wizard'")):
        path.write_text(json.dumps(dict(rec, agents=agents)) + "\n")
        r = run("replay", str(path))
        assert r.exit_code == 1 and f"{path}:1: game 0: {said}" in r.output, r.output
    elsewhere = dict(rec, slug="no-such-set", root=str(tmp_path / "gone"))
    path.write_text(json.dumps(elsewhere) + "\n")
    r = run("replay", str(path))
    assert r.exit_code == 1 and r.output.startswith(f"{path}:1: the log's set is not here: ")
    assert r.output.rstrip().endswith("(give the set with --set)") and "Traceback" not in r.output


def test_a_replay_whose_seed_was_edited_says_the_deal_differs(tmp_path):
    log = tmp_path / "games.jsonl"
    assert run("simulate", "day-of-the-dead", "-n", "1", "--agents", "random", "--log", str(log),
               "--quiet").exit_code == 0
    rec = json.loads(log.read_text())
    path = tmp_path / "one.jsonl"
    for seed in range(rec["seed"] + 1, rec["seed"] + 50):  # a deal where action 1 is not legal
        path.write_text(json.dumps(dict(rec, seed=seed)) + "\n")
        r = run("replay", str(path))
        if "is not legal here" in r.output:
            break
    assert r.exit_code == 1 and "the deal from the logged seed is not the one these actions " \
        "were chosen in: was the seed edited" in r.output, r.output


def test_a_bad_boneyard_check_value_is_refused_not_read_as_off(monkeypatch):
    monkeypatch.setenv("BONEYARD_CHECK", "maybe")
    r = run("simulate", "day-of-the-dead", "-n", "2", "--agents", "random", "--quiet")
    assert r.exit_code == 1 and "BONEYARD_CHECK='maybe'" in r.output and "Traceback" not in r.output


def test_a_replay_on_another_games_set_names_both_games(tmp_path):
    log = tmp_path / "games.jsonl"
    assert run("simulate", "day-of-the-dead", "-n", "2", "--agents", "random", "--log", str(log),
               "--quiet").exit_code == 0
    r = run("replay", str(log), "--game", "1", "--set", "grave-feast")
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert r.output.count("\n") == 1, r.output
    assert r.output.startswith(f"{log}:2: game 1 is a game of Day of the Dead (set "
                               "day-of-the-dead), but --set grave-feast plays Grave Feast: ")
    assert "replay it on a Day of the Dead set" in r.output and "switch(es)" not in r.output


def test_a_record_edited_to_a_negative_game_is_said_to_be_damaged(tmp_path):
    log = tmp_path / "g.jsonl"
    assert run("simulate", "day-of-the-dead", "-n", "2", "-q", "--log", str(log)).exit_code == 0
    lines = log.read_text().splitlines()
    rec = json.loads(lines[1])
    rec["game"] = -1
    bad = tmp_path / "bad.jsonl"
    bad.write_text(lines[0] + "\n" + json.dumps(rec) + "\n")
    r = run("replay", str(bad), "--game", "1")
    assert r.exit_code == 1, r.output
    assert f"{bad}:2:2: a damaged game record: 'game' is -1, but the games of a run are " \
           "numbered from 0" in r.output, r.output
    assert "holds games" not in r.output
    rec.pop("game")
    bad.write_text(json.dumps(rec) + "\n")
    r = run("replay", str(bad))
    assert r.exit_code == 1 and "holds no numbered games" in r.output, r.output


@pytest.mark.parametrize("game,players,says", [
    ("day-of-the-dead", "5", "--players 5: Day of the Dead is a 2-player game (give --players 2"),
    ("grave-feast", "9", "--players 9: Grave Feast is for 2 to 8 players (give --players 2 to 8"),
])
def test_a_player_count_the_game_cannot_seat_is_a_usage_error_before_any_game(tmp_path, game, players, says):
    report = tmp_path / "r.json"
    r = run("simulate", game, "-n", "5", "--players", players, "--json", str(report))
    assert r.exit_code == 2 and says in r.output and not report.exists()


def test_several_agents_seat_that_many_players_unless_players_says_otherwise(tmp_path):
    report = tmp_path / "r.json"
    r = run("simulate", "grave-feast", "-n", "2", "--agents", "greedy,random,gate", "--json", str(report))
    assert r.exit_code == 0, r.output
    assert json.loads(report.read_text())["num_players"] == 3  # not Grave Feast's default of 4
    r = run("simulate", "grave-feast", "-n", "2", "--agents", "greedy,random,gate", "--players", "4")
    assert r.exit_code == 2 and "3 agents for --players 4 (give 4 agents" in r.output, r.output
    r = run("simulate", "grave-feast", "-n", "2", "--agents", ",".join(["greedy"] * 9))
    assert r.exit_code == 2 and "Grave Feast is played by 2 to 8 players" in r.output, r.output


def test_a_groups_subjects_share_its_columns():
    """The card table has a column a figure and the coverage table one column of counts: before,
    every coverage item was a column of its own, a diagonal table too wide to read."""
    from boneyard.engine.sim import simulate
    from boneyard.pipeline.cmd_sim import metric_tables
    from boneyard.pipeline.load import load_set

    res = simulate(load_set("grave-feast"), ["random"], 4, 1, jobs=1, options={"rares": True})
    tables = {str(t.title).split(" (")[0]: t for t in metric_tables(res.metrics)}
    coverage = tables["coverage"]
    assert [str(c.header) for c in coverage.columns] == ["coverage", "fired"]
    assert coverage.row_count == sum(1 for m in res.metrics if m.group == "coverage")
    flips = next(m for m in res.metrics if m.name == "fired.ability.coin_flip")
    assert f"{flips.value:,.0f}" in [str(c) for c in coverage.columns[1]._cells]
    card = tables["card"]
    assert [str(c.header) for c in card.columns] == ["card", "in_winning_feast_rate"]


def test_piped_figures_are_printed_whole():
    """Piped to a file, no figure, column name or interval is cut short with an ellipsis."""
    r = run("simulate", "day-of-the-dead", "-n", "20", "-q")
    assert r.exit_code == 0, r.output
    assert "…" not in r.output
    assert "win_rate_not_played" in r.output and "effect_fired" in r.output


def test_a_log_joined_from_two_runs_refuses_a_game_number_it_holds_twice(tmp_path):
    """`cat a.jsonl b.jsonl`: game 1 of which run? Replaying the first silently may be the wrong
    one; the same record twice (a log copied onto itself) is still one game."""
    logs = []
    for seed in ("1", "2"):
        log = tmp_path / f"s{seed}.jsonl"
        assert run("simulate", "day-of-the-dead", "-n", "2", "--agents", "random", "--seed", seed,
                   "--log", str(log), "--quiet").exit_code == 0
        logs.append(log.read_text())
    joined = tmp_path / "joined.jsonl"
    joined.write_text(logs[0] + logs[1])
    r = run("replay", str(joined), "--game", "1")
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert r.output.startswith(f"{joined}:4:1: a second, different game 1 (the first is on line "
                               "2): the file holds more than one run's log"), r.output
    twice = tmp_path / "twice.jsonl"
    twice.write_text(logs[0] + logs[0])
    r = run("replay", str(twice), "--game", "1")
    assert r.exit_code == 0 and "replay ok: game 1" in r.output, r.output


def test_a_log_whose_set_now_plays_another_game_gives_advice_that_applies(tmp_path):
    """Without --set, "leave out --set" is no advice: say what the set says now."""
    log = tmp_path / "g.jsonl"
    assert run("simulate", "day-of-the-dead", "-n", "1", "--agents", "random", "--log", str(log),
               "--quiet").exit_code == 0
    rec = json.loads(log.read_text())
    rec["rules"] = "grave-feast"
    log.write_text(json.dumps(rec, separators=(",", ":")) + "\n")
    r = run("replay", str(log))
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert r.output.startswith(f"{log}:1: game 0 is a game of Grave Feast, but the set "
                               "day-of-the-dead now plays Day of the Dead (its game.yaml says "
                               "rules: day-of-the-dead; the log was written when it said "
                               "grave-feast): replay it on a Grave Feast set with --set"), r.output
    assert "leave out --set" not in r.output


def test_a_log_to_standard_output_is_refused_not_a_file_named_dash(tmp_path, monkeypatch):
    """`--json -` is standard output; `--log -` quietly wrote a file named '-'."""
    monkeypatch.chdir(tmp_path)
    r = run("simulate", "day-of-the-dead", "-n", "2", "--log", "-")
    assert r.exit_code == 2 and "the log is a file" in r.output
    assert list(tmp_path.iterdir()) == []
