"""Layout: templates with inheritance, text fitting, overflow errors, golden transcripts."""

from __future__ import annotations

import dataclasses
import os
import re
from pathlib import Path

import pytest
from boneyard.engine.dotd.cards import Character, Step
from boneyard.engine.games import build_deck
from boneyard.engine.gf.cards import FeastCard
from boneyard.pipeline.load import load_set
from boneyard.pipeline.render import fonts
from boneyard.pipeline.render.api import RenderOptions, prepare, render_set
from boneyard.pipeline.render.backends import RecordingPainter
from boneyard.pipeline.render.layout import design_transform, layout_card, layout_elements
from boneyard.pipeline.render.ops import Polygon, Rect, Text
from boneyard.pipeline.render.template import load_template
from boneyard.pipeline.render.units import CARD_SIZES, card_size, parse_length
from render_support import CHARACTERS, dotd_set, feast_set, rules_runs

from boneyard.errors import RenderError
from boneyard.paths import CARDS

GOLDEN = Path(__file__).parent / "golden" / "render"
REGEN = os.environ.get("BONEYARD_REGEN_GOLDEN") == "1"
POKER = CARD_SIZES["poker"]


def write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "template.yaml"
    p.write_text(text)
    return p


def test_lengths_parse_once_to_points():
    assert parse_length("63.5mm") == pytest.approx(180.0)
    assert parse_length("2.5in") == 180.0
    assert parse_length("9pt") == 9.0
    assert parse_length(12) == 12.0
    with pytest.raises(RenderError, match="expected a length"):
        parse_length("five mm")


def test_card_sizes_are_the_print_shop_standards():
    assert (POKER.width, POKER.height) == pytest.approx((63.5 * 72 / 25.4, 88.9 * 72 / 25.4))
    assert set(CARD_SIZES) == {"poker", "bridge", "mini", "tarot", "standard", "euro",
                               "mini-euro", "square"}
    for name, (w, h) in {"standard": (63, 88), "euro": (59, 92), "mini-euro": (44, 68),
                         "square": (70, 70)}.items():
        assert (CARD_SIZES[name].width, CARD_SIZES[name].height) == pytest.approx(
            (w * 72 / 25.4, h * 72 / 25.4))


@pytest.mark.parametrize("name", ["day-of-the-dead", "grave-feast"])
def test_every_bundled_card_fits(name):
    """All 108 + 25 faces lay out: no text overflows at the template's sizes."""
    prep = prepare(load_set(name), RenderOptions())
    assert len(prep.layouts) == {"day-of-the-dead": 111, "grave-feast": 25}[name]
    for fid, ops in prep.layouts.items():
        texts = [op for op in ops if isinstance(op, Text)]
        assert texts, fid
        for t in texts:  # every run of text lies on the card (rotated runs are checked by x)
            assert -1 <= t.x <= POKER.width + 1 and 0 <= t.y <= POKER.height, (fid, t)


def test_extends_overrides_by_name_appends_and_removes(tmp_path):
    t = load_template(write(tmp_path, """
layouts:
  base:
    elements:
      - {name: bg, type: rect, box: bleed, fill: "#111111"}
      - {name: title, type: text, x: 10, y: 10, w: 160, h: 20, text: "{name}"}
      - {name: tag, type: text, x: 10, y: 40, w: 160, h: 20, text: "tag"}
  front:
    extends: base
    remove: [tag]
    elements:
      - {name: bg, fill: "#ff0000"}
      - {name: badge, type: ellipse, x: 0, y: 0, w: 10, h: 10, fill: "#00ff00"}
  back:
    extends: front
"""))
    names = [e["name"] for e in t.layouts["back"]]
    assert names == ["bg", "title", "badge"]
    bg = t.layouts["back"][0]
    assert bg["fill"] == "#ff0000" and bg["box"] == "bleed" and bg["type"] == "rect"
    assert t.layouts["base"][0]["fill"] == "#111111"


def test_broken_template_lists_every_problem_with_its_line(tmp_path):
    path = write(tmp_path, """layouts:
  front:
    extends: nowhere
    elements: []
  back:
    elements:
      - {name: bg, type: rect, box: bleed, fill: mauve}
      - {name: t, type: text, x: 1, y: 1, w: 5cm, h: 1, text: "x", font: comic-sans}
      - {name: e, type: emblem, box: trim, emblem: unicorn}
      - {name: z, type: blob}
""")
    with pytest.raises(RenderError) as err:
        load_template(path)
    msg = str(err.value)
    assert f"{path.name}:10:" in msg and "type must be one of: rect, ellipse, text, image, emblem; got 'blob'" in msg
    # the schema problem stops the check; fix it and the semantic problems show, all of them
    path.write_text(path.read_text().replace("      - {name: z, type: blob}\n", ""))
    with pytest.raises(RenderError) as err:
        load_template(path)
    msg = str(err.value)
    assert "extends unknown layout 'nowhere'" in msg and ":3:" in msg
    assert "unknown colour 'mauve'" in msg and ":7:" in msg
    assert "unknown font 'comic-sans'" in msg and ":8:" in msg
    assert "unknown emblem 'unicorn'" in msg and ":9:" in msg


