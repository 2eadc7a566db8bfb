"""A print shop's PDF: one card per page, with its bleed, front then back, in deck order.

Shops that print from PDF (rather than from one PNG per face) impose pages themselves; what they
ask for is each card on its own page at its final size plus the bleed, the cut marked by the
TrimBox, fonts embedded, and an OutputIntent that says which colour space the numbers are in.
RGB output embeds an sRGB profile; CMYK output converts every colour and picture through the
press profile (see :mod:`.colour`) and embeds that profile. Nothing is printed outside the
card: no marks, no footer (the shop's imposition adds its own). The header says PDF 1.4, the
version that introduced OutputIntents, soft masks and transparency; no later feature is used.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from boneyard.engine.faces import Deck
from PIL import ImageCms
from reportlab.pdfbase.pdfdoc import (
    PDFArray,
    PDFCatalog,
    PDFDictionary,
    PDFName,
    PDFStream,
    PDFString,
    PDFZCompress,
)
from reportlab.pdfgen.canvas import Canvas

from boneyard import __version__

from .backends import PdfPainter
from .colour import CmykInk, CmykProfile, RgbInk
from .layout import watermark_ops
from .ops import DrawOp
from .sheets import new_canvas
from .units import STANDARD_BLEED, CardSize

SHOP_PDF_VERSION = (1, 4)


def srgb_profile() -> bytes:
    """LittleCMS's sRGB profile, its creation time (header bytes 24-35) set to a fixed one: it
    stamped the moment it was made, so two renders of one set made different files."""
    data = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    data[24:36] = (2000).to_bytes(2, "big") + b"\x00\x01\x00\x01" + bytes(6)  # 2000-01-01
    if any(data[84:100]):  # a profile ID (an MD5 over the header with these fields zeroed)
        hashed = bytearray(data)
        hashed[44:48] = hashed[64:68] = bytes(4)
        hashed[84:100] = bytes(16)
        data[84:100] = hashlib.md5(bytes(hashed)).digest()
    return bytes(data)


def add_output_intent(c: Canvas, profile: bytes, components: int, condition: str) -> None:
    """The file's OutputIntent: the ICC profile its colours are meant for (PDF 1.4, 14.11.5)."""
    doc = c._doc
    stream = PDFStream(PDFDictionary({"N": components}), profile, filters=[PDFZCompress])
    intent = PDFDictionary({
        "Type": PDFName("OutputIntent"),
        "S": PDFName("GTS_PDFX"),
        "OutputConditionIdentifier": PDFString(condition),
        "Info": PDFString(condition),
        "DestOutputProfile": doc.Reference(stream),
    })
    catalog = doc.Catalog
    catalog.OutputIntents = PDFArray([intent])
    if "OutputIntents" not in catalog.__NoDefault__:
        # reportlab writes only the catalogue keys it knows; this instance knows one more
        catalog.__NoDefault__ = [*PDFCatalog.__NoDefault__, "OutputIntents"]


def write_shop_pdf(path: Path, deck: Deck, layouts: dict[str, tuple[DrawOp, ...]],
                   size: CardSize, cmyk: CmykProfile | None = None,
                   watermark: str | None = None, footer_note: str | None = None,
                   advance: Callable[[], None] | None = None) -> int:
    """Write the 1-up PDF; returns its number of pages (two per physical card)."""
    b = STANDARD_BLEED
    pw, ph = size.width + 2 * b, size.height + 2 * b
    c = new_canvas(path, (pw, ph), SHOP_PDF_VERSION)
    ink = CmykInk(cmyk) if cmyk else RgbInk()
    space = "CMYK" if cmyk else "sRGB"
    note = f" ({footer_note})" if footer_note else ""
    c.setTitle(f"{deck.set_name}: cards for print, one a page")
    c.setSubject(f"{deck.set_name}, {len(deck.cards)} {size.name} cards, front then back, "
                 f"1/8 inch bleed, {space}, content hash {deck.content_hash}{note}")
    c.setKeywords(f"content-hash:{deck.content_hash}")
    c.setCreator(f"Boneyard {__version__}")
    c.setAuthor(deck.set_name)
    if cmyk:
        add_output_intent(c, cmyk.data, 4, cmyk.description)
    else:
        add_output_intent(c, srgb_profile(), 3, "sRGB IEC61966-2.1")
    c.setTrimBox((b, b, b + size.width, b + size.height))
    c.setBleedBox((0, 0, pw, ph))
    pages = 0
    for card in deck.cards:
        for face in (card.front, card.back):
            PdfPainter(c, b, b + size.height, ink).paint(layouts[face.id])
            if watermark:
                PdfPainter(c, b, b + size.height, ink).paint(
                    watermark_ops(watermark, 0, 0, size.width, size.height))
            c.showPage()
            pages += 1
        if advance:
            advance()
    c.save()
    return pages

