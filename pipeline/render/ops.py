"""Drawing operations: what a laid-out card is, independent of any graphics library.

Coordinates are points with the origin at the top-left corner of the card's cut line (trim) and
y growing downward, the way a designer measures a card; bleed lies at negative coordinates and
beyond the card's width and height. Colours are ``#rrggbb`` or ``#rrggbbaa`` strings. Text is
already broken into lines and positioned: a backend only paints, it never measures or wraps, so
every backend shows the same line breaks.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True, slots=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.0
    radius: float = 0.0


@dataclass(frozen=True, slots=True)
class Ellipse:
    x: float
    y: float
    w: float
    h: float
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.0


@dataclass(frozen=True, slots=True)
class Polygon:
    """A closed polygon (``closed=False``: an open polyline, stroke only)."""

    points: tuple[tuple[float, float], ...]
    fill: str | None = None
    stroke: str | None = None
    stroke_width: float = 0.0
    closed: bool = True


@dataclass(frozen=True, slots=True)
class Text:
    """One run of text on one line, placed by its baseline point.

    ``anchor`` says which point of the run (x, y) is: ``start`` (left end of the baseline),
    ``middle`` or ``end``. ``angle`` turns the run counter-clockwise (degrees) about that point.
    """

    x: float
    y: float
    text: str
    font: str
    size: float
    colour: str
    anchor: str = "start"
    angle: float = 0.0


@dataclass(frozen=True, slots=True)
class Image:
    """A picture file scaled to cover the box (cropped to it, never stretched)."""

    x: float
    y: float
    w: float
    h: float
    path: str


DrawOp = Rect | Ellipse | Polygon | Text | Image


@lru_cache(maxsize=512)
def rgba(colour: str) -> tuple[int, int, int, int]:
    """``#rrggbb[aa]`` to 0-255 ints; a bad colour is caught by the template check first."""
    c = colour.lstrip("#")
    r, g, b = int(c[0:2], 16), int(c[2:4], 16), int(c[4:6], 16)
    a = int(c[6:8], 16) if len(c) == 8 else 255
    return r, g, b, a


def record(ops: tuple[DrawOp, ...] | list[DrawOp]) -> list[str]:
    """A readable, stable transcript of operations (numbers to 0.01 pt) for golden tests."""
    lines = []
    for op in ops:
        parts = []
        for name in op.__slots__:
            v = getattr(op, name)
            if isinstance(v, float):
                v = f"{v:.2f}"
            elif isinstance(v, tuple):
                v = "[" + " ".join(f"{x:.2f},{y:.2f}" for x, y in v) + "]"
            elif isinstance(v, str) and name == "path":
                v = v.rsplit("/", 1)[-1]
            parts.append(f"{name}={v}")
        lines.append(f"{type(op).__name__} " + " ".join(parts))
    return lines