def test_a_mistake_inherited_by_many_layouts_is_reported_once_where_it_is_written(tmp_path):
    path = write(tmp_path, """layouts:
  front:
    elements:
      - {name: bg, type: rect, box: bleed, fill: mauve}
  front-double: {extends: front}
  front-power_up: {extends: front}
  front-unearth: {extends: front}
  back:
    elements: []
""")
    with pytest.raises(RenderError) as err:
        load_template(path)
    assert str(err.value).splitlines() == [
        f"{path}:4:50: layout 'front' element 'bg': unknown colour 'mauve' (use #rrggbb or a "
        "name defined under 'colours:')"]


def _refused(path: Path) -> list[str]:
    """The lines of the RenderError that loading the template at ``path`` raises."""
    with pytest.raises(RenderError) as err:
        load_template(path)
    return str(err.value).splitlines()


def test_text_that_could_never_be_read_is_refused_when_the_template_loads(tmp_path):
    """A text box past the card's cut, or a min_size above the size: said at load time with the
    line, not discovered on paper."""
    path = write(tmp_path, """layouts:
  front:
    elements:
      - {name: name, type: text, x: 14cm, y: 10, w: 100, h: 20, text: "{name}"}
      - {name: rules, type: text, x: 10, y: 40, w: 160, h: 100, text: "{rules}", size: 8,
         min_size: 10}
      - {name: power, type: text, x: 0, y: 0, w: 100%, h: 10%, text: "{power}"}
  back:
    elements: []
""")
    lines = _refused(path)
    assert len(lines) == 2
    assert lines[0].startswith(f"{path}:4:") and "reaches past the card's cut" in lines[0]
    assert lines[1].startswith(f"{path}:6:") and "min_size 10 pt is above size 8 pt" in lines[1]


def test_a_min_size_too_big_where_it_is_written_is_said_there_once(tmp_path):
    """A layout that extends another and changes only the size keeps the min_size it inherits:
    one mistake, one message, at the line that writes min_size. A min_size fine in the parent
    but above the child's own smaller size is the child's problem, said at the child."""
    path = write(tmp_path, """layouts:
  front:
    elements:
      - {name: title, type: text, x: 10, y: 10, w: 100, h: 20, text: "{name}", size: 17,
         min_size: 90}
      - {name: rules, type: text, x: 10, y: 40, w: 100, h: 60, text: "{rules}", size: 9,
         min_size: 8}
  front-small:
    extends: front
    elements:
      - {name: title, size: 15}
      - {name: rules, size: 7}
  back:
    elements: []
""")
    lines = _refused(path)
    assert len(lines) == 2, lines
    assert lines[0].startswith(f"{path}:5:") and "min_size 90 pt is above size 17 pt" in lines[0]
    assert lines[1].startswith(f"{path}:12:") and "'front-small' element 'rules': min_size 8 pt " \
        "is above size 7 pt" in lines[1]


def test_an_image_or_shape_wholly_off_the_card_is_refused_but_art_to_the_edge_is_not(tmp_path):
    """x: 500 on a 180 pt card prints nothing, in silence; art running into the bleed is usual."""
    path = write(tmp_path, """layouts:
  front:
    elements:
      - {name: art, type: image, x: 500, y: 46, w: 160, h: 100, art: "{art}"}
      - {name: band, type: rect, x: -9, y: -9, w: 200, h: 30, fill: "#000000"}
      - {name: frame, type: rect, x: 10, y: -120, w: 160, h: 100, stroke: "#000000"}
  back:
    elements: []
""")
    lines = _refused(path)
    assert len(lines) == 2, lines
    assert lines[0].startswith(f"{path}:4:") and "the image (500, 46, 160 x 100 pt) lies wholly off" in lines[0]
    assert lines[1].startswith(f"{path}:6:") and "the rect" in lines[1] and "never printed" in lines[1]


def test_a_card_field_mistake_names_the_template_line(tmp_path):
    path = write(tmp_path, """layouts:
  front:
    elements:
      - {name: title, type: text, x: 10, y: 10, w: 160, h: 20, text: "{nmae}"}
  front-double: {extends: front}
  back:
    elements: []
""")
    with pytest.raises(RenderError) as err:
        prepare(dotd_set(), template=load_template(path), rules_runs=rules_runs)
    said = str(err.value).splitlines()
    assert len(said) == 1, said  # the template's mistake, once, not once a card
    assert said[0].startswith(f"{path}:4:70: layout 'front' element 'title': '{{nmae}}' names "
                              "the field {nmae}, which the cards it prints do not have (did you "
                              "mean {name}?"), said


def test_extends_loop_is_an_error(tmp_path):
    path = write(tmp_path, "layouts:\n  a: {extends: b}\n  b: {extends: a}\n  c: {extends: a}\n")
    with pytest.raises(RenderError) as err:
        load_template(path)
    assert str(err.value) == (f"{path}:2:16: layout 'a' extends itself through a -> b -> a "
                              "(remove one 'extends' from the loop)")  # once, not once a layout


