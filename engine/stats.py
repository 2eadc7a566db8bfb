"""Statistics for playtests: every figure Boneyard reports comes with a 95% interval.

Proportions use the Wilson score interval (sane at 0% and 100%, unlike the normal
approximation); means use the normal approximation, fine at the thousands of games a playtest
runs; differences of proportions use Newcombe's method (hybrid Wilson), which keeps good coverage
when one group is small, as "games where a rare card was played" often is.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

Z95 = 1.959963984540054


@dataclass(frozen=True, slots=True)
class Metric:
    """One measured figure with its 95% interval.

    ``name`` is stable and machine-readable (gates and diffs refer to it), e.g.
    ``first_player_win_rate`` or ``card.anger.win_delta``; ``group`` is the table it is shown
    in ("game", "seat", "card", ...), ``subject`` the card/seat it is about, if any.
    """

    name: str
    value: float
    low: float
    high: float
    n: int
    group: str = "game"
    subject: str | None = None
    unit: str = ""  # "" for plain numbers, "%" when value is a proportion shown as percent

    @property
    def width(self) -> float:
        return self.high - self.low

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Metric:
        return cls(**data)


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float, float]:
    """(p, low, high) for a proportion; (nan, 0, 1) when n is 0."""
    if n <= 0:
        return math.nan, 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # Clamp to include p: rounding can put the bound a hair past 0% or 100%.
    return p, min(p, max(0.0, centre - half)), max(p, min(1.0, centre + half))


def mean_ci(values: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """(mean, low, high) by the normal approximation; a single value has a zero-width interval."""
    n = len(values)
    if n == 0:
        return math.nan, math.nan, math.nan
    m = math.fsum(values) / n
    if n == 1:
        return m, m, m
    var = math.fsum((v - m) ** 2 for v in values) / (n - 1)
    half = z * math.sqrt(var / n)
    return m, m - half, m + half


def diff_proportions(
    s1: float, n1: int, s2: float, n2: int, z: float = Z95
) -> tuple[float, float, float]:
    """(p1 - p2, low, high) by Newcombe's hybrid Wilson method."""
    p1, l1, u1 = wilson(s1, n1, z)
    p2, l2, u2 = wilson(s2, n2, z)
    if n1 <= 0 or n2 <= 0:
        return math.nan, -1.0, 1.0
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, max(-1.0, low), min(1.0, high)


def lead_story(per_turn: Sequence[Sequence[float]], winner: int | None) -> tuple[int, int | None]:
    """(lead changes, turn after which ``winner`` led at every later turn end) from the scores
    after each turn.

    The leader is the strictly highest score at a turn end (none on a tie); a change is a new
    leader different from the last one. A draw (``winner`` None) was never decided: no turn.
    """
    leaders = []
    for scores in per_turn:
        top = max(scores)
        leaders.append(list(scores).index(top) if list(scores).count(top) == 1 else -1)
    changes, last = 0, -1
    for x in leaders:
        if x >= 0:
            if last >= 0 and x != last:
                changes += 1
            last = x
    decided = None
    if winner is not None and leaders:
        decided = len(leaders)
        for t in range(len(leaders) - 1, -1, -1):
            if leaders[t] != winner:
                break
            decided = t + 1
    return changes, decided


def proportion_metric(
    name: str, successes: float, n: int, *, group: str = "game", subject: str | None = None
) -> Metric:
    p, lo, hi = wilson(successes, n)
    return Metric(name, p, lo, hi, n, group, subject, "%")


def shifted(old: Metric, change: float, low: float, high: float) -> tuple[float, float, float]:
    """(value, low, high) of a level known as ``old`` (its value and 95% interval) plus a change
    measured apart with its own 95% interval ``low .. high``.

    Why: a change-aware build gives a figure as the last pass's value plus the paired change on
    the same deals; the change is measured precisely, but the last pass's value was itself a
    sample. Each side's half-width (below and above) is the two errors added in quadrature, so an
    edit that changes no game keeps the last pass's interval instead of a zero-width one."""
    value = old.value + change
    below = math.hypot(old.value - old.low, change - low)
    above = math.hypot(old.high - old.value, high - change)
    return value, value - below, value + above


def mean_metric(
    name: str, values: Sequence[float], *, group: str = "game", subject: str | None = None, unit: str = ""
) -> Metric:
    m, lo, hi = mean_ci(values)
    return Metric(name, m, lo, hi, len(values), group, subject, unit)


