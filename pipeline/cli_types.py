"""The CLI's number options, named as a designer says them.

click's ``IntRange`` refuses ``--seed abc`` with "'abc' is not a valid integer range": the
words of its type, not of the value asked for. These say "a whole number" and, for a number
typed in a form a shell user may reach for (``1e3``, ``10,000``, ``2.0``), which one to write.
"""

from __future__ import annotations

import math
import re
from typing import Any

import click


def _bounds(kind: click.types._NumberRangeBase, value: float) -> str | None:
    """Why ``value`` is outside the range, in words ("must be at least 1, got 0"), or None."""
    low, high = kind.min, kind.max
    if (low is None or value >= low) and (high is None or value <= high):
        return None
    if low is not None and high is not None:
        return f"must be from {low:g} to {high:g}, got {value:g}"
    return f"must be at least {low:g}, got {value:g}" if low is not None else \
        f"must be at most {high:g}, got {value:g}"


def _meant(text: str) -> int | None:
    """The whole number ``text`` writes in another form, or None."""
    cleaned = re.sub(r"(?<=\d)[,_](?=\d{3})", "", text.strip())
    try:
        value = float(cleaned)
    except ValueError:
        return None
    return int(value) if math.isfinite(value) and value.is_integer() else None


class WholeNumber(click.IntRange):
    """``click.IntRange`` whose refusals say "whole number" and how to write the one meant."""

    name = "whole number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            try:
                int(value.strip())
            except ValueError:
                meant = _meant(value)
                how = f" (write {meant})" if meant is not None else ""
                self.fail(f"{value!r} is not a whole number{how}", param, ctx)
        why = _bounds(self, int(value))
        if why:
            self.fail(why, param, ctx)
        return super().convert(value, param, ctx)


class Number(click.FloatRange):
    """``click.FloatRange`` whose refusals say "number"."""

    name = "number"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str):
            try:
                float(value.strip())
            except ValueError:
                self.fail(f"{value!r} is not a number (write it like 0.02)", param, ctx)
        why = _bounds(self, float(value))
        if why:
            self.fail(why, param, ctx)
        return super().convert(value, param, ctx)
