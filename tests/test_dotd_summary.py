"""The typed summary of a Day of the Dead game and the plain form logs keep."""

from __future__ import annotations

import json
import random

from boneyard.engine.dotd import DotdGame
from boneyard.engine.dotd.summary import DotdSummary
from boneyard.pipeline.load import load_set

KEYS = ["winner", "draw", "scores", "scores_per_turn", "first_priority", "turns", "actions",
        "players", "characters", "primitives", "abilities", "effects"]  # (coverage: added last)


def _finished(seed: int):
    game = DotdGame(load_set("day-of-the-dead"))
    s = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not s.is_terminal():
        legal = s.legal_actions()
        s.apply_action(legal[rng.randrange(len(legal))])
    return s


def test_summary_has_the_shared_fields_and_the_logged_form():
    s = _finished(4)
    summary = s.summary()
    assert summary.winner == s.winner() and summary.draw == (s.winner() is None)
    assert summary.scores == tuple(s.scores) and summary.turns == s.turn == 6
    assert summary.first_player == s.first_prio
    assert summary.played == tuple(seat.played for seat in summary.seats)
    assert all(list(seat) == sorted(seat) for seat in summary.played)
    data = summary.to_json()
    assert list(data) == KEYS  # the key order logs have always had
    assert [list(x) for x in data["players"]] == [
        ["played", "fights", "fights_won", "conversions", "unearths", "digs", "score"]] * 2
    assert data["scores_per_turn"][-1] == list(s.scores) and data["actions"] == len(s.history)


def test_the_logged_form_reads_back_as_the_same_summary():
    for seed in range(10):
        summary = _finished(seed).summary()
        logged = json.loads(json.dumps(summary.to_json()))
        assert DotdSummary.from_json(logged) == summary


def test_a_log_from_before_the_coverage_counts_reads_back_with_none_fired():
    data = _finished(3).summary().to_json()
    old = {k: v for k, v in data.items() if k not in ("primitives", "abilities", "effects")}
    back = DotdSummary.from_json(old)
    assert back.primitives == () and back.abilities == () and back.effects == ()
    assert back.scores == tuple(data["scores"]) and back.played == DotdSummary.from_json(data).played


def test_legal_actions_is_the_states_own_list_until_the_next_action():
    s = DotdGame(load_set("day-of-the-dead")).new_initial_state(1)
    legal = s.legal_actions()
    assert s.legal_actions() is legal  # no copy per call: the contract says read, never mutate
    assert s.clone().legal_actions() is not legal  # a clone owns its own
