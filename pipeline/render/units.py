"""Lengths, card sizes, papers and image profiles: one internal unit, the PostScript point.

Every length a designer writes ("63.5mm", "2.5in", "9pt", or a bare number of points) is parsed
once here, so layout code never juggles units or magic scale factors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from boneyard.errors import RenderError

PT_PER_IN = 72.0
PT_PER_MM = 72.0 / 25.4

_UNITS = {"pt": 1.0, "in": PT_PER_IN, "mm": PT_PER_MM, "cm": 10 * PT_PER_MM}
_LENGTH = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*(pt|in|mm|cm)?\s*$")


def parse_length(value: object, where: str = "length") -> float:
    """Points from ``"63.5mm"``, ``"2.5in"``, ``"9pt"`` or a bare number of points."""
    if isinstance(value, bool):
        raise RenderError(f"{where}: expected a length such as '3mm', got {value!r}")
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        m = _LENGTH.match(value)
        if m:
            return float(m.group(1)) * _UNITS[m.group(2) or "pt"]
    raise RenderError(
        f"{where}: expected a length such as '3mm', '0.125in' or '9pt', got {value!r}"
    )


def mm(value: float) -> float:
    return value * PT_PER_MM


@dataclass(frozen=True, slots=True)
class CardSize:
    """A trimmed card size in points (the cut line, without bleed)."""

    name: str
    width: float
    height: float


#: The Game Crafter's standard sizes, which most print shops share, and the metric sizes of
#: European board games (sleeves are sold for each).
CARD_SIZES: dict[str, CardSize] = {
    "poker": CardSize("poker", 2.5 * PT_PER_IN, 3.5 * PT_PER_IN),  # 63.5 x 88.9 mm
    "bridge": CardSize("bridge", 2.25 * PT_PER_IN, 3.5 * PT_PER_IN),  # 57.15 x 88.9 mm
    "mini": CardSize("mini", 1.75 * PT_PER_IN, 2.5 * PT_PER_IN),  # 44.45 x 63.5 mm
    "tarot": CardSize("tarot", 2.75 * PT_PER_IN, 4.75 * PT_PER_IN),  # 69.85 x 120.65 mm
    "standard": CardSize("standard", 63 * PT_PER_MM, 88 * PT_PER_MM),  # collectible card games
    "euro": CardSize("euro", 59 * PT_PER_MM, 92 * PT_PER_MM),
    "mini-euro": CardSize("mini-euro", 44 * PT_PER_MM, 68 * PT_PER_MM),
    "square": CardSize("square", 70 * PT_PER_MM, 70 * PT_PER_MM),
}

#: Portrait width x height; sheets may turn them (the gutter-fold layout does).
PAPERS: dict[str, tuple[float, float]] = {
    "letter": (8.5 * PT_PER_IN, 11 * PT_PER_IN),
    "a4": (210 * PT_PER_MM, 297 * PT_PER_MM),
    "a3": (297 * PT_PER_MM, 420 * PT_PER_MM),
    "tabloid": (11 * PT_PER_IN, 17 * PT_PER_IN),
}

#: A custom card size: ``63x88`` (millimetres), ``63x88mm``, ``2.5x3.5in``.
_CUSTOM = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*x\s*(\d+(?:\.\d+)?)\s*(mm|in)?\s*$")
CUSTOM_RANGE_MM = (20.0, 300.0)  # smaller cannot be cut by hand; larger fits no paper we print

#: Print bleed around a card for images and kept-bleed sheets: 1/8 inch (The Game Crafter).
STANDARD_BLEED = 0.125 * PT_PER_IN

IMAGE_DPI = 300


@dataclass(frozen=True, slots=True)
class ImageProfile:
    """How card images are cut for a printer: bleed per side in pixels at 300 dpi, and the safe
    line inside the cut (points) that text and badges must keep within, because the cut wanders."""

    name: str
    bleed_px: float
    description: str
    safe: float = 0.125 * PT_PER_IN


PROFILES: dict[str, ImageProfile] = {
    # poker 750 x 1050 trimmed; TGC wants 1/8" per side (825 x 1125), MPC 36 px (822 x 1122).
    # Both ask for text 1/8" inside the cut; a home cut is no more precise.
    "tgc": ImageProfile("tgc", 37.5, "The Game Crafter: 1/8 inch bleed (poker 825 x 1125 px)"),
    "mpc": ImageProfile("mpc", 36.0, "MakePlayingCards: 0.12 inch bleed (poker 822 x 1122 px)"),
    "trimmed": ImageProfile("trimmed", 0.0, "cut size, no bleed (poker 750 x 1050 px)"),
}


def card_size(name: str) -> CardSize:
    """A named size, or a custom ``WxH`` in millimetres (``63x88``) or inches (``2.5x3.5in``)."""
    if name in CARD_SIZES:
        return CARD_SIZES[name]
    m = _CUSTOM.match(name)
    if not m:
        raise RenderError(f"unknown card size {name!r} (choose one of {', '.join(CARD_SIZES)}, "
                          "or give width x height such as 63x88mm or 2.5x3.5in)")
    unit = PT_PER_IN if m.group(3) == "in" else PT_PER_MM
    w, h = float(m.group(1)) * unit, float(m.group(2)) * unit
    lo, hi = CUSTOM_RANGE_MM

    def fits(side: float) -> bool:
        return lo * PT_PER_MM - 1e-6 <= side <= hi * PT_PER_MM + 1e-6

    for side in (w, h):
        if not fits(side):
            hint = ""
            if m.group(3) is None:  # bare numbers: millimetres here, points in every length
                inches = all(fits(float(v) * PT_PER_IN) for v in m.group(1, 2))
                hint = (" (a bare number in a card size is millimetres, not points as in other "
                        "lengths" + (f"; for inches write {name.strip()}in" if inches else "")
                        + ")")
            raise RenderError(f"card size {name!r}: each side must be {lo:g} to {hi:g} mm, got "
                              f"{side / PT_PER_MM:.1f} mm{hint}")
    return CardSize(name.strip().replace(" ", ""), w, h)


def describe(size: CardSize) -> str:
    """``poker (63.5 x 88.9 mm)``: how messages name a size."""
    return (f"{size.name} ({round(size.width / PT_PER_MM, 2):g} x "
            f"{round(size.height / PT_PER_MM, 2):g} mm)")


def image_pixels(size: CardSize, profile: ImageProfile, dpi: int = IMAGE_DPI) -> tuple[int, int]:
    """Pixel size of one card image: trimmed size plus the profile's bleed on every side."""
    scale = dpi / PT_PER_IN
    bleed = profile.bleed_px * dpi / IMAGE_DPI
    return (round(size.width * scale + 2 * bleed), round(size.height * scale + 2 * bleed))
