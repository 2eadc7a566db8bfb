"""``boneyard export`` and ``boneyard import``: a card set as one spreadsheet, and back.

The YAML stays the source of truth. Export writes one row per card entry of the set's card files
(the columns are the game's, ``GameSpec.sheet``, plus ``file``: which card file the row lives in).
Import reads a sheet, turns each row back into a card, rewrites only the cards that changed
(``sheet_yaml``: comments, order and flow style kept) and validates the whole resulting set with
the normal validator, in a scratch copy of the set folder, before a byte is written. Every
problem is reported at its cell (``cards.xlsx:Characters!C12: ...``); when there is one, no file
is written. The changed files are written all or none (:func:`write_all`): a set is never left
half imported. A round trip YAML -> sheet -> YAML changes nothing, so the content hash is kept.

Rows follow the YAML: an existing card keeps its place in its file, a new id is added at the end
of the file its ``file`` cell names (default: the first card file), and a card whose id is on no
row is removed.
"""

from __future__ import annotations

import datetime
import difflib
import os
import re
import shlex
import shutil
import stat
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from boneyard.engine.cards import CardSet
from boneyard.engine.games import spec_of
from boneyard.engine.sheet import SheetColumn, SheetSpec
from boneyard.pipeline import sheet_io
from boneyard.pipeline.load import GAME_FILE, check_set, resolve_set
from boneyard.pipeline.sheet_io import Grid, SheetReadError
from boneyard.pipeline.sheet_yaml import rewrite
from boneyard.pipeline.validate_yaml import MAX_FILE_BYTES, YamlDoc, display_path, read_yaml

from boneyard.errors import BoneyardError, CardDataError, Problem
from boneyard.files import write_atomic

FILE_COLUMN = SheetColumn("file", "", "text", 16, "the card file this row lives in")
MISSING = object()  # an empty cell: the key is left out of the card


class SheetError(BoneyardError):
    """Everything wrong with a sheet or what it would make of the set, one line each."""

    def __init__(self, lines: Sequence[str]) -> None:
        self.lines = list(lines)
        n = len(self.lines)
        super().__init__("\n".join([*self.lines, f"{n} problem{'s' if n != 1 else ''}; "
                                    "nothing was written"]))


@dataclass
class CardFile:
    """One card file of the set as the validator read it."""

    rel: str  # as game.yaml names it
    path: Path
    doc: YamlDoc
    text: str

    @property
    def cards(self) -> list[Any]:
        return self.doc.data if isinstance(self.doc.data, list) else []


def _sheet_spec(rules: str) -> SheetSpec:
    spec = spec_of(rules)
    if spec.sheet is None:
        raise BoneyardError(f"{spec.title} sets have no spreadsheet columns (GameSpec.sheet)")
    return spec.sheet()


def _card_files(root: Path, rules: str) -> list[CardFile]:
    """The set's card files in game.yaml's order, then the extra ones (a rares file)."""
    game, problems = read_yaml(root / GAME_FILE)
    if problems or not isinstance(game.data, dict):
        raise CardDataError(problems)
    rels = [r for r in game.data.get("card_files") or [] if isinstance(r, str)]
    rels += [game.data[k] for k in spec_of(rules).extra_card_files
             if isinstance(game.data.get(k), str)]
    out = []
    for rel in rels:
        path = root / rel
        doc, problems = read_yaml(path, kind="card files")
        if problems:
            raise CardDataError(problems)
        # as written: a CRLF file's line ends (and a byte-order mark) are kept, not translated
        out.append(CardFile(rel, path, doc, path.read_bytes().decode("utf-8")))
    return out


def _valid(set_arg: str | Path) -> tuple[Path, CardSet]:
    check = check_set(set_arg)
    if not check.ok:
        raise CardDataError(check.problems)
    assert check.card_set is not None
    return check.root, check.card_set


# --- cells ------------------------------------------------------------------------------------

