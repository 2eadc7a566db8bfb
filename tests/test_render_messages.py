"""Bad render input as a designer sees it: one located message per problem, exit 1, no file."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from boneyard.pipeline.cli import main
from conftest import Result

from boneyard.paths import CARDS


@pytest.fixture
def dotd(tmp_path) -> Path:
    folder = tmp_path / "day-of-the-dead"
    shutil.copytree(CARDS / "day-of-the-dead", folder)
    return folder


def edit(path: Path, old: str, new: str) -> str:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))
    return path.read_text()


def line_of(text: str, needle: str) -> int:
    return next(i for i, t in enumerate(text.splitlines(), 1) if needle in t)


def problems(res: Result) -> list[str]:
    """The problem lines of validate or render (not the heading or the count)."""
    return [t for t in res.stderr.splitlines() if re.match(r"^\S+:\d+:\d+: ", t)]


def both(run, folder: Path, out: Path) -> list[Result]:
    """validate and render --force: both must say the same, exit 1 and write nothing."""
    results = [run("validate", folder),
               run("render", folder, "--force", "--format", "pdf,png,proof", "--out", out)]
    for res in results:
        assert res.exit_code == 1, res.output
        assert "Traceback" not in res.output
    assert not out.exists() or not any(p.is_file() for p in out.rglob("*"))
    return results


def the_one_problem(run, folder: Path, out: Path) -> list[str]:
    """The one problem line each of validate and render --force gives (see ``both``)."""
    out_lines = []
    for res in both(run, folder, out):
        said = problems(res)
        assert len(said) == 1, res.stderr
        out_lines.append(said[0])
    return out_lines


def test_a_character_the_font_lacks_is_said_at_the_card_line_that_holds_it(run, dotd, tmp_path):
    """Not at the template, not once per face: the card file's line, the character, the font."""
    text = edit(dotd / "characters.yaml", "flavor: Finders keepers, losers sleepers.",
                'flavor: "Finders keepers, losers sleepers \u2603."')
    line = line_of(text, "\u2603")
    tline = line_of((dotd / "template.yaml").read_text(), "- name: rules")
    for one in the_one_problem(run, dotd, tmp_path / "out"):
        said = [one]
        assert said[0].startswith(
            f"{dotd / 'characters.yaml'}:{line}:11: card 'body_snatcher': flavor 'Finders "
            "keepers, losers sleepers \u2603.': the font 'sans-italic' has no glyph for '\u2603' "
            "(U+2603), so it would print as an empty box (write other characters, or declare a "
            "TTF font that has it under 'fonts:' in template.yaml and use it for layout 'front' "
            f"element 'rules' at {dotd / 'template.yaml'}:{tline}:9)"), said[0]


def test_a_back_name_the_font_lacks_is_said_once_at_game_yaml(run, dotd, tmp_path):
    """Printed by two elements on 37 faces (upper-cased on one): one message, both elements."""
    text = edit(dotd / "game.yaml", "name: Power Up,", "name: Power Up \u2603,")
    line = line_of(text, "\u2603")
    for one in the_one_problem(run, dotd, tmp_path / "out"):
        said = [one]
        assert said[0].startswith(f"{dotd / 'game.yaml'}:{line}:26: backs item 2 name 'Power Up "
                                  "\u2603': the font 'sans-bold' has no glyph for '\u2603'")
        assert "element 'back_label' at " in said[0] and "element 'title' at " in said[0]


def test_a_character_the_font_lacks_in_the_templates_own_words_is_said_there_once(
        run, dotd, tmp_path):
    text = edit(dotd / "template.yaml", '"No effect."', '"No effect \u2603"')
    line = line_of(text, "- name: rules")
    for res in both(run, dotd, tmp_path / "out"):
        said = problems(res)
        assert said == [f"{dotd / 'template.yaml'}:{line}:9: layout 'front' element 'rules': the "
                        "text 'No effect \u2603': the font 'sans-bold' has no glyph for '\u2603' "
                        "(U+2603), so it would print as an empty box (write other characters, or "
                        "declare a TTF font that has it under 'fonts:' and use it here)"], said


