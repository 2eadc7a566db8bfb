"""Card templates: layout as data, one YAML file per set, validated before anything is drawn.

A template names a card size, a bleed, colours, fonts and *layouts*. A layout is a list of named
elements (rect, ellipse, text, image, emblem). A layout may ``extends`` another: it inherits the
parent's elements, an element of the same name merges its keys over the parent's, new elements
are appended, and ``remove`` drops inherited ones. So each back type or card kind states only how
it differs. Which layout a card face uses is decided by :mod:`.faces` (most specific name first).

Problems are collected and raised together as one :class:`RenderError`, each as
``file:line:column: what is wrong (how to fix)``.
"""

from __future__ import annotations

import difflib
import re
import string
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boneyard.pipeline.validate import art_problem, other_case_problem, schema_problems
from boneyard.pipeline.validate_yaml import read_yaml

from boneyard.errors import Problem, RenderError

from . import fonts
from .emblems import EMBLEMS
from .units import CARD_SIZES, card_size, parse_length

ELEMENT_TYPES = ("rect", "ellipse", "text", "image", "emblem")
_COLOUR = re.compile(r"^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$")
# what each element type needs besides geometry
_REQUIRED = {"text": ("text|paragraphs",), "image": ("art",), "emblem": ("emblem",)}
_GEOMETRY_KEYS = ("x", "y", "w", "h")
_FONT_SIZES = (2.0, 144.0)  # points: below, unreadable; above, larger than any card's text
DEFAULT_MIN_SIZE = 6.0  # points: the smallest text most print guides call readable on a card
MAX_EXTENDS = 32  # layouts an extends chain may pass through: deeper is a mistake, not a design
BLEED_RANGE = (0.0, 72.0)  # points past the cut: below 0 means nothing; no shop asks for 1 in
MAX_FORMAT_WIDTH = 200  # characters a {field:>N} may pad to: wider only costs render time
# points a length may reach: larger than any card and paper, smaller than what slows a render
_LIMITS: dict[str, tuple[float, float]] = {
    "x": (-1440.0, 1440.0), "y": (-1440.0, 1440.0), "w": (0.0, 1440.0), "h": (0.0, 1440.0),
    "stroke_width": (0.0, 72.0), "radius": (0.0, 720.0),
}
_PERCENT_LIMITS = {"x": (-200.0, 200.0), "y": (-200.0, 200.0), "w": (0.0, 200.0), "h": (0.0, 200.0)}
_FORMAT_NUMBER = re.compile(r"\d+")
_UNSET = object()  # a key an element does not write


@dataclass(frozen=True, slots=True)
class Template:
    """A resolved template: every layout flattened through its ``extends`` chain."""

    file: str
    root: str  # the set folder: template files (fonts, fixed images) must stay inside it
    size: str
    bleed: float  # points
    colours: dict[str, str]
    fonts: dict[str, str]  # the template's font names -> font ids (see fonts.register)
    layouts: dict[str, tuple[dict[str, Any], ...]]
    # (layout, element) -> (the layout that wrote the element, line, column), for messages
    origins: dict[tuple[str, str], tuple[str, int, int]] = field(default_factory=dict)
    #: no text is printed smaller, at any card size: the top-level ``min_size``, else the
    #: smallest an element declares, at most :data:`DEFAULT_MIN_SIZE`
    min_size: float = 6.0
    sizes: tuple[str, ...] = ()  # the sizes validate lays every card out at (default: size)
    warn_ppi: float = 300.0  # art printed at fewer pixels per inch is a warning ...
    fail_ppi: float = 150.0  # ... and at fewer than this, an error
    layouts_at: tuple[int, int] = (1, 1)  # line, column of ``layouts:``: a missing one is said there
    #: (layout, element, key) -> (the layout that wrote the key, line, column): a value's
    #: problem is said where it is written, once, however many layouts inherit it
    keys_at: dict[tuple[str, str, str], tuple[str, int, int]] = field(default_factory=dict)
    #: each layout's name as written (line, column) and the layout it extends, so a layout no
    #: card uses can be said where it is named (``layout.unused_layouts``)
    names_at: dict[str, tuple[int, int]] = field(default_factory=dict)
    extends: dict[str, str] = field(default_factory=dict)
    #: (layout, element, field) -> (line, column) of a ``when:`` key the layout writes there
    #: (the element's, else a paragraph's): a misspelt field is said at its own key
    when_at: dict[tuple[str, str, str], tuple[int, int]] = field(default_factory=dict)

    @property
    def print_sizes(self) -> tuple[str, ...]:
        return self.sizes or (self.size,)


