"""Card images: one PNG per face for print shops, Tabletop Simulator deck sheets, a proof sheet.

Every image is painted from the same operations as the PDF. PNGs are written without metadata
or timestamps, so the same input gives the same bytes.
"""

from __future__ import annotations

import hashlib
import json
import math
import struct
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from boneyard.engine.faces import Deck, Face
from PIL import Image, ImageDraw, PngImagePlugin

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


def _srgb_chunks() -> PngImagePlugin.PngInfo:
    """sRGB (perceptual) with the gAMA and cHRM values the PNG spec pairs with it, so every
    viewer and shop reads our numbers as sRGB rather than guessing."""
    info = PngImagePlugin.PngInfo()
    info.add(b"sRGB", b"\x00")
    info.add(b"gAMA", struct.pack(">I", 45455))
    info.add(b"cHRM", struct.pack(">8I", 31270, 32900, 64000, 33000, 30000, 60000,
                                  15000, 6000))
    return info


def save_png(im: Image.Image, path: Path, dpi: int | None = None) -> None:
    extra: dict[str, Any] = {"dpi": (dpi, dpi)} if dpi else {}
    im.save(path, "PNG", compress_level=PNG_COMPRESSION, pnginfo=_srgb_chunks(), **extra)


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
              watermark: str | None = None, advance: Callable[[], None] | None = None,
              rules_text: Mapping[str, str] | None = None, base_url: str | None = None,
              final_folder: Path | None = None) -> list[Path]:
    """Deck sheets (<= 10 x 7, last slot = the hidden card), one set per back type, our own
    ``deck.json`` index, and a Tabletop Simulator saved object (``<set>.json``, see
    :func:`tts_saved_object`) with its thumbnail (``<set>.png``)."""
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
    where = final_folder or folder
    saved = tts_saved_object(deck, sheets, rules_text or {},
                             lambda name: tts_url(where, name, base_url))
    target = folder / f"{deck.slug}.json"
    target.write_text(json.dumps(saved, indent=1) + "\n")
    out.append(target)
    if deck.fronts:  # the picture TTS shows for the saved object: the first front
        thumb = face_image(layouts[deck.fronts[0].id], size, 256,
                           round(256 * size.height / size.width), watermark)
        save_png(thumb, folder / f"{deck.slug}.png")
        out.append(folder / f"{deck.slug}.png")
    return out


def tts_url(folder: Path, name: str, base_url: str | None) -> str:
    """A sheet's address for Tabletop Simulator: a file URI on this machine (TTS loads those
    for a local game), or under ``base_url`` when the images are hosted for other players."""
    if base_url:
        return base_url.rstrip("/") + "/" + name
    return (Path(folder).resolve() / name).as_uri()


def _guid(*parts: object) -> str:
    """TTS object GUIDs are 6 hex digits; derived from the content so the file is stable."""
    return hashlib.sha1("/".join(map(str, parts)).encode()).hexdigest()[:6]


def _transform(y: float = 1.0) -> dict[str, float]:
    # face down (rotZ 180), the way a deck is put on the table
    return {"posX": 0.0, "posY": y, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def tts_saved_object(deck: Deck, sheets: list[dict[str, Any]], rules_text: Mapping[str, str],
                     url: Callable[[str], str]) -> dict[str, Any]:
    """A Tabletop Simulator saved object: one deck holding every physical card.

    Each sheet is one ``CustomDeck`` entry (its number N gives the cards ids N*100 + slot);
    ``DeckIDs`` lists every physical card in deck order and ``ContainedObjects`` the same cards
    with their name and rules text, so a card's tooltip reads as the card does. The last slot of
    each sheet is the hidden face (``BackIsHidden``); each sheet has one back (``UniqueBack``
    false).
    """
    custom: dict[str, dict[str, Any]] = {}
    slot_of: dict[str, int] = {}
    for n, sheet in enumerate(sheets, 1):
        custom[str(n)] = {"FaceURL": url(sheet["face"]), "BackURL": url(sheet["back"]),
                          "NumWidth": sheet["columns"], "NumHeight": sheet["rows"],
                          "BackIsHidden": True, "UniqueBack": False, "Type": 0}
        for slot, face_id in sheet["slots"].items():
            slot_of[face_id] = n * 100 + int(slot)
    fronts = {f.id: f for f in deck.fronts}
    ids: list[int] = []
    contained: list[dict[str, Any]] = []
    for i, card in enumerate(deck.cards):
        if card.front.id not in slot_of:
            continue
        card_id = slot_of[card.front.id]
        sheet_key = str(card_id // 100)
        face = fronts[card.front.id]
        key = str(face.fields.get("character") or face.fields.get("id") or face.id)
        ids.append(card_id)
        contained.append({
            "GUID": _guid(deck.content_hash, i, card_id), "Name": "Card",
            "Transform": _transform(), "Nickname": str(face.fields.get("name", face.id)),
            "Description": rules_text.get(key, ""), "GMNotes": face.id, "CardID": card_id,
            "SidewaysCard": False, "Hands": True, "CustomDeck": {sheet_key: custom[sheet_key]}})
    deck_object = {
        "GUID": _guid(deck.content_hash, "deck"), "Name": "Deck", "Transform": _transform(),
        "Nickname": deck.set_name,
        "Description": f"{len(ids)} cards, content hash {deck.content_hash}",
        "Locked": False, "Grid": True, "Snap": True, "Autoraise": True, "Sticky": True,
        "Tooltip": True, "SidewaysCard": False, "Hands": False,
        "DeckIDs": ids, "CustomDeck": custom, "ContainedObjects": contained}
    # TTS loads a single card as a Card: a Deck must hold two or more
    objects = [dict(contained[0], Transform=_transform())] if len(contained) == 1 else \
        [deck_object]
    return {"SaveName": "", "GameMode": "", "Date": "", "Gravity": 0.5, "PlayArea": 0.5,
            "Table": "", "Sky": "", "Note": "", "Rules": "", "XmlUI": "", "LuaScript": "",
            "LuaScriptState": "", "ObjectStates": objects, "TabStates": {},
            "VersionNumber": ""}


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
