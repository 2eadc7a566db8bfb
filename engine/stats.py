"""Statistics for playtests: every figure Boneyard reports comes with a 95% interval.

Proportions use the Wilson score interval (sane at 0% and 100%, unlike the normal
approximation); means use the normal approximation, fine at the thousands of games a playtest
runs; differences of proportions use Newcombe's method (hybrid Wilson), which keeps good coverage
when one group is small, as "games where a rare card was played" often is.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
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


def paired_mean_diff(pairs: Iterable[tuple[float, float]], z: float = Z95) -> tuple[float, float, float]:
    """(mean of a - b, low, high) for paired observations (common random numbers)."""
    return mean_ci([a - b for a, b in pairs], z)


def proportion_metric(
    name: str, successes: float, n: int, *, group: str = "game", subject: str | None = None
) -> Metric:
    p, lo, hi = wilson(successes, n)
    return Metric(name, p, lo, hi, n, group, subject, "%")


def mean_metric(
    name: str, values: Sequence[float], *, group: str = "game", subject: str | None = None, unit: str = ""
) -> Metric:
    m, lo, hi = mean_ci(values)
    return Metric(name, m, lo, hi, len(values), group, subject, unit)
