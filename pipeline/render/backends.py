"""Backends paint drawing operations; they never measure, wrap or decide anything.

- :class:`PdfPainter`: vector PDF through a reportlab canvas (points, y up: flipped here).
- :class:`PngPainter`: pixels through Pillow at any scale (300 dpi for print images).
- :class:`RecordingPainter`: a readable transcript, for golden tests and comparisons.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageOps

from . import fonts
from .colour import RgbInk, upright_rgb
from .ops import DrawOp, Ellipse, Polygon, Rect, Text, record, rgba
from .ops import Image as ImageOp


class RecordingPainter:
    """Collects a transcript of every operation painted."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def paint(self, ops: tuple[DrawOp, ...] | list[DrawOp]) -> None:
        self.lines.extend(record(ops))


class PdfPainter:
    """Paints card operations on a reportlab canvas with the card's trim corner at (ox, top)."""

    def __init__(self, canvas: Any, ox: float, top: float, ink: Any = None) -> None:
        self.c = canvas
        self.ox = ox
        self.top = top
        self.ink = ink or RgbInk()
        # alpha is written only where a colour is translucent (and reset after it), so an
        # opaque card carries no transparency: a PDF/X-1a-minded shop can take it as it is
        self._fa = self._sa = 1.0
        self._fill: str | None = None
        self._stroke: str | None = None
        self._lw = -1.0

    def _set_fill(self, colour: str) -> None:
        if colour != self._fill:
            r, g, b, a = rgba(colour)
            self.ink.fill(self.c, r, g, b)
            if a / 255 != self._fa:
                self.c.setFillAlpha(a / 255)
                self._fa = a / 255
            self._fill = colour

    def _set_stroke(self, colour: str, width: float) -> None:
        if colour != self._stroke:
            r, g, b, a = rgba(colour)
            self.ink.stroke(self.c, r, g, b)
            if a / 255 != self._sa:
                self.c.setStrokeAlpha(a / 255)
                self._sa = a / 255
            self._stroke = colour
        if width != self._lw:
            self.c.setLineWidth(width)
            self._lw = width

    def _paint_style(self, fill: str | None, stroke: str | None, width: float) -> tuple[int, int]:
        if fill:
            self._set_fill(fill)
        if stroke:
            self._set_stroke(stroke, width)
        return (1 if stroke and width > 0 else 0), (1 if fill else 0)

    def paint(self, ops: tuple[DrawOp, ...] | list[DrawOp]) -> None:
        c, ox, top = self.c, self.ox, self.top
        for op in ops:
            if isinstance(op, Text):
                self._set_fill(op.colour)
                c.setFont(fonts.rl_name(op.font), op.size)
                x, y = ox + op.x, top - op.y
                if op.angle:
                    c.saveState()
                    c.translate(x, y)
                    c.rotate(op.angle)
                    x = y = 0.0
                if op.anchor == "middle":
                    c.drawCentredString(x, y, op.text)
                elif op.anchor == "end":
                    c.drawRightString(x, y, op.text)
                else:
                    c.drawString(x, y, op.text)
                if op.angle:
                    c.restoreState()
                    self._fill = self._stroke = None
                    self._lw = -1.0
            elif isinstance(op, Rect):
                stroke, fill = self._paint_style(op.fill, op.stroke, op.stroke_width)
                y = top - op.y - op.h
                if op.radius:
                    c.roundRect(ox + op.x, y, op.w, op.h, op.radius, stroke=stroke, fill=fill)
                else:
                    c.rect(ox + op.x, y, op.w, op.h, stroke=stroke, fill=fill)
            elif isinstance(op, Polygon):
                stroke, fill = self._paint_style(op.fill, op.stroke, op.stroke_width)
                p = c.beginPath()
                (x0, y0), *rest = op.points
                p.moveTo(ox + x0, top - y0)
                for x, y in rest:
                    p.lineTo(ox + x, top - y)
                if op.closed:
                    p.close()
                c.drawPath(p, stroke=stroke, fill=fill if op.closed else 0)
            elif isinstance(op, Ellipse):
                stroke, fill = self._paint_style(op.fill, op.stroke, op.stroke_width)
                c.ellipse(ox + op.x, top - op.y - op.h, ox + op.x + op.w, top - op.y,
                          stroke=stroke, fill=fill)
            elif isinstance(op, ImageOp):
                reader = self.ink.image(op.path)
                iw, ih = reader.getSize()
                k = max(op.w / iw, op.h / ih)  # cover the box, crop the overflow
                dw, dh = iw * k, ih * k
                c.saveState()
                p = c.beginPath()
                p.rect(ox + op.x, top - op.y - op.h, op.w, op.h)
                c.clipPath(p, stroke=0, fill=0)
                c.drawImage(reader, ox + op.x - (dw - op.w) / 2, top - op.y - op.h - (dh - op.h) / 2,
                            dw, dh, mask="auto")  # "auto": the image's own alpha channel
                c.restoreState()
                self._fill = self._stroke = None
                self._lw = -1.0


