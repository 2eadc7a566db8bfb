"""Spreadsheet files in and out: XLSX through openpyxl, CSV through the csv module.

A sheet that comes back to ``boneyard import`` is untrusted input like a card file: it is read
with size limits (the file, the unzipped workbook, rows, columns, characters a cell), openpyxl's
read-only streaming reader, and no formula is ever evaluated (a cell holding one is refused with
its place). Every place is named the way a spreadsheet names it: ``cards.xlsx:Characters!C12``,
and for CSV the line and column, ``cards.csv:12:3``.
"""

from __future__ import annotations

import csv
import io
import math
import os
import re
import sys
import warnings
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boneyard.pipeline.files import write_output
from boneyard.pipeline.validate_yaml import display_path

from boneyard.errors import excerpt

MAX_SHEET_BYTES = 8 * 1024 * 1024
"""A sheet file larger than this is refused unread (a set's sheet is a few KiB)."""
MAX_UNZIPPED_BYTES = 64 * 1024 * 1024
"""An XLSX is a zip: its parts may unpack to at most this much (a zip bomb is refused)."""
MAX_ROWS = 5000
MAX_COLUMNS = 64
MAX_CELL_CHARS = 4000

FORMATS = ("xlsx", "csv")


MAX_LISTED = 20
"""At most this many lines of one kind of problem (a shifted CSV shifts every row after it)."""


class SheetReadError(Exception):
    """The file cannot be read as a sheet at all: one located message a line."""

    def __init__(self, *lines: str) -> None:
        self.lines = list(lines)
        super().__init__("\n".join(self.lines))


def _capped(lines: list[str], label: str, what: str) -> list[str]:
    if len(lines) <= MAX_LISTED:
        return lines
    return [*lines[:MAX_LISTED], f"{label}: {len(lines) - MAX_LISTED} more {what} like these"]


def column_letter(index: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA."""
    out = ""
    n = index + 1
    while n:
        n, rem = divmod(n - 1, 26)
        out = chr(65 + rem) + out
    return out


@dataclass
class Grid:
    """A sheet's cells as read: ``rows[0]`` is the header; ``lines[i]`` where row i starts."""

    file: str  # as messages name it
    sheet: str | None  # the worksheet's name (XLSX), None for CSV
    rows: list[list[Any]] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)  # XLSX: row numbers; CSV: line numbers
    notes: list[str] = field(default_factory=list)  # what was read past (other sheets)

    def where(self, row: int, col: int) -> str:
        """``cards.xlsx:Characters!C12`` or ``cards.csv:12:3`` (row and col 0-based)."""
        line = self.lines[row] if row < len(self.lines) else row + 1
        if self.sheet is None:
            return f"{self.file}:{line}:{col + 1}"
        return f"{self.file}:{self.sheet}!{column_letter(col)}{line}"

    def row_name(self, row: int) -> str:
        """``row 12`` (XLSX) or ``line 12`` (CSV): a whole row, as the spreadsheet numbers it."""
        line = self.lines[row] if row < len(self.lines) else row + 1
        return f"{'line' if self.sheet is None else 'row'} {line}"

    def cell(self, row: int, col: int) -> Any:
        cells = self.rows[row]
        return cells[col] if col < len(cells) else None


def sheet_format(path: Path, given: str | None = None) -> str:
    """``xlsx`` or ``csv``: as given, else from the file's suffix (import has no --format: the
    name says what the file is)."""
    if given:
        return given
    suffix = path.suffix.lower().lstrip(".")
    if suffix in FORMATS:
        return suffix
    raise SheetReadError(f"{display_path(path)}: cannot tell the format from the name; import "
                         f"reads .xlsx and .csv files (rename it {path.stem}.xlsx or "
                         f"{path.stem}.csv, whichever it is)")


# --- writing ----------------------------------------------------------------------------------


_FORMULA_START = ("=", "+", "-", "@")


def csv_text(value: str) -> str:
    """A text cell as CSV holds it: one starting like a formula (``=``, ``+``, ``-``, ``@``)
    gets a leading ``'``, so a spreadsheet opening the file shows it instead of running it."""
    return "'" + value if value.startswith(_FORMULA_START) else value


def csv_value(value: str) -> str:
    """What :func:`csv_text` wrote, back."""
    if value.startswith("'") and value[1:].startswith(_FORMULA_START):
        return value[1:]
    return value


