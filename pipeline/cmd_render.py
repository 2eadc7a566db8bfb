"""``boneyard render``: print-and-play PDF sheets, card images, Tabletop Simulator sheets, proof.

Rendering is gated like ``boneyard build``: without a passing playtest record for the cards'
current content hash it refuses, unless ``--force``, which marks every page and image.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import click
from boneyard.pipeline.console import Console
from boneyard.pipeline.files import refuse_set_folder, refuse_set_outputs
from boneyard.pipeline.render.api import (
    DEFAULT_FORMATS,
    FORMATS,
    RenderOptions,
    check_options,
    output_files,
    render_set,
)
from boneyard.pipeline.render.sheets import DEFAULT_PRINTER_MARGIN, DUPLEX
from boneyard.pipeline.render.units import (
    CARD_SIZES,
    PAPERS,
    PROFILES,
    PT_PER_MM,
    card_size,
    parse_length,
)
from boneyard.pipeline.validate_yaml import display_path
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from boneyard.errors import RenderError, excerpt
from boneyard.paths import OUTPUT

if TYPE_CHECKING:
    from boneyard.engine.cards import CardSet


def _formats(value: str) -> tuple[str, ...]:
    chosen = tuple(f.strip() for f in value.split(",") if f.strip())
    bad = [f for f in chosen if f not in FORMATS]
    if bad or not chosen:
        raise click.BadParameter(f"{', '.join(bad) or value!r}: choose from {', '.join(FORMATS)}",
                                 param_hint="--format")
    return chosen


def _size(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is None:
        return None
    try:
        return card_size(value).name
    except RenderError as exc:
        raise click.BadParameter(str(exc)) from None


def _millimetres(value: str, option: str) -> float:
    """Points from a length; a bare number is millimetres here (printer margins, offsets)."""
    text = value.strip()
    try:
        points = float(text) * PT_PER_MM if text and text.lstrip("+-").replace(".", "", 1).isdigit() \
            else parse_length(text, option)
    except RenderError:
        points = math.nan
    if not math.isfinite(points):  # a word, or digits past any float ('9' * 400): no length
        raise click.BadParameter(f"expected millimetres such as 4.5 or a length such as 0.2in, "
                                 f"got {excerpt(repr(value))}", param_hint=option)
    return points


OUT_HELP = "Output folder (default: the Boneyard folder's output/, whatever the current folder)"
"""How every command writing to an output folder starts its ``--out`` help (build, render, watch)."""


def out_folder(ctx: click.Context, param: click.Parameter, value: str | None) -> Path | None:
    """``--out`` as a folder; an empty one is a usage error, not the current folder (which is
    what ``Path("")`` means, so a blank variable in a script would scatter files there)."""
    if value is None:
        return None
    if not value.strip():
        raise click.BadParameter("the output folder is empty: name a folder, or leave out --out "
                                 "for the default output/")
    return Path(value)


def _offset(value: str) -> tuple[float, float]:
    parts = value.split(",")
    if len(parts) != 2:
        raise click.BadParameter(f"expected X,Y in millimetres such as 0.5,-1, got {value!r}",
                                 param_hint="--back-offset")
    x, y = (_millimetres(v, "--back-offset") for v in parts)
    if max(abs(x), abs(y)) > 20 * PT_PER_MM:
        raise click.BadParameter(f"{value!r}: an offset over 20 mm is a misfeed, not an offset",
                                 param_hint="--back-offset")
    return (x, y)


@click.command("render")
@click.argument("set_name", metavar="SET")
@click.option("--format", "formats", default=",".join(DEFAULT_FORMATS), show_default=True,
              help="Comma-separated outputs: pdf (sheets), png (one image per face), tts "
                   "(Tabletop Simulator deck sheets and saved object), proof (contact sheet); "
                   "on request: shop (one card a page with bleed, for print shops), "
                   f"calibration (printer offset page). All: {','.join(FORMATS)}.")
@click.option("--paper", type=click.Choice(sorted(PAPERS)), default="letter", show_default=True)
@click.option("--size", callback=_size, default=None, metavar="SIZE",
              help=f"Card size: {', '.join(CARD_SIZES)}, or WxH such as 63x88mm or 2.5x3.5in "
                   "(default: the template's, normally poker 63.5 x 88.9 mm).")
@click.option("--bleed", is_flag=True, help="PDF: keep a 1/8 inch bleed around the cut.")
@click.option("--gutter", default="0", show_default=True,
              help="PDF: space between cards, e.g. 3mm or 0.125in; a bare number is points "
                   "(0: butted, one cut between cards).")
@click.option("--duplex", type=click.Choice(DUPLEX), default="long", show_default=True,
              help="PDF backs: placed for long-edge or short-edge duplex (short: each back is "
                   "printed turned 180 degrees, so it is upright behind its front), or in their "
                   "fronts' slots (none).")
@click.option("--fronts-only", is_flag=True, help="PDF: no back pages.")
@click.option("--printer-margin", default=None, metavar="MM",
              help="PDF: the border your printer cannot print, in mm; crop marks and footer stay "
                   f"inside it (default 1/6 inch, {DEFAULT_PRINTER_MARGIN / PT_PER_MM:.2f} mm, "
                   "as laser printers leave; 0 for a borderless printer).")
@click.option("--gutter-fold", is_flag=True,
              help="PDF: fronts and backs side by side on one-sided paper, fold on the dashed "
                   "line and glue (no duplex printer needed).")
@click.option("--back-offset", default=None, metavar="X,Y",
              help="PDF: your printer's duplex offset in mm as read on the calibration page "
                   "(--format calibration); the backs are moved to undo it.")
@click.option("--cmyk", is_flag=True,
              help="Shop PDF: CMYK through an ICC profile (default: Ghostscript's), embedded "
                   "as the OutputIntent.")
@click.option("--icc", type=click.Path(dir_okay=False, exists=True), default=None,
              metavar="FILE", help="With --cmyk: the print shop's ICC profile.")
@click.option("--tts-base-url", default=None, metavar="URL",
              help="Tabletop Simulator: where the sheets are hosted (default: file URIs to this "
                   "folder, for a game on this computer).")
@click.option("--profile", type=click.Choice(list(PROFILES)), default="tgc", show_default=True,
              help="Card images: tgc 825x1125, mpc 822x1122, trimmed 750x1050 (poker).")
@click.option("--out", type=click.Path(file_okay=False), callback=out_folder, default=None,
              help=f"{OUT_HELP}; the set goes to <out>/<set>/, next to its playtest record.")
@click.option("--force", is_flag=True,
              help="Render without a passing playtest record, marked across every page.")
def render_cmd(set_name: str, formats: str, paper: str, size: str | None, bleed: bool,
               gutter: str, duplex: str, fronts_only: bool, printer_margin: str | None,
               gutter_fold: bool, back_offset: str | None, cmyk: bool, icc: str | None,
               tts_base_url: str | None, profile: str, out: Path | None, force: bool) -> None:
    """Render SET for print: PDF sheets, card PNGs, Tabletop Simulator sheets, a proof sheet.

    Only cards that passed their playtest are rendered (run `boneyard build SET` first);
    --force renders anyway, with NOT PLAYTESTED across every page and image. Files go to
    output/<set>/ (see docs/printing.md).
    """
    from boneyard.pipeline.load import load_set

    if icc and not cmyk:
        raise click.UsageError("--icc is the print shop's profile for CMYK output: add --cmyk (or drop --icc)")
    try:
        gutter_pt = parse_length(gutter, "gutter")
    except RenderError:
        gutter_pt = math.nan
    if not math.isfinite(gutter_pt):  # a word, or digits past any float ('9' * 400)
        raise click.BadParameter(f"expected a length such as 3mm, 0.125in or 4pt, got "
                                 f"{excerpt(repr(gutter))}", param_hint="--gutter")
    if gutter_pt < 0:
        raise click.BadParameter(f"the space between cards cannot be negative, got {gutter!r}",
                                 param_hint="--gutter")
    margin = (DEFAULT_PRINTER_MARGIN if printer_margin is None
              else _millimetres(printer_margin, "--printer-margin"))
    if margin < 0:
        raise click.BadParameter(f"the printer margin cannot be negative, got {printer_margin!r}",
                                 param_hint="--printer-margin")
    options = RenderOptions(formats=_formats(formats), paper=paper, size=size, bleed=bleed,
                            gutter=gutter_pt, duplex=duplex, fronts_only=fronts_only,
                            profile=profile, printer_margin=margin, fold=gutter_fold,
                            back_offset=_offset(back_offset) if back_offset else (0.0, 0.0),
                            cmyk=cmyk, icc=icc, tts_base_url=tts_base_url)
    check_options(options)  # a mistyped option is said before the set is read or refused
    card_set = load_set(set_name)
    target = (out or OUTPUT) / card_set.slug
    refuse_set_folder(Path(card_set.root), "--out", out, target, "the prints")
    _refuse_links_into_set(card_set, out, target, options)
    footer_note, watermark = _permission(card_set, out, force)
    console = Console(file=sys.stderr)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console, transient=True,
                  disable=not console.is_terminal) as bar:

        def progress(label: str, total: int) -> Callable[[], None]:
            task = bar.add_task(label, total=total)
            return lambda: bar.advance(task)

        written: list[tuple[str, Path]] = []
        try:
            result = render_set(card_set, target, options,
                                watermark=watermark, footer_note=footer_note, progress=progress,
                                written=written)
        except BaseException as exc:
            if not isinstance(exc, Exception) or written:  # Ctrl-C, SIGTERM, a full disk
                _stopped(written, options.formats)  # half way: say what is new, then stop
            raise
    _still_as_read(card_set, result.files)
    for line in result.warnings:
        click.echo(f"warning: {line}", err=True)
    for path in result.files:
        click.echo(str(path))
    if watermark:
        click.echo(f"marked {watermark}: not for print", err=True)


def _refuse_links_into_set(card_set: CardSet, out: Path | None, target: Path,
                           options: RenderOptions) -> None:
    """SetFileClash (exit 2), before any work, when an output the render would write in
    ``target`` is a symbolic link into the set (to one of its files, or into its folder): it
    was written through, so the PDF or the proof replaced template.yaml or a card file. Other
    links there are replaced by the new prints (pipeline/files.py: output_path)."""
    root = Path(card_set.root)
    default = OUTPUT / root.resolve().name
    fix = (f"leave out --out for {display_path(default)}" if out is not None
           and default.resolve() != target.resolve() else "give another folder with --out")
    refuse_set_outputs(root, [(display_path(p), p) for p in
                              output_files(card_set, target, options)],
                       "the prints", fix)


def _stopped(written: list[tuple[str, Path]], formats: tuple[str, ...]) -> None:
    """Each output is replaced whole, so a render stopped half way leaves new outputs beside
    the last render's: name both, so the folder is not taken for one render."""
    done = [f for f, _ in written]
    left = [f for f in formats if f not in done]
    for _, path in written:
        click.echo(str(path))
    if left:
        new = f"wrote {', '.join(done)}; " if done else "wrote nothing; "
        click.echo(f"stopped: {new}not rendered: {', '.join(left)} (any such output in the "
                   "folder is from an earlier render; render again for a matching set)", err=True)


def _still_as_read(card_set: object, files: list[Path]) -> None:
    """RenderError when the template, a file it names or art was saved while the set rendered:
    they are read from disk as the prints are made, so the prints may mix both contents under
    the record's note for the content read first."""
    from boneyard.pipeline.build import changed_since_read

    moved = changed_since_read(card_set)  # type: ignore[arg-type]
    if moved is not None:
        for path in files:
            click.echo(str(path))
        raise RenderError(f"the set's files changed while it was rendered ({moved}): the prints "
                          "above may mix the old and the new content; render again")


def _permission(card_set: object, out: Path | None, force: bool) -> tuple[str | None, str | None]:
    """(footer note, watermark) from the playtest record, as ``boneyard build`` decides them."""
    from boneyard.pipeline.build import render_permission

    return render_permission(card_set, out, force)  # type: ignore[arg-type]


def register(group: click.Group) -> None:
    group.add_command(render_cmd)
