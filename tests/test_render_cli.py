"""``boneyard render`` through the CLI: gated on the playtest record, options, clear errors."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from boneyard.paths import CARDS


def test_refuses_without_a_playtest_record_then_force_marks_it(run, tmp_path):
    res = run("render", "grave-feast", "--out", str(tmp_path), "--format", "pdf")
    assert res.exit_code == 1 and "no playtest record" in res.stderr
    assert "Traceback" not in res.output
    assert not (tmp_path / "grave-feast" / "grave-feast-poker-letter.pdf").exists()
    res = run("render", "grave-feast", "--out", str(tmp_path), "--format", "pdf,proof",
              "--force", "--paper", "a4")
    assert res.exit_code == 0, res.output
    pdf = tmp_path / "grave-feast" / "grave-feast-poker-a4.pdf"
    assert str(pdf) in res.output and (tmp_path / "grave-feast" / "proof.png").exists()
    from pypdf import PdfReader

    text = PdfReader(pdf).pages[0].extract_text()
    assert "NOT PLAYTESTED" in text


def test_passing_record_puts_the_note_in_the_footer(run, tmp_path, fast_builds):
    fast_builds.copy_out("grave-feast", tmp_path)  # a passing record of the bundled content
    folder = tmp_path / "grave-feast"
    games = json.loads((folder / "playtest.json").read_text())["games"]
    res = run("render", "grave-feast", "--out", str(tmp_path), "--format", "pdf",
              "--fronts-only", "--duplex", "none")
    assert res.exit_code == 0, res.output
    from pypdf import PdfReader

    reader = PdfReader(folder / "grave-feast-poker-letter-fronts.pdf")
    assert len(reader.pages) == 7  # 56 cards, 9 a page, no backs
    text = reader.pages[0].extract_text()
    assert f"playtested: {games} games, gates passed" in text
    assert "NOT PLAYTESTED" not in text


def test_bad_options_are_usage_errors(run):
    res = run("render", "grave-feast", "--format", "pdf,gif", "--force")
    assert res.exit_code == 2 and "gif" in res.output
    res = run("render", "grave-feast", "--gutter", "wide", "--force")
    assert res.exit_code == 2 and "--gutter" in res.output
    res = run("render", "grave-feast", "--gutter", "-3mm", "--force")
    assert res.exit_code == 2 and "cannot be negative" in res.output
    assert "Traceback" not in res.output


def test_an_output_folder_that_cannot_be_made_is_a_message_not_a_traceback(run, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("in the way")
    res = run("render", "grave-feast", "--force", "--format", "proof", "--out",
              str(blocker / "sub"))
    assert res.exit_code == 1 and "Traceback" not in res.output
    assert "cannot create the output folder" in res.stderr and "--out" in res.stderr


@pytest.mark.parametrize("fault", ["removed", "spoilt"])
def test_art_changed_while_rendering_is_said_as_a_read_of_that_file(run, tmp_path, monkeypatch, fault):
    """An art file deleted or overwritten mid-render was reported as "<out>: cannot write"."""
    from boneyard.pipeline.render import api
    from PIL import UnidentifiedImageError

    work = tmp_path / "set"
    shutil.copytree(CARDS / "grave-feast", work)
    art = work / "art" / "x.png"

    def broken(*_args, **_kwargs):
        if fault == "removed":
            raise FileNotFoundError(2, "No such file or directory", str(art))
        raise UnidentifiedImageError(f"cannot identify image file '{art}'")

    monkeypatch.setattr(api, "_write_outputs", broken)
    res = run("render", str(work), "--force", "--format", "proof", "--out", str(tmp_path / "out"))
    why = "No such file or directory" if fault == "removed" else "not an image any more"
    assert res.exit_code == 1 and f"{art}: cannot read: {why} (was it changed or removed while " \
        "the set rendered? render again; nothing was written)" in res.stderr, res.output
    assert "cannot write" not in res.output


def test_a_font_removed_while_rendering_is_said_as_a_read_of_that_font(run, tmp_path, monkeypatch):
    """Pillow opens a set's font when the images are drawn, after the PDF: a font file removed by
    then was "<out>: cannot write: cannot open resource", the output folder blamed."""
    from boneyard.pipeline.render import api
    from boneyard.pipeline.render.fonts import VERA_DIR

    work = tmp_path / "set"
    shutil.copytree(CARDS / "grave-feast", work)
    font = work / "mine.ttf"
    shutil.copy(VERA_DIR / "Vera.ttf", font)
    template = work / "template.yaml"
    template.write_text(template.read_text().replace("colours:\n", "fonts: {mine: mine.ttf}\ncolours:\n", 1)
                        .replace("font: sans-bold, size: 17", "font: mine, size: 17", 1))
    draw = api.write_face_pngs

    def removed_first(*args, **kwargs):
        font.unlink()
        return draw(*args, **kwargs)

    monkeypatch.setattr(api, "write_face_pngs", removed_first)
    res = run("render", str(work), "--force", "--format", "pdf,png", "--out", str(tmp_path / "out"))
    assert res.exit_code == 1 and f"{font}: cannot read: No such file or directory (was it changed " \
        "or removed while the set rendered? render again; only pdf was written)" in res.stderr, res.output
    assert "cannot write" not in res.output and "Traceback" not in res.output


def test_a_pipe_where_a_print_goes_is_one_message_not_a_hang(run, tmp_path):
    """Prints are written through a pipe or a device (meant for /dev/stdout): a FIFO left at
    the PDF's name made the render wait for a reader for ever."""
    import os

    folder = tmp_path / "grave-feast"
    folder.mkdir()
    os.mkfifo(folder / "grave-feast-poker-letter.pdf")
    res = run("render", "grave-feast", "--force", "--format", "pdf", "--out", str(tmp_path))
    assert res.exit_code == 1 and f"{folder / 'grave-feast-poker-letter.pdf'}: cannot write: not a " \
        "regular file, where the render writes one (remove it)" in res.stderr, res.output


