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
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boneyard.pipeline.validate_yaml import display_path

from boneyard.files import atomic_path, write_atomic

MAX_SHEET_BYTES = 8 * 1024 * 1024
"""A sheet file larger than this is refused unread (a set's sheet is a few KiB)."""
MAX_UNZIPPED_BYTES = 64 * 1024 * 1024
"""An XLSX is a zip: its parts may unpack to at most this much (a zip bomb is refused)."""
MAX_ROWS = 5000
MAX_COLUMNS = 64
MAX_CELL_CHARS = 4000

FORMATS = ("xlsx", "csv")


class SheetReadError(Exception):
    """The file cannot be read as a sheet at all (one located message)."""


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

    def where(self, row: int, col: int) -> str:
        """``cards.xlsx:Characters!C12`` or ``cards.csv:12:3`` (row and col 0-based)."""
        line = self.lines[row] if row < len(self.lines) else row + 1
        if self.sheet is None:
            return f"{self.file}:{line}:{col + 1}"
        return f"{self.file}:{self.sheet}!{column_letter(col)}{line}"

    def cell(self, row: int, col: int) -> Any:
        cells = self.rows[row]
        return cells[col] if col < len(cells) else None


def sheet_format(path: Path, given: str | None = None) -> str:
    """``xlsx`` or ``csv``: as given, else from the file's suffix."""
    if given:
        return given
    suffix = path.suffix.lower().lstrip(".")
    if suffix in FORMATS:
        return suffix
    raise SheetReadError(f"{display_path(path)}: cannot tell the format from the name "
                         "(name it .xlsx or .csv, or give --format)")


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
    write_atomic(path, buf.getvalue())


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
    with atomic_path(path) as tmp:
        wb.save(tmp)


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
        raise SheetReadError(f"{label}: file is {st.st_size} bytes, over the limit of "
                             f"{MAX_SHEET_BYTES} (is this the set's sheet?)")


def _too_many(grid: Grid, what: str) -> SheetReadError:
    return SheetReadError(f"{grid.file}: more than {what} (a set's sheet has one row a card; "
                          "is this the right file?)")


def read_csv(path: Path) -> Grid:
    _check_size(path)
    grid = Grid(display_path(path), None)
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        raise SheetReadError(f"{grid.file}:{line}:1: not UTF-8 text (save the CSV as "
                             "UTF-8)") from None
    if "\x00" in text:
        raise SheetReadError(f"{grid.file}: holds NUL bytes; is it a CSV file?")
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    start = 1
    try:
        for row in reader:
            if len(grid.rows) >= MAX_ROWS:
                raise _too_many(grid, f"{MAX_ROWS} rows")
            if len(row) > MAX_COLUMNS and any(v.strip() for v in row[MAX_COLUMNS:]):
                raise _too_many(grid, f"{MAX_COLUMNS} columns")
            grid.rows.append([csv_value(v) if v != "" else None for v in row[:MAX_COLUMNS]])
            grid.lines.append(start)
            start = reader.line_num + 1
    except csv.Error as exc:
        raise SheetReadError(f"{grid.file}:{reader.line_num}:1: not valid CSV: {exc} "
                             "(check the quotes on this line)") from None
    return grid


def read_xlsx(path: Path, title: str) -> Grid:
    """The worksheet ``title`` (or the workbook's only sheet) of an XLSX file, values only."""
    _check_size(path)
    label = display_path(path)
    try:
        with zipfile.ZipFile(path) as zf:
            infos = zf.infolist()
            if len(infos) > 2000 or sum(i.file_size for i in infos) > MAX_UNZIPPED_BYTES:
                raise SheetReadError(f"{label}: the workbook unpacks to over "
                                     f"{MAX_UNZIPPED_BYTES} bytes; refused")
    except (zipfile.BadZipFile, OSError):
        raise SheetReadError(f"{label}: not an .xlsx workbook (save it as Excel .xlsx, "
                             "or export CSV)") from None
    from openpyxl import load_workbook

    try:
        wb = load_workbook(path, read_only=True, data_only=False, keep_links=False)
    except Exception as exc:  # openpyxl raises many kinds on a broken workbook
        raise SheetReadError(f"{label}: cannot read the workbook: {exc}") from None
    try:
        names = list(wb.sheetnames)
        if title in names:
            name = title
        elif len(names) == 1:
            name = names[0]
        else:
            raise SheetReadError(f"{label}: no sheet called {title!r} (sheets: "
                                 f"{', '.join(names)}); rename the card sheet to {title!r}")
        grid = Grid(label, name)
        ws = wb[name]
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
                    raise SheetReadError(f"{where}: holds a formula ({str(value)[:40]}); "
                                         "boneyard never evaluates formulas: paste the value "
                                         "instead (Paste Special > Values)")
                if isinstance(value, str) and len(value) > MAX_CELL_CHARS:
                    where = f"{label}:{name}!{column_letter(c)}{r}"
                    raise SheetReadError(f"{where}: over {MAX_CELL_CHARS} characters; a card's "
                                         "cell is a few words")
                values.append(value)
            grid.rows.append(values[:MAX_COLUMNS])
            grid.lines.append(r)
    finally:
        wb.close()
    while grid.rows and all(v is None for v in grid.rows[-1]):
        grid.rows.pop()
        grid.lines.pop()
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
