"""Balance gates: bounds on playtest metrics, kept as data in a set's ``game.yaml``.

A gate names a metric (or a pattern such as ``card.*.sub_delta``) and a bound, and is a
sequential test: the build samples games in looks (batches whose sizes double) until the
metric's interval lies *wholly inside* the bound (pass) or *wholly outside* it (fail). A metric
still straddling its bound at the last look is *undecided*, which fails the build unless the
designer accepts it (``--accept-undecided``). A gate that matches no metric at all fails,
because a misspelt metric name would otherwise pass silently forever (except a ``changed`` gate,
on what only a build against the last pass measures).

Error rates (docs/playtest.md), Bonferroni over the planned looks: a metric *fails* when its
interval at ``1 - alpha / (looks x family)`` lies outside the bound, ``family`` being the
metrics one pattern gate matches, so noise fails any sound metric of a gate at most ``alpha / 2``
of the time (one false alarm fails a whole build, hence family-wise); it *passes* when its
interval at ``1 - alpha / looks`` lies inside, so each metric truly outside its bound passes at
most ``alpha / 2`` of the time (a per-card promise: every bad card is caught at 97.5%). A
pre-declared hypothesis (a changed card, one the designer names with ``--focus``) is a family of
one: the full ``alpha``.
"""

from __future__ import annotations

import difflib
import fnmatch
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boneyard.engine.stats import Z95, Metric

from boneyard.errors import GateError

PASS = "pass"
FLAG = "flag"  # passes, but the value (not the interval) is outside the bound (screens, older records)
FAIL = "fail"
MISSING = "missing"  # no metric matched the gate: counts as a failure
UNDECIDED = "undecided"  # the interval still straddles the bound at the last look
ALPHA = 0.05
"""Default error budget per gate (two-sided): each wrong verdict at most alpha / 2."""


@dataclass(frozen=True, slots=True)
class Gate:
    """One bound on one metric or on every metric a pattern matches."""

    metric: str
    min: float | None = None
    max: float | None = None
    why: str = ""
    run: str | None = None  # only in the playtest run with this label (Grave Feast: "p4", ...)
    # a screen on a fixed sample (the sensitivity variants): only proof fails it; a metric still
    # straddling its bound is flagged for the designer instead of undecided (no more games come)
    screen: bool = False
    # an exact count that only grows with the games (coverage: "fired at least N times"): below
    # its bound at an early look is no proof, so it never stops the sampling; judged on the whole
    count: bool = False
    # judged on what changed since the last pass (a metric only change-aware builds measure, such
    # as a changed card against its old self): a build from scratch matches nothing, no failure
    changed: bool = False

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
        if self.screen:
            out["screen"] = True
        if self.count:
            out["count"] = True
        if self.changed:
            out["changed"] = True
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
        return self.status in (FAIL, MISSING, UNDECIDED)

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
        gate = Gate(g["metric"], g.get("min"), g.get("max"), g.get("why", ""), g.get("run"),
                    bool(g.get("screen", False)), bool(g.get("count", False)),
                    bool(g.get("changed", False)))
        m = data.get("metric")
        return cls(gate, data["status"], data["run"], None if m is None else Metric.from_json(m))


def parse_gates(raw: Any, where: str = "playtest.gates", *, kinds: bool = False) -> list[Gate]:
    """Gates from the ``gates:`` list of a playtest section; one clear message per problem.

    ``kinds``: also read the kinds only the build makes (``screen``, ``count``), as a record
    keeps them; a record judged again without them would judge a sensitivity screen as a
    sequential gate, and not believe its own verdict."""
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
            # min 40 with max 0.6: a percentage among shares, not two bounds the wrong way round
            fix = f"for {lo}% write {lo / 100:g}" if 1 < lo <= 100 and lo / 100 <= hi <= 1 else "swap them"
            problems.append(f"{here}: min {lo} is above max {hi} ({fix})")
            continue
        if lo is not None and hi is not None and lo == hi and not (kinds and item.get("count")):
            problems.append(f"{here}: min and max are both {lo}: no measured interval lies inside "
                            "a single value, so the gate could never pass (give a range around it)")
            continue
        gates.append(
            Gate(
                item["metric"],
                None if lo is None else float(lo),
                None if hi is None else float(hi),
                str(item.get("why", "")),
                item.get("run"),
                screen=kinds and bool(item.get("screen", False)),
                count=kinds and bool(item.get("count", False)),
                changed=bool(item.get("changed", False)),
            )
        )
    if problems:
        raise GateError("\n".join(problems))
    return gates


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def family_scale(count: int) -> float:
    """How much wider than 95% an interval is judged when one gate covers ``count`` metrics
    (Bonferroni, one look): kept for callers that judge a single look."""
    return z_for(ALPHA, 1, count) / Z95


def z_for(alpha: float, looks: int, family: int) -> float:
    """The normal quantile each look judges at: two-sided ``alpha`` split over the planned
    ``looks`` and the ``family`` of metrics one gate matches (Bonferroni, so each kind of wrong
    verdict has probability at most alpha / 2 whatever the looks and the correlation)."""
    return _z(1 - alpha / (2 * max(1, looks) * max(1, family)))


def _z(p: float) -> float:
    """The standard normal quantile."""
    from statistics import NormalDist

    return NormalDist().inv_cdf(p)