@lru_cache(maxsize=64)
def _picture(path: str) -> Image.Image:
    """The art for Pillow, upright, RGB or RGBA: transparent parts show what lies beneath,
    as they do in the PDF."""
    return upright_rgb(path)


SUPERSAMPLE = 4  # coverage samples per pixel side for curved and slanted edges ...


def supersample(pixels: int) -> int:
    """... fewer over large areas, where the mask's cost grows and a long gentle curve needs
    fewer levels of grey to look smooth."""
    if pixels <= 40_000:
        return SUPERSAMPLE
    return max(1, min(SUPERSAMPLE, 3 if pixels <= 200_000 else 2))


def _same_style(a: Rect | Ellipse | Polygon, b: DrawOp) -> bool:
    """Two shapes one coverage mask can paint: opaque, one colour, fill only, or lines only."""
    if not isinstance(b, (Rect, Ellipse, Polygon)):
        return False
    for op in (a, b):
        if bool(op.fill) == bool(op.stroke and op.stroke_width > 0):
            return False  # both (a fill under a stroke) or neither
        if (op.fill or op.stroke) and rgba(op.fill or op.stroke or "")[3] != 255:
            return False
        if op.stroke and not isinstance(op, Polygon):
            return False  # rings are painted one at a time
    return (a.fill, a.stroke, a.stroke_width) == (b.fill, b.stroke, b.stroke_width) and \
        (not isinstance(a, Polygon) or not isinstance(b, Polygon) or a.closed == b.closed)