def load_template(path: str | Path) -> Template:
    """Read, validate and resolve a template file; raises RenderError listing every problem."""
    doc, problems = read_yaml(path)
    if problems:
        raise RenderError("\n".join(str(p) for p in problems))
    data = doc.data
    # worded like card-file problems (did you mean, whole number, missing key), in file order
    problems = sorted(schema_problems(doc, "template", is_card_list=False),
                      key=lambda p: (p.line, p.column))
    if problems:
        raise RenderError("\n".join(str(p) for p in problems))

    colours = dict(data.get("colours") or {})
    font_ids = {name: name for name in fonts.BUILTIN_FONTS}
    for name, file in (data.get("fonts") or {}).items():
        base = Path(path).resolve().parent
        try:
            target = (base / file).resolve()
        except RuntimeError:  # links that lead back to themselves
            problems.append(doc.problem(("fonts", name), f"font file {file!r} is a symbolic "
                                        "link that leads back to itself",
                                        hint="remove the loop, or name the font file itself"))
            font_ids[name] = name
            continue
        if not target.is_relative_to(base):
            problems.append(doc.problem(("fonts", name), f"font file {file!r} is outside the "
                                        "set folder", hint="keep fonts inside the set's folder"))
            font_ids[name] = name  # declared: its uses are not also "unknown font" (never drawn)
            continue
        other = None if target.exists() else other_case_problem(target, str(file), "font file")
        if other is not None:  # as art: the file meant, spelt in another case
            problems.append(doc.problem(("fonts", name), f"font {name!r}: {other}"))
            font_ids[name] = name
            continue
        try:
            font_ids[name] = fonts.register(name, target)
        except RenderError as exc:
            problems.append(doc.problem(("fonts", name), str(exc)))
            font_ids[name] = name  # as above: the problem is the file, said once at fonts:

    raw_layouts: dict[str, dict[str, Any]] = data["layouts"]
    layouts: dict[str, tuple[dict[str, Any], ...]] = {}
    loops: set[frozenset[str]] = set()  # each loop said once, not once per layout in it
    for name in raw_layouts:
        resolved = _resolve(name, raw_layouts, doc, problems, (), loops)
        if resolved is not None:
            layouts[name] = resolved
    # a value (colour, font, length, emblem) is checked where it is written, once, however
    # many layouts inherit it; the shape of an element (its type, box, required keys) once its
    # extends chain is merged, in the layouts that write part of it
    for lname, spec in raw_layouts.items():
        for idx, el in enumerate(spec.get("elements", [])):
            _check_values(el, lname, colours, font_ids, doc, ("layouts", lname, "elements", idx),
                          problems)
    base = Path(path).resolve().parent
    for lname, spec in raw_layouts.items():  # a fixed image (no {field}) is read now, not at render
        for idx, el in enumerate(spec.get("elements", [])):
            art = el.get("art")
            if isinstance(art, str) and art and "{" not in art:
                why = art_problem(base, art)
                if why is not None and " does not exist (" in why:  # not "..., but 'X' does"
                    why = (f"image file {art!r} not found in the set folder (check the file "
                           "name, or add the image to the set folder; paths are from there)")
                if why is not None:
                    problems.append(doc.problem(("layouts", lname, "elements", idx, "art"),
                                                f"layout {lname!r} element {el.get('name')!r}: "
                                                f"{why.replace('art file', 'image', 1)}"))
    try:
        card = card_size(str(data.get("size", "poker")))
    except RenderError:
        card = CARD_SIZES["poker"]  # reported below
    for lname, elements in layouts.items():
        own = [e.get("name") for e in raw_layouts[lname].get("elements", [])]
        parent = raw_layouts[lname].get("extends")
        above = {e["name"]: e for e in layouts.get(parent, ())} if parent is not None else {}
        for el in elements:
            if el["name"] in own:
                where = ("layouts", lname, "elements", own.index(el["name"]))
                _check_shape(el, lname, (card.width, card.height), doc, where, problems,
                             list(above), above.get(el["name"]))
    try:
        bleed = parse_length(data.get("bleed", "0.125in"), "bleed")
    except RenderError as exc:
        problems.append(doc.problem(("bleed",), str(exc)))
        bleed = 0.0
    if not BLEED_RANGE[0] <= bleed <= BLEED_RANGE[1]:  # else silently replaced by 1/8 inch
        problems.append(doc.problem(("bleed",), f"bleed {bleed:g} pt is out of range",
                                    hint=f"between {BLEED_RANGE[0]:g} and {BLEED_RANGE[1]:g} "
                                         "pt, 1 in; print shops ask for 0.125in"))
        bleed = 0.0
    floor = _floor(data, raw_layouts, doc, problems)
    for key, names in (("size", [data.get("size", "poker")]), ("sizes", data.get("sizes", []))):
        for i, name in enumerate(names):
            try:
                card_size(str(name))
            except RenderError as exc:
                problems.append(doc.problem((key,) if key == "size" else (key, i), str(exc)))
    checks = data.get("preflight") or {}
    warn_ppi = float(checks.get("warn_ppi", 300))
    fail_ppi = float(checks.get("fail_ppi", 150))
    if fail_ppi > warn_ppi:
        problems.append(doc.problem(("preflight", "fail_ppi"), f"fail_ppi {fail_ppi:g} is above "
                                    f"warn_ppi {warn_ppi:g}", hint="fail_ppi <= warn_ppi"))
    if problems:
        # inherited elements are reported once per layout that uses them; keep the first
        first: dict[str, object] = {}
        for p in problems:
            first.setdefault(str(p), p)
        raise RenderError("\n".join(first))
    root = str(Path(path).resolve().parent)
    origins = {(lname, el["name"]): _origin(lname, el["name"], raw_layouts, doc)
               for lname, elements in layouts.items() for el in elements}
    keys_at = {(lname, el["name"], key): _written(lname, el["name"], key, raw_layouts, doc)
               for lname, elements in layouts.items() for el in elements for key in el}
    names_at = {lname: doc.where(("layouts", lname), key=True) for lname in raw_layouts}
    extends = {lname: str(spec["extends"]) for lname, spec in raw_layouts.items()
               if spec.get("extends") is not None}
    when_at: dict[tuple[str, str, str], tuple[int, int]] = {}
    for lname, spec in raw_layouts.items():
        for idx, el in enumerate(spec.get("elements", [])):
            at = ("layouts", lname, "elements", idx)
            conds = [((*at, "when"), el.get("when")),
                     *(((*at, "paragraphs", j, "when"), para.get("when"))
                       for j, para in enumerate(el.get("paragraphs", [])))]
            for written, cond in conds:
                for key in cond if isinstance(cond, dict) else ():
                    when_at.setdefault((lname, el["name"], str(key)),
                                       doc.where((*written, key), key=True))
    return Template(doc.file, root, str(data.get("size", "poker")), bleed, colours, font_ids,
                    layouts, origins, floor, tuple(str(x) for x in data.get("sizes", ())),
                    warn_ppi, fail_ppi, doc.where(("layouts",), key=True), keys_at, names_at,
                    extends, when_at)


