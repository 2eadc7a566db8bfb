"""PDF sheets: pages, card positions to 0.1 mm, duplex mirroring, boxes, footer, determinism."""

from __future__ import annotations

import dataclasses
import re
import subprocess

import pypdfium2
import pytest
from boneyard.pipeline.load import load_set
from boneyard.pipeline.render.api import RenderOptions, render_set
from boneyard.pipeline.render.sheets import card_box, crop_marks, plan_sheet
from boneyard.pipeline.render.units import CARD_SIZES, PAPERS, STANDARD_BLEED, mm
from pypdf import PdfReader
from render_support import dotd_set, feast_set, rules_runs

POKER = CARD_SIZES["poker"]
TENTH_MM = mm(0.1)
PDF = RenderOptions(formats=("pdf",))


def first_page(tmp_path, pdf, dpi):
    """Page 1 of ``pdf`` rasterised at ``dpi`` by PDFium (an independent PDF renderer, from PyPI),
    saved as a PNG: what a print shop's RIP would see."""
    doc = pypdfium2.PdfDocument(str(pdf))
    try:
        image = doc[0].render(scale=dpi / 72).to_pil()
    finally:
        doc.close()
    out = tmp_path / f"page-{dpi}.png"
    image.save(out)
    return out


def pdf_of(card_set, tmp_path, options=PDF, runs=rules_runs, **kw):
    result = render_set(card_set, tmp_path, options, rules_runs=runs, **kw)
    (path,) = result.files
    return PdfReader(path), path, result


@pytest.fixture(scope="module")
def dotd_full():
    return load_set("day-of-the-dead")


def test_poker_on_letter_is_3x3_and_a4_too():
    for paper in ("letter", "a4"):
        plan = plan_sheet(paper, POKER)
        assert (plan.cols, plan.rows) == (3, 3)
    assert plan_sheet("letter", CARD_SIZES["tarot"]).per_page == 4
    assert plan_sheet("letter", CARD_SIZES["mini"]).per_page == 16


def test_full_set_pages_names_and_page_size(dotd_full, tmp_path):
    """108 cards: 12 pages of fronts, each followed by its backs; every card name is printed."""
    reader, path, result = pdf_of(dotd_full, tmp_path, PDF, runs=None)
    assert path.name == "day-of-the-dead-poker-letter.pdf"
    assert len(reader.pages) == result.pages == 24
    w, h = PAPERS["letter"]
    text = ""
    for i, page in enumerate(reader.pages):
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx((w, h))
        page_text = page.extract_text()
        assert f"page {i + 1} of 24" in page_text
        assert ("fronts" if i % 2 == 0 else "backs") in page_text
        text += page_text
    for ch in dotd_full.characters:
        assert ch.name in text, ch.name
    assert dotd_full.content_hash in text


def _clip_rects(page):
    """Card clip rectangles as drawn: 're W n' in the page content stream."""
    data = page.get_contents().get_data().decode("latin-1")
    nums = r"(-?\d+(?:\.\d+)?)"
    return [tuple(float(v) for v in m.groups())
            for m in re.finditer(rf"{nums} {nums} {nums} {nums} re W\*? n", data)]


def test_every_card_box_is_where_it_should_be(tmp_path):
    """Letter, butted poker cards: a 3x3 grid centred on the page, to a tenth of a millimetre."""
    cs = dotd_set()  # 12 cards: a full page of 9 and a page of 3
    reader, _, _ = pdf_of(cs, tmp_path)
    assert len(reader.pages) == 4
    w, h = PAPERS["letter"]
    left = (w - 3 * POKER.width) / 2
    top = h - (h - 3 * POKER.height) / 2
    expected = [(left + c * POKER.width, top - (r + 1) * POKER.height)
                for r in range(3) for c in range(3)]
    fronts = _clip_rects(reader.pages[0])
    assert len(fronts) == 9
    for (x, y, cw, ch), (ex, ey) in zip(fronts, expected, strict=True):
        assert abs(x - ex) < TENTH_MM and abs(y - ey) < TENTH_MM
        assert abs(cw - POKER.width) < TENTH_MM and abs(ch - POKER.height) < TENTH_MM
    assert len(_clip_rects(reader.pages[2])) == 3


