"""Scenario files get the card files' messages: file:line:column, the key or value named, a hint.

A scenario is typed by hand like a card file, so its mistakes read the same way, and a failed
choice or expectation points at the line in the scenario that states it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from boneyard.pipeline.cli import main

CONVERSION = Path(__file__).parent / "scenarios" / "rulebook-conversion-turn5.yaml"


def run(tmp_path: Path, capsys: pytest.CaptureFixture[str], old: str, new: str,
        name: str = CONVERSION.name) -> tuple[int, str]:
    """The scenario ``name`` of tests/scenarios with one edit, played: (exit code, stderr)."""
    text = (CONVERSION.parent / name).read_text()
    assert old in text
    f = tmp_path / "s.yaml"
    f.write_text(text.replace(old, new, 1))
    with pytest.raises(SystemExit) as done:
        main(["scenario", str(f)])
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return done.value.code, err.replace(str(f), "s.yaml")


@pytest.mark.parametrize("old, new, message", [
    ("turn: 5", "turn: five", "s.yaml:15:7: turn must be a whole number, got 'five'"),
    ("phase: fight", "phse: fight", "s.yaml:16:1: unknown key 'phse' (did you mean 'phase'?)"),
    ("[amber@double, bones@unearth", "[amber@dbl, bones@unearth",
     "s.yaml:21:12: players item 1 line item 1 'amber@dbl' is not valid: a card is written "
     "character@back, the back one of double, power_up, unearth (e.g. oaf@double; oaf@double#2 "
     "for the second copy)"),
    ("{id: amber, name: Amber, power: 4}", "{id: amber, name: Amber, power: 14}",
     "s.yaml:8:37: card 'amber': power must be at most 9, got 14"),
    ("actions: [convert crumb@power_up]", "actions: [convert crumb@double]",
     "s.yaml:25:11: actions[0]: choice 'convert crumb@double' is not legal for player 0 now"),
    ("{turn: 5, slot: 2, power: [6, 6]", "{turn: 5, slot: 2, power: [7, 6]",
     "s.yaml:39:34: expect fights[1].power[0]: expected 7, got 6"),
])
def test_scenario_mistakes_read_like_card_file_mistakes(tmp_path, capsys, old, new, message):
    code, err = run(tmp_path, capsys, old, new)
    assert code == 1
    assert message in err, err


def test_scenario_help_says_what_is_checked_and_where_the_format_is(capsys):
    with pytest.raises(SystemExit):
        main(["scenario", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "expect:" in out and "exit code is 1" in out
    assert "schema/scenario.schema.json" in out and "tests/scenarios/" in out


@pytest.mark.parametrize("old, new, message", [
    ("priority: 0", "priority: '0'",
     "s.yaml:19:11: priority must be one of: 0, 1; got '0' (remove the quotes)"),
    ("    spirit: fable@power_up\n", "    spirit: fable@power_up\n  - {}\n",
     "s.yaml:25:5: players must list at most 2 items, got 3 (remove 1)"),
])
def test_a_list_too_long_and_a_quoted_number_say_how_to_fix_them(tmp_path, capsys, old, new,
                                                                   message):
    code, err = run(tmp_path, capsys, old, new)
    assert code == 1
    assert message in err, err
    assert "[{" not in err and "did you mean" not in err  # no data dump, no hint to write it again


def test_a_grave_feast_family_not_written_right_says_how_to_write_one(tmp_path, capsys):
    f = tmp_path / "s.yaml"
    f.write_text("game: grave-feast\nplayers:\n  - families: [brains 3 4 +dragon]\n  - {}\n")
    with pytest.raises(SystemExit):
        main(["scenario", str(f)])
    err = capsys.readouterr().err
    assert "'brains 3 4 +dragon' is not valid: a family is its food and its numbers" in err, err
    assert "pattern" not in err


def test_a_grave_feast_set_named_by_its_folder_is_checked_as_grave_feast(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``set:`` as a folder's path plays that set's rules: the file is a Grave Feast scenario
    (not refused key by key as a Day of the Dead one, 'unknown key steps')."""
    folder = tmp_path / "my-feast"
    folder.symlink_to(Path(__file__).parents[1] / "cards" / "grave-feast")
    f = tmp_path / "s.yaml"
    body = "players: [{hand: [zombie]}, {hand: []}]\nturn: 1\n"
    f.write_text(f"set: my-feast\n{body}steps: ['P1: mash zombie']\n"
                 "expect: {players: [{mash: [zombie]}]}\n")
    with pytest.raises(SystemExit) as done:
        main(["scenario", str(f)])
    out = capsys.readouterr()
    assert done.value.code in (0, None) and "Traceback" not in out.err, out.err
    f.write_text(f"set: my-feast\n{body}steps: ['P1: fly away']\n")
    with pytest.raises(SystemExit) as done:
        main(["scenario", str(f)])
    err = capsys.readouterr().err.replace(str(f), "s.yaml")
    assert done.value.code == 1 and "unknown key" not in err and "character@back" not in err
    assert err.startswith("s.yaml:4:9: steps[0]: 0 legal moves match 'fly away'"), err


