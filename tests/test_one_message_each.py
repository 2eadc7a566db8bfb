"""Bad input said once: each problem an audit found said twice, or said by its consequence first,
or located where it cannot be fixed, is now one message, at the line to change, with its fix.

Each test edits a copy of the bundled Grave Feast the way a designer would and runs
``boneyard validate`` as a designer does (exit code 1, the set's lines between its heading and
the "1 of 1 set invalid" line).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from boneyard.pipeline.render.fonts import BUILTIN_FONTS
from boneyard.pipeline.render.units import card_size
from test_validate import _edited as edited_set

from boneyard.errors import RenderError


def _edited(tmp_path: Path, file: str, *edits: tuple[str, str]) -> Path:
    return edited_set(tmp_path, "grave-feast", file, *edits)


def _line(root: Path, file: str, text: str) -> int:
    """The 1-based number of the one line of ``file`` that holds ``text``."""
    found = [i for i, line in enumerate((root / file).read_text(encoding="utf-8").splitlines(), 1)
             if text in line]
    assert len(found) == 1, (text, found)
    return found[0]


def _said(run, root: Path) -> list[str]:
    """validate's problem lines for the set, file names relative to it."""
    res = run("validate", root)
    assert res.exit_code == 1, res.output
    lines = res.stderr.splitlines()
    assert lines[0].startswith("Grave Feast: ") and lines[-1] == "1 of 1 set invalid", lines
    assert "Traceback" not in res.output
    return [line.replace(f"{root}/", "") for line in lines[1:-1]]


# --- 1. a refused box length, and a box inherited unchanged ------------------------------------

EMBLEM = "{name: emblem, type: emblem, emblem: \"{kind}\", x: 40, y: 58, w: 100, h: 100,"


def test_a_refused_width_is_one_message_not_also_off_the_card_in_each_layout(run, tmp_path):
    """w: -100 on the front's emblem was five lines: the width, then 'wholly off the card' at
    front and at the three layouts that inherit it and change only its colours."""
    root = _edited(tmp_path, "template.yaml", (EMBLEM, EMBLEM.replace("w: 100", "w: -100")))
    line = _line(root, "template.yaml", "w: -100")
    assert _said(run, root) == [
        f"template.yaml:{line}:73: layout 'front' element 'emblem': w -100 pt is out of range "
        "(between 0 and 1440 pt)"]


def test_a_box_off_the_card_is_said_where_written_and_where_a_layout_moves_it(run, tmp_path):
    """x: 500 is said at front, not again at front-vampire, -zombie and -succubus (which only
    recolour it); a layout that moves the emblem off the card itself is told so."""
    root = _edited(tmp_path, "template.yaml", (EMBLEM, EMBLEM.replace("x: 40", "x: 500")),
                   ("      - {name: emblem, colour: brains_dark, accent: \"#6d5843\"}\n",
                    "      - {name: emblem, x: 600, colour: brains_dark, accent: \"#6d5843\"}\n"))
    front = _line(root, "template.yaml", "x: 500")
    zombie = _line(root, "template.yaml", "x: 600")
    off = ("lies wholly off the card (180 x 252 pt), so it is never printed (give x and y within "
           "the card; a percentage such as 10% is of its size)")
    assert _said(run, root) == [
        f"template.yaml:{front}:59: layout 'front' element 'emblem': the emblem (500, 58, 100 x "
        f"100 pt) {off}",
        f"template.yaml:{zombie}:27: layout 'front-zombie' element 'emblem': the emblem (600, 58, "
        f"100 x 100 pt) {off}"]


def test_a_refused_text_width_is_not_also_a_text_box_with_no_width(run, tmp_path):
    root = _edited(tmp_path, "template.yaml", ("        w: 148\n", "        w: -5\n"))
    line = _line(root, "template.yaml", "w: -5")
    assert _said(run, root) == [
        f"template.yaml:{line}:12: layout 'front' element 'rules': w -5 pt is out of range "
        "(between 0 and 1440 pt)"]


# --- 2. a rares file whose items are refused is not also "holds no cards" -------------------------


@pytest.mark.parametrize("text, said", [
    ('- [a, b]\n- 3\n- "x"\n', ["rares.yaml:1:3: card 1 must be a mapping (key: value lines), "
                                "got a list",
                                "rares.yaml:2:3: card 2 must be a mapping (key: value lines), "
                                "got 3",
                                "rares.yaml:3:3: card 3 must be a mapping (key: value lines), "
                                "got 'x'"]),
    ("- !include other.yaml\n", ["rares.yaml:1:3: card 1: YAML tag '!include' is not allowed in "
                                 "card files (card files hold plain values: text, numbers, "
                                 "true/false, lists and mappings)"]),
])
@pytest.mark.parametrize("params_on", [False, True])
def test_a_rares_file_of_refused_items_is_said_by_its_own_problems(run, tmp_path, text, said,
                                                                   params_on):
    root = _edited(tmp_path, "game.yaml", *([("  rares: false", "  rares: true ")]
                                            if params_on else []))
    (root / "rares.yaml").write_text(text, encoding="utf-8")
    assert _said(run, root) == said


