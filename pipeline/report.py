"""The balance report: what a designer reads after a build, broken things first.

Made from the playtest record alone (``output/<set>/playtest.json``), so a saved record can be
re-reported without simulating. ``report.html`` is self-contained (charts are inline SVG drawn by
matplotlib, no scripts, no network); ``report.md`` carries the same tables for a terminal or a
pull request. Order: verdict (with the agent that played), failed and undecided gates, what was
tested (against the last pass, or from scratch), the verdict per card, agent strength, card
chart, game-level figures, distributions, every gate. Tables sort by a click on a heading (one
small inline script; without it they read the same) and scroll sideways on a phone.
"""

from __future__ import annotations

import html
import io
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from boneyard.engine.stats import Metric
from boneyard.pipeline import reference
from boneyard.pipeline.files import write_output
from boneyard.pipeline.gates import (
    FAIL,
    FLAG,
    MISSING,
    PASS,
    UNDECIDED,
    GateResult,
    fmt_metric,
    fmt_value,
    missing_text,
)
from boneyard.pipeline.paired import recorded_change

GAME_LEVEL = (
    ("first_priority_win_rate", "Win rate of the player holding priority first"),
    ("first_player_win_rate", "Win rate of the first player"),
    ("seat_win_spread", "Seat balance: best minus worst seat win rate"),
    ("draw_rate", "Draw rate"),
    ("mean_rounds", "Game length (rounds)"),
    ("turns_mean", "Game length (turns)"),
    ("mean_turns", "Game length (turns, all players)"),
    ("cap_rate", "Games stopped by the turn cap"),
    ("reshuffles_per_game", "Reshuffles per game"),
    ("steals_per_game", "Steals per game"),
    ("preaches_per_game", "Preaches per game"),
    ("mean_chain_length", "Instant chain length"),
    ("lead_changes", "Lead changes per game"),
    ("lead_changes_mean", "Lead changes per game"),
    ("decided_turn", "Turn after which the winner led for good"),
    ("decided_turn_mean", "Turn after which the winner led for good"),
    ("decided_round_mean", "Round after which the winner led for good"),
    ("score_margin", "Winning margin (points)"),
)


def _metrics(run: Mapping[str, Any]) -> list[Metric]:
    return [Metric.from_json(m) for m in run["metrics"]]


def _results(record: Mapping[str, Any]) -> list[GateResult]:
    return [GateResult.from_json(g) for g in record["gates"]]


def _signed(m: Metric) -> bool:
    return "delta" in m.name


def show(m: Metric) -> str:
    if _signed(m) and m.unit == "%":
        def s(v: float) -> str:
            return "n/a" if math.isnan(v) else f"{v * 100:+.1f}%"
        return f"{s(m.value)} [{s(m.low)} .. {s(m.high)}]"
    return fmt_metric(m)


def _bound(r: GateResult) -> str:
    unit = r.metric.unit if r.metric else ""
    return r.gate.bound_text(unit if unit != "%" else "pp" if "delta" in r.gate.metric else "%")


def _card_rows(metrics: Sequence[Metric]) -> dict[str, dict[str, Metric]]:
    rows: dict[str, dict[str, Metric]] = {}
    for m in metrics:
        if m.name.startswith("card.") and m.name.count(".") >= 2:
            cid, kind = m.name[5:].rsplit(".", 1)
            rows.setdefault(cid, {})[kind] = m
    return rows


# --- charts ----------------------------------------------------------------------------------


def _svg(fig: Any) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    import matplotlib.pyplot as plt

    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _plt() -> Any:
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "boneyard"  # stable ids: identical reports diff clean
    matplotlib.rcParams["svg.fonttype"] = "none"  # text stays text (small, searchable)
    matplotlib.rcParams["text.parse_math"] = False  # a card named "$5 or $x" is text, not TeX
    import matplotlib.pyplot as plt

    return plt


def _gate_band(record: Mapping[str, Any], pattern: str) -> tuple[float | None, float | None] | None:
    for g in record["gates"]:
        gate = g["gate"]
        if gate["metric"] == pattern:
            return gate.get("min"), gate.get("max")
    return None


