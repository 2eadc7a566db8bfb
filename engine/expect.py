"""Scenario expectations shared by every game: an exact fact or a matcher on a zone, a score or
the event log.

A scenario states what a position must show (``expect:``); a game's runner turns its position
into plain data and asks :func:`match` where the two differ. A wanted value is either the fact
itself, or a mapping of matchers, so a designer can say what matters and nothing more:

``contains: [...]``  every item is there (as often as listed);
``absent: [...]``    no item is there;
``at_least: N`` / ``at_most: N``  a list's length, or a number, is within the bound.

Lines of text (an event log) match an item when the line contains it, so ``contains: ["feasts"]``
needs no whole sentence. A wanted mapping checks only the keys it writes; a wanted string against
a ``{card: ...}`` entry (a line slot) checks only its card; a card named without a copy number
(``oaf@double``, ``blood 9``) matches any copy (``oaf@double#2``, ``blood 9#2``).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection, Mapping
from typing import Any

MATCHERS = ("contains", "absent", "at_least", "at_most")


def is_matcher(want: Any) -> bool:
    """A mapping made only of matcher keys (the schema refuses a mix)."""
    return isinstance(want, Mapping) and bool(want) and all(k in MATCHERS for k in want)


_COPY = re.compile(r"(?<=\w)#\d+")


def _same(got: Any, want: Any, text: bool) -> bool:
    if isinstance(got, str) and isinstance(want, str) and "#" not in want:
        got = _COPY.sub("", got)  # a card named without its copy number: any copy will do
    if text and isinstance(got, str) and isinstance(want, str):
        return want.strip().lower() in got.lower()
    if isinstance(want, str) and isinstance(got, Mapping) and "card" in got:
        return bool(got["card"] == want)
    if isinstance(want, Mapping) and isinstance(got, Mapping):
        return all(k in got and _same(got[k], v, text) for k, v in want.items())
    return bool(got == want)


def _items(got: Any) -> list[Any]:
    return list(got) if isinstance(got, list) else [got]


def _contains(got: Any, want: list[Any], text: bool) -> bool:
    rest = _items(got)
    for w in want:
        hit = next((i for i, g in enumerate(rest) if _same(g, w, text)), None)
        if hit is None:
            return False
        rest.pop(hit)
    return True


def _short(items: list[Any], most: int = 5) -> str:
    """A list as a bound's failure shows it: its length says the miss, a few items say what."""
    shown = ", ".join(repr(x) for x in items[:most])
    return shown + (f", ... {len(items) - most} more" if len(items) > most else "")


def match(got: Any, want: Any, where: str, *, unordered: bool = False, text: bool = False,
          whole: bool = False, unordered_keys: Collection[str] = ()) -> list[str]:
    """Where ``got`` fails ``want``, one message per failure (``where: expected ..., got ...``).

    ``unordered``: lists compare as multisets (a hand); ``unordered_keys``: the keys, at any
    depth, whose lists do; ``text``: strings match by containment (an event log); ``whole``: a
    list that differs is reported whole, not item by item."""
    if is_matcher(want):
        out = []
        for op, v in want.items():
            if op == "contains":
                ok = _contains(got, _items(v), text)
            elif op == "absent":
                ok = not any(_same(g, w, text) for w in _items(v) for g in _items(got))
            else:
                n = len(got) if isinstance(got, list) else got
                ok = isinstance(n, int) and not isinstance(n, bool) and (
                    n >= v if op == "at_least" else n <= v)
            if not ok:
                shown = (f"{len(got)} ({_short(got)})" if isinstance(got, list)
                         and op in ("at_least", "at_most") else repr(got))
                out.append(f"{where}: expected {op.replace('_', ' ')} {v!r}, got {shown}")
        return out
    if isinstance(want, Mapping):
        if not isinstance(got, Mapping):
            wrong = [k for k in want if k not in MATCHERS]
            if wrong:  # a mapping against a list or a value can only be matchers
                near = difflib.get_close_matches(str(wrong[0]), MATCHERS, 1)
                hint = f"did you mean '{near[0]}'? " if near else ""
                return [f"{where}: unknown matcher '{wrong[0]}' ({hint}matchers: "
                        f"{', '.join(MATCHERS)})"]
            return [f"{where}: expected a mapping, got {got!r}"]
        out = []
        for k, v in want.items():
            at = f"{where}.{k}" if where else str(k)
            if k not in got:
                out.append(f"{at}: missing (known: {', '.join(map(str, got))})")
            else:
                out += match(got[k], v, at, unordered=unordered or k in unordered_keys,
                             text=text, whole=whole, unordered_keys=unordered_keys)
        return out
    if isinstance(want, list) and isinstance(got, list):
        if not any(isinstance(g, Mapping) for g in got):  # a mapping among values: a matcher,
            for k, w in enumerate(want):  # misspelt, whatever the lengths say
                if isinstance(w, Mapping) and any(key not in MATCHERS for key in w):
                    return match(None, w, f"{where}[{k}]")
        if unordered:
            if len(got) == len(want) and _contains(got, want, text):
                return []
            return [f"{where}: expected {want!r} (in any order), got {got!r}"]
        if len(got) != len(want) or (whole and not all(
                _same(g, w, text) for g, w in zip(got, want, strict=True))):
            return [f"{where}: expected {want!r}, got {got!r}"]
        out = []
        for k, (g, w) in enumerate(zip(got, want, strict=True)):
            out += match(g, w, f"{where}[{k}]", text=text, unordered_keys=unordered_keys)
        return out
    if not _same(got, want, text):
        return [f"{where}: expected {want!r}, got {got!r}"]
    return []
