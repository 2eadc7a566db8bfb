"""Balance gates: bounds on playtest metrics, kept as data in a set's ``game.yaml``.

A gate names a metric (or a pattern such as ``card.*.win_delta``) and a bound. It *fails* only
when the whole 95% interval of a metric lies outside the bound: the data then prove the problem,
so noise alone never fails a build. When the point value is outside the bound but the interval
still reaches inside it, the gate *passes* but the metric is *flagged* for the designer (the
report lists flags first): more games would tell. A gate that matches no metric at all fails,
because a misspelt metric name would otherwise pass silently forever.
"""

from __future__ import annotations

import fnmatch
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boneyard.engine.stats import Z95, Metric

from boneyard.errors import GateError

PASS = "pass"
FLAG = "flag"  # passes, but the value (not the interval) is outside the bound
FAIL = "fail"
MISSING = "missing"  # no metric matched the gate: counts as a failure


@dataclass(frozen=True, slots=True)
class Gate:
    """One bound on one metric or on every metric a pattern matches."""

    metric: str
    min: float | None = None
    max: float | None = None
    why: str = ""
    run: str | None = None  # only in the playtest run with this label (Grave Feast: "p4", ...)

    def matches(self, name: str) -> bool:
        return fnmatch.fnmatchcase(name, self.metric)

    def bound_text(self, unit: str = "") -> str:
        lo = "" if self.min is None else fmt_value(self.min, unit)
        hi = "" if self.max is None else fmt_value(self.max, unit)
        if self.min is not None and self.max is not None:
            return f"{lo} .. {hi}"
        return f">= {lo}" if self.min is not None else f"<= {hi}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"metric": self.metric}
        if self.min is not None:
            out["min"] = self.min
        if self.max is not None:
            out["max"] = self.max
        if self.run is not None:
            out["run"] = self.run
        if self.why:
            out["why"] = self.why
        return out