@pytest.mark.parametrize(("old", "new", "at", "said"), [
    ('text: "{power}"\n', 'text: "{powr}"\n', '"{powr}"',
     "layout 'front' element 'power': '{powr}' names the field {powr}, which the cards it prints "
     "do not have (did you mean {power}? fields are: "),
    ("fill: parchment, radius: 7}", 'fill: "{name}", radius: 7}', '"{name}", radius',
     "layout 'front' element 'panel': fill '{name}' gives no colour on any card that prints it "
     "(e.g. 'Nemesis') (write #rrggbb, a name under 'colours:', or a field that holds a colour)"),
    ('emblem: "{back}", x: 40', 'emblem: "{name}", x: 40', '"{name}", x: 40',
     "layout 'back' element 'emblem': emblem '{name}' gives no emblem on any card that prints it "
     "(e.g. 'Double'; emblems are: "),
    ("h: 66\n", "h: 3\n", "name: rules",
     "layout 'front' element 'rules': text does not fit its box (152 x 3 pt) on any card that "
     "prints it, even at the minimum size 6 pt (e.g. card 'nemesis@double': "),
])
def test_one_bad_template_value_is_one_message_at_its_line(run, dotd, tmp_path, old, new, at,
                                                           said):
    """Not one message a card (36 of them for a fill that names the card's name): the line that
    writes the value, once, what is wrong and how to fix it."""
    text = edit(dotd / "template.yaml", old, new)
    line = line_of(text, at)
    col = text.splitlines()[line - 1].index(at) + 1
    for res in both(run, dotd, tmp_path / "out"):
        found = problems(res)
        assert len(found) == 1, res.stderr
        assert found[0].startswith(f"{dotd / 'template.yaml'}:{line}:{col}: {said}"), found[0]


def test_art_too_coarse_to_print_is_said_at_the_cards_art_line(run, dotd, tmp_path):
    """The card's picture is what to replace: its art: line, once for its three faces."""
    from PIL import Image

    Image.new("RGB", (20, 20), "#808080").save(dotd / "nemesis.png")
    text = edit(dotd / "characters.yaml", "  name: Nemesis\n", "  name: Nemesis\n  art: nemesis.png\n")
    line = line_of(text, "art: nemesis.png")
    for one in the_one_problem(run, dotd, tmp_path / "out"):
        said = [one]
        assert said[0].startswith(f"{dotd / 'characters.yaml'}:{line}:8: card 'nemesis': layout "
                                  "'front' element 'art' ("), said[0]
        assert said[0].endswith("art 'nemesis.png' (20 x 20 px) prints at 9 ppi in 56.4 x 35.3 "
                                "mm, under 150 ppi: pixels would show (give at least 667 x 417 "
                                "px, or lower preflight.fail_ppi in template.yaml)"), said[0]


@pytest.mark.parametrize("how", ["ctrl-c", "full disk"])
def test_a_render_stopped_half_way_names_what_is_new_and_what_is_not(tmp_path, monkeypatch, capsys,
                                                                     how):
    """Ctrl-C (or a full disk) after the PDF left a new PDF beside the last render's images with
    only "Interrupted." (or "png-tgc: cannot write: No space left on device"): the folder looked
    like one render. Both now name what is new and what is not."""
    import errno

    from boneyard.pipeline.render import api

    def stop(*args: object, **kwargs: object) -> None:
        if how == "ctrl-c":
            raise KeyboardInterrupt
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / "png-tgc"))

    monkeypatch.setattr(api, "write_face_pngs", stop)
    with pytest.raises(SystemExit) as done:
        main(["render", "day-of-the-dead", "--force", "--out", str(tmp_path)])
    out, err = capsys.readouterr()
    assert done.value.code == (130 if how == "ctrl-c" else 1)
    (pdf,) = out.split()
    assert pdf.endswith(".pdf") and Path(pdf).is_file()
    assert "stopped: wrote pdf; not rendered: png, tts, proof (any such output in the folder is " \
           "from an earlier render; render again for a matching set)" in err, err
    said = "Interrupted." if how == "ctrl-c" else "No space left on device"
    assert said in err.strip().splitlines()[-1], err


@pytest.mark.parametrize(("old", "new", "at", "said"), [
    # a misspelt override was "has no 'type' (one of rect, ...)": true, but not the mistake
    ("- {name: chip_icon, colour: bone}", "- {name: chip_icn, colour: bone}", "chip_icn",
     "layout 'front-double' element 'chip_icn': names no element it inherits, and has no 'type' "
     "to be a new one (did you mean 'chip_icon'?)"),
    ("  front-power_up:\n    extends: front\n",
     "  front-power_up:\n    extends: front\n    remove: [chip_icn]\n", "[chip_icn]",
     "layout 'front-power_up' removes 'chip_icn', which it does not inherit (did you mean "
     "'chip_icon'? it inherits: background, panel, "),
])
def test_a_misspelt_inherited_element_says_the_name_it_meant(run, dotd, old, new, at, said):
    text = edit(dotd / "template.yaml", old, new)
    line = line_of(text, at)
    col = text.splitlines()[line - 1].index(at) + 1
    res = run("validate", dotd)
    found = problems(res)
    assert res.exit_code == 1 and len(found) == 1, res.stderr
    assert found[0].startswith(f"{dotd / 'template.yaml'}:{line}:{col}: {said}"), found[0]
