"""Layout: a pure function from (card face, template, card size) to drawing operations.

All measuring happens here, in points, with the font files' own metrics: text is shrunk from its
largest size until it fits its box (never below ``min_size``; past that the card cannot be
printed and a RenderError names it), broken into lines, and placed run by run. Backends then only
paint, so the PDF and the PNG of a card show the same words on the same lines.
"""

from __future__ import annotations

import colorsys
import difflib
import hashlib
import math
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boneyard.engine.faces import Deck, Face

from boneyard.errors import RenderError

from . import fonts
from .emblems import EMBLEMS, emblem_ops
from .ops import DrawOp, Ellipse, Polygon, Rect, Text
from .ops import Image as ImageOp
from .template import Template, resolve_colour
from .units import PT_PER_IN, STANDARD_BLEED, CardSize, card_size, describe, parse_length

CAP_HEIGHT = 0.73  # Vera's capital height per em: centres capitals and digits in a line box
SIZE_STEP = 0.25  # points between the font sizes tried when shrinking text
#: A design drawn for one size is scaled about this inset, so what sits inside the design's safe
#: line stays inside the new card's (the print shops' 1/8 inch).
SCALE_INSET = 0.125 * PT_PER_IN


@dataclass(frozen=True, slots=True)
class Box:
    x: float
    y: float
    w: float
    h: float


def pick_layout(face: Face, template: Template) -> str:
    """The first of the face's layouts the template has; a RenderError located at the
    template's ``layouts:`` (the same words for every card it misses, so they are said once)."""
    for name in face.layouts:
        if name in template.layouts:
            return name
    line, col = template.layouts_at
    raise RenderError(f"card '{face.id}': {template.file}:{line}:{col}: no layout named "
                      f"{' or '.join(face.layouts)} (add one under layouts:)")


def layout_card(face: Face, template: Template, size: CardSize) -> tuple[DrawOp, ...]:
    """Every drawing operation of one face, in card coordinates (points, y down, trim origin)."""
    return tuple(op for _, ops in layout_elements(face, template, size) for op in ops)


def design_transform(design: CardSize, size: CardSize) -> tuple[float, float, float]:
    """(k, dx, dy): a design point (x, y) lands at (dx + k x, dy + k y) on a card of ``size``.

    The design is scaled about its 1/8 inch inset (:data:`SCALE_INSET`) and centred, so its
    margins stay margins: what lay inside the design's safe line lies inside the new card's.
    """
    s = SCALE_INSET
    k = min((size.width - 2 * s) / (design.width - 2 * s),
            (size.height - 2 * s) / (design.height - 2 * s))
    dx = s - s * k + ((size.width - 2 * s) - (design.width - 2 * s) * k) / 2
    dy = s - s * k + ((size.height - 2 * s) - (design.height - 2 * s) * k) / 2
    return k, dx, dy


def layout_elements(face: Face, template: Template, size: CardSize,
                    errors: list[RenderError] | None = None
                    ) -> list[tuple[dict[str, Any], tuple[DrawOp, ...]]]:
    """Each drawn element of one face with its operations (preflight names elements).

    An element that cannot be drawn raises its RenderError; given ``errors``, it is added
    there and the other elements are still laid out, so one pass finds every problem.

    A template is drawn for its own card size. For another size the layout is scaled as a
    whole (text keeps its line breaks) by :func:`design_transform`, while full-card boxes
    (``box: bleed`` or ``trim``) are fitted to the new card, so a poker design also prints as
    mini or tarot. Text never goes below the template's ``min_size``: where scaling would take
    it there, it is set again in its scaled box from that size, or the card cannot be printed
    at this size and a RenderError says so.
    """
    design = card_size(template.size)
    lname = pick_layout(face, template)
    ctx = _Ctx(face, template, design, lname)
    same = (design.width, design.height) == (size.width, size.height)
    if not same:
        ctx.at = f" at {describe(size)}"
    k, dx, dy = design_transform(design, size)
    out: list[tuple[dict[str, Any], tuple[DrawOp, ...]]] = []
    for el in template.layouts[lname]:
        ctx.element, ctx.key = el["name"], ""
        if not _matches(el.get("when"), face):
            continue
        try:
            ops = _element(el, ctx, size, same, (k, dx, dy))
        except RenderError as exc:
            if errors is None:
                raise
            errors.append(exc)
            continue
        if ops:
            out.append((el, tuple(ops)))
    return out


