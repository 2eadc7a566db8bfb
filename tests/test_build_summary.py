"""What `boneyard build` says on its summary line about the games behind a record."""

from __future__ import annotations

from boneyard.pipeline.cmd_build import games_said


def test_a_build_whose_games_are_the_last_pass_own_does_not_claim_to_have_played_them():
    # a flavor-text edit: no game changes, so the last pass's games stand and none is played
    rec = {"games": 1600, "change": {"against": "a72c5cbf42711b0b", "changed": [], "removed": [],
                                     "params": [], "same_games": True}}
    said = games_said(rec, reused=False)
    assert said != "1600 games"
    assert "no game played" in said and "1600" in said


def test_a_build_that_played_says_how_many_games():
    assert games_said({"games": 1600, "change": None}, reused=False) == "1600 games"
    assert games_said({"games": 1600}, reused=True) == "reused record"


def test_the_agents_help_names_gate_fast_and_does_not_call_gate_the_fast_one():
    # gate:fast is what the fast profile plays; gate itself is the slower, stronger search
    from boneyard.pipeline.cli import cli
    from click.testing import CliRunner

    for command in ("simulate", "build"):
        text = " ".join(CliRunner().invoke(cli, [command, "--help"]).output.split())
        assert "gate:fast" in text, command
        assert "gate (the fast skilled player)" not in text, command


def test_simulate_prints_an_interval_with_a_negative_end_as_a_readable_range():
    # "-10.7% (-20.8--0.3)" read as nonsense; brackets as build and the report print them
    from boneyard.engine.stats import Metric
    from boneyard.pipeline.cmd_sim import fmt

    delta = Metric("card.hush.win_delta", -0.107, -0.208, -0.003, 200, "card", "hush", "%")
    assert fmt(delta) == "-10.7% [-20.8 .. -0.3]"
    assert fmt(Metric("draw_rate", 0.015, 0.005, 0.043, 200, "game", None, "%")) == "1.5% [0.5 .. 4.3]"
    assert fmt(Metric("score_mean", 64.33, 62.44, 66.23, 400, "game", None, "")) == "64.33 [62.44 .. 66.23]"
