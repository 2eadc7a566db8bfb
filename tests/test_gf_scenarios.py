"""Grave Feast scenarios (tests/scenarios/gf-*.yaml) run by `boneyard scenario`: the draft's four
worked examples and every rare ability hold, and a wrong fact, a bad card or an unreachable
position is reported at its line in the file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from boneyard.pipeline.cmd_scenario import run_scenario

from boneyard.errors import ScenarioError

SCENARIOS = Path(__file__).parent / "scenarios"
FEAST = sorted(SCENARIOS.glob("gf-*.yaml"))


def test_the_worked_examples_and_every_rare_ability_have_a_scenario():
    names = {f.stem for f in FEAST}
    examples = {"gf-example-three-to-the-graveyard", "gf-example-game-flow", "gf-example-cathy",
                "gf-example-steal-and-complete"}
    rares = {"gf-rare-devil-wife-permanent", "gf-rare-devil-wife-from-hand",
             "gf-rare-devil-wife-takes-a-preacher", "gf-rare-devil-wife-two-preachers-tails",
             "gf-rare-devil-wife-two-preachers-heads", "gf-rare-devil-wife-takes-the-exorcist",
             "gf-rare-explosion", "gf-rare-exorcist-from-hand", "gf-rare-exorcist-in-mash",
             "gf-rare-exorcist-self-loathing", "gf-rare-two-succubi-vs-exorcist",
             "gf-rare-lone-succubus-returns", "gf-rare-devil-wife-evil-preacher"}
    assert examples | rares <= names


def write(tmp_path, text):
    f = tmp_path / "s.yaml"
    f.write_text(text)
    return f


BASE = """game: grave-feast
players:
  - hand: [brains 3, brains 4, zombie, blood 1, vampire]
  - hand: [blood 9, blood 8, blood 7, brains 9, brains 8]
"""


def test_a_wrong_fact_is_reported_at_its_line(tmp_path):
    f = write(tmp_path, BASE + "steps:\n  - 'P1: start family brains 3-4'\n"
                               "expect:\n  players:\n    - families: [brains 3 4 5]\n")
    _, failed = run_scenario(f)
    assert failed == [f"{f}:9:17: expect.players[0].families: expected ['brains 3 4 5'], "
                      "got ['brains 3 4']"]


def test_the_printed_state_lists_the_moves_a_step_may_name(tmp_path):
    """Day of the Dead printed its decision's choices; Grave Feast printed none, so the only way
    to learn a move's text was a step that failed."""
    out, _ = run_scenario(write(tmp_path, BASE))
    legal = out["state"]["legal"]
    assert "start family brains 3-4" in " | ".join(legal), legal
    out, failed = run_scenario(write(tmp_path, BASE + f"steps:\n  - 'P1: {legal[-1]}'\n"))
    assert failed == [] and out["steps"][0]["did"].startswith("P1: ")


def test_a_scripted_coin_or_phrase_never_asked_for_is_a_failed_fact(tmp_path):
    """They were ignored without a word, so a scenario could not tell "no flip happened" from
    "my script decided it"."""
    f = write(tmp_path, BASE + "coins: [heads, tails]\nsteps:\n  - 'P1: start family brains 3-4'\n")
    _, failed = run_scenario(f)
    assert failed == [f"{f}:5:8: coins: 2 of the 2 scripted coin flips never happened (heads, "
                      "tails left): the game asked for 0 (remove them, or check the steps reach "
                      "what they were for)"]


def test_matchers_and_a_fact_after_a_step(tmp_path):
    f = write(tmp_path, BASE + "steps:\n  - 'P1: start family brains 3-4'\n"
                               "  - expect: {players: [{hand: {at_most: 2, absent: [zombie]}}]}\n")
    _, failed = run_scenario(f)
    assert len(failed) == 2 and all(":7:" in m for m in failed)
    assert "at most 2" in failed[0] and "absent ['zombie']" in failed[1]