def write_csv(path: Path, header: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """UTF-8 CSV, every value as text (true/false for booleans)."""
    buf = io.StringIO(newline="")
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(header)
    for row in rows:
        writer.writerow(["true" if v is True else "false" if v is False else
                         "" if v is None else csv_text(v) if isinstance(v, str) else v
                         for v in row])
    _write(path, buf.getvalue())


_STREAM = re.compile(r"/(?:dev/fd|proc/self/fd)/(\d+)")


def stream_fd(path: Path) -> int | None:
    """The open file descriptor ``path`` names (``/dev/stdout``, ``/dev/stderr``,
    ``/dev/fd/N``, ``/proc/self/fd/N``), or None. A sheet sent there is written down that
    descriptor, whatever it is: a pipe, a terminal, or the file a shell redirect opened
    (``--out /dev/stdout > cards.csv``), which is neither read first as a sheet with edits nor
    replaced by a file of its own (``>>`` appends, as the shell asked)."""
    text = str(path)
    if text in ("/dev/stdout", "/dev/stderr"):
        return 1 if text == "/dev/stdout" else 2
    found = _STREAM.fullmatch(text)
    return int(found.group(1)) if found else None


def _write_fd(fd: int, data: bytes) -> None:
    if fd in (1, 2):  # anything printed before goes first
        (sys.stdout if fd == 1 else sys.stderr).flush()
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _write(path: Path, data: str | bytes) -> None:
    """The sheet to ``path``, written whole (:func:`write_output`: a symbolic link there is
    replaced, not written through) or down the descriptor it names (:func:`stream_fd`); its
    error naming ``path`` (a full device has no temporary name)."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    fd = stream_fd(path)
    try:
        if fd is not None:
            _write_fd(fd, raw)
        else:
            write_output(path, raw)
    except OSError as exc:
        if exc.filename is not None or exc.errno is None:
            raise
        raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from None


def write_xlsx(path: Path, title: str, header: Sequence[str], rows: Sequence[Sequence[Any]],
               widths: Sequence[int], notes: Sequence[str], read_only: Sequence[bool]) -> None:
    """One worksheet: a bold, frozen header with each column's note as a comment; the read-only
    (printed) columns shaded and wrapped."""
    from openpyxl import Workbook
    from openpyxl.comments import Comment
    from openpyxl.styles import Alignment, Font, PatternFill

    wb = Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = title
    ws.append(list(header))
    for row in rows:
        ws.append(list(row))
        for cell in ws[ws.max_row]:
            if isinstance(cell.value, str) and cell.value.startswith("="):
                cell.data_type = "s"  # text that looks like a formula stays text
    shade = PatternFill("solid", fgColor="EEEEEE")
    for i, heading in enumerate(header):
        letter = column_letter(i)
        ws.column_dimensions[letter].width = widths[i]
        cell = ws.cell(row=1, column=i + 1)
        cell.font = Font(bold=True)
        if notes[i]:
            cell.comment = Comment(notes[i], "boneyard")
        for r in range(2, len(rows) + 2):
            c = ws.cell(row=r, column=i + 1)
            if read_only[i]:
                c.fill = shade
            if widths[i] >= 30:
                c.alignment = Alignment(wrap_text=True, vertical="top")
            else:
                c.alignment = Alignment(vertical="top")
        del heading
    ws.freeze_panes = "B2"
    # built in memory, then written in one go: a full disk fails in write_output, which cleans
    # up and names the file, not in a half-closed ZipFile that complains again when collected
    buf = io.BytesIO()
    wb.save(buf)
    _write(path, buf.getvalue())


# --- reading ----------------------------------------------------------------------------------


def _check_size(path: Path) -> None:
    label = display_path(path)
    try:
        st = path.stat()
    except FileNotFoundError:
        raise SheetReadError(f"{label}: no such file") from None
    except OSError as exc:
        raise SheetReadError(f"{label}: cannot read: {exc.strerror or exc}") from None
    if not path.is_file():
        raise SheetReadError(f"{label}: not a regular file (give a .xlsx or .csv file)")
    if st.st_size > MAX_SHEET_BYTES:
        raise SheetReadError(f"{label}: file is {_mib(st.st_size)}, over the limit of "
                             f"{_mib(MAX_SHEET_BYTES)} (is this the set's sheet?)")


def _mib(n: int) -> str:
    return f"{n / (1024 * 1024):.1f} MiB".replace(".0 MiB", " MiB")


def _too_many(grid: Grid, what: str) -> SheetReadError:
    return SheetReadError(f"{grid.file}: more than {what} (a set's sheet has one row a card; "
                          "is this the right file?)")


_SEP_LINE = re.compile(r'"?sep=([^\r\n"])"?[ \t]*\r?\n', re.IGNORECASE)
"""The first line Excel writes (and reads) to name a CSV file's separator: ``sep=;``."""


def _delimiter(text: str) -> str:
    """``,``, or ``;`` (or a tab) when the header row read with commas is one cell holding
    semicolons (tabs): Excel in a locale with decimal commas saves "CSV" that way, and no heading
    holds a ``;``."""
    try:
        header = next(csv.reader(io.StringIO(text, newline="")), [])
    except csv.Error:
        return ","
    if len(header) == 1:
        for sep in (";", "\t"):  # and "Text (Tab delimited)" saves tabs
            if sep in header[0]:
                return sep
    return ","


def read_csv(path: Path) -> Grid:
    """A CSV file's cells; every row must have as many cells as the header (else its values
    would silently land in the wrong columns)."""
    _check_size(path)
    grid = Grid(display_path(path), None)
    raw = path.read_bytes()
    if raw.startswith(b"PK\x03\x04"):  # a zip: a workbook saved under a .csv name
        raise SheetReadError(f"{grid.file}: this is an .xlsx workbook, not CSV text (name it "
                             ".xlsx, or save it from the spreadsheet as CSV)")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        begun = raw.rfind(b"\n", 0, exc.start) + 1  # the column: characters before the byte
        col = len(raw[begun:exc.start].decode("utf-8", "replace")) + 1
        raise SheetReadError(f"{grid.file}:{line}:{col}: not UTF-8 text (save the CSV as "
                             "UTF-8)") from None
    if "\x00" in text:
        raise SheetReadError(f"{grid.file}: holds NUL bytes; is it a CSV file?")
    off = 0  # lines read past before the rows
    hint = _SEP_LINE.match(text)
    if hint:  # Excel's "sep=;" line names the separator and is no row: read past it
        sep, text, off = hint.group(1), text[hint.end():], 1
    else:
        sep = _delimiter(text)
    start = 1 + off
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep, strict=True)
    width: int | None = None
    uneven: list[str] = []
    try:
        for row in reader:
            if len(grid.rows) >= MAX_ROWS:
                raise _too_many(grid, f"{MAX_ROWS} rows")
            if len(row) > MAX_COLUMNS and any(v.strip() for v in row[MAX_COLUMNS:]):
                raise _too_many(grid, f"{MAX_COLUMNS} columns")
            if width is None:
                if any(v.strip() for v in row):  # blank lines above the header: said once, there
                    width = len(row)
            elif len(row) != width and any(v.strip() for v in row):
                uneven.append(_uneven(grid.file, start, reader.line_num + off, len(row), width,
                                      sep))
            grid.rows.append([csv_value(v) if v != "" else None for v in row[:MAX_COLUMNS]])
            grid.lines.append(start)
            start = reader.line_num + 1 + off
    except csv.Error as exc:
        if "unexpected end of data" in str(exc):
            raise SheetReadError(f"{grid.file}:{start}:1: a quote opened on this row is never "
                                 "closed, so the rest of the file reads as one cell (close the "
                                 "quote, or remove it)") from None
        raise SheetReadError(f"{grid.file}:{reader.line_num + off}:1: not valid CSV: {exc} "
                             "(check the quotes on this line)") from None
    if uneven:
        raise SheetReadError(*_capped(uneven, grid.file, "rows"))
    return grid


