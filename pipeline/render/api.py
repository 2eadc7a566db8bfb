"""Render a card set: lay out every face once, then write the requested outputs atomically.

Everything that can fail on bad input (template, fonts, overflowing text, missing art, options)
fails in :func:`prepare`, before a single file is touched; outputs are written to temporary
names and renamed into place, so a failed run never leaves a broken file over a good one.
"""

from __future__ import annotations

import errno
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from boneyard.engine.cards import CardSet
from boneyard.engine.faces import Deck, Face, RulesRuns
from boneyard.engine.games import GAMES, build_deck, spec_of
from boneyard.pipeline.files import output_path
from boneyard.pipeline.validate import inside_set

from boneyard.errors import RenderError
from boneyard.files import atomic_dir, folder_lock
from boneyard.paths import CARDS, OUTPUT

from .colour import CmykProfile, find_cmyk_profile
from .images import proof_sheet, save_png, write_face_pngs, write_tts
from .layout import (
    ElementError,
    GlyphError,
    element_problems,
    layout_elements,
    unused_layouts,
    when_problems,
    when_value_warnings,
)
from .locate import Glyph, Written, field_message, find, glyph_messages, set_values
from .ops import DrawOp
from .preflight import Elements, preflight
from .sheets import (
    DEFAULT_PRINTER_MARGIN,
    DUPLEX,
    PdfOptions,
    page_count,
    plan_sheet,
    write_calibration,
    write_pdf,
)
from .shop import write_shop_pdf
from .template import Template, default_size, load_template
from .units import PAPERS, PROFILES, STANDARD_BLEED, CardSize, card_size

#: every output; ``shop`` (one card a page, for print shops) and ``calibration`` (a printer's
#: duplex offset) are asked for by name, the rest are written by default
FORMATS = ("pdf", "png", "tts", "proof", "shop", "calibration")
DEFAULT_FORMATS = ("pdf", "png", "tts", "proof")

#: progress(label, total) -> advance(); the CLI passes a rich progress bar
Progress = Callable[[str, int], Callable[[], None]]


@dataclass(frozen=True, slots=True)
class RenderOptions:
    formats: tuple[str, ...] = DEFAULT_FORMATS
    paper: str = "letter"
    size: str | None = None  # None: the template's size
    bleed: bool = False  # PDF: keep a 1/8 inch bleed around the grid (and into gutters)
    gutter: float = 0.0  # points between cards on a sheet; 0 = butted
    duplex: str = "long"
    fronts_only: bool = False
    profile: str = "tgc"
    watermark: str | None = None  # e.g. "NOT PLAYTESTED": across every page and image
    footer_note: str | None = None  # e.g. "playtested: 2000 games, gates passed"
    printer_margin: float = DEFAULT_PRINTER_MARGIN  # points nearest the paper edge we print
    fold: bool = False  # PDF: gutter fold, fronts and backs side by side on one-sided paper
    back_offset: tuple[float, float] = (0.0, 0.0)  # points, read on the calibration page
    cmyk: bool = False  # shop PDF: convert to CMYK through an ICC profile
    icc: str | None = None  # that profile (default: Ghostscript's CMYK profile)
    tts_base_url: str | None = None  # Tabletop Simulator: hosted images instead of file URIs


@dataclass(slots=True)
class RenderResult:
    out_dir: Path
    files: list[Path] = field(default_factory=list)
    pages: int = 0
    faces: int = 0
    warnings: list[str] = field(default_factory=list)  # preflight: printable, but not well

    def __iter__(self) -> Iterator[Path]:
        return iter(self.files)


@dataclass(frozen=True, slots=True)
class Prepared:
    deck: Deck
    template: Template
    size: CardSize
    layouts: dict[str, tuple[DrawOp, ...]]
    warnings: tuple[str, ...] = ()
    cmyk: CmykProfile | None = None