def widened(m: Metric, scale: float) -> tuple[float, float]:
    """The interval of ``m`` stretched by ``scale`` about its value (each side on its own)."""
    return m.value - (m.value - m.low) * scale, m.value + (m.high - m.value) * scale


def judge(gate: Gate, m: Metric, scale: float = 1.0, pass_scale: float | None = None) -> str:
    """PASS, FAIL or UNDECIDED for one metric: FAIL if the whole interval (95%, widened by
    ``scale``) lies out of bounds, PASS if the interval widened by ``pass_scale`` (default:
    ``scale``) lies wholly inside, else UNDECIDED (more games would tell)."""
    if math.isnan(m.value):
        return PASS  # nothing measured (e.g. a card never played): other gates speak for it
    low, high = widened(m, scale)
    if gate.max is not None and low > gate.max:
        return FAIL
    if gate.min is not None and high < gate.min:
        return FAIL
    low, high = widened(m, scale if pass_scale is None else pass_scale)
    if (gate.max is not None and high > gate.max) or (gate.min is not None and low < gate.min):
        if not gate.screen:
            return UNDECIDED
        outside = (gate.max is not None and m.value > gate.max) or (gate.min is not None and m.value < gate.min)
        return FLAG if outside else PASS
    return PASS


STUCK_METRIC = "stuck_games"
"""Games of a run that hit the action cap (a run measures it only when it happened)."""

STUCK_GATE = Gate(STUCK_METRIC, max=0.0, why="games hit the action cap: the engine loops "
                  "(their seeds: playtest.json, runs[].stuck)")
"""Built into every playtest: any stuck game fails it, whatever the set's own gates say."""


def stuck_metric(count: int, games: int) -> Metric:
    """``stuck_games`` of a run: an exact count (its interval is the count itself)."""
    return Metric(STUCK_METRIC, float(count), float(count), float(count), games, "game", None, "games")


def evaluate(gates: Sequence[Gate], runs: Mapping[str, Sequence[Metric]], *, alpha: float = ALPHA,
             looks: int = 1, declared: Iterable[str] = ()) -> list[GateResult]:
    """Every gate against every matching metric of every run it applies to.

    ``runs`` maps a run label ("main", or "p2"/"p4" for player counts) to that run's metrics.
    Each metric is judged at :func:`z_for` (``alpha`` over ``looks`` planned looks and the
    metrics the gate matches in that run); a metric named in ``declared`` (a pre-declared
    hypothesis: a changed card, a focused card) is a family of one. A run that measured stuck
    games (``stuck_games``) also fails the built-in :data:`STUCK_GATE`.
    """
    mine_declared = set(declared)
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
            family = sum(1 for m in mine if not math.isnan(m.value) and m.name not in mine_declared)
            z_pass = z_for(alpha, looks, 1)
            for m in mine:
                matched = True
                z = z_for(alpha, looks, 1 if m.name in mine_declared else family)
                results.append(GateResult(gate, judge(gate, m, z / Z95, z_pass / Z95), label, m))
        if not matched and not gate.changed:
            results.append(GateResult(gate, MISSING, gate.run or "*"))
    return results


def open_metrics(gates: Sequence[Gate], metrics: Sequence[Metric], *, alpha: float = ALPHA,
                 looks: int = 1, declared: Iterable[str] = (), run: str = "main") -> list[Metric]:
    """The gated metrics of one run still undecided at this look (the ones more games must
    settle)."""
    results = evaluate([g for g in gates if g.run in (None, run)], {run: metrics}, alpha=alpha,
                       looks=looks, declared=declared)
    return [r.metric for r in results if r.status == UNDECIDED and r.metric is not None]


def look_sizes(first: int, cap: int) -> list[int]:
    """Cumulative sample sizes at each planned look: ``first``, doubling, up to ``cap``."""
    sizes = [max(1, first)]
    while sizes[-1] < cap:
        sizes.append(min(cap, sizes[-1] * 2))
    return sizes


def gated_metrics(gates: Sequence[Gate], metrics: Iterable[Metric]) -> list[Metric]:
    """The metrics at least one gate looks at (the ones ``--precision`` must narrow)."""
    return [m for m in metrics if any(g.matches(m.name) for g in gates)]


_SUBJECT = re.compile(r"^(card|feast|kind|rare|seat)\.[^.]+\.")
"""A per-subject metric's subject (``card.oaf.``), which a gate names as a pattern (``card.*.``)."""


def nearest_metric(name: str, names: Iterable[str]) -> str | None:
    """The metric name or per-card pattern nearest a gate's ``name`` that matched none of
    ``names`` (usually a misspelling), or None when none is close."""
    names = sorted(set(names))
    patterns = sorted({_SUBJECT.sub(r"\1.*.", n) for n in names})
    near = difflib.get_close_matches(name, patterns + names, n=1, cutoff=0.6)
    return near[0] if near else None


def missing_text(gate: Gate, names: Iterable[str]) -> str:
    """What the failed-gates tables say of a gate that matched no metric: the nearest name the
    record holds, as ``validate`` says it, since a misspelling is the usual cause."""
    near = nearest_metric(gate.metric, names)
    return "no metric of that name" + (f": did you mean '{near}'?" if near else "")


def failed(results: Iterable[GateResult], accept_undecided: bool = False) -> list[GateResult]:
    """The results that fail a build (undecided ones too, unless the designer accepts them)."""
    return [r for r in results if r.failed and not (accept_undecided and r.status == UNDECIDED)]


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

