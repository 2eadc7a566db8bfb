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
