"""Card images: one PNG per face for print shops, Tabletop Simulator deck sheets, a proof sheet.

Every image is painted from the same operations as the PDF. PNGs are written without metadata
or timestamps, so the same input gives the same bytes.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

from boneyard.engine.faces import Deck, Face
from PIL import Image, ImageDraw

from . import fonts
from .backends import PngPainter
from .layout import watermark_ops
from .ops import DrawOp
from .units import IMAGE_DPI, PT_PER_IN, CardSize, ImageProfile, image_pixels

PNG_COMPRESSION = 3  # zlib level: files ~10% larger than level 9, written several times faster
TTS_MAX_WIDTH = 4096
TTS_COLS, TTS_ROWS = 10, 7
PROOF_CARD_WIDTH = 180  # px per card on the proof sheet
PROOF_COLS = 12


def face_image(ops: tuple[DrawOp, ...], size: CardSize, width: int, height: int,
               watermark: str | None = None, scale: float | None = None) -> Image.Image:
    """The face painted on ``width`` x ``height`` pixels with the trimmed card centred.

    ``scale`` is pixels per point (300 dpi print images: whatever is left around the trim is
    bleed); by default the trimmed card fills the width (sheet thumbnails, no bleed).
    """
    if scale is None:
        scale = width / size.width
    ox = (width - size.width * scale) / 2
    oy = (height - size.height * scale) / 2
    im = Image.new("RGB", (width, height), (255, 255, 255))
    painter = PngPainter(im, scale, ox, oy)
    painter.paint(ops)
    if watermark:
        painter.paint(watermark_ops(watermark, 0, 0, size.width, size.height))
    return im


def save_png(im: Image.Image, path: Path, dpi: int | None = None) -> None:
    extra = {"dpi": (dpi, dpi)} if dpi else {}
    im.save(path, "PNG", compress_level=PNG_COMPRESSION, **extra)


def file_name(face: Face) -> str:
    return f"{face.id}.png"


def write_face_pngs(folder: Path, deck: Deck, layouts: dict[str, tuple[DrawOp, ...]],
                    size: CardSize, profile: ImageProfile, watermark: str | None = None,
                    advance: Callable[[], None] | None = None) -> list[Path]:
    w, h = image_pixels(size, profile)
    out = []
    for face in deck.faces:
        path = folder / file_name(face)
        save_png(face_image(layouts[face.id], size, w, h, watermark, IMAGE_DPI / PT_PER_IN),
                 path, IMAGE_DPI)
        out.append(path)
        if advance:
            advance()
    return out


def write_tts(folder: Path, deck: Deck, layouts: dict[str, tuple[DrawOp, ...]], size: CardSize,
              watermark: str | None = None, advance: Callable[[], None] | None = None
              ) -> list[Path]:
    """Deck sheets (<= 10 x 7, last slot = the hidden card), one set per back type, + JSON."""
    card_w = TTS_MAX_WIDTH // TTS_COLS
    card_h = round(card_w * size.height / size.width)
    per_sheet = TTS_COLS * TTS_ROWS - 1
    out: list[Path] = []
    sheets = []
    backs = {f.group: f for f in deck.backs}
    copies: dict[str, int] = {}
    for card in deck.cards:
        copies[card.front.id] = copies.get(card.front.id, 0) + 1
    for group, back in backs.items():
        fronts = [f for f in deck.fronts if f.group == group]
        back_file = f"back-{group}.png"
        back_im = face_image(layouts[back.id], size, card_w, card_h, watermark)
        save_png(back_im, folder / back_file)
        out.append(folder / back_file)
        for n, start in enumerate(range(0, len(fronts), per_sheet), 1):
            chunk = fronts[start:start + per_sheet]
            cols = min(TTS_COLS, len(chunk) + 1)
            rows = math.ceil((len(chunk) + 1) / cols)
            sheet = Image.new("RGB", (cols * card_w, rows * card_h), (255, 255, 255))
            slots = {}
            for i, face in enumerate(chunk):
                im = face_image(layouts[face.id], size, card_w, card_h, watermark)
                sheet.paste(im, ((i % cols) * card_w, (i // cols) * card_h))
                slots[str(i)] = face.id
                if advance:
                    advance()
            hidden = cols * rows - 1
            sheet.paste(back_im, ((hidden % cols) * card_w, (hidden // cols) * card_h))
            name = f"{group}-fronts-{n}.png"  # not "back-...": that is the back image
            save_png(sheet, folder / name)
            out.append(folder / name)
            sheets.append({"face": name, "back": back_file, "back_type": group,
                           "columns": cols, "rows": rows, "card_width": card_w,
                           "card_height": card_h, "hidden_slot": hidden, "slots": slots,
                           # physical cards of each face, to build the whole deck in TTS
                           "copies": {fid: copies.get(fid, 0) for fid in slots.values()}})
    index = {"set": deck.set_name, "content_hash": deck.content_hash, "sheets": sheets}
    # insertion order: slots read 0, 1, 2, ... (sorted keys would give 0, 1, 10, 11, ..., 2)
    (folder / "deck.json").write_text(json.dumps(index, indent=1) + "\n")
    out.append(folder / "deck.json")
    return out


def proof_sheet(deck: Deck, layouts: dict[str, tuple[DrawOp, ...]], size: CardSize,
                watermark: str | None = None, advance: Callable[[], None] | None = None
                ) -> Image.Image:
    """Every face of the set, small, labelled with its id: one glance at the whole set."""
    faces = deck.faces
    card_w = PROOF_CARD_WIDTH
    card_h = round(card_w * size.height / size.width)
    label_h = 18
    pad = 10
    cols = min(PROOF_COLS, len(faces))
    rows = math.ceil(len(faces) / cols)
    title_h = 40
    sheet = Image.new("RGB", (pad + cols * (card_w + pad), title_h + rows * (card_h + label_h + pad)),
                      (236, 236, 236))
    draw = ImageDraw.Draw(sheet)
    title_font = fonts.pillow_font("sans-bold", 20)
    label_font = fonts.pillow_font("sans", 11)
    backs = f"{len(deck.backs)} back" + ("s" if len(deck.backs) != 1 else "")
    draw.text((pad, 28), f"{deck.set_name} \u00b7 {len(deck.fronts)} fronts, {backs} "
              f"\u00b7 content {deck.content_hash}",
              font=title_font, fill=(30, 30, 30), anchor="ls")
    for i, face in enumerate(faces):
        x = pad + (i % cols) * (card_w + pad)
        y = title_h + (i // cols) * (card_h + label_h + pad)
        sheet.paste(face_image(layouts[face.id], size, card_w, card_h, watermark), (x, y))
        draw.text((x + card_w / 2, y + card_h + 13), face.id, font=label_font,
                  fill=(60, 60, 60), anchor="ms")
        if advance:
            advance()
    return sheet