_PLAIN_WORD = re.compile(r"^[A-Za-z_][A-Za-z0-9_ .'/-]*$")
_RESOLVER = yaml.resolver.Resolver()


def flow(value: Any) -> str:
    """A card-file value as one line of YAML flow: ``[{power: {amount: 2, who: opponent}}]``."""
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{flow(k)}: {flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(flow(v) for v in value) + "]"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        plain = (_PLAIN_WORD.match(value) and value == value.strip()
                 and _RESOLVER.resolve(yaml.ScalarNode, value, (True, False))
                 == "tag:yaml.org,2002:str")
        if plain:
            return value
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)


def export_cell(col: SheetColumn, card: Mapping[str, Any], sheet: SheetSpec,
                card_set: CardSet) -> Any:
    if col.kind == "printed":
        return sheet.printed(col.key, card, card_set)
    if col.key not in card:
        return None
    value = card[col.key]
    if col.kind in ("ints", "words") and isinstance(value, list):
        return ", ".join(str(v) for v in value)
    if col.kind == "data":
        return flow(value)
    return value


def _data_cell(text: str) -> tuple[Any, str | None]:
    """A flow cell's value, or why it cannot be read. No anchors, aliases or tags: a cell is a
    value, and an alias is how a small text expands into a huge one."""
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            if isinstance(token, (yaml.AliasToken, yaml.AnchorToken, yaml.TagToken)):
                return None, "anchors, aliases and tags (&, *, !) are not allowed in a cell"
        return yaml.safe_load(text), None
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        at = f" at character {mark.column + 1}" if mark is not None and mark.line == 0 else ""
        return None, f"not valid YAML flow{at}: {exc.problem or exc.context}"
    except yaml.YAMLError as exc:
        return None, f"not valid YAML flow: {exc}"


