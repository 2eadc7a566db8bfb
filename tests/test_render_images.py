"""Card images: sizes per print profile, determinism, watermark, Tabletop Simulator, proof."""

from __future__ import annotations

import hashlib
import json

import pytest
from boneyard.pipeline.render.api import RenderOptions, render_set
from boneyard.pipeline.render.units import CARD_SIZES, PROFILES, image_pixels
from PIL import Image
from render_support import dotd_set, feast_set, rules_runs


def render(card_set, out, **kw):
    fmt = kw.pop("formats", ("png",))
    return render_set(card_set, out, RenderOptions(formats=fmt, **kw), rules_runs=rules_runs)


def test_profile_pixel_sizes():
    poker = CARD_SIZES["poker"]
    assert image_pixels(poker, PROFILES["tgc"]) == (825, 1125)
    assert image_pixels(poker, PROFILES["mpc"]) == (822, 1122)
    assert image_pixels(poker, PROFILES["trimmed"]) == (750, 1050)


@pytest.mark.parametrize(("profile", "size"), [("tgc", (825, 1125)), ("mpc", (822, 1122)),
                                               ("trimmed", (750, 1050))])
def test_one_png_per_face_at_the_profile_size(tmp_path, profile, size):
    result = render(feast_set(), tmp_path, profile=profile)
    (folder,) = result.files
    assert folder.name == f"png-{profile}"
    files = sorted(p.name for p in folder.iterdir())
    # 5 unique fronts (copies are not repeated) and the common back
    assert files == ["back.png", "blood-3.png", "brains-4.png", "exorcist.png", "preacher.png",
                     "vampire.png"]
    for p in folder.iterdir():
        with Image.open(p) as im:
            assert im.size == size
            assert im.info["dpi"] == pytest.approx((300, 300), abs=0.01)


def test_bleed_is_background_and_trim_is_centred(tmp_path):
    (folder,) = render(dotd_set(), tmp_path, profile="tgc").files
    with Image.open(folder / "back-double.png") as im:
        # the black back reaches the very edge (bleed), so a slightly off cut shows no white
        assert im.getpixel((0, 0)) == (0x16, 0x16, 0x16)
        assert im.getpixel((824, 1124)) == (0x16, 0x16, 0x16)
    with Image.open(folder / "back-unearth.png") as im:
        assert im.getpixel((0, 0)) == (0xf2, 0xf0, 0xea)


def _digest(folder):
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def test_same_input_same_pngs_and_watermark_changes_them(tmp_path):
    a = _digest(render(feast_set(), tmp_path / "a").files[0])
    b = _digest(render(feast_set(), tmp_path / "b").files[0])
    assert a == b and len(a) == 6
    marked = render_set(feast_set(), tmp_path / "c", RenderOptions(formats=("png",)),
                        rules_runs=rules_runs, watermark="FAILED PLAYTEST")
    c = _digest(marked.files[0])
    assert set(c) == set(a) and all(c[k] != a[k] for k in a)  # every image is marked
    with Image.open(marked.files[0] / "vampire.png") as im:
        r, g, b = im.getpixel((412, 562))  # the card's centre lies under the red watermark
        assert r > g + 40 and r > b + 40


def test_tts_sheets_and_slot_index(tmp_path):
    result = render(dotd_set(), tmp_path, formats=("tts",))
    (folder,) = result.files
    index = json.loads((folder / "deck.json").read_text())
    assert index["content_hash"] == dotd_set().content_hash
    sheets = {s["back_type"]: s for s in index["sheets"]}
    assert set(sheets) == {"double", "power_up", "unearth"}
    s = sheets["double"]
    assert s["slots"] == {"0": "oaf@double", "1": "anger@double", "2": "gravedigger@double",
                          "3": "skeleton_butler@double"}
    assert (s["columns"], s["rows"]) == (5, 1) and s["hidden_slot"] == 4
    assert (s["face"], s["back"]) == ("double-fronts-1.png", "back-double.png")
    assert s["copies"] == {"oaf@double": 1, "anger@double": 1, "gravedigger@double": 1,
                           "skeleton_butler@double": 1}
    with Image.open(folder / s["face"]) as im:
        assert im.width == 5 * s["card_width"] <= 4096
        assert im.height == s["card_height"]
        # the hidden slot holds the back image
        with Image.open(folder / s["back"]) as back:
            hx = s["hidden_slot"] * s["card_width"]
            assert im.crop((hx, 0, hx + s["card_width"], s["card_height"])).tobytes() == \
                back.tobytes()


def test_tts_grave_feast_sheet_names_and_copies(tmp_path):
    """One common back: the sheet is not called 'back-...' (that is the back image), and the
    index says how many of each face make the deck."""
    result = render(feast_set(), tmp_path, formats=("tts",))
    (folder,) = result.files
    (sheet,) = json.loads((folder / "deck.json").read_text())["sheets"]
    assert (sheet["face"], sheet["back"]) == ("deck-fronts-1.png", "back-deck.png")
    assert sheet["copies"] == {"blood-3": 2, "brains-4": 2, "vampire": 2, "preacher": 2,
                               "exorcist": 1}
    assert sorted(p.name for p in folder.iterdir()) == ["back-deck.png", "deck-fronts-1.png",
                                                        "deck.json", "grave-feast.json",
                                                        "grave-feast.png"]


def test_tts_full_sheet_is_10_by_7_with_the_70th_slot_hidden(tmp_path):
    from boneyard.engine.dotd.cards import Character

    chars = tuple(Character(f"c{i:02d}", f"Card {i}", i % 10) for i in range(75))
    result = render_set(dotd_set(chars), tmp_path, RenderOptions(formats=("tts",)),
                        rules_runs=lambda ch: [])
    (folder,) = result.files
    index = json.loads((folder / "deck.json").read_text())
    double = [s for s in index["sheets"] if s["back_type"] == "double"]
    assert [len(s["slots"]) for s in double] == [69, 6]
    assert list(double[0]["slots"]) == [str(i) for i in range(69)]  # in slot order, as read
    first = double[0]
    assert (first["columns"], first["rows"], first["hidden_slot"]) == (10, 7, 69)
    with Image.open(folder / first["face"]) as im:
        assert im.width <= 4096 and im.size == (10 * first["card_width"],
                                                7 * first["card_height"])


def test_proof_sheet_shows_every_face(tmp_path):
    result = render(feast_set(), tmp_path, formats=("proof",))
    (proof,) = result.files
    with Image.open(proof) as im:
        # 6 faces in one row of 180 px cards with 10 px padding
        assert im.width == 10 + 6 * 190
        assert im.height > 250
