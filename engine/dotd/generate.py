"""The files derived from the effect vocabulary: ``schema/characters.schema.json`` and
``docs/effects.md``.

Both are generated, never edited by hand: the tests compare the committed files with
:func:`characters_schema_text` and :func:`effects_doc`. After changing ``effects.py`` run::

    .venv/bin/python -m boneyard.engine.dotd.generate
"""

from __future__ import annotations

import json
import sys
import textwrap
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from boneyard.paths import DOCS, SCHEMA

from .cards import BACKS
from .convert import conditions_from_dict, step_from_dict
from .effects import (
    COMPARATORS,
    CONDITION_DEFS,
    COUNTER_DEFS,
    ENUMS,
    PRIMITIVE_DEFS,
    VALUE_KINDS,
    CondTest,
    Primitive,
)
from .phrases import KEYWORD
from .text import condition_prefix, step_runs, step_text

SCHEMA_FILE = SCHEMA / "characters.schema.json"
DOC_FILE = DOCS / "effects.md"

# --- the schema --------------------------------------------------------------------------------

#: A name of only spaces prints as a blank title: refused as Grave Feast's schema refuses it.
NAME_MESSAGE = "a printed name cannot be only spaces; write the name"


def _character_def() -> dict[str, Any]:
    return {
        "type": "object",
        "required": ["id", "name", "power"],
        "additionalProperties": False,
        "properties": {
            "id": {"$ref": "#/$defs/id",
                   "description": "Lower-case id, unique in the set; physical cards are id@back."},
            "name": {"type": "string", "minLength": 1, "maxLength": 30, "pattern": r"\S",
                     "patternErrorMessage": NAME_MESSAGE,
                     "description": "Printed name (unique in the set)."},
            "power": {"type": "integer", "minimum": 0, "maximum": 9,
                      "description": "Printed power 0..9: fight power and victory points."},
            "effect": {"type": "array", "items": {"$ref": "#/$defs/step"},
                       "description": "Steps in order; omit or [] for no effect.", "default": []},
            "flavor": {"type": "string", "maxLength": 200,
                       "description": "Optional flavor text, printed in italics."},
            "art": {"type": "string", "minLength": 1,
                    "description": "A PNG or JPEG inside the set folder, relative to it."},
            "backs": {"type": "array", "items": {"$ref": "#/$defs/back"}, "minItems": 1,
                      "uniqueItems": True,
                      "description": "Backs this character is printed on (default: all three).",
                      "default": list(BACKS)},
            "copies": {"type": "integer", "minimum": 1, "maximum": 9,
                       "description": "Physical copies per back.", "default": 1},
        },
    }


def characters_schema() -> dict[str, Any]:
    """The JSON Schema of a characters file; the effect parts come from the vocabulary."""
    defs: dict[str, Any] = {
        "id": {"type": "string", "pattern": "^[a-z][a-z0-9_-]*$", "maxLength": 40,
               "patternErrorMessage": "an id is lower-case letters, digits, '-' and '_', "
                                      "starting with a letter"},
        "back": {"enum": list(BACKS)},
    }
    defs.update({name: {"enum": list(values)} for name, values in ENUMS.items()})
    defs["comparison"] = {
        "type": ["integer", "object"], "minProperties": 1, "additionalProperties": False,
        "properties": {op: {"type": "integer"} for op in COMPARATORS},
        "description": "A whole number (equality) or a mapping of lt/le/eq/ne/ge/gt to whole "
                       "numbers, all of which must hold.",
    }
    defs["when"] = {
        "type": "object", "minProperties": 1, "additionalProperties": False,
        "description": "Conditions; every test must hold when the step is used.",
        "properties": {t.name: t.schema() for t in CONDITION_DEFS},
    }
    # Exactly one primitive, said without a "required" per primitive: every key is a primitive
    # or `when` (additionalProperties), there is one besides `when` (not only `when`), and
    # at most one (a key count). So an editor names a misspelt key ("auto_wn is not
    # allowed") rather than the first primitive it misses ("Missing property power").
    one = {"title": "effect step"}  # the validator says "has 2 primitives" for these
    defs["step"] = {
        "title": "effect step", "type": "object",
        "description": "One primitive with its arguments, and optionally `when:` conditions.",
        "properties": {**{p.name: p.schema() for p in PRIMITIVE_DEFS},
                       "when": {"$ref": "#/$defs/when"}},
        "additionalProperties": False,
        "minProperties": 1,
        "not": {"required": ["when"], "maxProperties": 1},
        "if": {"required": ["when"]},
        "then": {**one, "maxProperties": 2},
        "else": {**one, "maxProperties": 1},
    }
    defs["character"] = _character_def()
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://boneyard.invalid/schema/characters.schema.json",
        "title": "Day of the Dead characters",
        "description": "Each character is printed on each of its backs (default: all three), "
                       "`copies` times per back. Effect language: docs/effects.md.",
        "type": "array",
        "items": {"$ref": "#/$defs/character"},
        "$defs": defs,
    }