def _uneven(file: str, first: int, last: int, cells: int, width: int, sep: str) -> str:
    where = f"{file}:{first}:1: this row has {cells} cells, the header has {width}"
    if last > first:
        return (f"{where} (the row runs on to line {last}: is a quote not closed? each row "
                "is one line unless a quoted cell holds a line break)")
    word = {";": "semicolon", "\t": "tab"}.get(sep, "comma")
    return (f"{where} (a {word} missing or extra, or a "
            "quote not closed? every row needs one cell per column, empty ones too)")


_FORMULA_FIX = "boneyard never evaluates formulas: paste the value instead (Paste Special > Values)"

_NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?")


def _bad_cells(path: Path, part: str, label: str, sheet: str) -> tuple[list[str], list[str]]:
    """Problems and notes read from the worksheet's XML. Problems: number cells that hold no
    finite number (openpyxl writes infinity and NaN as an empty value, which it then reads back
    as a blank cell, and stops with a bare ValueError on a value like ``inf``); merged cells,
    which the read-only reader does not see (a merge over a card's cells would silently empty
    all but one); a value past the columns or rows read, which would be dropped unseen. Notes:
    hidden rows and columns, whose edits are read like any other but were made out of sight."""
    out: list[tuple[int, int, str]] = []  # (row, column, message): said in the sheet's order
    hidden_rows: list[int] = []
    hidden_cols: list[str] = []
    far, far_at = 0, (0, 0)  # how many values lie past the read range, and the first
    row, col = 0, 0
    with zipfile.ZipFile(path) as zf, zf.open(part) as src:
        for event, el in ET.iterparse(src, events=("start", "end")):
            tag = el.tag.rsplit("}", 1)[-1]
            if event == "start":
                if tag == "row":
                    r = el.get("r") or ""
                    row, col = (int(r) if r.isdigit() else row + 1), 0
                    if el.get("hidden") in ("1", "true") and row <= MAX_ROWS:
                        hidden_rows.append(row)
                continue
            if tag == "row":
                el.clear()
            if tag == "col" and el.get("hidden") in ("1", "true"):
                lo, hi = (int(el.get(k) or 0) for k in ("min", "max"))
                if 1 <= lo <= hi:
                    hidden_cols.extend(column_letter(k - 1) for k in range(lo, min(hi, MAX_COLUMNS) + 1))
            if tag == "mergeCell":  # one value shows across them; the others read as empty
                ref = el.get("ref") or "?"
                first = ref.split(":", 1)[0]
                digits = "".join(ch for ch in first if ch.isdigit())
                out.append((int(digits) if digits else 0, _column_index(first),
                            f"{label}:{sheet}!{ref}: these cells are merged, so all but the "
                            "first read as empty (unmerge them and fill in each cell: one value "
                            "a cell)"))
            if tag != "c":
                continue
            ref = el.get("r") or ""
            col = _column_index(ref) if ref else col + 1
            kinds = {child.tag.rsplit("}", 1)[-1]: child for child in el}
            value = kinds.get("v")
            if (col > MAX_COLUMNS or row > MAX_ROWS) and kinds.keys() & {"v", "is", "f"}:
                far += 1
                far_at = far_at if far > 1 else (row, col)
                el.clear()
                continue
            if "f" in kinds:  # every formula at once, not one an import
                formula = (kinds["f"].text or "").strip()
                written = f" (={formula[:40]})" if formula else ""
                out.append((row, col, f"{label}:{sheet}!{column_letter(col - 1)}{row}: holds a "
                            f"formula{written}; {_FORMULA_FIX}"))
            elif el.get("t", "n") == "n" and value is not None:
                text = (value.text or "").strip()
                if not text:
                    why = "a number with no value (how infinity or NaN is saved)"
                elif not _NUMBER.fullmatch(text) or not math.isfinite(float(text)):
                    why = f"'{text[:20]}', which is not a finite number"
                else:
                    why = ""
                if why:
                    out.append((row, col, f"{label}:{sheet}!{column_letter(col - 1)}{row}: the "
                                f"cell holds {why}; type the number the card needs"))
            el.clear()
    notes = []
    if far:
        more = f" (and {far - 1} more past it)" if far > 1 else ""
        out.append((*far_at, f"{label}:{sheet}!{column_letter(far_at[1] - 1)}{far_at[0]}: a value "
                    f"far outside the card table{more}: boneyard reads columns A-"
                    f"{column_letter(MAX_COLUMNS - 1)} and rows 1-{MAX_ROWS}, so it would be "
                    "dropped unseen; delete it, or move it into the table"))
    if hidden_rows or hidden_cols:
        shown = [f"row(s) {_listed([str(r) for r in hidden_rows])}"] if hidden_rows else []
        shown += [f"column(s) {_listed(hidden_cols)}"] if hidden_cols else []
        notes.append(f"{label}:{sheet}: {' and '.join(shown)} are hidden; they are read like "
                     "the others (unhide them to see every value that is imported)")
    return [line for _, _, line in sorted(out)], notes