class PngPainter:
    """Paints card operations on a Pillow RGB image: ``scale`` pixels per point, trim corner at
    (ox, oy) pixels."""

    def __init__(self, image: Image.Image, scale: float, ox: float, oy: float) -> None:
        self.im = image
        self.opaque = ImageDraw.Draw(image)  # fast path: no blending
        self.blend = ImageDraw.Draw(image, "RGBA")  # translucent colours
        self.s = scale
        self.ox = ox
        self.oy = oy

    def _xy(self, x: float, y: float) -> tuple[float, float]:
        return (self.ox + x * self.s, self.oy + y * self.s)

    def _pick(self, *colours: str | None) -> tuple[ImageDraw.ImageDraw, list[Any]]:
        """The drawing context for these colours and the colours in its form (None stays)."""
        cs = [rgba(c) if c else None for c in colours]
        if all(c is None or c[3] == 255 for c in cs):
            return self.opaque, [c[:3] if c else None for c in cs]
        return self.blend, cs

    def paint(self, ops: tuple[DrawOp, ...] | list[DrawOp]) -> None:
        s = self.s
        group: list[Rect | Ellipse | Polygon] = []
        for op in ops:
            if group and not (isinstance(op, (Rect, Ellipse, Polygon)) and
                              (not isinstance(op, Rect) or op.radius) and
                              _same_style(group[-1], op)):
                self._smooth(group)
                group = []
            if isinstance(op, Text):
                self._text(op)
            elif isinstance(op, Rect) and not op.radius:
                # axis-aligned: nothing to smooth. Pillow strokes inside the shape, reportlab
                # on the path: grow by half a stroke
                half = op.stroke_width / 2 if op.stroke else 0.0
                x0, y0 = self._xy(op.x - half, op.y - half)
                x1, y1 = self._xy(op.x + op.w + half, op.y + op.h + half)
                box = (round(x0), round(y0), round(x1) - 1, round(y1) - 1)
                if box[2] < box[0] or box[3] < box[1]:
                    continue
                d, (fill, outline) = self._pick(op.fill, op.stroke)
                width = max(1, round(op.stroke_width * s)) if op.stroke else 0
                d.rectangle(box, fill=fill, outline=outline, width=width)
            elif isinstance(op, (Rect, Ellipse, Polygon)):
                group.append(op)
            elif isinstance(op, ImageOp):
                x0, y0 = self._xy(op.x, op.y)
                w, h = max(1, round(op.w * s)), max(1, round(op.h * s))
                pic = ImageOps.fit(_picture(op.path), (w, h), Image.Resampling.LANCZOS)
                self.im.paste(pic, (round(x0), round(y0)), pic if pic.mode == "RGBA" else None)
        if group:
            self._smooth(group)

    def _smooth(self, group: list[Rect | Ellipse | Polygon]) -> None:
        """Curved or slanted shapes of one style, anti-aliased: their fill and their stroke
        (centred on the path, as in the PDF) are drawn as coverage masks at several times the
        resolution (:func:`supersample`), box-filtered down and blended in their colours.

        Consecutive opaque shapes of one colour (a placeholder's stripes, an emblem's parts)
        share one mask: painting them one by one would give the same pixels, only slower.
        """
        first = group[0]
        half = first.stroke_width / 2 if first.stroke and first.stroke_width > 0 else 0.0
        boxes = []
        for op in group:
            if isinstance(op, Polygon):
                xs = [x for x, _ in op.points]
                ys = [y for _, y in op.points]
                boxes.append((min(xs), min(ys), max(xs), max(ys)))
            else:
                boxes.append((op.x, op.y, op.x + op.w, op.y + op.h))
        (px0, py0) = self._xy(min(b[0] for b in boxes) - half, min(b[1] for b in boxes) - half)
        (px1, py1) = self._xy(max(b[2] for b in boxes) + half, max(b[3] for b in boxes) + half)
        left, top = math.floor(px0) - 1, math.floor(py0) - 1
        w, h = math.ceil(px1) + 1 - left, math.ceil(py1) + 1 - top
        if w <= 2 or h <= 2:
            return
        r = first.radius * self.s if isinstance(first, Rect) else 0.0
        if len(group) == 1 and r >= 2 and not half and w * h > 40_000 and \
                rgba(first.fill or "#000000")[3] == 255:
            # a large rounded panel: only its corners are curved; the rest is a plain fill
            d, (fill,) = self._pick(first.fill)
            d.rectangle((round(px0 + r), round(py0), round(px1 - r) - 1, round(py1) - 1), fill=fill)
            d.rectangle((round(px0), round(py0 + r), round(px1) - 1, round(py1 - r) - 1), fill=fill)
            c = math.ceil(r) + 2
            for cx, cy in ((left, top), (left + w - c, top), (left, top + h - c),
                           (left + w - c, top + h - c)):
                self._masked(group, cx, cy, c, c, 0.0)
            return
        self._masked(group, left, top, w, h, half)

    def _masked(self, group: list[Rect | Ellipse | Polygon], left: int, top: int, w: int, h: int,
                half: float) -> None:
        """Paint ``group`` through coverage masks over the pixel box (left, top, w, h)."""
        first = group[0]
        ss = supersample(w * h)
        k = ss * self.s

        def at(x: float, y: float) -> tuple[float, float]:  # points -> supersampled mask pixels
            return ((self.ox + x * self.s - left) * ss, (self.oy + y * self.s - top) * ss)

        def shape(d: ImageDraw.ImageDraw, op: Rect | Ellipse | Polygon, grow: float,
                  value: int) -> None:
            if isinstance(op, Polygon):
                d.polygon([at(x, y) for x, y in op.points], fill=value)
                return
            (ax, ay), (bx, by) = at(op.x - grow, op.y - grow), at(op.x + op.w + grow,
                                                                   op.y + op.h + grow)
            if bx - ax < 1 or by - ay < 1:
                return
            box = (ax, ay, bx - 1, by - 1)
            if isinstance(op, Ellipse):
                d.ellipse(box, fill=value)
            else:
                d.rounded_rectangle(box, radius=max(0.0, (op.radius + grow) * k), fill=value)

        size = (w * ss, h * ss)
        if first.fill and (not isinstance(first, Polygon) or first.closed):
            mask = Image.new("L", size, 0)
            d = ImageDraw.Draw(mask)
            for op in group:
                shape(d, op, 0.0, 255)
            self._blend(first.fill, mask.reduce(ss), left, top)
        if half:
            assert first.stroke is not None
            mask = Image.new("L", size, 0)
            d = ImageDraw.Draw(mask)
            for op in group:  # lines share a mask; a ring (shape minus inside) is alone
                if isinstance(op, Polygon):
                    pts = [at(x, y) for x, y in op.points]
                    if op.closed:
                        pts.append(pts[0])
                    d.line(pts, fill=255, width=max(1, round(op.stroke_width * k)),
                           joint="curve")
                else:
                    shape(d, op, half, 255)
                    shape(d, op, -half, 0)
            self._blend(first.stroke, mask.reduce(ss), left, top)

    def _blend(self, colour: str, mask: Image.Image, left: int, top: int) -> None:
        r, g, b, a = rgba(colour)
        if a != 255:
            mask = mask.point([v * a // 255 for v in range(256)])
        self.im.paste((r, g, b), (left, top, left + mask.width, top + mask.height), mask)

    def _text(self, op: Text) -> None:
        font = fonts.pillow_font(op.font, round(op.size * self.s, 2))
        anchor = {"start": "ls", "middle": "ms", "end": "rs"}[op.anchor]
        x, y = self._xy(op.x, op.y)
        if not op.angle:
            d, (fill,) = self._pick(op.colour)
            d.text((x, y), op.text, font=font, fill=fill, anchor=anchor)
            return
        # turn the run about its anchor point: draw it as a mask centred there, rotate, paste
        reach = int(font.getlength(op.text) + op.size * self.s) + 2
        r, g, b, a = rgba(op.colour)
        mask = Image.new("L", (2 * reach, 2 * reach), 0)
        ImageDraw.Draw(mask).text((reach, reach), op.text, font=font, fill=a, anchor=anchor)
        mask = mask.rotate(op.angle, resample=Image.Resampling.BICUBIC)
        left, top = round(x) - reach, round(y) - reach
        self.im.paste((r, g, b), (left, top, left + 2 * reach, top + 2 * reach), mask)


