"""Small English helpers the effect templates share: ranges, signs, articles, back names.

Kept apart from the vocabulary (``effects.py``) so that the definitions read as a list of
definitions, and from the composer (``text.py``) so that both can use them without a circle.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

PLAIN = "plain"
KEYWORD = "keyword"

Run = tuple[str, str]
"""A piece of printed text and its style (``plain`` or ``keyword``)."""

#: Back names used when no card set is given (game.yaml's names win when one is).
DEFAULT_BACK_NAMES: dict[str, str] = {
    "double": "Double",
    "power_up": "Power Up",
    "unearth": "Unearth",
}


class Bounds:
    """A comparison list (``ge 5``, ``le 3`` ...) reduced to an integer range plus exclusions.

    Several ``when:`` comparisons on one quantity describe one range; printing the range reads
    better than printing each comparison ("turns 2 to 4", not "turn 2 or later and 4 or earlier").
    """

    __slots__ = ("hi", "lo", "ne")

    def __init__(self, comparisons: Iterable[tuple[str, int]]) -> None:
        self.lo: int | None = None
        self.hi: int | None = None
        self.ne: list[int] = []
        for op, n in comparisons:
            n = int(n)
            if op in ("ge", "gt", "eq"):
                low = n + 1 if op == "gt" else n
                self.lo = low if self.lo is None else max(self.lo, low)
            if op in ("le", "lt", "eq"):
                high = n - 1 if op == "lt" else n
                self.hi = high if self.hi is None else min(self.hi, high)
            if op == "ne":
                self.ne.append(n)
            elif op not in ("ge", "gt", "eq", "le", "lt"):
                raise ValueError(f"unknown comparison {op!r}")

    @property
    def exact(self) -> int | None:
        return self.lo if self.lo is not None and self.lo == self.hi else None

    def phrase(self, more: str, less: str, exactly: str = "") -> str:
        """``5 or more`` / ``3 or less`` / ``2 to 4`` / ``5``, then ``other than n`` exclusions."""
        if self.exact is not None:
            text = f"{exactly}{self.exact}"
        elif self.lo is not None and self.hi is not None:
            text = f"{self.lo} to {self.hi}"
        elif self.lo is not None:
            text = f"{self.lo} or {more}"
        elif self.hi is not None:
            text = f"{self.hi} or {less}"
        else:
            text = ""
        if self.ne:
            others = " or ".join(str(n) for n in self.ne)
            text = f"{text}, but not {others}" if text else f"other than {others}"
        return text


def signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"-{-n}"


def points(n: int) -> str:
    return f"{n} victory point" if n == 1 else f"{n} victory points"


def article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def back_name(back: str, back_names: Mapping[str, str]) -> str:
    return back_names.get(back, back.replace("_", " ").title())