def _element(el: dict[str, Any], ctx: _Ctx, size: CardSize, same: bool,
             move: tuple[float, float, float]) -> list[DrawOp]:
    """One element's operations on the face, at the card size it is printed."""
    k, dx, dy = move
    design = ctx.size
    fitted = not same and "box" in el and el["type"] in ("rect", "ellipse", "image")
    if fitted:
        ctx.size = size
    try:
        el_ops = _element_ops(el, ctx)
    finally:
        ctx.size = design
    if same:
        ops = el_ops
    elif fitted:
        ops = [_scaled(op, 1.0, 0.0, 0.0, k) for op in el_ops]
    else:
        ops = [_scaled(op, k, dx, dy, k) for op in el_ops]
        if el["type"] == "text" and any(isinstance(op, Text) and op.size < ctx.floor - 1e-6
                                        for op in ops):
            b = ctx.box(el)
            ctx.hard_floor = ctx.floor
            try:
                ops = _text_ops(el, Box(dx + b.x * k, dy + b.y * k, b.w * k, b.h * k), ctx,
                                k)
            finally:
                ctx.hard_floor = 0.0
    if el["type"] == "text":
        small = min((op.size for op in ops if isinstance(op, Text)), default=ctx.floor)
        if small < ctx.floor - 1e-6:
            ctx.key = ""
            raise ctx.error(f"text at {small:g} pt is below the template's min_size "
                            f"{ctx.floor:g} pt{ctx.at} (raise the size or scale, or lower "
                            "the template's min_size)", "floor")
    return ops


def _scaled(op: DrawOp, k: float, dx: float, dy: float, line_k: float) -> DrawOp:
    """``op`` scaled by ``k`` about the origin and moved by (dx, dy); lines by ``line_k``."""
    def x(v: float) -> float:
        return round(dx + v * k, 3)

    def y(v: float) -> float:
        return round(dy + v * k, 3)

    if isinstance(op, Text):
        return Text(x(op.x), y(op.y), op.text, op.font, round(op.size * k, 3), op.colour,
                    op.anchor, op.angle)
    if isinstance(op, Rect):
        return Rect(x(op.x), y(op.y), round(op.w * k, 3), round(op.h * k, 3), op.fill, op.stroke,
                    round(op.stroke_width * line_k, 3), round(op.radius * line_k, 3))
    if isinstance(op, Ellipse):
        return Ellipse(x(op.x), y(op.y), round(op.w * k, 3), round(op.h * k, 3), op.fill,
                       op.stroke, round(op.stroke_width * line_k, 3))
    if isinstance(op, Polygon):
        return Polygon(tuple((x(px), y(py)) for px, py in op.points), op.fill, op.stroke,
                       round(op.stroke_width * line_k, 3), op.closed)
    return ImageOp(x(op.x), y(op.y), round(op.w * k, 3), round(op.h * k, 3), op.path)


def _element_ops(el: dict[str, Any], ctx: _Ctx) -> list[DrawOp]:
    etype = el["type"]
    box = ctx.box(el)
    if etype == "rect":
        fill, stroke = ctx.colour(el.get("fill"), "fill"), ctx.colour(el.get("stroke"), "stroke")
        if fill or stroke:
            return [Rect(box.x, box.y, box.w, box.h, fill, stroke,
                         ctx.length(el, "stroke_width", 1.0) if stroke else 0.0,
                         ctx.length(el, "radius", 0.0))]
    elif etype == "ellipse":
        fill, stroke = ctx.colour(el.get("fill"), "fill"), ctx.colour(el.get("stroke"), "stroke")
        if fill or stroke:
            return [Ellipse(box.x, box.y, box.w, box.h, fill, stroke,
                            ctx.length(el, "stroke_width", 1.0) if stroke else 0.0)]
    elif etype == "emblem":
        name = ctx.format(el["emblem"], "emblem")
        if name:
            if name not in EMBLEMS:
                raise ctx.error(f"unknown emblem {name!r} (emblems are: "
                                f"{', '.join(sorted(EMBLEMS))})", "emblem",
                                f"emblem {el['emblem']!r} gives no emblem on any card that "
                                f"prints it (e.g. {name!r}; emblems are: "
                                f"{', '.join(sorted(EMBLEMS))})")
            return emblem_ops(name, box.x, box.y, box.w, box.h,
                              ctx.colour(el.get("colour", "#000000"), "colour"),
                              ctx.colour(el.get("accent", "none"), "accent"), float(el.get("angle", 0)))
    elif etype == "image":
        path = ctx.format(el["art"], "art")
        if path:
            return [ImageOp(box.x, box.y, box.w, box.h, _image_path(path, ctx))]
        return placeholder_ops(ctx.face, box, ctx)
    elif etype == "text":
        return _text_ops(el, box, ctx)
    return []


def _image_path(path: str, ctx: _Ctx) -> str:
    """Card art arrives checked and absolute; a fixed image named in the template (a logo, a
    texture) is found in the set folder and must stay inside it."""
    if Path(path).is_absolute() and path == ctx.face.fields.get("art"):
        return path
    root = Path(ctx.template.root)
    target = (root / path).resolve()
    if not target.is_relative_to(root):
        raise ctx.error(f"image {path!r} lies outside the set folder {root} (put the image in "
                        "the set folder and give its path from there)")
    if not target.is_file():
        raise ctx.error(f"image file {path!r} not found in {root} (check the file name, or add "
                        "the image to the set folder; paths are from the set folder)")
    return str(target)