def card_chart(rows: Mapping[str, Mapping[str, Metric]], bad: set[str],
               names: Mapping[str, str] | None = None,
               band: tuple[float | None, float | None] | None = None) -> str | None:
    """Per-character win-rate deltas with their 95% intervals, most extreme on top."""
    kinds = [k for k in ("sub_delta", "win_delta") if any(k in r for r in rows.values())]
    if not kinds:
        return None
    key = kinds[0]
    items = [(cid, r) for cid, r in rows.items() if key in r and not math.isnan(r[key].value)]
    items.sort(key=lambda it: it[1][key].value)
    if not items:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.5, 0.26 * len(items) + 1.4))
    ys = range(len(items))
    offsets = {"sub_delta": 0.15, "win_delta": -0.15} if len(kinds) == 2 else {key: 0.0}
    labels = {"sub_delta": "paired substitution (vs stand-in)", "win_delta": "played vs not played"}
    colours = {"sub_delta": "#1f4e79", "win_delta": "#9a9a9a"}
    for kind in kinds:
        xs, lo, hi, yy = [], [], [], []
        for y, (_cid, r) in zip(ys, items, strict=True):
            m = r.get(kind)
            if m is None or math.isnan(m.value):
                continue
            xs.append(m.value * 100)
            lo.append((m.value - m.low) * 100)
            hi.append((m.high - m.value) * 100)
            yy.append(y + offsets[kind])
        ax.errorbar(xs, yy, xerr=[lo, hi], fmt="o", ms=3.5, capsize=2, color=colours[kind],
                    label=labels[kind], lw=1)
    ax.axvline(0, color="black", lw=0.8)
    if band:
        _outside_band(ax, band)
    ax.set_yticks(list(ys))
    ax.set_yticklabels([(names or {}).get(cid, cid) for cid, _ in items], fontsize=8)
    for tick, (cid, _) in zip(ax.get_yticklabels(), items, strict=True):
        if cid in bad:
            tick.set_color("#c00000")
            tick.set_fontweight("bold")
    ax.set_xlabel("change in the win rate of the player who plays it (percentage points, 95% interval)")
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(axis="x", alpha=0.3)
    return _svg(fig)


def _outside_band(ax: Any, band: tuple[float | None, float | None]) -> None:
    """Shade what lies beyond the gate's bounds. The axis reaches past each bound by a margin:
    ending at the bound (every card inside it), the shaded band had no width and was not seen."""
    lo, hi = ax.get_xlim()
    bounds = [b * 100 for b in band if b is not None]
    margin = 0.08 * (max(hi, *bounds) - min(lo, *bounds))
    lo, hi = min(lo, min(bounds) - margin), max(hi, max(bounds) + margin)
    ax.set_xlim(lo, hi)
    label = "outside the gate"
    if band[0] is not None:
        ax.axvspan(lo, band[0] * 100, color="#c00000", alpha=0.12, label=label)
        label = "_nolegend_"  # one legend entry for both sides
    if band[1] is not None:
        ax.axvspan(band[1] * 100, hi, color="#c00000", alpha=0.12, label=label)


def kind_chart(metrics: Sequence[Metric]) -> str | None:
    """Per card kind (Grave Feast) figures with their intervals: feast shares, rares' deltas."""
    items = [m for m in metrics if m.group in ("card", "rare") and not m.name.startswith("card.")
             and m.unit == "%" and not math.isnan(m.value)]
    if not items:
        return None
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.5, 0.3 * len(items) + 1.2))
    ys = range(len(items))
    ax.errorbar([m.value * 100 for m in items], list(ys),
                xerr=[[(m.value - m.low) * 100 for m in items], [(m.high - m.value) * 100 for m in items]],
                fmt="o", ms=4, capsize=2, color="#1f4e79", lw=1)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_yticks(list(ys))
    ax.set_yticklabels([m.name for m in items], fontsize=8)
    ax.set_xlabel("percent (95% interval)")
    ax.grid(axis="x", alpha=0.3)
    return _svg(fig)