def test_a_step_that_matches_no_move_names_the_legal_ones(tmp_path):
    f = write(tmp_path, BASE + "steps:\n  - 'P1: start family blood 1-2'\n")
    with pytest.raises(ScenarioError, match=r"s\.yaml:6:5: steps\[0\]: 0 legal moves match "
                                            r"'start family blood 1-2'; legal: .*discard"):
        run_scenario(f)
    f = write(tmp_path, BASE + "steps:\n  - 'P2: discard blood 9'\n")
    with pytest.raises(ScenarioError, match=r"steps\[0\]: P1 is to move, not P2"):
        run_scenario(f)


def test_setup_mistakes_are_located(tmp_path):
    f = write(tmp_path, BASE.replace("zombie, blood 1", "zombie, blood 10"))
    with pytest.raises(ScenarioError, match=r"s\.yaml:3:\d+: .*blood 10"):
        run_scenario(f)  # the schema-free name check of the engine, or the schema's pattern
    f = write(tmp_path, BASE + "    locked: [succubus]\n")
    with pytest.raises(ScenarioError, match=r"s\.yaml:5:14: players\[1\]\.locked\[0\]: no "
                                            r"'succubus' in this player's hand"):
        run_scenario(f)
    f = write(tmp_path, BASE + "switches: {no_such_switch: true}\n")
    with pytest.raises(ScenarioError, match=r"s\.yaml:5:\d+: unknown switch 'no_such_switch'"):
        run_scenario(f)
    # every settings problem at once, each where it is written (game.yaml's own schema)
    f = write(tmp_path, BASE + "switches: {no_such_switch: true}\nparams: {win_score: 0}\n")
    with pytest.raises(ScenarioError) as err:
        run_scenario(f)
    lines = str(err.value).splitlines()
    assert len(lines) == 2 and re.search(r"s\.yaml:6:\d+: params\.win_score must be at least 1", lines[0])
    assert re.search(r"s\.yaml:5:\d+: unknown switch 'no_such_switch'", lines[1])
    f = write(tmp_path, BASE.replace("  - hand: [blood 9", "  - families: [blood 3 x]\n    hand: [blood 9"))
    with pytest.raises(ScenarioError, match=r"s\.yaml:4:16: players item 2 families item 1 'blood 3 x'"):
        run_scenario(f)


def test_a_deal_the_deck_cannot_make_is_refused_as_validate_refuses_it(tmp_path):
    """8 players with hand_size 20 dealt hands of 14 and 13 without a word (game.yaml with the
    same numbers does not validate)."""
    f = write(tmp_path, "game: grave-feast\nstart: deal\nplayers: 8\nparams: {hand_size: 20}\n")
    with pytest.raises(ScenarioError) as err:
        run_scenario(f)
    assert str(err.value) == (f"{f}:4:21: params.hand_size: 108 cards cannot deal 20 to each of "
                              "8 players (add cards, or lower params.hand_size)")
    out, failed = run_scenario(write(tmp_path, f.read_text().replace("20", "13")))
    assert failed == [] and all(len(p["hand"]) == 13 for p in out["state"]["players"])


def test_scripted_coins_must_cover_every_flip(tmp_path):
    f = write(tmp_path, "game: grave-feast\nparams: {rares: true}\nplayers:\n"
                        "  - hand: [vampire, blood 8]\n    families: [blood 3 4 5]\n"
                        "    mash: [exorcist]\n  - hand: [blood 9]\n"
                        "steps:\n  - 'P1: attach vampire'\n")
    with pytest.raises(ScenarioError, match=r"steps\[0\]: a coin is flipped \(maelstrom: attach"):
        run_scenario(f)
    out, failed = run_scenario(write(tmp_path, f.read_text() + "coins: [heads]\n"))
    assert failed == [] and out["state"]["coins"] == ["heads"]