def test_a_template_saved_while_rendering_is_not_exit_0(run, tmp_path, monkeypatch):
    """The template and art are read again as the prints are made: saved then, the prints were
    of the new content under the note of the content read first, and the render said nothing."""
    from boneyard.pipeline.render import api

    work = tmp_path / "set"
    shutil.copytree(CARDS / "grave-feast", work)
    template = work / "template.yaml"
    write = api._write_outputs

    def saved_meanwhile(*args, **kwargs):
        template.write_text(template.read_text() + "# saved again\n")
        return write(*args, **kwargs)

    monkeypatch.setattr(api, "_write_outputs", saved_meanwhile)
    res = run("render", str(work), "--force", "--format", "proof", "--out", str(tmp_path / "out"))
    assert res.exit_code == 1, res.output
    assert "the set's files changed while it was rendered (template.yaml): the prints above may " \
        "mix the old and the new content; render again" in res.stderr


def test_broken_template_gives_one_clear_message_and_no_output(run, tmp_path):
    """A message with file:line, exit 1, nothing written."""
    src = CARDS / "grave-feast"
    set_dir = tmp_path / "sets" / "my-feast"
    shutil.copytree(src, set_dir)
    tpl = set_dir / "template.yaml"
    tpl.write_text(tpl.read_text().replace("fill: night}", "fill: nigth}", 1))
    out = tmp_path / "out"
    res = run("render", str(set_dir), "--out", str(out), "--force")
    assert res.exit_code == 1
    assert "template.yaml:" in res.stderr and "unknown colour 'nigth'" in res.stderr
    assert not out.exists() or not any(p.is_file() for p in out.rglob("*"))


def test_an_icc_profile_without_cmyk_is_a_usage_error_not_ignored(run, tmp_path):
    icc = tmp_path / "shop.icc"
    icc.write_bytes(b"profile")
    res = run("render", "grave-feast", "--out", str(tmp_path / "out"), "--icc", str(icc))
    assert res.exit_code == 2 and "add --cmyk" in res.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("args", "said"), [
    (("--format", "png", "--bleed"), "--bleed only changes the pdf output"),
    (("--format", "proof", "--gutter", "3mm", "--fronts-only"),
     "--gutter, --fronts-only only change the pdf output"),
    (("--format", "png", "--duplex", "short"), "--duplex only changes the pdf or calibration"),
    (("--format", "pdf", "--tts-base-url", "https://example.invalid/"),
     "--tts-base-url only changes the tts output"),
])
def test_an_option_for_an_output_not_asked_for_is_refused_not_ignored(run, tmp_path, args, said):
    """Said before the set is read (no playtest record needed to hear it), nothing written."""
    res = run("render", "grave-feast", "--out", str(tmp_path / "out"), *args)
    assert res.exit_code == 1 and said in res.stderr, res.output
    assert "playtest" not in res.stderr and "Traceback" not in res.output
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", [("render", "grave-feast", "--force"), ("build", "grave-feast"),
                                     ("watch", "grave-feast", "--once")])
def test_an_empty_output_folder_is_a_usage_error_not_the_current_folder(run, tmp_path,
                                                                        monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    res = run(*command, "--out", "")
    assert res.exit_code == 2, res.output
    assert "--out" in res.output and "the output folder is empty" in res.output
    assert "Traceback" not in res.output and not any(tmp_path.iterdir())


def test_a_template_without_a_cards_layout_names_them_all_at_its_layouts(run, tmp_path):
    """One located message for the 36 cards the template cannot lay out, not the first alone."""
    folder = tmp_path / "dotd"
    shutil.copytree(CARDS / "day-of-the-dead", folder)
    tpl = folder / "template.yaml"
    text = tpl.read_text()
    for old, new in (("  front-power_up:\n    extends: front\n", ""),
                     ("  front-unearth:\n    extends: front\n", ""),
                     ("\n  front:\n", "\n  face:\n"), ("extends: front\n", "extends: face\n")):
        assert old in text, old
        text = text.replace(old, new)
    tpl.write_text(text)
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("layouts:"))
    for args in (("validate", str(folder)), ("render", str(folder), "--force", "--format", "proof",
                                            "--out", str(tmp_path / "out"))):
        res = run(*args)
        assert res.exit_code == 1 and "Traceback" not in res.output
        said = [t for t in res.stderr.splitlines() if "no layout" in t]
        assert len(said) == 2, res.stderr  # power_up and unearth fronts: each said once
        assert re.search(rf"template\.yaml:{line}:1: cards 'nemesis@power_up', "
                         r"'body_snatcher@power_up', '\w+@power_up', '\w+@power_up' and 32 more: "
                         r"no layout named front-power_up or front \(add one under layouts:\)",
                         res.stderr), res.stderr
