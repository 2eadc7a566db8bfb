"""The report's figures of the gate agent against its reference (pipeline/reference.py): quoted
with what they are worth today, so a designer never reads an old agent's figures as the agent's."""

from __future__ import annotations

import dataclasses
import json

import pytest
from boneyard.engine.games import spec_of
from boneyard.pipeline import reference
from boneyard.pipeline.load import load_set


@pytest.fixture
def kept(tmp_path, monkeypatch):
    """Day of the Dead's reference file redirected to a temporary one."""
    spec = dataclasses.replace(spec_of("day-of-the-dead"), agent_reference=tmp_path / "ref.json")
    monkeypatch.setattr(reference, "spec_of", lambda rules: spec)
    return spec.agent_reference


FIGURES = [
    reference.Figure("win share vs mcts:50", 0.365, 0.336, 0.395, ">= 50%", "bench/strength.py", unit="%"),
    reference.Figure("sub_delta agreement", None, None, None, ">= 0.8", "bench/agreement.py",
                     note="+0.32 at 20 deals a character"),
]


def test_figures_measured_on_this_agent_and_set_are_quoted_plainly(kept):
    reference.save("day-of-the-dead", "greedy", FIGURES, "2026-12-01")
    ref = reference.for_report(load_set("day-of-the-dead"), "greedy")
    assert ref is not None and ref["current"] and ref["same_set"]
    text, rows = reference.report_rows(ref)
    assert "OUT OF DATE" not in text and "not on this set" not in text and "2026-12-01" in text
    assert rows[0][:4] == ("win share vs mcts:50", "36.5% [33.6% .. 39.5%]", ">= 50%", "missed")
    assert rows[1][1] == "not established (+0.32 at 20 deals a character)" and rows[1][3] == ""
    assert "Of their targets 0 are met and 1 missed." in text


def test_each_figure_is_said_to_meet_or_miss_its_target():
    def verdict(value, target, low=None, unit=""):
        return reference.Figure("f", value, low, None, target, "bench", unit=unit).verdict()

    assert verdict(42.4, ">= 300", unit="games/s") == "missed"
    assert verdict(229.0, ">= 100", unit="games/s") == "met"
    assert verdict(0.9145, ">= 75%", 0.8955, "%") == "met"
    # an even match needs both the share and its interval's low end
    assert verdict(0.5275, ">= 50%, low end >= 45%", 0.4965, "%") == "met"
    assert verdict(0.5275, ">= 50%, low end >= 45%", 0.4465, "%") == "missed"
    assert verdict(0.4990, ">= 50%, low end >= 45%", 0.4665, "%") == "missed"
    assert verdict(0.82, ">= 0.8 (Spearman)") == "met" and verdict(0.25, ">= 0.8 (Spearman)") == "missed"
    assert verdict(0.5, "none") == "" and verdict(None, ">= 0.8") == ""


def test_an_agent_that_plays_differently_now_makes_them_out_of_date(kept):
    reference.save("day-of-the-dead", "greedy", FIGURES, "2026-12-01")
    data = json.loads(kept.read_text())
    data["fingerprint"] = "0" * 16  # the agent of the measurement played other moves
    kept.write_text(json.dumps(data))
    ref = reference.for_report(load_set("day-of-the-dead"), "greedy")
    assert ref is not None and not ref["current"]
    assert "OUT OF DATE" in reference.report_rows(ref)[0]


def test_an_edited_set_or_another_agent_is_said(kept, tmp_path):
    reference.save("day-of-the-dead", "greedy", FIGURES, "2026-12-01")
    bundled = load_set("day-of-the-dead")
    edited = dataclasses.replace(bundled, params={**bundled.params, "turns": 5})
    text, _ = reference.report_rows(reference.for_report(edited, "gate:fast"))
    assert "not on this set's content" in text and "this build played gate:fast" in text


def test_a_bound_or_its_why_edited_leaves_the_figures_the_sets_own(kept):
    """The benches never read the playtest section: a designer who retunes a gate's bound or
    rewrites its why still plays the set the figures were measured on."""
    reference.save("day-of-the-dead", "greedy", FIGURES, "2026-12-01")
    bundled = load_set("day-of-the-dead")
    retuned = dataclasses.replace(bundled, playtest={**bundled.playtest, "games": 10},
                                  content_hash="retuned")
    ref = reference.for_report(retuned, "greedy")
    assert ref is not None and ref["same_set"]
    assert "not on this set" not in reference.report_rows(ref)[0]


def test_saving_again_keeps_the_other_figures_and_the_player_count(kept):
    reference.save("day-of-the-dead", "greedy", FIGURES, "2026-12-01", players=2)
    newer = dataclasses.replace(FIGURES[0], value=0.40, low=0.37, high=0.43)
    reference.save("day-of-the-dead", "greedy", [newer], "2026-12-02")  # a bench that names no count
    data = json.loads(kept.read_text())
    assert data["players"] == 2
    figures = {f["name"]: f for f in data["figures"]}
    assert figures["win share vs mcts:50"]["value"] == 0.40
    assert figures["win share vs mcts:50"]["measured"] == "2026-12-02"
    assert figures["sub_delta agreement"]["measured"] == "2026-12-01"


def test_a_game_without_figures_says_nothing(kept):
    assert reference.for_report(load_set("day-of-the-dead"), "gate") is None
    assert reference.report_rows(None) == ("", [])