def _when_keys(template: Template) -> Iterator[tuple[str, str, Any]]:
    """(what the message starts with: ``template.yaml:L:C: layout 'x' element 'y'``, the key,
    its wanted value) for every key of every ``when:`` of the template, at
    the line that writes it (not at each layout that inherits it, or overrides other keys of
    the element)."""
    for lname, elements in template.layouts.items():
        for el in elements:
            conds = [("when", el.get("when")),
                     *(("paragraphs", p.get("when")) for p in el.get("paragraphs", ()))]
            for owner, cond in conds:
                for key, want in cond.items() if isinstance(cond, dict) else ():
                    layout, line, col = template.keys_at.get(
                        (lname, el["name"], owner),
                        template.origins.get((lname, el["name"]), (lname, 0, 0)))
                    line, col = template.when_at.get((layout, el["name"], key), (line, col))
                    where = f"{template.file}:{line}:{col}: " if line else f"{template.file}: "
                    yield f"{where}layout '{layout}' element '{el['name']}'", key, want


def when_problems(deck: Deck, template: Template) -> list[str]:
    """A ``when:`` naming a field no card of the set has: a misspelling that would otherwise
    leave the element (or paragraph) undrawn on every card, without a word. Said once, at the
    line that writes the ``when:``."""
    have: set[str] = set()
    for face in deck.faces:
        have.update(face.fields)
    out: list[str] = []
    for said, key, _want in _when_keys(template):
        if key in have:
            continue
        near = difflib.get_close_matches(str(key), sorted(have), n=1)
        meant = f"did you mean {near[0]!r}? " if near else ""
        msg = (f"{said}: when: names the field {key!r}, which no card has, so it is never "
               f"drawn ({meant}fields are: {', '.join(sorted(have))})")
        if msg not in out:
            out.append(msg)
    return out


def when_value_warnings(deck: Deck, template: Template) -> list[str]:
    """A ``when:`` whose value no card has for a field cards do have (``kind: vampyre``,
    ``number: six``): the element is never drawn. A warning, not a problem: a template shared
    between sets may hold an element for cards this set does not have yet."""
    have: dict[str, set[str]] = {}
    for face in deck.faces:
        for key, value in face.fields.items():
            have.setdefault(key, set()).add(str(value))
    truthy = {key for face in deck.faces for key, value in face.fields.items() if value}
    out: list[str] = []
    for said, key, want in _when_keys(template):
        if key not in have:
            continue  # when_problems says it
        if isinstance(want, bool):
            if want == (key in truthy) or not want:
                continue
            missing = [want]
        else:
            wanted = want if isinstance(want, list) else [want]
            if any(str(w) in have[key] for w in wanted):
                continue
            missing = wanted
        values = sorted(have[key], key=lambda v: (len(v), v))
        near = [m for w in missing for m in difflib.get_close_matches(str(w), values, n=1)]
        meant = f"did you mean {near[0]!r}? " if near else ""
        shown = ", ".join(v or "(empty)" for v in values[:12]) + (", ..." if len(values) > 12 else "")
        msg = (f"{said}: when: {key}: {', '.join(repr(w) for w in missing)} matches no card of "
               f"the set, so it is never drawn ({meant}the cards' {key} values: {shown})")
        if msg not in out:
            out.append(msg)
    return out


def unused_layouts(deck: Deck, template: Template) -> list[str]:
    """A layout no card uses whose name is close to one some cards look for and the template
    lacks (``front-vampyre`` for ``front-vampire``): a misspelling, which would otherwise print
    those cards with a plainer layout without a word. The names a card looks for are its
    game's (``Face.layouts``, from the game's faces module), so no game is named here; a
    layout no card of this set needs, spelt as its game names it, is not a problem."""
    used: set[str] = set()
    lacked: dict[str, list[tuple[str, str]]] = {}  # wanted name -> (card, the layout it got)
    for face in deck.faces:
        try:
            got = pick_layout(face, template)
        except RenderError:
            continue  # said by the layout itself ("no layout named ...")
        used.add(got)
        for name in face.layouts[:face.layouts.index(got)]:
            lacked.setdefault(name, []).append((face.id, got))
    for name in list(used):
        seen = set()
        while name in template.extends and name not in seen:  # what a used layout extends
            seen.add(name)
            name = template.extends[name]
            used.add(name)
    out = []
    for lname in template.layouts:
        if lname in used:
            continue
        near = difflib.get_close_matches(lname, list(lacked), n=1, cutoff=0.8)
        if not near:
            continue
        faces = list(dict.fromkeys(fid for fid, _ in lacked[near[0]]))
        got = lacked[near[0]][0][1]
        cards = (f"card '{faces[0]}' looks" if len(faces) == 1 else
                 f"cards {', '.join(repr(f) for f in faces[:4])}"
                 f"{f' and {len(faces) - 4} more' if len(faces) > 4 else ''} look")
        line, col = template.names_at.get(lname, template.layouts_at)
        out.append(f"{template.file}:{line}:{col}: layout '{lname}' is used by no card (did you "
                   f"mean '{near[0]}'? {cards} for it, and print{'s' if len(faces) == 1 else ''}"
                   f" with '{got}' instead)")
    return out


