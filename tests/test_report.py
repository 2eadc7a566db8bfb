"""The balance report shows a card set's own words as text, whatever characters they hold."""

from __future__ import annotations

from boneyard.engine.stats import Metric
from boneyard.pipeline.report import card_chart, play_rate_chart


def _rows() -> dict[str, dict[str, Metric]]:
    return {cid: {"sub_delta": Metric(f"card.{cid}.sub_delta", 0.1, 0.0, 0.2, 10, "card", cid, "%"),
                  "play_rate": Metric(f"card.{cid}.play_rate", 0.5, 0.4, 0.6, 10, "card", cid, "%")}
            for cid in ("a", "b")}


def test_a_card_name_with_dollar_signs_is_charted_as_text_not_as_tex():
    names = {"a": "Pay $\\frac{1}{$ now", "b": "<b>$5</b> & </svg><script>"}
    for chart in (card_chart(_rows(), set(), names), play_rate_chart(_rows(), set(), names)):
        assert chart is not None
        assert "Pay $\\frac{1}{$ now" in chart  # the name as written, not a TeX error
        assert "&lt;b&gt;$5&lt;/b&gt; &amp; &lt;/svg&gt;&lt;script&gt;" in chart
        assert "<script>" not in chart


def test_a_build_that_reuses_the_last_pass_games_lists_no_moved_metric():
    # a flavor-text edit: the runs are the last pass's own, copied with the values *that* pass
    # was compared with; nothing moved since the last pass, so nothing is listed as moved
    from boneyard.pipeline.report import comparison_rows
    metric = Metric("draw_rate", 0.022, 0.016, 0.031, 1600, "game", None, "%").to_json()
    run = {"label": "main", "metrics": [metric], "last_pass_values": {"draw_rate": 0.021}}
    assert comparison_rows({"runs": [run]})  # a build that played: the move is listed
    assert comparison_rows({"runs": [dict(run, same_games_as_last_pass=True)]}) == []


def test_the_edited_card_and_what_moved_beyond_its_interval_come_first():
    # a one-card edit moves hundreds of figures by a hair: the edited card's and those now
    # clearly elsewhere are listed apart from the rest
    from boneyard.pipeline.report import comparison_split

    def m(name, value, low, high, subject=None):
        return Metric(name, value, low, high, 2000, "card" if subject else "game", subject, "%").to_json()
    run = {"label": "main", "metrics": [m("card.anger.play_rate", 0.41, 0.39, 0.43, "anger"),
                                        m("card.hoard.play_rate", 0.30, 0.28, 0.32, "hoard"),
                                        m("draw_rate", 0.050, 0.040, 0.060)],
           "last_pass_values": {"card.anger.play_rate": 0.405, "card.hoard.play_rate": 0.299,
                                "draw_rate": 0.030}}
    moved, within = comparison_split({"runs": [run], "change": {"changed": ["hoard"]}})
    assert [r[1] for r in moved] == ["card.hoard.play_rate", "draw_rate"]
    assert [r[1] for r in within] == ["card.anger.play_rate"]