def template_path(card_set: CardSet) -> Path:
    """The set's own template.yaml, else the bundled one for its rules (fixture sets)."""
    if card_set.root:
        own = Path(card_set.root) / "template.yaml"
        _, why = inside_set(Path(card_set.root), "template.yaml")
        if why is not None and os.path.lexists(own):  # read, and quoted in messages: never elsewhere
            raise RenderError(f"{own}: template.yaml {why} (make it a file inside the set folder, "
                              "not a link to one elsewhere)")
        if own.is_file():
            return own
        if os.path.lexists(own):  # a FIFO, a folder, a broken link: never the bundled one instead
            raise RenderError(f"{own}: not a regular file (template.yaml must be a YAML file)")
    bundled = spec_of(card_set.rules).bundled_set if card_set.rules in GAMES else ""
    if not bundled or not (CARDS / bundled / "template.yaml").is_file():
        raise RenderError(f"set {card_set.name!r} has no template.yaml")
    return CARDS / bundled / "template.yaml"


def check_options(options: RenderOptions) -> None:
    def one_of(what: str, value: object, allowed: tuple[str, ...] | list[str]) -> None:
        if value not in allowed:
            raise RenderError(f"unknown {what} {value!r} (choose one of {', '.join(allowed)})")

    for f in options.formats:
        one_of("format", f, FORMATS)
    one_of("paper", options.paper, tuple(PAPERS))
    one_of("duplex mode", options.duplex, DUPLEX)
    one_of("image profile", options.profile, tuple(PROFILES))
    if options.size is not None:
        card_size(options.size)
    if options.gutter < 0:
        raise RenderError("the gutter cannot be negative")
    if options.printer_margin < 0:
        raise RenderError("the printer margin cannot be negative")
    if options.fold and options.fronts_only:
        raise RenderError("--gutter-fold prints each back beside its front; it cannot be "
                          "combined with --fronts-only")
    if "calibration" in options.formats and options.duplex == "none":
        raise RenderError("the calibration page measures two-sided printing: use --duplex long "
                          "or short with it")
    if options.cmyk and "shop" not in options.formats:
        raise RenderError("--cmyk converts the print shop's PDF: add shop to --format")
    if options.tts_base_url is not None and not re.match(r"^https?://\S+$",
                                                         options.tts_base_url):
        raise RenderError(f"--tts-base-url must be an http(s) address, got "
                          f"{options.tts_base_url!r}")
    _check_used(options)


def _check_used(options: RenderOptions) -> None:
    """An option for an output that is not asked for is refused, not silently ignored: a
    designer who writes ``--format png --bleed`` expects a bleed somewhere."""
    default = RenderOptions()
    wanted = set(options.formats)
    for outputs, given in (
        (("pdf",), [("--bleed", options.bleed), ("--gutter", options.gutter != default.gutter),
                    ("--fronts-only", options.fronts_only), ("--gutter-fold", options.fold)]),
        (("pdf", "calibration"), [("--duplex", options.duplex != default.duplex),
                                  ("--printer-margin",
                                   options.printer_margin != default.printer_margin),
                                  ("--back-offset", options.back_offset != default.back_offset)]),
        (("tts",), [("--tts-base-url", options.tts_base_url is not None)]),
    ):
        unused = [flag for flag, on in given if on]
        if unused and not wanted & set(outputs):
            names = " or ".join(outputs)
            raise RenderError(f"{', '.join(unused)} only change{'s' if len(unused) == 1 else ''} "
                              f"the {names} output, which --format does not ask for (add "
                              f"{names} to --format, or drop {', '.join(unused)})")


def prepare(card_set: CardSet, options: RenderOptions = RenderOptions(),
            rules_runs: RulesRuns | None = None, template: Template | None = None) -> Prepared:
    """Lay out every face and preflight it; raises RenderError naming every card that cannot
    be printed (text that does not fit or is too small, art too coarse, a badge in the cut)."""
    prep, errors, _ = _prepare(card_set, options, rules_runs, template)
    if prep is None:
        raise RenderError(_group_errors(errors))
    return prep