def characters_schema_text() -> str:
    return json.dumps(characters_schema(), indent=2, ensure_ascii=False) + "\n"


# --- the reference -----------------------------------------------------------------------------


def _flow(value: Any) -> str:
    """A card-file value as YAML flow text: ``{amount: -2, who: opponent}``."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def _primitive_row(p: Primitive) -> str:
    args = ", ".join(a.doc() for a in p.args) if p.args else f"— (write `{p.name}: {{}}`)"
    steps = [step_from_dict({p.name: s}) for s in p.samples]
    printed = " / ".join(f"`{step_text(s)}`" for s in steps)
    keywords = list(dict.fromkeys(t for s in steps for t, style in step_runs(s) if style == KEYWORD))
    if keywords:
        printed += " (keyword run: " + " / ".join(f"`{k}`" for k in keywords) + ")"
    return f"| `{p.name}` | {_cell(args)} | {_cell(p.meaning)} | {_cell(printed)} | {_cell(p.example)} |"


def _condition_row(t: CondTest) -> str:
    kind = VALUE_KINDS[t.value]
    value = kind.doc + (f" ({t.value_note})" if t.value_note else "")
    shown = []
    for sample in t.samples:
        prefix = condition_prefix(conditions_from_dict({t.name: sample}))
        text = f"`{prefix}...`"
        if t.value in ("comparison", "count") or isinstance(sample, dict):
            text += f" (`{_flow(sample)}`)"
        shown.append(text)
    return f"| `{t.name}` | {_cell(value)} | {_cell(' / '.join(shown))} | {_cell(t.example)} |"


def _counter_rows() -> list[str]:
    rows = []
    for c in COUNTER_DEFS:
        per = step_text(step_from_dict({"power": {"amount": 1, "per": c.name}}))
        per = per.removeprefix("+1 power this fight ").removesuffix(".")
        count = condition_prefix(conditions_from_dict({"count": {"of": c.name, "ge": 2}}))
        rows.append(f"| `{c.name}` | `{per}` | `{count}...` |")
    return rows


def effects_doc() -> str:
    """docs/effects.md: the prose around the tables, the tables from the vocabulary."""
    return "\n".join([
        _DOC_HEAD,
        "| Primitive | Arguments | Meaning | Printed text (template) | Example |",
        "|---|---|---|---|---|",
        *(_primitive_row(p) for p in PRIMITIVE_DEFS),
        "",
        "### Counters (`per:` and the `count` condition)",
        "",
        textwrap.fill(", ".join(f"`{c.name}`" for c in COUNTER_DEFS) + ". Winners are fighters"
                      " that have won a fight this turn, ties included; adjacent fighters are in"
                      " the slots next to this one.", 96, break_on_hyphens=False),
        "",
        "Printed after the amount as `for each of ...`:",
        "",
        "| Counter | `per:` prints | `count` condition prints (`ge: 2`) |",
        "|---|---|---|",
        *_counter_rows(),
        "",
        _DOC_CONDITIONS,
        "| Test | Value | Printed as | Example |",
        "|---|---|---|---|",
        *(_condition_row(t) for t in CONDITION_DEFS),
        _DOC_TAIL,
    ])


_DOC_HEAD = """\
# The Day of the Dead effect language

<!-- Generated from engine/dotd/effects.py by `.venv/bin/python -m boneyard.engine.dotd.generate`;
do not edit by hand (a test compares this file with the generator). -->

A character's `effect:` is a list of **steps**. Each step is one primitive with its arguments,
and optionally a `when:` condition. A card file never contains code: one interpreter
(`boneyard.engine.dotd`) executes the steps and one generator (`boneyard.engine.dotd.text`) turns
the same steps into the printed rules text, so what a card does and what it says cannot drift
apart. Every primitive, counter and condition test is defined once, in
`engine/dotd/effects.py`: this page, the JSON Schema, the text and the interpreter's codes all
come from that definition, and its docstring says what a new primitive needs.

## How a step resolves

- In step 1 of a fight, the priority holder's fighter uses its effect (every step, in order),
  twice in a row if that player's spirit is a Double; then the other fighter does the same.
- Every use is evaluated afresh: conditions are checked and choices made on each use, so a
  Double's second use may find new targets.
- "Must use if able": a step with no legal target is skipped; otherwise it is mandatory,
  drawbacks included.
- Choices inside a step (which card to Unearth, which deck to Dig, which fighter to copy) are
  decision points of the game (`legal_actions()`), made by the fighter's controller.
- **this fight**: bonuses belong to the side of the fight in progress and end with it.

## Writing a character

```yaml
# yaml-language-server: $schema=../../schema/characters.schema.json
- id: anger            # lower-case id, unique in the set: [a-z][a-z0-9_-]*
  name: Anger          # printed name
  power: 3             # printed power 0..9: fight power and victory points
  effect:              # list of steps; omit or [] for no effect (Oaf)
    - power: 5
  flavor: Never count to ten.   # optional, printed in italics
  art: art/anger.png            # optional, a PNG/JPEG inside the set folder
  backs: [double, power_up, unearth]   # optional, default: all three
  copies: 1                     # optional, physical copies per back, default 1
```

