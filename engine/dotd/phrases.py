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
    """A comparison list (``ge 5``, ``le 3`` ...) reduced to the whole numbers it allows.

    Several ``when:`` comparisons on one quantity describe one set of numbers: a range
    ``lo..hi`` (either end may be open) less the exclusions ``ne``. Printing that set reads better
    than printing each comparison ("turns 2 to 4", not "turn 2 or later and 4 or earlier").

    ``floor`` is the least value the quantity can take by its definition (a count 0, a turn or a
    slot 1): the range starts there, and an exclusion at either end of the range moves that end
    (``count: {ne: 0}`` is "1 or more", ``turn: {le: 4, ne: 1}`` is "turns 2 to 4"), so the words
    name exactly the numbers the interpreter accepts, in the fewest words. :meth:`shape` says how
    to name them; the game's clauses put them into words.
    """

    __slots__ = ("floor", "hi", "lo", "ne", "raw")

    def __init__(self, comparisons: Iterable[tuple[str, int]], floor: int | None = None) -> None:
        self.raw: list[tuple[str, int]] = [(op, int(n)) for op, n in comparisons]
        self.floor = floor
        lo: int | None = floor
        hi: int | None = None
        ne: set[int] = set()
        for op, n in self.raw:
            if op in ("ge", "gt", "eq"):
                low = n + 1 if op == "gt" else n
                lo = low if lo is None else max(lo, low)
            if op in ("le", "lt", "eq"):
                high = n - 1 if op == "lt" else n
                hi = high if hi is None else min(hi, high)
            if op == "ne":
                ne.add(n)
            elif op not in ("ge", "gt", "eq", "le", "lt"):
                raise ValueError(f"unknown comparison {op!r}")
        # an exclusion outside the range says nothing; one at an end moves that end
        kept = sorted(n for n in ne if (lo is None or n >= lo) and (hi is None or n <= hi))
        while lo is not None and lo in kept:
            kept.remove(lo)
            lo += 1
        while hi is not None and hi in kept:
            kept.remove(hi)
            hi -= 1
        self.lo, self.hi, self.ne = lo, hi, kept

    @property
    def empty(self) -> bool:
        """No number satisfies every comparison (the condition can never hold)."""
        return self.lo is not None and self.hi is not None and self.lo > self.hi

    @property
    def exact(self) -> int | None:
        return self.lo if self.lo is not None and self.lo == self.hi else None

    def shape(self) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
        """How to name the numbers: ``(kind, numbers, exclusions still to say)``.

        ``never`` (none); ``one`` ``(n,)``; ``list`` a few numbers to name each (``2 or 3``,
        ``2 or 4``: ranges of two, and ranges of at most three numbers left with a gap);
        ``range`` ``(lo, hi)``; ``from`` ``(lo,)`` (no upper end); ``upto`` ``(hi,)`` (no lower
        end above the floor); ``any`` ``()`` (every number from the floor). Only ``range``,
        ``from``, ``upto`` and ``any`` leave exclusions to say ("but not 3", "other than 3").
        """
        lo, hi, ne = self.lo, self.hi, tuple(self.ne)
        if self.empty:
            return "never", (), ()
        if lo is not None and lo == hi:
            return "one", (lo,), ()
        low = lo if lo is not None and lo != self.floor else None  # a lower end the text says
        if lo is not None and hi is not None and (low is not None or ne):
            if not ne:
                return ("list", (lo, hi), ()) if hi == lo + 1 else ("range", (lo, hi), ())
            if hi - lo + 1 - len(ne) <= 3:
                return "list", tuple(n for n in range(lo, hi + 1) if n not in ne), ()
            return ("range", (lo, hi), ne) if low is not None else ("upto", (hi,), ne)
        if low is not None:
            return "from", (low,), ne
        if hi is not None:
            return "upto", (hi,), ne
        return "any", (), ne

    def literal(self, more: str, less: str, exactly: str = "") -> str:
        """Each comparison as written, joined with ``and`` (``5 or more and 3 or less``): the
        words for a set of comparisons no number satisfies, which has no shorter truthful name."""
        words = {"ge": lambda n: f"{n} or {more}", "gt": lambda n: f"{n + 1} or {more}",
                 "le": lambda n: f"{n} or {less}", "lt": lambda n: f"{n - 1} or {less}",
                 "eq": lambda n: f"{exactly}{n}", "ne": lambda n: f"not {n}"}
        return " and ".join(words[op](n) for op, n in self.raw)

    def numbers(self, more: str, less: str, exactly: str = "") -> str:
        """The numbers without the exclusions: ``5`` / ``2 or 3`` / ``2 to 4`` / ``5 or more`` /
        ``3 or less`` (``never``: :meth:`literal`)."""
        kind, nums, _ = self.shape()
        if kind == "never":
            return self.literal(more, less, exactly)
        if kind == "one":
            return f"{exactly}{nums[0]}"
        if kind == "list":
            return either(nums)
        if kind == "range":
            return f"{nums[0]} to {nums[1]}"
        if kind == "from":
            return f"{nums[0]} or {more}"
        if kind == "upto":
            return f"{nums[0]} or {less}"
        return f"{self.lo} or {more}" if self.lo is not None else "any number"

    def phrase(self, more: str, less: str, exactly: str = "") -> str:
        """:meth:`numbers`, then ``, but not n`` for an exclusion left (``other than n`` when
        there is nothing else to say)."""
        kind, _, ne = self.shape()
        if not ne:
            return self.numbers(more, less, exactly)
        if kind == "any":
            return f"other than {either(ne)}"
        return f"{self.numbers(more, less, exactly)}, but not {either(ne)}"


def either(numbers: Iterable[int]) -> str:
    """``2`` / ``2 or 4`` / ``2, 4 or 5``."""
    words = [str(n) for n in numbers]
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"


def signed(n: int) -> str:
    return f"+{n}" if n >= 0 else f"-{-n}"


def points(n: int) -> str:
    return f"{n} victory point" if n == 1 else f"{n} victory points"


def article(word: str) -> str:
    return "an" if word[:1].lower() in "aeiou" else "a"


def back_name(back: str, back_names: Mapping[str, str]) -> str:
    return back_names.get(back, back.replace("_", " ").title())