def element_problems(deck: Deck, template: Template, failed: list[ElementError],
                     at_field: Callable[[ElementError], str | None] | None = None) -> list[str]:
    """The faces' element errors, each template mistake said once at its template line: a
    ``{field}`` that cannot be filled, or a value no card that prints it can draw (a colour
    field that is no colour, a box no text fits). A card's own problem keeps its card, and
    one whose fix is a card field's (``ElementError.field``) is said where ``at_field`` puts
    it, the card file's line, when it finds that line."""
    users: dict[tuple[tuple[str, int, int], str], set[str]] = {}
    for face in deck.faces:
        try:
            lname = pick_layout(face, template)
        except RenderError:
            continue
        for el in template.layouts[lname]:
            if not _matches(el.get("when"), face):
                continue
            ename = el["name"]
            places = {template.origins.get((lname, ename), (lname, 0, 0))}
            places.update(template.keys_at.get((lname, ename, key), (lname, 0, 0)) for key in el)
            for where in places:
                users.setdefault((where, ename), set()).add(face.id)
    by: dict[tuple[tuple[str, int, int], str, str], list[ElementError]] = {}
    for e in failed:
        by.setdefault((e.where, e.element, e.kind), []).append(e)
    out: list[str] = []
    for (where, element, kind), errs in by.items():
        faces = {e.face.id for e in errs}
        # one card field's value failing on all its faces (a human's nine) is still that card's
        values = {e.field[:2] if e.field is not None else None for e in errs}
        one_value = len(values) == 1 and None not in values
        if kind == "field" or (len(faces) > 1 and faces >= users.get((where, element), faces)
                               and not one_value):
            layout, line, col = where
            at = f"{template.file}:{line}:{col}" if line else template.file
            first = errs[0]
            said = first.shared or first.message
            if kind != "field" and not first.shared:
                said += f" (on all {len(faces)} cards that print it, e.g. '{first.face.id}')"
            msg = f"{at}: layout '{layout}' element '{element}': {said}"
            if msg not in out:
                out.append(msg)
        else:
            for e in errs:
                said = (at_field(e) if at_field is not None and e.field is not None else None) \
                    or str(e)
                if said not in out:
                    out.append(said)
    return out


def _matches(when: dict[str, Any] | None, face: Face) -> bool:
    if not when:
        return True
    for key, want in when.items():
        have = face.fields.get(key, "")
        if isinstance(want, bool):
            if bool(have) != want:
                return False
        elif isinstance(want, list):
            if str(have) not in {str(w) for w in want}:
                return False
        elif str(have) != str(want):
            return False
    return True


class ElementError(RenderError):
    """One element that cannot be drawn on one face, kept apart from its wording so that a
    template mistake (every card that prints the element fails alike) is said once, at the
    template's line, rather than once a card. ``kind``: ``field`` (a ``{field}`` that cannot be
    filled: always the template's), or what failed; ``shared``: the words for every card."""

    def __init__(self, text: str, face: Face, where: tuple[str, int, int], element: str,
                 message: str, kind: str, shared: str) -> None:
        super().__init__(text)
        self.face, self.where, self.element = face, where, element
        self.message, self.kind, self.shared = message, kind, shared
        #: (field, value, what to say) when the fix is that card field's, not the template's
        #: (a flavor word too wide for its box): said at the card file's line of the field
        self.field: tuple[str, str, str] | None = None


class GlyphError(RenderError):
    """Characters a face's text needs that its font cannot draw, with where the text came from
    (``source``: ``field``, ``rules`` or ``template``, and the field's name and value), so the
    message can point at the line that wrote the character, not at the template."""

    def __init__(self, message: str, face: Face, where: tuple[str, int, int], element: str,
                 font: str, chars: list[str], source: tuple[str, str, str]) -> None:
        super().__init__(message)
        self.face, self.where, self.element, self.font = face, where, element, font
        self.chars, self.source = chars, source