def test_an_unreachable_position_is_warned_about(tmp_path):
    f = write(tmp_path, BASE.replace("  - hand: [blood 9", "  - families: [blood 3 4 +zombie]\n"
                                                          "    hand: [blood 9"))
    out, failed = run_scenario(f)
    assert failed == []
    assert out["warnings"] == [f"{f}:4:16: players[1].families[0]: a blood family fed by the wrong "
                               "eater (a position the rules cannot reach)"]


def test_the_warning_is_said_with_a_later_step_that_fails(tmp_path):
    """A step that fails because the position is one the rules cannot reach said only the
    step's failure: the warning that names the cause was dropped."""
    f = write(tmp_path, BASE.replace("  - hand: [blood 9", "  - families: [blood 3 4 +zombie]\n"
                                                          "    hand: [blood 9")
              + "steps:\n  - 'P1: start family blood 1-2'\n")
    with pytest.raises(ScenarioError) as failed:
        run_scenario(f)
    lines = str(failed.value).splitlines()
    assert lines[0] == (f"warning: {f}:4:16: players[1].families[0]: a blood family fed by the "
                        "wrong eater (a position the rules cannot reach)")
    assert lines[1].startswith(f"{f}:7:5: steps[0]: 0 legal moves match") and len(lines) == 2


def test_copies_are_told_apart_by_their_copy_number(tmp_path):
    f = write(tmp_path, BASE.replace("blood 9, blood 8", "blood 9, blood 9")
              + "turn: 2\nsteps:\n  - 'P2: discard blood 9'\n")
    out, _ = run_scenario(f)
    assert out["steps"][0]["did"] == "P2: discard blood 9#1"  # either copy; the first is taken
    f2 = write(tmp_path, f.read_text().replace("'P2: discard blood 9'", "'P2: discard blood 9#2'")
               + "expect: {discard: [blood 9#2], players: [{}, {hand: {contains: [blood 9#1]}}]}\n")
    out, failed = run_scenario(f2)
    assert out["steps"][0]["did"] == "P2: discard blood 9#2" and failed == []
    f3 = write(tmp_path, f2.read_text().replace("discard: [blood 9#2]", "discard: [blood 9#1]"))
    _, failed = run_scenario(f3)
    assert len(failed) == 1 and "expected ['blood 9#1'], got ['blood 9#2']" in failed[0]
    f4 = write(tmp_path, BASE.replace("[blood 9, blood 8", "[blood 9#2, blood 9#2"))
    with pytest.raises(ScenarioError, match=r"s\.yaml:4:\d+: .*'blood 9#2' is placed twice"):
        run_scenario(f4)


def test_what_one_player_sees_hides_the_other_hands(tmp_path):
    f = write(tmp_path, BASE + "expect:\n  sees: {player: 2, hand_sizes: [5, 5], "
                               "hand: [blood 9, blood 8, blood 7, brains 9, brains 8]}\n")
    _, failed = run_scenario(f)
    assert failed == []
    f = write(tmp_path, BASE + "expect:\n  sees: {player: 2, hands: [[zombie]]}\n")
    _, failed = run_scenario(f)
    assert len(failed) == 1 and "P2 sees no 'hands'" in failed[0]  # another hand is never shown


def test_a_graveyard_and_the_removed_cards_name_copies_by_number(tmp_path):
    """``blood 9#2`` names one copy wherever a card is placed, the graveyard included."""
    head = ("game: grave-feast\nplayers:\n  - hand: [blood 9#1, blood 1, blood 2]\n"
            "    graveyard: [{}]\n    score: 1\n  - hand: [brains 9, brains 8]\n"
            "removed: [brains 1#2]\n")
    out, failed = run_scenario(write(tmp_path, head.format("blood 9#2")))
    assert failed == [] and out["state"]["players"][0]["graveyard"] == 1
    with pytest.raises(ScenarioError, match=r"graveyard\[0\]: no card 'blood 9#1' left"):
        run_scenario(write(tmp_path, head.format("blood 9#1")))  # that copy is in the hand