def test_an_empty_list_of_rares_still_says_it_holds_no_cards(run, tmp_path):
    root = _edited(tmp_path, "game.yaml")
    (root / "rares.yaml").write_text("[]\n", encoding="utf-8")
    lines = _said(run, root)
    assert len(lines) == 1 and "the rares file 'rares.yaml' holds no cards" in lines[0], lines


# --- 3. a card size in bare numbers that look like inches -----------------------------------------


def test_a_card_size_in_bare_inches_says_bare_numbers_are_mm_and_how_to_write_inches(run,
                                                                                     tmp_path):
    root = _edited(tmp_path, "template.yaml", ("size: poker\n", "size: 2.5x3.5\n"))
    line = _line(root, "template.yaml", "size: 2.5x3.5")
    assert _said(run, root) == [
        f"template.yaml:{line}:7: card size '2.5x3.5': each side must be 20 to 300 mm, got 2.5 mm "
        "(a bare number in a card size is millimetres, not points as in other lengths; for "
        "inches write 2.5x3.5in)"]
    assert card_size("2.5x3.5in").width == card_size("poker").width


@pytest.mark.parametrize("size, inches", [("500x700", False), ("0.5x0.5", False),
                                          ("10x11", True)])
def test_the_inch_hint_is_given_only_where_inches_would_fit(size, inches):
    """500x700 is no inch size; 0.5x0.5in would be refused too (12.7 mm)."""
    with pytest.raises(RenderError) as err:
        card_size(size)
    assert "a bare number in a card size is millimetres" in str(err.value)
    assert (f"for inches write {size}in" in str(err.value)) is inches


# --- 4. a font path in the wrong case ----------------------------------------------------------


def test_a_font_path_in_the_wrong_case_names_the_file_that_is_there(run, tmp_path):
    root = _edited(tmp_path, "template.yaml",
                   ("bleed: 0.125in\n", "bleed: 0.125in\nfonts: {display: fonts/D.ttf}\n"))
    (root / "fonts").mkdir()
    (root / "fonts" / "d.ttf").write_bytes(BUILTIN_FONTS["sans"].read_bytes())
    line = _line(root, "template.yaml", "fonts: {display")
    assert _said(run, root) == [
        f"template.yaml:{line}:18: font 'display': font file 'fonts/D.ttf' does not exist, but "
        "'fonts/d.ttf' does: the names differ in case only (write fonts/d.ttf; file names are "
        "case-sensitive on Linux, where a build or a print shop may run)"]


def test_a_fixed_image_in_the_wrong_case_names_the_file_that_is_there(run, tmp_path):
    """The template's own image said "not found", dropping the art check's case hint."""
    from PIL import Image

    root = _edited(tmp_path, "template.yaml", (
        "      - {name: panel, type: rect,",
        "      - {name: logo, type: image, art: art/Logo.png, x: 1, y: 1, w: 5, h: 5}\n"
        "      - {name: panel, type: rect,"))
    (root / "art").mkdir()
    Image.new("RGB", (8, 8)).save(root / "art" / "logo.png")
    line = _line(root, "template.yaml", "art/Logo.png")
    assert _said(run, root) == [
        f"template.yaml:{line}:40: layout 'front' element 'logo': image 'art/Logo.png' does not "
        "exist, but 'art/logo.png' does: the names differ in case only (write art/logo.png; file "
        "names are case-sensitive on Linux, where a build or a print shop may run)"]


# --- 5. a flavor word too wide for its box -----------------------------------------------------


def test_a_flavor_word_too_wide_is_said_at_the_cards_flavor_naming_the_element(run, tmp_path):
    """The fix is the card's flavor line, as for a character the font lacks; the template
    element (and its line) is named in the text."""
    word = "table" + "cloth" * 9 + "."
    root = _edited(tmp_path, "deck.yaml", ("Insists on a tablecloth.", f"Insists on a {word}"))
    flavor = _line(root, "deck.yaml", word)
    element = _line(root, "template.yaml", "Attach to a blood family") - 2  # its '- name: rules'
    lines = _said(run, root)
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"deck.yaml:{flavor}:11: card 'vampire': flavor 'Eats only blood "
                               f"families. Insists on a tableclothcloth"), lines
    assert f": the word {word!r} is " in lines[0], lines
    assert lines[0].endswith(
        f" pt wide, wider than the 148.0 pt box of layout 'front-vampire' element 'rules' at "
        f"template.yaml:{element}:9 even at its minimum size 6 pt (shorten the word or "
        "put a space in it, or widen the box or lower min_size in the template)"), lines


def test_a_box_too_narrow_for_every_card_is_still_the_templates(run, tmp_path):
    """Words of many cards' flavors, each too wide: the box is the mistake, said once there."""
    root = _edited(tmp_path, "template.yaml", ("        x: 40\n        w: 100\n",
                                               "        x: 40\n        w: 12\n"))
    lines = _said(run, root)
    line = _line(root, "template.yaml", "        w: 12")
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"template.yaml:{line - 2}:9: layout 'front-human' element "
                               "'rules': text does not fit its box (12 x 44 pt) on any card that "
                               "prints it"), lines
