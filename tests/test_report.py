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
    # where the record keeps the paired change, its own interval decides: Anger's +0.5 points
    # on the same deals (+0.2 .. +0.8) moved, though the old level is inside the new interval
    run["paired_changes"] = {"card.anger.play_rate": [0.005, 0.002, 0.008],
                             "draw_rate": [0.02, -0.001, 0.041]}
    moved, within = comparison_split({"runs": [run], "change": {"changed": ["hoard"]}})
    assert [r[1] for r in moved] == ["card.anger.play_rate", "card.hoard.play_rate"]
    assert [r[1] for r in within] == ["draw_rate"]


def _figures(monkeypatch) -> list:
    """The charts' matplotlib figures, kept instead of turned into SVG text."""
    from boneyard.pipeline import report

    figures: list = []
    monkeypatch.setattr(report, "_svg", lambda fig: figures.append(fig) or "<svg/>")
    return figures


def test_the_band_outside_the_gate_is_visible_when_every_card_is_inside(monkeypatch):
    # every card well inside -12..+18 points: the axis ended exactly at the bounds, so the
    # shaded "outside the gate" band had no width
    figures = _figures(monkeypatch)
    assert card_chart(_rows(), set(), band=(-0.12, 0.18))
    ax = figures[0].axes[0]
    lo, hi = ax.get_xlim()
    assert lo < -12 and hi > 18
    spans = sorted((p.get_x(), p.get_x() + p.get_width()) for p in ax.patches)
    assert [round(edge, 6) for edge in (spans[0][1], spans[1][0])] == [-12, 18]
    assert all(right - left >= 0.05 * (hi - lo) for left, right in spans)


def test_a_game_length_every_game_shares_is_one_centred_bar_on_whole_turns(monkeypatch):
    # Day of the Dead lasts 6 turns, always: one bar filled the panel, ticked 5.6 .. 6.4
    from boneyard.pipeline.report import histogram_chart

    figures = _figures(monkeypatch)
    assert histogram_chart({"length": {"unit": "turns", "counts": {"6": 2000}}})
    ax = figures[0].axes[0]
    lo, hi = ax.get_xlim()
    assert lo <= 4 and hi >= 8  # its empty neighbours show
    (bar,) = ax.patches
    assert bar.get_x() + bar.get_width() / 2 == 6
    assert all(float(t).is_integer() for t in ax.get_xticks())
    assert ax.get_title() == "game length: every game 6 turns"
