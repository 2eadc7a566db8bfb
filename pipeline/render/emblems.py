"""Vector emblems: back icons and card-type symbols drawn as shapes, never as bitmaps.

Each emblem is drawn in a unit square (y down) from polygons, polylines and ellipses, then placed
in the element's box (a centred square), optionally turned 180 degrees for the second corner of a
card. ``colour`` is the emblem's main ink and ``accent`` its detail colour.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import cast

from .ops import DrawOp, Ellipse, Polygon

Pts = list[tuple[float, float]]
# (kind, data, role, width): kind "poly" | "line" | "ellipse"; role "main" | "accent"
Shape = tuple[str, object, str, float]


def _rotate(points: Pts, degrees: float, cx: float = 0.5, cy: float = 0.5) -> Pts:
    a = math.radians(degrees)
    ca, sa = math.cos(a), math.sin(a)
    return [(cx + (x - cx) * ca - (y - cy) * sa, cy + (x - cx) * sa + (y - cy) * ca)
            for x, y in points]


def _circle(cx: float, cy: float, r: float, n: int = 24) -> Pts:
    return [(cx + r * math.cos(2 * math.pi * i / n), cy + r * math.sin(2 * math.pi * i / n))
            for i in range(n)]


def _double() -> list[Shape]:
    # two overlapping rings: everything happens twice
    return [("ellipse", (0.06, 0.2, 0.58, 0.58), "main", 0.09),
            ("ellipse", (0.36, 0.22, 0.58, 0.58), "main", 0.09)]


def _power_up() -> list[Shape]:
    bolt = [(0.58, 0.03), (0.18, 0.56), (0.44, 0.56), (0.34, 0.97), (0.84, 0.40), (0.57, 0.40),
            (0.72, 0.03)]
    return [("poly", bolt, "main", 0.0)]


def _unearth() -> list[Shape]:
    # a spade: T grip, shaft, pointed blade
    grip = [(0.32, 0.02), (0.68, 0.02), (0.68, 0.1), (0.55, 0.1), (0.55, 0.5), (0.45, 0.5),
            (0.45, 0.1), (0.32, 0.1)]
    blade = [(0.28, 0.48), (0.72, 0.48), (0.72, 0.78), (0.5, 0.98), (0.28, 0.78)]
    return [("poly", grip, "main", 0.0), ("poly", blade, "main", 0.0)]


def _syringe() -> list[Shape]:
    barrel = [(0.22, 0.40), (0.70, 0.40), (0.70, 0.60), (0.22, 0.60)]
    blood = [(0.38, 0.42), (0.70, 0.42), (0.70, 0.58), (0.38, 0.58)]
    rod = [(0.10, 0.47), (0.22, 0.47), (0.22, 0.53), (0.10, 0.53)]
    thumb = [(0.05, 0.36), (0.10, 0.36), (0.10, 0.64), (0.05, 0.64)]
    flange = [(0.20, 0.32), (0.24, 0.32), (0.24, 0.68), (0.20, 0.68)]
    hub = [(0.70, 0.46), (0.78, 0.46), (0.78, 0.54), (0.70, 0.54)]
    needle = [(0.78, 0.485), (0.97, 0.5), (0.78, 0.515)]
    drop = _circle(0.93, 0.62, 0.03, 12)
    parts: list[Shape] = [("poly", _rotate(barrel, -40), "accent", 0.02),
                          ("poly", _rotate(blood, -40), "main", 0.0)]
    for p in (rod, thumb, flange, hub, needle):
        parts.append(("poly", _rotate(p, -40), "accent", 0.0))
    parts.append(("poly", _rotate(drop, -40), "main", 0.0))
    return parts


def _brain() -> list[Shape]:
    lobes = [(0.08, 0.25, 0.46, 0.5), (0.46, 0.25, 0.46, 0.5), (0.2, 0.18, 0.6, 0.35),
             (0.14, 0.42, 0.72, 0.36)]
    shapes: list[Shape] = [("ellipse", box, "main", 0.0) for box in lobes]
    shapes.append(("line", [(0.5, 0.2), (0.5, 0.78)], "accent", 0.03))
    folds = ([(0.18, 0.45), (0.28, 0.38), (0.36, 0.46), (0.42, 0.36)],
             [(0.58, 0.36), (0.66, 0.46), (0.74, 0.38), (0.84, 0.46)],
             [(0.2, 0.62), (0.3, 0.56), (0.4, 0.64)],
             [(0.6, 0.64), (0.7, 0.56), (0.8, 0.62)])
    shapes.extend(("line", list(f), "accent", 0.03) for f in folds)
    stem = [(0.46, 0.72), (0.56, 0.72), (0.54, 0.9), (0.48, 0.9)]
    shapes.append(("poly", stem, "main", 0.0))
    return shapes


def _fangs() -> list[Shape]:
    mouth = [(0.05, 0.3), (0.5, 0.4), (0.95, 0.3), (0.8, 0.62), (0.5, 0.75), (0.2, 0.62)]
    left = [(0.28, 0.36), (0.38, 0.38), (0.33, 0.62)]
    right = [(0.62, 0.38), (0.72, 0.36), (0.67, 0.62)]
    return [("poly", mouth, "main", 0.0), ("poly", left, "accent", 0.0),
            ("poly", right, "accent", 0.0)]


def _zombie() -> list[Shape]:
    # a hand clawing out of the ground
    palm = [(0.3, 0.45), (0.7, 0.45), (0.66, 0.85), (0.34, 0.85)]
    fingers = [[(0.3 + 0.1 * i, 0.48), (0.3 + 0.1 * i + 0.07, 0.48),
                (0.3 + 0.1 * i + 0.06, 0.12 + 0.06 * abs(i - 1.5)),
                (0.3 + 0.1 * i + 0.01, 0.12 + 0.06 * abs(i - 1.5))] for i in range(4)]
    thumb = [(0.3, 0.6), (0.12, 0.42), (0.17, 0.38), (0.34, 0.52)]
    ground = [(0.02, 0.82), (0.3, 0.78), (0.5, 0.84), (0.72, 0.78), (0.98, 0.82), (0.98, 0.95),
              (0.02, 0.95)]
    shapes: list[Shape] = [("poly", palm, "main", 0.0), ("poly", thumb, "main", 0.0)]
    shapes.extend(("poly", f, "main", 0.0) for f in fingers)
    shapes.append(("poly", ground, "accent", 0.0))
    return shapes


def _heart_points(cx: float, cy: float, s: float, n: int = 40) -> Pts:
    pts = []
    for i in range(n):
        t = 2 * math.pi * i / n
        x = 16 * math.sin(t) ** 3
        y = 13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t)
        pts.append((cx + x * s / 34, cy - y * s / 34))
    return pts


def _succubus() -> list[Shape]:
    horns = [[(0.22, 0.3), (0.12, 0.05), (0.34, 0.24)], [(0.78, 0.3), (0.88, 0.05), (0.66, 0.24)]]
    shapes: list[Shape] = [("poly", h, "accent", 0.0) for h in horns]
    shapes.append(("poly", _heart_points(0.5, 0.55, 0.9), "main", 0.0))
    return shapes


def _cross() -> list[Shape]:
    cross = [(0.42, 0.04), (0.58, 0.04), (0.58, 0.28), (0.8, 0.28), (0.8, 0.42), (0.58, 0.42),
             (0.58, 0.96), (0.42, 0.96), (0.42, 0.42), (0.2, 0.42), (0.2, 0.28), (0.42, 0.28)]
    return [("poly", cross, "main", 0.0)]


def _horns() -> list[Shape]:
    left = [(0.42, 0.62), (0.18, 0.5), (0.08, 0.1), (0.26, 0.4), (0.46, 0.5)]
    right = [(0.58, 0.62), (0.82, 0.5), (0.92, 0.1), (0.74, 0.4), (0.54, 0.5)]
    return [("poly", left, "main", 0.0), ("poly", right, "main", 0.0),
            ("poly", _heart_points(0.5, 0.72, 0.42), "accent", 0.0)]


def _star() -> list[Shape]:
    pts = []
    for i in range(5):
        a = -math.pi / 2 + i * 4 * math.pi / 5
        pts.append((0.5 + 0.42 * math.cos(a), 0.52 + 0.42 * math.sin(a)))
    return [("ellipse", (0.04, 0.06, 0.92, 0.92), "accent", 0.05),
            ("line", [*pts, pts[0]], "main", 0.05)]


def _tombstone() -> list[Shape]:
    top = [(0.5 + 0.32 * math.cos(math.pi + math.pi * i / 16),
            0.36 + 0.32 * math.sin(math.pi + math.pi * i / 16)) for i in range(17)]
    stone = [(0.18, 0.9), *top, (0.82, 0.9)]
    cross = [(0.46, 0.2), (0.54, 0.2), (0.54, 0.34), (0.64, 0.34), (0.64, 0.42), (0.54, 0.42),
             (0.54, 0.66), (0.46, 0.66), (0.46, 0.42), (0.36, 0.42), (0.36, 0.34), (0.46, 0.34)]
    ground = [(0.04, 0.88), (0.96, 0.88), (0.96, 0.96), (0.04, 0.96)]
    return [("poly", stone, "main", 0.0), ("poly", cross, "accent", 0.0),
            ("poly", ground, "main", 0.0)]


def _skull() -> list[Shape]:
    jaw = [(0.32, 0.62), (0.68, 0.62), (0.66, 0.9), (0.34, 0.9)]
    return [("ellipse", (0.14, 0.06, 0.72, 0.66), "main", 0.0), ("poly", jaw, "main", 0.0),
            ("ellipse", (0.26, 0.3, 0.18, 0.2), "accent", 0.0),
            ("ellipse", (0.56, 0.3, 0.18, 0.2), "accent", 0.0),
            ("poly", [(0.5, 0.5), (0.45, 0.6), (0.55, 0.6)], "accent", 0.0),
            ("line", [(0.42, 0.78), (0.42, 0.9)], "accent", 0.03),
            ("line", [(0.5, 0.78), (0.5, 0.9)], "accent", 0.03),
            ("line", [(0.58, 0.78), (0.58, 0.9)], "accent", 0.03)]


EMBLEMS: dict[str, Callable[[], list[Shape]]] = {
    "double": _double,
    "power_up": _power_up,
    "unearth": _unearth,
    "syringe": _syringe,
    "blood": _syringe,
    "brain": _brain,
    "brains": _brain,
    "fangs": _fangs,
    "vampire": _fangs,
    "zombie": _zombie,
    "succubus": _succubus,
    "heart": lambda: [("poly", _heart_points(0.5, 0.5, 0.95), "main", 0.0)],
    "cross": _cross,
    "preacher": _cross,
    "horns": _horns,
    "devil_wife": _horns,
    "star": _star,
    "exorcist": _star,
    "tombstone": _tombstone,
    "skull": _skull,
}

_SHAPES_CACHE: dict[str, list[Shape]] = {}


def emblem_ops(name: str, x: float, y: float, w: float, h: float, colour: str | None,
               accent: str | None, angle: float = 0.0) -> list[DrawOp]:
    """Operations drawing emblem ``name`` centred in the box, as large as fits."""
    shapes = _SHAPES_CACHE.get(name)
    if shapes is None:
        shapes = _SHAPES_CACHE[name] = EMBLEMS[name]()
    s = min(w, h)
    ox, oy = x + (w - s) / 2, y + (h - s) / 2
    flip = angle % 360 == 180

    def pt(u: float, v: float) -> tuple[float, float]:
        if flip:
            u, v = 1 - u, 1 - v
        return (round(ox + u * s, 3), round(oy + v * s, 3))

    ops: list[DrawOp] = []
    for kind, data, role, width in shapes:
        ink = colour if role == "main" else accent
        if ink is None:
            continue
        if kind == "ellipse":
            ex, ey, ew, eh = cast(tuple[float, float, float, float], data)
            if flip:
                ex, ey = 1 - ex - ew, 1 - ey - eh
            box = (round(ox + ex * s, 3), round(oy + ey * s, 3), round(ew * s, 3), round(eh * s, 3))
            if width:
                ops.append(Ellipse(*box, fill=None, stroke=ink, stroke_width=round(width * s, 3)))
            else:
                ops.append(Ellipse(*box, fill=ink))
        elif kind == "poly":
            pts = tuple(pt(u, v) for u, v in cast(list[tuple[float, float]], data))
            if width:  # an outlined part
                ops.append(Polygon(pts, stroke=ink, stroke_width=round(width * s, 3)))
            else:
                ops.append(Polygon(pts, fill=ink))
        else:
            pts = tuple(pt(u, v) for u, v in cast(list[tuple[float, float]], data))
            ops.append(Polygon(pts, stroke=ink, stroke_width=round(width * s, 3), closed=False))
    return ops