@pytest.mark.parametrize("size, says", [
    ("-63x88mm", "size '-63x88mm' is not valid: write a size name or width x height such as "
                 "63x88mm or 2.5x3.5in"),
    ("pokr", "size must be one of: poker, bridge, mini, tarot, standard, euro, mini-euro, square; "
             "got 'pokr' (did you mean 'poker'?)"),
])
def test_a_card_size_written_out_wrong_says_how_sizes_are_written(tmp_path, size, says):
    """'-63x88mm' was answered with the list of size names only, as if no other form existed."""
    path = write(tmp_path, f"size: {size}\nlayouts:\n  front: {{elements: []}}\n")
    with pytest.raises(RenderError) as err:
        load_template(path)
    assert str(err.value) == f"{path}:1:7: {says}"


def test_a_renamed_parent_layout_is_named_in_the_message(tmp_path):
    path = write(tmp_path, "layouts:\n  frnt: {elements: []}\n  back: {extends: front}\n")
    with pytest.raises(RenderError) as err:
        load_template(path)
    assert str(err.value) == (f"{path}:3:19: layout 'back' extends unknown layout 'front' "
                              "(did you mean 'frnt'? layouts are: back, frnt)")


def _layout(card_set, face_id, template_path=None):
    template = load_template(template_path or CARDS / card_set.slug / "template.yaml")
    deck = build_deck(card_set, rules_runs)
    face = next(f for f in deck.faces if f.id == face_id)
    return layout_card(face, template, POKER)


def test_keywords_are_set_apart_in_bold():
    ops = _layout(dotd_set(), "gravedigger@unearth")
    dig = [op for op in ops if isinstance(op, Text) and op.text == "Dig"]
    rest = [op for op in ops if isinstance(op, Text) and op.text.startswith(". +2 power")]
    assert dig and dig[0].font == "sans-bold"
    assert rest and rest[0].font == "sans"
    # the plain run continues right where the keyword ends, on the same baseline
    assert rest[0].y == dig[0].y
    assert rest[0].x == pytest.approx(dig[0].x + fonts.width("Dig", "sans-bold", dig[0].size),
                                      abs=0.01)


def test_front_corners_carry_power_and_back_icon():
    ops = _layout(dotd_set(), "anger@power_up")
    power = [op for op in ops if isinstance(op, Text) and op.text == "3"]
    assert len(power) == 2  # top-left upright, bottom-right upside down
    top, bottom = sorted(power, key=lambda t: t.y)
    assert top.x < 45 and top.y < 45 and top.angle == 0
    assert bottom.x > 140 and bottom.y > 215 and bottom.angle == 180


def test_preacher_reads_evil_preacher_upside_down():
    ops = _layout(feast_set(), "preacher")
    texts = {op.text: op for op in ops if isinstance(op, Text)}
    assert texts["Preacher"].angle == 0 and texts["Preacher"].y < POKER.height / 2
    evil = texts["Evil Preacher"]
    assert evil.angle == 180 and evil.y > POKER.height / 2
    # turned around, it reads left to right from the top: its start point is on the right
    assert evil.x > POKER.width / 2


def test_text_shrinks_to_fit_before_failing(tmp_path):
    wordy = Character("wordy", "Wordy", 1, (Step("power", 1),))
    words = "Lorem ipsum dolor sit amet consectetur adipiscing elit. " * 5

    def runs(ch):
        return [(words, "plain")]

    cs = dotd_set((wordy,))
    deck = build_deck(cs, runs)
    template = load_template(CARDS / "day-of-the-dead" / "template.yaml")
    ops = layout_card(deck.fronts[0], template, POKER)
    sizes = {op.size for op in ops if isinstance(op, Text) and "ipsum" in op.text}
    assert sizes and max(sizes) < 9  # shrunk below the template's 9 pt, above 6 pt
    assert min(sizes) >= 6


def test_overflowing_text_names_the_card_and_the_overflow():
    long = Character("chatterbox", "Chatterbox", 1, (Step("power", 1),))
    cs = dotd_set((long,))
    deck = build_deck(cs, lambda ch: [("Blah blah blah. " * 60, "plain")])
    template = load_template(CARDS / "day-of-the-dead" / "template.yaml")
    with pytest.raises(RenderError) as err:
        layout_card(deck.fronts[0], template, POKER)
    msg = str(err.value)
    assert "card 'chatterbox@double'" in msg and "element 'rules'" in msg
    assert "minimum size 6 pt" in msg and "pt of height, the box has 66.0 pt" in msg


def test_overflow_from_prepare_lists_each_card_once_grouped():
    chars = tuple(Character(f"c{i}", f"C{i}", 1, (Step("power", 1),)) for i in range(3))
    with pytest.raises(RenderError) as err:
        prepare(dotd_set(chars), rules_runs=lambda ch: [("x " * 900, "plain")])
    msg = str(err.value)
    # one line for the one box that is too small, placed where it is written (the three back
    # layouts inherit it from 'front'), not one per card or per layout; the line leads
    assert len(msg.splitlines()) == 1
    assert re.match(r"\S+template\.yaml:\d+:\d+: layout 'front' element 'rules': text does "
                    r"not fit its box \(152 x 66 pt\) on any card that prints it, even at the "
                    r"minimum size 6 pt \(e\.g\. card 'c0@double': ", msg), msg


