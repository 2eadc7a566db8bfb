"""``boneyard export``, ``boneyard import`` and ``boneyard new``: the designer's own files.

``export`` and ``import`` move a set's cards to a spreadsheet and back (``pipeline/sheets.py``);
``new`` starts a card set folder from a bundled one (``pipeline/new_set.py``).
"""

from __future__ import annotations

import shlex
from pathlib import Path

import click
from boneyard.pipeline.validate_yaml import display_path

FORMAT_CHOICE = click.Choice(["xlsx", "csv"])


@click.command("export")
@click.argument("set_name", metavar="SET")
@click.option("--format", "fmt", type=FORMAT_CHOICE, default=None,
              help="xlsx or csv [default: from --out's suffix, else xlsx]; must agree with "
                   "--out's suffix.")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The sheet to write (default: the Boneyard folder's output/<set>/cards.<format>, "
                   "whatever the current folder).")
@click.option("--force", is_flag=True,
              help="Overwrite the sheet even if it holds edits the card files do not.")
def export_cmd(set_name: str, fmt: str | None, out: Path | None, force: bool) -> None:
    """Write SET's cards as one spreadsheet: a row a card, a column a field.

    The effect is shown twice: as its printed rules text (read only) and as one line of YAML
    (the cell `import` reads). Edit the sheet, then `boneyard import SET FILE`. A sheet already
    there that says something the card files do not (edits not yet imported) is kept unless
    --force is given.
    """
    from boneyard.pipeline.files import refuse_set_outputs
    from boneyard.pipeline.load import resolve_set
    from boneyard.pipeline.sheet_io import stream_fd
    from boneyard.pipeline.sheets import export_set

    from boneyard.paths import OUTPUT

    given = out is not None
    root = resolve_set(set_name)
    default = OUTPUT / root.resolve().name / f"cards.{fmt or 'xlsx'}"
    if out is None:
        out = default
    else:
        fmt = _out_format(out, fmt)
        above = next((p for p in out.parents if p.exists()), None)
        if above is not None and not above.is_dir():  # "File exists" from the OS said nothing
            raise click.BadParameter(f"{display_path(above)} is a file, not a folder: "
                                     "the sheet cannot go inside it", param_hint="'--out'")
    # a link into the set (cards.csv -> S/deck.yaml) was written through: refused, exit 2
    said = f"--out {out}" if given else f"the default sheet {display_path(out)}"
    refuse_set_outputs(root, [(said, out)], "the sheet",
                       f"e.g. {display_path(default.with_suffix('.' + (fmt or 'xlsx')))}")
    stream = stream_fd(out) is not None  # /dev/stdout: what the shell opened, not a sheet to keep
    if not force and not stream and out.is_file() and out.stat().st_size > 0:
        _keep_edits(set_name, out, given)  # an empty file holds no edits: written over
    path, rows = export_set(set_name, out, fmt)
    click.echo(f"wrote {display_path(path)} ({rows} rows)", err=stream)  # not into the sheet


def _keep_edits(set_name: str, out: Path, given: bool) -> None:
    """Refuse to overwrite a sheet that imports as a change (or does not import at all): it may
    hold a designer's edits, and export would silently throw them away."""
    from boneyard.pipeline.sheets import SheetError, import_set

    where = f" --out {shlex.quote(str(out))}" if given else ""
    redo = f"boneyard export {shlex.quote(set_name)}{where} --force"
    try:
        result = import_set(set_name, out, dry_run=True)
    except SheetError as exc:
        raise click.ClickException(
            f"{display_path(out)} is there and does not read as this set's sheet "
            f"({exc.lines[0] if exc.lines else 'unreadable'}{'; ...' if len(exc.lines) > 1 else ''}): "
            f"export keeps it; write elsewhere with --out, or replace it with `{redo}`") from None
    if not result.changed:
        return
    said = "; ".join(f"{what} {', '.join(ids[:5])}{' ...' if len(ids) > 5 else ''}"
                     for what, ids in (("edited", result.edited), ("added", result.added),
                                       ("removed", result.removed)) if ids)
    raise click.ClickException(
        f"{display_path(out)} differs from the card files ({said}): if those are edits made in "
        f"the sheet, import them first (`boneyard import {shlex.quote(set_name)} "
        f"{shlex.quote(str(out))}`); to replace the sheet with the card files as they are, "
        f"`{redo}`")