def _int(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*[-+]?\d+(\.0*)?\s*", value):
        return int(value.strip().split(".")[0])  # "3.0" in a CSV is 3, as a 3.0 cell is
    return value  # the validator says what is wrong with it


def import_cell(col: SheetColumn, value: Any) -> tuple[Any, str | None]:
    """(the card-file value of a cell, or MISSING when empty; why it cannot be read)."""
    if value is None or (isinstance(value, str) and not value.strip()):
        return MISSING, None
    if isinstance(value, (datetime.date, datetime.time)):  # the spreadsheet's guess, not text
        return value, (f"the spreadsheet turned this cell into a date or time ({value}); "
                       "format the cell as text and type it again")
    if col.kind == "text":
        if isinstance(value, bool):  # a TRUE cell: card text is never a yes-or-no value (as in
            # a card file, where `name: true` is refused)
            return value, (f"the spreadsheet made this cell a yes-or-no value "
                           f"({'TRUE' if value else 'FALSE'}), not text; format the cell as "
                           "text and type it again")
        if isinstance(value, float) and value.is_integer():
            return str(int(value)), None
        return (value if isinstance(value, str) else str(value)), None
    if col.kind in ("int", "ints") and isinstance(value, bool):  # TRUE is no number, even
        # where it equals the card's 1 (a comparison alone would call the row unchanged)
        return value, (f"the spreadsheet made this cell a yes-or-no value "
                       f"({'TRUE' if value else 'FALSE'}), not a number; format the cell as a "
                       "number and type it again")
    if col.kind == "int":
        return _int(value), None
    if col.kind == "bool":
        if isinstance(value, bool):
            return value, None
        word = str(value).strip().lower()
        if word in ("true", "yes", "1"):
            return True, None
        if word in ("false", "no", "0"):
            return False, None
        return value, None
    if col.kind in ("ints", "words"):
        items = [v.strip() for v in str(_int(value)).split(",")]
        items = [v for v in items if v]
        if col.kind == "ints":
            numbers = [_int(v) for v in items]
            if not all(isinstance(n, int) for n in numbers):  # "[1, 2, 3]", "1 2 3", "1-9":
                # one cell, one message (the validator would say each piece it cannot read)
                return value, f"expected whole numbers separated by commas, got {str(value)!r}"
            return numbers, None
        return items, None
    if col.kind == "data":
        if not isinstance(value, str):
            return value, None
        return _data_cell(value)
    raise ValueError(col.kind)


# --- export -----------------------------------------------------------------------------------


def export_set(set_arg: str | Path, out: Path, fmt: str | None = None) -> tuple[Path, int]:
    """Write the (valid) set as a sheet; (the file, rows written)."""
    root, card_set = _valid(set_arg)
    fmt = sheet_io.sheet_format(out, fmt)
    sheet = _sheet_spec(card_set.rules)
    files = _card_files(root, card_set.rules)
    columns = [*sheet.columns, FILE_COLUMN]
    rows = []
    for cf in files:
        for card in cf.cards:
            rows.append([cf.rel if c is FILE_COLUMN else export_cell(c, card, sheet, card_set)
                         for c in columns])
    header = [c.heading for c in columns]
    if fmt == "csv":
        sheet_io.write_csv(out, header, rows)
    else:
        sheet_io.write_xlsx(out, sheet.title, header, rows, [c.width for c in columns],
                            [c.note for c in columns], [c.kind == "printed" for c in columns])
    return out, len(rows)


# --- import -----------------------------------------------------------------------------------


@dataclass
class _Row:
    index: int  # in grid.rows
    card: dict[str, Any]
    file: str
    cols: dict[str, int] = field(default_factory=dict)  # card key -> column index


@dataclass
class ImportResult:
    changed: list[Path]  # card files rewritten (or that would be, with dry_run)
    card_set: CardSet  # the set as it is after the import
    added: list[str]
    removed: list[str]
    edited: list[str]
    notes: list[str] = field(default_factory=list)  # what the sheet left alone (printed as notes)


def _header(grid: Grid, sheet: SheetSpec, problems: list[str]) -> dict[int, SheetColumn]:
    known = {c.heading: c for c in (*sheet.columns, FILE_COLUMN)}
    folded = {h.casefold(): c for h, c in known.items()}
    out: dict[int, SheetColumn] = {}
    seen: dict[str, int] = {}
    if grid.rows and not _filled(grid.rows[0]):  # one slip, one message: not a column each
        first = next((r for r, row in enumerate(grid.rows) if _filled(row)), None)
        if first is not None:
            if any(c is not None and str(c).strip() in known for c in grid.rows[first]):
                problems.append(f"{grid.where(0, 0)}: the header row is {grid.row_name(first)}, "
                                "it must be the first (delete the empty rows above it)")
            else:
                problems.append(f"{grid.where(0, 0)}: the first row is empty; it must name the "
                                f"columns: {', '.join(known)}")
            return out
    for i, cell in enumerate(grid.rows[0] if grid.rows else []):
        if cell is None:
            if any(grid.cell(r, i) is not None for r in range(1, len(grid.rows))):
                problems.append(f"{grid.where(0, i)}: column {sheet_io.column_letter(i)} has "
                                "values but no heading (name it, or delete the column)")
            continue
        heading = str(cell).strip()
        col = known.get(heading) or folded.get(heading.casefold())  # "ID", "Power": meant as is
        if col is not None:
            heading = col.heading
        if col is None:
            close = difflib.get_close_matches(heading, list(known), n=1, cutoff=0.6)
            fix = f"did you mean '{close[0]}'?" if close else f"the columns are: {', '.join(known)}"
            problems.append(f"{grid.where(0, i)}: unknown column '{heading}' ({fix})")
            continue
        if heading in seen:
            problems.append(f"{grid.where(0, i)}: column '{heading}' is also column "
                            f"{sheet_io.column_letter(seen[heading])} (keep one of them)")
            continue
        seen[heading] = i
        out[i] = col
    if "id" not in seen and not problems:
        problems.append(f"{grid.where(0, 0)}: the sheet has no 'id' column (the header row "
                        f"names the columns: {', '.join(known)})")
    return out


def _filled(row: Sequence[Any]) -> bool:
    """A row with something in it (a blank row is skipped, not a card)."""
    return any(v is not None and not (isinstance(v, str) and not v.strip()) for v in row)


def _rows(grid: Grid, columns: dict[int, SheetColumn], files: list[CardFile],
          problems: list[str], skipped: dict[str, int], dropped: list[int]) -> list[_Row]:
    """The sheet's readable rows; ``skipped`` gets the id and row of each row refused whole
    (its card is then validated as the file has it, so one mistake is one message), and
    ``dropped`` each row refused for its id (no id, or another row's): which card it stood for
    is unknown, so the deck's counts would only repeat its message."""
    id_col = next(i for i, c in columns.items() if c.heading == "id")
    file_col = next((i for i, c in columns.items() if c is FILE_COLUMN), None)
    old_file = {c.get("id"): cf.rel for cf in files for c in cf.cards if isinstance(c, dict)}
    rels = [cf.rel for cf in files]
    rows: list[_Row] = []
    ids: dict[str, int] = {}
    for r in range(1, len(grid.rows)):
        if not _filled(grid.rows[r]):
            continue  # a blank row
        raw_id = grid.cell(r, id_col)
        cid = str(raw_id).strip() if raw_id is not None else ""
        if not cid:
            problems.append(f"{grid.where(r, id_col)}: this row has no id (give the card an "
                            "id, or clear the row)")
            dropped.append(r)
            continue
        if cid in ids:
            problems.append(f"{grid.where(r, id_col)}: id '{cid}' is also "
                            f"{'on' if grid.sheet is None else 'in'} {grid.row_name(ids[cid])} "
                            "(give each card its own id)")
            dropped.append(r)
            continue
        ids[cid] = r
        where = old_file.get(cid, rels[0])
        if file_col is not None and grid.cell(r, file_col) is not None:
            where = str(grid.cell(r, file_col)).strip()
            if where not in rels:
                problems.append(f"{grid.where(r, file_col)}: card '{cid}': '{where}' is not a "
                                f"card file of the set (one of: {', '.join(rels)})")
                skipped[cid] = r
                continue
        row = _Row(r, {}, where)
        for c, col in columns.items():
            if col is FILE_COLUMN or col.kind == "printed":
                continue
            value, why = import_cell(col, grid.cell(r, c))
            if why:
                problems.append(f"{grid.where(r, c)}: card '{cid}': {col.heading}: {why} "
                                f"(write it like {_EXAMPLE.get(col.kind, 'the export does')})")
                continue
            row.cols[col.key] = c
            if value is not MISSING:
                row.card[col.key] = value
        rows.append(row)
    return rows


_EXAMPLE = {"data": "[{power: 5}] or [{power: 3, when: {turn: {ge: 5}}}]", "ints": "1, 2, 3"}


def _merged(row: _Row, old: Mapping[str, Any] | None, order: Sequence[str]) -> dict[str, Any]:
    """The row's card: its cells over the old card's keys the sheet has no column for, in the
    old card's key order (new keys where the columns put them)."""
    values = dict(old or {})
    for key in list(values):
        if key in row.cols and key not in row.card:
            del values[key]  # an emptied cell removes the key
    values.update(row.card)
    keys = [k for k in (old or {}) if k in values]
    for k in order:
        if k in values and k not in keys:
            before = [x for x in order[: order.index(k)] if x in keys]
            keys.insert(keys.index(before[-1]) + 1 if before else 0, k)
    keys += [k for k in values if k not in keys]
    return {k: values[k] for k in keys}


def _printed_edits(grid: Grid, columns: dict[int, SheetColumn], rows: list[_Row],
                   old: dict[str, Mapping[str, Any]], sheet: SheetSpec, card_set: CardSet,
                   problems: list[str]) -> None:
    """A printed cell edited in the sheet would be silently lost: say where to edit instead."""
    for c, col in columns.items():
        if col.kind != "printed":
            continue
        source = next((i for i, k in columns.items() if k.key == col.key and k.kind != "printed"),
                      None)
        for row in rows:
            cid = str(row.card.get("id"))
            before = old.get(cid)
            cell = grid.cell(row.index, c)
            if before is None or cell is None or before.get(col.key) != row.card.get(col.key):
                continue
            shown = str(int(cell)) if isinstance(cell, float) and cell.is_integer() else str(cell)
            if shown.strip() != sheet.printed(col.key, before, card_set).strip():
                edit = (f"column {sheet_io.column_letter(source)} ('{col.key}')"
                        if source is not None else f"'{col.key}'")
                problems.append(f"{grid.where(row.index, c)}: card '{cid}': '{col.heading}' is "
                                f"made from the card and is not read back; change {edit} "
                                "instead")


_MISSING_KEYS = re.compile(r"^(?P<pre>.*)missing required keys? (?P<keys>'[^']*'(?:, '[^']*')*)$")


def _locate(problem: Problem, grid: Grid, placed: dict[str, list[_Row]], docs: dict[str, YamlDoc],
            scratch: Path, root: Path, id_col: int) -> list[str]:
    """A validator problem in the scratch copy, at its cell (or at the real file's line); a
    missing required key is at the emptied cell of its column, one line a key."""
    rel = next((r for r, d in docs.items() if d.file == problem.file), None)
    if rel is None:  # game.yaml or another file: the real one
        text = str(problem)
        return [text.replace(display_path(scratch), display_path(root), 1)]
    doc = docs[rel]
    at = (problem.line, problem.column)
    starts = [(pos, p[0]) for p, pos in doc.values.items()
              if len(p) == 1 and isinstance(p[0], int) and pos <= at]
    index = max(starts)[1] if starts else None
    exact = [p for p, pos in [*doc.values.items(), *doc.keys.items()]
             if pos == at and len(p) > 1 and p[0] == index]
    key = str(max(exact, key=len)[1]) if exact else None
    rows = placed.get(rel, [])
    if index is None or index >= len(rows):
        return [str(problem).replace(display_path(scratch), display_path(root), 1)]
    row = rows[index]
    who = f" card '{problem.card}':" if problem.card else ""
    missing = _MISSING_KEYS.match(problem.message)
    if missing and not missing["pre"]:  # the card's own keys (not an effect step's)
        keys = re.findall(r"'([^']*)'", missing["keys"])
        out = [f"{grid.where(row.index, row.cols[k])}:{who} missing required key '{k}' "
               "(fill in this cell)" for k in keys if k in row.cols]
        rest = [k for k in keys if k not in row.cols]  # no column for it: at the id
        if rest:
            out.append(f"{grid.where(row.index, id_col)}:{who} missing required "
                       f"key{'s' if len(rest) > 1 else ''} {', '.join(repr(k) for k in rest)} "
                       "(add a column for it)")
        return out
    col = row.cols.get(key, id_col) if key else id_col
    hint = f" ({problem.hint})" if problem.hint else ""
    message = _LINE_REF.sub(lambda m: _row_of_line(m, doc, rows, grid), problem.message)
    return [f"{grid.where(row.index, col)}:{who} {message}{hint}"]


_LINE_REF = re.compile(r"\bat line (\d+)\b")


def _row_of_line(m: re.Match[str], doc: YamlDoc, rows: list[_Row], grid: Grid) -> str:
    """``at line 19`` of the card file (another card named the same, an id used before) as the
    sheet's row of that card: the designer is looking at the sheet."""
    line = int(m.group(1))
    starts = [(pos, p[0]) for p, pos in doc.values.items()
              if len(p) == 1 and isinstance(p[0], int) and pos[0] <= line]
    if not starts or max(starts)[1] >= len(rows):
        return m.group(0)
    return f"at {grid.row_name(rows[max(starts)[1]].index)}"


def _too_big(grid: Grid, rel: str, text: str, rows: Sequence[_Row]) -> list[str]:
    """A problem when the rows bound for card file ``rel`` would make it larger than a card
    file may be (validate refuses such a file), located at the longest cell they hold."""
    size = len(text.encode("utf-8"))
    if size <= MAX_FILE_BYTES:
        return []
    cells = [(len(str(grid.rows[r.index][c])), r.index, c) for r in rows for c in r.cols.values()
             if c < len(grid.rows[r.index]) and grid.rows[r.index][c] is not None]
    longest = max(cells, key=lambda cell: cell[0], default=None)
    at = (f"; the longest cell is {grid.where(longest[1], longest[2])} ({longest[0]} characters)"
          if longest else "")
    return [f"{grid.file}: the {len(rows)} rows for {rel} would make it {size:,} bytes, over the "
            f"{MAX_FILE_BYTES:,} bytes a card file may hold{at} (shorten the long cells, or add a "
            f"card file to {GAME_FILE}'s card_files and give some rows its name in the file "
            "column)"]


def import_set(set_arg: str | Path, sheet_file: Path, *, dry_run: bool = False) -> ImportResult:
    """Read ``sheet_file`` into the set's card files; SheetError lists every problem (nothing is
    written then). A sheet that changes nothing writes nothing."""
    root = resolve_set(set_arg)
    before = check_set(root)
    if not before.ok or before.card_set is None:
        raise CardDataError(before.problems)  # import into a set that is valid to begin with
    card_set = before.card_set
    sheet = _sheet_spec(card_set.rules)
    try:
        grid = sheet_io.read_sheet(sheet_file, sheet.title)
    except SheetReadError as exc:
        raise SheetError(exc.lines) from None
    problems: list[str] = []
    if not grid.rows:
        raise SheetError([f"{grid.file}: the sheet is empty (export the set to start one)"])
    columns = _header(grid, sheet, problems)
    if problems:
        raise SheetError(problems)
    if not any(_filled(row) for row in grid.rows[1:]):
        raise SheetError([f"{grid.file}: the sheet has its header row but no card rows; "
                          "importing it would remove every card (fill in the rows, or export "
                          "the set to start from its cards)"])
    files = _card_files(root, card_set.rules)
    skipped: dict[str, int] = {}
    dropped: list[int] = []
    rows = _rows(grid, columns, files, problems, skipped, dropped)
    old: dict[str, Mapping[str, Any]] = {c["id"]: c for cf in files for c in cf.cards if isinstance(c, dict) and "id" in c}
    _printed_edits(grid, columns, rows, old, sheet, card_set, problems)
    # the sheet's own problems and the validator's on what the readable rows make: all at once

    order = [c.key for c in sheet.columns if c.kind != "printed"]
    by_id = {str(r.card["id"]): r for r in rows}
    placed: dict[str, list[_Row]] = {}
    texts: dict[str, str] = {}
    added, removed, edited = [], [], []
    for cf in files:
        keep: list[tuple[int | None, dict[str, Any]]] = []
        here: list[_Row] = []
        for i, card in enumerate(cf.cards):
            cid = card.get("id") if isinstance(card, dict) else None
            row = by_id.get(str(cid))
            if row is None and str(cid) in skipped:  # refused above: not removed, kept as is
                keep.append((i, card))
                here.append(_Row(skipped[str(cid)], dict(card), cf.rel))
                continue
            if row is None or row.file != cf.rel:
                if row is None:
                    removed.append(str(cid))
                continue
            new = _merged(row, card, order)
            if new != card:
                edited.append(str(cid))
            keep.append((i, new))
            here.append(row)
        existing = {str(c.get("id")) for c in cf.cards if isinstance(c, dict)}
        for row in rows:
            cid = str(row.card["id"])
            if row.file == cf.rel and cid not in existing:
                keep.append((None, _merged(row, None, order)))
                here.append(row)
                if cid not in old:
                    added.append(cid)
        placed[cf.rel] = here
        texts[cf.rel] = rewrite(cf.text, keep, cf.cards)

    too_big = [line for cf in files for line in _too_big(grid, cf.rel, texts[cf.rel], placed[cf.rel])]
    if too_big:  # the card file on disk is fine: say which rows would overfill it
        raise SheetError([*problems, *too_big])
    emptied = _emptied(grid, columns, files, placed, set_arg)
    problems += emptied.values()
    changed = [cf for cf in files if texts[cf.rel] != cf.text]
    with tempfile.TemporaryDirectory(prefix="boneyard-import-") as tmp:
        scratch = Path(tmp) / root.name
        shutil.copytree(root, scratch, symlinks=True)
        for cf in changed:
            (scratch / cf.rel).write_text(texts[cf.rel], encoding="utf-8", newline="")
        after = check_set(scratch, counts=not dropped)  # a dropped row's card: said once
        docs = {cf.rel: read_yaml(scratch / cf.rel)[0] for cf in files}
        id_col = next(i for i, c in columns.items() if c.heading == "id")
        lines = [line for p in after.problems if not _said_empty(p, docs, emptied)
                 for line in _locate(p, grid, placed, docs, scratch, root, id_col)]
        if not lines and not problems:
            lines = _faithful(placed, docs, texts, files)
        if problems or lines:
            raise SheetError(_in_sheet_order(grid, [*problems, *lines]))
        assert after.card_set is not None
        result_set = after.card_set
    if not dry_run:
        write_all([(cf.path, texts[cf.rel]) for cf in changed])
    final = check_set(root).card_set if changed and not dry_run else None
    absent = [c.heading for c in sheet.columns
              if c.kind != "printed" and c not in columns.values()]
    notes = list(grid.notes)
    if absent:  # a column deleted: the cards keep what their files say, but say so
        names = ", ".join(repr(h) for h in absent)
        notes.append(f"{grid.file}: no column {names}: every card keeps "
                     f"{'its value' if len(absent) == 1 else 'those values'} from the card files")
    return ImportResult([cf.path for cf in changed], final or result_set, added, removed,
                        [e for e in edited if e not in added], notes)


def _emptied(grid: Grid, columns: dict[int, SheetColumn], files: list[CardFile],
             placed: dict[str, list[_Row]], set_arg: str | Path) -> dict[str, str]:
    """A card file that has cards but no row of the sheet: the import would leave it with none,
    which the validator refuses as "file is empty" at the untouched file's line 1. Said in the
    sheet instead (at the ``file`` column's heading), by card file."""
    file_col = next((i for i, c in columns.items() if c is FILE_COLUMN), None)
    col = file_col if file_col is not None else next(i for i, c in columns.items()
                                                     if c.heading == "id")
    out = {}
    for cf in files:
        ids = [str(c.get("id")) for c in cf.cards if isinstance(c, dict)]
        if not ids or placed.get(cf.rel):
            continue
        shown = ", ".join(ids[:5]) + (" ..." if len(ids) > 5 else "")
        again = f"boneyard export {shlex.quote(str(set_arg))} --out another." + (
            "csv" if grid.sheet is None else "xlsx")
        which = (f"has {cf.rel} in column '{FILE_COLUMN.heading}'" if file_col is not None
                 else f"is a card of {cf.rel} (by its id: the sheet has no "
                      f"'{FILE_COLUMN.heading}' column)")
        out[cf.rel] = (
            f"{grid.where(0, col)}: no row of the sheet {which}, so importing would leave "
            f"{cf.rel} with no cards (it holds {shown}), and a set refuses an empty card "
            f"file; put its rows back "
            f"(`{again}` writes them), or, to drop the file, remove it from {GAME_FILE} first")
    return out


def _said_empty(problem: Problem, docs: dict[str, YamlDoc], emptied: dict[str, str]) -> bool:
    """The validator's "file is empty" for a card file :func:`_emptied` already said."""
    return any(docs[rel].file == problem.file and problem.message.startswith("file is empty")
               for rel in emptied if rel in docs)


def write_all(files: Sequence[tuple[Path, str]]) -> None:
    """Write every file or none, so an import never leaves a set half changed: each file's new
    text goes to a temporary file beside it first, and only when all of them are written are
    they renamed in; a rename that fails puts back the files already replaced (their old
    bytes). BoneyardError names the file that could not be written and says what was kept."""
    staged: list[tuple[Path, Path, Path, bytes]] = []  # (as named, real file, temp, old bytes)
    label = ""
    try:
        for path, text in files:
            label = display_path(path)
            target = path.resolve() if path.is_symlink() else path  # write through a link
            old = target.read_bytes()
            mode = stat.S_IMODE(target.stat().st_mode)
            fd, name = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp",
                                        dir=target.parent)
            staged.append((path, target, Path(name), old))
            with os.fdopen(fd, "wb") as f:
                f.write(text.encode("utf-8"))
                f.flush()
                os.fsync(f.fileno())
            os.chmod(name, mode)
    except BaseException as exc:
        for _, _, tmp, _ in staged:
            tmp.unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise BoneyardError(f"{label}: cannot write: {exc.strerror or exc}; no card file "
                                "was changed") from None
        raise
    done: list[tuple[Path, Path, Path, bytes]] = []
    for entry in staged:
        path, target, tmp, _ = entry
        try:
            os.replace(tmp, target)
        except OSError as exc:
            for _, _, left, _ in staged[len(done):]:
                left.unlink(missing_ok=True)
            raise BoneyardError(f"{display_path(path)}: cannot write: {exc.strerror or exc}"
                                f"{_put_back(done)}") from None
        done.append(entry)


