"""``boneyard export`` / ``import`` / ``new``: a set to a spreadsheet and back, and a new set."""

from __future__ import annotations

import csv
import errno
import io
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

import pytest
from boneyard.pipeline.cli import cli
from boneyard.pipeline.load import load_set
from boneyard.pipeline.sheets import SheetError, export_set, flow, import_set
from click.testing import CliRunner
from openpyxl import load_workbook

from boneyard.errors import BoneyardError

ROOT = Path(__file__).resolve().parent.parent
DOTD = ROOT / "cards" / "day-of-the-dead"
GF = ROOT / "cards" / "grave-feast"


def _copy(tmp_path: Path, src: Path) -> Path:
    dst = tmp_path / src.name
    shutil.copytree(src, dst)
    return dst


def _bytes(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.yaml"))}


def _short(lines: list[str], tmp_path: Path) -> list[str]:
    return [line.replace(f"{tmp_path}/", "") for line in lines]


def _rows(path: Path) -> list[list[str]]:
    return list(csv.reader(io.StringIO(path.read_text(encoding="utf-8"))))


def _write_rows(path: Path, rows: list[list[str]]) -> None:
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    path.write_text(buf.getvalue(), encoding="utf-8")


@pytest.mark.parametrize("src", [DOTD, GF], ids=["dotd", "gf"])
@pytest.mark.parametrize("fmt", ["xlsx", "csv"])
def test_round_trip_changes_no_byte_and_keeps_the_hash(tmp_path: Path, src: Path, fmt: str) -> None:
    work = _copy(tmp_path, src)
    before, hash_before = _bytes(work), load_set(work).content_hash
    sheet, rows = export_set(work, tmp_path / f"cards.{fmt}")
    assert rows == (36 if src is DOTD else 8)
    result = import_set(work, sheet)
    assert result.changed == [] and result.card_set.content_hash == hash_before
    assert _bytes(work) == before


def test_xlsx_has_one_row_per_character_with_printed_text_and_flow_data(tmp_path: Path) -> None:
    sheet, _ = export_set(DOTD, tmp_path / "cards.xlsx")
    ws = load_workbook(sheet)["Characters"]
    header = [c.value for c in ws[1]]
    assert header == ["id", "name", "power", "effect text", "effect", "flavor", "art", "backs",
                      "copies", "file"]
    jinx = next(r for r in ws.iter_rows(min_row=2, values_only=True) if r[0] == "jinx")
    assert jinx[2] == 2  # a number cell, not text
    assert jinx[3] == ("The opposing fighter fights from a power of 0 instead of its printed power this fight. "
                       "+1 power this fight.")
    assert jinx[4] == "[{set_power: {who: opponent, amount: 0}}, {power: 1}]"
    assert jinx[9] == "characters.yaml"


def test_an_edit_in_the_sheet_rewrites_only_that_card_keeping_comments(tmp_path: Path) -> None:
    work = _copy(tmp_path, DOTD)
    original = (work / "characters.yaml").read_text(encoding="utf-8")
    sheet, _ = export_set(work, tmp_path / "cards.csv")
    rows = _rows(sheet)
    anger = next(r for r in rows if r[0] == "anger")
    anger[2] = "4"
    anger[4] = "[{power: 4, when: {turn: {ge: 3}}}]"
    _write_rows(sheet, rows)
    result = import_set(work, sheet)
    assert result.edited == ["anger"] and [p.name for p in result.changed] == ["characters.yaml"]
    text = (work / "characters.yaml").read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=../../schema/characters.schema.json\n")
    assert "# --- 3: medium effects ----" in text
    old_lines, new_lines = original.splitlines(), text.splitlines()
    changed = [(a, b) for a, b in zip(old_lines, new_lines, strict=False) if a != b]
    assert len(old_lines) + 1 == len(new_lines)  # one line more: the when: line
    assert changed[0] == ("  power: 3", "  power: 4")
    assert "    - power: 4\n      when: {turn: {ge: 3}}\n  flavor: Never count to ten." in text
    anger_card = load_set(work)
    assert next(c for c in anger_card.characters if c.id == "anger").power == 4
    # and back: the sheet of the edited set imports to no change
    again, _ = export_set(work, tmp_path / "again.xlsx")
    assert import_set(work, again).changed == []


def test_a_new_row_is_added_and_a_missing_row_removed(tmp_path: Path) -> None:
    work = _copy(tmp_path, GF)
    sheet, _ = export_set(work, tmp_path / "cards.csv")
    rows = _rows(sheet)
    header = rows[0]
    zombie = rows.index(next(r for r in rows if r[0] == "zombie"))
    new = dict.fromkeys(header, "")
    new.update(id="ghoul", name="Ghoul", kind="zombie", copies="4", file="deck.yaml")
    rows[zombie] = [new[h] for h in header]
    _write_rows(sheet, rows)
    result = import_set(work, sheet)
    assert result.added == ["ghoul"] and result.removed == ["zombie"]
    text = (work / "deck.yaml").read_text(encoding="utf-8")
    assert "- id: ghoul\n  name: Ghoul\n  kind: zombie\n  copies: 4\n" in text
    assert "id: zombie" not in text
    assert "# The rares (Devil Wife, Exorcist) are in rares.yaml" in text


def test_every_problem_is_located_at_its_cell_and_nothing_is_written(tmp_path: Path) -> None:
    work = _copy(tmp_path, DOTD)
    before = _bytes(work)
    sheet, _ = export_set(work, tmp_path / "cards.csv")
    rows = _rows(sheet)
    by_id = {r[0]: r for r in rows}
    by_id["nemesis"][2] = "five"                 # power, C
    by_id["body_snatcher"][4] = "[{auto_wn: self}]"  # effect data, E
    by_id["banshee"][3] = "edited text"          # the printed text, D
    by_id["hoard"][4] = "[{power: 3"             # not YAML
    _write_rows(sheet, rows)
    with pytest.raises(SheetError) as err:
        import_set(work, sheet)
    lines = _short(err.value.lines, tmp_path)
    name = sheet.name
    text = "\n".join(lines)
    assert f"{name}:2:3: card 'nemesis': power must be a whole number, got 'five'" in text
    assert (f"{name}:3:5: card 'body_snatcher': unknown primitive 'auto_wn' in effect step 1 "
            "(did you mean 'auto_win'?)") in text
    assert f"{name}:4:4: card 'banshee': 'effect text' is made from the card" in text
    assert f"{name}:5:5: card 'hoard': effect: not valid YAML flow" in text
    assert len(lines) == 4
    assert _bytes(work) == before


def test_xlsx_locations_name_the_sheet_and_the_cell(tmp_path: Path) -> None:
    work = _copy(tmp_path, DOTD)
    sheet, _ = export_set(work, tmp_path / "cards.xlsx")
    wb = load_workbook(sheet)
    ws = wb["Characters"]
    ws["C12"] = 12
    wb.save(sheet)
    with pytest.raises(SheetError) as err:
        import_set(work, sheet)
    card = ws["A12"].value
    assert _short(err.value.lines, tmp_path) == [f"{sheet.name}:Characters!C12: card '{card}': power must be at "
                               "most 9, got 12"]


def test_formulas_are_refused_not_evaluated(tmp_path: Path) -> None:
    work = _copy(tmp_path, DOTD)
    sheet, _ = export_set(work, tmp_path / "cards.xlsx")
    wb = load_workbook(sheet)
    wb["Characters"]["C3"] = "=1+2"
    wb["Characters"]["C9"] = "=C3*2"  # every formula in one import, not one a round trip
    wb.save(sheet)
    with pytest.raises(SheetError) as err:
        import_set(work, sheet)
    said = [line for line in err.value.lines if "holds a formula" in line]
    assert [line.split(": ", 1)[0].rsplit("!", 1)[1] for line in said] == ["C3", "C9"], said
    assert "Characters!C3: holds a formula (=1+2); boneyard never evaluates" in str(err.value)
    assert "Characters!C9: holds a formula (=C3*2)" in str(err.value)


@pytest.mark.parametrize("cell, value", [("C5", True), ("C3", False), ("C3", True)])
def test_a_yes_or_no_cell_in_a_number_column_is_refused_even_when_it_equals_the_number(
        tmp_path: Path, cell: str, value: bool) -> None:
    """Hoard's power is 1 and Body Snatcher's 0: TRUE and FALSE must not pass as "unchanged"."""
    work = _copy(tmp_path, DOTD)
    before = _bytes(work)
    sheet, _ = export_set(work, tmp_path / "cards.xlsx")
    wb = load_workbook(sheet)
    wb["Characters"][cell] = value
    wb.save(sheet)
    with pytest.raises(SheetError) as err:
        import_set(work, sheet)
    card = "hoard" if cell == "C5" else "body_snatcher"
    assert len(err.value.lines) == 1
    assert err.value.lines[0].startswith(
        f"{sheet}:Characters!{cell}: card '{card}': power: the spreadsheet made this cell a "
        f"yes-or-no value ({'TRUE' if value else 'FALSE'}), not a number; format the cell as a "
        "number and type it again")
    assert _bytes(work) == before


def test_unreadable_and_oversized_sheets_are_refused(tmp_path: Path) -> None:
    work = _copy(tmp_path, DOTD)
    bomb = tmp_path / "bomb.xlsx"
    with zipfile.ZipFile(bomb, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("xl/big.xml", b"0" * (70 * 1024 * 1024))
    with pytest.raises(SheetError, match="unpacks to over"):
        import_set(work, bomb)
    junk = tmp_path / "junk.xlsx"
    junk.write_text("not a zip")
    with pytest.raises(SheetError, match="not an .xlsx workbook"):
        import_set(work, junk)
    rows = tmp_path / "rows.csv"
    rows.write_text("id\n" + "x\n" * 6000)
    with pytest.raises(SheetError, match="more than 5000 rows"):
        import_set(work, rows)


def test_rows_that_would_overfill_a_card_file_are_blamed_on_the_sheet(tmp_path: Path) -> None:
    """The card file on disk is small: the message names the sheet, the file its rows would
    overfill and the longest cell, and nothing is written."""
    work = _copy(tmp_path, DOTD)
    before = _bytes(work)
    sheet = tmp_path / "cards.csv"
    export_set(work, sheet, "csv")
    rows = _rows(sheet)
    head = rows[0]
    first = rows[1]
    for k in range(300):
        extra = list(first)
        extra[head.index("id")], extra[head.index("name")] = f"extra_{k}", f"Extra {k}"
        extra[head.index("flavor")] = "x" * (3900 if k != 7 else 3990)
        rows.append(extra)
    _write_rows(sheet, rows)
    with pytest.raises(SheetError) as err:
        import_set(work, sheet)
    lines = _short(err.value.lines, tmp_path)
    assert len(lines) == 1, lines
    col = head.index("flavor") + 1
    assert lines[0].startswith("cards.csv: the 336 rows for characters.yaml would make it ")
    assert f"the longest cell is cards.csv:{1 + 36 + 1 + 7}:{col} (3990 characters)" in lines[0]
    assert _bytes(work) == before


def test_header_mistakes_are_named_with_a_fix(tmp_path: Path) -> None:
    work = _copy(tmp_path, DOTD)
    sheet, _ = export_set(work, tmp_path / "cards.csv")
    rows = _rows(sheet)
    rows[0][2] = "powr"
    _write_rows(sheet, rows)
    with pytest.raises(SheetError) as err:
        import_set(work, sheet)
    assert _short(err.value.lines, tmp_path) == [f"{sheet.name}:1:3: unknown column 'powr' (did you mean 'power'?)"]


def test_headings_in_another_case_are_the_columns_meant(tmp_path: Path) -> None:
    """A designer's "ID" and "Power" are the id and power columns; the import changes nothing."""
    work = _copy(tmp_path, DOTD)
    before = _bytes(work)
    sheet, _ = export_set(work, tmp_path / "cards.csv")
    rows = _rows(sheet)
    rows[0] = [h.upper() if h in ("id", "power") else h.title() if h == "name" else h
               for h in rows[0]]
    _write_rows(sheet, rows)
    result = import_set(work, sheet)
    assert not result.changed and _bytes(work) == before
    rows[0][1] = "name"  # "Name" and "name": one column written twice
    rows[0][3] = "Name"
    _write_rows(sheet, rows)
    with pytest.raises(SheetError) as err:
        import_set(work, sheet)
    assert _short(err.value.lines, tmp_path)[0] == \
        f"{sheet.name}:1:4: column 'name' is also column B (keep one of them)"


def test_flow_cells_read_back_as_the_same_data() -> None:
    import yaml

    for value in ([{"power": {"amount": -2, "who": "opponent"}}], {"a": "yes", "b": "x: y"},
                  ["1", 1, True, None, "it's"]):
        assert yaml.safe_load(flow(value)) == value


def test_cli_export_import_and_new(tmp_path: Path) -> None:
    runner = CliRunner()
    work = _copy(tmp_path, DOTD)
    out = tmp_path / "c.xlsx"
    res = runner.invoke(cli, ["export", str(work), "--out", str(out)])
    assert res.exit_code == 0, res.output
    res = runner.invoke(cli, ["import", str(work), str(out)])
    assert res.exit_code == 0 and "no changes" in res.output
    made = tmp_path / "sets"
    made.mkdir()
    res = runner.invoke(cli, ["new", "spooky-dead", "--like", "day-of-the-dead", "--dir", str(made)])
    assert res.exit_code == 0, res.output
    new = made / "spooky-dead"
    game = (new / "game.yaml").read_text(encoding="utf-8")
    assert 'name: "Spooky Dead"' in game
    line = (new / "characters.yaml").read_text(encoding="utf-8").splitlines()[0]
    target = line.split("$schema=", 1)[1]
    assert (new / target).resolve() == (ROOT / "schema" / "characters.schema.json").resolve()
    card_set = load_set(new)
    assert card_set.name == "Spooky Dead" and len(card_set.characters) == 36
    res = runner.invoke(cli, ["new", "spooky-dead", "--like", "grave-feast", "--dir", str(made)])
    assert getattr(res.exception, "exit_code", None) == 2  # main() prints it and exits 2
    assert "never overwrites" in str(res.exception)
    assert "Spooky Dead" in (new / "game.yaml").read_text(encoding="utf-8")


def _heading(path: Path) -> str:
    """A file's heading comment (after its schema line), its lines joined as one text."""
    lines = path.read_text(encoding="utf-8").splitlines()[1:]
    end = next((i for i, line in enumerate(lines) if not line.startswith("#")), len(lines))
    return " ".join(line.lstrip("# ") for line in lines[:end])


@pytest.mark.parametrize("like, source", [("day-of-the-dead", "Day of the Dead"),
                                          ("grave-feast", "Grave Feast")])
def test_a_new_sets_headings_describe_it_not_the_set_it_copied(tmp_path: Path, like: str,
                                                                source: str) -> None:
    """A new set kept "The 36 characters of Day of the Dead", "(2012)" and the bundled deck's
    tuning figures at the top of its files, true of the bundled set only."""
    new = tmp_path / "spooky"
    res = CliRunner().invoke(cli, ["new", str(new), "--like", like])
    assert res.exit_code == 0, res.output
    assert load_set(new).name == "Spooky"  # still a valid set
    files = sorted(new.glob("*.yaml"))
    assert len(files) >= 3  # game.yaml, the template and at least one card file
    for path in (f for f in files if f.name != "template.yaml"):
        heading = _heading(path)
        assert heading.startswith("Spooky: " if path.name == "game.yaml" else "The cards of Spooky in ")
        assert f"started from {source} with `boneyard new`" in heading
        said = heading.replace(f"started from {source}", "").replace(f"the {source} rules", "")
        assert source not in said, (path.name, heading)  # only where it started, and its rules
        assert not any(word.isdigit() for word in heading.split()), heading  # no counts or figures
    assert _heading(new / "template.yaml").startswith("How Spooky cards look.")  # its notes stay
    game = (new / "game.yaml").read_text(encoding="utf-8")
    assert "How `boneyard build` playtests this set" in game  # the comments below stay as they are
    assert (new / "game.yaml").read_text(encoding="utf-8").splitlines()[0].startswith(
        "# yaml-language-server: $schema=")


@pytest.mark.parametrize("fmt", ["xlsx", "csv"])
def test_text_that_looks_like_a_formula_stays_text(tmp_path: Path, fmt: str) -> None:
    work = _copy(tmp_path, DOTD)
    path = work / "characters.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(
        "flavor: Never count to ten.", 'flavor: "=HYPERLINK(1)"'), encoding="utf-8")
    before = _bytes(work)
    sheet, _ = export_set(work, tmp_path / f"cards.{fmt}")
    if fmt == "csv":
        assert "'=HYPERLINK(1)" in sheet.read_text(encoding="utf-8")
    else:
        cell = next(c for row in load_workbook(sheet)["Characters"].iter_rows() for c in row
                    if c.value == "=HYPERLINK(1)")
        assert cell.data_type == "s"
    assert import_set(work, sheet).changed == [] and _bytes(work) == before


