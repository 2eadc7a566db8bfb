"""An output of ``render`` or ``export`` whose name is a link into the set is refused before any
work, never written through; a link elsewhere is replaced, never followed; and ``export --out
/dev/stdout`` writes down the stream even when the shell sent it to a file.

``render --out O`` with ``O/S/S-poker-letter.pdf`` a symbolic link to ``S/template.yaml`` wrote
the PDF into template.yaml (then said the set's files changed while it rendered), and a
``proof.png`` link did the same to deck.yaml; ``export S --out link.csv --force`` with
``link.csv -> S/deck.yaml`` replaced the card file with CSV, exit 0. ``export --out /dev/stdout
> f.csv`` read the redirect's file as a sheet with edits and refused it, and an empty file at
``--out`` was refused as an empty sheet.

``build`` and ``watch`` wrote theirs through links too: ``build S --out O`` with
``O/S/playtest.json -> S/game.yaml`` played every game and then signed its record into
game.yaml, and a reused record's reports went through ``report.md -> S/deck.yaml``; ``watch S
--once`` wrote its proof sheet into deck.yaml through ``watch/proof.png`` and a card image into
game.yaml, and a link made while it watched was served by its page. Now each is refused before
any game or image, and a link elsewhere is replaced.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from boneyard.pipeline.load import GAME_FILE
from boneyard.pipeline.validate_yaml import display_path

from boneyard.paths import CARDS, OUTPUT

CLI = [sys.executable, "-c", "from boneyard.pipeline.cli import main; main()"]


@pytest.fixture
def gf(tmp_path: Path) -> Path:
    """A private copy of Grave Feast, called S as a designer's own set would be."""
    return shutil.copytree(CARDS / "grave-feast", tmp_path / "S")


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file()}


def _cli(*args: object, **kwargs: object) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *(str(a) for a in args)], timeout=180, check=False,
                          **kwargs)  # type: ignore[call-overload]


# --- render -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("fmt", "name", "target", "role"), [
    ("pdf", "S-poker-letter.pdf", "template.yaml", "its template.yaml"),
    ("proof", "proof.png", "deck.yaml", "its card file deck.yaml"),
])
def test_render_refuses_a_print_that_is_a_link_to_a_file_of_the_set(run, gf, tmp_path, fmt, name,
                                                                    target, role):
    before = _snapshot(gf)
    folder = tmp_path / "out" / "S"
    folder.mkdir(parents=True)
    link = folder / name
    link.symlink_to(gf / target)
    res = run("render", gf, "--force", "--format", fmt, "--out", tmp_path / "out")
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith(f"{link}: a link to {gf / target}, one of the set's own files "
                                 f"({role}); nothing was written: remove the link, or write the "
                                 "prints elsewhere (leave out --out for "), res.stderr
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.output
    assert "changed while it was rendered" not in res.output
    assert _snapshot(gf) == before  # byte for byte: the template and the cards are as they were
    assert link.is_symlink() and sorted(p.name for p in folder.iterdir()) == [name]


def test_render_refuses_an_image_folder_that_is_a_link_to_the_set_folder(run, gf, tmp_path):
    before = _snapshot(gf)
    folder = tmp_path / "out" / "S"
    folder.mkdir(parents=True)
    (folder / "tts").symlink_to(gf, target_is_directory=True)
    res = run("render", gf, "--force", "--format", "pdf,tts", "--out", tmp_path / "out")
    assert res.exit_code == 2, res.output
    assert f"{folder / 'tts'}: a link to {gf}, the set's own folder; nothing was written" \
        in res.stderr
    assert _snapshot(gf) == before and sorted(p.name for p in folder.iterdir()) == ["tts"]


def test_render_replaces_a_link_that_points_outside_the_set(run, gf, tmp_path):
    """As build replaces its reports: the link goes, the file it named is left as it was."""
    elsewhere = tmp_path / "elsewhere.pdf"
    elsewhere.write_bytes(b"not a print")
    folder = tmp_path / "out" / "S"
    folder.mkdir(parents=True)
    (folder / "S-poker-letter.pdf").symlink_to(elsewhere)
    res = run("render", gf, "--force", "--format", "pdf", "--out", tmp_path / "out")
    assert res.exit_code == 0, res.output
    pdf = folder / "S-poker-letter.pdf"
    assert not pdf.is_symlink() and pdf.read_bytes().startswith(b"%PDF-")
    assert elsewhere.read_bytes() == b"not a print"
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