def play_rate_chart(rows: Mapping[str, Mapping[str, Metric]], bad: set[str],
                    names: Mapping[str, str] | None = None) -> str | None:
    items = [(cid, r["play_rate"]) for cid, r in rows.items() if "play_rate" in r]
    if not items:
        return None
    items.sort(key=lambda it: it[1].value)
    plt = _plt()
    fig, ax = plt.subplots(figsize=(7.5, 0.22 * len(items) + 1.2))
    vals = [m.value * 100 for _, m in items]
    err = [[(m.value - m.low) * 100 for _, m in items], [(m.high - m.value) * 100 for _, m in items]]
    ax.barh(range(len(items)), vals, xerr=err, color=["#c00000" if c in bad else "#6d8fb3" for c, _ in items],
            capsize=2, error_kw={"lw": 0.8})
    ax.set_yticks(range(len(items)))
    ax.set_yticklabels([(names or {}).get(c, c) for c, _ in items], fontsize=8)
    ax.set_xlabel("play rate (%, 95% interval)")
    ax.grid(axis="x", alpha=0.3)
    return _svg(fig)


def histogram_chart(dist: Mapping[str, Any], band: tuple[float | None, float | None] | None = None) -> str | None:
    """Score and game-length distributions side by side."""
    panels = []
    if "winner_score" in dist:
        panels.append(("scores", [("winner", dist["winner_score"]), ("others", dist["other_scores"])]))
    if "length" in dist:
        panels.append((f"game length ({dist['length']['unit']})", [("games", dist["length"]["counts"])]))
    if not panels:
        return None
    plt = _plt()
    from matplotlib.ticker import MaxNLocator

    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 2.8))
    axes = axes if len(panels) > 1 else [axes]
    for ax, (title, series) in zip(axes, panels, strict=True):
        for label, counts in series:
            xs = [float(k) for k in counts]
            total = sum(counts.values()) or 1
            ax.bar(xs, [v / total * 100 for v in counts.values()], alpha=0.6, label=label, width=0.8)
        values = sorted({float(k) for _, counts in series for k in counts})
        if all(v.is_integer() for v in values):  # turns, rounds, points: no tick at 5.6
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
        length = title.startswith("game length")
        if len(values) == 1:  # every game 6 turns: one bar among its empty neighbours, said so
            ends = [values[0], *(b for b in (band or ()) if length and b is not None)]
            ax.set_xlim(min(ends) - 2.5, max(ends) + 2.5)
            if length:
                title = f"game length: every game {values[0]:g} {dist['length']['unit']}"
        if length and band:
            lo, hi = band
            ax.axvspan(lo if lo is not None else min(xs), hi if hi is not None else max(xs),
                       color="#2e8b57", alpha=0.12, label="target band")
        ax.set_title(title, fontsize=9)
        ax.set_ylabel("% of games", fontsize=8)
        ax.legend(loc="upper right", fontsize=7)  # a fixed place: "best" is searched (slowly)
    return _svg(fig)


# --- the report ------------------------------------------------------------------------------


def _length_band(record: Mapping[str, Any], label: str) -> tuple[float | None, float | None] | None:
    for g in record["gates"]:
        gate = g["gate"]
        if gate["metric"] in ("mean_rounds", "turns_mean") and gate.get("run") in (None, label):
            return gate.get("min"), gate.get("max")
    return None


def _agents(record: Mapping[str, Any]) -> str:
    a = record.get("agents")
    return ", ".join(a) if isinstance(a, list) else str(a)


def verdict(record: Mapping[str, Any]) -> str:
    open_ = sum(1 for r in _results(record) if r.status == UNDECIDED)
    undecided = f", {open_} undecided" + (" (accepted)" if record.get("accept_undecided") else "") if open_ else ""
    if record["passed"]:
        return (f"PASSED: {record['gates_passed']}/{record['gates_total']} gates{undecided}, "
                f"{record['games']} games played by {_agents(record)}")
    bad = sum(1 for r in _results(record) if r.failed and r.status != UNDECIDED)
    return (f"FAILED: {bad} of {record['gates_total']} gates failed{undecided} ({record['games']} games "
            f"played by {_agents(record)})")


LEGEND = ("pass: the interval lies wholly inside the bound; fail: wholly outside (the build is refused); "
          "undecided: still straddling the bound at the cap (fails unless --accept-undecided); missing: "
          "no metric of that name. Intervals are 95%; gates judge them corrected for looks and family "
          "(docs/playtest.md).")