def test_backs_mirror_fronts_for_long_and_short_edge(tmp_path):
    """Long edge here, from the content stream; a short-edge back is drawn turned 180 degrees
    (its clip is in turned coordinates), so tests/test_render_print.py checks it on the
    rasterised page, where it counts."""
    cs = dotd_set()
    for duplex in ("long",):
        reader, _, _ = pdf_of(cs, tmp_path / duplex, dataclasses.replace(PDF, duplex=duplex))
        w, h = PAPERS["letter"]
        for fp, bp in ((0, 1), (2, 3)):
            fronts, backs = _clip_rects(reader.pages[fp]), _clip_rects(reader.pages[bp])
            assert len(fronts) == len(backs)
            for (fx, fy, cw, ch), (bx, by, _, _) in zip(fronts, backs, strict=True):
                if duplex == "long":  # flipped about the vertical axis
                    assert abs(bx - (w - fx - cw)) < TENTH_MM and abs(by - fy) < TENTH_MM
                else:
                    assert abs(bx - fx) < TENTH_MM and abs(by - (h - fy - ch)) < TENTH_MM
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/Duplex"] == "/DuplexFlipLongEdge" and prefs["/PrintScaling"] == "/None"
    reader, _, _ = pdf_of(cs, tmp_path / "short", dataclasses.replace(PDF, duplex="short"))
    prefs = reader.trailer["/Root"]["/ViewerPreferences"]
    assert prefs["/Duplex"] == "/DuplexFlipShortEdge" and prefs["/PrintScaling"] == "/None"


def test_plan_backs_land_behind_their_fronts():
    """Pure geometry: each back's box is its front's box seen through the flipped sheet."""
    plan = plan_sheet("a4", POKER, gutter=mm(3))
    for slot in range(plan.per_page):
        fx, fy, cw, ch = card_box(plan, slot, "front")
        bx, by, _, _ = card_box(plan, slot, "back", "long")
        assert bx == pytest.approx(plan.page_w - fx - cw) and by == pytest.approx(fy)
        assert card_box(plan, slot, "back", "none")[:2] == (fx, fy)


def test_crop_marks_stay_outside_the_cut_with_a_gap():
    for bleed in (0.0, STANDARD_BLEED):
        plan = plan_sheet("letter", POKER, bleed=bleed)
        x0, y0 = plan.left, plan.bottom
        x1, y1 = x0 + plan.grid_w, y0 + plan.grid_h
        for mx0, my0, mx1, my1 in crop_marks(plan):
            for x, y in ((mx0, my0), (mx1, my1)):
                inside = x0 - bleed - mm(0.5) < x < x1 + bleed + mm(0.5) and \
                    y0 - bleed - mm(0.5) < y < y1 + bleed + mm(0.5)
                assert not inside
                assert 0 <= x <= plan.page_w and 0 <= y <= plan.page_h


def test_gutter_bleed_boxes_fronts_only_and_a4(tmp_path):
    # a borderless printer: with the default 4.23 mm printer margin three columns of bleed,
    # gutters and marks need 215.3 mm of A4's 210 (test_render_print checks that case)
    opts = RenderOptions(formats=("pdf",), paper="a4", gutter=mm(3), bleed=True, fronts_only=True,
                         printer_margin=0.0)
    reader, path, _ = pdf_of(feast_set(), tmp_path, opts)
    assert path.name == "grave-feast-poker-a4-bleed-fronts.pdf"
    # 9 cards (2 + 2 + 2 + 2 + 1 copies) on one page, no back pages
    assert len(reader.pages) == 1
    # and printed one-sided: a duplex print would put the next page of fronts on the back
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/Simplex"
    page = reader.pages[0]
    trim, bleed = page.trimbox, page.bleedbox
    plan = plan_sheet("a4", POKER, mm(3), STANDARD_BLEED, margin=0.0)
    assert (plan.cols, plan.rows) == (3, 3)
    assert float(trim.left) == pytest.approx(plan.left, abs=TENTH_MM)
    assert float(trim.width) == pytest.approx(plan.grid_w, abs=TENTH_MM)
    assert float(bleed.left) == pytest.approx(plan.left - STANDARD_BLEED, abs=TENTH_MM)
    assert float(bleed.height) == pytest.approx(plan.grid_h + 2 * STANDARD_BLEED, abs=TENTH_MM)
    rects = _clip_rects(page)
    # first card: bleed on the outer sides, half the gutter (1.5 mm) towards its neighbours
    x, y, w, h = rects[0]
    assert x == pytest.approx(plan.left - STANDARD_BLEED, abs=0.01)
    assert w == pytest.approx(POKER.width + STANDARD_BLEED + mm(1.5), abs=0.01)