# --- export -----------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["symbolic", "hard"])
def test_export_refuses_an_out_that_is_a_link_to_a_card_file(run, gf, tmp_path, kind):
    before = _snapshot(gf)
    link = tmp_path / "link.csv"
    if kind == "symbolic":
        link.symlink_to(gf / "deck.yaml")
    else:
        os.link(gf / "deck.yaml", link)
    res = run("export", gf, "--out", link, "--force")
    assert res.exit_code == 2, res.output
    how = f"a link to {gf / 'deck.yaml'}, " if kind == "symbolic" else "that is "
    undo = "remove the link, or " if kind == "symbolic" else ""
    assert res.stderr.startswith(f"--out {link}: {how}one of the set's own files (its card file "
                                 f"deck.yaml); nothing was written: {undo}write the sheet "
                                 "elsewhere (e.g. "), res.stderr
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.output
    assert _snapshot(gf) == before


def test_export_replaces_a_link_that_points_outside_the_set(run, gf, tmp_path):
    elsewhere = tmp_path / "elsewhere.csv"
    elsewhere.write_text("kept\n", encoding="utf-8")
    link = tmp_path / "cards.csv"
    link.symlink_to(elsewhere)
    res = run("export", gf, "--out", link, "--force")
    assert res.exit_code == 0, res.output
    assert not link.is_symlink() and link.read_text(encoding="utf-8").startswith("id,name,")
    assert elsewhere.read_text(encoding="utf-8") == "kept\n"


def test_export_to_dev_stdout_sent_to_a_file(gf, tmp_path):
    """The shell's redirect: the sheet goes down the stream, the note to stderr, not into it."""
    sheet = tmp_path / "f.csv"
    with sheet.open("wb") as f:
        res = _cli("export", gf, "--format", "csv", "--out", "/dev/stdout", stdout=f,
                   stderr=subprocess.PIPE, text=True)
    assert res.returncode == 0, res.stderr
    assert res.stderr == "wrote /dev/stdout (8 rows)\n"
    text = sheet.read_text(encoding="utf-8")
    assert text.startswith("id,name,kind,") and "wrote" not in text
    check = _cli("import", gf, sheet, "--dry-run", capture_output=True, text=True)
    assert check.returncode == 0 and "no changes" in check.stdout, check.stdout + check.stderr
    with sheet.open("ab") as f:  # >>: appended, as the shell asked
        res = _cli("export", gf, "--format", "csv", "--out", "/dev/stdout", stdout=f,
                   stderr=subprocess.PIPE, text=True)
    assert res.returncode == 0, res.stderr
    assert sheet.read_text(encoding="utf-8") == text + text


def test_export_writes_an_empty_file_at_out(run, gf, tmp_path):
    sheet = tmp_path / "cards.csv"
    sheet.touch()
    res = run("export", gf, "--out", sheet)
    assert res.exit_code == 0, res.output
    assert sheet.read_text(encoding="utf-8").startswith("id,name,kind,")


# --- build ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "target", "role", "extra"), [
    ("playtest.json", "game.yaml", "one of the set's own files (its game.yaml)", ["--no-render"]),
    ("report.md", "deck.yaml", "one of the set's own files (its card file deck.yaml)",
     ["--no-render"]),
    ("last-pass", ".", "the set's own folder", ["--no-render"]),
    ("proof.png", "template.yaml", "one of the set's own files (its template.yaml)", []),
])
def test_build_refuses_an_output_that_is_a_link_into_the_set(run, gf, tmp_path, name, target,
                                                             role, extra):
    """Before any game: the record was signed into game.yaml once every game was played."""
    before = _snapshot(gf)
    folder = tmp_path / "out" / "S"
    folder.mkdir(parents=True)
    link = folder / name
    link.symlink_to((gf / target).resolve())
    res = run("build", gf, "--fast", *extra, "--out", tmp_path / "out")
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith(f"{link}: a link to {(gf / target).resolve()}, {role}; nothing "
                                 "was written: remove the link, or write the build's outputs "
                                 "elsewhere (leave out --out for "), res.stderr
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.output and not res.stdout
    assert _snapshot(gf) == before  # byte for byte: game.yaml, the cards and the template
    assert link.is_symlink() and [p.name for p in folder.iterdir()] == [name]