def tested(record: Mapping[str, Any]) -> list[str]:
    """What this build tested: against the last pass (what changed) or from scratch (why)."""
    change = record.get("change")
    if not change:
        why = record.get("from_scratch")
        return [f"Built from scratch{f' ({why})' if why else ''}: every bound judged absolutely."]
    lines = [f"Tested what changed since the last pass (content {change['against']}), on paired games."]
    names = record.get("names") or {}
    if change["against"] == record.get("content_hash"):
        lines.append("Nothing changed: the content is the last pass's.")
    elif change.get("same_games"):
        lines.append("Only what is printed changed (template, art): every game is the last pass's.")
    if change["changed"]:
        lines.append("Changed cards (each a pre-declared hypothesis at the full alpha): "
                     + ", ".join(names.get(c, c) for c in change["changed"]))
    if change["removed"]:
        lines.append("Removed: " + ", ".join(change["removed"]))
    if change["params"]:
        lines.append("Changed rules: " + ", ".join(change["params"]))
    return lines


def comparison_split(record: Mapping[str, Any]) -> tuple[list[tuple[str, str, str, str, str]],
                                                          list[tuple[str, str, str, str, str]]]:
    """:func:`comparison_rows` in two: the figures of the changed cards and those whose paired
    change excludes 0 (what the edit moved), then the rest, which moved within their intervals.
    Why: a one-card edit moves some 330 figures by a hair, and a table of all of them in name
    order buried the edited card."""
    changed = {f"card.{cid}." for cid in (record.get("change") or {}).get("changed", [])}
    rows = comparison_rows(record)
    runs = {run["label"]: run for run in record["runs"]}

    def clear(label: str, name: str, was: float, m: Metric) -> bool:
        """The paired change's interval excludes 0 (else: the last-pass value is outside the
        interval now); exact counts have no interval."""
        c = recorded_change(runs[label], name)
        if c is not None:
            return not c[1] <= 0 <= c[2]
        return m.group != "coverage" and not m.low <= was <= m.high
    outside = {(label, name) for label, name, was, m in _compared(record) if clear(label, name, was, m)}

    def first(row: tuple[str, str, str, str, str]) -> bool:
        return any(row[1].startswith(c) for c in changed) or (row[0], row[1]) in outside
    return ([r for r in rows if first(r)], [r for r in rows if not first(r)])


def _compared(record: Mapping[str, Any]) -> Iterator[tuple[str, str, float, Metric]]:
    """(run, metric name, last-pass value, metric now) for each figure that moved."""
    for run in record["runs"]:
        if run.get("same_games_as_last_pass"):
            continue
        was = run.get("last_pass_values") or {}
        for m in _metrics(run):
            if m.name in was and was[m.name] is not None and not math.isnan(m.value) \
                    and abs(m.value - was[m.name]) > 1e-12:
                yield run["label"], m.name, was[m.name], m


def comparison_rows(record: Mapping[str, Any]) -> list[tuple[str, str, str, str, str]]:
    """(run, metric, last pass, now [95%], change) for every metric paired with the last pass
    whose value moved (none for a build whose runs are the last pass's own: the values they
    were compared with belong to the pass before it)."""
    rows = []
    for label, name, was, m in _compared(record):
        d = m.value - was
        change = f"{d * 100:+.1f} points" if m.unit == "%" else f"{d:+.3g}"
        rows.append((label, name, fmt_value(was, m.unit), show(m), change))
    rows.sort(key=lambda r: r[1])
    return rows


def card_verdicts(record: Mapping[str, Any]) -> list[tuple[str, str, str, str]]:
    """(card, verdict, the gates it failed or left open, agent) per card with a gate."""
    names = record.get("names") or {}
    per: dict[str, list[GateResult]] = {}
    for r in _results(record):
        if r.metric is not None and r.metric.subject and r.metric.group == "card":
            per.setdefault(r.metric.subject, []).append(r)
    rank = {FAIL: 0, MISSING: 0, UNDECIDED: 1, FLAG: 1, PASS: 2}
    rows = []
    for cid, rs in per.items():
        worst = min(rs, key=lambda r: rank.get(r.status, 2)).status
        which = ", ".join(f"{r.metric.name.rsplit('.', 1)[1]} {r.status}" for r in rs
                          if r.status != PASS and r.metric is not None)
        rows.append((names.get(cid, cid), worst, which, _agents(record)))
    rows.sort(key=lambda r: (rank.get(r[1], 2), r[0]))
    return rows


def _gate_line(r: GateResult, record: Mapping[str, Any]) -> tuple[str, str, str, str, str, str]:
    metric = r.metric.name if r.metric else r.gate.metric
    value = show(r.metric) if r.metric else missing(r, record)
    return (r.status.upper(), r.run, metric, value, _bound(r), r.gate.why)