def _out_format(out: Path, fmt: str | None) -> str:
    """The format for ``--out``: a name ending in .xlsx or .csv says it and --format must agree;
    any other ending is refused (a workbook named cards.pdf or cards.csv opens as garbage);
    a name with no suffix (``/dev/stdout``) needs --format."""
    suffix = out.suffix.lower()
    named = suffix.lstrip(".") if suffix in (".xlsx", ".csv") else None
    if named is not None:
        if fmt is not None and fmt != named:
            raise click.BadParameter(f"{display_path(out)} ends in {suffix} but --format is "
                                     f"{fmt} (name it {out.with_suffix('.' + fmt).name}, or "
                                     f"drop --format)", param_hint="'--out'")
        return named
    if suffix:
        raise click.BadParameter(f"{display_path(out)}: a sheet is .xlsx or .csv, not {suffix} "
                                 f"(name it {out.with_suffix('.' + (fmt or 'xlsx')).name})",
                                 param_hint="'--out'")
    if fmt is None:
        raise click.BadParameter(f"{display_path(out)} has no suffix to tell the format (name "
                                 f"it {out.name}.xlsx or {out.name}.csv, or give --format)",
                                 param_hint="'--out'")
    return fmt


@click.command("import")
@click.argument("set_name", metavar="SET")
@click.argument("sheet", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--dry-run", is_flag=True, help="Check the sheet and say what would change; write nothing.")
def import_cmd(set_name: str, sheet: Path, dry_run: bool) -> None:
    """Read SHEET (.xlsx or .csv, as `export` writes it) back into SET's card files.

    Only the cards that changed are rewritten; comments, key order and layout stay. The whole
    resulting set is validated first: each problem is printed at its cell
    (cards.xlsx:Characters!C12) and nothing is written while any is left.
    """
    if not sheet.exists():  # a usage error, as a missing file is for replay and scenario
        raise click.UsageError(f"no sheet file '{sheet}'")
    from boneyard.pipeline.sheets import import_set

    result = import_set(set_name, sheet, dry_run=dry_run)
    verb = "would change" if dry_run else "changed"
    for note in result.notes:
        click.echo(f"note: {note}", err=True)
    if not result.changed:
        click.echo(f"no changes: the sheet says what the card files say "
                   f"(content {result.card_set.content_hash})")
        return
    for what, ids in (("edited", result.edited), ("added", result.added),
                      ("removed", result.removed)):
        if ids:
            click.echo(f"{what}: {', '.join(ids)}")
    for path in result.changed:
        click.echo(f"{verb} {display_path(path)}")
    click.echo(f"content {result.card_set.content_hash}")


@click.command("new")
@click.argument("name")
@click.option("--like", "like", required=True, metavar="SET",
              help="The set to start from: a bundled set's name or a set folder.")
@click.option("--dir", "parent", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where to make the folder [default: the current folder].")
def new_cmd(name: str, like: str, parent: Path | None) -> None:
    """Start a card set folder NAME as a copy of SET, ready to validate and build.

    NAME may be a path (../sets/spooky-dead) instead of --dir. The copy gets NAME as its name;
    the editor's schema lines point at this project's schemas from the new folder. An existing
    NAME is never overwritten.
    """
    from boneyard.pipeline.load import resolve_set
    from boneyard.pipeline.new_set import new_set

    folder = new_set(name, like, parent)
    click.echo(f"made {display_path(folder)} from {like}")
    arg = display_path(folder)
    if "/" not in arg and resolve_set(arg).resolve() != folder.resolve():
        arg = f"./{arg}"  # a bare name is the bundled set of that name, not this folder
    arg = shlex.quote(arg)  # a command to paste: a name with a space is quoted
    click.echo(f"next: boneyard validate {arg}   (then: boneyard build {arg} --fast)")


def register(group: click.Group) -> None:
    group.add_command(export_cmd)
    group.add_command(import_cmd)
    group.add_command(new_cmd)