@pytest.mark.parametrize("name, old, new, message", [
    ("gf-deal.yaml", "seed: 5", "seed: -5", "s.yaml:8:7: seed must be at least 0, got -5"),
    ("dotd-deal.yaml", "seed: 7", "seed: -7", "s.yaml:8:7: seed must be at least 0, got -7"),
])
def test_a_negative_seed_is_refused_not_dealt_as_its_absolute_value(tmp_path, capsys, name, old,
                                                                     new, message):
    """seed: -5 dealt exactly what seed: 5 deals (so both passed the same expectations);
    simulate --seed refuses a negative seed, and so does a scenario now."""
    code, err = run(tmp_path, capsys, old, new, name)
    assert code == 1 and message in err, err


@pytest.mark.parametrize("name, old, new, said", [
    ("rulebook-conversion-turn5.yaml", "actions: [convert crumb@power_up]",
     "actions: [{expect: {turn: 9}}, convert nobody@power_up]",
     ["s.yaml:25:27: actions[0].expect.turn: expected 9, got 5",
      "s.yaml:25:32: actions[1]: choice 'convert nobody@power_up' is not legal"]),
    ("gf-example-cathy.yaml", "steps:\n", "steps:\n  - expect: {turn: 9}\n  - \"P1: fly away\"\n",
     ["expect.turn: expected 9, got 1", "0 legal moves match 'fly away'"]),
])
def test_an_expectation_that_failed_before_a_step_fails_is_said_too(tmp_path, capsys, name, old,
                                                                    new, said):
    """Only the failing step was printed: the expectation before it, which said why, was lost."""
    code, err = run(tmp_path, capsys, old, new, name)
    lines = err.splitlines()
    assert code == 1 and len(lines) == 2, lines
    assert all(want in line for want, line in zip(said, lines, strict=True)), lines


@pytest.mark.parametrize("name, old, new, message", [
    ("gf-example-cathy.yaml", '  - "P1: discard blood 7"', "  - P1: discard blood 7",
     "s.yaml:16:5: steps item 1 is read as the key 'P1' and its value, not as text (YAML takes "
     "a colon and a space as the end of a key) (put the whole item in quotes: "
     "\"P1: discard blood 7\")"),
    ("dotd-auto-results.yaml", '  - "player 1: no"', "  - {player 1: no}",  # and not also
     "s.yaml:15:5: actions item 2 is read as the key 'player 1' and its value, not as text "  # "missing
     "(YAML takes a colon and a space as the end of a key) (put the whole item in quotes: "  # expect"
     "\"player 1: ...\")"),
    ("gf-example-cathy.yaml", '  - "P1: discard blood 7"', "  - expct: discard",
     "s.yaml:16:5: unknown key 'expct' in steps item 1 (did you mean 'expect'?)"),
])
def test_a_step_with_a_colon_left_unquoted_says_to_quote_it(tmp_path, capsys, name, old, new,
                                                           message):
    """It said "unknown key 'P1' in steps item 1 (allowed here: expect)": true to YAML, but the
    designer wrote a step, not a key."""
    code, err = run(tmp_path, capsys, old, new, name)
    assert code == 1
    assert err.strip().splitlines() == [message], err
