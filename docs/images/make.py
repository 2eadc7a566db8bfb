"""Regenerate the pictures in docs/printing.md: `.venv/bin/python docs/images/make.py`.

Each is a page or image the renderer wrote for the bundled Grave Feast set, rasterised by PDFium
(the same independent renderer the tests use) and shrunk to a small palette PNG.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pypdfium2
from boneyard.pipeline.load import load_set
from boneyard.pipeline.render.api import RenderOptions, render_set
from PIL import Image, ImageDraw

HERE = Path(__file__).parent


def page(pdf: Path, index: int, width: int) -> Image.Image:
    doc = pypdfium2.PdfDocument(str(pdf))
    try:
        p = doc[index]
        return p.render(scale=width / p.get_width()).to_pil().convert("RGB")
    finally:
        doc.close()


def save(im: Image.Image, name: str) -> None:
    im.quantize(colors=128, dither=Image.Dither.NONE).save(HERE / name, optimize=True)


def side_by_side(*ims: Image.Image, gap: int = 12) -> Image.Image:
    w = sum(i.width for i in ims) + gap * (len(ims) - 1)
    out = Image.new("RGB", (w, max(i.height for i in ims)), (255, 255, 255))
    x = 0
    for i in ims:
        out.paste(i, (x, 0))
        x += i.width + gap
    return out


def main() -> None:
    cs = load_set("grave-feast")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)

        def pdf(**options: object) -> Path:
            (path,) = render_set(cs, out, RenderOptions(**options)).files  # type: ignore[arg-type]
            return path

        sheets = pdf(formats=("pdf",))
        save(side_by_side(page(sheets, 0, 300), page(sheets, 1, 300)), "sheets-letter.png")
        short = pdf(formats=("pdf",), paper="a4", duplex="short", bleed=True)
        save(side_by_side(page(short, 0, 300), page(short, 1, 300)), "sheets-a4-short-bleed.png")
        save(page(pdf(formats=("pdf",), fold=True), 0, 500), "gutter-fold-letter.png")
        save(page(pdf(formats=("calibration",)), 0, 400), "calibration-letter.png")
        shop = pdf(formats=("shop",))
        card = page(shop, 0, 200)
        d = ImageDraw.Draw(card)
        k = 200 / 198  # the page is the poker card (180 pt) plus 9 pt of bleed each side
        d.rectangle((9 * k, 9 * k, 189 * k, 261 * k), outline=(0, 170, 255), width=1)
        d.rectangle((18 * k, 18 * k, 180 * k, 252 * k), outline=(0, 200, 80), width=1)
        save(side_by_side(card, page(shop, 1, 200)), "shop-1up.png")
        (pngs,) = render_set(cs, out, RenderOptions(formats=("png",))).files
        with Image.open(pngs / "blood-3.png") as card_image:
            zoom = card_image.convert("RGB").crop((0, 0, 240, 240)).resize((240, 240))
            save(side_by_side(card_image.convert("RGB").resize((175, 239)), zoom),
                 "card-image-tgc.png")
        (proof,) = render_set(cs, out, RenderOptions(formats=("proof",))).files
        with Image.open(proof) as sheet:
            save(sheet.convert("RGB").resize((600, round(600 * sheet.height / sheet.width))),
                 "proof.png")
        (tts,) = render_set(cs, out, RenderOptions(formats=("tts",))).files
        with Image.open(tts / "deck-fronts-1.png") as sheet:
            save(sheet.convert("RGB").resize((600, round(600 * sheet.height / sheet.width))),
                 "tts-sheet.png")


if __name__ == "__main__":
    main()
