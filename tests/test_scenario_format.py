"""The sharper scenario format, the same for both games (issue 15 items 3 and 4): params, the
deal, what one player sees, facts after any step, the narrated events, matchers, one-option
choices listed or not, copies told apart, unreachable positions warned about, and every mistake
in a scenario file located at its line with what to write instead."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest
from boneyard.engine.dotd import DotdGame
from boneyard.engine.dotd.cards import dotd_set
from boneyard.engine.dotd.codes import D_SELECT
from boneyard.pipeline.cmd_scenario import run_scenario
from boneyard.pipeline.load import load_set

from boneyard.errors import ScenarioError

SCENARIOS = Path(__file__).parent / "scenarios"
ALL = sorted(SCENARIOS.glob("*.yaml"))
BOUND = SCENARIOS / "dotd-final-turn-bound.yaml"


@pytest.mark.parametrize("path", ALL, ids=lambda p: p.stem)
def test_shipped_scenarios_warn_exactly_when_the_rules_cannot_reach_them(path):
    out, failed = run_scenario(path)
    assert failed == []
    assert ("warnings" in out) == ("unreachable" in path.stem), out.get("warnings")


def test_every_feature_has_a_shipped_scenario_in_both_games():
    text = {p.stem: p.read_text() for p in ALL}
    for game, features in {
        "dotd": ("params:", "phase: deal", "sees:", "- expect:", "events:", "at_least", "#2",
                 "only option"),
        "gf": ("params:", "start: deal", "sees:", "- expect:", "events:", "at_least", "#2",
               "the only legal move"),
    }.items():
        mine = " ".join(t for stem, t in text.items() if stem.startswith(f"{game}-")
                        or (game == "dotd" and stem.startswith("rulebook-")))
        for feature in features:
            assert feature in mine, (game, feature)


def write(tmp_path: Path, text: str) -> Path:
    f = tmp_path / "s.yaml"
    f.write_text(text)
    return f


def edited(tmp_path: Path, old: str, new: str, src: Path = BOUND) -> Path:
    text = src.read_text()
    assert old in text
    return write(tmp_path, text.replace(old, new, 1))


def line_of(f: Path, needle: str) -> int:
    return next(i for i, t in enumerate(f.read_text().splitlines(), 1) if needle in t)


def test_a_step_naming_the_wrong_player_is_located_and_says_who_chooses(tmp_path):
    f = edited(tmp_path, '"player 0: spirit ivy@unearth"', '"player 1: spirit ivy@unearth"')
    with pytest.raises(ScenarioError, match=rf"s\.yaml:{line_of(f, 'player 1: spirit ivy')}:5: "
                                            r"actions\[1\]: player 0 chooses now, not player 1 "
                                            r"\(legal: 'spirit haze@unearth', 'spirit ivy@unearth'\)"):
        run_scenario(f)
    g = write(tmp_path, (SCENARIOS / "gf-deal.yaml").read_text().replace("P2: discard", "P3: discard"))
    with pytest.raises(ScenarioError, match=r"steps\[1\]: P2 is to move, not P3 \(legal: .*discard"):
        run_scenario(g)


def test_an_illegal_choice_is_located_and_lists_the_legal_ones(tmp_path):
    f = edited(tmp_path, '"player 0: spirit ivy@unearth"', '"player 0: spirit fable@double"')
    with pytest.raises(ScenarioError, match=r"s\.yaml:\d+:5: actions\[1\]: choice 'spirit "
                                            r"fable@double' is not legal for player 0 now "
                                            r"\(legal: 'spirit haze@unearth', 'spirit ivy@unearth'\)"):
        run_scenario(f)


def test_a_misspelt_matcher_is_refused_at_its_line_in_both_games(tmp_path):
    f = edited(tmp_path, "winner: 0", "winner: {at_leest: 0}")
    with pytest.raises(ScenarioError, match=rf"s\.yaml:{line_of(f, 'at_leest')}:\d+: unknown key "
                                            r"'at_leest'.*did you mean 'at_least'"):
        run_scenario(f)
    g = edited(tmp_path, "absent: [blood 9#1]", "abesnt: [blood 9#1]",
               SCENARIOS / "gf-format-only-option-and-copies.yaml")
    with pytest.raises(ScenarioError, match=r"s\.yaml:\d+:\d+: unknown key 'abesnt'.*'absent'"):
        run_scenario(g)
    # in a fact the schema leaves open, the engine says it
    h = edited(tmp_path, "terminal: true", "players: [{hand: {contian: [x]}}, {}]")
    _, failed = run_scenario(h)
    assert failed == [f"{h}:{line_of(h, 'contian')}:20: expect players[0].hand: unknown matcher "
                      "'contian' (did you mean 'contains'? matchers: contains, absent, at_least, "
                      "at_most)"]
    # in a list of values, even one of another length than the fact's: not "expected [{...}]"
    k = edited(tmp_path, "scores: [{at_least: 39}, {at_most: 40}]", "scores: [{at_leest: 39}]")
    _, failed = run_scenario(k)
    assert failed == [f"{k}:{line_of(k, 'at_leest')}:12: expect scores[0]: unknown matcher "
                      "'at_leest' (did you mean 'at_least'? matchers: contains, absent, at_least, "
                      "at_most)"]


def test_a_failed_matcher_and_a_fact_after_a_step_are_located(tmp_path):
    f = edited(tmp_path, "fights: {at_least: 5}", "fights: {at_least: 6}")
    _, failed = run_scenario(f)
    assert failed == [f"{f}:{line_of(f, 'at_least: 6')}:11: expect fights: expected at least 6, "
                      f"got {failed[0].split('got ', 1)[1]}"]
    # a list's length is the miss: said first, with a few of its items, not the whole list
    got = failed[0].split("got ", 1)[1]
    assert re.fullmatch(r"5 \(\{.*\}(, \.\.\. \d+ more)?\)", got), got
    g = edited(tmp_path, "hand: [giant@double, haze@power_up]", "hand: [giant@double]")
    _, failed = run_scenario(g)
    assert len(failed) == 1 and failed[0].startswith(
        f"{g}:{line_of(g, 'hand: [giant@double]')}:15: actions[3].expect.sees.hand: expected")


def test_params_are_checked_like_game_yaml(tmp_path):
    f = edited(tmp_path, "params: {turns: 5,", "params: {turnz: 5,")
    with pytest.raises(ScenarioError, match=rf"s\.yaml:{line_of(f, 'turnz')}:\d+: "
                                            r"unknown parameter 'turnz' \(did you mean 'turns'\?\)"):
        run_scenario(f)
    f = edited(tmp_path, "final_turn_free_back: false", "final_turn_free_back: 3")
    with pytest.raises(ScenarioError, match=r"params.final_turn_free_back must be true or false, got 3"):
        run_scenario(f)


def test_copies_out_of_range_and_twice_are_refused(tmp_path):
    src = SCENARIOS / "dotd-copies.yaml"
    f = edited(tmp_path, "line: [oaf@double#2]", "line: [oaf@double#3]", src)
    with pytest.raises(ScenarioError, match=r"s\.yaml:\d+:\d+: .*'oaf@double#3': the set has 2 "
                                            r"copies of oaf@double \(write oaf@double#1 \.\. #2\)"):
        run_scenario(f)
    f = edited(tmp_path, "line: [oaf@double#1]", "line: [oaf@double#2]", src)
    with pytest.raises(ScenarioError, match=r"'oaf@double#2' is placed twice"):
        run_scenario(f)


def test_the_deal_is_the_seeds_and_cannot_be_mixed_with_placed_cards(tmp_path):
    f = edited(tmp_path, "seed: 7", "seed: 7\npriority: 0", SCENARIOS / "dotd-deal.yaml")
    with pytest.raises(ScenarioError, match=r"s\.yaml:\d+:\d+: priority: phase deal .* write "
                                            r"phase: start, turn: 1"):
        run_scenario(f)
    other = edited(tmp_path, "seed: 7", "seed: 8", SCENARIOS / "dotd-deal.yaml")
    with pytest.raises(ScenarioError, match=r"actions\[1\]: choice 'fighter anger@power_up' is "
                                            r"not legal"):
        run_scenario(other)  # another seed, another deal
    g = edited(tmp_path, "start: deal\n", "", SCENARIOS / "gf-deal.yaml")
    with pytest.raises(ScenarioError, match=r"players: a number of players needs start: deal"):
        run_scenario(g)


def test_priority_that_does_not_alternate_is_warned_about(tmp_path):
    f = edited(tmp_path, "priority: 0\n", "priority: 0\nfirst_priority: 1\n")
    out, failed = run_scenario(f)
    assert failed == []
    assert out["warnings"] == [f"{f}:{line_of(f, 'priority: 0')}:11: priority: player 0 holds "
                               "it on turn 5, but priority passes every turn from player 1 "
                               "(first_priority) (a position the rules cannot reach)"]


def test_priority_that_does_not_alternate_is_reachable_where_an_effect_moves_the_counter(tmp_path):
    """DD-21: a set with a card that takes or gives the counter reaches any holder on any turn
    (Early Riser on turn 1 keeps it for player 1 on turn 2), so no warning."""
    f = edited(tmp_path, "priority: 0\n", "priority: 0\nfirst_priority: 1\n")
    f.write_text(f.read_text().replace("{id: amber, name: Amber, power: 4}",
                                       "{id: amber, name: Amber, power: 4, effect: [{take_priority: {}}]}"))
    out, failed = run_scenario(f)
    assert failed == [] and "warnings" not in out, out.get("warnings")


def test_the_warning_is_said_with_a_later_choice_that_fails(tmp_path):
    f = edited(tmp_path, "priority: 0\n", "priority: 0\nfirst_priority: 1\n")
    f = edited(tmp_path, '"player 0: spirit ivy@unearth"', '"player 0: spirit fable@double"', f)
    with pytest.raises(ScenarioError) as failed:
        run_scenario(f)
    lines = str(failed.value).splitlines()
    assert lines[0].startswith(f"warning: {f}:{line_of(f, 'priority: 0')}:11: priority: player 0 "
                               "holds it on turn 5") and len(lines) == 2
    assert "actions[1]: choice 'spirit fable@double' is not legal" in lines[1]


def _final_turn_options_differ(games: int, params: dict[str, int]) -> int:
    """Final-turn choices whose options change with final_turn_free_back (bench/dd04_final_turn.py)."""
    base = dotd_set(load_set("day-of-the-dead"))
    on, off = (DotdGame(replace(base, params={**base.params, **params,
                                              "final_turn_free_back": v})) for v in (True, False))
    differ = 0
    for seed in range(games):
        s = on.new_initial_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            if s.dk == D_SELECT and s.turn == on.turns:
                bound = s.clone()
                bound.g = off
                differ += sorted(s._selectable(s.dp)) != sorted(bound._selectable(s.dp))
            s.apply_action(rng.choice(s.legal_actions()))
    return differ


def test_dd04_final_turn_free_back_matters_only_when_the_final_turn_comes_early():
    assert _final_turn_options_differ(10, {}) == 0  # bundled: every back is full on turn 6
    assert _final_turn_options_differ(10, {"turns": 5}) == 20  # both players, every game


def test_the_examples_in_docs_scenarios_md_run_and_hold(tmp_path):
    import re

    doc = Path(__file__).parents[1] / "docs" / "scenarios.md"
    blocks = re.findall(r"```yaml\n(.*?)```", doc.read_text(), re.S)
    assert len(blocks) >= 3
    for i, block in enumerate(blocks[1:]):  # the first is the matchers' fragment
        f = tmp_path / f"doc{i}.yaml"
        f.write_text(block)
        out, failed = run_scenario(f)
        assert failed == [] and "warnings" not in out, (i, failed)


def test_what_a_day_of_the_dead_player_sees_hides_the_other_hand(tmp_path):
    f = edited(tmp_path, "opponent_hand_backs: {contains: [double, power_up, unearth], at_most: 3}",
               "opponent_hand: [fable@double]")
    _, failed = run_scenario(f)
    assert len(failed) == 1 and "actions[3].expect.sees.opponent_hand: player 1 sees no " \
                                "'opponent_hand' (known: player, turn, priority" in failed[0]
    g = edited(tmp_path, "hand: [giant@double, haze@power_up]", "hand: [fable@double]")
    _, failed = run_scenario(g)
    assert len(failed) == 1 and "got ['giant@double', 'haze@power_up']" in failed[0]


def test_legal_moves_of_a_named_player_fail_when_another_is_to_move(tmp_path):
    f = edited(tmp_path, "legal: {player: 0, choices:", "legal: {player: 1, choices:")
    _, failed = run_scenario(f)
    assert failed == [f"{f}:{line_of(f, 'legal: {player: 1')}:23: actions[0].expect.legal.player: "
                      "player 1 has no choice now (player 0 chooses now)"]
    g = edited(tmp_path, "illegal: {player: 1, moves:", "illegal: {player: 2, moves:",
               SCENARIOS / "gf-example-cathy.yaml")
    _, failed = run_scenario(g)
    assert len(failed) == 1 and failed[0].endswith(
        "steps[4].expect.illegal.player: P2 has no move now (P1 is to move)")