def _written(lname: str, ename: str, key: str, raw: dict[str, dict[str, Any]], doc: Any
             ) -> tuple[str, int, int]:
    """Where an element's key was last written: the nearest layout up the extends chain whose
    element of that name gives the key."""
    seen = set()
    name: str | None = lname
    while name is not None and name in raw and name not in seen:
        seen.add(name)
        for idx, el in enumerate(raw[name].get("elements", [])):
            if el.get("name") == ename and key in el:
                return (name, *doc.where(("layouts", name, "elements", idx, key)))
        name = raw[name].get("extends")
    return _origin(lname, ename, raw, doc)


def _floor(data: dict[str, Any], raw: dict[str, dict[str, Any]], doc: Any,
           problems: list[Problem]) -> float:
    """The template's text-size floor; a size or min_size written below it is refused here,
    once, at the line that writes it."""
    declared = []
    for spec in raw.values():
        for el in spec.get("elements", []):
            low = _length_or_none(el, "min_size", 0)
            if low is not None:
                declared.append(low)
    if "min_size" in data:
        try:
            floor = parse_length(data["min_size"], "min_size")
        except RenderError as exc:
            problems.append(doc.problem(("min_size",), str(exc)))
            return DEFAULT_MIN_SIZE
        if not _FONT_SIZES[0] <= floor <= _FONT_SIZES[1]:
            problems.append(doc.problem(("min_size",), f"min_size {floor:g} pt is not a "
                                        "printable font size",
                                        hint=f"between {_FONT_SIZES[0]:g} and "
                                             f"{_FONT_SIZES[1]:g} pt"))
            return DEFAULT_MIN_SIZE
    else:
        floor = min([DEFAULT_MIN_SIZE, *declared])
    for lname, spec in raw.items():
        for i, el in enumerate(spec.get("elements", [])):
            for key in ("size", "min_size"):
                v = _length_or_none(el, key, 0)
                if v is None or v < _FONT_SIZES[0]:
                    continue  # not a printable size at all: _check_values says so, once
                if v < floor - 1e-9 and el.get("type", "text") == "text":
                    problems.append(doc.problem(
                        ("layouts", lname, "elements", i, key),
                        f"layout {lname!r} element {el.get('name')!r}: {key} {v:g} pt is below "
                        f"the template's min_size {floor:g} pt",
                        hint="no text is printed smaller; lower the top-level min_size to allow "
                             "it"))
    return floor