The deck is characters x backs x copies; the validator checks that each back's deck has
`cards_per_back` cards (game.yaml).

## Primitives

`who` is `self` (this fighter, or its controller) or `opponent` (the opposing fighter, or its
controller); it defaults to `self` unless the table says otherwise. A scalar after the primitive
is its main argument (`power: 5` is `power: {amount: 5}`).
"""

_DOC_CONDITIONS = """\
## Conditions (`when:`)

A mapping; every test in it must hold when the step is used. A comparison is either a bare int
(equality) or a mapping of `lt le eq ne ge gt` to ints, all of which must hold. A back or spirit
test may say `{ne: double}` for "is not". `boneyard validate` refuses, where it is written, a
test that can never hold in the set's game (`turn: 7` in a game of 6 turns; `count: {of:
own_active, eq: 0}`, as the fighter using its effect is active) and one that holds in every game
(`count: {of: own_fallen, ge: 0}`, `turn: {ge: 1}`, `opposing_power: {le: 9}`).
"""

_DOC_TAIL = """
Example:

```yaml
- id: late_bloomer
  name: Late Bloomer
  power: 2
  effect:
    - power: 5
      when: {turn: {ge: 5}}
```
prints "On turn 5 or later, +5 power this fight."

## How the printed text is put together

`boneyard.engine.dotd.text` builds every card's text from the templates above; there are no
per-card strings (`docs/characters.md` lists the 36 bundled characters with their generated text).

- Each step is one sentence; a character's steps are joined with a space, in order. A character
  with no steps has no text (Oaf).
- A step's conditions become a prefix. `turn` comes first as `On turn ..., `; every other test
  becomes a clause, joined with ` and ` after one `If`: `On turn 5 or later, if you have
  priority and the opposing fighter's printed power is 3 or less, gain 2 victory points.`
  Several comparisons on the same quantity print as one range (`turn: {ge: 2, le: 4}` ->
  `On turns 2 to 4, `); `lt`/`gt` are printed as the equivalent `or less`/`or more` bound
  (`turn: {lt: 3}` -> `On turn 2 or earlier, `); `ne` on a back or spirit prints `is not`.
  The range is the set of whole numbers the interpreter accepts (bounds included), counted from
  the least value the quantity has (a count 0, a turn or slot 1, a printed power 0), so an `ne`
  at either end moves that end (`count: {of: own_fallen, ne: 0}` -> `If you have 1 or more
  fallen fighters, `; `turn: {le: 4, ne: 1}` -> `On turns 2 to 4, `), a range of one number
  prints that number (`turn: {ge: 3, le: 3}` -> `On turn 3, `), a range of two, or a few
  numbers with a gap, names each (`On turn 2 or 4, `), and any other `ne` is said last
  (`If you do not have exactly 2 fallen fighters, `; `If you have 2 or more fallen fighters,
  but not 3, `; `On turn 2 or later, except turn 3, `).
- After a prefix, the action's first letter is lower-cased (`..., gain 2 victory points.`)
  except a keyword, which keeps its capital (`If this is your newest slot, Dig.`).
- Back names in conditions come from the set's `game.yaml` (`Power Up`), with `a`/`an` chosen
  by the name.
- Amounts print signed for power (`+5`, `-3`) and unsigned for victory points and set_power.
- The renderer asks for *runs*: `rules_runs(character)` returns `(text, style)` pieces with style
  `plain` or `keyword`. Only the keywords `Dig` (with its count, `Dig 2`) and `Unearth` (the
  keyword and the `Unearth` of `force_unearth`) are `keyword`; the back called Unearth in a
  condition is plain text.

## Grave Feast cards

Grave Feast cards have no effect list: each kind's behaviour is a rule of the game
(docs/rules/grave-feast.md). A card file lists kinds with counts:

```yaml
# yaml-language-server: $schema=../../schema/feast-cards.schema.json
- id: blood             # humans: ids blood-1 .. blood-9 are made from numbers
  name: Blood
  kind: human
  food: blood
  numbers: [1, 2, 3, 4, 5, 6, 7, 8, 9]
  copies: 2             # of each number
- id: vampire
  name: Vampire
  kind: vampire
  copies: 4
```
"""


def write(path: Path, text: str) -> bool:
    """Write ``text`` to ``path`` if it differs; True when the file changed."""
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8", newline="\n")
    return True


def main(argv: Sequence[str] | None = None) -> int:
    """Regenerate the schema and the reference from the vocabulary."""
    del argv
    for path, text in ((SCHEMA_FILE, characters_schema_text()), (DOC_FILE, effects_doc())):
        print(f"{'wrote' if write(path, text) else 'unchanged'} {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