def _prepare(card_set: CardSet, options: RenderOptions, rules_runs: RulesRuns | None,
             template: Template | None) -> tuple[Prepared | None, list[str], list[str]]:
    """(prepared or None, problems, warnings): warnings are found even where problems are."""
    check_options(options)
    template = template or load_template(template_path(card_set))
    size = card_size(options.size or default_size(template))
    deck = build_deck(card_set, rules_runs)
    elements: dict[str, Elements] = {}
    errors = []
    glyphs: list[Glyph] = []
    failed: list[ElementError] = []
    font_names = {fid: name for name, fid in template.fonts.items()}
    for face in deck.faces:
        face_errors: list[RenderError] = []
        try:
            laid = layout_elements(face, template, size, face_errors)
        except RenderError as no_layout:
            face_errors.append(no_layout)
        else:
            if not face_errors:
                elements[face.id] = laid
        for err in face_errors:
            if isinstance(err, GlyphError):
                layout, line, col = err.where
                glyphs.append((face, font_names.get(err.font, err.font), err.chars, err.source,
                               f"{template.file}:{line}:{col}" if line else template.file,
                               f"layout '{layout}' element '{err.element}'"))
            elif isinstance(err, ElementError):
                failed.append(err)
            else:
                errors.append(str(err))
    values: list[Written] = []

    def at_field(err: ElementError) -> str | None:  # the card file line of the field to mend
        if err.field is None:
            return None
        if not values:
            values.extend(set_values(card_set))
        return field_message(err.face, err.field, values)

    errors += element_problems(deck, template, failed, at_field)
    if glyphs:  # said at the card file's line that holds the character
        errors += glyph_messages(glyphs, set_values(card_set))
    errors += when_problems(deck, template)
    errors += unused_layouts(deck, template)

    def art_at(face: Face) -> str | None:  # the card file line that names the face's art
        if not values:
            values.extend(set_values(card_set))
        rel = os.path.relpath(str(face.fields.get("art")), card_set.root) if card_set.root else ""
        w = find(values, face, rel, rel[:1]) if rel else None
        return f"{w.file}:{w.line}:{w.column}: card '{w.card}'" if w and w.card else None

    found = preflight(deck, template, size, elements, PROFILES[options.profile], art_at)
    errors += found.errors
    warnings = _group_errors(found.warnings).splitlines() if found.warnings else []
    warnings += when_value_warnings(deck, template)
    if errors:
        return None, errors, warnings
    if "pdf" in options.formats:  # a card too big for the paper fails here
        bleed = STANDARD_BLEED if options.bleed else 0.0
        plan_sheet(options.paper, size, options.gutter, bleed, options.printer_margin,
                   options.fold)
    cmyk = find_cmyk_profile(options.icc) if options.cmyk else None
    layouts = {fid: tuple(op for _, ops in els for op in ops) for fid, els in elements.items()}
    return Prepared(deck, template, size, layouts, tuple(warnings), cmyk), [], warnings


def preflight_set(card_set: CardSet, profile: str = "tgc") -> tuple[list[str], list[str]]:
    """(problems, warnings) of printing the set at every size its template names, as
    ``boneyard validate`` reports them; nothing is written."""
    template = load_template(template_path(card_set))
    errors: list[str] = []
    warnings: list[str] = []
    for size in template.print_sizes:
        _, bad, soft = _prepare(card_set, RenderOptions(formats=(), size=size, profile=profile),
                                None, template)
        if bad:
            errors += [line for line in _group_errors(bad).splitlines() if line not in errors]
        warnings += [line for line in soft if line not in warnings]
    return errors, warnings


def _group_errors(errors: list[str]) -> str:
    """One line per distinct problem: a template mistake shared by 18 cards is said once."""
    grouped: dict[str, list[str]] = {}
    for e in errors:
        m = re.match(r"^card '([^']*)': (.*)$", e, re.S)
        card, rest = (m.group(1), m.group(2)) if m else ("", e)
        grouped.setdefault(rest, []).append(card)
    lines = []
    for rest, named in grouped.items():
        cards = [c for c in dict.fromkeys(named) if c]  # a value's line: said once, card or not
        if not cards:
            lines.append(rest)
            continue
        # a template line leads, as in every other file:line:column message
        m = re.match(r"^(\S+:\d+:\d+): (.*)$", rest, re.S)
        where, what = (m.group(1) + ": ", m.group(2)) if m else ("", rest)
        if len(cards) == 1:
            lines.append(f"{where}card '{cards[0]}': {what}")
        else:
            shown = ", ".join(f"'{c}'" for c in cards[:4])
            more = f" and {len(cards) - 4} more" if len(cards) > 4 else ""
            lines.append(f"{where}cards {shown}{more}: {what}")
    return "\n".join(lines)


