"""Issue 18 item 10 / issue 15 item 4: an engine's message about a value the scenario names (an
unknown switch, an unknown card) is located at that value, file:line:col, in both games."""

from __future__ import annotations

from pathlib import Path

import pytest
from boneyard.pipeline.cmd_scenario import run_scenario

from boneyard.errors import ScenarioError

FIGHT = Path(__file__).parent / "scenarios" / "rulebook-fight.yaml"


def test_day_of_the_dead_unknown_switch_and_card_are_located(tmp_path):
    text = FIGHT.read_text()
    f = tmp_path / "s.yaml"
    f.write_text(text.replace("\nturn: 1\n", "\nswitches: {no_such: true}\nturn: 1\n", 1))
    line = f.read_text().splitlines().index("switches: {no_such: true}") + 1
    with pytest.raises(ScenarioError, match=rf"s\.yaml:{line}:12: unknown switch 'no_such'"):
        run_scenario(f)
    f.write_text(text.replace("line: [oaf@double]", "line: [oafx@double]"))
    with pytest.raises(ScenarioError, match=r"s\.yaml:\d+:\d+: .*no card 'oafx@double'"):
        run_scenario(f)


def test_grave_feast_unknown_card_is_located(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text("game: grave-feast\nplayers:\n  - hand: [blood 3, exorcist]\n  - hand: [blood 4]\n")
    with pytest.raises(ScenarioError, match=r"s\.yaml:3:\d+: .*no card 'exorcist' in this set "
                                            r"\(the rares are in the deck only with params: "
                                            r"\{rares: true\}\)"):
        run_scenario(f)  # no rares in the deck: there is no Exorcist to place
    f.write_text("game: grave-feast\nplayers:\n  - hand: [blood 3]\n  - hand: [blod 4]\n")
    with pytest.raises(ScenarioError, match=r"s\.yaml:4:12: players\[1\]\.hand\[0\]: no card 'blod 4' in "
                                            r"this set "
                                            r"\(did you mean 'blood 4'"):
        run_scenario(f)


def test_day_of_the_dead_position_mistakes_are_located_at_their_key(tmp_path):
    f = tmp_path / "s.yaml"
    head = "characters:\n  - {id: oaf, name: Oaf, power: 7}\n  - {id: ann, name: Ann, power: 3}\n"
    cases = [
        ("turn: 1\nphase: fight\nslot: 5\nplayers:\n  - {line: [oaf@double], spirit: oaf@unearth}"
         "\n  - {line: [ann@double], spirit: ann@unearth}\n", r"s\.yaml:6:7: slot: slot 5 is outside"),
        ("turn: 1\nphase: start\ndecks: {double: [oaf@unearth]}\nplayers: [{}, {}]\n",
         r"s\.yaml:6:18: decks\.double\[0\]: oaf@unearth cannot lie in the double deck"),
        ("turn: 1\nphase: fight\nplayers:\n  - {line: [oaf@double], spirit: oaf@unearth}\n"
         "  - {line: [], spirit: ann@unearth}\n", r"s\.yaml:8:12: players\[1\]\.line: both lines"),
    ]
    for body, message in cases:
        f.write_text(head + body)
        with pytest.raises(ScenarioError, match=message):
            run_scenario(f)
    f.write_text("phase: deal\nend_turn: 9\n")  # the bundled set's deal
    with pytest.raises(ScenarioError, match=r"s\.yaml:2:11: end_turn: end_turn 9 is outside 1\.\.6"):
        run_scenario(f)


def test_a_hand_that_runs_out_is_located_not_an_engine_crash(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text("characters:\n  - {id: oaf, name: Oaf, power: 7}\n  - {id: ann, name: Ann, power: 3}\n"
                 "turn: 1\nphase: start\nplayers:\n  - {hand: [oaf@double, oaf@power_up]}\n"
                 "  - {hand: [ann@double, ann@power_up]}\n"
                 "actions: ['player 0: fighter oaf@double', 'player 1: fighter ann@double', "
                 "'player 1: no']\n")
    with pytest.raises(ScenarioError, match=r"s\.yaml:9:\d+: actions\[2\]: player 0 has no card "
                                            r"left to play on turn 2 .*end_turn: 1"):
        run_scenario(f)
    f.write_text("turn: 1\nphase: start\nplayers: [{}, {}]\n")  # the bundled set, empty hands
    with pytest.raises(ScenarioError, match=r"s\.yaml:3:\d+: players\[0\]\.hand: player 0 has "
                                            r"no card left to play on turn 1"):
        run_scenario(f)


def test_grave_feast_card_placed_too_often_is_located_where_it_runs_out(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text("game: grave-feast\nplayers:\n  - hand: [blood 1]\n"
                 "    families: [blood 1 2, blood 1 3]\n  - {}\n")
    with pytest.raises(ScenarioError, match=r"s\.yaml:4:27: players\[0\]\.families\[1\]: no card "
                                            r"'blood 1' left in the deck"):
        run_scenario(f)


def test_grave_feast_sees_of_a_seat_that_does_not_play_is_a_failed_fact(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text("game: grave-feast\nplayers: [{hand: [blood 1]}, {}]\n"
                 "expect: {sees: {player: 5, hand_sizes: [1, 0]}}\n")
    out, failed = run_scenario(f)
    assert failed == [f"{f}:3:{len('expect: {sees: {player: ') + 1}: expect.sees.player: "
                      "P5 does not play (seats P1..P2)"]


def test_set_not_there_or_of_another_game_is_located_at_set(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text("set: no-such-set\nturn: 1\nphase: start\nplayers: [{}, {}]\n")
    with pytest.raises(ScenarioError, match=r"s\.yaml:1:6: set: no-such-set: no such card set"):
        run_scenario(f)
    f.write_text("game: grave-feast\nset: day-of-the-dead\nplayers: [{}, {}]\n")
    with pytest.raises(ScenarioError, match=r"s\.yaml:2:6: set 'day-of-the-dead' plays "
                                            r"day-of-the-dead, but the scenario says game: "
                                            r"grave-feast"):
        run_scenario(f)


def test_a_scenario_of_the_other_game_is_one_message(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text(FIGHT.read_text().replace("\nturn: 1\n", "\ngame: grave-feast\nturn: 1\n", 1))
    with pytest.raises(ScenarioError) as err:
        run_scenario(f)
    assert len(str(err.value).splitlines()) == 1, str(err.value)
    assert "is written as a Day of the Dead scenario" in str(err.value)
    assert "write game: day-of-the-dead" in str(err.value)