def missing(r: GateResult, record: Mapping[str, Any]) -> str:
    """A gate's value when no metric matched it, naming the nearest one of its run's metrics
    in the record (every run's, for a gate on all runs)."""
    return missing_text(r.gate, (m["name"] for run in record["runs"] if r.run in ("*", run["label"])
                                 for m in run["metrics"]))


def _ordered(results: Sequence[GateResult]) -> list[GateResult]:
    rank = {FAIL: 0, MISSING: 0, UNDECIDED: 1, FLAG: 1}
    return sorted(results, key=lambda r: rank.get(r.status, 2))


def build_markdown(record: Mapping[str, Any]) -> str:
    results = _ordered(_results(record))
    out = [f"# Balance report: {md_text(record['name'])}", ""]
    out.append(f"**{md_text(verdict(record))}** -- content {record['content_hash']}, seed {record['seed']}, "
               f"agents {record['agents']}, profile {record['profile']}, {record['tool']}")
    out.append("")
    worst = [r for r in results if r.status in (FAIL, MISSING, FLAG, UNDECIDED)]
    out.append("## Broken or suspicious (failed gates, then undecided)")
    out.append("")
    if worst:
        out += _md_table(("status", "run", "metric", "value [95% interval]", "bound", "why"), [_gate_line(r, record) for r in worst])
    else:
        out.append("Nothing: every gate passed, its interval wholly inside the bound.")
    out.append("")
    out.append(LEGEND)
    out.append("")
    out.append("## What was tested")
    out.append("")
    out += [f"- {md_text(line)}" for line in tested(record)]
    out.append("")
    moved, within = comparison_split(record)
    comp_head = ("run", "metric", "last pass", "now [95% interval]", "change")
    if moved or within:
        out.append("### Compared with the last pass (paired games)")
        out.append("")
        out.append(md_text(f"The changed cards' figures and those whose paired change excludes 0 "
                           f"({len(moved)}; by chance alone about 1 figure in 20 does), then {len(within)} more that moved within their intervals "
                           "or are exact counts."))
        out.append("")
        if moved:
            out += _md_table(comp_head, moved)
            out.append("")
        if within:
            out.append("#### Moved within their intervals, or exact counts")
            out.append("")
            out += _md_table(comp_head, within)
            out.append("")
    verdicts = card_verdicts(record)
    if verdicts:
        out.append("## Verdict per card")
        out.append("")
        out += _md_table(("card", "verdict", "gates not passed", "agent"), verdicts)
        out.append("")
    odd = _outlier_rows(record)
    if odd:
        out.append("### Outliers (flagged, not failed): cards far from the rest of the set")
        out.append("")
        out += _md_table(("run", "card", "metric", "value [95% interval]", "why flagged"), odd)
        out.append("")
    text, ref_rows = reference.report_rows(record.get("agent_reference"))
    if text:
        out += ["## The agent against its reference", "", md_text(text), ""]
        out += _md_table(reference.HEAD, ref_rows)
        out.append("")
    for run in record["runs"]:
        metrics = _metrics(run)
        out.append(md_text(f"## Run {run['label']}: {run['players']} players, {run['games']} games"
                           + (f", options {run['options']}" if run["options"] else ""), head=3))
        out.append("")
        out.append("### Agent strength")
        out.append("")
        strength = [Metric.from_json(m) for m in run["strength"]]
        rows = [(m.subject or m.name, show(m), f"{run['fair_share'] * 100:.0f}%") for m in strength]
        if rows:
            out += _md_table(("agent", "win rate [95%]", "fair share"), rows)
        for note in run.get("strength_notes", []):
            out.append(f"- {md_text(note)}")
        out.append("")
        out.append("### Game level")
        out.append("")
        names = dict(GAME_LEVEL)
        by = {m.name: m for m in metrics}
        level = [(names[n], show(by[n])) for n, _ in GAME_LEVEL if n in by]
        level += [(m.name, show(m)) for m in metrics if m.group == "seat" and m.name.endswith("win_rate")]
        out += _md_table(("figure", "value [95% interval]"), level)
        out.append("")
        cards = _card_rows(metrics)
        if cards:
            out.append("### Cards (most extreme substitution effect first)")
            out.append("")
            cols = [k for k in ("sub_delta", "win_delta", "play_rate") if any(k in r for r in cards.values())]
            extra = sorted({k for r in cards.values() for k in r} - set(cols))
            cols += extra

            names_ = record.get("names") or {}
            by_card = [(names_.get(cid, cid), *[show(r[c]) if c in r else "" for c in cols])
                       for cid, r in sorted(cards.items(), key=lambda it: _extremeness(it[1].get(cols[0])))]
            out += _md_table(("card", *cols), by_card)
            out.append("")
    out.append("## Every gate")
    out.append("")
    out += _md_table(("status", "run", "metric", "value [95% interval]", "bound", "why"), [_gate_line(r, record) for r in results])
    out.append("")
    return _NO_HTML.sub(r"\\<", "\n".join(out))


