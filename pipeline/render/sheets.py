"""PDF sheets for a home printer: cards on a grid, crop marks, duplex backs, footer, metadata.

Geometry (:func:`plan_sheet`, :func:`card_box`) is pure and in PDF points (origin bottom-left),
so tests can check every card's position to a tenth of a millimetre without reading a PDF.

Duplex: after each page of fronts comes the page of their backs. For long-edge flipping the
back of the card printed at (x, y) sits at (page width - x - card width, y): the columns are
mirrored; for short-edge flipping the rows are. ``duplex="none"`` (single-sided printing, backs
cut and glued or sleeved separately) keeps each back in the same slot as its front.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from boneyard.engine.faces import Deck
from reportlab.pdfgen.canvas import Canvas

from boneyard import __version__
from boneyard.errors import RenderError

from . import fonts
from .backends import PdfPainter
from .layout import watermark_ops
from .ops import DrawOp
from .units import PAPERS, CardSize, mm

MIN_MARGIN = mm(6)  # room left for crop marks and the footer on each side of the grid
MARK_GAP = mm(1)  # crop marks start this far outside the cut (or outside the bleed)
MARK_LENGTH = mm(4)
MARK_WIDTH = 0.4
FOOTER_SIZE = 6.0
FOOTER_MIN_SIZE = 3.5
DUPLEX = ("long", "short", "none")


@dataclass(frozen=True, slots=True)
class SheetPlan:
    """Where cards go on a page: a centred grid of trimmed cards."""

    page_w: float
    page_h: float
    card_w: float
    card_h: float
    cols: int
    rows: int
    gutter: float
    bleed: float  # drawn past the cut on the grid's outer edges (and into gutters, up to half)

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
        return (self.page_w - self.grid_w) / 2

    @property
    def bottom(self) -> float:
        return (self.page_h - self.grid_h) / 2

    @property
    def inner_bleed(self) -> float:
        return min(self.bleed, self.gutter / 2)


def plan_sheet(paper: str, size: CardSize, gutter: float = 0.0, bleed: float = 0.0) -> SheetPlan:
    """As many cards as fit with :data:`MIN_MARGIN` clear on every side (poker on letter: 3x3)."""
    try:
        pw, ph = PAPERS[paper]
    except KeyError:
        raise RenderError(f"unknown paper {paper!r} (choose one of {', '.join(PAPERS)})") from None
    eps = 1e-6
    cols = math.floor((pw - 2 * MIN_MARGIN + gutter + eps) / (size.width + gutter))
    rows = math.floor((ph - 2 * MIN_MARGIN + gutter + eps) / (size.height + gutter))
    if cols < 1 or rows < 1:
        raise RenderError(f"a {size.name} card does not fit on {paper} paper with a "
                          f"{gutter / mm(1):.1f} mm gutter")
    return SheetPlan(pw, ph, size.width, size.height, cols, rows, gutter, bleed)


def card_box(plan: SheetPlan, slot: int, side: str = "front", duplex: str = "long"
             ) -> tuple[float, float, float, float]:
    """Trim box (x, y, w, h) of a slot in PDF points, y up; backs mirrored for the flip."""
    r, c = divmod(slot, plan.cols)
    x = plan.left + c * (plan.card_w + plan.gutter)
    y = plan.page_h - plan.bottom - (r + 1) * plan.card_h - r * plan.gutter
    if side == "back":
        if duplex == "long":
            x = plan.page_w - x - plan.card_w
        elif duplex == "short":
            y = plan.page_h - y - plan.card_h
    return (x, y, plan.card_w, plan.card_h)


def _clip_box(plan: SheetPlan, x: float, y: float) -> tuple[float, float, float, float]:
    """The trim box grown by the bleed: fully on the grid's outside, half a gutter inside."""
    eps = 1e-6
    outer, inner = plan.bleed, plan.inner_bleed
    x0 = x - (outer if x <= plan.left + eps else inner)
    x1 = x + plan.card_w + (outer if x + plan.card_w >= plan.left + plan.grid_w - eps else inner)
    y0 = y - (outer if y <= plan.bottom + eps else inner)
    y1 = y + plan.card_h + (outer if y + plan.card_h >= plan.bottom + plan.grid_h - eps else inner)
    return (x0, y0, x1 - x0, y1 - y0)


def cut_lines(plan: SheetPlan) -> tuple[list[float], list[float]]:
    """x positions of vertical cuts and y positions of horizontal cuts (PDF points)."""
    xs, ys = [], []
    for c in range(plan.cols):
        x = plan.left + c * (plan.card_w + plan.gutter)
        xs.extend([x, x + plan.card_w])
    for r in range(plan.rows):
        y = plan.bottom + r * (plan.card_h + plan.gutter)
        ys.extend([y, y + plan.card_h])
    return sorted(set(round(v, 4) for v in xs)), sorted(set(round(v, 4) for v in ys))


