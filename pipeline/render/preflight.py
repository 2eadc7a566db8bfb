"""Preflight: what a print shop's checks would find, found by ``validate`` before anything is sent.

- **Art resolution**: each picture's effective pixels per inch at the size it is printed (it
  covers its box, so the tighter axis counts). Below the template's ``warn_ppi`` (300) it is a
  warning, below ``fail_ppi`` (150) an error: at 150 ppi pixels show at arm's length.
- **Colour mode**: art is printed through sRGB. CMYK art is converted (a warning: its colours
  may shift, give RGB to see what you get); 16-bit, float or Lab art is an error.
- **Safe area**: text, emblems and ellipses (badges) must lie inside the profile's safe line
  (The Game Crafter: 1/8 inch inside the cut), since a cut may wander that far; rects and images
  (backgrounds, frames) may reach the bleed. An element's ``safe: true/false`` overrides.

Every problem names the card, the template line and the element.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from boneyard.engine.faces import Deck, Face

from . import fonts
from .layout import pick_layout
from .ops import DrawOp, Ellipse, Polygon, Rect, Text
from .ops import Image as ImageOp
from .template import Template
from .units import PT_PER_IN, PT_PER_MM, CardSize, ImageProfile

ASCENT, DESCENT = 0.76, 0.24  # Vera's ink above and below the baseline, per em
SAFE_BY_DEFAULT = ("text", "emblem", "ellipse")
PRINTABLE_MODES = ("1", "L", "LA", "P", "PA", "RGB", "RGBA")
Elements = list[tuple[dict[str, Any], tuple[DrawOp, ...]]]


@dataclass(slots=True)
class Findings:
    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def preflight(deck: Deck, template: Template, size: CardSize,
              elements: dict[str, Elements], profile: ImageProfile,
              art_at: Callable[[Face], str | None] | None = None) -> Findings:
    """What a print shop would refuse or warn about. ``art_at``: where a face's own art is
    named (``file:line:column: card 'id'``): a picture's problem is said there, once a card."""
    out = Findings()
    shop = profile.description.split(":")[0]
    for face in deck.faces:
        if face.id not in elements:
            continue  # not laid out: its problem (no layout for it) is reported already
        lname = pick_layout(face, template)
        for el, ops in elements.get(face.id, ()):
            origin = template.origins.get((lname, el["name"]))
            where = (f"{template.file}:{origin[1]}:{origin[2]}: " if origin else
                     f"{template.file}: ")
            label = f"card '{face.id}': {where}layout '{origin[0] if origin else lname}' " \
                    f"element '{el['name']}'"
            for op in ops:
                if isinstance(op, ImageOp):
                    own = art_at(face) if art_at and op.path == face.fields.get("art") else None
                    _art(op, template, f"{own}: layout '{origin[0] if origin else lname}' "
                         f"element '{el['name']}' ({where.rstrip(': ')})" if own else label, out)
            if el.get("safe", el["type"] in SAFE_BY_DEFAULT) and profile.safe > 0:
                why = _outside_safe(ops, size, profile.safe)
                if why:
                    out.errors.append(f"{label}: {why}, inside {shop}'s safe area of "
                                      f"{profile.safe / PT_PER_MM:.2f} mm (1/8 inch) from the "
                                      "cut, which a cut may take off (move it inward, or mark "
                                      "a decoration 'safe: false')")
    return out


def ink_box(op: DrawOp) -> tuple[float, float, float, float] | None:
    """(x0, y0, x1, y1) of what an operation inks, in card points (y down); strokes included."""
    if isinstance(op, Text):
        w = fonts.width(op.text, op.font, op.size)
        start = {"start": 0.0, "middle": -w / 2, "end": -w}[op.anchor]
        if op.angle % 360 == 180:  # turned about its anchor: left and right, up and down swap
            return (op.x - start - w, op.y - DESCENT * op.size, op.x - start,
                    op.y + ASCENT * op.size)
        if op.angle % 360:
            return None  # the watermark's slant: not a card element
        return (op.x + start, op.y - ASCENT * op.size, op.x + start + w, op.y + DESCENT * op.size)
    half = op.stroke_width / 2 if isinstance(op, (Rect, Ellipse, Polygon)) and op.stroke else 0.0
    if isinstance(op, Polygon):
        xs = [x for x, _ in op.points]
        ys = [y for _, y in op.points]
        return (min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half)
    return (op.x - half, op.y - half, op.x + op.w + half, op.y + op.h + half)


def _outside_safe(ops: tuple[DrawOp, ...], size: CardSize, safe: float) -> str:
    boxes = [b for b in (ink_box(op) for op in ops) if b is not None]
    if not boxes:
        return ""
    x0 = min(b[0] for b in boxes)
    y0 = min(b[1] for b in boxes)
    x1 = max(b[2] for b in boxes)
    y1 = max(b[3] for b in boxes)
    reach = {"left": x0, "top": y0, "right": size.width - x1, "bottom": size.height - y1}
    side, dist = min(reach.items(), key=lambda kv: kv[1])
    if dist >= safe - 0.01:
        return ""
    return f"reaches {dist / PT_PER_MM:.2f} mm from the {side} edge"


@lru_cache(maxsize=256)
def _art_info(path: str) -> tuple[int, int, str, str]:
    """(width, height) upright, colour mode, embedded profile's description ('' for none)."""
    from PIL import Image, ImageCms

    with Image.open(path) as im:
        w, h = im.size
        if im.getexif().get(0x0112, 1) in (5, 6, 7, 8):  # stored sideways
            w, h = h, w
        icc = im.info.get("icc_profile")
        desc = ""
        if icc:
            try:
                desc = ImageCms.getProfileDescription(
                    ImageCms.ImageCmsProfile(io.BytesIO(icc))).strip()
            except ImageCms.PyCMSError:
                desc = "an unreadable profile"
        return w, h, im.mode, desc


def _art(op: ImageOp, template: Template, label: str, out: Findings) -> None:
    w, h, mode, profile = _art_info(op.path)
    name = op.path.rsplit("/", 1)[-1]
    # the picture covers its box: points per pixel along the tighter axis
    k = max(op.w / w, op.h / h)
    ppi = PT_PER_IN / k
    printed = f"{op.w / PT_PER_MM:.1f} x {op.h / PT_PER_MM:.1f} mm"
    if ppi < template.fail_ppi:
        out.errors.append(f"{label}: art {name!r} ({w} x {h} px) prints at {ppi:.0f} ppi in "
                          f"{printed}, under {template.fail_ppi:g} ppi: pixels would show "
                          f"(give at least {round(op.w / PT_PER_IN * template.warn_ppi)} x "
                          f"{round(op.h / PT_PER_IN * template.warn_ppi)} px, or lower "
                          "preflight.fail_ppi in template.yaml)")
    elif ppi < template.warn_ppi:
        out.warnings.append(f"{label}: art {name!r} ({w} x {h} px) prints at {ppi:.0f} ppi in "
                            f"{printed}, under {template.warn_ppi:g} ppi: soft in print")
    if mode == "CMYK":
        out.warnings.append(f"{label}: art {name!r} is stored in CMYK; it is printed through "
                            "sRGB and its colours may shift (save it as RGB to see what prints)")
    elif mode not in PRINTABLE_MODES:
        out.errors.append(f"{label}: art {name!r} has colour mode {mode}, which does not print "
                          "faithfully (save it as 8-bit RGB)")
    elif profile and "srgb" not in profile.lower().replace(" ", ""):
        out.warnings.append(f"{label}: art {name!r} carries the colour profile {profile!r}; "
                            "it is printed as sRGB (convert it to sRGB first)")
