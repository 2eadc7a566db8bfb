"""Checks on card data: the JSON Schemas in ``schema/`` plus what a schema cannot say.

A designer fixes a set in one pass only if every problem is reported at once, each at the line
and column where it was written, in words about cards rather than about JSON Schema. So schema
errors are collected with ``iter_errors`` and rephrased here, and the semantic checks (unique
ids, cards per back, art files, deck sizes, ...) run on the raw data defensively, so that one
broken card never hides the problems of the others.
"""

from __future__ import annotations

import copy
import difflib
import math
import posixpath
import re
import warnings
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import yaml
from boneyard.engine.games import names, specs
from boneyard.pipeline.schemas import schema
from boneyard.pipeline.validate_yaml import JsonPath, YamlDoc
from jsonschema.exceptions import ValidationError, best_match

from boneyard.errors import Problem
from boneyard.files import windows_trouble

MAX_ART_BYTES = 32 * 1024 * 1024
ART_FORMATS = ("PNG", "JPEG")

_TYPE_WORDS: dict[str, str] = {
    "integer": "a whole number",
    "number": "a number",
    "string": "text",
    "object": "a mapping (key: value lines)",
    "array": "a list",
    "boolean": "true or false",
    "null": "empty",
}


def _validator(name: str) -> jsonschema.Draft202012Validator:
    return _validator_for(name, tuple(names()))


# A whole number is an int: JSON Schema's own "integer" also takes 7.0, which the engines (compiled
# to exact ints) and the printed text ("+7.0 power") must never see.
_Strict = jsonschema.validators.extend(
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda _checker, inst: isinstance(inst, int) and not isinstance(inst, bool)),
)


@cache
def _validator_for(name: str, rules: tuple[str, ...]) -> jsonschema.Draft202012Validator:
    return _Strict(schema(name))  # type: ignore[no-any-return]


def _effect_words() -> tuple[str, ...]:
    """The effect primitives of the registered games (for hints on effect steps)."""
    return tuple(dict.fromkeys(w for spec in specs() for w in spec.effect_words))


def _show(value: Any) -> str:
    if isinstance(value, str):
        return repr(value)
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
    if isinstance(value, int) and abs(value) >= 10**30:  # 10**300 typed: not 301 digits
        return f"a whole number of {len(str(abs(value)))} digits"
    if isinstance(value, float) and abs(value) >= 1e15:  # 1e300 from a cell
        return f"{value:.3g}"
    return str(value)


def _label(path: Iterable[str | int]) -> str:
    """A designer's name for a place: ``effect step 2 power.per``, ``backs item 1 colour``."""
    out = ""
    prev: str | int | None = None
    for part in path:
        if isinstance(part, int):
            word = f"step {part + 1}" if prev == "effect" else f"item {part + 1}"
            out = f"{out} {word}" if out else word
        elif isinstance(prev, str) and out:
            out = f"{out}.{part}"
        else:
            out = f"{out} {part}" if out else str(part)
        prev = part
    return out


_UNKNOWN_WORD = {"when": "condition", "switches": "switch", "params": "parameter"}


def _close(word: Any, options: Iterable[Any]) -> str | None:
    if not isinstance(word, str):
        return None
    match = difflib.get_close_matches(word, [str(o) for o in options], n=1, cutoff=0.6)
    return f"did you mean '{match[0]}'?" if match else None


_NUMERAL = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)")
_SPAN = re.compile(r"\s*(\d+)\s*(?:-|\u2013|\.\.)\s*(\d+)\s*")
MAX_SPAN = 50  # numbers a range like "1-9" may stand for in a hint: longer is no range meant


def _span(text: str) -> list[int]:
    """The whole numbers a range written as text stands for ("1-9", "1..9"), or []."""
    m = _SPAN.fullmatch(text)
    if m is None or not 0 < int(m[2]) - int(m[1]) <= MAX_SPAN:
        return []
    return list(range(int(m[1]), int(m[2]) + 1))


def _as_list(value: str | int) -> str:
    """How to write as a YAML list a value written as one item: a range ("1-9") as its
    numbers, items separated by commas (or numbers by spaces) in brackets."""
    text = str(value)
    if _span(text):
        return f"write it as a list of the numbers: {_span(text)}"
    items = [x.strip() for x in text.split(",") if x.strip()] if "," in text else \
        text.split() if len(text.split()) > 1 and all(_NUMERAL.fullmatch(x) for x in text.split()) \
        else []
    if len(items) > 1:
        return f"write it as a list, in brackets: [{', '.join(items)}]"
    return f"write it as a list, even of one: [{text}]"