def _listed(items: list[str]) -> str:
    return ", ".join(items[:MAX_LISTED]) + (f" and {len(items) - MAX_LISTED} more"
                                            if len(items) > MAX_LISTED else "")


def _column_index(ref: str) -> int:
    """``C12`` -> 3 (1-based)."""
    n = 0
    for ch in ref:
        if not ch.isalpha():
            break
        n = n * 26 + ord(ch.upper()) - 64
    return n


def read_xlsx(path: Path, title: str) -> Grid:
    """The worksheet ``title`` (or the workbook's only sheet) of an XLSX file, values only."""
    _check_size(path)
    label = display_path(path)
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
            if len(infos) > 2000 or sum(i.file_size for i in infos) > MAX_UNZIPPED_BYTES:
                raise SheetReadError(f"{label}: the workbook unpacks to over "
                                     f"{_mib(MAX_UNZIPPED_BYTES)}; refused (is this the set's "
                                     "sheet?)")
    except (zipfile.BadZipFile, OSError):
        raise SheetReadError(f"{label}: not an .xlsx workbook (save it as Excel .xlsx, "
                             "or export CSV)") from None
    from openpyxl import load_workbook

    with warnings.catch_warnings():  # openpyxl warns on odd workbooks; what matters is refused
        warnings.simplefilter("ignore")
        try:
            wb = load_workbook(path, read_only=True, data_only=False, keep_links=False)
        except Exception as exc:  # openpyxl raises many kinds on a broken workbook
            raise _damaged(label, exc) from None
        try:
            grid = _read_worksheet(wb, path, label, title)
        except SheetReadError:
            raise
        except Exception as exc:  # a malformed part found while streaming the rows
            raise _damaged(label, exc) from None
        finally:
            wb.close()
    while grid.rows and all(v is None for v in grid.rows[-1]):
        grid.rows.pop()
        grid.lines.pop()
    return grid