def test_missing_art_is_a_clear_error(tmp_path):
    art = Character("ghost", "Ghost", 2, art="art/ghost.png")
    cs = dotd_set((art,), root=str(tmp_path))
    out = tmp_path / "out"
    with pytest.raises(RenderError, match=r"card 'ghost@double': art file 'art/ghost.png' "
                                          r"not found"):
        render_set(cs, out, rules_runs=lambda ch: [])
    assert not out.exists()  # nothing written, not even the folder


def test_art_file_is_drawn_and_placeholder_only_without_it(tmp_path):
    from PIL import Image

    (tmp_path / "art").mkdir()
    # 700 x 440 px in a 160 x 100 pt box: 315 ppi, fine for print
    Image.new("RGB", (700, 440), (200, 10, 10)).save(tmp_path / "art" / "ghost.png")
    cs = dotd_set((Character("ghost", "Ghost", 2, art="art/ghost.png"), CHARACTERS[0]),
                  root=str(tmp_path))
    prep = prepare(cs, rules_runs=lambda ch: [])
    ghost = prep.layouts["ghost@double"]
    oaf = prep.layouts["oaf@double"]
    assert any(type(op).__name__ == "Image" for op in ghost)
    assert not any(isinstance(op, Text) and op.text == "PLACEHOLDER ART" for op in ghost)
    assert any(isinstance(op, Text) and op.text == "PLACEHOLDER ART" for op in oaf)


GOLDEN_CARDS = [
    ("dotd", "anger@double"),
    ("dotd", "gravedigger@unearth"),
    ("dotd", "back-power_up"),
    ("gf", "preacher"),
    ("gf", "blood-3"),
    ("gf", "exorcist"),
]


@pytest.mark.parametrize(("game", "face_id"), GOLDEN_CARDS)
def test_recorded_operations_match_golden(game, face_id):
    """The exact drawing operations of a few cards; regenerate with BONEYARD_REGEN_GOLDEN=1."""
    ops = _layout(dotd_set() if game == "dotd" else feast_set(), face_id)
    rec = RecordingPainter()
    rec.paint(ops)
    text = "\n".join(rec.lines) + "\n"
    path = GOLDEN / f"{face_id.replace('@', '--')}.txt"
    if REGEN or not path.exists():
        path.write_text(text)
        if not REGEN:
            pytest.fail(f"golden file {path.name} was missing; written, check it in")
    assert text == path.read_text(), f"layout of {face_id} changed; see {path}"


@pytest.mark.parametrize("size", ["mini", "bridge", "tarot", "square", "63x88mm"])
def test_other_sizes_scale_the_design_and_fill_the_card(size):
    card = card_size(size)
    template = load_template(CARDS / "day-of-the-dead" / "template.yaml")
    face = build_deck(dotd_set(), rules_runs).fronts[1]  # anger@double
    design = layout_elements(face, template, POKER)
    scaled = layout_elements(face, template, card)
    assert [el["name"] for el, _ in design] == [el["name"] for el, _ in scaled]
    # the background still covers the whole card and its bleed
    bg = scaled[0][1][0]
    assert (bg.x, bg.y) == pytest.approx((-9, -9))
    assert (bg.w, bg.h) == pytest.approx((card.width + 18, card.height + 18), abs=0.01)
    # everything else is scaled about the 1/8 inch inset, so margins stay margins
    k, dx, dy = design_transform(POKER, card)
    assert k == pytest.approx(min((card.width - 18) / (POKER.width - 18),
                                  (card.height - 18) / (POKER.height - 18)))
    texts = 0
    for (el, a_ops), (_, b_ops) in zip(design, scaled, strict=True):
        if el["type"] != "text":
            continue
        texts += 1
        words = [op.text for op in a_ops]
        if min(op.size for op in a_ops) * k >= template.min_size:
            assert [op.text for op in b_ops] == words  # line breaks and proportions kept
            for a, b in zip(a_ops, b_ops, strict=True):
                assert b.size == pytest.approx(a.size * k, abs=0.01)
                assert (b.x, b.y) == pytest.approx((dx + a.x * k, dy + a.y * k), abs=0.01)
        else:  # set again in its scaled box, from the floor: never smaller than min_size
            assert " ".join(op.text for op in b_ops).split() == " ".join(words).split()
            assert min(op.size for op in b_ops) >= template.min_size - 1e-6
        for b in b_ops:
            assert 9 - 0.01 <= b.x <= card.width - 9 and 9 <= b.y <= card.height - 9
    assert texts >= 4


def test_no_text_is_smaller_than_the_templates_min_size_at_any_size():
    """--size mini printed text at 4.55-6.3 pt with min_size 6: now 6 pt or more, everywhere
    (placeholder art's label is not the card's text)."""
    for game, cs in (("day-of-the-dead", dotd_set()), ("grave-feast", feast_set())):
        template = load_template(CARDS / game / "template.yaml")
        deck = build_deck(cs, rules_runs)
        for name in CARD_SIZES:
            for face in deck.faces:
                try:
                    laid = layout_elements(face, template, CARD_SIZES[name])
                except RenderError as exc:  # or it cannot be printed at this size, and says so
                    assert f"card '{face.id}': " in str(exc) and "element '" in str(exc)
                    assert f"at {name} (" in str(exc)
                    assert game == "grave-feast" and name in ("mini", "mini-euro"), str(exc)
                    continue
                sizes = [op.size for el, ops in laid if el["type"] == "text" for op in ops]
                assert min(sizes) >= template.min_size - 1e-6, (name, face.id, min(sizes))


