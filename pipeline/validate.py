"""Checks on card data: the JSON Schemas in ``schema/`` plus what a schema cannot say.

A designer fixes a set in one pass only if every problem is reported at once, each at the line
and column where it was written, in words about cards rather than about JSON Schema. So schema
errors are collected with ``iter_errors`` and rephrased here, and the semantic checks (unique
ids, cards per back, art files, deck sizes, ...) run on the raw data defensively, so that one
broken card never hides the problems of the others.
"""

from __future__ import annotations

import difflib
import json
import warnings
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from boneyard.engine.dotd.cards import BACKS
from boneyard.engine.dotd.effects import COMPARATORS, COUNTERS, PRIMITIVE_DEFS, PRIMITIVES
from boneyard.pipeline.validate_yaml import JsonPath, YamlDoc
from jsonschema.exceptions import ValidationError, best_match

from boneyard.errors import Problem
from boneyard.paths import SCHEMA

MAX_ART_BYTES = 32 * 1024 * 1024
ART_FORMATS = ("PNG", "JPEG")

_TYPE_WORDS = {
    "integer": "a whole number",
    "number": "a number",
    "string": "text",
    "object": "a mapping (key: value lines)",
    "array": "a list",
    "boolean": "true or false",
    "null": "empty",
}


@cache
def schema(name: str) -> dict[str, Any]:
    """A bundled schema by file stem ("game", "characters", "feast-cards")."""
    with (SCHEMA / f"{name}.schema.json").open(encoding="utf-8") as fh:
        return json.load(fh)