def _origin(lname: str, ename: str, raw: dict[str, dict[str, Any]], doc: Any
            ) -> tuple[str, int, int]:
    """Where an element of a resolved layout was last written: the nearest layout up its
    extends chain that names it."""
    seen = set()
    name: str | None = lname
    while name is not None and name in raw and name not in seen:
        seen.add(name)
        for idx, el in enumerate(raw[name].get("elements", [])):
            if el.get("name") == ename:
                return (name, *doc.where(("layouts", name, "elements", idx)))
        name = raw[name].get("extends")
    return (lname, *doc.where(("layouts", lname)))


def _resolve(
    name: str,
    raw: dict[str, dict[str, Any]],
    doc: Any,
    problems: list[Problem],
    chain: tuple[str, ...],
    loops: set[frozenset[str]],
) -> tuple[dict[str, Any], ...] | None:
    if len(chain) >= MAX_EXTENDS:
        problems.append(doc.problem(("layouts", chain[0], "extends"),
                                    f"layout {chain[0]!r} extends through more than "
                                    f"{MAX_EXTENDS} layouts ({' -> '.join(chain[:4])} -> ...)",
                                    hint=f"at most {MAX_EXTENDS} levels of 'extends'"))
        return None
    if name in chain:
        members = frozenset(chain[chain.index(name):])
        if members in loops:
            return None
        loops.add(members)
        problems.append(doc.problem(("layouts", name, "extends"),
                                    f"layout {name!r} extends itself through "
                                    f"{' -> '.join((*chain, name))}",
                                    hint="remove one 'extends' from the loop"))
        return None
    spec = raw[name]
    elements: list[dict[str, Any]] = []
    parent = spec.get("extends")
    if parent is not None:
        if parent not in raw:
            near = difflib.get_close_matches(str(parent), [n for n in raw if n != name], n=1)
            problems.append(doc.problem(("layouts", name, "extends"),
                                        f"layout {name!r} extends unknown layout {parent!r}",
                                        hint=(f"did you mean {near[0]!r}? " if near else "")
                                        + f"layouts are: {', '.join(sorted(raw))}"))
            return None
        inherited = _resolve(parent, raw, doc, problems, (*chain, name), loops)
        if inherited is None:
            return None
        elements = [dict(e) for e in inherited]
    for rname in spec.get("remove", []):
        if not any(e["name"] == rname for e in elements):
            names = [e["name"] for e in elements]
            near = difflib.get_close_matches(str(rname), names, n=1)
            problems.append(doc.problem(("layouts", name, "remove"),
                                        f"layout {name!r} removes {rname!r}, which it does not "
                                        "inherit", hint=(f"did you mean {near[0]!r}? " if near
                                                         else "") + "it inherits: "
                                        + (", ".join(names) or "nothing")))
        elements = [e for e in elements if e["name"] != rname]
    seen: set[str] = set()
    for i, el in enumerate(spec.get("elements", [])):
        ename = el["name"]
        if ename in seen:
            problems.append(doc.problem(("layouts", name, "elements", i, "name"),
                                        f"two elements named {ename!r} in layout {name!r}",
                                        hint="element names must be unique within a layout"))
            continue
        seen.add(ename)
        for j, old in enumerate(elements):
            if old["name"] == ename:
                elements[j] = {**old, **el}
                break
        else:
            elements.append(dict(el))
    return tuple(elements)


