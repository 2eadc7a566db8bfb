"""Where a printed value was written: the card file line a designer has to change.

The renderer sees faces (plain fields), not YAML. When a card's own text cannot be printed (a
character its font cannot draw), pointing at the template would send the designer to the wrong
file; so the set's YAML files are read again here and the value found by its text, in the card
the face prints.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.faces import Face
from boneyard.engine.games import GAMES, spec_of
from boneyard.pipeline.validate import _label, inside_set
from boneyard.pipeline.validate_yaml import JsonPath, YamlDoc, read_yaml

from boneyard.errors import excerpt


@dataclass(frozen=True, slots=True)
class Written:
    """One string value of a set file, with where it was written and the card that holds it."""

    file: str
    line: int
    column: int
    card: str | None  # the id of the card entry it belongs to (None: game.yaml, a back, ...)
    label: str  # a designer's name for the key: 'flavor', 'backs item 1 name'
    text: str


def _strings(data: Any, path: JsonPath = ()) -> list[tuple[JsonPath, str]]:
    if isinstance(data, str):
        return [(path, data)]
    if isinstance(data, dict):
        return [s for k, v in data.items() for s in _strings(v, (*path, k))]
    if isinstance(data, list):
        return [s for i, v in enumerate(data) for s in _strings(v, (*path, i))]
    return []


def _values(doc: YamlDoc, card_list: bool) -> list[Written]:
    out = []
    for path, text in _strings(doc.data):
        card: str | None = None
        rel = path
        if card_list and path and isinstance(path[0], int):
            entry = doc.data[path[0]]
            card = entry.get("id") if isinstance(entry, dict) and isinstance(entry.get("id"),
                                                                             str) else None
            rel = path[1:]
        line, col = doc.where(path)
        out.append(Written(doc.file, line, col, card, _label(rel) or "value", text))
    return out


def set_values(card_set: CardSet) -> list[Written]:
    """Every string written in the set's game.yaml and card files ([] for a set built in code)."""
    if not card_set.root:
        return []
    root = Path(card_set.root)
    game, problems = read_yaml(root / "game.yaml")
    if problems or not isinstance(game.data, dict):
        return []
    out = _values(game, card_list=False)
    names = [f for f in game.data.get("card_files") or [] if isinstance(f, str)]
    if card_set.rules in GAMES:
        names += [game.data[k] for k in spec_of(card_set.rules).extra_card_files
                  if isinstance(game.data.get(k), str)]
    for name in names:
        target, _ = inside_set(root, name)
        if target is None or not target.is_file():
            continue
        doc, problems = read_yaml(target)
        if not problems:
            out += _values(doc, card_list=True)
    return out


def find(values: list[Written], face: Face, text: str, char: str) -> Written | None:
    """The value that put ``char`` into ``text`` on ``face``: written exactly as printed if one
    is, else any value holding the character; the face's own card first."""
    own = {str(face.fields.get("character", "")), str(face.fields.get("id", "")), face.id}
    holding = [w for w in values if char in w.text]
    exact = [w for w in holding if w.text.strip() == text.strip()
             or w.text.strip().casefold() == text.strip().casefold()]
    inside = [w for w in holding if w.text.strip() and w.text.strip() in text]
    for group in (exact, inside):
        mine = [w for w in group if w.card in own]
        if mine or group:
            return (mine or group)[0]
    # the character is in the face's text by way of its card or the set (a rules text
    # generated from the card, a back's name), never by way of another card
    near = [w for w in holding if w.card in own] or [w for w in holding if w.card is None]
    return near[0] if near else None


#: a face, the template's name for the font, the characters, where the text came from (kind,
#: field, text; see layout.GlyphError), the element's template line and its name
Glyph = tuple[Face, str, list[str], tuple[str, str, str], str, str]


def glyph_messages(found: list[Glyph], values: list[Written]) -> list[str]:
    """Characters a font cannot draw, each said once at the value that holds it: the card
    file's line for a card's text (however many faces and elements print it), the template's
    line for the template's own words."""
    said: dict[tuple[str, str, str], list[str]] = {}  # (where and what, font, chars) -> elements
    for face, font, chars, (kind, field, text), at, element in found:
        shown = ", ".join(f"{ch!r} (U+{ord(ch):04X})" for ch in chars)
        if kind == "template":
            head = f"{at}: {element}: the text {excerpt(text.strip(), 60)!r}"
        else:
            where = find(values, face, text if kind == "field" else "", chars[0])
            if where is None:  # a set built in code: the card and its field, at the template
                card = face.fields.get("character") or face.fields.get("id") or face.id
                what = "rules text" if kind == "rules" else field
                head = f"{at}: card '{card}': {what} {excerpt(text.strip(), 60)!r}"
            else:
                who = f" card '{where.card}':" if where.card else ""
                head = (f"{where.file}:{where.line}:{where.column}:{who} {where.label} "
                        f"{excerpt(where.text.strip(), 60)!r}")
        users = said.setdefault((head, font, shown), [])
        if kind != "template" and f"{element} at {at}" not in users:
            users.append(f"{element} at {at}")
    out = []
    for (head, font, shown), users in said.items():
        them = "them" if "," in shown else "it"
        fix = (f"write other characters, or declare a TTF font that has {them} under 'fonts:' "
               f"in template.yaml and use it for {' and '.join(users)}" if users else
               f"write other characters, or declare a TTF font that has {them} under 'fonts:' "
               "and use it here")
        out.append(f"{head}: the font '{font}' has no glyph for {shown}, so it would print as "
                   f"an empty box ({fix})")
    return out


def field_message(face: Face, field: tuple[str, str, str], values: list[Written]) -> str | None:
    """A card field's own problem (``layout.ElementError.field``: the field, its value and what
    to say) at the card file's line that writes that value, as a glyph's is; None when no line
    of the card's holds the value as written (a value made by the game, a set built in code)."""
    _name, text, said = field
    if not text.strip():
        return None
    where = find(values, face, text, text.strip()[0])
    if where is None or where.text.strip().casefold() != text.strip().casefold():
        return None
    who = f" card '{where.card}':" if where.card else ""
    return (f"{where.file}:{where.line}:{where.column}:{who} {where.label} "
            f"{excerpt(where.text.strip(), 60)!r}: {said}")