_NO_HTML = re.compile(r"<(?=[A-Za-z/!?])")
"""Where a ``<`` would open raw HTML (a tag, comment or autolink) in CommonMark: report.md
has none of its own, so a card set's ``<img onerror=...>`` is escaped to read as written."""


def _outlier_rows(record: Mapping[str, Any]) -> list[tuple[str, str, str, str, str]]:
    names = record.get("names") or {}
    rows = []
    for run in record["runs"]:
        by = {m["name"]: Metric.from_json(m) for m in run["metrics"]}
        for o in run.get("outliers", []):
            m = by.get(o["metric"])
            rows.append((run["label"], names.get(o["subject"], o["subject"] or ""), o["metric"],
                         show(m) if m else "", o["why"]))
    return rows


def _extremeness(m: Metric | None) -> float:
    return -abs(m.value) if m is not None and not math.isnan(m.value) else 0.0


_MD_MARKUP = re.compile(
    r"[`*~]"                      # code spans, emphasis, strikethrough
    r"|\\(?=[!-/:-@\[-`{-~])"     # a backslash that would escape what follows
    r"|\](?=[(\[])"               # a link's or an image's closing bracket
    r"|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])"  # an underscore that could open or close emphasis
    r"|&(?=#?[A-Za-z0-9]+;)"      # an entity such as &copy;
    r"|(?<!\S)#")                 # a heading's mark
"""What CommonMark reads as markup in text; only those characters are escaped, so report.md
still reads plainly as text (``card.oaf.sub_delta``, ``36.5% [33.6% .. 39.5%]``)."""


def md_text(text: str, head: int = 0) -> str:
    """``text`` to read as written in report.md: a card named ``*Hoard*`` or ``[x](y)`` is not
    turned into emphasis or a link. ``<`` is left to ``_NO_HTML`` and ``|`` to the table cells;
    the first ``head`` characters (a heading's own ``## ``) are kept as they are."""
    return text[:head] + _MD_MARKUP.sub(lambda m: "\\" + m.group(0), text[head:])


def _md_table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    def cell(v: Any) -> str:
        return md_text(str(v)).replace("|", "\\|")

    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in rows]
    return lines


CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,sans-serif;max-width:1050px;margin:2em auto;color:#222;padding:0 1em}
.wrap{overflow-x:auto;max-width:100%} .legend{color:#555;font-size:.85em} th{cursor:pointer}
img.card{height:3.2em;vertical-align:middle;margin-right:.4em;border-radius:3px}
@media (max-width:600px){body{margin:.5em auto;padding:0 .5em} table{font-size:.8em} td,th{padding:2px 4px}}
h1{margin-bottom:.2em} .meta{color:#666;font-size:.9em}
.verdict{font-size:1.4em;font-weight:bold;padding:.5em .8em;border-radius:6px;margin:1em 0}
.pass{background:#e3f4e8;color:#1d6b35} .fail{background:#fbe3e3;color:#a00}
table{border-collapse:collapse;margin:.6em 0;font-size:.9em} td,th{border:1px solid #ddd;padding:3px 8px;text-align:left}
th{background:#f4f4f4} tr.FAIL td,tr.MISSING td{background:#fde8e8} tr.FLAG td,tr.UNDECIDED td{background:#fff6dc}
.chart svg{max-width:100%;height:auto}
"""


def build_html(record: Mapping[str, Any]) -> str:
    results = _ordered(_results(record))
    esc = html.escape
    bad_cards = {r.metric.subject for r in results if r.metric and r.metric.subject
                 and r.status in (FAIL, FLAG, UNDECIDED)}
    bad_cards |= {o["subject"] for run in record["runs"] for o in run.get("outliers", []) if o.get("subject")}
    parts = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>Balance report: {esc(record['name'])}</title><style>{CSS}</style></head><body>",
        f"<h1>Balance report: {esc(record['name'])}</h1>",
        f"<div class='meta'>content {esc(record['content_hash'])} &middot; seed {record['seed']} &middot; "
        f"agents {esc(str(record['agents']))} &middot; profile {esc(record['profile'])} &middot; "
        f"{esc(record['tool'])} &middot; {record['seconds']} s</div>",
        f"<div class='verdict {'pass' if record['passed'] else 'fail'}'>{esc(verdict(record))}</div>",
        "<h2>Broken or suspicious</h2>",
    ]
    worst = [r for r in results if r.status in (FAIL, MISSING, FLAG, UNDECIDED)]
    head = ("status", "run", "metric", "value [95% interval]", "bound", "why")
    if worst:
        parts.append(_html_table(head, [_gate_line(r, record) for r in worst], classes=[r.status.upper() for r in worst]))
    else:
        parts.append("<p>Nothing: every gate passed, its interval wholly inside the bound.</p>")
    parts.append(f"<p class='legend'>{esc(LEGEND)}</p>")
    parts.append("<h2>What was tested</h2>")
    parts += [f"<p>{esc(line)}</p>" for line in tested(record)]
    moved, within = comparison_split(record)
    comp_head = ("run", "metric", "last pass", "now [95% interval]", "change")
    if moved or within:
        parts.append("<h3>Compared with the last pass (paired games)</h3>")
        parts.append(f"<p>The changed cards' figures and those whose paired change excludes 0 "
                     f"({len(moved)}; by chance alone about 1 figure in 20 does).</p>")
        if moved:
            parts.append(_html_table(comp_head, moved))
        if within:
            parts.append(f"<details><summary>{len(within)} more that moved within their "
                         "intervals or are exact counts</summary>")
            parts.append(_html_table(comp_head, within))
            parts.append("</details>")
        parts.append("<p class='legend'>now = the last pass's value plus the change measured on the same "
                     "games played on both versions (paired; jackknife interval, with the last "
                     "pass's own error).</p>")
    verdicts = card_verdicts(record)
    if verdicts:
        parts.append("<h2>Verdict per card</h2>")
        parts.append(_html_table(("card", "verdict", "gates not passed", "agent"), verdicts,
                                 classes=[v[1].upper() for v in verdicts], images=_images(record)))
    odd = _outlier_rows(record)
    if odd:
        parts.append("<h3>Outliers (flagged, not failed): cards far from the rest of the set</h3>")
        parts.append(_html_table(("run", "card", "metric", "value [95% interval]", "why flagged"), odd,
                                 classes=["FLAG"] * len(odd)))
    text, ref_rows = reference.report_rows(record.get("agent_reference"))
    if text:
        parts += ["<h2>The agent against its reference</h2>", f"<p>{esc(text)}</p>",
                  _html_table(reference.HEAD, ref_rows)]
    for run in record["runs"]:
        metrics = _metrics(run)
        parts.append(f"<h2>Run {esc(run['label'])}: {run['players']} players, {run['games']} games"
                     + (f", options {esc(str(run['options']))}" if run["options"] else "") + "</h2>")
        strength = [Metric.from_json(m) for m in run["strength"]]
        parts.append("<h3>Agent strength</h3>")
        if strength:
            parts.append(_html_table(("agent", "win rate [95%]", "fair share"),
                                     [(m.subject or m.name, show(m), f"{run['fair_share'] * 100:.0f}%") for m in strength]))
        parts += [f"<p>{esc(n)}</p>" for n in run.get("strength_notes", [])]
        cards = _card_rows(metrics)
        chart = card_chart(cards, bad_cards, record.get("names"),
                           _gate_band(record, "card.*.sub_delta") or _gate_band(record, "card.*.win_delta"))
        if chart:
            parts.append("<h3>Cards: win-rate change of the player who plays it</h3>")
            parts.append(f"<div class='chart'>{chart}</div>")
        pr = play_rate_chart(cards, bad_cards, record.get("names"))
        if pr:
            parts.append("<h3>Play rates</h3>")
            parts.append(f"<div class='chart'>{pr}</div>")
        kinds = kind_chart(metrics)
        if kinds:
            parts.append("<h3>Card kinds: share of winning feasts, rares' effect on who wins</h3>")
            parts.append(f"<div class='chart'>{kinds}</div>")
        by = {m.name: m for m in metrics}
        names = dict(GAME_LEVEL)
        rows = [(names[n], show(by[n])) for n, _ in GAME_LEVEL if n in by]
        rows += [(m.name, show(m)) for m in metrics if m.group == "seat" and m.name.endswith("win_rate")]
        parts.append("<h3>Game level</h3>")
        parts.append(_html_table(("figure", "value [95% interval]"), rows))
        hist = histogram_chart(run.get("distributions", {}), _length_band(record, run["label"]))
        if hist:
            parts.append("<h3>Scores and game lengths</h3>")
            parts.append(f"<div class='chart'>{hist}</div>")
        other = [m for m in metrics if not m.name.startswith("card.") and m.name not in names]
        parts.append("<details><summary>All other metrics</summary>")
        parts.append(_html_table(("metric", "value [95% interval]", "n"), [(m.name, show(m), str(m.n)) for m in other]))
        parts.append("</details>")
    parts.append("<h2>Every gate</h2>")
    parts.append(_html_table(head, [_gate_line(r, record) for r in results], classes=[r.status.upper() for r in results]))
    parts.append(f"<script>{SORT_JS}</script>")
    parts.append("</body></html>")
    return "\n".join(parts)


SORT_JS = """
document.querySelectorAll('table').forEach(function(t){t.querySelectorAll('th').forEach(function(th,i){
th.title='sort';th.addEventListener('click',function(){var rows=[].slice.call(t.rows,1);var up=th.dataset.up!=='1';
th.dataset.up=up?'1':'0';var key=function(r){var s=r.cells[i].textContent.trim();var n=parseFloat(s);
return isNaN(n)?s.toLowerCase():n;};rows.sort(function(a,b){var x=key(a),y=key(b);
return (x<y?-1:x>y?1:0)*(up?1:-1);});rows.forEach(function(r){t.tBodies[0].appendChild(r);});});});});
"""


def _images(record: Mapping[str, Any]) -> dict[str, str]:
    """Card name -> the card's rendered image beside the report (``png-<profile>/<id>@<back>.png``,
    written by the render), if there is one yet."""
    out_dir = record.get("_out_dir")
    if not out_dir:
        return {}
    root = Path(out_dir)
    found = {}
    for cid, name in (record.get("names") or {}).items():
        pics = sorted(root.glob(f"png-*/{cid}@*.png")) or sorted(root.glob(f"png-*/{cid}.png"))
        if pics:
            found[name] = pics[0].relative_to(root).as_posix()
    return found


def _html_table(head: Sequence[str], rows: Sequence[Sequence[str]], classes: Sequence[str] | None = None,
                images: Mapping[str, str] | None = None) -> str:
    esc = html.escape
    out = ["<div class='wrap'><table><tr>" + "".join(f"<th>{esc(h)}</th>" for h in head) + "</tr>"]
    for i, row in enumerate(rows):
        cls = f" class='{classes[i]}'" if classes else ""
        cells = []
        for k, v in enumerate(row):
            img = (images or {}).get(str(v)) if k == 0 else None
            pic = f"<img class='card' src='{esc(img)}' alt=''>" if img else ""
            cells.append(f"<td>{pic}{esc(str(v))}</td>")
        out.append(f"<tr{cls}>" + "".join(cells) + "</tr>")
    out.append("</table></div>")
    return "".join(out)


def write_reports(record: Mapping[str, Any], out_dir: Path, images: bool = False) -> tuple[Path, Path]:
    """The HTML and Markdown reports in ``out_dir``; with ``images``, the card images the render
    just wrote beside their names (without: none, since images already in the folder may be an
    earlier build's, of other content)."""
    html_path, md_path = out_dir / "report.html", out_dir / "report.md"
    html_text = build_html({**record, "_out_dir": str(out_dir)} if images else dict(record))
    write_output(html_path, html_text.encode("utf-8"))  # a link there is replaced, not followed
    write_output(md_path, build_markdown(record).encode("utf-8"))
    return html_path, md_path


__all__ = ["build_html", "build_markdown", "fmt_value", "verdict", "write_reports"]