def crop_marks(plan: SheetPlan) -> list[tuple[float, float, float, float]]:
    """Line segments (x0, y0, x1, y1) in the margin, a gap away from the cut and its bleed."""
    xs, ys = cut_lines(plan)
    start = plan.bleed + MARK_GAP
    top = plan.bottom + plan.grid_h
    right = plan.left + plan.grid_w
    length_v = min(MARK_LENGTH, plan.bottom - start)
    length_h = min(MARK_LENGTH, plan.left - start)
    marks = []
    for x in xs:
        marks.append((x, plan.bottom - start, x, plan.bottom - start - length_v))
        marks.append((x, top + start, x, top + start + length_v))
    for y in ys:
        marks.append((plan.left - start, y, plan.left - start - length_h, y))
        marks.append((right + start, y, right + start + length_h, y))
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


def page_count(n_cards: int, plan: SheetPlan, fronts_only: bool) -> int:
    sheets = math.ceil(n_cards / plan.per_page)
    return sheets if fronts_only else 2 * sheets


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
    plan = plan_sheet(options.paper, size, options.gutter, options.bleed)
    cards = deck.cards
    total = page_count(len(cards), plan, options.fronts_only)
    # the initial font is one we embed: reportlab's default (Helvetica) would be referenced
    # unembedded on every page, which print shops' preflight checks reject
    c = Canvas(str(path), pagesize=(plan.page_w, plan.page_h), invariant=1,
               pageCompression=1, initialFontName=fonts.rl_name("sans"))
    note = f" ({options.footer_note})" if options.footer_note else ""
    c.setTitle(f"{deck.set_name}: print-and-play cards")
    c.setSubject(f"{deck.set_name}, {len(cards)} {size.name} cards on {options.paper}, "
                 f"content hash {deck.content_hash}{note}")
    c.setKeywords(f"content-hash:{deck.content_hash}" + (
        f"; {options.footer_note}" if options.footer_note else ""))
    c.setCreator(f"Boneyard {__version__}")
    c.setAuthor(deck.set_name)
    c.setViewerPreference("PrintScaling", "None")  # actual size: a card must print at its size
    # fronts only: one-sided, or the printer would put the next page of fronts on the back
    duplex = "none" if options.fronts_only else options.duplex
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
        sides = ("front",) if options.fronts_only else ("front", "back")
        for side in sides:
            page += 1
            for slot, card in enumerate(chunk):
                face = card.front if side == "front" else card.back
                x, y, w, h = card_box(plan, slot, side, options.duplex)
                cx, cy, cw, ch = _clip_box(plan, x, y)
                c.saveState()
                p = c.beginPath()
                p.rect(cx, cy, cw, ch)
                c.clipPath(p, stroke=0, fill=0)
                PdfPainter(c, x, y + h).paint(layouts[face.id])
                c.restoreState()
                if advance:
                    advance()
            if side == "front" or options.duplex == "none":
                _draw_marks(c, plan)
            _footer(c, plan, deck, options, page, total, side)
            if options.watermark:
                PdfPainter(c, 0, plan.page_h).paint(
                    watermark_ops(options.watermark, 0, 0, plan.page_w, plan.page_h))
            c.showPage()
    c.save()
    return total


def _draw_marks(c: Canvas, plan: SheetPlan) -> None:
    c.setStrokeColorRGB(0, 0, 0)
    c.setStrokeAlpha(1)
    c.setLineWidth(MARK_WIDTH)
    for x0, y0, x1, y1 in crop_marks(plan):
        c.line(x0, y0, x1, y1)


def _footer(c: Canvas, plan: SheetPlan, deck: Deck, options: PdfOptions, page: int, total: int,
            side: str) -> None:
    """Set name + content hash, the playtest note, and page n of m, in the bottom margin.

    The margin also holds the crop marks, so each piece is centred under a column of cards,
    between the marks, and shrunk to fit there.
    """
    parts = [f"{deck.set_name} \u00b7 content {deck.content_hash}"]
    if options.footer_note:
        parts.append(options.footer_note)
    parts.append(f"{side}s \u00b7 page {page} of {total}")
    spans = _footer_spans(plan)
    if len(spans) < len(parts):
        parts = [" \u00b7 ".join(parts)]
        spans = [(plan.left, plan.left + plan.grid_w)]
    elif len(parts) == 2 and len(spans) >= 3:
        spans = [spans[0], spans[-1]]
    elif len(parts) == 3 and len(spans) > 3:
        spans = [spans[0], spans[len(spans) // 2], spans[-1]]
    elif len(spans) > len(parts):
        spans = spans[:len(parts) - 1] + [spans[-1]]
    baseline = (plan.bottom - plan.bleed) / 2 - 0.73 * FOOTER_SIZE / 2
    c.setFillColorRGB(0.25, 0.25, 0.25)
    c.setFillAlpha(1)
    for text, (x0, x1) in zip(parts, spans, strict=True):
        room = x1 - x0 - 2 * mm(1.5)
        size = FOOTER_SIZE
        wide = fonts.width(text, "sans", 1.0)
        if wide * size > room:
            size = max(FOOTER_MIN_SIZE, room / wide)
        c.setFont(fonts.rl_name("sans"), size)
        c.drawCentredString((x0 + x1) / 2, baseline, text)


def _footer_spans(plan: SheetPlan) -> list[tuple[float, float]]:
    spans = []
    for col in range(plan.cols):
        x = plan.left + col * (plan.card_w + plan.gutter)
        spans.append((x, x + plan.card_w))
    return spans