MAX_SHOWN = 40
"""Characters of a wrong value quoted in a message (a whole file read as one text is not)."""


def _short(value: Any) -> str:
    """A value as a message quotes it, cut after ``MAX_SHOWN`` characters."""
    if isinstance(value, str) and len(value) > MAX_SHOWN:
        return repr(value[:MAX_SHOWN]) + f"... ({len(value)} characters)"
    return _show(value)


def _deref(node: Any, root: Any) -> Any:
    """A schema node with its local ``$ref`` (``#/$defs/step``) resolved in ``root``."""
    for _ in range(10):
        ref = node.get("$ref") if isinstance(node, dict) else None
        if not isinstance(ref, str) or not ref.startswith("#/"):
            break
        target = root
        for part in ref[2:].split("/"):
            target = target.get(part, {}) if isinstance(target, dict) else {}
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    return node


def _examples(node: Any, root: Any, depth: int = 0) -> list[Any]:
    """Values a schema node takes, simplest first: its words, a whole number, then nothing."""
    node = _deref(node, root)
    if not isinstance(node, dict) or depth > 5:
        return []
    out: list[Any] = [e for e in node.get("enum", []) if isinstance(e, str)]
    for key in ("anyOf", "oneOf"):
        for branch in node.get(key, []):
            out += [e for e in _examples(branch, root, depth + 1) if e is not None]
    types = node.get("type")
    types = types if isinstance(types, list) else [types]
    if "integer" in types and "enum" not in node:
        lo, hi = node.get("minimum"), node.get("maximum")
        lo = lo if isinstance(lo, int) else -(1 << 30)
        hi = hi if isinstance(hi, int) else 1 << 30
        out.append(1 if lo <= 1 <= hi else lo)
    if "null" in types:
        out.append(None)
    return list(dict.fromkeys(out))


def _needs(node: Any, root: Any) -> str:
    """What a primitive's argument is called (``its amount``), for a hint."""
    node = _deref(node, root)
    for branch in node.get("anyOf", []) if isinstance(node, dict) else []:
        branch = _deref(branch, root)
        required = branch.get("required") if isinstance(branch, dict) else None
        if required:
            return f"its {required[0]}"
    return "its argument"