class _Ctx:
    """What one element's evaluation needs, and the card-naming error messages."""

    __slots__ = ("at", "bleed", "element", "face", "floor", "hard_floor", "key", "layout", "size",
                 "template")

    def __init__(self, face: Face, template: Template, size: CardSize, layout: str) -> None:
        self.face, self.template, self.size, self.layout = face, template, size, layout
        self.bleed = max(template.bleed, STANDARD_BLEED)
        self.floor = template.min_size  # no text is printed smaller, at any card size
        self.hard_floor = 0.0  # text set again at another size is held at the floor
        self.element = ""
        self.key = ""  # the element's key being evaluated: its problem is said where written
        self.at = ""  # " at mini (44.5 x 63.5 mm)" when drawn at another size than designed

    def error(self, message: str, kind: str = "card", shared: str = "") -> ElementError:
        origin = self.template.keys_at.get((self.layout, self.element, self.key)) or \
            self.template.origins.get((self.layout, self.element))
        layout, line, col = origin if origin is not None else (self.layout, 0, 0)
        at = f"{self.template.file}:{line}:{col}" if line else self.template.file
        return ElementError(f"card '{self.face.id}': {at}: layout '{layout}' element "
                            f"'{self.element}': {message}", self.face, (layout, line, col),
                            self.element, message, kind, shared)

    def format(self, text: str, key: str) -> str:
        if "{" not in text:
            return text
        self.key = key
        try:
            return text.format_map(_Fields(self.face.fields))
        except KeyError as exc:
            name = str(exc.args[0])
            near = difflib.get_close_matches(name, list(self.face.fields), n=1)
            meant = f"did you mean {{{near[0]}}}? " if near else ""
            raise self.error(f"{text!r} names the field {{{name}}}, which the cards it prints "
                             f"do not have ({meant}fields are: "
                             f"{', '.join(sorted(self.face.fields))})", "field") from None
        except (ValueError, IndexError) as exc:
            what = "bad format spec" if "format code" in str(exc) else "bad braces"
            raise self.error(f"{what} in {text!r} ({exc})", "field") from None

    def colour(self, value: str | None, key: str = "colour") -> str | None:
        if value is None:
            return None
        raw = value
        value = self.format(value, key) if "{" in value else value
        self.key = key
        resolved = resolve_colour(value, self.template.colours)
        if resolved is not None and not (resolved.startswith("#") and len(resolved) in (7, 9)):
            raise self.error(f"colour {value!r} is not #rrggbb or a named colour", "colour",
                             f"{'colour' if key == 'paragraphs' else key} {raw!r} gives no "
                             "colour on any card that prints it (e.g. "
                             f"{value!r}) (write #rrggbb, a name under 'colours:', or a field "
                             "that holds a colour)")
        return resolved

    def length(self, el: dict[str, Any], key: str, default: float, of: float = 0.0) -> float:
        if key not in el:
            return default
        v = el[key]
        if isinstance(v, str) and v.strip().endswith("%"):
            return float(v.strip()[:-1]) / 100.0 * of
        return parse_length(v, key)

    def box(self, el: dict[str, Any]) -> Box:
        w, h = self.size.width, self.size.height
        which = el.get("box")
        if which == "trim":
            return Box(0.0, 0.0, w, h)
        if which == "bleed":
            b = self.bleed
            return Box(-b, -b, w + 2 * b, h + 2 * b)
        return Box(self.length(el, "x", 0.0, w), self.length(el, "y", 0.0, h),
                   self.length(el, "w", w, w), self.length(el, "h", h, h))


class _Fields(dict):
    def __init__(self, fields: Any) -> None:
        super().__init__(fields)

    def __missing__(self, key: str) -> str:
        raise KeyError(key)


# --- text ------------------------------------------------------------------------------------

Piece = tuple[str, str]  # (text, font)


@dataclass(slots=True)
class _Para:
    runs: list[Piece]
    scale: float
    colour: str
    #: what the paragraph prints, as (kind, name, text) (see _sources): a word too wide for the
    #: box is said at the card field that holds it
    sources: list[tuple[str, str, str]] = field(default_factory=list)


def _paragraphs(el: dict[str, Any], ctx: _Ctx) -> list[_Para]:
    ids = ctx.template.fonts
    base_font = ids[el.get("font", "sans")]
    base_kw = ids[el.get("keyword_font", "sans-bold")]
    base_colour = el.get("colour", "#000000")
    specs = el.get("paragraphs") or [{"text": el.get("text", "")}]
    upper = el.get("upper", False)
    out = []
    for spec in specs:
        if not _matches(spec.get("when"), ctx.face):
            continue
        font = ids[spec["font"]] if "font" in spec else base_font
        kw_font = ids[spec["keyword_font"]] if "keyword_font" in spec else base_kw
        text: str = spec["text"]
        runs: list[Piece] = []
        chunks = text.split("{rules}")
        for i, chunk in enumerate(chunks):
            if i:
                runs.extend((t, kw_font if style == "keyword" else font)
                            for t, style in ctx.face.rules)
            if chunk:
                runs.append((ctx.format(chunk, "paragraphs" if "paragraphs" in el else "text"),
                             font))
        if upper:
            runs = [(t.upper(), f) for t, f in runs]
        runs = [(t, f) for t, f in runs if t]
        sources = _sources(chunks, ctx.face)
        _check_glyphs(runs, sources, upper, ctx)
        if "".join(t for t, _ in runs).strip():
            colour = ctx.colour(spec.get("colour", base_colour),
                                "paragraphs" if "colour" in spec else "colour") or "#000000"
            out.append(_Para(runs, float(spec.get("scale", 1.0)), colour, sources))
    return out