def _damaged(label: str, exc: Exception) -> SheetReadError:
    """A zip that openpyxl cannot read as a workbook: what the reader said (its first line, not
    its advice to see an exception nobody is shown) and what the designer can do."""
    why = str(exc).splitlines()[0].strip() if str(exc).strip() else type(exc).__name__
    if why.startswith("Unable to read workbook"):
        why = "its XML cannot be read safely (entities, or a part cut short)"
    return SheetReadError(f"{label}: a damaged workbook or not an Excel .xlsx file "
                          f"({excerpt(why)}); open it in the spreadsheet program and save it "
                          "again as .xlsx, or export CSV")


def _read_worksheet(wb: Any, path: Path, label: str, title: str) -> Grid:
    """The card sheet's rows, refusing formulas, huge cells and unreadable numbers at their cell."""
    names = list(wb.sheetnames)
    if title in names:
        name = title
    elif len(names) == 1:
        name = names[0]
    else:
        raise SheetReadError(f"{label}: no sheet called {title!r} (sheets: "
                             f"{', '.join(names)}); rename the card sheet to {title!r}")
    grid = Grid(label, name)
    others = [n for n in names if n != name]
    if others:  # a copy of the card sheet edited by mistake would otherwise change nothing
        grid.notes.append(f"{label}: only the sheet {name!r} is read; not "
                          f"{', '.join(repr(n) for n in others)}")
    ws = wb[name]
    part = getattr(ws, "_worksheet_path", None)  # openpyxl's read-only sheet: its zip part
    if isinstance(part, str):
        bad, notes = _bad_cells(path, part, label, name)
        if bad:
            raise SheetReadError(*_capped(bad, label, "cells"))
        grid.notes.extend(notes)
    for r, row in enumerate(ws.iter_rows(max_col=MAX_COLUMNS + 1), start=1):
        if r > MAX_ROWS:
            if any(c.value is not None for c in row):
                raise _too_many(grid, f"{MAX_ROWS} rows")
            continue
        values: list[Any] = []
        for c, cell in enumerate(row):
            value = getattr(cell, "value", None)
            if value is None:
                values.append(None)
                continue
            if c >= MAX_COLUMNS:
                raise _too_many(grid, f"{MAX_COLUMNS} columns")
            if getattr(cell, "data_type", None) == "f":
                where = f"{label}:{name}!{column_letter(c)}{r}"
                raise SheetReadError(f"{where}: holds a formula ({str(value)[:40]}); {_FORMULA_FIX}")
            if isinstance(value, str) and len(value) > MAX_CELL_CHARS:
                where = f"{label}:{name}!{column_letter(c)}{r}"
                raise SheetReadError(f"{where}: over {MAX_CELL_CHARS} characters; a card's "
                                     "cell is a few words")
            values.append(value)
        grid.rows.append(values[:MAX_COLUMNS])
        grid.lines.append(r)
    return grid


def read_sheet(path: Path, title: str) -> Grid:
    """A sheet file by its suffix (.xlsx or .csv); SheetReadError when it cannot be read."""
    fmt = sheet_format(path)
    grid = read_xlsx(path, title) if fmt == "xlsx" else read_csv(path)
    for r, row in enumerate(grid.rows):
        for c, value in enumerate(row):
            if isinstance(value, str) and len(value) > MAX_CELL_CHARS:
                raise SheetReadError(f"{grid.where(r, c)}: over {MAX_CELL_CHARS} characters; "
                                     "a card's cell is a few words")
    return grid