def _put_back(done: Sequence[tuple[Path, Path, Path, bytes]]) -> str:
    """Restore the files an interrupted :func:`write_all` already replaced; what to tell."""
    if not done:
        return "; no card file was changed"
    restored, lost = [], []
    for path, target, _, old in done:
        try:
            write_atomic(target, old)
            restored.append(display_path(path))
        except OSError:
            lost.append(display_path(path))
    if not lost:
        return f"; put back the old {', '.join(restored)}, so no card file was changed"
    return (f"; could not put back the old {', '.join(lost)}: it holds the sheet's cards while "
            "the other card files hold their old ones (import the sheet again once the file "
            "above can be written)")


def _in_sheet_order(grid: Grid, lines: list[str]) -> list[str]:
    """Problems by row, then column, as a designer walks down the sheet; other files last."""
    head = re.escape(grid.file)

    def key(line: str) -> tuple[int, int, int]:
        m = re.match(head + r"(?::[^!]*!([A-Z]+)(\d+)|:(\d+):(\d+)):", line)
        if not m:
            return (1, 0, 0)
        if m.group(1):
            letters = m.group(1)
            col = 0
            for ch in letters:
                col = col * 26 + ord(ch) - 64
            return (0, int(m.group(2)), col)
        return (0, int(m.group(3)), int(m.group(4)))

    return sorted(dict.fromkeys(lines), key=key)


def _faithful(placed: dict[str, list[_Row]], docs: dict[str, YamlDoc], texts: dict[str, str],
              files: list[CardFile]) -> list[str]:
    """What the rewritten files say is what the rows say (a safety net under the YAML writer)."""
    out = []
    for cf in files:
        data = docs[cf.rel].data if isinstance(docs[cf.rel].data, list) else []
        ids = [str(r.card["id"]) for r in placed[cf.rel]]
        got = [str(c.get("id")) for c in data if isinstance(c, dict)]
        if ids != got:
            out.append(f"{cf.rel}: the rewritten file holds {got}, expected {ids} "
                       "(please report this)")
    del texts
    return out