def _sources(chunks: list[str], face: Face) -> list[tuple[str, str, str]]:
    """(kind, name, text) of what a paragraph prints: the template's own words, each card
    field it names, the generated rules text."""
    out: list[tuple[str, str, str]] = []
    if len(chunks) > 1:
        out.append(("rules", "rules", "".join(t for t, _ in face.rules)))
    for chunk in chunks:
        try:
            parts = list(string.Formatter().parse(chunk))
        except ValueError:
            continue  # ctx.format has said so already
        for literal, field_name, _spec, _conv in parts:
            if field_name:
                out.append(("field", field_name, str(face.fields.get(field_name, ""))))
            if literal:
                out.append(("template", "", literal))
    return out


def _check_glyphs(runs: list[Piece], sources: list[tuple[str, str, str]], upper: bool,
                  ctx: _Ctx) -> None:
    for text, font in runs:
        missing = fonts.missing_glyphs(text, font)
        if not missing:
            continue
        c = missing[0]
        source = next((s for s in sources if c in (s[2].upper() if upper else s[2])),
                      ("template", "", text))
        chars = [ch for ch in missing if ch in (source[2].upper() if upper else source[2])]
        shown = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in chars)
        plain = ctx.error(f"the font '{font}' has no glyph for {shown} in {text.strip()!r}, "
                          "which would print as an empty box (use other characters, or "
                          "declare a font that has them under 'fonts:')")
        layout, line, col = ctx.template.origins.get((ctx.layout, ctx.element),
                                                     (ctx.layout, 0, 0))
        raise GlyphError(str(plain), ctx.face, (layout, line, col), ctx.element, font, chars,
                         source)


# a word is a list of pieces with no space between them; a line is a list of words
Word = list[Piece]


def _words(runs: list[Piece]) -> list[list[Word]]:
    """Hard lines ("\\n") of words, keeping each piece's font."""
    lines: list[list[Word]] = [[]]
    word: Word = []
    for text, font in runs:
        start = 0
        for i, ch in enumerate(text):
            if ch in " \n":
                if i > start:
                    word.append((text[start:i], font))
                if word:
                    lines[-1].append(word)
                    word = []
                if ch == "\n":
                    lines.append([])
                start = i + 1
        if start < len(text):
            word.append((text[start:], font))
    if word:
        lines[-1].append(word)
    return lines


def _word_width(word: Word, size: float) -> float:
    return sum(fonts.width(t, f, size) for t, f in word)


def _wrap(para: _Para, size: float, width: float, wrap: bool
          ) -> tuple[list[list[Word]], str, tuple[str, float] | None]:
    """Lines of words at ``size``, or ([], why, the word too wide and its width) if some word
    (or, the word None, some line) cannot fit ``width``."""
    out: list[list[Word]] = []
    for hard in _words(para.runs):
        line: list[Word] = []
        used = 0.0
        for word in hard:
            ww = _word_width(word, size)
            if ww > width + 1e-6:
                text = "".join(t for t, _ in word)
                return [], f"the word {text!r} is {ww:.1f} pt wide, the box {width:.1f} pt", \
                    (text, ww)
            # the space is painted in the font of the word before it (see _segments)
            space = fonts.width(" ", line[-1][-1][1], size) if line else 0.0
            if line and (not wrap or used + space + ww <= width + 1e-6):
                line.append(word)
                used += space + ww
            elif line:
                out.append(line)
                line, used = [word], ww
            else:
                line, used = [word], ww
        if not wrap and used > width + 1e-6:
            return [], f"the line is {used:.1f} pt wide, the box {width:.1f} pt", None
        out.append(line)
    return out, "", None


def _para_size(size: float, para: _Para, top: float, low: float, floor: float = 0.0) -> float:
    """A paragraph's font size when the element is set at ``size``.

    Shrinking never takes a scaled paragraph (flavor text at 0.85) below ``min_size``: the
    smallest readable size is a promise about every line on the card. Only a scale the designer
    chose at full size (``size * scale`` already under ``min_size``) stays as drawn, and never
    below the template's own ``min_size`` (``floor``).
    """
    return max(size * para.scale, min(low, top * para.scale), floor)