def _print_file(target: Path) -> Path:
    """``target``, unless something that is not a file stands at its name: a write-through
    (meant for ``--json /dev/stdout``) would open a FIFO left in the output folder and wait
    for a reader for ever. Said as an OSError naming it, before anything of it is written.
    A symbolic link is replaced by the print, never written through (:func:`output_path`)."""
    if target.is_symlink():
        return target
    try:
        mode = os.stat(target).st_mode
    except OSError:
        return target  # nothing there (or a broken link): written as usual
    if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
        raise OSError(errno.EINVAL, "not a regular file, where the render writes one (remove it)",
                      str(target))
    return target


def _targets(slug: str, out: Path, options: RenderOptions, size: str) -> dict[str, Path]:
    """Where each format of ``options`` is written in the set's output folder ``out``, for
    cards of ``size``: a file (pdf, shop, calibration, proof) or a folder (png, tts)."""
    suffix = ("-bleed" if options.bleed else "") + ("-fronts" if options.fronts_only else "")
    suffix += "-fold" if options.fold else ""
    names = {"pdf": f"{slug}-{size}-{options.paper}{suffix}.pdf",
             "shop": f"{slug}-{size}-1up{'-cmyk' if options.cmyk else ''}.pdf",
             "calibration": f"calibration-{options.paper}-{options.duplex}.pdf",
             "png": f"png-{options.profile}", "tts": "tts", "proof": "proof.png"}
    return {f: out / names[f] for f in options.formats}


def output_files(card_set: CardSet, out: Path, options: RenderOptions) -> list[Path]:
    """The files and folders :func:`render_set` would write into ``out`` (the set's output
    folder) for ``options``: asked before the work, so an output that is a link into the set is
    refused first (pipeline/files.py). A template that does not load names no size: the names
    that need one are left out, as the render stops on that template before writing any."""
    size = options.size
    if size is None:
        try:
            size = default_size(load_template(template_path(card_set)))
        except RenderError:
            size = None
    if size is None:
        sized = ("pdf", "shop")
        return [p for f, p in _targets(card_set.slug, out, options, "").items() if f not in sized]
    return list(_targets(card_set.slug, out, options, card_size(size).name).values())


def _waiting(note: str) -> None:
    print(f"note: {note}", file=sys.stderr, flush=True)


def render_set(card_set: CardSet, out_dir: str | Path | None = None,
               options: RenderOptions | None = None, *, watermark: str | None = None,
               footer_note: str | None = None, progress: Progress | None = None,
               rules_runs: RulesRuns | None = None,
               written: list[tuple[str, Path]] | None = None) -> RenderResult:
    """Render the requested formats into ``out_dir`` (default ``output/<set>/``).

    ``written`` gets (format, path) as each output is in place, so a caller stopped half way
    (Ctrl-C) can say which outputs are new and which still hold the last render.

    ``watermark`` (e.g. "NOT PLAYTESTED") is printed across every page and image and
    ``footer_note`` (e.g. "playtested: 2000 games, gates passed") goes into every page footer and
    the PDF metadata; given here they override the same fields of ``options``.
    """
    options = options or RenderOptions()
    if watermark is not None or footer_note is not None:
        options = replace(options,
                          watermark=watermark if watermark is not None else options.watermark,
                          footer_note=footer_note if footer_note is not None
                          else options.footer_note)
    prep = prepare(card_set, options, rules_runs)
    out = Path(out_dir) if out_dir is not None else OUTPUT / card_set.slug
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        if out.is_symlink() and not out.exists():  # mkdir says only "File exists"
            raise RenderError(f"{out}: is a link to {os.readlink(out)}, which does not exist "
                              "(remove the link, or make what it names; or choose another "
                              "--out)") from None
        raise RenderError(f"{out}: cannot create the output folder: {exc.strerror or exc} "
                          "(choose another --out)") from None
    done = written if written is not None else []
    try:
        with folder_lock(out, _waiting):
            return _write_outputs(card_set, prep, out, options, progress, done)
    except OSError as exc:  # a full disk, a file in the way: the temporary files are gone
        from PIL import UnidentifiedImageError

        name = getattr(exc, "filename", None)
        if name is None and isinstance(exc, UnidentifiedImageError):  # PIL names it in words
            found = re.search(r"'(.+)'", str(exc))
            name = found.group(1) if found else None
        root = Path(card_set.root).resolve() if card_set.root else None
        if isinstance(name, str) and root is not None and root in Path(name).resolve().parents:
            # an input (art, a font, an image the template names) gone or spoilt mid-render
            why = "not an image any more" if isinstance(exc, UnidentifiedImageError) \
                else exc.strerror or str(exc)
            wrote = "nothing was written" if not done else \
                f"only {', '.join(f for f, _ in done)} was written"  # the rest: an earlier render's
            raise RenderError(f"{name}: cannot read: {why} (was it changed or removed while "
                              f"the set rendered? render again; {wrote})") from None
        raise RenderError(f"{name or out}: cannot write: {exc.strerror or exc}") from None