def test_footer_metadata_and_watermark(tmp_path):
    note = "playtested: 2000 games, gates passed"
    reader, _, _ = pdf_of(feast_set(), tmp_path, watermark="NOT PLAYTESTED", footer_note=note)
    cs = feast_set()
    for page in reader.pages:
        text = page.extract_text()
        assert "Grave Feast" in text and cs.content_hash in text and note in text
        assert "NOT PLAYTESTED" in text
    meta = reader.metadata
    assert meta.title == "Grave Feast: print-and-play cards"
    assert cs.content_hash in meta.subject and note in meta.subject


def test_same_input_same_bytes_and_failed_run_keeps_old_file(tmp_path):
    cs = dotd_set()
    _, path, _ = pdf_of(cs, tmp_path)
    first = path.read_bytes()
    _, path2, _ = pdf_of(cs, tmp_path)
    assert path2.read_bytes() == first
    # a render that fails (the card no longer fits) leaves the good file alone, no temp files
    with pytest.raises(Exception, match="does not fit"):
        render_set(cs, tmp_path, PDF, rules_runs=lambda ch: [("word " * 500, "plain")])
    assert path.read_bytes() == first
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


def test_pdf_rasterises_with_cards_where_expected(tmp_path):
    from PIL import Image

    _, path, _ = pdf_of(dotd_set(), tmp_path)
    png = first_page(tmp_path, path, 72)
    im = Image.open(png).convert("RGB")
    assert im.size == (612, 792)
    # the corner of the page margin is blank paper; the first card's frame is dark ink
    assert im.getpixel((5, 400)) == (255, 255, 255)
    plan = plan_sheet("letter", POKER)
    r, g, b = im.getpixel((int(plan.left) + 2, int(792 - plan.bottom - plan.grid_h) + 100))
    assert r + g + b < 300


def test_pdf_and_png_paint_the_same_card(tmp_path):
    """Layout once, paint twice: the PDF rasterised at 300 dpi matches our own trimmed PNG."""
    from PIL import Image, ImageChops, ImageStat

    cs = dotd_set()
    render_set(cs, tmp_path, RenderOptions(formats=("pdf", "png"), profile="trimmed"),
               rules_runs=rules_runs)
    pdf = tmp_path / "day-of-the-dead-poker-letter.pdf"
    page_png = first_page(tmp_path, pdf, 300)
    plan = plan_sheet("letter", POKER)
    x, y, w, h = card_box(plan, 0)  # the first front: oaf@double
    k = 300 / 72
    left, top = round(x * k), round((plan.page_h - y - h) * k)
    with Image.open(page_png) as page, Image.open(tmp_path / "png-trimmed" / "oaf@double.png") \
            as ours:
        from_pdf = page.convert("RGB").crop((left, top, left + 750, top + 1050))
        diff = ImageStat.Stat(ImageChops.difference(from_pdf, ours.convert("RGB")))
        # anti-aliasing differs at edges; the same text on the same lines differs very little
        assert max(diff.mean) < 6, diff.mean
        # and a different card does not pass as the same
        with Image.open(tmp_path / "png-trimmed" / "anger@double.png") as other:
            other_diff = ImageStat.Stat(ImageChops.difference(from_pdf, other.convert("RGB")))
            assert max(other_diff.mean) > max(diff.mean) + 2


def test_same_bytes_across_processes(tmp_path):
    """Caches and diffs rely on it: no timestamps, no hash-seed-dependent names or ordering."""
    import os
    import sys

    code = ("import sys\nfrom boneyard.pipeline.load import load_set\n"
            "from boneyard.pipeline.render import render_set, RenderOptions\n"
            "render_set(load_set('grave-feast'), sys.argv[1], "
            "RenderOptions(formats=('pdf',), fronts_only=True))\n")
    outs = []
    for seed in ("1", "2"):
        out = tmp_path / seed
        env = {**os.environ, "PYTHONHASHSEED": seed}
        subprocess.run([sys.executable, "-c", code, str(out)], check=True, env=env, timeout=120)
        outs.append((out / "grave-feast-poker-letter-fronts.pdf").read_bytes())
    assert outs[0] == outs[1]