def test_text_that_cannot_fit_at_the_floor_names_card_element_and_size():
    wordy = Character("wordy", "Wordy", 1, (Step("power", 1),))
    deck = build_deck(dotd_set((wordy,)), lambda ch: [("Lorem ipsum dolor sit amet " * 10,
                                                       "plain")])
    template = load_template(CARDS / "day-of-the-dead" / "template.yaml")
    layout_card(deck.fronts[0], template, POKER)  # fits at poker, shrunk
    with pytest.raises(RenderError) as err:
        layout_card(deck.fronts[0], template, CARD_SIZES["mini"])
    message = str(err.value)
    assert message.startswith("card 'wordy@double': ")
    assert "element 'rules'" in message and "minimum size 6 pt at mini (44.45 x 63.5 mm)" in message


def test_when_draws_elements_only_for_matching_faces():
    ops = {fid: _layout(dotd_set(), fid) for fid in ("oaf@double", "anger@double")}
    texts = {fid: [op.text for op in o if isinstance(op, Text)] for fid, o in ops.items()}
    assert "No effect." in texts["oaf@double"] and "No effect." not in texts["anger@double"]


def test_six_and_nine_are_marked_in_both_corners():
    butler = Character("nine", "Nine", 9)
    ops = _layout(dotd_set((butler, *CHARACTERS)), "nine@double")
    marks = [op for op in ops if type(op).__name__ == "Rect" and op.fill == "#ffffff"]
    assert len(marks) == 2
    anger = _layout(dotd_set(), "anger@double")
    assert not [op for op in anger if type(op).__name__ == "Rect" and op.fill == "#ffffff"]


def test_the_three_backs_have_distinct_emblems_and_colours():
    backs = {b: _layout(dotd_set(), f"back-{b}") for b in ("double", "power_up", "unearth")}
    shapes = {b: tuple(type(op).__name__ for op in o) for b, o in backs.items()}
    assert len(set(shapes.values())) == 3
    fills = {b: o[0].fill for b, o in backs.items()}
    assert fills == {"double": "#161616", "power_up": "#8c8c8c", "unearth": "#f2f0ea"}
    names = {b: [op.text for op in o if isinstance(op, Text)] for b, o in backs.items()}
    assert "Double" in names["double"] and "Power Up" in names["power_up"]
    assert "Unearth" in names["unearth"]


def test_unknown_field_names_the_card_and_the_element(tmp_path):
    path = write(tmp_path, """layouts:
  front:
    elements:
      - {name: title, type: text, x: 0, y: 0, w: 100, h: 20, text: "{nmae}"}
  back:
    elements: []
""")
    with pytest.raises(RenderError, match=r"card 'anger@double': .*element 'title': "
                                          r"'\{nmae\}' names the field \{nmae\}, which the cards "
                                          r"it prints do not have \(did you mean \{name\}\?"):
        _layout(dotd_set(), "anger@double", path)


def test_a_set_may_bring_its_own_font_file(tmp_path):
    import shutil

    shutil.copy(fonts.BUILTIN_FONTS["sans-bold"], tmp_path / "display.ttf")
    path = write(tmp_path, """fonts: {display: display.ttf}
layouts:
  front:
    elements:
      - {name: title, type: text, x: 0, y: 0, w: 170, h: 30, text: "{name}", font: display}
  back:
    elements: []
""")
    ops = _layout(dotd_set(), "anger@double", path)
    assert ops[0].font.startswith("display.")
    assert fonts.width("Anger", ops[0].font, 10) == fonts.width("Anger", "sans-bold", 10)
    # another set may call a different file "display" too
    other = tmp_path / "other"
    other.mkdir()
    shutil.copy(fonts.BUILTIN_FONTS["sans-italic"], other / "display.ttf")
    (other / "template.yaml").write_text(path.read_text())
    ops2 = _layout(dotd_set(), "anger@double", other / "template.yaml")
    assert ops2[0].font != ops[0].font
    assert fonts.width("Anger", ops2[0].font, 10) == fonts.width("Anger", "sans-italic", 10)
    outside = write(tmp_path, "fonts: {evil: ../../etc/passwd}\nlayouts: {front: {}}\n")
    with pytest.raises(RenderError, match="outside the set folder"):
        load_template(outside)


def test_template_images_stay_inside_the_set_folder(tmp_path):
    from PIL import Image

    Image.new("RGB", (8, 8), (0, 0, 255)).save(tmp_path / "logo.png")
    body = """layouts:
  front:
    elements:
      - {{name: logo, type: image, x: 0, y: 0, w: 20, h: 20, art: "{art}"}}
  back:
    elements: []
"""
    ops = _layout(dotd_set(), "anger@double", write(tmp_path, body.format(art="logo.png")))
    assert ops[0].path == str(tmp_path / "logo.png")
    with pytest.raises(RenderError, match="outside the set folder"):
        _layout(dotd_set(), "anger@double", write(tmp_path, body.format(art="../logo.png")))
    with pytest.raises(RenderError, match="image file 'nope.png' not found"):
        _layout(dotd_set(), "anger@double", write(tmp_path, body.format(art="nope.png")))