def _reporter(el: dict[str, Any], layout: str, doc: Any, where: tuple[str | int, ...],
              problems: list[Problem]) -> Any:
    label = f"layout {layout!r} element {el.get('name')!r}"

    def bad(key: str, message: str, hint: str | None = None) -> None:
        problems.append(doc.problem((*where, key) if key in el else where,
                                    f"{label}: {message}", hint=hint))

    return bad


def _check_values(
    el: dict[str, Any],
    layout: str,
    colours: dict[str, str],
    font_ids: dict[str, str],
    doc: Any,
    where: tuple[str | int, ...],
    problems: list[Problem],
) -> None:
    """The values an element writes: lengths, colours, fonts, emblem names."""
    bad = _reporter(el, layout, doc, where, problems)
    for key in (*_GEOMETRY_KEYS, "stroke_width", "radius", "size", "min_size"):
        refused = _refused_length(el[key], key) if key in el else None
        if refused is not None:
            bad(key, *refused)
    for key in ("text", "art", "emblem", "fill", "stroke", "colour", "accent"):
        if isinstance(el.get(key), str):
            _check_format(el[key], lambda m, h=None, k=key: bad(k, m, h))
    for i, para in enumerate(el.get("paragraphs", [])):
        for key in ("text", "colour"):
            if isinstance(para.get(key), str):
                _check_format(para[key], lambda m, h=None, i=i: bad("paragraphs",
                                                                     f"paragraph {i + 1}: {m}", h))
    for key in ("fill", "stroke", "colour", "accent"):
        if key in el:
            _check_colour(el[key], colours, lambda m, k=key: bad(k, m))
    for i, para in enumerate(el.get("paragraphs", [])):
        if "colour" in para:
            _check_colour(para["colour"], colours, lambda m, i=i: bad("paragraphs", f"paragraph "
                                                                      f"{i + 1}: {m}"))
        for key in ("font", "keyword_font"):
            if key in para:
                _check_font(para[key], font_ids, lambda m: bad("paragraphs", m))
    for key in ("font", "keyword_font"):
        if key in el:
            _check_font(el[key], font_ids, lambda m, k=key: bad(k, m))
    if "emblem" in el and "{" not in str(el["emblem"]) and el["emblem"] not in EMBLEMS:
        bad("emblem", f"unknown emblem {el['emblem']!r}",
            hint=f"emblems are: {', '.join(sorted(EMBLEMS))}")


def _refused_length(value: Any, key: str) -> tuple[str, str | None] | None:
    """Why a length an element writes at ``key`` is refused, as (message, hint), or None: one
    that does not parse, a font size no one can print, a length or percentage out of range
    (x and y may reach off the card)."""
    if isinstance(value, str) and value.strip().endswith("%"):
        try:
            pct = float(value.strip()[:-1])
        except ValueError:
            return f"{key}: expected a percentage such as '50%', got {value!r}", None
        low, high = _PERCENT_LIMITS.get(key, (0.0, 100.0))
        if not low <= pct <= high:
            return f"{key} {pct:g}% is out of range", f"between {low:g}% and {high:g}%"
        return None
    try:
        length = parse_length(value, key)
    except RenderError as exc:
        return str(exc), None
    if key in ("size", "min_size") and not _FONT_SIZES[0] <= length <= _FONT_SIZES[1]:
        return (f"{key} {length:g} pt is not a printable font size",
                f"between {_FONT_SIZES[0]:g} and {_FONT_SIZES[1]:g} pt")
    if key in _LIMITS and not _LIMITS[key][0] <= length <= _LIMITS[key][1]:
        low, high = _LIMITS[key]
        return f"{key} {length:g} pt is out of range", f"between {low:g} and {high:g} pt"
    return None


