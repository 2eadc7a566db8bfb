"""Bad inputs an audit found: an import that rewrote a CRLF card file with LF endings, list
hints that named a form still wrong (or echoed a whole file), merge keys said to be refused "in
card files" in game.yaml and template.yaml, an emptied card file blamed on the untouched file,
and an Excel TRUE imported as the name "True"."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from boneyard.pipeline.load import check_set
from openpyxl import load_workbook
from test_sheets import _rows, _write_rows

from boneyard.paths import CARDS

Run = Callable[..., Any]


def _copy(tmp_path: Path, game: str) -> Path:
    root = tmp_path / game
    shutil.copytree(CARDS / game, root)
    return root


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")


def _problems(root: Path) -> list[str]:
    return [str(p) for p in check_set(root).problems]


def _said(res: Any) -> str:
    assert "Traceback" not in res.output, res.output
    return str(res.output)


# --- 1. import keeps a file's line ends and byte-order mark -------------------------------------


def _crlf_with_bom(path: Path) -> bytes:
    text = path.read_text(encoding="utf-8")
    raw = b"\xef\xbb\xbf" + text.replace("\n", "\r\n").encode("utf-8")
    path.write_bytes(raw)
    return raw


def test_import_keeps_crlf_line_ends_and_the_bom(tmp_path: Path, run: Run) -> None:
    root = _copy(tmp_path, "grave-feast")
    deck = root / "deck.yaml"
    before = _crlf_with_bom(deck)
    sheet = tmp_path / "cards.csv"
    assert run("export", root, "--out", sheet).exit_code == 0
    rows = _rows(sheet)
    head = rows[0]
    brains = next(r for r in rows if r[0] == "brains")
    old_flavor = brains[head.index("flavor")]
    brains[head.index("flavor")] = "Big thinkers make the tastiest snacks."
    new = list(next(r for r in rows if r[0] == "vampire"))
    new[0], new[1] = "vampire_two", "Vampire Two"  # a new card: written with the file's ends too
    rows.append(new)
    _write_rows(sheet, rows)
    res = run("import", root, sheet)
    assert res.exit_code == 0, _said(res)
    after = deck.read_bytes()
    assert after.startswith(b"\xef\xbb\xbf")
    lines = after.split(b"\r\n")
    assert b"\n" not in after.replace(b"\r\n", b""), "a line lost its CRLF"
    old_lines = before.split(b"\r\n")[:-1]  # (after the last CRLF: nothing)
    changed = [(a, b) for a, b in zip(old_lines, lines[:len(old_lines)], strict=True) if a != b]
    assert changed == [(f"  flavor: {old_flavor}".encode(),
                        b"  flavor: Big thinkers make the tastiest snacks.")]
    assert lines[len(old_lines)] == b"- id: vampire_two" and lines[-1] == b""
    assert run("import", root, sheet).exit_code == 0  # and again: no byte changes
    assert deck.read_bytes() == after


def test_a_file_without_a_last_line_end_is_not_rewritten_by_an_import_that_changes_nothing(
        tmp_path: Path, run: Run) -> None:
    root = _copy(tmp_path, "grave-feast")
    rares = root / "rares.yaml"
    rares.write_bytes(rares.read_bytes().rstrip(b"\n"))
    before = rares.read_bytes()
    sheet = tmp_path / "cards.csv"
    assert run("export", root, "--out", sheet).exit_code == 0
    res = run("import", root, sheet)
    assert res.exit_code == 0 and "no changes" in res.output, _said(res)
    assert rares.read_bytes() == before


# --- 2. "write it as a list" hints that validate ------------------------------------------------

HOARD = "  effect:\n    - gain_vp: 3\n"


def _one_problem(root: Path) -> str:
    problems = _problems(root)
    assert len(problems) == 1, problems
    return problems[0]


@pytest.mark.parametrize("written, said", [
    ("  effect: gain_vp 3\n", "effect must be a list, got 'gain_vp 3' (an effect is a list of "
     "steps, each a primitive and its argument: write effect: [{gain_vp: 3}], or "
     "'- gain_vp: 3' on a line of its own below 'effect:')"),
    ("  effect: gain_vp\n", "effect must be a list, got 'gain_vp' ('gain_vp' needs its amount; "
     "an effect is a list of steps, each a primitive and its argument: e.g. effect: "
     "[{gain_vp: 1}], or '- gain_vp: 1' on a line of its own below 'effect:')"),
])
def test_an_effect_written_as_text_gets_a_list_of_steps_that_validates(
        tmp_path: Path, written: str, said: str) -> None:
    root = _copy(tmp_path, "day-of-the-dead")
    _edit(root / "characters.yaml", HOARD, written)
    problem = _one_problem(root)
    assert problem.endswith(f"card 'hoard': {said}"), problem
    assert "with a colon" not in problem and "[gain_vp 3]" not in problem
    # both forms the hint gives validate
    flow = re.search(r"effect: (\[\{.*?\}\])", problem)
    item = re.search(r"'(- gain_vp: \d)'", problem)
    assert flow and item
    _edit(root / "characters.yaml", written, f"  effect: {flow.group(1)}\n")
    assert _problems(root) == []
    _edit(root / "characters.yaml", f"  effect: {flow.group(1)}\n",
          f"  effect:\n    {item.group(1)}\n")
    assert _problems(root) == []


@pytest.mark.parametrize("written, said, fixed", [
    ("  effect: [gain_vp 3]\n", "effect step 1 must be a mapping (key: value lines), got "
     "'gain_vp 3' (a step is a primitive, a colon and its argument: write '- gain_vp: 3', or "
     "{gain_vp: 3} inside brackets)", "  effect: [{gain_vp: 3}]\n"),
    ("  effect:\n    - gain_vp\n", "effect step 1 must be a mapping (key: value lines), got "
     "'gain_vp' ('gain_vp' needs its amount; a step is a primitive, a colon and its argument: "
     "e.g. '- gain_vp: 1', or {gain_vp: 1} inside brackets)", "  effect:\n    - gain_vp: 1\n"),
])
def test_a_step_written_as_text_gets_a_step_that_validates(tmp_path: Path, written: str,
                                                           said: str, fixed: str) -> None:
    root = _copy(tmp_path, "day-of-the-dead")
    _edit(root / "characters.yaml", HOARD, written)
    problem = _one_problem(root)
    assert problem.endswith(f"card 'hoard': {said}"), problem
    _edit(root / "characters.yaml", written, fixed)
    assert _problems(root) == []


@pytest.mark.parametrize("text", [
    "Vampire\nZombie\n",
    None,  # the set's own sheet, saved as deck.yaml
])
def test_a_card_file_of_one_plain_value_says_it_must_be_a_list_of_cards(
        tmp_path: Path, run: Run, text: str | None) -> None:
    root = _copy(tmp_path, "grave-feast")
    if text is None:
        sheet = tmp_path / "cards.csv"
        assert run("export", root, "--out", sheet).exit_code == 0
        text = sheet.read_text(encoding="utf-8")
        assert len(text) > 500
    (root / "deck.yaml").write_text(text, encoding="utf-8")
    problem = _one_problem(root)
    assert problem.startswith(f"{root / 'deck.yaml'}:1:1: the file must be a list of cards, "
                              "got '"), problem
    assert "'- id: ...'" in problem
    assert "[Vampire Zombie]" not in problem and "in brackets" not in problem
    assert len(problem) - len(str(root)) < 400, problem
    quoted = re.search(r"got '([^']*)'", problem)
    assert quoted and len(quoted.group(1)) <= 40
    res = run("validate", root)
    assert res.exit_code == 1 and "list of cards" in _said(res)


# --- 3. merge keys name the file they are in ----------------------------------------------------


@pytest.mark.parametrize("file, old, new, where", [
    ("template.yaml", 'colours:\n  ink: "#2b2118"\n',
     'ink: &ink {ink: "#2b2118"}\ncolours:\n  <<: *ink\n', "template.yaml:10:3"),
    ("game.yaml", "params:\n  turns: 6 ", "params:\n  <<: {}\n  turns: 6 ", "game.yaml:16:3"),
])
def test_a_merge_key_outside_a_card_file_names_that_file(tmp_path: Path, run: Run, file: str,
                                                         old: str, new: str, where: str) -> None:
    root = _copy(tmp_path, "day-of-the-dead")
    _edit(root / file, old, new)
    res = run("validate", root)
    said = _said(res)
    assert res.exit_code == 1
    assert re.search(rf"{re.escape(where)}: (params: )?merge keys \(<<\) are not supported in "
                     rf"{re.escape(file)} \(write the keys out\)", said), said
    assert "card files" not in said


def test_a_merge_key_in_a_card_file_still_says_card_files(tmp_path: Path) -> None:
    root = _copy(tmp_path, "day-of-the-dead")
    _edit(root / "characters.yaml", "- id: nemesis\n  name: Nemesis\n",
          "- id: nemesis\n  <<: {name: Nemesis}\n  name: Nemesis\n")
    assert any("merge keys (<<) are not supported in card files" in p for p in _problems(root))


# --- 4. a sheet with no rows for a card file ----------------------------------------------------


@pytest.mark.parametrize("fmt, at", [("csv", "cards.csv:1:11"), ("xlsx", "cards.xlsx:Cards!K1")])
def test_a_sheet_with_no_rows_for_a_card_file_says_so_in_the_sheet(tmp_path: Path, run: Run,
                                                                    fmt: str, at: str) -> None:
    root = _copy(tmp_path, "grave-feast")
    before = {p.name: p.read_bytes() for p in root.glob("*.yaml")}
    sheet = tmp_path / f"cards.{fmt}"
    assert run("export", root, "--out", sheet).exit_code == 0
    if fmt == "csv":
        _write_rows(sheet, [r for r in _rows(sheet) if r[-1] != "rares.yaml"])
    else:
        wb = load_workbook(sheet)
        ws = wb["Cards"]
        for r in range(ws.max_row, 1, -1):
            if ws.cell(r, ws.max_column).value == "rares.yaml":
                ws.delete_rows(r)
        wb.save(sheet)
    res = run("import", root, sheet)
    said = _said(res)
    assert res.exit_code == 1
    lines = said.strip().splitlines()
    assert len(lines) == 2 and lines[-1] == "1 problem; nothing was written", said
    assert lines[0].endswith(
        f"{at}: no row of the sheet has rares.yaml in column 'file', so importing would leave "
        "rares.yaml with no cards (it holds devil_wife, exorcist), and a set refuses an empty "
        f"card file; put its rows back (`boneyard export {root} --out another.{fmt}` writes "
        "them), or, to drop the file, remove it from game.yaml first"), said
    assert "file is empty" not in said and "rares.yaml:1:1" not in said
    assert {p.name: p.read_bytes() for p in root.glob("*.yaml")} == before


# --- 5. an Excel TRUE in a text cell ------------------------------------------------------------


def test_a_true_cell_in_a_name_is_refused_at_its_cell(tmp_path: Path, run: Run) -> None:
    root = _copy(tmp_path, "day-of-the-dead")
    before = (root / "characters.yaml").read_bytes()
    sheet = tmp_path / "cards.xlsx"
    assert run("export", root, "--out", sheet).exit_code == 0
    wb = load_workbook(sheet)
    ws = wb["Characters"]
    cid = ws["A3"].value
    ws["B3"] = True
    wb.save(sheet)
    res = run("import", root, sheet)
    said = _said(res)
    assert res.exit_code == 1
    assert f"cards.xlsx:Characters!B3: card '{cid}': name: the spreadsheet made this cell a " \
           "yes-or-no value (TRUE), not text; format the cell as text and type it again" in said
    assert "True" not in said.replace("(TRUE)", "")
    assert (root / "characters.yaml").read_bytes() == before
