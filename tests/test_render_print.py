"""Print-ready (issue 14): printable margins, duplex orientation, gutter fold, calibration,
print-shop PDFs, Tabletop Simulator saved object, PNG smoothing.

Positions are measured on pages rasterised by PDFium (pypdfium2), an independent renderer, and
checked numerically against the geometry the renderer promises.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
from pathlib import Path
from urllib.parse import unquote, urlparse

import pypdfium2
import pytest
from boneyard.engine.games import spec_of
from boneyard.pipeline.render.api import RenderOptions, prepare, render_set
from boneyard.pipeline.render.colour import CMYK_PROFILE_PATHS
from boneyard.pipeline.render.images import face_image
from boneyard.pipeline.render.sheets import (
    DEFAULT_PRINTER_MARGIN,
    back_shift,
    calibration_targets,
    card_box,
    crop_marks,
    plan_sheet,
)
from boneyard.pipeline.render.units import CARD_SIZES, PAPERS, PT_PER_MM, STANDARD_BLEED, mm
from PIL import Image, ImageChops, ImageStat
from pypdf import PdfReader
from render_support import dotd_set, feast_set, rules_runs

from boneyard.errors import RenderError

POKER = CARD_SIZES["poker"]
HAVE_CMYK = any(p.is_file() for p in CMYK_PROFILE_PATHS)


def raster(pdf: Path, page: int, dpi: float) -> Image.Image:
    doc = pypdfium2.PdfDocument(str(pdf))
    try:
        return doc[page].render(scale=dpi / 72).to_pil().convert("RGB")
    finally:
        doc.close()


def render(card_set, out, **options):
    result = render_set(card_set, out, RenderOptions(**options), rules_runs=rules_runs)
    return result.files


def ink_distance_from_edges(im: Image.Image, dpi: float) -> float:
    """The smallest distance (points) from any paper edge to a pixel with ink on it."""
    grey = im.convert("L").point(lambda v: 255 if v < 250 else 0)
    box = grey.getbbox()
    assert box, "a blank page"
    x0, y0, x1, y1 = box
    k = 72 / dpi
    return min(x0 * k, y0 * k, (im.width - x1) * k, (im.height - y1) * k)


# --- 1. printable margins ---------------------------------------------------------------------


@pytest.mark.parametrize(("paper", "bleed", "gutter"), [("letter", False, 0.0),
                                                        ("letter", True, 0.0),
                                                        ("a4", True, mm(3))])
def test_marks_and_footer_stay_inside_the_printer_margin(tmp_path, paper, bleed, gutter):
    """Issue 14 measured marks at 0.00-5.33 mm and the footer at 2.12-4.06 mm from the paper
    edge; now nothing is nearer than the 4.23 mm printer margin, fronts and backs alike."""
    (pdf,) = render(feast_set(), tmp_path, formats=("pdf",), paper=paper, bleed=bleed,
                    gutter=gutter)
    plan = plan_sheet(paper, POKER, gutter, STANDARD_BLEED if bleed else 0.0)
    for page in (0, 1):
        im = raster(pdf, page, 150)
        assert ink_distance_from_edges(im, 150) >= DEFAULT_PRINTER_MARGIN - 72 / 150
    # and the marks are there, on the backs too, a gap outside the cut or its bleed
    marks = crop_marks(plan)
    assert marks
    for x0, y0, x1, y1 in marks:
        for x, y in ((x0, y0), (x1, y1)):
            assert DEFAULT_PRINTER_MARGIN - 1e-6 <= x <= plan.page_w - DEFAULT_PRINTER_MARGIN + 1e-6
            assert DEFAULT_PRINTER_MARGIN - 1e-6 <= y <= plan.page_h - DEFAULT_PRINTER_MARGIN + 1e-6
        assert abs(x1 - x0) + abs(y1 - y0) >= mm(1.5) - 1e-6
    back = raster(pdf, 1, 72)
    x, _, _, _ = marks[0]  # a vertical mark under the grid, on the back page too
    column = [back.getpixel((round(x), round(plan.page_h - plan.bottom + plan.bleed + mm(1.5))))]
    assert min(column[0]) < 128


def test_rows_and_columns_leave_room_for_the_marks():
    assert (plan_sheet("letter", POKER).cols, plan_sheet("letter", POKER).rows) == (3, 3)
    # bleed + marks + margin no longer fit three rows on letter, or three columns with gutters
    assert plan_sheet("letter", POKER, bleed=STANDARD_BLEED).per_page == 6
    assert (plan_sheet("a4", POKER, mm(3), STANDARD_BLEED).cols,
            plan_sheet("a4", POKER, mm(3), STANDARD_BLEED).rows) == (2, 3)
    # a borderless printer gets the old density back
    assert plan_sheet("letter", POKER, bleed=STANDARD_BLEED, margin=0).per_page == 9
    assert plan_sheet("a3", POKER).per_page == 16 and plan_sheet("tabloid", POKER).per_page == 16
    assert plan_sheet("a4", CARD_SIZES["mini-euro"]).per_page == 16
    assert plan_sheet("letter", CARD_SIZES["square"]).per_page == 6


def test_a_card_that_cannot_fit_with_its_marks_is_a_clear_error():
    with pytest.raises(RenderError) as err:
        plan_sheet("letter", CARD_SIZES["tarot"], margin=mm(80))
    message = str(err.value)
    assert message.startswith("a tarot (69.85 x 120.65 mm) card does not fit on letter paper")
    assert "80.0 mm printer margin" in message and "--printer-margin" in message


# --- 2. duplex: each back behind its front, upright -------------------------------------------


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_each_back_lies_behind_its_front_upright(tmp_path, duplex):
    """Grave Feast's back is asymmetric (tombstone above, fangs below). Turn the printed sheet
    over side to side, as a player turns a card: each back must be behind its front and upright.
    Long-edge printing shows the back page that way; short-edge printing shows it turned 180."""
    cs = feast_set()
    (pdf,) = render(cs, tmp_path, formats=("pdf",), duplex=duplex)
    dpi = 72
    view = raster(pdf, 1, dpi)
    if duplex == "short":
        view = view.rotate(180)
    prep = prepare(cs, RenderOptions(formats=("pdf",)), rules_runs)
    back = prep.deck.cards[0].back
    reference = face_image(prep.layouts[back.id], POKER, round(POKER.width), round(POKER.height))
    plan = plan_sheet("letter", POKER)
    for slot in range(len(cs.feast_cards) * 2 + 1):  # 9 cards on one sheet
        x, y, w, h = card_box(plan, slot)  # the front, in PDF points
        left, top = round(plan.page_w - x - w), round(plan.page_h - y - h)  # behind it
        seen = view.crop((left, top, left + round(w), top + round(h)))
        here = max(ImageStat.Stat(ImageChops.difference(seen, reference)).mean)
        upside_down = max(ImageStat.Stat(ImageChops.difference(
            seen, reference.rotate(180))).mean)
        shifted = view.crop((left + 9, top, left + 9 + round(w), top + round(h)))
        moved = max(ImageStat.Stat(ImageChops.difference(shifted, reference)).mean)
        assert here < 8, (slot, here)
        assert upside_down > here + 10 and moved > here + 5, (slot, here, upside_down, moved)


def test_back_offset_moves_the_backs_against_the_printers_shift(tmp_path):
    """A printer that puts the back 1 mm right and 0.5 mm up (seen from the front) gets backs
    moved 1 mm left and 0.5 mm down, seen from the front."""
    assert back_shift("long", (mm(1), mm(0.5))) == pytest.approx((mm(1), -mm(0.5)))
    assert back_shift("short", (mm(1), mm(0.5))) == pytest.approx((-mm(1), mm(0.5)))
    cs = feast_set()
    (plain,) = render(cs, tmp_path / "a", formats=("pdf",))
    (moved,) = render(cs, tmp_path / "b", formats=("pdf",), back_offset=(mm(2), 0.0))
    a, b = raster(plain, 1, 72), raster(moved, 1, 72)
    row = round(a.height / 2)

    def first_dark(im):
        return next(x for x in range(im.width) if sum(im.getpixel((x, row))) < 200)

    # on the back page 2 mm to the right: seen from the front, 2 mm to the left
    assert first_dark(b) - first_dark(a) == pytest.approx(mm(2), abs=1.01)
    assert raster(plain, 0, 72).tobytes() == raster(moved, 0, 72).tobytes()  # fronts unmoved


@pytest.mark.parametrize("duplex", ["long", "short"])
def test_calibration_page_lines_sit_behind_the_scales(tmp_path, duplex):
    (pdf,) = render(feast_set(), tmp_path, formats=("calibration",), duplex=duplex,
                    back_offset=(mm(2), mm(1)))
    assert pdf.name == f"calibration-letter-{duplex}.pdf"
    assert len(PdfReader(pdf).pages) == 2
    dpi = 144
    back = raster(pdf, 1, dpi).convert("L")
    k = dpi / 72
    w, h = PAPERS["letter"]
    sx, sy = back_shift(duplex, (mm(2), mm(1)))
    for tx, ty in calibration_targets("letter"):
        bx, by = (w - tx, ty) if duplex == "long" else (tx, h - ty)  # behind the target
        bx, by = bx + sx, by + sy
        # the vertical line: darkest column near bx, on a row 8 mm from the target
        row = round((h - by + mm(8)) * k)
        cols = range(round((bx - mm(4)) * k), round((bx + mm(4)) * k))
        found = min(cols, key=lambda c: back.getpixel((c, row))) / k
        assert found == pytest.approx(bx, abs=1.0), (tx, ty)
        # seen from the front (long edge: mirrored) the line sits 2 mm left of the target,
        # undoing the printer's 2 mm to the right
        front_x = w - found if duplex == "long" else found
        assert front_x == pytest.approx(tx - mm(2), abs=1.0)
    front = raster(pdf, 0, 72)
    assert ink_distance_from_edges(front, 72) >= DEFAULT_PRINTER_MARGIN - 1
    with pytest.raises(RenderError, match="two-sided"):
        render(feast_set(), tmp_path / "x", formats=("calibration",), duplex="none")


# --- 6. gutter fold ---------------------------------------------------------------------------


def test_gutter_fold_puts_each_back_beside_its_front_across_the_fold(tmp_path):
    cs = feast_set()
    (pdf,) = render(cs, tmp_path, formats=("pdf",), fold=True)
    assert pdf.name == "grave-feast-poker-letter-fold.pdf"
    reader = PdfReader(pdf)
    plan = plan_sheet("letter", POKER, fold=True)
    # landscape letter holds 2 x 2 fronts and their backs; 9 cards make 3 one-sided pages
    assert (plan.page_w, plan.page_h, plan.cols, plan.rows) == pytest.approx(
        (PAPERS["letter"][1], PAPERS["letter"][0], 2, 2))
    assert len(reader.pages) == 3
    assert reader.trailer["/Root"]["/ViewerPreferences"]["/Duplex"] == "/Simplex"
    im = raster(pdf, 0, 72)
    prep = prepare(cs, RenderOptions(formats=()), rules_runs)
    reference = face_image(prep.layouts["back"], POKER, round(POKER.width), round(POKER.height))
    for slot in range(4):
        fx, fy, w, h = card_box(plan, slot)
        bx, by, _, _ = card_box(plan, slot, "back")
        assert bx == pytest.approx(plan.page_w - fx - w) and by == pytest.approx(fy)
        assert fx + w <= plan.page_w / 2 - mm(3) + 1e-6 <= bx - mm(6) + 1e-6
        left, top = round(bx), round(plan.page_h - by - h)
        seen = im.crop((left, top, left + round(w), top + round(h)))
        assert max(ImageStat.Stat(ImageChops.difference(seen, reference)).mean) < 8
    # the dashed fold line down the middle, grey, inside the printer margin
    x = round(plan.page_w / 2)
    column = [im.getpixel((x, y)) for y in range(im.height)]
    grey = [y for y, c in enumerate(column) if 60 < c[0] < 200 and abs(c[0] - c[2]) < 10]
    assert grey and min(grey) >= DEFAULT_PRINTER_MARGIN - 1
    assert ink_distance_from_edges(im, 72) >= DEFAULT_PRINTER_MARGIN - 1
    with pytest.raises(RenderError, match="--fronts-only"):
        render(cs, tmp_path, formats=("pdf",), fold=True, fronts_only=True)


# --- 5. print shop ----------------------------------------------------------------------------


def pdf_version_needed(reader: PdfReader, raw: bytes) -> tuple[int, int]:
    """The lowest PDF version whose features the file uses (ISO 32000 feature history)."""
    need = (1, 3)  # TrimBox, BleedBox
    prefs = reader.trailer["/Root"].get("/ViewerPreferences") or {}
    if "/Duplex" in prefs:
        need = max(need, (1, 7))
    if "/PrintScaling" in prefs:
        need = max(need, (1, 6))
    if "/OutputIntents" in reader.trailer["/Root"] or re.search(rb"/(ca|CA|SMask) ", raw):
        need = max(need, (1, 4))
    return need


def header_version(raw: bytes) -> tuple[int, int]:
    m = re.match(rb"%PDF-(\d)\.(\d)", raw)
    assert m
    return int(m.group(1)), int(m.group(2))


def test_every_pdf_header_matches_its_features(tmp_path):
    for options in ({"formats": ("pdf",)}, {"formats": ("shop",)},
                    {"formats": ("calibration",)}):
        for path in render(feast_set(), tmp_path / options["formats"][0], **options):
            raw = path.read_bytes()
            assert header_version(raw) == pdf_version_needed(PdfReader(path), raw), path.name


def test_shop_pdf_is_one_card_a_page_with_bleed_and_an_output_intent(tmp_path):
    cs = feast_set()
    (pdf,) = render(cs, tmp_path, formats=("shop",))
    assert pdf.name == "grave-feast-poker-1up.pdf"
    reader = PdfReader(pdf)
    assert len(reader.pages) == 2 * 9  # front then back of each physical card
    b = STANDARD_BLEED
    for page in reader.pages[:2]:
        assert (float(page.mediabox.width), float(page.mediabox.height)) == pytest.approx(
            (POKER.width + 2 * b, POKER.height + 2 * b))
        trim = page.trimbox
        assert (float(trim.left), float(trim.bottom), float(trim.width), float(trim.height)) == \
            pytest.approx((b, b, POKER.width, POKER.height))
    (intent,) = reader.trailer["/Root"]["/OutputIntents"]
    intent = intent.get_object()
    assert intent["/S"] == "/GTS_PDFX"
    assert int(intent["/DestOutputProfile"].get_object()["/N"]) == 3
    # rasterised at 300 dpi, a page is the print shop's 825 x 1125 px card image
    render(cs, tmp_path, formats=("png",), profile="tgc")
    page = raster(pdf, 0, 300)
    assert page.size[0] in (825, 826) and page.size[1] in (1125, 1126)  # PDFium rounds up
    page = page.crop((0, 0, 825, 1125))
    with Image.open(tmp_path / "png-tgc" / "blood-3.png") as ours:
        diff = ImageStat.Stat(ImageChops.difference(page, ours.convert("RGB")))
    assert max(diff.mean) < 6, diff.mean
    _external_checks(pdf)


def test_two_shop_renders_a_second_apart_are_the_same_bytes(tmp_path):
    """The sRGB profile LittleCMS makes carries the second it was made: two renders of one
    set, minutes apart, made different files for the print shop."""
    import time

    cs = feast_set()
    (first,) = render(cs, tmp_path / "a", formats=("shop",))
    time.sleep(1.1)
    (second,) = render(cs, tmp_path / "b", formats=("shop",))
    assert first.read_bytes() == second.read_bytes()


def _external_checks(pdf: Path) -> None:
    """qpdf's structure check and Ghostscript's full interpretation, where installed."""
    if shutil.which("qpdf"):
        done = subprocess.run(["qpdf", "--check", str(pdf)], capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "No syntax or stream encoding errors" in done.stdout
    if shutil.which("gs"):
        done = subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=nullpage",
                               "-dPDFSTOPONERROR", str(pdf)], capture_output=True, text=True,
                              timeout=120)
        assert done.returncode == 0 and "rror" not in done.stdout + done.stderr, \
            done.stdout + done.stderr


@pytest.mark.skipif(not HAVE_CMYK, reason="no CMYK ICC profile (Debian: libgs-common)")
def test_cmyk_shop_pdf_carries_its_profile_and_no_rgb(tmp_path):
    cs = dotd_set()
    files = render(cs, tmp_path, formats=("shop",), cmyk=True)
    (pdf,) = files
    assert pdf.name == "day-of-the-dead-poker-1up-cmyk.pdf"
    reader = PdfReader(pdf)
    (intent,) = reader.trailer["/Root"]["/OutputIntents"]
    profile = intent.get_object()["/DestOutputProfile"].get_object()
    assert int(profile["/N"]) == 4
    shipped = next(p for p in CMYK_PROFILE_PATHS if p.is_file()).read_bytes()
    assert profile.get_data() == shipped  # the very profile the colours were converted with
    for page in reader.pages[:4]:
        ops = page.get_contents().get_data().decode("latin-1")
        assert re.search(r" k\n", ops) and not re.search(r" (rg|RG)\n", ops)
    raw = pdf.read_bytes()
    assert header_version(raw) == (1, 4) == pdf_version_needed(reader, raw)
    _external_checks(pdf)


def test_cmyk_needs_the_shop_output_and_a_real_profile(tmp_path):
    with pytest.raises(RenderError, match="add shop to --format"):
        render(dotd_set(), tmp_path, formats=("pdf",), cmyk=True)
    not_icc = tmp_path / "x.icc"
    not_icc.write_bytes(b"not a profile")
    with pytest.raises(RenderError, match="not a readable ICC profile"):
        render(dotd_set(), tmp_path / "out", formats=("shop",), cmyk=True, icc=str(not_icc))
    assert not (tmp_path / "out").exists()


# --- 7. Tabletop Simulator --------------------------------------------------------------------


def test_tts_saved_object_is_a_deck_tts_can_load(tmp_path):
    cs = dotd_set()
    (folder,) = render(cs, tmp_path, formats=("tts",))
    saved = json.loads((folder / "day-of-the-dead.json").read_text())
    (deck,) = saved["ObjectStates"]
    assert deck["Name"] == "Deck" and deck["Nickname"] == "Day of the Dead"
    prep = prepare(cs, RenderOptions(formats=()), rules_runs)
    assert len(deck["DeckIDs"]) == len(prep.deck.cards) == len(deck["ContainedObjects"])
    index = json.loads((folder / "deck.json").read_text())["sheets"]
    assert len(deck["CustomDeck"]) == len(index)
    for n, sheet in deck["CustomDeck"].items():
        meta = index[int(n) - 1]
        assert (sheet["NumWidth"], sheet["NumHeight"]) == (meta["columns"], meta["rows"])
        assert sheet["BackIsHidden"] is True and sheet["UniqueBack"] is False
        for key in ("FaceURL", "BackURL"):
            url = urlparse(sheet[key])
            assert url.scheme == "file" and Path(unquote(url.path)).is_file()
    texts = spec_of(cs.rules).rules_text(cs)
    names = {ch.id: ch.name for ch in cs.characters}
    for card, card_id in zip(deck["ContainedObjects"], deck["DeckIDs"], strict=True):
        assert card["Name"] == "Card" and card["CardID"] == card_id
        character = card["GMNotes"].split("@")[0]
        assert card["Nickname"] == names[character]
        assert card["Description"] == texts[character]
        n, slot = divmod(card_id, 100)
        assert index[n - 1]["slots"][str(slot)] == card["GMNotes"]
    assert any(c["Description"] for c in deck["ContainedObjects"])
    assert (folder / "day-of-the-dead.png").is_file()  # the saved object's thumbnail


def test_tts_base_url_for_hosted_images(tmp_path):
    (folder,) = render(feast_set(), tmp_path, formats=("tts",),
                       tts_base_url="https://example.invalid/cards/")
    (deck,) = json.loads((folder / "grave-feast.json").read_text())["ObjectStates"]
    assert deck["CustomDeck"]["1"]["FaceURL"] == \
        "https://example.invalid/cards/deck-fronts-1.png"
    assert deck["CustomDeck"]["1"]["BackURL"] == "https://example.invalid/cards/back-deck.png"
    with pytest.raises(RenderError, match="http"):
        render(feast_set(), tmp_path / "x", formats=("tts",), tts_base_url="ftp:/nope")


# --- 8. PNG ----------------------------------------------------------------------------------


def test_pngs_are_srgb_and_their_curves_are_smooth(tmp_path):
    (folder,) = render(dotd_set(), tmp_path, formats=("png",), profile="trimmed")
    path = folder / "anger@double.png"
    data = path.read_bytes()
    assert data.index(b"sRGB") < data.index(b"IDAT")
    with Image.open(path) as im:
        im = im.convert("RGB")
    # along a row through the badge (an ellipse at x 10..44 pt, y 10..44 pt), the step from the
    # parchment to the marigold ring passes through colours in between: anti-aliased
    k = 300 / 72
    row = round(27 * k + 0.3)
    parchment, ring = (0xf6, 0xed, 0xd9), (0xe8, 0x89, 0x1c)
    xs = range(round(8 * k), round(11 * k))
    pixels = [im.getpixel((x, row)) for x in xs]
    between = [p for p in pixels
               if all(min(a, b) - 2 <= c <= max(a, b) + 2 for c, a, b in zip(p, parchment, ring,
                                                                             strict=True))
               and p not in (parchment, ring) and abs(p[1] - parchment[1]) > 8
               and abs(p[1] - ring[1]) > 8]
    assert between, pixels
    # and the art ring's curve: a blurred boundary on a diagonal of the badge too
    edge = [im.getpixel((round((27 - 17.9 * 0.7071) * k) + d, round((27 - 17.9 * 0.7071) * k) + d))
            for d in range(-3, 4)]
    assert len(set(edge)) >= 3, edge  # parchment, ring and at least one blend between


# --- CLI ---------------------------------------------------------------------------------------


@pytest.fixture
def run(capsys):
    from boneyard.pipeline.cli import main

    def invoke(*args):
        with pytest.raises(SystemExit) as done:
            main(list(args))
        cap = capsys.readouterr()
        return done.value.code, cap.out + cap.err

    return invoke


@pytest.mark.parametrize(("args", "words"), [
    (("--printer-margin", "lots"), "--printer-margin"),
    (("--printer-margin", "-2"), "cannot be negative"),
    (("--back-offset", "1"), "X,Y"),
    (("--back-offset", "40,0"), "misfeed"),
    (("--size", "10x10"), "20 to 300 mm"),
    (("--size", "huge"), "63x88mm"),
    (("--gutter-fold", "--fronts-only"), "--fronts-only"),
    (("--format", "pdf", "--cmyk"), "add shop"),
])
def test_bad_print_options_are_one_clear_message(run, tmp_path, args, words):
    code, out = run("render", "grave-feast", "--force", "--out", str(tmp_path), *args)
    assert code != 0 and words in out and "Traceback" not in out
    assert not (tmp_path / "grave-feast").exists() or not any(
        (tmp_path / "grave-feast").iterdir())


def test_custom_size_renders_from_the_cli(run, tmp_path):
    code, out = run("render", "grave-feast", "--force", "--out", str(tmp_path), "--format",
                    "pdf", "--size", "63x88mm", "--paper", "a4", "--fronts-only")
    assert code == 0, out
    pdf = tmp_path / "grave-feast" / "grave-feast-63x88mm-a4-fronts.pdf"
    trim = PdfReader(pdf).pages[0].trimbox
    plan = plan_sheet("a4", dataclasses.replace(POKER, width=63 * PT_PER_MM,
                                                height=88 * PT_PER_MM))
    assert float(trim.width) == pytest.approx(plan.grid_w, abs=0.01)


# --- 3, 4. text floor and preflight in validate -------------------------------------------------


def _art_characters(tmp_path):
    from boneyard.engine.dotd.cards import Character

    art = tmp_path / "set" / "art"
    art.mkdir(parents=True)
    Image.new("RGB", (40, 30), (200, 10, 10)).save(art / "low.png")  # 18 ppi
    Image.new("RGB", (480, 300), (10, 200, 10)).save(art / "mid.png")  # 216 ppi
    Image.new("CMYK", (700, 440), (0, 80, 200, 0)).save(art / "cmyk.jpg", quality=90)
    Image.new("I;16", (700, 440), 3000).save(art / "deep.png")
    chars = tuple(Character(n, n.title(), 1, art=f"art/{f}") for n, f in
                  (("low", "low.png"), ("mid", "mid.png"), ("press", "cmyk.jpg"),
                   ("deep", "deep.png")))
    return dotd_set(chars, root=str(tmp_path / "set"))


def test_preflight_art_resolution_and_colour_mode(tmp_path):
    from boneyard.pipeline.render.api import preflight_set

    errors, warnings = preflight_set(_art_characters(tmp_path))
    art_line = "cards/day-of-the-dead/template.yaml:23:9: "
    low = [e for e in errors if "'low.png'" in e]
    assert len(low) == 1 and low[0].startswith(art_line)
    assert "cards 'low@double', 'low@power_up', 'low@unearth': layout 'front' element 'art'" \
        in low[0]
    assert "(40 x 30 px) prints at 18 ppi in 56.4 x 35.3 mm, under 150 ppi" in low[0]
    assert any("'deep.png' has colour mode I;16" in e for e in errors)
    assert len(errors) == 2
    assert any("'mid.png' (480 x 300 px) prints at 216 ppi" in w and "under 300 ppi" in w
               for w in warnings)
    assert any("'cmyk.jpg' is stored in CMYK" in w for w in warnings)
    # and the render refuses the same set, writing nothing
    with pytest.raises(RenderError, match="under 150 ppi"):
        render_set(_art_characters(tmp_path / "again"), tmp_path / "out",
                   RenderOptions(formats=("pdf",)), rules_runs=rules_runs)
    assert not (tmp_path / "out").exists()


def _gf_copy(tmp_path, edit):
    target = tmp_path / "gf"
    shutil.copytree(Path(__file__).parent.parent / "cards" / "grave-feast", target)
    template = target / "template.yaml"
    template.write_text(edit(template.read_text()))
    return target


def test_validate_names_card_element_and_size_for_text_below_the_floor(run, tmp_path):
    folder = _gf_copy(tmp_path, lambda t: t.replace("size: poker\n", "size: poker\n"
                                                     "sizes: [poker, mini]\n", 1))
    code, out = run("validate", str(folder))
    assert code == 1 and "Traceback" not in out
    assert "card 'vampire': " in out and "element 'kind_line'" in out
    assert "at mini (44.45 x 63.5 mm)" in out and "minimum size 6 pt" in out


def test_validate_refuses_a_badge_in_the_cut_and_warns_on_soft_art(run, tmp_path):
    folder = _gf_copy(tmp_path, lambda t: t.replace(
        "{name: corner_food, type: emblem, emblem: \"{food}\", x: 17,",
        "{name: corner_food, type: emblem, emblem: \"{food}\", x: 4,"))
    code, out = run("validate", str(folder))
    assert code == 1
    assert re.search(r"template.yaml:\d+:\d+: cards '[a-z0-9-]+', .* layout 'front-human-(blood|brains)' "
                     r"element 'corner_food': reaches \d\.\d\d mm from the left edge, inside "
                     r"The Game Crafter's safe area of 3\.17 mm", out), out
    # a decoration may cross the line when it says so
    folder = _gf_copy(tmp_path / "b", lambda t: t.replace(
        "{name: corner_food, type: emblem, emblem: \"{food}\", x: 17,",
        "{name: corner_food, type: emblem, emblem: \"{food}\", safe: false, x: 4,"))
    code, out = run("validate", str(folder))
    assert code == 0, out


def test_preflight_thresholds_come_from_the_template(tmp_path):
    from boneyard.pipeline.render.api import preflight_set
    from boneyard.pipeline.render.template import load_template

    cs = _art_characters(tmp_path)
    bundled = (Path(__file__).parent.parent / "cards" / "day-of-the-dead" / "template.yaml")
    own = Path(cs.root) / "template.yaml"
    own.write_text(bundled.read_text().replace("bleed: 0.125in\n", "bleed: 0.125in\n"
                                               "preflight: {warn_ppi: 20, fail_ppi: 10}\n", 1))
    assert load_template(own).fail_ppi == 10
    errors, warnings = preflight_set(cs)
    assert not any("low.png" in e for e in errors)
    assert any("'low.png' (40 x 30 px) prints at 18 ppi" in w and "under 20 ppi" in w
               for w in warnings)


def test_cmyk_art_goes_into_the_rgb_pdf_as_rgb(tmp_path):
    """Issue 14 found a CMYK JPEG embedded as DeviceCMYK in an RGB file; it is converted."""
    from boneyard.engine.dotd.cards import Character

    art = tmp_path / "set" / "art"
    art.mkdir(parents=True)
    Image.new("CMYK", (700, 440), (0, 200, 200, 0)).save(art / "red.jpg", quality=90)
    cs = dotd_set((Character("red", "Red", 1, art="art/red.jpg"),), root=str(tmp_path / "set"))
    result = render_set(cs, tmp_path / "out", RenderOptions(formats=("pdf",)),
                        rules_runs=rules_runs)
    assert any("stored in CMYK" in w for w in result.warnings)
    reader = PdfReader(result.files[0])
    spaces = {str(ref.get_object()["/ColorSpace"])
              for ref in reader.pages[0]["/Resources"]["/XObject"].values()
              if ref.get_object().get("/Subtype") == "/Image"}
    assert spaces == {"/DeviceRGB"}
    page = raster(result.files[0], 0, 72)
    x, y, w, h = card_box(plan_sheet("letter", POKER), 0)
    r, g, b = page.getpixel((round(x + 90), round(plan_sheet("letter", POKER).page_h - y - h + 96)))
    assert r > 150 and g < 110 and b < 110  # red, as the CMYK numbers say


def test_tts_a_single_card_is_saved_as_a_card(tmp_path):
    from boneyard.engine.dotd.cards import Character

    cs = dotd_set((Character("oaf", "Oaf", 7, backs=("double",)),))
    (folder,) = render(cs, tmp_path, formats=("tts",))
    (card,) = json.loads((folder / "day-of-the-dead.json").read_text())["ObjectStates"]
    assert card["Name"] == "Card" and card["Nickname"] == "Oaf" and card["CardID"] == 100
    assert set(card["CustomDeck"]) == {"1"}