def _sizes(el: dict[str, Any], ctx: _Ctx, k: float = 1.0) -> tuple[float, float]:
    """(largest, smallest) font size of a text element, scaled by ``k``; set again at another
    size, never below the floor."""
    top = ctx.length(el, "size", 9.0)
    low = ctx.length(el, "min_size", top)
    top, low = max(top * k, ctx.hard_floor), max(low * k, ctx.hard_floor)
    return top, min(low, top)


def _fit(paras: list[_Para], el: dict[str, Any], box: Box, ctx: _Ctx, k: float = 1.0
         ) -> tuple[float, list[list[list[Word]]]]:
    top, low = _sizes(el, ctx, k)
    leading = float(el.get("leading", 1.2))
    gap = float(el.get("paragraph_gap", 0.4))
    wrap = el.get("wrap", True)
    # no line of text is taller than the box: start there, not thousands of steps above it
    tallest = max(p.scale for p in paras) * leading
    size = top if top * tallest <= box.h else max(low, math.floor(box.h / tallest / SIZE_STEP) * SIZE_STEP)
    why = ""
    wide: tuple[_Para, str, float] | None = None  # the paragraph and word too wide, its width
    while size >= low - 1e-9:
        laid = []
        height = 0.0
        wide = None
        for i, p in enumerate(paras):
            psize = _para_size(size, p, top, low, ctx.hard_floor)
            lines, why, word = _wrap(p, psize, box.w, wrap)
            if not lines:
                wide = (p, *word) if word is not None else None
                break
            laid.append(lines)
            height += len(lines) * psize * leading + (gap * size * leading if i else 0)
        else:
            if height <= box.h + 1e-6:
                return size, laid
            why = (f"it needs {height:.1f} pt of height, the box has {box.h:.1f} pt "
                   f"({sum(len(x) for x in laid)} lines)")
        size = round(size - SIZE_STEP, 4)
    ctx.key = ""
    err = ctx.error(f"text does not fit even at the minimum size {low:g} pt{ctx.at}: {why} "
                    "(shorten the text, or enlarge the box or lower min_size in the template)",
                    "fit", f"text does not fit its box ({box.w:g} x {box.h:g} pt){ctx.at} on "
                    f"any card that prints it, even at the minimum size {low:g} pt (e.g. card "
                    f"'{ctx.face.id}': {why}) (enlarge the box or lower min_size, or shorten "
                    "the texts)")
    if wide is not None:
        err.field = _word_field(*wide, box, low, ctx, err)
    raise err


def _word_field(para: _Para, word: str, width: float, box: Box, low: float, ctx: _Ctx,
                err: ElementError) -> tuple[str, str, str] | None:
    """(field, its value, what to say there) when the word too wide for the box comes whole
    from one card field (a flavor line): the fix is in the card file, at that field."""
    want = word.casefold()
    if any(kind == "template" and want in text.casefold() for kind, _, text in para.sources):
        return None  # the template's own words
    for kind, name, text in para.sources:
        if kind == "field" and want in text.casefold():
            layout, line, col = err.where
            at = f"{ctx.template.file}:{line}:{col}" if line else ctx.template.file
            return name, text, (f"the word {word!r} is {width:.1f} pt wide, wider than the "
                                f"{box.w:.1f} pt box of layout '{layout}' element "
                                f"'{ctx.element}' at {at} even at its minimum size {low:g} pt"
                                f"{ctx.at} (shorten the word or put a space in it, or widen "
                                "the box or lower min_size in the template)")
    return None


def _text_ops(el: dict[str, Any], box: Box, ctx: _Ctx, k: float = 1.0) -> list[DrawOp]:
    paras = _paragraphs(el, ctx)
    if not paras:
        return []
    size, laid = _fit(paras, el, box, ctx, k)
    top, low = _sizes(el, ctx, k)
    leading = float(el.get("leading", 1.2))
    gap = float(el.get("paragraph_gap", 0.4))
    align = el.get("align", "left")
    valign = el.get("valign", "top")
    block = sum(len(lines) * _para_size(size, p, top, low, ctx.hard_floor) * leading
                for p, lines in zip(paras, laid, strict=True))
    block += gap * size * leading * (len(paras) - 1)
    y = box.y + {"top": 0.0, "middle": (box.h - block) / 2, "bottom": box.h - block}[valign]
    ops: list[DrawOp] = []
    for i, (para, lines) in enumerate(zip(paras, laid, strict=True)):
        psize = _para_size(size, para, top, low, ctx.hard_floor)
        line_h = psize * leading
        if i:
            y += gap * size * leading
        for line in lines:
            baseline = y + line_h / 2 + CAP_HEIGHT * psize / 2
            segments = _segments(line, psize)
            width = sum(w for _, _, w in segments)
            x = box.x + {"left": 0.0, "center": (box.w - width) / 2, "right": box.w - width}[align]
            for text, font, w in segments:
                if text.strip():
                    ops.append(Text(round(x, 3), round(baseline, 3), text, font, psize,
                                    para.colour))
                x += w
            y += line_h
    if float(el.get("angle", 0)) % 360 == 180:
        cx, cy = box.x + box.w / 2, box.y + box.h / 2
        ops = [Text(round(2 * cx - t.x, 3), round(2 * cy - t.y, 3), t.text, t.font, t.size,
                    t.colour, t.anchor, 180.0) for t in ops if isinstance(t, Text)]
    return ops