def _art_set(tmp_path):
    """Two characters with art: a half-transparent PNG and a JPEG a camera stored sideways."""
    from boneyard.engine.dotd.cards import Character
    from PIL import Image

    art = tmp_path / "set" / "art"
    art.mkdir(parents=True)
    # 480 x 300 px in the 160 x 100 pt art box: 216 ppi, printable (preflight warns under 300)
    cut_out = Image.new("RGBA", (480, 300), (0, 0, 0, 0))  # invisible black ...
    cut_out.paste((20, 160, 20, 255), (0, 0, 240, 300))  # ... with an opaque green left half
    cut_out.save(art / "cutout.png")
    # stored 300 wide x 480 high, red on top; EXIF 6 = "turn 90 degrees clockwise to view":
    # upright it is 480 x 300 with the red half on the right
    stored = Image.new("RGB", (300, 480), (20, 20, 200))
    stored.paste((200, 20, 20), (0, 0, 300, 240))
    exif = Image.Exif()
    exif[0x0112] = 6
    stored.save(art / "sideways.jpg", exif=exif, quality=95)
    chars = (Character("cutout", "Cutout", 2, art="art/cutout.png"),
             Character("sideways", "Sideways", 3, art="art/sideways.jpg"))
    return dotd_set(chars, root=str(tmp_path / "set"))


def test_art_alpha_and_camera_orientation_are_honoured_in_png_and_pdf(tmp_path):
    """Transparent parts of the art show the card beneath (not the hidden black), and a photo
    stored sideways prints upright, in the PNG and the PDF alike."""
    from PIL import Image

    cs = _art_set(tmp_path)
    out = tmp_path / "out"
    render_set(cs, out, RenderOptions(formats=("pdf", "png"), profile="trimmed"),
               rules_runs=lambda ch: [])
    k = 300 / 72  # trimmed PNG: the card's points at 300 dpi; the art box is x 10..170, y 46..146
    with Image.open(out / "png-trimmed" / "cutout@double.png") as im:
        left, right = im.getpixel((int(50 * k), int(96 * k))), im.getpixel((int(130 * k), int(96 * k)))
    assert left[1] > 120 and left[0] < 60  # the opaque green half
    assert min(right) > 200  # the parchment shows through, not black
    with Image.open(out / "png-trimmed" / "sideways@double.png") as im:
        left, right = im.getpixel((int(50 * k), int(96 * k))), im.getpixel((int(130 * k), int(96 * k)))
    assert left[2] > 150 and right[0] > 150  # blue on the left, red on the right: upright

    reader = PdfReader(out / "day-of-the-dead-poker-letter.pdf")
    images = {}
    for name, ref in reader.pages[0]["/Resources"]["/XObject"].items():
        obj = ref.get_object()
        if obj.get("/Subtype") == "/Image":
            images[name] = obj
    shapes = sorted((int(o["/Width"]), int(o["/Height"]), "/SMask" in o) for o in images.values()
                    if int(o["/Width"]) != 1)
    # the cut-out keeps a soft mask; the photo is embedded upright (480 wide, 300 high)
    assert (480, 300, True) in shapes and (480, 300, False) in shapes


def test_pdf_shows_the_transparent_and_turned_art_like_the_png(tmp_path):
    from PIL import Image

    cs = _art_set(tmp_path)
    render_set(cs, tmp_path / "out", RenderOptions(formats=("pdf",)), rules_runs=lambda ch: [])
    pdf = tmp_path / "out" / "day-of-the-dead-poker-letter.pdf"
    png = first_page(tmp_path, pdf, 72)
    plan = plan_sheet("letter", POKER)
    with Image.open(png) as page:
        page = page.convert("RGB")
        for slot, (lx, rx) in ((0, ("green", "paper")), (1, ("blue", "red"))):
            x, y, w, h = card_box(plan, slot)
            top = plan.page_h - y - h
            left = page.getpixel((int(x + 50), int(top + 96)))
            right = page.getpixel((int(x + 130), int(top + 96)))
            colours = {"green": lambda c: c[1] > 120 and c[0] < 60,
                       "paper": lambda c: min(c) > 200,
                       "blue": lambda c: c[2] > 150 and c[0] < 100,
                       "red": lambda c: c[0] > 150 and c[2] < 100}
            assert colours[lx](left) and colours[rx](right), (slot, left, right)


def test_every_font_in_the_pdf_is_embedded(tmp_path):
    """Print shops' preflight rejects a PDF that names a font it does not carry (reportlab's
    default Helvetica was referenced on every page, unembedded)."""
    reader, _, _ = pdf_of(feast_set(), tmp_path)
    names = set()
    for page in reader.pages[:2]:
        for _, ref in page["/Resources"]["/Font"].items():
            font = ref.get_object()
            names.add(str(font["/BaseFont"]))
            descriptor = font.get("/FontDescriptor")
            assert descriptor is not None, font["/BaseFont"]
            assert any(k in descriptor.get_object() for k in ("/FontFile", "/FontFile2", "/FontFile3"))
    assert names and not any("Helvetica" in n for n in names)