class Tally:
    """Sufficient statistics that merge exactly: per name the count, sum and sum of squares.

    Playtests are cut into blocks that run anywhere (worker processes, cluster nodes); each
    block fills its own tally and the run's figures come from the blocks' tallies merged in block
    order, never from averages of averages, so a run's report does not depend on where or in how
    many pieces it ran, and memory stays flat however many games are played.
    """

    __slots__ = ("sums",)

    def __init__(self, sums: dict[str, list[float]] | None = None) -> None:
        self.sums: dict[str, list[float]] = sums if sums is not None else {}

    def add(self, name: str, x: float) -> None:
        """One observation: a value for a mean, or a success share in [0, 1] for a rate."""
        s = self.sums.get(name)
        if s is None:
            self.sums[name] = [1, x, x * x]
        else:
            s[0] += 1
            s[1] += x
            s[2] += x * x

    def merge(self, other: Tally) -> None:
        for name, (n, total, squares) in other.sums.items():
            s = self.sums.get(name)
            if s is None:
                self.sums[name] = [n, total, squares]
            else:
                s[0] += n
                s[1] += total
                s[2] += squares

    def n(self, name: str) -> int:
        s = self.sums.get(name)
        return int(s[0]) if s else 0

    def total(self, name: str) -> float:
        s = self.sums.get(name)
        return s[1] if s else 0.0

    def names(self, prefix: str = "") -> list[str]:
        return sorted(k for k in self.sums if k.startswith(prefix))

    def mean_ci(self, name: str, over: int | None = None, z: float = Z95) -> tuple[float, float, float]:
        """(mean, low, high) as :func:`mean_ci` gives for the same values; ``over``: the count
        of observations when those never added are zeros (an event most games never see)."""
        s = self.sums.get(name)
        n, total, squares = s if s else (0, 0.0, 0.0)
        if over is not None:
            n = over
        if n == 0:
            return math.nan, math.nan, math.nan
        m = total / n
        if n == 1:
            return m, m, m
        var = max(0.0, (squares - total * total / n) / (n - 1))
        half = z * math.sqrt(var / n)
        return m, m - half, m + half

    def sd(self, name: str) -> float:
        s = self.sums.get(name)
        if not s or s[0] < 2:
            return 0.0
        n, total, squares = s
        return math.sqrt(max(0.0, (squares - total * total / n) / (n - 1)))

    def mean_metric(self, name: str, key: str | None = None, *, group: str = "game",
                    subject: str | None = None, unit: str = "", over: int | None = None,
                    least: float | None = None) -> Metric:
        """The mean with its normal interval; ``least``: the smallest value the quantity can
        take (0 for a count), where the interval's low end is cut (a rare count read
        "0.01 (-0.01 to 0.04)")."""
        m, lo, hi = self.mean_ci(key or name, over)
        if least is not None and not math.isnan(lo):
            lo = max(lo, least)
        n = self.n(key or name) if over is None else over
        return Metric(name, m, lo, hi, n, group, subject, unit)

    def proportion_metric(self, name: str, key: str | None = None, *, group: str = "game",
                          subject: str | None = None) -> Metric:
        return proportion_metric(name, self.total(key or name), self.n(key or name),
                                 group=group, subject=subject)

    def ratio_metric(self, name: str, num: str, den: str, cross: str, games: int, *,
                     group: str = "game", subject: str | None = None, unit: str = "%") -> Metric:
        """Sum of ``num`` over sum of ``den`` (e.g. fights won of fights fought), with games as
        the unit: the events of one game are not independent (one strong hand wins several of
        its fights), so a Wilson interval over events would be too narrow. The interval is the
        ratio estimator's delta-method one; ``cross`` holds each game's num x den, and a game
        never added counts as zeros (``games``: all of them). ``unit`` "%": a share, kept in
        [0, 1]."""
        _n, w, ww = self.sums.get(num) or (0, 0.0, 0.0)
        _n, e, ee = self.sums.get(den) or (0, 0.0, 0.0)
        we = self.total(cross)
        if games < 2 or e <= 0:
            return Metric(name, math.nan, math.nan, math.nan, 0, group, subject, unit)
        r = w / e
        resid = max(0.0, ww - 2 * r * we + r * r * ee)  # sum over games of (num - r den)^2
        half = Z95 * math.sqrt(resid / (games * (games - 1))) / (e / games)
        lo, hi = r - half, r + half
        if unit == "%":  # a share of events
            lo, hi = max(0.0, lo), min(1.0, hi)
        return Metric(name, r, lo, hi, int(e), group, subject, unit)

    def sd_metric(self, name: str, key: str, unit: str = "") -> Metric:
        """A spread with its interval (normal approximation for a standard deviation)."""
        n = self.n(key)
        sd = self.sd(key)
        se = sd / math.sqrt(2 * max(1, n - 1))
        return Metric(name, sd, max(0.0, sd - Z95 * se), sd + Z95 * se, n, "game", None, unit)

    def to_json(self) -> dict[str, list[float]]:
        return {k: list(v) for k, v in self.sums.items()}