WRAP_TEMPLATE = """size: tarot
layouts:
  front:
    elements:
      - {name: rules, type: text, x: 10, y: 10, w: 120, h: 320, text: "{rules}", size: 9,
         min_size: 9, keyword_font: sans-bold}
  back:
    elements: []
"""


def test_wrapped_lines_keep_every_word_in_order_and_within_the_box(tmp_path):
    from hypothesis import example, given, settings
    from hypothesis import strategies as st

    template = load_template(write(tmp_path, WRAP_TEMPLATE))
    word = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCXYZ.,'+-0123456789", min_size=1,
                   max_size=14)
    runs = st.lists(st.tuples(st.lists(word, min_size=1, max_size=8).map(" ".join),
                              st.sampled_from(["plain", "keyword"])), min_size=1, max_size=5)

    @settings(max_examples=60, deadline=None, derandomize=True)
    @given(runs)
    # a bold word then a plain one: the space between is painted bold, so it is measured bold
    @example([("0 0 00000AACfinrvw", "keyword"), ("0 0", "plain")])
    def check(pieces):
        # pieces are separated by a space, as the rules generator does between sentences
        pieces = [(t + " ", s) for t, s in pieces]
        deck = build_deck(dotd_set(CHARACTERS[:1]), lambda ch: pieces)
        ops = [op for op in layout_card(deck.fronts[0], template, CARD_SIZES["tarot"])
               if isinstance(op, Text)]
        words = " ".join(t for t, _ in pieces).split()
        assert " ".join(op.text for op in ops).split() == words
        lines: dict[float, list[Text]] = {}
        for op in ops:
            lines.setdefault(op.y, []).append(op)
        for runs_on_line in lines.values():
            first, last = runs_on_line[0], runs_on_line[-1]
            right = last.x + fonts.width(last.text, last.font, last.size)
            assert first.x >= 10 - 1e-6 and right <= 130 + 1e-3
            for op in runs_on_line:  # keywords keep the keyword font, the rest the plain one
                assert op.font in ("sans", "sans-bold")

    check()


def test_grave_feast_faces_show_number_food_and_rare_frame():
    from boneyard.pipeline.render.ops import Ellipse, Polygon, Rect

    def fills(ops, kind):
        return {op.fill for op in ops if isinstance(op, kind)}

    blood = _layout(feast_set(), "blood-3")
    brains = _layout(feast_set(), "brains-4")
    # the number in two corners, the second upside down
    threes = [op for op in blood if isinstance(op, Text) and op.text == "3"]
    assert sorted(t.angle for t in threes) == [0, 180]
    assert "#b3121f" in fills(blood, Polygon)  # red syringe
    assert "#4c9a2a" in fills(brains, Ellipse)  # green brain
    assert "#4c9a2a" not in fills(blood, Ellipse) and "#b3121f" not in fills(brains, Polygon)
    gold = "#c9a227"
    exorcist = _layout(feast_set(), "exorcist")
    vampire = _layout(feast_set(), "vampire")
    assert any(isinstance(op, Rect) and op.stroke == gold for op in exorcist)
    assert not any(isinstance(op, Rect) and op.stroke == gold for op in vampire)


def test_shrinking_never_takes_a_scaled_paragraph_below_min_size(tmp_path):
    """Flavor text at 0.85 of a rules text shrunk to 7 pt would be 5.95 pt: held at min_size."""
    wordy = Character("wordy", "Wordy", 1, (Step("power", 1),), flavor="Short flavor.")
    words = "Lorem ipsum dolor sit amet consectetur adipiscing elit. " * 5
    cs = dotd_set((wordy,))
    deck = build_deck(cs, lambda ch: [(words, "plain")])
    template = load_template(CARDS / "day-of-the-dead" / "template.yaml")
    ops = layout_card(deck.fronts[0], template, POKER)
    body = {op.size for op in ops if isinstance(op, Text) and "ipsum" in op.text}
    flavor = {op.size for op in ops if isinstance(op, Text) and "flavor" in op.text}
    assert body and max(body) * 0.85 < 6  # shrunk far enough that 0.85 of it is under 6 pt
    assert flavor == {6.0}  # the 0.85 flavor paragraph stops at the template's min_size


def test_a_scale_chosen_at_full_size_is_kept(tmp_path):
    """min_size limits shrinking only: a paragraph drawn small on purpose stays as drawn, down
    to the template's min_size; below it is an error naming the card, the element and the size."""
    body = """
layouts:
  front:
    elements:
      - name: rules
        type: text
        x: 10
        y: 10
        w: 160
        h: 100
        size: 8
        min_size: 6
        paragraphs:
          - {text: "{name}"}
          - {text: "small print", scale: 0.5}
"""
    path = write(tmp_path, "size: poker\nmin_size: 4\n" + body)
    ops = _layout(dotd_set(), "anger@double", path)
    sizes = {op.text: op.size for op in ops if isinstance(op, Text)}
    assert sizes == {"Anger": 8.0, "small print": 4.0}
    path = write(tmp_path, "size: poker\n" + body)
    with pytest.raises(RenderError) as err:
        _layout(dotd_set(), "anger@double", path)
    assert f"card 'anger@double': {path}:6:9: layout 'front' element 'rules': text at 4 pt " \
        "is below the template's min_size 6 pt" in str(err.value)