def _check_format(text: str, bad: Any) -> None:
    """Braces that name card fields, with a format spec no wider than :data:`MAX_FORMAT_WIDTH`
    and without nested fields: ``{power:>3000000}`` would otherwise pad every card's text to
    three million characters, found only when the render crawls."""
    if "{" not in text and "}" not in text:
        return
    try:
        parts = list(string.Formatter().parse(text))
    except ValueError as exc:
        bad(f"bad braces in {text[:60]!r} ({exc})", "write {{ and }} for a literal brace")
        return
    for _literal, field_name, spec, _conversion in parts:
        if field_name is None:
            continue
        if not field_name or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", field_name):
            bad(f"{{{field_name}}} is not a card field name", "write {name}, {power}, ...")
        if not spec:
            continue
        if "{" in spec:
            bad(f"{{{field_name}:{spec}}}: a field inside a format spec is not supported")
            continue
        widest = max((int(n) for n in _FORMAT_NUMBER.findall(spec)), default=0)
        if widest > MAX_FORMAT_WIDTH:
            bad(f"{{{field_name}:{spec[:20]}}}: a width or precision of {widest} is too large",
                f"at most {MAX_FORMAT_WIDTH}")


def _length_or_none(el: dict[str, Any], key: str, of: float) -> float | None:
    v = el.get(key)
    if isinstance(v, str) and v.strip().endswith("%"):
        try:
            return float(v.strip()[:-1]) / 100.0 * of
        except ValueError:
            return None
    try:
        return parse_length(v, key) if v is not None else None
    except RenderError:
        return None  # reported by _check_values


def _check_shape(
    el: dict[str, Any],
    layout: str,
    card: tuple[float, float],
    doc: Any,
    where: tuple[str | int, ...],
    problems: list[Problem],
    inherited: Iterable[str] = (),
    parent: dict[str, Any] | None = None,
) -> None:
    """An element after its extends chain: a type, a box, what its type needs; text that
    could never be read (off the card, a minimum size above its size). ``inherited``: the
    names of the elements the layout extends, one of which a name without a type may misspell.

    ``parent``: the element as the extended layout has it. A check whose keys this layout
    leaves as they were is said there, at the layout that writes them, not again for each
    layout that inherits them (which only change a colour, say). And where a length of the
    box is refused (``w: -100``), that is the problem: where the box lies is not judged."""
    bad = _reporter(el, layout, doc, where, problems)

    def kept(*keys: str) -> bool:  # this layout leaves these keys as the one it extends has them
        return parent is not None and all(parent.get(k, _UNSET) == el.get(k, _UNSET)
                                          for k in keys)

    etype = el.get("type")
    if etype is None:
        if parent is not None:
            return  # said where the element is first written
        near = difflib.get_close_matches(str(el.get("name")), list(inherited), n=1)
        if near:  # meant to change an inherited element, it adds a new one with no type
            bad("name", "names no element it inherits, and has no 'type' to be a new one",
                hint=f"did you mean {near[0]!r}?")
            return
        bad("type", f"has no 'type' (one of {', '.join(ELEMENT_TYPES)})")
        return
    box_keys = ("type", *_GEOMETRY_KEYS, "box")
    if "box" not in el and not kept(*box_keys):
        for key in _GEOMETRY_KEYS:
            if key not in el:
                bad(key, f"needs '{key}' (or 'box: trim' / 'box: bleed')")
    for req in _REQUIRED.get(etype, ()):
        if not any(k in el for k in req.split("|")) and not kept("type", *req.split("|")):
            wanted = "' or '".join(req.split("|"))
            bad(req, f"a {etype} element needs '{wanted}'")
    # a refused length is said by _check_values: the box it makes is not judged as well
    placed = not kept(*box_keys) and not any(
        key in el and _refused_length(el[key], key) is not None for key in _GEOMETRY_KEYS)
    if etype != "text":
        if placed:
            _check_on_card(el, card, bad)
        return
    size, low = _length_or_none(el, "size", 0), _length_or_none(el, "min_size", 0)
    # a min_size the extended layout writes, and is already too big there: said there once
    p_size, p_low = ((_length_or_none(parent, "size", 0), _length_or_none(parent, "min_size", 0))
                     if parent is not None and kept("min_size") else (None, None))
    said_above = p_size is not None and p_low is not None and p_low > p_size
    if size is not None and low is not None and low > size and not kept("size", "min_size") \
            and not said_above:
        bad("min_size", f"min_size {low:g} pt is above size {size:g} pt",
            hint="min_size is the smallest the text may shrink to")
    if placed:
        _check_text_box(el, card, bad)


