"""Time the renderer on the full Day of the Dead set, beside drawing the same primitives raw.

    .venv/bin/python bench/bench_render.py [--repeat 3]

Ours: ``render_set`` end to end (template load, faces, layout with text fitting, painting,
writing): the 24-page PDF (108 cards: 12 pages of fronts, 12 of backs) and the 111 unique
300 dpi PNGs. Raw: the same rectangles, ellipses, polygons and strings, already positioned,
issued straight to reportlab and Pillow and written the same way. Targets: PDF < 2 s,
PNGs < 5 s, ours / raw < 1.5. Pinned to one core; best CPU time of --repeat runs (the machine
is shared, so wall time would mostly measure the neighbours).
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

from boneyard.pipeline.load import load_set
from boneyard.pipeline.render import fonts
from boneyard.pipeline.render.api import RenderOptions, prepare, render_set
from boneyard.pipeline.render.images import PNG_COMPRESSION
from boneyard.pipeline.render.ops import Ellipse, Polygon, Rect, Text, rgba
from boneyard.pipeline.render.sheets import card_box, plan_sheet
from boneyard.pipeline.render.units import IMAGE_DPI, PROFILES, image_pixels
from PIL import Image, ImageDraw
from reportlab.pdfgen.canvas import Canvas


def best_pair(ours, raw, repeat: int) -> tuple[float, float]:
    """Best CPU times of two jobs, run alternately so both see the same machine.

    CPU time of this process (one core, no threads): on a shared machine wall time mostly
    measures the neighbours.
    """
    a, b = [], []
    for _ in range(repeat):
        for fn, times in ((ours, a), (raw, b)):
            t = time.process_time()
            fn()
            times.append(time.process_time() - t)
    return min(a), min(b)


def raw_pdf(prep, path: Path) -> None:
    """The same primitives as plain reportlab calls, positions precomputed per page."""
    plan = plan_sheet("letter", prep.size)
    c = Canvas(str(path), pagesize=(plan.page_w, plan.page_h), invariant=1, pageCompression=1)
    cards = prep.deck.cards
    for start in range(0, len(cards), plan.per_page):
        for side in ("front", "back"):
            for slot, card in enumerate(cards[start:start + plan.per_page]):
                face = card.front if side == "front" else card.back
                ox, oy, w, h = card_box(plan, slot, side)
                top = oy + h
                c.saveState()
                p = c.beginPath()
                p.rect(ox, oy, w, h)
                c.clipPath(p, stroke=0, fill=0)
                for op in prep.layouts[face.id]:
                    if isinstance(op, Rect):
                        if op.fill:
                            r, g, b, _ = rgba(op.fill)
                            c.setFillColorRGB(r / 255, g / 255, b / 255)
                        if op.stroke:
                            r, g, b, _ = rgba(op.stroke)
                            c.setStrokeColorRGB(r / 255, g / 255, b / 255)
                            c.setLineWidth(op.stroke_width)
                        c.roundRect(ox + op.x, top - op.y - op.h, op.w, op.h, op.radius or 0.01,
                                    stroke=1 if op.stroke else 0, fill=1 if op.fill else 0)
                    elif isinstance(op, Ellipse):
                        if op.fill:
                            r, g, b, _ = rgba(op.fill)
                            c.setFillColorRGB(r / 255, g / 255, b / 255)
                        c.ellipse(ox + op.x, top - op.y - op.h, ox + op.x + op.w, top - op.y,
                                  stroke=1 if op.stroke else 0, fill=1 if op.fill else 0)
                    elif isinstance(op, Polygon):
                        path_ = c.beginPath()
                        path_.moveTo(ox + op.points[0][0], top - op.points[0][1])
                        for x, y in op.points[1:]:
                            path_.lineTo(ox + x, top - y)
                        c.drawPath(path_, stroke=1 if op.stroke else 0, fill=1 if op.fill else 0)
                    elif isinstance(op, Text):
                        c.setFont(fonts.rl_name(op.font), op.size)
                        if op.angle:
                            c.saveState()
                            c.translate(ox + op.x, top - op.y)
                            c.rotate(op.angle)
                            c.drawString(0, 0, op.text)
                            c.restoreState()
                        else:
                            c.drawString(ox + op.x, top - op.y, op.text)
                c.restoreState()
            c.showPage()
    c.save()


def raw_pngs(prep, folder: Path) -> None:
    """The same primitives as plain Pillow calls at 300 dpi, written at the same compression."""
    w, h = image_pixels(prep.size, PROFILES["tgc"])
    s = IMAGE_DPI / 72
    o = PROFILES["tgc"].bleed_px
    for face in prep.deck.faces:
        im = Image.new("RGB", (w, h), (255, 255, 255))
        d = ImageDraw.Draw(im)
        for op in prep.layouts[face.id]:
            if isinstance(op, Rect):
                d.rectangle((o + op.x * s, o + op.y * s, o + (op.x + op.w) * s,
                             o + (op.y + op.h) * s),
                            fill=rgba(op.fill)[:3] if op.fill else None,
                            outline=rgba(op.stroke)[:3] if op.stroke else None)
            elif isinstance(op, Ellipse):
                d.ellipse((o + op.x * s, o + op.y * s, o + (op.x + op.w) * s,
                           o + (op.y + op.h) * s), fill=rgba(op.fill)[:3] if op.fill else None)
            elif isinstance(op, Polygon):
                pts = [(o + x * s, o + y * s) for x, y in op.points]
                if op.closed:
                    d.polygon(pts, fill=rgba(op.fill)[:3] if op.fill else None)
                else:
                    d.line(pts, fill=rgba(op.stroke)[:3], width=max(1, round(op.stroke_width * s)))
            elif isinstance(op, Text):
                d.text((o + op.x * s, o + op.y * s), op.text,
                       font=fonts.pillow_font(op.font, round(op.size * s, 2)),
                       fill=rgba(op.colour)[:3], anchor="ls")
        im.save(folder / f"{face.id}.png", "PNG", compress_level=PNG_COMPRESSION)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    card_set = load_set("day-of-the-dead")
    prep = prepare(card_set)  # warm caches (fonts, template schema) for both sides alike
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        (out / "raw").mkdir()
        ours_pdf, raw_pdf_t = best_pair(
            lambda: render_set(card_set, out, RenderOptions(formats=("pdf",))),
            lambda: raw_pdf(prep, out / "raw.pdf"), args.repeat)
        ours_png, raw_png_t = best_pair(
            lambda: render_set(card_set, out, RenderOptions(formats=("png",))),
            lambda: raw_pngs(prep, out / "raw"), args.repeat)
        layout_t, _ = best_pair(lambda: prepare(card_set), lambda: None, args.repeat)
    n_cards, n_faces = len(prep.deck.cards), len(prep.deck.faces)
    print(f"Day of the Dead: {n_cards} cards, {n_faces} unique faces, one core, best CPU time "
          f"of {args.repeat}")
    print(f"  layout only (template, faces, text fitting): {layout_t:6.3f} s")
    print(f"  PDF  24 pages   ours {ours_pdf:6.3f} s   raw {raw_pdf_t:6.3f} s   "
          f"x{ours_pdf / raw_pdf_t:4.2f}   target < 2 s, < 1.5x")
    print(f"  PNG  {n_faces} images  ours {ours_png:6.3f} s   raw {raw_png_t:6.3f} s   "
          f"x{ours_png / raw_png_t:4.2f}   target < 5 s, < 1.5x")


if __name__ == "__main__":
    main()
