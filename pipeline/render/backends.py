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


SUPERSAMPLE = 4  # coverage samples per pixel side for curved and slanted edges


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
        for op in ops:
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
                self._smooth(op)
            elif isinstance(op, ImageOp):
                x0, y0 = self._xy(op.x, op.y)
                w, h = max(1, round(op.w * s)), max(1, round(op.h * s))
                pic = ImageOps.fit(_picture(op.path), (w, h), Image.Resampling.LANCZOS)
                self.im.paste(pic, (round(x0), round(y0)), pic if pic.mode == "RGBA" else None)

    def _smooth(self, op: Rect | Ellipse | Polygon) -> None:
        """A curved or slanted shape, anti-aliased: its fill and its stroke (centred on the
        path, as in the PDF) are drawn as coverage masks at :data:`SUPERSAMPLE` times the
        resolution, box-filtered down, and blended in their colours."""
        half = op.stroke_width / 2 if op.stroke and op.stroke_width > 0 else 0.0
        if isinstance(op, Polygon):
            xs = [x for x, _ in op.points]
            ys = [y for _, y in op.points]
            x0, y0, x1, y1 = min(xs) - half, min(ys) - half, max(xs) + half, max(ys) + half
        else:
            x0, y0, x1, y1 = op.x - half, op.y - half, op.x + op.w + half, op.y + op.h + half
        (px0, py0), (px1, py1) = self._xy(x0, y0), self._xy(x1, y1)
        left, top = math.floor(px0) - 1, math.floor(py0) - 1
        w, h = math.ceil(px1) + 1 - left, math.ceil(py1) + 1 - top
        if w <= 2 or h <= 2 or w * h > 64_000_000:
            return
        k = SUPERSAMPLE * self.s

        def at(x: float, y: float) -> tuple[float, float]:  # points -> supersampled mask pixels
            return ((self.ox + x * self.s - left) * SUPERSAMPLE,
                    (self.oy + y * self.s - top) * SUPERSAMPLE)

        def shape(d: ImageDraw.ImageDraw, grow: float, value: int) -> None:
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

        size = (w * SUPERSAMPLE, h * SUPERSAMPLE)
        if op.fill and (not isinstance(op, Polygon) or op.closed):
            mask = Image.new("L", size, 0)
            shape(ImageDraw.Draw(mask), 0.0, 255)
            self._blend(op.fill, mask.reduce(SUPERSAMPLE), left, top)
        if half:
            mask = Image.new("L", size, 0)
            d = ImageDraw.Draw(mask)
            if isinstance(op, Polygon):
                pts = [at(x, y) for x, y in op.points]
                if op.closed:
                    pts.append(pts[0])
                d.line(pts, fill=255, width=max(1, round(op.stroke_width * k)), joint="curve")
            else:
                shape(d, half, 255)
                shape(d, -half, 0)
            assert op.stroke is not None
            self._blend(op.stroke, mask.reduce(SUPERSAMPLE), left, top)

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


