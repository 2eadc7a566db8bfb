"""Backends paint drawing operations; they never measure, wrap or decide anything.

- :class:`PdfPainter`: vector PDF through a reportlab canvas (points, y up: flipped here).
- :class:`PngPainter`: pixels through Pillow at any scale (300 dpi for print images).
- :class:`RecordingPainter`: a readable transcript, for golden tests and comparisons.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw, ImageOps
from reportlab.lib.utils import ImageReader

from . import fonts
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

    def __init__(self, canvas: Any, ox: float, top: float) -> None:
        self.c = canvas
        self.ox = ox
        self.top = top
        self._fill: str | None = None
        self._stroke: str | None = None
        self._lw = -1.0

    def _set_fill(self, colour: str) -> None:
        if colour != self._fill:
            r, g, b, a = rgba(colour)
            self.c.setFillColorRGB(r / 255, g / 255, b / 255)
            self.c.setFillAlpha(a / 255)
            self._fill = colour

    def _set_stroke(self, colour: str, width: float) -> None:
        if colour != self._stroke:
            r, g, b, a = rgba(colour)
            self.c.setStrokeColorRGB(r / 255, g / 255, b / 255)
            self.c.setStrokeAlpha(a / 255)
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
                reader = _reader(op.path)
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


def _has_alpha(im: Image.Image) -> bool:
    return im.mode in ("RGBA", "LA", "PA", "La", "RGBa") or "transparency" in im.info


@lru_cache(maxsize=64)
def _reader(path: str) -> ImageReader:
    """The art for reportlab. A plain JPEG goes in as its file (embedded as is, small); a picture
    a camera stored sideways (EXIF orientation) is turned upright first, as in the PNG."""
    with Image.open(path) as im:
        turned = im.getexif().get(0x0112, 1) not in (0, 1)
        if not turned:
            return ImageReader(path)
        upright = ImageOps.exif_transpose(im)
        return ImageReader(upright.convert("RGBA" if _has_alpha(upright) else "RGB"))


@lru_cache(maxsize=64)
def _picture(path: str) -> Image.Image:
    """The art for Pillow, upright, RGB or RGBA: transparent parts show what lies beneath,
    as they do in the PDF."""
    with Image.open(path) as im:
        upright = ImageOps.exif_transpose(im)
        return upright.convert("RGBA" if _has_alpha(upright) else "RGB")


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
            elif isinstance(op, Rect):
                # Pillow strokes inside the shape, reportlab on the path: grow by half a stroke
                half = op.stroke_width / 2 if op.stroke else 0.0
                x0, y0 = self._xy(op.x - half, op.y - half)
                x1, y1 = self._xy(op.x + op.w + half, op.y + op.h + half)
                box = (round(x0), round(y0), round(x1) - 1, round(y1) - 1)
                if box[2] < box[0] or box[3] < box[1]:
                    continue
                d, (fill, outline) = self._pick(op.fill, op.stroke)
                width = max(1, round(op.stroke_width * s)) if op.stroke else 0
                if op.radius:
                    d.rounded_rectangle(box, radius=round(op.radius * s), fill=fill,
                                        outline=outline, width=width)
                else:
                    d.rectangle(box, fill=fill, outline=outline, width=width)
            elif isinstance(op, Polygon):
                pts = [self._xy(x, y) for x, y in op.points]
                width = max(1, round(op.stroke_width * s)) if op.stroke else 0
                d, (fill, outline) = self._pick(op.fill, op.stroke)
                if op.closed:
                    d.polygon(pts, fill=fill, outline=outline, width=width)
                elif op.stroke:
                    d.line(pts, fill=outline, width=width, joint="curve")
            elif isinstance(op, Ellipse):
                half = op.stroke_width / 2 if op.stroke else 0.0
                x0, y0 = self._xy(op.x - half, op.y - half)
                x1, y1 = self._xy(op.x + op.w + half, op.y + op.h + half)
                d, (fill, outline) = self._pick(op.fill, op.stroke)
                d.ellipse((round(x0), round(y0), round(x1) - 1, round(y1) - 1),
                          fill=fill, outline=outline,
                          width=max(1, round(op.stroke_width * s)) if op.stroke else 0)
            elif isinstance(op, ImageOp):
                x0, y0 = self._xy(op.x, op.y)
                w, h = max(1, round(op.w * s)), max(1, round(op.h * s))
                pic = ImageOps.fit(_picture(op.path), (w, h), Image.Resampling.LANCZOS)
                self.im.paste(pic, (round(x0), round(y0)), pic if pic.mode == "RGBA" else None)

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