def _check_text_box(el: dict[str, Any], card: tuple[float, float], bad: Any) -> None:
    """A text box with room for text, inside the card's cut."""
    placed = _placed(el, card)
    if placed is None:
        return
    w, h = card
    x, y, bw, bh = placed
    empty = [k for k, v in (("w", bw), ("h", bh)) if v <= 0]
    if empty:
        side = "width" if empty[0] == "w" else "height"
        bad(empty[0], f"the text box has no {side} ({empty[0]}: {el.get(empty[0])}), so no text "
                          "fits in it",
            hint=f"give '{empty[0]}' a length such as 20 or 10%")
        return
    eps = 0.5
    if x < -eps or y < -eps or x + bw > w + eps or y + bh > h + eps:
        bad("x", f"the text box ({x:g}, {y:g}, {bw:g} x {bh:g} pt) reaches past the card's cut "
                 f"({w:g} x {h:g} pt), so its text would be cut off",
            hint="keep text boxes inside the card")


def _placed(el: dict[str, Any], card: tuple[float, float]) -> tuple[float, float, float, float] | None:
    """(x, y, w, h) in points of an element placed by x, y, w and h; None when it fills a
    ``box`` or one of them is missing or unreadable (said elsewhere)."""
    if "box" in el:
        return None
    w, h = card
    x, y = _length_or_none(el, "x", w), _length_or_none(el, "y", h)
    bw, bh = _length_or_none(el, "w", w), _length_or_none(el, "h", h)
    if x is None or y is None or bw is None or bh is None:
        return None
    return x, y, bw, bh


def _check_on_card(el: dict[str, Any], card: tuple[float, float], bad: Any) -> None:
    """An image or shape may run into the bleed or past the cut (art to the edge), but one that
    lies wholly off the card is never printed: a slip of a unit (``x: 500`` on a 180 pt card)."""
    placed = _placed(el, card)
    if placed is None:
        return
    w, h = card
    x, y, bw, bh = placed
    if x >= w or y >= h or x + bw <= 0 or y + bh <= 0:
        bad("x", f"the {el.get('type')} ({x:g}, {y:g}, {bw:g} x {bh:g} pt) lies wholly off the "
                 f"card ({w:g} x {h:g} pt), so it is never printed",
            hint="give x and y within the card; a percentage such as 10% is of its size")


def _check_colour(value: Any, colours: dict[str, str], bad: Any) -> None:
    if not isinstance(value, str):
        bad(f"colour {value!r} is not a string")
    elif "{" in value or _COLOUR.match(value) or value == "none":
        return
    elif value in colours:
        if not (isinstance(colours[value], str) and _COLOUR.match(colours[value])):
            bad(f"colour {value!r} is defined as {colours[value]!r}, not #rrggbb")
    else:
        bad(f"unknown colour {value!r} (use #rrggbb or a name defined under 'colours:')")


def _check_font(value: Any, font_ids: dict[str, str], bad: Any) -> None:
    if value not in font_ids:
        bad(f"unknown font {value!r} (built-in: {', '.join(fonts.BUILTIN_FONTS)}; or declare "
            "it under 'fonts:' in template.yaml)")


def resolve_colour(value: str | None, colours: dict[str, str]) -> str | None:
    """A concrete ``#rrggbb[aa]`` from a literal, a named colour, or ``none``."""
    if value is None or value == "none":
        return None
    if value.startswith("#"):
        return value
    return colours.get(value, value)


def default_size(template: Template) -> str:
    try:
        card_size(template.size)
    except RenderError:
        return "poker"
    return template.size