@cache
def _validator(name: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(schema(name))


def _show(value: Any) -> str:
    if isinstance(value, str):
        return repr(value)
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return "a mapping" if isinstance(value, dict) else "a list"
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

    if kind == "additionalProperties" and isinstance(inst, dict):
        allowed = list(sch.get("properties", {}))
        out = []
        for k in inst:
            if k in allowed:
                continue
            hint = _close(k, allowed) or f"allowed here: {', '.join(allowed)}"
            word = _UNKNOWN_WORD.get(str(rel[-1]) if rel else "", "key")
            if rel and isinstance(rel[-1], int) and len(rel) > 1 and rel[-2] == "effect":
                word = "primitive"
            where = f" in {what}" if rel and word in ("key", "primitive") else ""
            if word == "condition":
                where = f" in {_label(rel[:-1])}"
            if rel and rel[-1] == "switches":
                hint = (_close(k, allowed) or "a new switch needs an entry in "
                        "schema/game.schema.json with its values and default")
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
        return one(f"{what}: {sch['errorMessage']}")
    if kind == "type":
        types = value if isinstance(value, list) else [value]
        want = " or ".join(_TYPE_WORDS.get(t, t) for t in types)
        hint = None
        if isinstance(inst, str) and inst in PRIMITIVES:
            hint = f"write '{inst}:' with a colon"
        elif "integer" in types and isinstance(inst, str) and inst.strip().lstrip("-").isdigit():
            hint = "remove the quotes"
        elif "integer" in types and isinstance(inst, float) and inst.is_integer():
            hint = f"write {int(inst)}"
        return one(f"{what} must be {want}, got {_show(inst)}", hint)
    if kind in ("enum", "const"):
        options = value if kind == "enum" else [value]
        shown = ", ".join(str(o) for o in options)
        if kind == "const":
            return one(f"{what} must be '{value}', got {_show(inst)}")
        return one(f"{what} must be one of: {shown}; got {_show(inst)}", _close(inst, options))
    if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        word = {"minimum": "at least", "maximum": "at most",
                "exclusiveMinimum": "more than", "exclusiveMaximum": "less than"}[kind]
        return one(f"{what} must be {word} {value}, got {_show(inst)}")
    if kind == "pattern":
        return one(f"{what} {_show(inst)} is not valid: "
                   f"{sch.get('patternErrorMessage', 'expected pattern ' + str(value))}")
    if kind in ("minLength", "maxLength"):
        if kind == "minLength":
            return one(f"{what} must not be empty")
        return one(f"{what} is too long ({len(inst)} characters, at most {value})", "shorten it")
    if kind == "minItems":
        return one(f"{what} must list at least {value} item{'s' if value != 1 else ''}")
    if kind == "uniqueItems":
        seen: list[Any] = []
        for i, item in enumerate(inst):
            if item in seen:
                return one(f"{what} lists {_show(item)} twice", "remove one", at=(*path, i))
            seen.append(item)
        return one(f"{what} lists a value twice")
    if kind == "minProperties":
        return one(f"{what} must not be empty")
    if kind == "propertyNames":
        return []  # reported by the inner enum error on the key itself
    if kind == "oneOf" and sch.get("title") == "effect step":
        if not isinstance(inst, dict):
            return []  # the type error says it all
        found = [k for k in inst if k in PRIMITIVES]
        if not found:
            if any(k != "when" and k not in PRIMITIVES for k in inst):
                return []  # the unknown key is already reported with a suggestion
            return one(f"{what} has no primitive",
                       f"start it with one of: {', '.join(PRIMITIVES)}")
        return one(f"{what} has {len(found)} primitives ({', '.join(found)}); a step has one",
                   "write each as its own step, a new line starting with '-'")
    if kind in ("oneOf", "anyOf") and error.context:
        # Several shapes are allowed: explain the mismatch against the branch whose type fits
        # the value; if none fits, say which types would.
        wrong_type = {e.relative_schema_path[0] for e in error.context
                      if e.validator == "type" and not e.relative_path}
        fitting = [e for e in error.context if e.relative_schema_path[0] not in wrong_type]
        if fitting:
            return _schema_problem(doc, best_match(fitting), card_of)
        types = [t for e in error.context if e.validator == "type" and not e.relative_path
                 for t in (e.validator_value if isinstance(e.validator_value, list)
                           else [e.validator_value])]
        want = " or ".join(dict.fromkeys(_TYPE_WORDS.get(t, t) for t in types))
        return one(f"{what} must be {want}, got {_show(inst)}")
    if kind == "not":
        return one(f"{what} is not allowed here")
    return one(f"{what}: {error.message}")


class CardOf:
    """Splits a document path into (card id, path inside the card) for messages."""

    def __init__(self, doc: YamlDoc, is_card_list: bool) -> None:
        self.doc = doc
        self.is_card_list = is_card_list

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
    card_of = CardOf(doc, is_card_list)
    out: list[Problem] = []
    seen: set[str] = set()
    errors = sorted(_validator(schema_name).iter_errors(doc.data),
                    key=lambda e: [str(p) for p in e.absolute_path])
    for error in errors:
        for p in _schema_problem(doc, error, card_of):
            if str(p) not in seen:
                seen.add(str(p))
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
        return None, "goes outside the set folder with '..'"
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
    """Why the art file ``rel`` is unusable, or None if it is a real PNG/JPEG inside the set."""
    target, why = inside_set(root, rel)
    if target is None:
        return f"art {rel!r} {why}"
    if not target.exists():
        return f"art file {rel!r} does not exist"
    if not target.is_file():
        return f"art {rel!r} is not a file"
    if target.stat().st_size > MAX_ART_BYTES:
        return f"art file {rel!r} is over {MAX_ART_BYTES // (1024 * 1024)} MiB"
    from PIL import Image  # Pillow is slow to import; only sets with art pay for it

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(target) as img:
                fmt = img.format
                img.verify()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        return f"art file {rel!r} has too many pixels"
    except Exception:  # Pillow raises many kinds on a broken file; all mean "not an image"
        return f"art file {rel!r} is not a readable image"
    if fmt not in ART_FORMATS:
        return f"art file {rel!r} is {fmt}, expected PNG or JPEG"
    return None


# --- Day of the Dead semantics ------------------------------------------------------------------

#: Primitives known to keep hand size and the number of cards of each back in hand and in play
#: (rulings DD-25, INV-3): Dig discards a card with the drawn card's back, every Unearth replaces
#: a card with one of the same back, and the rest never move cards between zones. Each primitive
#: says so in its definition (``keeps_hand`` in engine/dotd/effects.py, no default): a new one
#: must be reviewed there before any card may use it.
HAND_SAFE: frozenset[str] = frozenset(p.name for p in PRIMITIVE_DEFS if p.keeps_hand)


def _at(doc: YamlDoc, file: str, line: int) -> str:
    """Where an earlier occurrence is: the line alone if it is in the same file."""
    return f"line {line}" if file == doc.file else f"{file}:{line}"


def _cards(n: int) -> str:
    return f"{n} card{'s' if n != 1 else ''}"


def _items(doc: YamlDoc) -> list[tuple[int, dict[str, Any]]]:
    data = doc.data if isinstance(doc.data, list) else []
    return [(i, c) for i, c in enumerate(data) if isinstance(c, dict)]


def _cid(card: dict[str, Any]) -> str | None:
    cid = card.get("id")
    return cid if isinstance(cid, str) and cid else None


def _comparison_values(value: Any) -> list[tuple[str, int]]:
    if isinstance(value, int) and not isinstance(value, bool):
        return [("eq", value)]
    if isinstance(value, dict):
        return [(k, v) for k, v in value.items()
                if k in COMPARATORS and isinstance(v, int) and not isinstance(v, bool)]
    return []


def _can_hold(pairs: list[tuple[str, int]], lo: int, hi: int) -> bool:
    """Whether some whole number in lo..hi satisfies all comparisons."""
    tests = {
        "lt": lambda x, n: x < n, "le": lambda x, n: x <= n, "eq": lambda x, n: x == n,
        "ne": lambda x, n: x != n, "ge": lambda x, n: x >= n, "gt": lambda x, n: x > n,
    }
    return any(all(tests[op](x, n) for op, n in pairs) for x in range(lo, hi + 1))


def dotd_semantics(game: YamlDoc, docs: list[YamlDoc], root: Path, *,
                   complete: bool = True) -> list[Problem]:
    """Checks across the character files and game.yaml that no schema can express.

    With ``complete=False`` (a card file could not be read) deck counts are not checked: they
    would only repeat the unreadable file's problem.
    """
    out: list[Problem] = []
    g = game.data if isinstance(game.data, dict) else {}
    params = g.get("params") if isinstance(g.get("params"), dict) else {}
    turns = params.get("turns", 6) if isinstance(params.get("turns", 6), int) else 6
    backs_def = g.get("backs") if isinstance(g.get("backs"), list) else []
    back_ids = [b.get("id") for b in backs_def if isinstance(b, dict)]
    seen_back: set[Any] = set()
    for i, b in enumerate(back_ids):
        if b in seen_back:
            out.append(game.problem(("backs", i, "id"), f"back '{b}' is defined twice",
                                    "each back once"))
        seen_back.add(b)
    known_backs = [b for b in back_ids if b in BACKS]
    if isinstance(g.get("backs"), list):
        missing = [b for b in BACKS if b not in back_ids]
        if missing:
            out.append(game.problem(("backs",), f"backs: {', '.join(missing)} missing; Day of "
                                    f"the Dead needs {', '.join(BACKS)}", hint="define each "
                                    "back once with its name and colour"))

    ids: dict[str, tuple[str, int]] = {}
    names: dict[str, tuple[str, int]] = {}
    per_back = dict.fromkeys(known_backs, 0)
    for doc in docs:
        for idx, card in _items(doc):
            cid = _cid(card)
            if cid:
                if cid in ids:
                    f, line = ids[cid]
                    out.append(doc.problem((idx, "id"), f"duplicate id '{cid}' (first used at "
                                           f"{_at(doc, f, line)})", card=cid, hint="give each character "
                                           "its own id"))
                else:
                    ids[cid] = (doc.file, doc.where((idx, "id"))[0])
            name = card.get("name")
            if isinstance(name, str) and name:
                key = name.casefold()
                if key in names:
                    f, line = names[key]
                    out.append(doc.problem((idx, "name"), f"name '{name}' is already used at "
                                           f"{_at(doc, f, line)}", card=cid, hint="two printed cards "
                                           "with one name confuse players"))
                else:
                    names[key] = (doc.file, doc.where((idx, "name"))[0])
            backs = card.get("backs", known_backs)
            if not isinstance(backs, list):
                backs = known_backs
            copies = card.get("copies", 1)
            if not isinstance(copies, int) or isinstance(copies, bool) or copies < 1:
                copies = 1
            for j, b in enumerate(backs):
                if b in per_back:
                    per_back[b] += copies
                elif b in BACKS:
                    out.append(doc.problem((idx, "backs", j), f"back '{b}' is not defined in "
                                           f"{game.file}", card=cid, hint="add it to backs: "
                                           "in game.yaml or remove it here"))
            art = card.get("art")
            if isinstance(art, str) and art:
                why = art_problem(root, art)
                if why:
                    out.append(doc.problem((idx, "art"), why, card=cid,
                                           hint="art paths are relative to the set folder"))
            out += _effect_semantics(doc, idx, card, cid, turns, known_backs, game.file)

    want = g.get("cards_per_back") if complete else None
    for b in known_backs:
        if isinstance(want, dict):
            n, at = want.get(b), ("cards_per_back", b)
            if n is None:
                continue
        else:
            n, at = want, ("cards_per_back",)
        if not isinstance(n, int) or isinstance(n, bool):
            continue
        if per_back[b] != n:
            diff = per_back[b] - n
            fix = (f"remove {diff} card{'s' if diff != 1 else ''}" if diff > 0
                   else f"add {-diff} card{'s' if diff != -1 else ''}")
            out.append(game.problem(at, f"back '{b}' has {_cards(per_back[b])} but "
                                    f"cards_per_back is {n}", hint=f"{fix} with that back "
                                    "using backs: or copies: on a character, or change "
                                    "cards_per_back"))
    hand = params.get("hand_per_back", 3)
    players = 2  # the game's only player count (game.yaml saying otherwise is a schema error)
    if complete and isinstance(hand, int) and not isinstance(hand, bool):
        for b in known_backs:
            if 0 < per_back[b] < hand * players:
                out.append(game.problem(("params", "hand_per_back") if "hand_per_back" in params
                                        else ("backs",),
                                        f"back '{b}' has {_cards(per_back[b])}, too few to deal "
                                        f"{hand} to each of {players} players",
                                        hint="add cards or lower hand_per_back"))
    return out


def _effect_semantics(doc: YamlDoc, idx: int, card: dict[str, Any], cid: str | None,
                      turns: int, backs: list[str], game_file: str) -> list[Problem]:
    out: list[Problem] = []
    effect = card.get("effect")
    if not isinstance(effect, list):
        return out
    for s, step in enumerate(effect):
        if not isinstance(step, dict):
            continue
        for op in step:
            if op in PRIMITIVES and op not in HAND_SAFE:
                out.append(doc.problem((idx, "effect", s, op), f"effect step {s + 1}: '{op}' "
                                       "is not known to keep hand size and cards per back "
                                       "unchanged", card=cid, hint="the engine relies on this, "
                                       "ruling DD-25; review the primitive and set its "
                                       "keeps_hand in engine/dotd/effects.py", key=True))
        when = step.get("when")
        if not isinstance(when, dict):
            continue
        at = (idx, "effect", s, "when")
        pairs = _comparison_values(when.get("turn"))
        if pairs and not _can_hold(pairs, 1, turns):
            out.append(doc.problem((*at, "turn"), f"effect step {s + 1}: condition on the turn "
                                   f"can never hold (the game has turns 1 to {turns})",
                                   card=cid, hint="check the comparison"))
        slot = when.get("slot")
        if isinstance(slot, int) and not isinstance(slot, bool) and slot > turns:
            out.append(doc.problem((*at, "slot"), f"effect step {s + 1}: slot {slot} never "
                                   f"exists (the game has {turns} turns, one slot per turn)",
                                   card=cid))
        count = when.get("count")
        if isinstance(count, dict) and count.get("of") in COUNTERS:
            pairs = _comparison_values({k: v for k, v in count.items() if k != "of"})
            most = 2 if count["of"] == "own_adjacent_active" else turns
            if pairs and not _can_hold(pairs, 0, most):
                out.append(doc.problem((*at, "count"), f"effect step {s + 1}: "
                                       f"{count['of']} is 0 to {most}, so this condition can "
                                       "never hold", card=cid, hint="check the comparison"))
        pairs = _comparison_values(when.get("opposing_power"))
        if pairs and not _can_hold(pairs, 0, 9):
            out.append(doc.problem((*at, "opposing_power"), f"effect step {s + 1}: printed "
                                   "powers are 0 to 9, so this condition can never hold",
                                   card=cid, hint="check the comparison"))
        for test in ("own_spirit", "opponent_spirit", "own_back", "opposing_back"):
            value = when.get(test)
            named = value.items() if isinstance(value, dict) else [(None, value)]
            for op, b in named:
                if isinstance(b, str) and b in BACKS and b not in backs:
                    path = (*at, test) if op is None else (*at, test, op)
                    out.append(doc.problem(path, f"effect step {s + 1}: back '{b}' is not "
                                           f"defined in {game_file}", card=cid))
    return out


# --- Grave Feast semantics ----------------------------------------------------------------------

EATERS = {"blood": "vampire", "brains": "zombie"}
RARE_KINDS = ("devil_wife", "exorcist")


def deck_size(doc: YamlDoc) -> int:
    """Physical cards in one copy of the deck described by ``doc`` (defensive)."""
    total = 0
    for _, card in _items(doc):
        copies = card.get("copies", 1)
        if not isinstance(copies, int) or isinstance(copies, bool) or copies < 1:
            copies = 1  # a bad count is reported by the schema; do not add a second problem
        numbers = card.get("numbers")
        total += copies * (len(numbers) if isinstance(numbers, list) and
                           card.get("kind") == "human" else 1)
    return total


def gf_semantics(game: YamlDoc, docs: list[YamlDoc], rares: YamlDoc | None,
                 root: Path, *, complete: bool = True) -> list[Problem]:
    """Checks across deck files, the rares file and game.yaml that no schema can express.

    With ``complete=False`` (a card file could not be read) deck sizes are not checked.
    """
    out: list[Problem] = []
    g = game.data if isinstance(game.data, dict) else {}
    params = g.get("params") if isinstance(g.get("params"), dict) else {}
    ids: dict[str, tuple[str, int]] = {}
    humans: dict[tuple[str, int], tuple[str, int]] = {}
    kinds: set[str] = set()
    foods: dict[str, tuple[YamlDoc, JsonPath, str | None]] = {}
    odd_numbers = False

    def claim(doc: YamlDoc, at: JsonPath, cid: str, owner: str | None) -> None:
        if cid in ids:
            f, line = ids[cid]
            out.append(doc.problem(at, f"duplicate id '{cid}' (first used at {_at(doc, f, line)})",
                                   card=owner, hint="give each card its own id"))
        else:
            ids[cid] = (doc.file, doc.where(at)[0])

    all_docs = [(d, False) for d in docs] + ([(rares, True)] if rares is not None else [])
    for doc, is_rares in all_docs:
        for idx, card in _items(doc):
            cid = _cid(card)
            kind = card.get("kind")
            rare = card.get("rare", False)
            if is_rares and rare is False and "rare" in card:
                out.append(doc.problem((idx, "rare"), "a card in the rares file must not say "
                                       "rare: false", card=cid, hint="remove the line"))
            if not is_rares and rare is True:
                out.append(doc.problem((idx, "rare"), "rare card in the regular deck",
                                       card=cid, hint="move it to the rares file named by "
                                       "rares_file: in game.yaml"))
            elif not is_rares and kind in RARE_KINDS:
                out.append(doc.problem((idx, "kind"), f"{kind.replace('_', ' ')} is a rare "
                                       "and cannot be in the regular deck", card=cid,
                                       hint="move it to the rares file named by "
                                       "rares_file: in game.yaml"))
            if not is_rares and isinstance(kind, str):
                kinds.add(kind)
            numbers = card.get("numbers")
            food = card.get("food")
            if kind == "human" and isinstance(numbers, list) and cid:
                if isinstance(food, str) and not is_rares and food not in foods:
                    foods[food] = (doc, (idx, "food"), cid)
                for j, n in enumerate(numbers):
                    if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= 9:
                        odd_numbers = True  # reported by the schema; runs would mislead
                        continue
                    claim(doc, (idx, "numbers", j), f"{cid}-{n}", cid)
                    if isinstance(food, str) and 1 <= n <= 9:
                        if (food, n) in humans:
                            f, line = humans[(food, n)]
                            out.append(doc.problem((idx, "numbers", j), f"{food} {n} is "
                                                   f"already defined at {_at(doc, f, line)}", card=cid,
                                                   hint="raise copies: on one entry instead"))
                        else:
                            humans[(food, n)] = (doc.file, doc.where((idx, "numbers", j))[0])
            elif cid:
                claim(doc, (idx, "id"), cid, cid)
            art = card.get("art")
            if isinstance(art, str) and art:
                why = art_problem(root, art)
                if why:
                    out.append(doc.problem((idx, "art"), why, card=cid,
                                           hint="art paths are relative to the set folder"))

    params_min = params.get("min_family", 3)
    min_family = params_min if isinstance(params_min, int) and params_min > 0 else 3
    for food, (doc, at, cid) in foods.items():
        eater = EATERS.get(food)
        if eater and eater not in kinds:
            out.append(doc.problem(at, f"{food} humans but no {eater} in the deck: these "
                                   "families can never be eaten", card=cid,
                                   hint=f"add a {eater} card"))
        numbers = sorted(n for (f, n) in humans if f == food)
        longest = run = 0
        for i, n in enumerate(numbers):
            run = run + 1 if i and n == numbers[i - 1] + 1 else 1
            longest = max(longest, run)
        if complete and not odd_numbers and longest < min_family:
            out.append(doc.problem(at, f"no {food} family can ever be built: the longest run "
                                   f"of consecutive {food} numbers is {longest}, a family "
                                   f"needs {min_family}", card=cid,
                                   hint="add the missing numbers"))

    players = g.get("players")
    most = players.get("max") if isinstance(players, dict) else players
    least = players.get("min") if isinstance(players, dict) else players
    if isinstance(players, dict) and isinstance(most, int) and isinstance(least, int) \
            and least > most:
        out.append(game.problem(("players", "min"), f"players min {least} is above max {most}"))
    hand = params.get("hand_size", 5)
    decks = params.get("decks", "auto")
    if complete and docs and isinstance(most, int) and isinstance(hand, int) and most > 0:
        size = sum(deck_size(d) for d in docs)
        n_decks = (2 if most >= 5 else 1) if decks == "auto" else decks
        if isinstance(n_decks, int) and 0 < size * n_decks < hand * most:
            out.append(game.problem(("params", "hand_size") if "hand_size" in params
                                    else ("card_files",),
                                    f"{_cards(size * n_decks)} cannot deal {hand} to each of "
                                    f"{most} players", hint="add cards, use two decks or "
                                    "lower hand_size"))
    min_family = params.get("min_family", 3)
    win = params.get("win_score", 9)
    if isinstance(min_family, int) and isinstance(win, int) and min_family > win:
        out.append(game.problem(("params", "min_family"), f"min_family {min_family} is above "
                                f"win_score {win}", hint="a single family would win"))
    if params.get("rares") is True and rares is None and "rares_file" not in g:
        out.append(game.problem(("params", "rares"), "rares: true but no rares_file",
                                hint="add rares_file: rares.yaml"))
    return out


__all__ = [
    "art_problem",
    "deck_size",
    "dotd_semantics",
    "gf_semantics",
    "HAND_SAFE",
    "inside_set",
    "schema",
    "schema_defaults",
    "schema_problems",
]