def _write_outputs(card_set: CardSet, prep: Prepared, out: Path, options: RenderOptions,
                   progress: Progress | None, written: list[tuple[str, Path]]) -> RenderResult:
    deck, size, layouts = prep.deck, prep.size, prep.layouts
    result = RenderResult(out, faces=len(deck.faces), warnings=list(prep.warnings))
    targets = _targets(card_set.slug, out, options, size.name)

    def task(label: str, total: int) -> Callable[[], None] | None:
        return progress(label, total) if progress else None

    if "pdf" in options.formats:
        bleed = STANDARD_BLEED if options.bleed else 0.0
        pdf_opts = PdfOptions(options.paper, options.gutter, bleed, options.duplex,
                              options.fronts_only, options.watermark, options.footer_note,
                              options.printer_margin, options.fold, options.back_offset)
        plan = plan_sheet(options.paper, size, options.gutter, bleed, options.printer_margin,
                          options.fold)
        pages = page_count(len(deck.cards), plan, options.fronts_only)
        sides = 1 if options.fronts_only else 2
        target = targets["pdf"]
        advance = task(f"PDF ({pages} pages)", len(deck.cards) * sides)
        with output_path(_print_file(target)) as tmp:
            result.pages = write_pdf(tmp, deck, layouts, size, pdf_opts, advance)
        result.files.append(target)
        written.append(("pdf", target))
    if "shop" in options.formats:
        target = targets["shop"]
        advance = task("print shop PDF, one card a page", len(deck.cards))
        with output_path(_print_file(target)) as tmp:
            write_shop_pdf(tmp, deck, layouts, size, prep.cmyk, options.watermark,
                           options.footer_note, advance)
        result.files.append(target)
        written.append(("shop", target))
    if "calibration" in options.formats:
        target = targets["calibration"]
        with output_path(_print_file(target)) as tmp:
            write_calibration(tmp, options.paper, options.duplex, options.printer_margin,
                              options.back_offset)
        result.files.append(target)
        written.append(("calibration", target))
    if "png" in options.formats:
        target = targets["png"]
        advance = task(f"card images ({options.profile})", len(deck.faces))
        with atomic_dir(target) as tmp:  # old or new folder at every instant
            write_face_pngs(tmp, deck, layouts, size, PROFILES[options.profile],
                            options.watermark, advance)
        result.files.append(target)
        written.append(("png", target))
    if "tts" in options.formats:
        target = targets["tts"]
        advance = task("Tabletop Simulator sheets", len(deck.fronts))
        rules_text = spec_of(card_set.rules).rules_text(card_set) if card_set.rules in GAMES \
            else {}
        with atomic_dir(target) as tmp:  # old or new folder at every instant
            write_tts(tmp, deck, layouts, size, options.watermark, advance, rules_text,
                      options.tts_base_url, target)
        result.files.append(target)
        written.append(("tts", target))
    if "proof" in options.formats:
        target = targets["proof"]
        advance = task("proof sheet", len(deck.faces))
        sheet = proof_sheet(deck, layouts, size, options.watermark, advance)
        with output_path(_print_file(target)) as tmp:
            save_png(sheet, tmp)
        result.files.append(target)
        written.append(("proof", target))
    return result