# --- bad input: each problem once, at its place, and no file half changed -------------------


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_during_export_is_one_message_without_noise(tmp_path: Path) -> None:
    """The workbook is built in memory: a failed write leaves no half-closed zip to complain."""
    proc = subprocess.run([sys.executable, "-c", "from boneyard.pipeline.cli import main; main()",
                           "export", str(DOTD), "--out", "/dev/full", "--format", "xlsx"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 1
    assert proc.stderr.strip() == ("/dev/full: No space left on device (free some space, or "
                                   "write elsewhere)")


def test_an_import_that_cannot_write_one_file_changes_none(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    work = _copy(tmp_path, GF)
    before = _bytes(work)
    sheet, _ = export_set(work, tmp_path / "cards.csv")
    rows = _rows(sheet)
    for row in rows:
        if row[0] in ("blood", "devil_wife"):  # one card in deck.yaml, one in rares.yaml
            row[8] += " Edited."
    _write_rows(sheet, rows)
    real = os.replace

    def refuse_rares(src: object, dst: object) -> None:
        if Path(str(dst)).name == "rares.yaml" and str(src).endswith(".tmp"):
            raise PermissionError(1, "Operation not permitted")
        real(src, dst)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "replace", refuse_rares)
    res = CliRunner().invoke(cli, ["import", str(work), str(sheet)])
    assert isinstance(res.exception, BoneyardError)
    assert _short([str(res.exception)], tmp_path) == [
        "grave-feast/rares.yaml: cannot write: Operation not permitted; put back the old "
        "grave-feast/deck.yaml, so no card file was changed"]
    assert _bytes(work) == before
    assert sorted(p.name for p in work.iterdir()) == sorted(p.name for p in GF.iterdir())
    monkeypatch.setattr(os, "replace", real)
    assert import_set(work, sheet).changed == [work / "deck.yaml", work / "rares.yaml"]


def test_an_import_that_cannot_stage_a_file_changes_none(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    work = _copy(tmp_path, GF)
    before = _bytes(work)
    sheet, _ = export_set(work, tmp_path / "cards.csv")
    rows = _rows(sheet)
    for row in rows:
        if row[0] in ("blood", "devil_wife"):
            row[8] += " Edited."
    _write_rows(sheet, rows)
    real = tempfile.mkstemp

    def full_for_rares(*args: Any, **kwargs: Any) -> tuple[int, str]:
        if kwargs.get("prefix", "").startswith(".rares.yaml."):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(*args, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", full_for_rares)
    with pytest.raises(BoneyardError, match="rares.yaml: cannot write: No space left on device; "
                                            "no card file was changed"):
        import_set(work, sheet)
    assert _bytes(work) == before
    assert sorted(p.name for p in work.iterdir()) == sorted(p.name for p in GF.iterdir())


def test_an_emptied_required_cell_is_reported_at_that_cell(tmp_path: Path) -> None:
    work = _copy(tmp_path, DOTD)
    before = _bytes(work)
    sheet, _ = export_set(work, tmp_path / "cards.xlsx")
    wb = load_workbook(sheet)
    ws = wb["Characters"]
    ws["C2"] = None
    ws["B3"] = None
    ws["C3"] = None
    first, second = ws["A2"].value, ws["A3"].value
    wb.save(sheet)
    with pytest.raises(SheetError) as err:
        import_set(work, sheet)
    assert _short(err.value.lines, tmp_path) == [
        f"cards.xlsx:Characters!C2: card '{first}': missing required key 'power' (fill in this "
        "cell)",
        f"cards.xlsx:Characters!B3: card '{second}': missing required key 'name' (fill in this "
        "cell)",
        f"cards.xlsx:Characters!C3: card '{second}': missing required key 'power' (fill in this "
        "cell)"]
    assert _bytes(work) == before


@pytest.mark.parametrize(("value", "why"), [
    (None, "a number with no value (how infinity or NaN is saved)"),  # what openpyxl writes
    ("inf", "'inf', which is not a finite number"),
    ("1e999", "'1e999', which is not a finite number"),
])
def test_a_number_cell_holding_infinity_is_refused_at_its_cell(tmp_path: Path, value: str | None,
                                                               why: str) -> None:
    work = _copy(tmp_path, DOTD)
    before = _bytes(work)
    sheet, _ = export_set(work, tmp_path / "cards.xlsx")
    wb = load_workbook(sheet)
    wb["Characters"]["C4"] = float("inf")
    wb.save(sheet)
    if value is not None:  # a value another program might write
        _replace_in_zip(sheet, "xl/worksheets/sheet1.xml", b'<c r="C4" s="2" t="n"><v /></c>',
                        f'<c r="C4" s="2" t="n"><v>{value}</v></c>'.encode())
    with pytest.raises(SheetError) as err:
        import_set(work, sheet)
    assert _short(err.value.lines, tmp_path) == [
        f"cards.xlsx:Characters!C4: the cell holds {why}; type the number the card needs"]
    assert _bytes(work) == before


def _replace_in_zip(path: Path, part: str, old: bytes, new: bytes) -> None:
    with zipfile.ZipFile(path) as zin:
        parts = [(info, zin.read(info.filename)) for info in zin.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
        for info, data in parts:
            if info.filename == part:
                assert old in data
                data = data.replace(old, new, 1)
            zout.writestr(info, data)


def _refused(tmp_path: Path, name: str, text: str, into: Path = DOTD) -> list[str]:
    """The lines of the SheetError that importing a sheet ``name`` holding ``text`` into the
    set ``into`` raises."""
    sheet = tmp_path / name
    sheet.write_text(text, encoding="utf-8")
    with pytest.raises(SheetError) as err:
        import_set(into, sheet)
    return _short(err.value.lines, tmp_path)


def test_a_sheet_of_unknown_format_says_how_to_name_it(tmp_path: Path) -> None:
    assert _refused(tmp_path, "cards.txt", "id,name\n") == [
        "cards.txt: cannot tell the format from the name; import reads .xlsx and .csv files "
        "(rename it cards.xlsx or cards.csv, whichever it is)"]


def test_csv_rows_with_too_few_or_too_many_cells_are_refused_at_their_line(tmp_path: Path) -> None:
    """Values shifted into other columns would give misleading errors: the row is named."""
    work = _copy(tmp_path, DOTD)
    before = _bytes(work)
    lines = _refused(tmp_path, "cards.csv", 'id,name,power\n'
                     'nemesis,Nemesis,0\n'
                     'hoard,Hoard,1,extra\n'       # line 3: one cell too many
                     'banshee,0\n'                 # line 4: one too few
                     'jinx,"Jinx,2\n'              # line 5: a quote left open ...
                     'anger,Anger,3\n'
                     'party,Party",4,x\n'          # ... closed two lines on
                     '\n'                          # a blank line is a blank row
                     'pooper,Pooper,5\n', into=work)
    hint = ("(a comma missing or extra, or a quote not closed? every row needs one cell per "
            "column, empty ones too)")
    assert lines == [
        f"cards.csv:3:1: this row has 4 cells, the header has 3 {hint}",
        f"cards.csv:4:1: this row has 2 cells, the header has 3 {hint}",
        "cards.csv:5:1: this row has 4 cells, the header has 3 (the row runs on to line 7: is a "
        "quote not closed? each row is one line unless a quoted cell holds a line break)"]
    assert _bytes(work) == before


def test_a_quote_never_closed_is_reported_where_it_opens(tmp_path: Path) -> None:
    assert _refused(tmp_path, "cards.csv", 'id,name,power\nnemesis,"Nem,0\nhoard,Hoard,1\n') == [
        "cards.csv:2:1: a quote opened on this row is never closed, so the rest of the file "
        "reads as one cell (close the quote, or remove it)"]


def test_a_header_only_sheet_says_it_has_no_card_rows(tmp_path: Path) -> None:
    work = _copy(tmp_path, DOTD)
    before = _bytes(work)
    sheet, _ = export_set(work, tmp_path / "cards.csv")
    header = sheet.read_text(encoding="utf-8").splitlines()[0]
    assert _refused(tmp_path, "cards.csv", header + "\n,,,\n", into=work) == [
        "cards.csv: the sheet has its header row but no card rows; importing it would remove "
        "every card (fill in the rows, or export the set to start from its cards)"]
    assert _bytes(work) == before


@pytest.mark.parametrize(("sep", "word"), [(";", "semicolon"), ("\t", "tab")])
def test_a_semicolon_or_tab_separated_csv_is_read_as_such(tmp_path: Path, sep: str,
                                                          word: str) -> None:
    """Excel in a locale with decimal commas saves CSV with semicolons; its "Text (Tab
    delimited)" saves tabs (one message a line, each about a comma, before)."""
    work = _copy(tmp_path, DOTD)
    sheet, _ = export_set(work, tmp_path / "cards.csv")
    rows = _rows(sheet)
    semi = tmp_path / "semi.csv"
    with semi.open("w", encoding="utf-8-sig", newline="") as f:
        csv.writer(f, delimiter=sep, lineterminator="\r\n").writerows(rows)
    assert import_set(work, semi, dry_run=True).changed == []
    rows[1][2] = "7"
    with semi.open("w", encoding="utf-8", newline="") as f:
        csv.writer(f, delimiter=sep, lineterminator="\r\n").writerows(rows)
    result = import_set(work, semi)
    assert result.edited == [rows[1][0]] and result.changed == [work / "characters.yaml"]
    bad = tmp_path / "bad.csv"
    bad.write_text(f"{sep.join(rows[0])}\n{sep.join(rows[1])}{sep}extra\n", encoding="utf-8")
    with pytest.raises(SheetError) as err:
        import_set(work, bad)
    assert f"(a {word} missing or extra" in err.value.lines[0]


@pytest.mark.parametrize("sep", [",", ";"])
def test_excels_sep_line_names_the_separator_and_is_not_the_header(tmp_path: Path,
                                                                   sep: str) -> None:
    """Excel writes (and reads) a first line "sep=;" to name the separator: it was taken for
    the header, with 20 messages, one a row; line numbers still count it."""
    work = _copy(tmp_path, DOTD)
    sheet, _ = export_set(work, tmp_path / "cards.csv")
    rows = _rows(sheet)
    hinted = tmp_path / "hinted.csv"
    buf = io.StringIO()
    csv.writer(buf, delimiter=sep, lineterminator="\r\n").writerows(rows)
    hinted.write_text(f"sep={sep}\r\n" + buf.getvalue(), encoding="utf-8", newline="")
    assert import_set(work, hinted, dry_run=True).changed == []
    rows[3][2] = "eleven"
    buf = io.StringIO()
    csv.writer(buf, delimiter=sep, lineterminator="\n").writerows(rows)
    hinted.write_text(f"sep={sep}\n" + buf.getvalue(), encoding="utf-8")
    with pytest.raises(SheetError) as err:
        import_set(work, hinted)
    assert len(err.value.lines) == 1 and err.value.lines[0].startswith(f"{hinted}:5:3:"), \
        err.value.lines


def test_a_workbook_named_csv_or_damaged_says_what_it_is_and_what_to_do(tmp_path: Path) -> None:
    work = _copy(tmp_path, DOTD)
    book, _ = export_set(work, tmp_path / "cards.xlsx")
    named = tmp_path / "cards.csv"
    named.write_bytes(book.read_bytes())
    with pytest.raises(SheetError) as err:
        import_set(work, named)
    assert _short(err.value.lines, tmp_path) == [  # it said "not UTF-8 text (save it as UTF-8)"
        "cards.csv: this is an .xlsx workbook, not CSV text (name it .xlsx, or save it from the "
        "spreadsheet as CSV)"]
    other = tmp_path / "other.xlsx"
    with zipfile.ZipFile(other, "w") as z:
        z.writestr("foo.txt", "not a workbook")
    with pytest.raises(SheetError) as err:
        import_set(work, other)
    (line,) = _short(err.value.lines, tmp_path)
    assert line.startswith("other.xlsx: a damaged workbook or not an Excel .xlsx file (")
    assert line.endswith("open it in the spreadsheet program and save it again as .xlsx, or "
                         "export CSV")


@pytest.mark.parametrize(("args", "message"), [
    (["--out", "x.pdf"], "x.pdf: a sheet is .xlsx or .csv, not .pdf (name it x.xlsx)"),
    (["--out", "x.csv", "--format", "xlsx"],
     "x.csv ends in .csv but --format is xlsx (name it x.xlsx, or drop --format)"),
    (["--out", "cards"], "cards has no suffix to tell the format (name it cards.xlsx or "
                         "cards.csv, or give --format)"),
])
def test_export_refuses_an_out_name_that_says_another_format(tmp_path: Path, args: list[str],
                                                            message: str,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(cli, ["export", str(DOTD), *args])
    assert res.exit_code == 2
    assert f"Invalid value for '--out': {message}" in res.output
    assert list(tmp_path.iterdir()) == []


def test_untrusted_sheets_are_parsed_through_defusedxml():
    """A .xlsx is zipped XML from anyone: openpyxl hardens its parser only when defusedxml is in."""
    import openpyxl.xml

    assert openpyxl.xml.DEFUSEDXML


def test_new_takes_a_path_and_a_folder_it_cannot_make_is_one_message(tmp_path: Path) -> None:
    """NAME may be a path, as for mkdir; a place that cannot be written is named as the set's
    folder, never as the temporary folder it was being made in, and nothing is left behind."""
    runner = CliRunner()
    res = runner.invoke(cli, ["new", str(tmp_path / "my set"), "--like", "grave-feast"])
    assert res.exit_code == 0, res.output
    assert 'name: "My Set"' in (tmp_path / "my set" / "game.yaml").read_text(encoding="utf-8")
    assert f"boneyard validate '{tmp_path / 'my set'}'" in res.output  # quoted, to paste
    res = runner.invoke(cli, ["new", str(tmp_path / "sét"), "--like", "grave-feast"])
    assert "plain letters a-z and A-Z (no accents" in str(res.exception), res.output  # é is a letter
    res = runner.invoke(cli, ["new", str(tmp_path / "b"), "--like", "grave-feast",
                              "--dir", str(tmp_path)])
    assert getattr(res.exception, "exit_code", None) == 2 and "not both" in str(res.exception)
    blocked = tmp_path / "blocked"
    blocked.mkdir()
    real_mkdir = Path.mkdir

    def refuse(self: Path, *args: object, **kwargs: object) -> None:
        if self.parent == blocked:
            raise PermissionError(13, "Permission denied", str(self))
        real_mkdir(self, *args, **kwargs)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Path, "mkdir", refuse)
        res = runner.invoke(cli, ["new", "spooky", "--like", "grave-feast", "--dir", str(blocked)])
    assert getattr(res.exception, "exit_code", None) == 2
    assert str(res.exception) == (f"{blocked / 'spooky'}: cannot make the set folder: "
                                  "Permission denied (choose another folder; nothing was made)")
    assert list(blocked.iterdir()) == []


def test_new_makes_a_missing_dir_and_a_failed_copy_leaves_none(tmp_path: Path) -> None:
    """`new spooky --dir sets/` stopped at "sets: no such folder", as the docs' own example did
    where sets/ did not exist yet: it is made, as `mkdir -p` would; a copy that fails there
    takes the folders it made with it."""
    runner = CliRunner()
    res = runner.invoke(cli, ["new", "spooky", "--like", "grave-feast", "--dir", str(tmp_path / "sets" / "x")])
    assert res.exit_code == 0, res.output
    assert load_set(tmp_path / "sets" / "x" / "spooky").name == "Spooky"
    real_mkdir = Path.mkdir

    def refuse(self: Path, *args: object, **kwargs: object) -> None:
        if self.parent == tmp_path / "a" / "b":  # the copy, made in the folders made for it
            raise PermissionError(13, "Permission denied", str(self))
        real_mkdir(self, *args, **kwargs)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(Path, "mkdir", refuse)
        res = runner.invoke(cli, ["new", "spooky", "--like", "grave-feast", "--dir", str(tmp_path / "a" / "b")])
    assert getattr(res.exception, "exit_code", None) == 2 and "nothing was made" in str(res.exception)
    assert not (tmp_path / "a").exists()
    (tmp_path / "file").write_text("x", encoding="utf-8")
    res = runner.invoke(cli, ["new", "spooky", "--like", "grave-feast", "--dir", str(tmp_path / "file" / "x")])
    assert getattr(res.exception, "exit_code", None) == 2 and "nothing was made" in str(res.exception)
    assert (tmp_path / "file").read_text(encoding="utf-8") == "x"


def test_new_names_its_copy_as_a_title_and_points_past_a_bundled_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A copy named like a bundled set: `boneyard validate day-of-the-dead`, as "next:" said,
    checked the bundled set, not the copy; and its name came out "Day Of The Dead"."""
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(cli, ["new", "day-of-the-dead", "--like", "day-of-the-dead"])
    assert res.exit_code == 0, res.output
    assert "next: boneyard validate ./day-of-the-dead " in res.output
    assert load_set(tmp_path / "day-of-the-dead").name == "Day of the Dead"
    res = CliRunner().invoke(cli, ["new", "the-end-of-days", "--like", "grave-feast"])
    assert "next: boneyard validate the-end-of-days " in res.output  # no bundled set of that name
    assert load_set(tmp_path / "the-end-of-days").name == "The End of Days"


def test_merged_cells_are_refused_at_their_range_not_read_as_empty(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from boneyard.pipeline.cli import main

    work = _copy(tmp_path, DOTD)
    before = _bytes(work)
    sheet, _ = export_set(work, tmp_path / "cards.xlsx")
    wb = load_workbook(sheet)
    wb["Characters"].merge_cells("F5:F9")
    wb["Characters"].merge_cells("B2:C3")
    wb.save(sheet)
    with pytest.raises(SystemExit) as done:
        main(["import", str(work), str(sheet)])
    err = capsys.readouterr().err
    assert done.value.code == 1 and "Traceback" not in err
    merged = "these cells are merged, so all but the first read as empty (unmerge them and fill " \
             "in each cell: one value a cell)"
    assert _short(err.splitlines(), tmp_path) == [
        f"cards.xlsx:Characters!B2:C3: {merged}", f"cards.xlsx:Characters!F5:F9: {merged}",
        "2 problems; nothing was written"]
    assert _bytes(work) == before


@pytest.mark.parametrize("where", ["../../elsewhere.yaml", "/tmp/cards.yaml", "game.yaml"])
def test_a_row_naming_no_card_file_is_one_message_not_also_a_missing_card(
        tmp_path: Path, where: str) -> None:
    work = _copy(tmp_path, DOTD)
    before = _bytes(work)
    sheet, _ = export_set(work, tmp_path / "cards.csv")
    rows = _rows(sheet)
    card = rows[1][0]
    rows[1][rows[0].index("file")] = where
    _write_rows(sheet, rows)
    with pytest.raises(SheetError) as err:
        import_set(work, sheet)
    assert _short(err.value.lines, tmp_path) == [
        f"cards.csv:2:10: card '{card}': '{where}' is not a card file of the set (one of: "
        "characters.yaml)"]  # the card stays where it is: no 'every back has 35 cards'
    assert _bytes(work) == before


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
@pytest.mark.parametrize("mistake", ["duplicate", "no id"])
def test_a_row_refused_for_its_id_is_one_message_not_also_the_deck_count(
        tmp_path: Path, fmt: str, mistake: str) -> None:
    work = _copy(tmp_path, DOTD)
    before = _bytes(work)
    sheet, _ = export_set(work, tmp_path / f"cards.{fmt}")
    if fmt == "csv":
        rows = _rows(sheet)
        first = rows[1][0]
        rows[2][0] = first if mistake == "duplicate" else ""
        _write_rows(sheet, rows)
    else:
        wb = load_workbook(sheet)
        first = wb["Characters"]["A2"].value
        wb["Characters"]["A3"] = first if mistake == "duplicate" else None
        wb.save(sheet)
    with pytest.raises(SheetError) as err:
        import_set(work, sheet)
    at = "cards.csv:3:1" if fmt == "csv" else "cards.xlsx:Characters!A3"
    said = (f"id '{first}' is also {'on line' if fmt == 'csv' else 'in row'} 2 (give each card "
            "its own id)" if mistake == "duplicate"
            else "this row has no id (give the card an id, or clear the row)")
    assert _short(err.value.lines, tmp_path) == [f"{at}: {said}"]  # no 'every back has 35 cards'
    assert _bytes(work) == before


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
def test_a_header_row_pushed_down_is_one_message_not_one_a_column(tmp_path: Path,
                                                                    fmt: str) -> None:
    """A blank row above the header said "column A has values but no heading (name it, or
    delete the column)" for every column (xlsx), or "this row has 10 cells, the header has 0"
    for every row (csv)."""
    work = _copy(tmp_path, DOTD)
    sheet, _ = export_set(work, tmp_path / f"cards.{fmt}")
    if fmt == "csv":
        sheet.write_text("\n" + sheet.read_text(encoding="utf-8"), encoding="utf-8")
    else:
        wb = load_workbook(sheet)
        wb["Characters"].insert_rows(1)
        wb.save(sheet)
    with pytest.raises(SheetError) as err:
        import_set(work, sheet)
    at = "cards.csv:1:1" if fmt == "csv" else "cards.xlsx:Characters!A1"
    row = "line 2" if fmt == "csv" else "row 2"
    assert _short(err.value.lines, tmp_path) == [
        f"{at}: the header row is {row}, it must be the first (delete the empty rows above it)"]


def test_a_back_the_sheet_names_wrong_is_one_message_not_also_the_deck_count(
        tmp_path: Path) -> None:
    work = _copy(tmp_path, DOTD)
    sheet, _ = export_set(work, tmp_path / "cards.csv")
    rows = _rows(sheet)
    rows[2][rows[0].index("backs")] = "purple"
    _write_rows(sheet, rows)
    with pytest.raises(SheetError) as err:
        import_set(work, sheet)
    (line,) = _short(err.value.lines, tmp_path)  # no "every back has 35 cards" in game.yaml
    assert line.startswith("cards.csv:3:8: card 'body_snatcher': backs") and "'purple'" in line


def test_a_name_used_twice_points_at_the_other_row_not_a_card_file_line(tmp_path: Path) -> None:
    work = _copy(tmp_path, DOTD)
    sheet, _ = export_set(work, tmp_path / "cards.xlsx")
    wb = load_workbook(sheet)
    ws = wb["Characters"]
    ws["B4"] = ws["B3"].value  # the third card named as the second
    wb.save(sheet)
    with pytest.raises(SheetError) as err:
        import_set(work, sheet)
    assert _short(err.value.lines, tmp_path) == [
        f"cards.xlsx:Characters!B4: card '{ws['A4'].value}': name '{ws['B3'].value}' is already "
        "used at row 3 (two printed cards with one name confuse players)"]


def test_a_sheet_not_read_and_a_column_left_out_are_said(tmp_path: Path) -> None:
    """A copy of the card sheet edited by mistake, or a deleted column, changed nothing without
    a word: the import says what it read past."""
    work = _copy(tmp_path, DOTD)
    sheet, _ = export_set(work, tmp_path / "cards.xlsx")
    wb = load_workbook(sheet)
    copy = wb.copy_worksheet(wb["Characters"])
    copy["C2"] = 9
    wb["Characters"].delete_cols(3)  # power
    wb.save(sheet)
    result = import_set(work, sheet, dry_run=True)
    assert result.changed == []
    assert _short(result.notes, tmp_path) == [
        f"cards.xlsx: only the sheet 'Characters' is read; not '{copy.title}'",
        "cards.xlsx: no column 'power': every card keeps its value from the card files"]
    r = CliRunner().invoke(cli, ["import", str(work), str(sheet)])
    assert r.exit_code == 0 and "note: " in r.output, r.output


def test_a_value_far_outside_the_table_is_refused_and_hidden_rows_are_said(tmp_path: Path) -> None:
    """A value past the columns and rows read was dropped without a word (a stray cell at CZ3,
    or XFD1048576); edits in hidden rows and columns were applied unseen."""
    work = _copy(tmp_path, DOTD)
    sheet, _ = export_set(work, tmp_path / "cards.xlsx")
    wb = load_workbook(sheet)
    ws = wb["Characters"]
    ws.row_dimensions[5].hidden = True
    ws.column_dimensions["C"].hidden = True
    wb.save(sheet)
    result = import_set(work, sheet, dry_run=True)
    assert _short(result.notes, tmp_path) == [
        "cards.xlsx:Characters: row(s) 5 and column(s) C are hidden; they are read like the others "
        "(unhide them to see every value that is imported)"]
    ws["CZ3"], ws["XFD1048576"] = "stray", "x"
    wb.save(sheet)
    with pytest.raises(SheetError) as err:
        import_set(work, sheet)
    assert _short(err.value.lines, tmp_path) == [
        "cards.xlsx:Characters!CZ3: a value far outside the card table (and 1 more past it): "
        "boneyard reads columns A-BL and rows 1-5000, so it would be dropped unseen; delete it, "
        "or move it into the table"]


def test_a_csv_byte_that_is_not_utf8_is_located_at_its_line_and_column(tmp_path: Path) -> None:
    sheet = tmp_path / "cards.csv"
    sheet.write_bytes("id,name,power\nnemesis,Némesis,0\n".encode("latin-1"))
    with pytest.raises(SheetError) as err:
        import_set(DOTD, sheet)
    assert _short(err.value.lines, tmp_path) == [
        "cards.csv:2:10: not UTF-8 text (save the CSV as UTF-8)"]


def test_a_whole_number_written_with_a_decimal_point_reads_alike_in_csv_and_xlsx(
        tmp_path: Path) -> None:
    """3.0 in an xlsx cell was 3, "3.0" in a CSV "must be a whole number"."""
    work = _copy(tmp_path, DOTD)
    sheet, _ = export_set(work, tmp_path / "cards.csv")
    rows = _rows(sheet)
    col = rows[0].index("power")
    rows[1][col] = f"{rows[1][col]}.0"
    _write_rows(sheet, rows)
    assert import_set(work, sheet, dry_run=True).changed == []
    rows[1][col] = "3.5"
    _write_rows(sheet, rows)
    with pytest.raises(SheetError, match="power must be a whole number, got '3.5'"):
        import_set(work, sheet)
    rows[1][col] = "=1+2"  # a formula typed into a CSV: said as the xlsx formula is
    _write_rows(sheet, rows)
    with pytest.raises(SheetError, match=r"got '=1\+2' \(a formula is never evaluated: type the "
                       r"number it gives\)"):
        import_set(work, sheet)


def test_export_into_a_path_under_a_file_names_the_file(tmp_path: Path) -> None:
    (tmp_path / "cards.csv").write_text("x\n")
    r = CliRunner().invoke(cli, ["export", "day-of-the-dead", "--out",
                                 str(tmp_path / "cards.csv" / "a.xlsx")])
    assert r.exit_code == 2 and "cards.csv is a file, not a folder" in r.output, r.output


def test_a_cell_the_spreadsheet_made_a_date_is_refused_not_imported_as_its_text(
        tmp_path: Path) -> None:
    """A name cell auto-formatted as a date became ``name: 2024-01-01 00:00:00``."""
    import datetime

    work = _copy(tmp_path, DOTD)
    sheet, _ = export_set(work, tmp_path / "cards.xlsx")
    wb = load_workbook(sheet)
    wb["Characters"]["B2"] = datetime.datetime(2024, 1, 1)
    wb.save(sheet)
    with pytest.raises(SheetError) as err:
        import_set(work, sheet)
    (line,) = _short(err.value.lines, tmp_path)
    assert line.startswith("cards.xlsx:Characters!B2: card 'nemesis': name: the spreadsheet "
                           "turned this cell into a date or time (2024-01-01 00:00:00); format "
                           "the cell as text and type it again"), line


def test_import_of_a_sheet_that_is_not_there_is_a_usage_error(tmp_path: Path) -> None:
    r = CliRunner().invoke(cli, ["import", "day-of-the-dead", str(tmp_path / "nope.xlsx")])
    assert r.exit_code == 2 and "no sheet file" in r.output


def test_an_invisible_character_in_a_cell_is_refused_at_the_cell(tmp_path: Path) -> None:
    """A zero-width space pasted into a name cell was imported ("edited: hoard") into a set that
    then failed validate on an empty box where the character prints."""
    work = _copy(tmp_path, DOTD)
    sheet, _ = export_set(work, tmp_path / "cards.csv")
    with sheet.open(newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    at = next(i for i, r in enumerate(rows) if r[0] == "hoard")
    rows[at][1] = "Hoard\u200b"
    with sheet.open("w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(rows)
    before = (work / "characters.yaml").read_bytes()
    with pytest.raises(SheetError) as err:
        import_set(work, sheet)
    (line,) = _short(err.value.lines, tmp_path)
    assert line == (f"cards.csv:{at + 1}:2: card 'hoard': name: the text holds U+200B ZERO WIDTH "
                    "SPACE at character 6, an invisible character: it prints as nothing or a "
                    "box, and makes two texts that look the same differ (delete it)"), line
    assert (work / "characters.yaml").read_bytes() == before


@pytest.mark.parametrize("name, said", [
    ("con", "'con': Windows reserves this name for a device"),
    ("nul.sets", "'nul.sets': Windows reserves this name for a device"),
    ("my set ", "'my set ': a set's name cannot end in a space or a '.', which Windows drops "
                "from folder names (write 'my set')"),
    ("set.", "cannot end in a space or a '.'"),
])
def test_new_refuses_a_name_windows_cannot_keep(tmp_path: Path, name: str, said: str) -> None:
    """The name rule keeps set folders portable (no accents), yet ``con`` and ``my set `` were
    made: folders Windows cannot hold, nor a zip for a print shop unpack."""
    res = CliRunner().invoke(cli, ["new", name, "--like", "grave-feast", "--dir", str(tmp_path)])
    assert getattr(res.exception, "exit_code", None) == 2, res.output
    assert said in str(res.exception), res.exception
    assert list(tmp_path.iterdir()) == []
    made = CliRunner().invoke(cli, ["new", "console", "--like", "grave-feast", "--dir", str(tmp_path)])
    assert made.exit_code == 0, made.output  # a reserved word inside a longer name is fine


def test_new_refuses_to_make_the_copy_inside_the_set_it_copies(tmp_path: Path) -> None:
    base = _copy(tmp_path, DOTD)
    res = CliRunner().invoke(cli, ["new", str(base / "inner"), "--like", str(base)])
    assert getattr(res.exception, "exit_code", None) == 2, res.output
    assert "is inside the set it copies" in str(res.exception)
    assert not (base / "inner").exists()


@pytest.mark.parametrize("fmt", ["xlsx", "csv"])
def test_export_keeps_a_sheet_holding_edits_not_yet_imported(tmp_path: Path, fmt: str) -> None:
    """Exporting again over a sheet the designer edited would throw the edits away unasked."""
    runner = CliRunner()
    work = _copy(tmp_path, DOTD)
    out = tmp_path / f"c.{fmt}"
    assert runner.invoke(cli, ["export", str(work), "--out", str(out)]).exit_code == 0
    again = runner.invoke(cli, ["export", str(work), "--out", str(out)])
    assert again.exit_code == 0, again.output  # unchanged: replacing it loses nothing
    if fmt == "csv":
        _write_rows(out, [[c.replace("Never count to ten.", "Count to eleven.") for c in row]
                          for row in _rows(out)])
    else:
        book = load_workbook(out)
        cell = next(c for row in book["Characters"].iter_rows() for c in row
                    if c.value == "Never count to ten.")
        cell.value = "Count to eleven."
        book.save(out)
    edited = out.read_bytes()
    res = runner.invoke(cli, ["export", str(work), "--out", str(out)])
    assert res.exit_code == 1 and out.read_bytes() == edited
    assert "differs from the card files (edited anger)" in res.output
    assert f"boneyard import {work} {out}" in res.output and "--force" in res.output
    res = runner.invoke(cli, ["export", str(work), "--out", str(out), "--force"])
    assert res.exit_code == 0 and import_set(work, out, dry_run=True).changed == []
    out.write_text("not a sheet\n", encoding="utf-8")
    res = runner.invoke(cli, ["export", str(work), "--out", str(out)])
    assert res.exit_code == 1 and "does not read as this set's sheet" in res.output
    assert out.read_text(encoding="utf-8") == "not a sheet\n"