def test_grave_feast_corners_show_the_food_by_shape_and_mark_six_and_nine():
    """A fanned hand tells blood from brains without colour: the food's emblem under each
    corner number (upside down at the bottom); 6 and 9 are underlined in both corners."""
    six = FeastCard("brains-6", "Brains 6", "human", food="brains", number=6)
    cs = dataclasses.replace(feast_set(), feast_cards=(*feast_set().feast_cards, six))
    blood, brains = _layout(cs, "blood-3"), _layout(cs, "brains-6")

    def corner_shapes(ops):
        top = [op for op in ops if isinstance(op, Polygon) and all(
            15 <= x <= 39 and 39 <= y <= 63 for x, y in op.points)]
        bottom = [op for op in ops if isinstance(op, Polygon) and all(
            141 <= x <= 165 and 189 <= y <= 213 for x, y in op.points)]
        return top, bottom

    for ops in (blood, brains):
        top, bottom = corner_shapes(ops)
        assert top and len(top) == len(bottom)
    # different foods, different shapes
    assert len(corner_shapes(blood)[0]) != len(corner_shapes(brains)[0]) or \
        [p.points for p in corner_shapes(blood)[0]] != [p.points for p in corner_shapes(brains)[0]]
    bars = [op for op in brains if isinstance(op, Rect) and op.h < 2 and op.w < 20]
    assert len(bars) == 2 and {round(b.y) < 126 for b in bars} == {True, False}
    assert not [op for op in blood if isinstance(op, Rect) and op.h < 2 and op.w < 20]


def test_a_character_the_font_cannot_draw_is_an_error_not_an_empty_box():
    """The built-in fonts cover Latin text and typographic quotes, not symbols or CJK: a name
    with them would print boxes, silently. The render refuses, naming card, character and font."""
    skull = Character("skull", "Caf\u00e9 \u2620", 2, (Step("power", 1),), flavor="\u201cOl\u00e9\u2026\u201d")
    with pytest.raises(RenderError) as err:
        prepare(dotd_set((skull,)), rules_runs=rules_runs)
    msg = str(err.value)
    assert len(msg.splitlines()) == 1, msg  # once for the card, not once for each of its faces
    assert "card 'skull': name 'Caf\u00e9 \u2620': the font 'sans-bold' has no glyph for " \
           "'\u2620' (U+2620)" in msg
    assert "use it for layout 'front' element 'name' at " in msg
    assert "\u00e9" not in msg.split("glyph for")[1].split(" in ")[0]  # accents and quotes are fine


def test_an_absurd_font_size_is_refused_at_once_not_shrunk_for_hours(tmp_path):
    """size: 100000 used to shrink a quarter point at a time (billions of steps): now the template
    check names it, and fitting starts at the tallest size the box can hold."""
    path = write(tmp_path, """layouts:
  front:
    elements:
      - {name: title, type: text, x: 10, y: 10, w: 160, h: 20, text: "{name}", size: 100000}
  back:
    elements: []
""")
    with pytest.raises(RenderError, match=r":4:\d+: layout 'front' element 'title': size 100000 pt "
                                          r"is not a printable font size \(between 2 and 144 pt\)"):
        load_template(path)
    path.write_text(path.read_text().replace("size: 100000", "size: 144, min_size: 4"))
    ops = _layout(dotd_set(), "anger@double", path)
    (title,) = [op for op in ops if isinstance(op, Text)]
    assert 4 <= title.size <= 20 / 1.2  # the 20 pt box holds one line of at most 16.7 pt


def test_a_when_naming_a_field_no_card_has_is_an_error_not_an_element_never_drawn(tmp_path):
    """A misspelt ``when:`` key matched no face, so the element silently vanished from every
    card; now it is one message at the misspelt key, whichever layouts inherit it."""
    path = write(tmp_path, """layouts:
  front:
    elements:
      - {name: mark, type: rect, when: {powr: [6, 9]}, x: 0, y: 0, w: 10, h: 10, fill: "#000000"}
      - name: rules
        type: text
        x: 10
        y: 40
        w: 160
        h: 100
        paragraphs:
          - {text: "{name}"}
          - {text: "No effect.", when: {vanila: "yes"}}
  front-double: {extends: front}
  back:
    elements: []
""")
    with pytest.raises(RenderError) as err:
        prepare(dotd_set(), template=load_template(path), rules_runs=rules_runs)
    lines = str(err.value).splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith(f"{path}:4:41: layout 'front' element 'mark': when: names the "
                               "field 'powr', which no card has")
    assert lines[1].startswith(f"{path}:13:41: layout 'front' element 'rules'") and \
        "'vanila'" in lines[1] and "vanilla" in lines[1]  # the fields it could have meant


@pytest.mark.parametrize("bleed", ["-5in", "500in"])
def test_a_bleed_out_of_range_is_refused_not_silently_replaced(tmp_path, bleed):
    path = write(tmp_path, f"bleed: {bleed}\nlayouts:\n  front:\n    elements: []\n")
    with pytest.raises(RenderError) as err:
        load_template(path)
    assert str(err.value).splitlines() == [
        f"{path}:1:8: bleed {parse_length(bleed):g} pt is out of range (between 0 and 72 pt, "
        "1 in; print shops ask for 0.125in)"]