@dataclass(frozen=True, slots=True)
class GateResult:
    """A gate applied to one metric (``metric`` is None when nothing matched)."""

    gate: Gate
    status: str
    run: str
    metric: Metric | None = None

    @property
    def failed(self) -> bool:
        return self.status in (FAIL, MISSING)

    def to_json(self) -> dict[str, Any]:
        return {
            "gate": self.gate.to_json(),
            "status": self.status,
            "run": self.run,
            "metric": None if self.metric is None else self.metric.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GateResult:
        g = data["gate"]
        gate = Gate(g["metric"], g.get("min"), g.get("max"), g.get("why", ""), g.get("run"))
        m = data.get("metric")
        return cls(gate, data["status"], data["run"], None if m is None else Metric.from_json(m))


def parse_gates(raw: Any, where: str = "playtest.gates") -> list[Gate]:
    """Gates from the ``gates:`` list of a playtest section; one clear message per problem."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise GateError(f"{where}: expected a list of gates, got {type(raw).__name__}")
    gates: list[Gate] = []
    problems: list[str] = []
    for i, item in enumerate(raw):
        here = f"{where}[{i}]"
        if not isinstance(item, Mapping) or not isinstance(item.get("metric"), str):
            problems.append(f"{here}: a gate needs 'metric: <name or pattern>'")
            continue
        lo, hi = item.get("min"), item.get("max")
        bad = [k for k, v in (("min", lo), ("max", hi)) if v is not None and not _is_number(v)]
        if bad:
            problems.append(f"{here}: '{bad[0]}' must be a number")
            continue
        if lo is None and hi is None:
            problems.append(f"{here}: gate on '{item['metric']}' needs 'min', 'max' or both")
            continue
        if lo is not None and hi is not None and lo > hi:
            problems.append(f"{here}: min {lo} is above max {hi} (swap them)")
            continue
        gates.append(
            Gate(
                item["metric"],
                None if lo is None else float(lo),
                None if hi is None else float(hi),
                str(item.get("why", "")),
                item.get("run"),
            )
        )
    if problems:
        raise GateError("\n".join(problems))
    return gates


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def family_scale(count: int) -> float:
    """How much wider than 95% an interval is judged when one gate covers ``count`` metrics.

    A pattern gate such as ``card.*.sub_delta`` asks 36 questions at once; at 95% each, one
    unlucky interval among them would fail a sound set one build in a few. Judging each at
    95%/count (Bonferroni) keeps the chance that noise fails *any* of them under 5%.
    """
    if count <= 1:
        return 1.0
    return _z(1 - 0.025 / count) / Z95


def _z(p: float) -> float:
    """The standard normal quantile."""
    from statistics import NormalDist

    return NormalDist().inv_cdf(p)


def widened(m: Metric, scale: float) -> tuple[float, float]:
    """The interval of ``m`` stretched by ``scale`` about its value (each side on its own)."""
    return m.value - (m.value - m.low) * scale, m.value + (m.high - m.value) * scale


def judge(gate: Gate, m: Metric, scale: float = 1.0) -> str:
    """PASS, FLAG or FAIL for one metric: FAIL only if the whole interval (95%, widened by
    ``scale`` for a gate over many metrics) lies out of bounds; FLAG if the value does."""
    if math.isnan(m.value):
        return PASS  # nothing measured (e.g. a card never played): other gates speak for it
    low, high = widened(m, scale)
    if gate.max is not None and low > gate.max:
        return FAIL
    if gate.min is not None and high < gate.min:
        return FAIL
    if (gate.max is not None and m.value > gate.max) or (gate.min is not None and m.value < gate.min):
        return FLAG
    return PASS


STUCK_METRIC = "stuck_games"
"""Games of a run that hit the action cap (a run measures it only when it happened)."""

STUCK_GATE = Gate(STUCK_METRIC, max=0.0, why="games hit the action cap: the engine loops "
                  "(their seeds: playtest.json, runs[].stuck)")
"""Built into every playtest: any stuck game fails it, whatever the set's own gates say."""


def stuck_metric(count: int, games: int) -> Metric:
    """``stuck_games`` of a run: an exact count (its interval is the count itself)."""
    return Metric(STUCK_METRIC, float(count), float(count), float(count), games, "game", None, "games")


def evaluate(gates: Sequence[Gate], runs: Mapping[str, Sequence[Metric]]) -> list[GateResult]:
    """Every gate against every matching metric of every run it applies to.

    ``runs`` maps a run label ("main", or "p2"/"p4" for player counts) to that run's metrics. A
    gate that matches several metrics in a run judges them at family-wise 95% (see
    :func:`family_scale`). A run that measured stuck games (``stuck_games``) also fails the
    built-in :data:`STUCK_GATE`: a looping engine never passes a build.
    """
    results: list[GateResult] = []
    for label, metrics in runs.items():
        for m in metrics:
            if m.name == STUCK_METRIC and m.value > 0:
                results.append(GateResult(STUCK_GATE, FAIL, label, m))
    for gate in gates:
        matched = False
        for label, metrics in runs.items():
            if gate.run is not None and gate.run != label:
                continue
            mine = [m for m in metrics if gate.matches(m.name)]
            scale = family_scale(sum(1 for m in mine if not math.isnan(m.value)))
            for m in mine:
                matched = True
                results.append(GateResult(gate, judge(gate, m, scale), label, m))
        if not matched:
            results.append(GateResult(gate, MISSING, gate.run or "*"))
    return results


def gated_metrics(gates: Sequence[Gate], metrics: Iterable[Metric]) -> list[Metric]:
    """The metrics at least one gate looks at (the ones ``--precision`` must narrow)."""
    return [m for m in metrics if any(g.matches(m.name) for g in gates)]


def failed(results: Iterable[GateResult]) -> list[GateResult]:
    return [r for r in results if r.failed]


def fmt_value(v: float, unit: str = "") -> str:
    """A metric value the way a designer reads it: proportions as percent."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "n/a"
    if unit == "%":
        return f"{v * 100:+.1f}%" if v < 0 else f"{v * 100:.1f}%"
    if unit == "pp":  # a difference of proportions, in percentage points
        return f"{v * 100:+.1f}%"
    return f"{v:.3g}" if abs(v) < 1000 else f"{v:.0f}"


def fmt_metric(m: Metric) -> str:
    """``52.1% [49.9% .. 54.3%]``."""
    return f"{fmt_value(m.value, m.unit)} [{fmt_value(m.low, m.unit)} .. {fmt_value(m.high, m.unit)}]"


def outliers(metrics: Sequence[Metric], families: Sequence[str] = ("play_rate", "sub_delta", "win_delta"),
             z: float = 3.0) -> list[tuple[Metric, str]]:
    """Cards far from the rest of their set, whatever the gates say: for each family
    ``card.*.<family>``, a card whose value is more than ``z`` robust standard deviations
    (1.4826 x median absolute deviation) from the set's median, with its whole interval on
    that side of the median. These are flagged in the report, never failed."""
    out: list[tuple[Metric, str]] = []
    for fam in families:
        group = [m for m in metrics if m.name.startswith("card.") and m.name.endswith("." + fam)
                 and not math.isnan(m.value)]
        if len(group) < 5:
            continue
        values = sorted(m.value for m in group)
        med = _median(values)
        spread = 1.4826 * _median(sorted(abs(v - med) for v in values))
        if spread <= 0:
            continue
        for m in group:
            dist = (m.value - med) / spread
            if abs(dist) > z and (m.low > med or m.high < med):
                side = "above" if dist > 0 else "below"
                out.append((m, f"{fmt_value(m.value, m.unit)} is far {side} the set's median "
                               f"{fmt_value(med, m.unit)} ({abs(dist):.1f} robust sd)"))
    return out


def _median(values: Sequence[float]) -> float:
    n = len(values)
    return values[n // 2] if n % 2 else (values[n // 2 - 1] + values[n // 2]) / 2

