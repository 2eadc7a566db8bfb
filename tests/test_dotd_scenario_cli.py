"""`boneyard scenario FILE` as a designer runs it: JSON out, clear messages for bad files."""

from __future__ import annotations

import json
from pathlib import Path

SCENARIOS = Path(__file__).parent / "scenarios"





def test_scenario_prints_the_resulting_state(run):
    r = run("scenario", str(SCENARIOS / "rulebook-fight.yaml"))
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["scores"] == [0, 3] and out["terminal"] is True
    assert out["players"][0]["spirit"] == "oaf@double"
    assert out["choices"] == [{"player": 0, "action": "convert oaf@double", "scores": [0, 3]}]


def test_a_scenario_that_starts_with_scores_narrates_what_the_rewards_add(run):
    """Started at 20:22 before turn 5, the turn's line is the gain, not the whole score."""
    r = run("scenario", str(SCENARIOS / "dotd-final-turn-bound.yaml"))
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    line = next(e for e in out["events"] if e.startswith("scores after turn 5"))
    a, b = out["scores"]
    assert f"player 1 {a} ({a - 20:+d}), player 2 {b} ({b - 22:+d})" in line


def test_scenario_on_the_bundled_set(run, tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(
        "turn: 1\nphase: reveal\nend_turn: 1\npriority: 1\n"
        "players:\n  - {line: [oaf@double], spirit: anger@power_up}\n"
        "  - {line: [nemesis@double], spirit: oaf@power_up}\n"
        "actions: ['no']\n"
        "expect: {fights: [{cards: [oaf@double, nemesis@double], won: [false, true]}]}\n"
    )
    r = run("scenario", str(f))
    assert r.exit_code == 0, r.output


def test_failed_expectation_exits_1(run, tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text((SCENARIOS / "rulebook-fight.yaml").read_text().replace("scores: [0, 3]", "scores: [5, 3]"))
    r = run("scenario", str(f))
    assert r.exit_code == 1
    assert "expect scores[0]: expected 5, got 0" in r.stderr


def test_a_hand_is_compared_in_any_order(run, tmp_path):
    """A hand was compared in the engine's order (a Dig put the drawn card last), so a hand
    written in another order failed though it held the same cards."""
    text = (SCENARIOS / "dotd-deal.yaml").read_text()
    dealt = "[bully@double, frost_wraith@double, ghost_fan@double, underdog@power_up,\n" \
            "                 old_bones@power_up"
    assert dealt in text
    f = tmp_path / "s.yaml"
    f.write_text(text.replace(dealt, "[old_bones@power_up, frost_wraith@double, ghost_fan@double, "
                                     "underdog@power_up,\n                 bully@double"))
    r = run("scenario", str(f))
    assert r.exit_code == 0, r.stderr
    f.write_text(text.replace("[bully@double, frost_wraith@double,", "[bully@double, oaf@double,"))
    r = run("scenario", str(f))
    assert r.exit_code == 1 and "(in any order)" in r.stderr, r.stderr


def test_bad_scenarios_give_one_clear_message(run, tmp_path):
    cases = {
        "players: [{line: [oaf@dubble]}, {}]\n": "s.yaml:1:",
        "players: [{line: [oaf@double]}, {line: [oaf@double]}]\n": "used more often than the set has it",
        "turn: 1\nphase: fight\nplayers: [{line: [oaf@double], spirit: anger@double}, "
        "{line: [anger@unearth], spirit: oaf@unearth}]\nactions: [convert titan@double]\n": "is not legal",
        "players: [\n": "YAML syntax error",
        "switches: {selection: sideways}\nplayers: [{}, {}]\n": "selection",
    }
    for text, needle in cases.items():
        f = tmp_path / "s.yaml"
        f.write_text(text)
        r = run("scenario", str(f))
        assert r.exit_code == 1, (text, r.output)
        assert needle in r.stderr, (text, r.stderr)
        assert "Traceback" not in r.output


def test_missing_file_is_a_usage_error(run, tmp_path):
    r = run("scenario", str(tmp_path / "nope.yaml"))
    assert r.exit_code == 2


def test_a_set_path_is_read_from_the_scenario_files_folder(run, tmp_path, monkeypatch):
    """As art paths are read from the set's folder: the scenario means the set beside it,
    wherever the command is run from; a bundled set's name still names that set."""
    import shutil

    from boneyard.paths import CARDS

    designs = tmp_path / "designs"
    shutil.copytree(CARDS / "day-of-the-dead", designs / "sets" / "my-dead")
    body = ("turn: 1\nphase: reveal\nend_turn: 1\npriority: 1\n"
            "players:\n  - {line: [oaf@double], spirit: anger@power_up}\n"
            "  - {line: [nemesis@double], spirit: oaf@power_up}\n"
            "actions: ['no']\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    for ref in ("sets/my-dead", "./sets/my-dead/game.yaml", "day-of-the-dead"):
        f = designs / "s.yaml"
        f.write_text(f"set: {ref}\n{body}")
        r = run("scenario", str(f))
        assert r.exit_code == 0, (ref, r.output)
    f.write_text(f"set: sets/no-such-set\n{body}")
    r = run("scenario", str(f))
    assert r.exit_code == 1 and r.stderr.startswith(f"{f}:1:6: set: sets/no-such-set: no such "
                                                    "card set"), r.output