def test_an_unprintable_font_size_is_one_message_and_lengths_say_how_to_write_them(tmp_path):
    path = write(tmp_path, """layouts:
  front:
    elements:
      - {name: t, type: text, x: 0, y: 0, w: 100, h: 20, text: "{name}", size: 0}
      - {name: r, type: rect, x: six, y: 0, w: 10, h: 10, fill: "#000000"}
""")
    lines = _refused(path)
    assert lines == [f"{path}:5:34: layouts.front.elements item 2 x 'six' is not valid: write "
                     "points (9), a length with a unit (3mm, 0.125in, 9pt) or, for x, y, w and "
                     "h, a percentage of the card (50%)"]
    path.write_text(path.read_text().replace("x: six", "x: 0"))
    with pytest.raises(RenderError) as err:
        load_template(path)
    assert str(err.value).splitlines() == [
        f"{path}:4:80: layout 'front' element 't': size 0 pt is not a printable font size "
        "(between 2 and 144 pt)"]


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_a_font_that_is_not_a_regular_file_says_so_not_file_not_found(tmp_path, kind):
    font = tmp_path / "display.ttf"
    font.mkdir() if kind == "folder" else os.mkfifo(font)
    path = write(tmp_path, "fonts: {display: display.ttf}\nlayouts:\n  front:\n    elements: []\n")
    with pytest.raises(RenderError) as err:
        load_template(path)
    assert str(err.value) == (f"{path}:1:18: font 'display': {font} is not a regular file "
                              "(give a .ttf file)")


def test_a_huge_font_file_is_refused_before_it_is_read(tmp_path):
    """The PDF writer reads a font whole: a wrong file (a video renamed .ttf) must not fill
    memory. A sparse file: its size is what is judged, nothing is read."""
    font = tmp_path / "display.ttf"
    with font.open("wb") as fh:
        fh.truncate(fonts.MAX_FONT_BYTES + 1)
    path = write(tmp_path, "fonts: {display: display.ttf}\nlayouts:\n  front:\n    elements: []\n")
    with pytest.raises(RenderError) as err:
        load_template(path)
    assert str(err.value).startswith(f"{path}:1:18: font 'display': {font} is 64 MiB, over the 64 "
                                     "MiB a font file may be (is it the font meant?")


def test_a_bad_format_spec_is_called_one_not_bad_braces(tmp_path):
    path = write(tmp_path, """layouts:
  front:
    elements:
      - {name: title, type: text, x: 10, y: 10, w: 160, h: 20, text: "{name:q}"}
  back:
    elements: []
""")
    with pytest.raises(RenderError) as err:
        prepare(dotd_set(), template=load_template(path), rules_runs=rules_runs)
    assert "element 'title': bad format spec in '{name:q}' (Unknown format code 'q'" in \
        str(err.value)


@pytest.mark.parametrize("body, says", [
    (None, "font 'display': file not found: {font} (check the path under 'fonts:' in template.yaml"),
    (b"not a font", "is not a usable TrueType font ("),
])
def test_a_missing_or_broken_font_says_how_to_fix_it(tmp_path, body, says):
    font = tmp_path / "display.ttf"
    if body is not None:
        font.write_bytes(body)
    path = write(tmp_path, "fonts: {display: display.ttf}\nlayouts:\n  front:\n    elements:\n"
                 "      - {name: t, type: text, x: 10, y: 10, w: 100, h: 20, text: '{name}', "
                 "font: display}\n")
    with pytest.raises(RenderError) as err:
        load_template(path)
    assert says.format(font=font) in str(err.value)
    assert "give a .ttf file" in str(err.value) or "paths are from the set folder" in str(err.value)
    assert len(str(err.value).splitlines()) == 1  # not also "unknown font" where it is used


def test_a_missing_fixed_image_says_how_to_fix_it(tmp_path):
    body = """layouts:
  front:
    elements:
      - {name: logo, type: image, x: 0, y: 0, w: 20, h: 20, art: "nope.png"}
  back:
    elements: []
"""
    with pytest.raises(RenderError, match="not found in .*check the file name, or add the image to the set folder"):
        _layout(dotd_set(), "anger@double", write(tmp_path, body))


@pytest.mark.parametrize("key, side", [("w", "width"), ("h", "height")])
def test_a_text_box_with_no_width_or_height_is_refused_where_it_is_written(tmp_path, key, side):
    box = "w: 0, h: 20" if key == "w" else "w: 120, h: 0"
    line = f"      - {{name: t, type: text, x: 10, y: 10, {box}, text: '{{name}}'}}"
    path = write(tmp_path, f"layouts:\n  front:\n    elements:\n{line}\n  back:\n    elements: []\n")
    with pytest.raises(RenderError) as err:
        load_template(path)
    col = line.index(f"{key}: 0") + len(f"{key}: ") + 1  # at the value
    assert str(err.value).splitlines() == [
        f"{path}:4:{col}: layout 'front' element 't': the text box has no {side} ({key}: 0), so "
        f"no text fits in it (give '{key}' a length such as 20 or 10%)"]
