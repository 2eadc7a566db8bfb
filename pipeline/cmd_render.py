"""``boneyard render``: print-and-play PDF sheets, card images, Tabletop Simulator sheets, proof.

Rendering is gated like ``boneyard build``: without a passing playtest record for the cards'
current content hash it refuses, unless ``--force``, which marks every page and image.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import click
from boneyard.pipeline.render.api import FORMATS, RenderOptions, render_set
from boneyard.pipeline.render.sheets import DUPLEX
from boneyard.pipeline.render.units import CARD_SIZES, PAPERS, PROFILES, parse_length
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from boneyard.errors import RenderError
from boneyard.paths import OUTPUT


def _formats(value: str) -> tuple[str, ...]:
    chosen = tuple(f.strip() for f in value.split(",") if f.strip())
    bad = [f for f in chosen if f not in FORMATS]
    if bad or not chosen:
        raise click.BadParameter(f"{', '.join(bad) or value!r}: choose from {', '.join(FORMATS)}",
                                 param_hint="--format")
    return chosen


@click.command("render")
@click.argument("set_name", metavar="SET")
@click.option("--format", "formats", default=",".join(FORMATS), show_default=True,
              help="Comma-separated outputs: pdf (sheets), png (one image per face), tts "
                   "(Tabletop Simulator deck sheets), proof (contact sheet).")
@click.option("--paper", type=click.Choice(sorted(PAPERS)), default="letter", show_default=True)
@click.option("--size", type=click.Choice(list(CARD_SIZES)), default=None,
              help="Card size (default: the template's, normally poker 63.5 x 88.9 mm).")
@click.option("--bleed", is_flag=True, help="PDF: keep a 1/8 inch bleed around the cut.")
@click.option("--gutter", default="0", show_default=True,
              help="PDF: space between cards, e.g. 3mm or 0.125in; a bare number is points "
                   "(0: butted, one cut between cards).")
@click.option("--duplex", type=click.Choice(DUPLEX), default="long", show_default=True,
              help="PDF backs: mirrored for long-edge or short-edge duplex, or unmirrored (none).")
@click.option("--fronts-only", is_flag=True, help="PDF: no back pages.")
@click.option("--profile", type=click.Choice(list(PROFILES)), default="tgc", show_default=True,
              help="Card images: tgc 825x1125, mpc 822x1122, trimmed 750x1050 (poker).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Output folder (default: output/); the set goes to <out>/<set>/, next to "
                   "its playtest record.")
@click.option("--force", is_flag=True,
              help="Render without a passing playtest record, marked across every page.")
def render_cmd(set_name: str, formats: str, paper: str, size: str | None, bleed: bool,
               gutter: str, duplex: str, fronts_only: bool, profile: str, out: Path | None,
               force: bool) -> None:
    """Render SET for print: PDF sheets, card PNGs, Tabletop Simulator sheets, a proof sheet.

    Only cards that passed their playtest are rendered (run `boneyard build SET` first);
    --force renders anyway, with NOT PLAYTESTED across every page and image. Files go to
    output/<set>/ (see docs/printing.md).
    """
    from boneyard.pipeline.load import load_set

    try:
        gutter_pt = parse_length(gutter, "gutter")
    except RenderError:
        raise click.BadParameter(f"expected a length such as 3mm, 0.125in or 4pt, got {gutter!r}",
                                 param_hint="--gutter") from None
    if gutter_pt < 0:
        raise click.BadParameter(f"the space between cards cannot be negative, got {gutter!r}",
                                 param_hint="--gutter")
    options = RenderOptions(formats=_formats(formats), paper=paper, size=size, bleed=bleed,
                            gutter=gutter_pt, duplex=duplex, fronts_only=fronts_only,
                            profile=profile)
    card_set = load_set(set_name)
    footer_note, watermark = _permission(card_set, out, force)
    console = Console(file=sys.stderr)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console, transient=True,
                  disable=not console.is_terminal) as bar:

        def progress(label: str, total: int) -> Callable[[], None]:
            task = bar.add_task(label, total=total)
            return lambda: bar.advance(task)

        result = render_set(card_set, (out or OUTPUT) / card_set.slug, options, watermark=watermark,
                            footer_note=footer_note, progress=progress)
    for path in result.files:
        click.echo(str(path))
    if watermark:
        click.echo(f"marked {watermark}: not for print", err=True)


def _permission(card_set: object, out: Path | None, force: bool) -> tuple[str | None, str | None]:
    """(footer note, watermark) from the playtest record, as ``boneyard build`` decides them."""
    from boneyard.pipeline.build import render_permission

    return render_permission(card_set, out, force)  # type: ignore[arg-type]


def register(group: click.Group) -> None:
    group.add_command(render_cmd)
