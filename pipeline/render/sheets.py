"""PDF sheets for a home printer: cards on a grid, crop marks, duplex backs, footer, metadata.

Geometry (:func:`plan_sheet`, :func:`card_box`, :func:`crop_marks`) is pure and in PDF points
(origin bottom-left), so tests can check every card's position to a tenth of a millimetre
without reading a PDF.

Printable area: a home printer cannot put ink in a border of about 4 mm (lasers 4.2 mm, most
inkjets 3 mm). Everything the page prints besides the cards (crop marks, footer) stays inside
``margin`` of the paper edge; the grid takes as many rows and columns as leave room for that,
and a card that cannot fit with its marks is an error, never a mark lost off the paper.

Duplex: after each page of fronts comes the page of their backs. Turn the sheet over side to side
and each back is behind its front, upright. Long-edge flipping (portrait) does exactly that, so
back columns are mirrored. Short-edge flipping turns the back page upside down relative to that
view, so each back sits in the mirrored row and is itself turned 180 degrees. ``duplex="none"``
(single-sided printing, backs cut and glued or sleeved separately) keeps each back in the same
slot as its front. ``fold`` (gutter fold): fronts on the left half, their backs on the right half,
mirrored about a dashed fold line, all on one side of the paper.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boneyard.engine.faces import Deck
from reportlab.pdfgen.canvas import Canvas

from boneyard import __version__
from boneyard.errors import RenderError

from . import fonts
from .backends import PdfPainter
from .colour import RgbInk
from .layout import watermark_ops
from .ops import DrawOp
from .units import PAPERS, PT_PER_IN, PT_PER_MM, STANDARD_BLEED, CardSize, describe, mm

#: 1/6 inch (4.23 mm): the border PCL laser printers (HP, Brother) leave unprinted, and more
#: than the 3 mm of most inkjets; a borderless printer can pass ``--printer-margin 0``.
DEFAULT_PRINTER_MARGIN = PT_PER_IN / 6
MARK_GAP = mm(0.5)  # crop marks start this far outside the cut (or outside the bleed)
MARK_LENGTH = mm(4)
MIN_MARK_LENGTH = mm(1.5)  # shorter, a mark is hard to lay a ruler on: fewer cards per page
MARK_WIDTH = 0.4
FOOTER_SIZE = 6.0
FOOTER_MIN_SIZE = 3.5
ASCENT, DESCENT = 0.76, 0.24  # Vera's ink above and below the baseline, per em (footer text)
FOLD_GAP = mm(3)  # between the fold line and the nearest cut, on each side
DUPLEX = ("long", "short", "none")


@dataclass(frozen=True, slots=True)
class SheetPlan:
    """Where cards go on a page: a centred grid of trimmed cards (``fold``: a grid of fronts
    left of the page's centre line, mirrored on the right by their backs)."""

    page_w: float
    page_h: float
    card_w: float
    card_h: float
    cols: int
    rows: int
    gutter: float
    bleed: float  # drawn past the cut on the grid's outer edges (and into gutters, up to half)
    margin: float = DEFAULT_PRINTER_MARGIN
    fold: bool = False

    @property
    def per_page(self) -> int:
        return self.cols * self.rows

    @property
    def grid_w(self) -> float:
        return self.cols * self.card_w + (self.cols - 1) * self.gutter

    @property
    def grid_h(self) -> float:
        return self.rows * self.card_h + (self.rows - 1) * self.gutter

    @property
    def left(self) -> float:
        if self.fold:
            return self.page_w / 2 - FOLD_GAP - self.grid_w
        return (self.page_w - self.grid_w) / 2

    @property
    def right(self) -> float:
        """The outer right edge of the cards: the grid's, or the mirrored backs' (fold)."""
        return self.page_w - self.left if self.fold else self.left + self.grid_w

    @property
    def bottom(self) -> float:
        return (self.page_h - self.grid_h) / 2

    @property
    def inner_bleed(self) -> float:
        return min(self.bleed, self.gutter / 2)


def _fit(room: float, card: float, gutter: float) -> int:
    return max(0, math.floor((room + gutter + 1e-6) / (card + gutter)))


def plan_sheet(paper: str, size: CardSize, gutter: float = 0.0, bleed: float = 0.0,
               margin: float = DEFAULT_PRINTER_MARGIN, fold: bool = False) -> SheetPlan:
    """As many cards as fit with crop marks and footer inside the printable area.

    Each outer side needs ``margin`` + a short mark + a gap (+ the bleed) between the paper
    edge and the cut: poker on letter is 3 x 3, on A4 3 x 3. The fold layout takes the paper
    portrait or landscape, whichever holds more cards.
    """
    try:
        pw, ph = PAPERS[paper]
    except KeyError:
        raise RenderError(f"unknown paper {paper!r} (choose one of {', '.join(PAPERS)})") from None
    if margin < 0:
        raise RenderError("the printer margin cannot be negative")
    for what, value in (("printer margin", margin), ("gutter", gutter), ("bleed", bleed)):
        if not math.isfinite(value):  # a number too large for a float: no page is laid out
            raise RenderError(f"the {what} must be a length such as 3mm, got {value}")
    need = margin + MIN_MARK_LENGTH + MARK_GAP + bleed  # paper edge to cut, each outer side
    best: SheetPlan | None = None
    for w, h in ((pw, ph), (ph, pw)) if fold else ((pw, ph),):
        across, down = _room(w, h, need, fold)
        cols = _fit(across, size.width, gutter)
        rows = _fit(down, size.height, gutter)
        if cols and rows and (best is None or cols * rows > best.per_page):
            best = SheetPlan(w, h, size.width, size.height, cols, rows, gutter, bleed, margin,
                             fold)
    if best is None:
        extras = [f"a {gutter / PT_PER_MM:.1f} mm gutter"] if gutter else []
        if bleed:
            extras.append("1/8 inch bleed")
        layout = "folded in half, " if fold else ""
        wanted = (f"{(2 * size.width + 2 * FOLD_GAP + 2 * need) / PT_PER_MM:.1f}" if fold else
                  f"{(size.width + 2 * need) / PT_PER_MM:.1f}")
        raise RenderError(
            f"a {describe(size)} card does not fit on {paper} paper ({pw / PT_PER_MM:.0f} x "
            f"{ph / PT_PER_MM:.0f} mm, {layout}{', '.join(extras + [''])}crop marks inside a "
            f"{margin / PT_PER_MM:.1f} mm printer margin): it needs {wanted} x "
            f"{(size.height + 2 * need) / PT_PER_MM:.1f} mm (choose a larger --paper or a "
            "smaller --size; a printer that prints closer to the edge can take a smaller "
            "--printer-margin)")
    if gutter > 0 and best.per_page == 1:
        _check_gutter(paper, size, gutter, bleed, margin, fold)
    return best


def _room(w: float, h: float, need: float, fold: bool) -> tuple[float, float]:
    """The width and height the cards (and gutters) of one page may take."""
    return (w / 2 - FOLD_GAP - need if fold else w - 2 * need), h - 2 * need


def _check_gutter(paper: str, size: CardSize, gutter: float, bleed: float, margin: float,
                  fold: bool) -> None:
    """Refuse a gutter that leaves one card a page: it spaces no cards, and the PDF came out a
    page a card (``--gutter 99in``: 216 pages for 108 cards) instead of the clear refusal a
    printer margin that leaves no room gets. Said with the widest gutter for each fuller page;
    on a paper that holds one card anyway, a gutter is only refused when absurd (wider than
    the paper)."""
    pw, ph = PAPERS[paper]
    need = margin + MIN_MARK_LENGTH + MARK_GAP + bleed
    widest: dict[int, float] = {}  # cards a page -> the widest gutter that keeps them
    for w, h in ((pw, ph), (ph, pw)) if fold else ((pw, ph),):
        across, down = _room(w, h, need, fold)
        spans = []
        for room, card in ((across, size.width), (down, size.height)):
            most = _fit(room, card, 0.0)
            spans.append([(n, max(0.0, room - n * card) / (n - 1) if n > 1 else math.inf)
                          for n in range(1, most + 1)])
        for (cols, across_gap), (rows, down_gap) in itertools.product(*spans):
            if cols * rows > 1:
                gap = min(across_gap, down_gap)
                widest[cols * rows] = max(widest.get(cols * rows, 0.0), gap)
    given = f"a {gutter / PT_PER_MM:.1f} mm --gutter"
    where = f"{describe(size)} card a {paper} page" + (" folded in half" if fold else "")
    if not widest:
        if gutter <= max(pw, ph):
            return
        raise RenderError(f"{given} is wider than the paper: there is room for one {where} "
                          "whatever the gutter (leave --gutter out)")
    fuller, best = [], -1.0
    for count in sorted(widest, reverse=True):  # a smaller page only for a wider gutter
        if widest[count] > best:
            best = widest[count]
            fuller.append(f"{math.floor(best / PT_PER_MM * 10) / 10:.1f} mm for {count}")
    raise RenderError(f"{given} leaves room for only one {where}, so it spaces no cards (at "
                      f"most {fuller[0]} cards a page{''.join(', ' + f for f in fuller[1:])}; "
                      "3mm is usual, 0 butts them)")


def card_box(plan: SheetPlan, slot: int, side: str = "front", duplex: str = "long"
             ) -> tuple[float, float, float, float]:
    """Trim box (x, y, w, h) of a slot in PDF points, y up; backs where the flip puts them.

    A short-edge back lies in the mirrored row and is drawn turned 180 degrees (see
    :func:`back_turned`); the fold layout's backs sit on the same page, mirrored across the fold.
    """
    r, c = divmod(slot, plan.cols)
    x = plan.left + c * (plan.card_w + plan.gutter)
    y = plan.page_h - plan.bottom - (r + 1) * plan.card_h - r * plan.gutter
    if side == "back":
        if plan.fold or duplex == "long":
            x = plan.page_w - x - plan.card_w
        elif duplex == "short":
            y = plan.page_h - y - plan.card_h
    return (x, y, plan.card_w, plan.card_h)


def back_turned(plan: SheetPlan, duplex: str) -> bool:
    """Short-edge duplex prints each back upside down, so that turned over side to side (as a
    player turns a card) the back is upright."""
    return not plan.fold and duplex == "short"


def back_shift(duplex: str, offset: tuple[float, float]) -> tuple[float, float]:
    """How far to move the back page (points, PDF axes) to undo a printer's offset.

    ``offset`` is what the calibration page shows: where the back's lines fall on the front's
    scales, right and up positive, looking at the front. The backs move the other way; on the
    back page, seen from the front, x is mirrored (long edge) or y is (short edge).
    """
    dx, dy = offset
    if duplex == "long":
        return (dx, -dy)
    if duplex == "short":
        return (-dx, dy)
    return (0.0, 0.0)


def _clip_boxes(plan: SheetPlan, boxes: list[tuple[float, float, float, float]]
                ) -> list[tuple[float, float, float, float]]:
    """Each trim box grown by the bleed, up to half the gap to a neighbouring card."""
    eps = 1e-6
    out = []
    for x, y, w, h in boxes:
        grow = {"l": plan.bleed, "r": plan.bleed, "b": plan.bleed, "t": plan.bleed}
        for ox, oy, ow, oh in boxes:
            if (ox, oy) == (x, y):
                continue
            beside = oy < y + h - eps and oy + oh > y + eps
            above_below = ox < x + w - eps and ox + ow > x + eps
            if beside and ox + ow <= x + eps:
                grow["l"] = min(grow["l"], (x - ox - ow) / 2)
            if beside and ox >= x + w - eps:
                grow["r"] = min(grow["r"], (ox - x - w) / 2)
            if above_below and oy + oh <= y + eps:
                grow["b"] = min(grow["b"], (y - oy - oh) / 2)
            if above_below and oy >= y + h - eps:
                grow["t"] = min(grow["t"], (oy - y - h) / 2)
        out.append((x - grow["l"], y - grow["b"], w + grow["l"] + grow["r"],
                    h + grow["b"] + grow["t"]))
    return out


def cut_lines(plan: SheetPlan) -> tuple[list[float], list[float]]:
    """x positions of vertical cuts and y positions of horizontal cuts (PDF points)."""
    xs, ys = [], []
    for c in range(plan.cols):
        x = plan.left + c * (plan.card_w + plan.gutter)
        xs.extend([x, x + plan.card_w])
        if plan.fold:
            xs.extend([plan.page_w - x - plan.card_w, plan.page_w - x])
    for r in range(plan.rows):
        y = plan.bottom + r * (plan.card_h + plan.gutter)
        ys.extend([y, y + plan.card_h])
    return sorted(set(round(v, 4) for v in xs)), sorted(set(round(v, 4) for v in ys))


def mark_length(plan: SheetPlan, room: float) -> float:
    """A mark as long as :data:`MARK_LENGTH`, shortened to stay inside the printer margin."""
    return max(0.0, min(MARK_LENGTH, room - plan.bleed - MARK_GAP - plan.margin))


def crop_marks(plan: SheetPlan) -> list[tuple[float, float, float, float]]:
    """Line segments (x0, y0, x1, y1) in the margin, a gap away from the cut and its bleed,
    never nearer the paper edge than the printer margin."""
    xs, ys = cut_lines(plan)
    start = plan.bleed + MARK_GAP
    top = plan.bottom + plan.grid_h
    length_v = mark_length(plan, plan.bottom)
    length_h = mark_length(plan, plan.left)
    marks = []
    for x in xs:
        marks.append((x, plan.bottom - start, x, plan.bottom - start - length_v))
        marks.append((x, top + start, x, top + start + length_v))
    for y in ys:
        marks.append((plan.left - start, y, plan.left - start - length_h, y))
        marks.append((plan.right + start, y, plan.right + start + length_h, y))
    return marks


@dataclass(frozen=True, slots=True)
class PdfOptions:
    paper: str = "letter"
    gutter: float = 0.0
    bleed: float = 0.0
    duplex: str = "long"
    fronts_only: bool = False
    watermark: str | None = None
    footer_note: str | None = None
    margin: float = DEFAULT_PRINTER_MARGIN
    fold: bool = False
    back_offset: tuple[float, float] = (0.0, 0.0)  # points, as read on the calibration page


def page_count(n_cards: int, plan: SheetPlan, fronts_only: bool) -> int:
    sheets = math.ceil(n_cards / plan.per_page)
    return sheets if fronts_only or plan.fold else 2 * sheets


def new_canvas(path: Path, size: tuple[float, float], version: tuple[int, int]) -> Canvas:
    # the initial font is one we embed: reportlab's default (Helvetica) would be referenced
    # unembedded on every page, which print shops' preflight checks reject
    return Canvas(str(path), pagesize=size, invariant=1, pageCompression=1,
                  initialFontName=fonts.rl_name("sans"), pdfVersion=version)


def write_pdf(
    path: Path,
    deck: Deck,
    layouts: dict[str, tuple[DrawOp, ...]],
    size: CardSize,
    options: PdfOptions,
    advance: Callable[[], None] | None = None,
) -> int:
    """Write the sheets PDF to ``path`` (the caller renames it into place); returns pages."""
    if options.duplex not in DUPLEX:
        raise RenderError(f"unknown duplex mode {options.duplex!r} (long, short or none)")
    plan = plan_sheet(options.paper, size, options.gutter, options.bleed, options.margin,
                      options.fold)
    cards = deck.cards
    total = page_count(len(cards), plan, options.fronts_only)
    # 1.7: the Duplex viewer preference (1.6: PrintScaling) is what asks for the right printing
    c = new_canvas(path, (plan.page_w, plan.page_h), (1, 7))
    note = f" ({options.footer_note})" if options.footer_note else ""
    layout = "folded in half" if plan.fold else f"on {options.paper}"
    c.setTitle(f"{deck.set_name}: print-and-play cards")
    c.setSubject(f"{deck.set_name}, {len(cards)} {size.name} cards {layout}, "
                 f"content hash {deck.content_hash}{note}")
    c.setKeywords(f"content-hash:{deck.content_hash}" + (
        f"; {options.footer_note}" if options.footer_note else ""))
    c.setCreator(f"Boneyard {__version__}")
    c.setAuthor(deck.set_name)
    c.setViewerPreference("PrintScaling", "None")  # actual size: a card must print at its size
    # fronts only or folded: one-sided, or the printer would put the next page on the back
    duplex = "none" if options.fronts_only or plan.fold else options.duplex
    c.setViewerPreference("Duplex", {"long": "DuplexFlipLongEdge",
                                     "short": "DuplexFlipShortEdge",
                                     "none": "Simplex"}[duplex])
    xs, ys = cut_lines(plan)
    trim = (xs[0], ys[0], xs[-1], ys[-1])
    b = options.bleed
    c.setTrimBox(trim)
    c.setBleedBox((trim[0] - b, trim[1] - b, trim[2] + b, trim[3] + b))
    page = 0
    for start in range(0, len(cards), plan.per_page):
        chunk = cards[start:start + plan.per_page]
        if plan.fold:
            page += 1
            faces = [(card.front, card_box(plan, slot)) for slot, card in enumerate(chunk)]
            faces += [(card.back, card_box(plan, slot, "back")) for slot, card in
                      enumerate(chunk)]
            _paint_cards(c, plan, layouts, faces, False, advance)
            _draw_marks(c, plan)
            _fold_line(c, plan)
            _footer(c, plan, deck, options, page, total, "fronts and backs \u00b7 fold on the "
                    "dashed line")
            _page_watermark(c, plan, options)
            c.showPage()
            continue
        sides = ("front",) if options.fronts_only else ("front", "back")
        for side in sides:
            page += 1
            faces = [(card.front if side == "front" else card.back,
                      card_box(plan, slot, side, options.duplex))
                     for slot, card in enumerate(chunk)]
            c.saveState()
            if side == "back":
                c.translate(*back_shift(options.duplex, options.back_offset))
            turned = side == "back" and back_turned(plan, options.duplex)
            _paint_cards(c, plan, layouts, faces, turned, advance)
            _draw_marks(c, plan)  # on the backs too: they show the duplex registration
            c.restoreState()
            _footer(c, plan, deck, options, page, total, f"{side}s")
            _page_watermark(c, plan, options)
            c.showPage()
    c.save()
    return total


def _paint_cards(c: Canvas, plan: SheetPlan, layouts: dict[str, tuple[DrawOp, ...]],
                 faces: list[tuple[Any, tuple[float, float, float, float]]], turned: bool,
                 advance: Callable[[], None] | None, ink: Any = None) -> None:
    clips = _clip_boxes(plan, [box for _, box in faces])
    for (face, (x, y, w, h)), (cx, cy, cw, ch) in zip(faces, clips, strict=True):
        c.saveState()
        if turned:  # about the card's centre: the clip box turns with it
            c.translate(x + w, y + h)
            c.rotate(180)
            cx, cy = x + w - (cx + cw), y + h - (cy + ch)
            x = y = 0.0
        p = c.beginPath()
        p.rect(cx, cy, cw, ch)
        c.clipPath(p, stroke=0, fill=0)
        PdfPainter(c, x, y + h, ink).paint(layouts[face.id])
        c.restoreState()
        if advance:
            advance()


def _page_watermark(c: Canvas, plan: SheetPlan, options: PdfOptions) -> None:
    if options.watermark:
        PdfPainter(c, 0, plan.page_h).paint(
            watermark_ops(options.watermark, 0, 0, plan.page_w, plan.page_h))


def _draw_marks(c: Canvas, plan: SheetPlan, ink: Any = None) -> None:
    (ink or RgbInk()).stroke(c, 0, 0, 0)
    c.setStrokeAlpha(1)
    c.setLineWidth(MARK_WIDTH)
    for x0, y0, x1, y1 in crop_marks(plan):
        c.line(x0, y0, x1, y1)


def _fold_line(c: Canvas, plan: SheetPlan) -> None:
    """A dashed grey line down the page's centre, from printer margin to printer margin."""
    c.saveState()
    c.setStrokeColorRGB(0.45, 0.45, 0.45)
    c.setLineWidth(0.5)
    c.setDash(4, 2.5)
    x = plan.page_w / 2
    c.line(x, plan.margin, x, plan.page_h - plan.margin)
    c.restoreState()


@dataclass(frozen=True, slots=True)
class FooterRun:
    text: str
    x: float  # the baseline's centre point
    y: float
    size: float
    angle: float  # 0 (bottom, top), 90 (left side, reading up), -90 (right side, reading down)


def footer_runs(plan: SheetPlan, parts: list[str]) -> list[FooterRun]:
    """Where the footer goes: in the band between the printer margin and the cut (or bleed),
    under the columns (or, turned, beside the rows), between the crop marks.

    The bottom band is used when the footer fits there at :data:`FOOTER_SIZE`; else the side
    (or top) band where it is largest; below :data:`FOOTER_MIN_SIZE` it cannot be read and the
    render fails.
    """
    start = plan.bleed + MARK_GAP
    columns = []
    for col in range(plan.cols):
        x = plan.left + col * (plan.card_w + plan.gutter)
        columns.append((x, x + plan.card_w))
        if plan.fold:
            columns.append((plan.page_w - x - plan.card_w, plan.page_w - x))
    columns.sort()
    rows = [(plan.bottom + r * (plan.card_h + plan.gutter),
             plan.bottom + r * (plan.card_h + plan.gutter) + plan.card_h)
            for r in range(plan.rows)]
    top = plan.bottom + plan.grid_h
    # (depth from, depth to, spans along the edge, whole edge, angle)
    bands = [
        (plan.margin, plan.bottom - start, columns, (plan.left, plan.right), 0.0),
        (plan.margin, plan.left - start, rows, (plan.bottom, top), 90.0),
        (plan.right + start, plan.page_w - plan.margin, rows, (plan.bottom, top), -90.0),
        (top + start, plan.page_h - plan.margin, columns, (plan.left, plan.right), 0.0),
    ]
    best: tuple[float, list[FooterRun]] | None = None
    for lo, hi, spans, whole, angle in bands:
        runs = _band_runs(parts, lo, hi, spans, whole, angle)
        low = min(r.size for r in runs)
        if low >= FOOTER_SIZE - 1e-6:
            return runs
        if best is None or low > best[0]:
            best = (low, runs)
    assert best is not None
    if best[0] < FOOTER_MIN_SIZE:
        raise RenderError(f"no room for the page footer: the widest band between the printer "
                          f"margin ({plan.margin / PT_PER_MM:.1f} mm) and the cards holds "
                          f"{best[0]:.1f} pt text, under {FOOTER_MIN_SIZE:g} pt (choose a "
                          "larger --paper, or a smaller --printer-margin if your printer allows)")
    return best[1]


def _band_runs(parts: list[str], lo: float, hi: float, spans: list[tuple[float, float]],
               whole: tuple[float, float], angle: float) -> list[FooterRun]:
    """Each part centred in a span (first, middle, last card) and shrunk to fit it."""
    if len(spans) < len(parts):
        parts, spans = [" \u00b7 ".join(parts)], [whole]
    elif len(parts) == 2 and len(spans) >= 3:
        spans = [spans[0], spans[-1]]
    elif len(parts) == 3 and len(spans) > 3:
        spans = [spans[0], spans[len(spans) // 2], spans[-1]]
    elif len(spans) > len(parts):
        spans = spans[:len(parts) - 1] + [spans[-1]]
    depth = max(0.0, hi - lo)
    mid = (lo + hi) / 2
    runs = []
    for text, (a, b) in zip(parts, spans, strict=True):
        room = b - a - 2 * mm(1.5)
        size = min(FOOTER_SIZE, depth / (ASCENT + DESCENT))
        wide = fonts.width(text, "sans", 1.0)
        if wide * size > room:
            size = room / wide
        lift = (ASCENT - DESCENT) / 2 * size  # baseline below the middle of the ink
        along = (a + b) / 2
        if angle == 0:
            runs.append(FooterRun(text, along, mid - lift, size, angle))
        elif angle == 90:  # the glyphs' up points to the paper edge (-x)
            runs.append(FooterRun(text, mid + lift, along, size, angle))
        else:
            runs.append(FooterRun(text, mid - lift, along, size, angle))
    return runs


def _footer(c: Canvas, plan: SheetPlan, deck: Deck, options: PdfOptions, page: int, total: int,
            side: str, ink: Any = None) -> None:
    """Set name + content hash, the playtest note, and page n of m, inside the printable area."""
    parts = [f"{deck.set_name} \u00b7 content {deck.content_hash}"]
    if options.footer_note:
        parts.append(options.footer_note)
    parts.append(f"{side} \u00b7 page {page} of {total}")
    c.saveState()
    (ink or RgbInk()).fill(c, 64, 64, 64)
    c.setFillAlpha(1)
    for run in footer_runs(plan, parts):
        c.setFont(fonts.rl_name("sans"), run.size)
        if run.angle:
            c.saveState()
            c.translate(run.x, run.y)
            c.rotate(run.angle)
            c.drawCentredString(0, 0, run.text)
            c.restoreState()
        else:
            c.drawCentredString(run.x, run.y, run.text)
    c.restoreState()


# --- calibration -----------------------------------------------------------------------------

CALIBRATION_INSET = mm(30)  # the corner targets, this far in from both edges
SCALE_REACH = mm(6)  # each scale runs 6 mm either side of its target
BACK_REACH = mm(10)  # the back's lines reach this far, past the scales


def calibration_targets(paper: str) -> list[tuple[float, float]]:
    """The centre of the page and four points 30 mm in from its corners (PDF points)."""
    w, h = PAPERS[paper]
    a = CALIBRATION_INSET
    return [(w / 2, h / 2), (a, a), (w - a, a), (a, h - a), (w - a, h - a)]


def write_calibration(path: Path, paper: str, duplex: str, margin: float,
                      back_offset: tuple[float, float] = (0.0, 0.0)) -> int:
    """Two pages that measure a printer's duplex offset and printable area.

    Front: at five targets a horizontal and a vertical millimetre scale; a dashed frame at the
    printer margin (a side that is not printed means the margin is too small). Back, printed
    behind it: a long thin cross at each target, drawn exactly as backs are (mirror, turn, the
    current ``back_offset``). Held to the light, the back's lines cross the scales at the
    printer's offset, to pass as ``--back-offset X,Y``; printed again with it they read 0.
    """
    if duplex not in ("long", "short"):
        raise RenderError("the calibration page measures duplex printing: --duplex long or short")
    w, h = PAPERS[paper]
    if margin * 2 > min(w, h) / 3:
        raise RenderError(f"a printer margin of {margin / PT_PER_MM:.1f} mm leaves no page")
    c = new_canvas(path, (w, h), (1, 7))
    c.setTitle(f"Printer calibration: {paper}, {duplex}-edge duplex")
    c.setCreator(f"Boneyard {__version__}")
    c.setViewerPreference("PrintScaling", "None")
    c.setViewerPreference("Duplex", "DuplexFlipLongEdge" if duplex == "long"
                          else "DuplexFlipShortEdge")
    targets = calibration_targets(paper)
    # front
    c.setStrokeColorRGB(0, 0, 0)
    c.setFillColorRGB(0, 0, 0)
    for tx, ty in targets:
        _scales(c, tx, ty)
    _margin_frame(c, w, h, margin)
    sans, bold = fonts.rl_name("sans"), fonts.rl_name("sans-bold")
    lines = [
        (bold, 10, f"Printer calibration \u00b7 {paper} \u00b7 {duplex}-edge duplex"),
        (sans, 7, "1. Print both pages on one sheet, two-sided, flipped on the "
                  f"{duplex} edge, at actual size (100%, no fit-to-page)."),
        (sans, 7, "2. Hold the sheet against a window. At each scale, read where the thin "
                  "line printed on the back crosses it, in mm:"),
        (sans, 7, "   right of 0 and up from 0 are positive, looking at this side."),
        (sans, 7, "3. Render with --back-offset X,Y (the centre reading, e.g. --back-offset "
                  "0.5,-1) and print this page again with it: the lines then cross at 0."),
        (sans, 7, "The dashed frame is the printer margin: if a side of it is missing, "
                  "raise --printer-margin."),
    ]
    y = h / 2 + mm(40)
    for font, size, text in lines:
        c.setFont(font, size)
        c.drawCentredString(w / 2, y, text)
        y -= size * 1.6
    c.setFont(sans, 6)
    c.drawCentredString(w / 2, margin + mm(3), f"front \u00b7 back offset now "
                        f"{back_offset[0] / PT_PER_MM:+.2f}, {back_offset[1] / PT_PER_MM:+.2f} mm"
                        f" \u00b7 printer margin {margin / PT_PER_MM:.2f} mm")
    c.showPage()
    # back: drawn the way backs are drawn, so it measures what the cards will get
    c.saveState()
    c.translate(*back_shift(duplex, back_offset))
    c.setStrokeColorRGB(0, 0, 0)
    c.setLineWidth(0.3)
    for tx, ty in targets:
        bx, by = (w - tx, ty) if duplex == "long" else (tx, h - ty)
        c.line(bx - BACK_REACH, by, bx + BACK_REACH, by)
        c.line(bx, by - BACK_REACH, bx, by + BACK_REACH)
    c.restoreState()
    c.setFillColorRGB(0, 0, 0)
    c.setFont(sans, 6)
    c.drawCentredString(w / 2, margin + mm(3), "back \u00b7 hold the sheet to the light and "
                        "read these lines on the front's scales")
    c.showPage()
    c.save()
    return 2


def _scales(c: Canvas, tx: float, ty: float) -> None:
    """A horizontal and a vertical scale crossing at (tx, ty): ticks every 0.5 mm, numbers
    every 2 mm."""
    c.setLineWidth(0.25)
    c.line(tx - SCALE_REACH, ty, tx + SCALE_REACH, ty)
    c.line(tx, ty - SCALE_REACH, tx, ty + SCALE_REACH)
    c.setFont(fonts.rl_name("sans"), 3.5)
    for i in range(-12, 13):
        d = i * mm(0.5)
        tick = mm(1.2) if i % 2 == 0 else mm(0.6)
        c.line(tx + d, ty, tx + d, ty - tick)  # below the horizontal scale
        c.line(tx, ty + d, tx - tick, ty + d)  # left of the vertical scale
        if i % 4 == 0 and i:
            c.drawCentredString(tx + d, ty - mm(2.6), f"{i // 2:+d}")
            c.drawRightString(tx - mm(1.6), ty + d - 1.2, f"{i // 2:+d}")


def _margin_frame(c: Canvas, w: float, h: float, margin: float) -> None:
    c.saveState()
    c.setLineWidth(0.3)
    c.setDash(2, 2)
    inset = margin + 0.15  # the line's own width stays inside the margin
    c.rect(inset, inset, w - 2 * inset, h - 2 * inset, stroke=1, fill=0)
    c.restoreState()


__all__ = ["DEFAULT_PRINTER_MARGIN", "DUPLEX", "STANDARD_BLEED", "SheetPlan", "card_box",
           "crop_marks", "plan_sheet", "write_calibration", "write_pdf"]