def _flow(value: Any) -> str:
    """A value as YAML flow, for a hint: ``{gain_vp: 3}``."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(_flow(v) for v in value) + "]"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and not re.fullmatch(r"[A-Za-z_][\w .-]*", value):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)


_STEP_TEXT = re.compile(r"\s*([A-Za-z_]\w*)\s*[:=]?\s*(.*?)\s*")
"""A step written as text: a primitive, maybe a colon (or ``=``), maybe its argument."""


def _fits(doc: YamlDoc, path: JsonPath, value: Any, schema_name: str) -> bool:
    """Whether the file would have no schema problem at or under ``path`` with ``value`` there."""
    if not path:
        return False
    data = copy.deepcopy(doc.data)
    here = data
    for step in path[:-1]:
        here = here[step]
    here[path[-1]] = value
    n = len(path)
    return not any(tuple(e.absolute_path)[:n] == tuple(path)
                   for e in _validator(schema_name).iter_errors(data))


def _item(step: dict[str, Any]) -> str:
    """A step as the list item a card file writes: ``- gain_vp: 3`` (``- dig:`` for nothing)."""
    (word, arg), = step.items()
    return f"'- {word}:'" if arg is None else f"'- {word}: {_flow(arg)}'"


def _step_schema(sch: dict[str, Any], root: Any) -> tuple[dict[str, Any], bool] | None:
    """(the effect step schema, whether ``sch`` is the list of them) when ``sch`` is an effect
    (a list of steps) or one step; else None."""
    if sch.get("title") == "effect step":
        return sch, False
    items = _deref(sch.get("items"), root) if sch.get("type") == "array" else None
    if isinstance(items, dict) and items.get("title") == "effect step":
        return items, True
    return None


def _effect_hint(doc: YamlDoc, path: JsonPath, inst: Any, sch: dict[str, Any],
                 card_of: CardOf) -> str | None:
    """How to write an effect (a list of steps) or an effect step given as one value
    (``effect: gain_vp 3``): a form tried against the schema first, so the hint validates, or
    what the primitive still needs. None when ``sch`` is no effect or step."""
    name = card_of.schema_name
    if name is None or not path or isinstance(inst, (dict, list)):
        return None
    root = schema(name)
    found_schema = _step_schema(sch, root)
    if found_schema is None:
        return None
    step_schema, is_list = found_schema
    key = str(path[-1]) if is_list else "effect"
    props = step_schema.get("properties", {})
    words = [w for w in _effect_words() if w in props]

    def fits(steps: list[dict[str, Any]]) -> bool:
        return _fits(doc, path, steps if is_list else steps[0], name)

    def example(word: str) -> list[dict[str, Any]] | None:
        """The primitive with the simplest argument it takes, as one step."""
        return next(([{word: e}] for e in _examples(props.get(word), root) if fits([{word: e}])),
                    None)

    def say(steps: list[dict[str, Any]], before: str = "", eg: bool = False) -> str:
        items = " and ".join(_item(s) for s in steps)
        write = "e.g." if eg else "write"
        if is_list:
            own = "lines of their own" if len(steps) > 1 else "a line of its own"
            return (f"{before}an effect is a list of steps, each a primitive and its argument: "
                    f"{write} {key}: {_flow(steps)}, or {items} on {own} below '{key}:'")
        return (f"{before}a step is a primitive, a colon and its argument: {write} {items}, "
                f"or {_flow(steps[0])} inside brackets")

    text = inst if isinstance(inst, str) else ""
    first = _STEP_TEXT.fullmatch(text)
    meant = difflib.get_close_matches(first[1], words, n=1, cutoff=0.6) \
        if first is not None and first[1] not in words else []
    if first is None or (first[1] not in words and not meant):
        # not a primitive: the shape, shown with one that validates
        sample = next((e for e in map(example, words) if e is not None), None)
        if sample is None:
            return None
        return say(sample, eg=True) + " (docs/effects.md lists the primitives)"
    if meant:  # gain_pv 3: said as what it likely means
        text = meant[0] + text.strip()[len(first[1]):]
        first = _STEP_TEXT.fullmatch(text)
        assert first is not None
    typo = f"did you mean '{meant[0]}'? " if meant else ""

    def parsed(m: re.Match[str] | None) -> dict[str, Any] | None:
        if m is None or m[1] not in words:
            return None
        try:
            return {m[1]: yaml.safe_load(m[2]) if m[2] else None}
        except yaml.YAMLError:
            return None

    word, arg = first[1], first[2]
    tried: list[list[dict[str, Any]]] = []
    one = parsed(first)
    if one is not None and arg:
        tried.append([one])
    if "," in text:  # several steps in one text: "force_unearth opposing, power 3"
        many = [parsed(_STEP_TEXT.fullmatch(part)) for part in text.split(",")]
        if all(s is not None for s in many):
            tried.append([s for s in many if s is not None])
    found = next((steps for steps in tried if fits(steps)), None)
    if found is not None:
        return say(found, typo)
    if not arg and fits([{word: None}]):  # the primitive alone is a step: '- dig:'
        return say([{word: None}], typo) if is_list or typo else f"write '{word}:' with a colon"
    sample = example(word)
    if sample is None:
        return None
    why = (f"'{word}' needs {_needs(props.get(word), root)}" if not arg else
           f"{arg!r} is not an argument '{word}' takes (docs/effects.md lists them)")
    return say(sample, f"{typo}{why}; ", eg=True)


def _unquoted_text(error: ValidationError) -> tuple[str, Any] | None:
    """(key, value) when a list item is a one-key mapping where text is also allowed: an item
    written ``- P2: discard blood 9`` unquoted, which YAML reads as a key and its value."""
    inst, parent, path = error.instance, error.parent, tuple(error.absolute_path)
    if not (isinstance(inst, dict) and len(inst) == 1 and parent is not None
            and parent.validator in ("oneOf", "anyOf") and path and isinstance(path[-1], int)):
        return None
    if not any(isinstance(b, dict) and b.get("type") == "string" for b in parent.validator_value):
        return None
    (key, value), = inst.items()
    known = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
    if not isinstance(key, str) or isinstance(value, (dict, list)) or _close(key, known):
        return None  # a misspelt key (expct: ...) is said as such
    return key, value


def _schema_problem(doc: YamlDoc, error: ValidationError, card_of: CardOf) -> list[Problem]:
    """Rephrase one jsonschema error as Problems (unknown keys give one Problem each)."""
    path: JsonPath = tuple(error.absolute_path)
    card, rel = card_of(path)
    what = _label(rel) or "the file"
    inst = error.instance
    kind = error.validator
    sch = error.schema if isinstance(error.schema, dict) else {}
    value = error.validator_value

    def one(message: str, hint: str | None = None, at: JsonPath = path, key: bool = False) -> list[Problem]:
        return [doc.problem(at, message, card=card, hint=hint, key=key)]

    unquoted = _unquoted_text(error) if kind in ("additionalProperties", "required") else None
    if unquoted and not any(k in sch.get("properties", {}) for k in inst):
        if kind == "required":
            return []  # the key the text was read as says it
        key, value = unquoted
        text = f"{key}: {value}" if isinstance(value, str) else f"{key}: ..."
        return one(f"{what} is read as the key '{key}' and its value, not as text (YAML takes "
                   "a colon and a space as the end of a key)",
                   f"put the whole item in quotes: \"{text}\"")
    if kind == "additionalProperties" and isinstance(inst, dict):
        allowed = list(sch.get("properties", {}))
        out = []
        for k in inst:
            if k in allowed:
                continue
            hint = _close(k, allowed) or (f"allowed here: {', '.join(allowed)}" if allowed
                                          else "nothing may be given here")
            word = _UNKNOWN_WORD.get(str(rel[-1]) if rel else "", "key")
            if rel and isinstance(rel[-1], int) and len(rel) > 1 and rel[-2] == "effect":
                word = "primitive"
            where = f" in {what}" if rel and word in ("key", "primitive") else ""
            if word == "condition":
                where = f" in {_label(rel[:-1])}"
            if rel and rel[-1] == "switches":
                hint = (_close(k, allowed) or "a new switch needs an entry in "
                        "schema/game.schema.json with its values and default")
            if word == "primitive":
                hint = _argument_hint(k, inst, sch) or (
                    f"'{k}' is a key of the card, not of an effect step: indent it as "
                    "'effect:' is" if k in _card_keys(card_of.schema_name) else hint)
            out += one(f"unknown {word} '{k}'{where}", hint, at=(*path, k), key=True)
        return out
    if kind == "required":
        missing = [k for k in value if isinstance(inst, dict) and k not in inst]
        if isinstance(inst, dict) and sch.get("additionalProperties") is False:
            # a misspelt key is one mistake: "unknown key 'pwoer' (did you mean 'power'?)"
            # already says it, so 'power' is not also reported missing
            allowed = list(sch.get("properties", {}))
            meant = {_close(k, allowed) for k in inst if k not in allowed}
            missing = [k for k in missing if f"did you mean '{k}'?" not in meant]
            if not missing:
                return []
        keys = ", ".join(f"'{k}'" for k in missing)
        prefix = f"{what}: " if rel else ""
        return one(f"{prefix}missing required key{'s' if len(missing) > 1 else ''} {keys}",
                   "add it" if len(missing) == 1 else "add them")
    if sch.get("errorMessage"):
        return one(f"{what}: {sch['errorMessage']}", sch.get("errorHint"))
    if kind == "type":
        types = value if isinstance(value, list) else [value]
        want = " or ".join(_TYPE_WORDS.get(str(t), str(t)) for t in types)
        type_hint: str | None = None
        steps = _effect_hint(doc, path, inst, sch, card_of)
        if steps is not None:
            type_hint = steps
        elif "integer" in types and isinstance(inst, str) and inst.strip().lstrip("-").isdigit():
            digits = inst.strip().lstrip("-")
            type_hint = ("remove the quotes" if len(digits) == 1 or digits[0] != "0" else
                         f"write {int(inst)} without the leading zero")  # `08`: YAML's text
        elif "integer" in types and isinstance(inst, str) and _span(inst) and path \
                and isinstance(path[-1], int):  # [1-9]: one item, meant as nine
            type_hint = f"write the numbers it stands for: {', '.join(map(str, _span(inst)))}"
        elif "number" in types and isinstance(inst, str) and _NUMERAL.fullmatch(inst.strip()):
            digits = inst.strip().lstrip("+-")
            type_hint = (f"write {int(digits)} without the leading zero" if
                         re.fullmatch(r"0\d+", digits) else "remove the quotes")
        elif "string" in types and (isinstance(inst, bool) or inst is None):
            # YAML 1.1 reads yes/no/on/off/true/false as booleans, and ~ or null as nothing
            type_hint = ("YAML reads yes, no, on, off, true and false as a yes-or-no value: "
                         "put the word in quotes, e.g. \"No\"" if isinstance(inst, bool) else
                         "YAML reads ~ and null as nothing: put the word in quotes, or write "
                         "the text")
        elif "integer" in types and isinstance(inst, float) and inst.is_integer():
            type_hint = f"write {int(inst)}"
        elif {"integer", "number"} & set(types) and isinstance(inst, str) and inst.startswith("="):
            type_hint = "a formula is never evaluated: type the number it gives"
        elif not path and types == ["array"] and card_of.is_card_list \
                and isinstance(inst, (str, int, float, bool)):
            # one plain value, a whole file of it (a CSV, a list of names): never echoed whole,
            # and not put in brackets, which would make a list of one text and no card
            sheet = isinstance(inst, str) and re.match(r"\s*id\s*[,;\t]", inst)
            return one(f"the file must be a list of cards, got {_short(inst)}",
                       "start each card with a dash and a space, '- id: ...', as a bundled "
                       "set's card file does" + ("; this looks like a sheet saved as CSV: "
                                                 "bring a sheet in with `boneyard import SET "
                                                 "FILE.csv`" if sheet else ""))
        elif types == ["array"] and isinstance(inst, (str, int)) and not isinstance(inst, bool):
            type_hint = _as_list(inst)
            written = re.search(r"\[.*\]$", type_hint)
            try:
                fixed = yaml.safe_load(written.group()) if written else None
            except yaml.YAMLError:
                fixed = None
            if card_of.schema_name and path and not (
                    isinstance(fixed, list) and _fits(doc, path, fixed, card_of.schema_name)):
                # the brackets would make a list the schema refuses too: say the form only
                type_hint = (f"write each item on a line of its own below '{path[-1]}:', "
                             "starting with '- ', as a bundled set's file does")
        elif not path and inst is None:
            needs = [str(k) for k in sch.get("required", [])]
            return one("file is empty", (f"it needs at least {', '.join(k + ':' for k in needs)}; "
                                         if needs else "") + "a bundled set's file of that name shows one")
        elif not path and types == ["array"] and card_of.is_card_list:
            type_hint = ("a card file is a list: start each card with a dash and a space, "
                         "'- id: ...', as a bundled set's card file does")
        return one(f"{what} must be {want}, got {_show(inst)}", type_hint)
    if kind in ("enum", "const"):
        options = value if kind == "enum" else [value]
        shown = ", ".join(str(o) for o in options)
        if kind == "const":
            return one(f"{what} must be '{value}', got {_show(inst)}")
        quoted = isinstance(inst, str) and any(
            not isinstance(o, str) and str(o).lower() == inst.strip().lower() for o in options)
        return one(f"{what} must be one of: {shown}; got {_show(inst)}",
                   "remove the quotes" if quoted else _close(inst, options))
    if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        word = {"minimum": "at least", "maximum": "at most",
                "exclusiveMinimum": "more than", "exclusiveMaximum": "less than"}[kind]
        below = kind == "minimum" and card_of.is_card_list and rel and rel[-1] == "copies"
        return one(f"{what} must be {word} {value}, got {_show(inst)}",
                   "to leave the card out, delete its entry" if below else None)
    if kind == "pattern":
        return one(f"{what} {_show(inst)} is not valid: "
                   f"{sch.get('patternErrorMessage', 'expected pattern ' + str(value))}")
    if kind in ("minLength", "maxLength"):
        if kind == "minLength":
            return one(f"{what} must not be empty")
        return one(f"{what} is too long ({len(inst)} characters, at most {value})", "shorten it")
    if kind == "minItems":
        return one(f"{what} must list at least {value} item{'s' if value != 1 else ''}")
    if kind == "maxItems" and isinstance(inst, list):
        extra = len(inst) - value
        return one(f"{what} must list at most {value} item{'s' if value != 1 else ''}, got "
                   f"{len(inst)}", f"remove {extra}", at=(*path, value))
    if kind == "uniqueItems":
        seen: list[Any] = []
        for i, item in enumerate(inst):
            if item in seen:
                return one(f"{what} lists {_show(item)} twice", "remove one", at=(*path, i))
            seen.append(item)
        return one(f"{what} lists a value twice")
    if kind == "minProperties" and sch.get("title") != "effect step":
        return one(f"{what} must not be empty")
    if kind == "propertyNames":
        return []  # reported by the inner enum error on the key itself
    if kind in ("oneOf", "minProperties", "maxProperties", "not") \
            and sch.get("title") == "effect step":
        if not isinstance(inst, dict):
            return []  # the type error says it all
        words = _effect_words()
        found = [k for k in inst if k in words]
        if not found:
            if any(k != "when" and k not in words for k in inst):
                return []  # the unknown key is already reported with a suggestion
            return one(f"{what} has no primitive",
                       f"start it with one of: {', '.join(words)}")
        if len(found) == 1:  # one primitive and a key that is none: that key says it
            return []
        return one(f"{what} has {len(found)} primitives ({', '.join(found)}); a step has one",
                   "write each as its own step, a new line starting with '-'")
    if kind == "anyOf" and error.context and isinstance(inst, dict) \
            and all(e.validator == "required" and not e.relative_path for e in error.context):
        # alternatives of keys (a gate's min or max): naming only the first says that one is
        # required and the other is not allowed in its place
        wanted = [k for e in error.context for k in e.validator_value if k not in inst]
        allowed = list(sch.get("properties", {}))
        if any(_close(k, allowed) in {f"did you mean '{m}'?" for m in wanted}
               for k in inst if k not in allowed):
            return []  # "unknown key 'mxa' (did you mean 'max'?)" already says it
        prefix = f"{what}: " if rel else ""
        return one(f"{prefix}missing {' or '.join(repr(k) for k in dict.fromkeys(wanted))}",
                   "add one of them")
    if kind in ("oneOf", "anyOf") and error.context:
        # Several shapes are allowed: explain the mismatch against the branch whose type fits
        # the value; if none fits, say which types would.
        wrong_type = {e.relative_schema_path[0] for e in error.context
                      if e.validator == "type" and not e.relative_path}
        fitting = [e for e in error.context if e.relative_schema_path[0] not in wrong_type]
        if len({e.relative_schema_path[0] for e in fitting}) == 1:
            # one shape fits the value's type: every mistake in it (a misspelt argument is
            # said once, not also as the argument it misses)
            out = []
            for e in sorted(fitting, key=lambda e: [str(p) for p in e.absolute_path]):
                out += [p for p in _schema_problem(doc, e, card_of) if p not in out]
            return out
        if fitting:
            kinds = {e.validator for e in fitting if not e.relative_path}
            if {"enum", "pattern"} <= kinds and isinstance(inst, str) \
                    and any(ch.isdigit() for ch in inst):
                # a name or a written-out value (63x88mm) is allowed: with digits in it, the
                # value was meant as the second, so say how that is written
                return _schema_problem(doc, next(e for e in fitting if e.validator == "pattern"),
                                       card_of)
            return _schema_problem(doc, best_match(fitting), card_of)
        types = [t for e in error.context if e.validator == "type" and not e.relative_path
                 for t in (e.validator_value if isinstance(e.validator_value, list)
                           else [e.validator_value])]
        want = " or ".join(dict.fromkeys(_TYPE_WORDS.get(str(t), str(t)) for t in types))
        return one(f"{what} must be {want}, got {_show(inst)}")
    if kind == "not":
        return one(f"{what} is not allowed here")
    return one(f"{what}: {error.message}")


def _argument_hint(key: str, step: Mapping[str, Any], sch: Mapping[str, Any]) -> str | None:
    """``who: opponent`` written beside ``gain_vp: 3`` in a step: an argument of the step's
    primitive, which goes inside it (the fix, written out), or None."""
    for prim, value in step.items():
        shapes = (sch.get("properties", {}).get(prim) or {}).get("anyOf", ())
        form = next((f for f in shapes if f.get("type") == "object"), None)
        if form is None or key not in form.get("properties", {}):
            continue
        if isinstance(value, dict):
            return f"'{key}' is an argument of {prim}: put it inside {prim}'s braces"
        required = form.get("required", [])
        if len(required) != 1:
            return f"'{key}' is an argument of {prim}: write {prim} as a mapping that holds it"
        return (f"'{key}' is an argument of {prim}: write "
                f"{prim}: {{{required[0]}: {_plain(value)}, {key}: {_plain(step[key])}}}")
    return None


def _plain(value: Any) -> str:
    """A value as written in YAML flow style (true, not True; {count: fallen})."""
    return yaml.safe_dump(value, default_flow_style=True, width=10**6).strip().removesuffix(
        "\n...").strip()


def _card_keys(schema_name: str | None) -> frozenset[str]:
    """The keys a card of a card list may have (its schema's item), or none."""
    if not schema_name:
        return frozenset()
    root = schema(schema_name)
    item = root.get("items") or {}
    ref = item.get("$ref", "")
    if ref.startswith("#/$defs/"):
        item = root.get("$defs", {}).get(ref.removeprefix("#/$defs/"), {})
    return frozenset(item.get("properties", {}))


class CardOf:
    """Splits a document path into (card id, path inside the card) for messages."""

    def __init__(self, doc: YamlDoc, is_card_list: bool, schema_name: str | None = None) -> None:
        self.doc = doc
        self.is_card_list = is_card_list
        self.schema_name = schema_name  # to try a hint's fix against (an effect's steps)

    def __call__(self, path: JsonPath) -> tuple[str | None, JsonPath]:
        if not self.is_card_list or not path or not isinstance(path[0], int):
            return None, path
        items = self.doc.data if isinstance(self.doc.data, list) else []
        idx = path[0]
        item = items[idx] if idx < len(items) else None
        cid = item.get("id") if isinstance(item, dict) else None
        if isinstance(cid, str) and cid:
            return cid, path[1:]
        return None, (f"card {idx + 1}", *path[1:])


def schema_problems(doc: YamlDoc, schema_name: str, *, is_card_list: bool) -> list[Problem]:
    """Every schema error in ``doc``, located and rephrased; duplicates removed."""
    card_of = CardOf(doc, is_card_list, schema_name)
    out: list[Problem] = []
    seen: set[str] = set()
    errors = sorted(_validator(schema_name).iter_errors(doc.data),  # a message written for the
                    key=lambda e: ([str(p) for p in e.absolute_path],  # case first (errorMessage)
                                   not (isinstance(e.schema, dict) and "errorMessage" in e.schema)))
    spots: set[tuple[str, int, int]] = set()
    for error in errors:
        for p in _schema_problem(doc, error, card_of):
            spot = (p.file, p.line, p.column)
            if str(p) not in seen and spot not in spots:  # one message per value: the first says it
                seen.add(str(p))
                spots.add(spot)
                out.append(p)
    return out


def schema_defaults(defs_name: str) -> dict[str, Any]:
    """Defaults of a ``$defs`` object in game.schema.json (switches and params)."""
    props = schema("game")["$defs"][defs_name]["properties"]
    return {k: v["default"] for k, v in props.items() if "default" in v}


# --- file paths inside a set ------------------------------------------------------------------


def inside_set(root: Path, rel: str) -> tuple[Path | None, str | None]:
    """Resolve ``rel`` inside the set folder ``root``; (path, None) or (None, why not).

    Card data is untrusted: an absolute path, ``..`` or a symlink pointing out of the folder
    could make the renderer read (and print) any file on the machine.
    """
    if not rel or rel.startswith(("/", "\\")) or (len(rel) > 1 and rel[1] == ":"):
        return None, "is an absolute path; write it relative to the set folder"
    parts = rel.replace("\\", "/").split("/")
    if ".." in parts:
        inside = posixpath.normpath("/".join(parts))
        if inside == ".." or inside.startswith("../"):
            return None, "goes outside the set folder with '..'"
        # it stays inside, but a path is kept simple so that it names one file one way
        return None, f"goes up with '..' and back in; write it as {inside!r}"
    target = root / rel
    try:
        real = target.resolve()
        real_root = root.resolve()
    except (OSError, RuntimeError):  # symlink loop
        return None, "cannot be resolved (a symlink loop?)"
    if real != real_root and real_root not in real.parents:
        return None, "leaves the set folder through a symlink"
    return target, None


def art_problem(root: Path, rel: str) -> str | None:
    """Why the art file ``rel`` is unusable and how to mend it, or None if it is a real PNG or
    JPEG inside the set."""
    target, why = inside_set(root, rel)
    name = quoted(rel)
    where = " (art paths are relative to the set folder)"
    if target is None:
        return f"art {name} {why}" + ("" if "write it" in str(why) else where)  # fix said
    if not target.exists():
        return (other_case_problem(target, rel, "art file")
                or f"art file {name} does not exist" + where)
    if not target.is_file():
        return f"art {name} is not a file"
    if target.stat().st_size > MAX_ART_BYTES:
        return f"art file {name} is over {MAX_ART_BYTES // (1024 * 1024)} MiB"
    from PIL import Image  # Pillow is slow to import; only sets with art pay for it

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(target) as img:
                fmt = img.format
                img.verify()
            with Image.open(target) as img:  # verify() reads headers only: decode, to find a
                if img.format == "JPEG":     # truncated file (a JPEG at 1/8 scale: cheap)
                    img.draft("RGB", (max(1, img.width // 8), max(1, img.height // 8)))
                img.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        most = Image.MAX_IMAGE_PIXELS or 0
        side = math.isqrt(most)
        return (f"art file {name} has too many pixels: at most {most:,} (about {side:,} x "
                f"{side:,}); scale it down (a poker card at 300 dpi is 750 x 1050)")
    except Exception:  # Pillow raises many kinds on a broken file; all mean "not an image"
        if _looks_like_svg(target):
            return f"art file {name} is SVG, expected PNG or JPEG (export it as PNG)"
        return f"art file {name} is not a readable image"
    if fmt not in ART_FORMATS:
        return f"art file {name} is {fmt}, expected PNG or JPEG (export it as PNG)"
    for part in rel.replace("\\", "/").split("/"):
        if part in ("", "."):  # ./art/x.png: this folder, no name of its own
            continue
        trouble = windows_trouble(part)
        if trouble:  # fine here, but the set breaks when checked out or unzipped on Windows
            return (f"art {name}: {trouble} ({quoted(part)}), so the set could not be copied "
                    "to Windows or zipped for a print shop (rename the file)")
    return None


def other_case_problem(target: Path, rel: str, what: str) -> str | None:
    """``art file 'art/Hoard.png' does not exist, but 'art/hoard.png' does: ...`` when the
    missing ``target`` (written ``rel``) has a namesake beside it differing in case only
    (``what`` names the kind of file), else None."""
    near = _other_case(target)
    if not near:
        return None
    # found on macOS and Windows, whose file names ignore case; not on Linux (CI)
    fixed = posixpath.join(posixpath.dirname(rel.replace("\\", "/")), near)
    return (f"{what} {quoted(rel)} does not exist, but {quoted(fixed)} does: the names "
            f"differ in case only (write {fixed}; file names are case-sensitive on "
            "Linux, where a build or a print shop may run)")


def _other_case(target: Path) -> str | None:
    """The name of the file beside ``target`` that differs from it only in case (``Art.png``
    for ``art.png``), or None."""
    try:
        names = [p.name for p in target.parent.iterdir()] if target.parent.is_dir() else []
    except OSError:
        return None
    want = target.name.casefold()
    near = sorted(n for n in names if n.casefold() == want and n != target.name)
    return near[0] if near else None


def _looks_like_svg(path: Path) -> bool:
    """An SVG drawing (named so, or an XML file that holds one): vector art to export."""
    if path.suffix.lower() in (".svg", ".svgz"):
        return True
    try:
        with path.open("rb") as f:
            head = f.read(4096).lower()
    except OSError:
        return False
    return b"<svg" in head


def quoted(text: str) -> str:
    """``text`` in quotes as the designer wrote it (``'C:\\art'`` not doubled backslashes);
    repr() only when it holds what a terminal would not show as written."""
    return f"'{text}'" if text.isprintable() and "'" not in text else repr(text)


__all__ = [
    "art_problem",
    "inside_set",
    "schema",
    "schema_defaults",
    "schema_problems",
]