def test_build_replaces_links_that_point_outside_the_set(run, gf, tmp_path):
    """The record, the reports and the last pass go where the build keeps them; the files the
    links named are left as they were, and nothing is left beside them."""
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "last-pass").mkdir(parents=True)
    for name in ("playtest.json", "report.html", "last-pass/kept.txt"):
        (elsewhere / name).write_text("kept\n", encoding="utf-8")
    kept = _snapshot(elsewhere)
    folder = tmp_path / "out" / "S"
    folder.mkdir(parents=True)
    for name in ("playtest.json", "report.html", "last-pass"):
        (folder / name).symlink_to(elsewhere / name)
    res = run("build", gf, "--fast", "--no-render", "--out", tmp_path / "out")
    assert res.exit_code == 0, res.output
    assert sorted(p.name for p in folder.iterdir()) == ["last-pass", "playtest.json",
                                                       "report.html", "report.md"]
    assert not [p for p in folder.rglob("*") if p.is_symlink()]
    assert '"signature"' in (folder / "playtest.json").read_text(encoding="utf-8")
    assert (folder / "last-pass" / "playtest.json").is_file()
    assert _snapshot(elsewhere) == kept
    # a reused record: only the reports are written, and over links too
    for name in ("report.html", "report.md"):
        (folder / name).unlink()
        (folder / name).symlink_to(elsewhere / "report.html")
    res = run("build", gf, "--fast", "--no-render", "--out", tmp_path / "out")
    assert res.exit_code == 0 and "reused record" in res.stdout, res.output
    for name in ("report.html", "report.md"):
        assert not (folder / name).is_symlink() and (folder / name).stat().st_size > 1000
    assert _snapshot(elsewhere) == kept


# --- watch ------------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "target", "role"), [
    ("proof.png", "deck.yaml", "its card file deck.yaml"),
    ("png/back.png", "game.yaml", f"its {GAME_FILE}"),
])
def test_watch_refuses_a_preview_that_is_a_link_to_a_file_of_the_set(run, gf, tmp_path, name,
                                                                     target, role):
    before = _snapshot(gf)
    watch = tmp_path / "out" / "S" / "watch"
    link = watch / name
    link.parent.mkdir(parents=True)
    link.symlink_to(gf / target)
    res = run("watch", gf, "--once", "--no-playtest", "--dpi", "30", "--out", tmp_path / "out")
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith(f"{link}: a link to {gf / target}, one of the set's own files "
                                 f"({role}); nothing was written: remove the link, or write the "
                                 "previews elsewhere (leave out --out for "), res.stderr
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.output
    assert _snapshot(gf) == before
    assert [p.relative_to(watch).as_posix() for p in watch.rglob("*") if not p.is_dir()] == [name]


def test_watch_refuses_an_out_folder_that_is_the_sets_parent(run, gf):
    """The previews went into the set's own folder (S/watch/)."""
    before = _snapshot(gf)
    res = run("watch", gf, "--once", "--no-playtest", "--out", gf.parent)
    assert res.exit_code == 2, res.output
    assert "the set's own folder; write them elsewhere (leave out --out for " in res.stderr
    assert _snapshot(gf) == before and not (gf / "watch").exists()


def test_watch_replaces_links_that_point_outside_the_set(run, gf, tmp_path):
    elsewhere = tmp_path / "elsewhere.png"
    elsewhere.write_bytes(b"not an image")
    watch = tmp_path / "out" / "S" / "watch"
    (watch / "png").mkdir(parents=True)
    for name in ("proof.png", "png/back.png"):
        (watch / name).symlink_to(elsewhere)
    res = run("watch", gf, "--once", "--no-playtest", "--dpi", "30", "--out", tmp_path / "out")
    assert res.exit_code == 0, res.output
    for name in ("proof.png", "png/back.png"):
        path = watch / name
        assert not path.is_symlink() and path.read_bytes().startswith(b"\x89PNG"), name
    assert elsewhere.read_bytes() == b"not an image"


def test_a_link_made_while_watching_is_that_cycles_problem(gf, tmp_path):
    """Nothing written through it, the page does not serve it, and the watcher goes on."""
    import http.client

    from boneyard.pipeline.watch import Watcher
    from boneyard.pipeline.watch_page import serve

    watcher = Watcher(gf, out=tmp_path / "out", playtest=False, dpi=30, echo=lambda _line: None)
    assert watcher.cycle().ok
    before = _snapshot(gf)
    proof = watcher.out / "proof.png"
    proof.unlink()
    proof.symlink_to(gf / "game.yaml")
    server = serve(watcher, 0)
    try:
        conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
        conn.request("GET", "/proof.png")
        assert conn.getresponse().status == 404  # game.yaml was served as the proof sheet
        conn.close()
        second = watcher.cycle()
    finally:
        server.shutdown()
        server.server_close()
    assert not second.ok
    assert second.problems == [f"{proof}: a link to {gf / 'game.yaml'}, one of the set's own "
                               "files (its game.yaml); nothing was written: remove the link, "
                               "or write the previews elsewhere (leave out --out for "
                               f"{display_path(OUTPUT / 'S')})"]
    assert _snapshot(gf) == before and proof.is_symlink()
    proof.unlink()
    third = watcher.cycle()  # the link removed: the proof sheet is written again
    assert third.ok and third.proof and proof.read_bytes().startswith(b"\x89PNG")