def _segments(line: list[Word], size: float) -> list[tuple[str, str, float]]:
    """Merge a line's words into runs of one font each (spaces measured in their own font)."""
    segs: list[list[Any]] = []
    for i, word in enumerate(line):
        for j, (text, font) in enumerate(word):
            prefix = " " if i and j == 0 else ""
            if segs and segs[-1][1] == font:
                segs[-1][0] += prefix + text
            else:
                if prefix and segs:
                    segs[-1][0] += prefix
                segs.append([text, font])
    return [(t, f, fonts.width(t, f, size)) for t, f in segs]


# --- placeholder art and watermark -----------------------------------------------------------


def _clip_line(c: float, box: Box) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """The part of the line y - x = c (a 45-degree stripe) inside the box."""
    x0, y0, x1, y1 = box.x, box.y, box.x + box.w, box.y + box.h
    pts = []
    for x in (x0, x1):
        y = x + c
        if y0 - 1e-9 <= y <= y1 + 1e-9:
            pts.append((x, y))
    for y in (y0, y1):
        x = y - c
        if x0 - 1e-9 <= x <= x1 + 1e-9:
            pts.append((x, y))
    pts = sorted(set((round(x, 3), round(y, 3)) for x, y in pts))
    if len(pts) < 2:
        return None
    return pts[0], pts[-1]


def placeholder_ops(face: Face, box: Box, ctx: _Ctx) -> list[DrawOp]:
    """Generated art that cannot be mistaken for the real thing: tinted, striped, labelled."""
    digest = hashlib.sha256(face.id.encode()).digest()
    hue = digest[0] / 255.0
    r, g, b = colorsys.hls_to_rgb(hue, 0.82, 0.35)
    tint = f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"
    r, g, b = colorsys.hls_to_rgb(hue, 0.68, 0.3)
    stripe = f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"
    ops: list[DrawOp] = [Rect(box.x, box.y, box.w, box.h, fill=tint)]
    step = 9.0
    # stop the stripes short of the edge: a thick 45-degree line's square ends stick out
    inner = Box(box.x + 1.0, box.y + 1.0, box.w - 2.0, box.h - 2.0)
    c = (box.y - box.x) - box.w
    while c < (box.y + box.h) - box.x:
        seg = _clip_line(c, inner)
        if seg:
            ops.append(Polygon(seg, stroke=stripe, stroke_width=2.5, closed=False))
        c += step
    s = min(box.w, box.h) * 0.5
    ops.extend(emblem_ops("skull", box.x + (box.w - s) / 2, box.y + (box.h - s) / 2 - s * 0.1,
                          s, s, stripe, tint))
    label = "PLACEHOLDER ART"
    size = min(8.0, box.w * 0.8 / max(fonts.width(label, "sans-bold", 1.0), 1e-6))
    band_h = size * 1.8
    by = box.y + box.h - band_h - 4
    ops.append(Rect(box.x + 6, by, box.w - 12, band_h, fill="#ffffffcc"))
    ops.append(Text(round(box.x + box.w / 2, 3), round(by + band_h / 2 + CAP_HEIGHT * size / 2, 3),
                    label, "sans-bold", round(size, 3), "#5a5046", "middle"))
    ops.append(Rect(box.x, box.y, box.w, box.h, stroke=stripe, stroke_width=1.0))
    return ops


def watermark_ops(text: str, x: float, y: float, w: float, h: float) -> list[DrawOp]:
    """Large translucent text from corner to corner of a box (a card or a page)."""
    angle = math.degrees(math.atan2(h, w))
    diag = math.hypot(w, h)
    size = round(0.75 * diag / max(fonts.width(text, "sans-bold", 1.0), 1e-6), 2)
    size = min(size, 0.4 * min(w, h))
    cx, cy = x + w / 2, y + h / 2
    th = math.radians(angle)
    off = CAP_HEIGHT * size / 2
    bx, by = cx + off * math.sin(th), cy + off * math.cos(th)
    return [Text(round(bx, 3), round(by, 3), text, "sans-bold", size, "#c8102e70", "middle",
                 round(angle, 3))]
