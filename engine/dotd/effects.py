"""The Day of the Dead effect vocabulary: every primitive, counter and condition test, once.

Each definition below carries everything the rest of the project knows about its word: the
arguments with their types, ranges, allowed values and defaults; the printed text template; the
interpreter operation it compiles to; the greedy agent's rough worth; and the samples and
example the reference shows. From these definitions come

- the effect parts of ``schema/characters.schema.json`` and all of ``docs/effects.md``
  (``python -m boneyard.engine.dotd.generate`` writes both; tests fail when either is stale),
- the one YAML-to-Step converter (``convert.py``: shorthand arguments and defaults),
- the printed rules text (``text.py`` composes the templates),
- the interpreter's compiled steps (``rules.compile_step``: names to the int codes of
  ``codes.py``).

**Adding a primitive** is one :class:`Primitive` in :data:`PRIMITIVE_DEFS` plus its test:

1. ``name``, ``args`` (each :class:`Arg`: the Step field it fills, its kind, range or values,
   default, whether required), ``main`` (the field a bare scalar fills: ``power: 5``);
2. ``meaning`` and ``summary`` (reference and schema description), ``example``, and ``samples``
   (card-file forms whose printed text the reference shows);
3. ``text``: a function from the Step to its runs (add it next to the definition);
4. ``run``: the interpreter operation. Most primitives are one of the existing operations
   (``RUN_FIGHT_ADD``/``RUN_FIGHT_SET`` of a fight-context field ``field``, ``RUN_VP``,
   ``RUN_PRIORITY``, or a choice: unearth, dig, force_unearth, flip, copy). Only a genuinely new
   kind of behaviour needs a new ``RUN_*`` code (``codes.py``, where the compiled engine's
   constants live) and one branch in ``interpreter.py``;
5. ``rate``: (fight, victory points) one use is worth to the greedy agent, or None;
6. ``keeps_hand``: whether it keeps hand size and cards per back (ruling DD-25; no default,
   the validator refuses a primitive that does not); and, if they apply, ``idle_amount`` (the
   amount at which a use does nothing, ``power: 0``) and ``cancelled_by`` (the primitive that
   undoes it for the same subject, as auto_lose does auto_win): the validator refuses such
   steps (engine/dotd/checks.py);
7. run ``python -m boneyard.engine.dotd.generate`` (schema and reference), then add its test: a
   case in tests/test_text.py ``PRIMITIVE_CASES`` (the coverage test fails without one) and a
   rules test in tests/test_dotd_rules.py. tests/test_dotd_vocabulary.py already validates,
   converts, prints and plays every sample of every definition.

A new counter is one :class:`Counter` (its interpreter measure is one of ``codes.C_*``), a new
condition test one :class:`CondTest` (value kind, measure ``codes.M_*``, side, clause template);
a new measure, like a new operation, is a code in ``codes.py`` and a branch in the interpreter.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any

from .cards import BACKS, Condition, Step
from .codes import (
    C_ACTIVE,
    C_ADJACENT_ACTIVE,
    C_FALLEN,
    C_WINNERS,
    F_AL,
    F_AW,
    F_BONUS,
    F_NEG,
    F_SETP,
    F_SUP,
    F_WT,
    M_COUNT,
    M_HAS_EFFECT,
    M_LINE_BACK,
    M_LOSING,
    M_PRINTED_POWER,
    M_PRIORITY,
    M_SCORE_DIFF,
    M_SLOT,
    M_SPIRIT_BACK,
    M_TURN,
    RUN_COPY,
    RUN_DIG,
    RUN_FIGHT_ADD,
    RUN_FIGHT_SET,
    RUN_FLIP,
    RUN_FORCE_UNEARTH,
    RUN_PRIORITY,
    RUN_UNEARTH,
    RUN_VP,
)
from .phrases import KEYWORD, PLAIN, Bounds, Run, article, back_name, either, points, signed

#: Subjects a step can apply to: ``self`` is this fighter/its controller, ``opponent`` the
#: opposing fighter/its controller (the interpreter's side flip is the position: 0 or 1).
WHO: tuple[str, ...] = ("self", "opponent")

#: Comparisons of a ``when:`` test, in interpreter order.
COMPARATORS: tuple[str, ...] = ("lt", "le", "eq", "ne", "ge", "gt")

# --- counters ----------------------------------------------------------------------------------



@dataclass(frozen=True, slots=True)
class Counter:
    """A quantity for ``per:`` and the ``count`` condition, measured from one side."""

    name: str
    measure: int  # C_*
    side: int  # 0 the fighter's controller, 1 the opponent
    per_phrase: str  # "for each of <per_phrase>"
    has: str  # count condition: who has them
    one: str  # ... singular noun
    many: str  # ... plural noun

    @property
    def code(self) -> int:
        """The compiled counter: measure and side in one int (side in the low bit)."""
        return self.measure << 1 | self.side

    @property
    def has_not(self) -> str:
        """``has`` denied: "you do not have", "your opponent does not have"."""
        who, _, verb = self.has.rpartition(" ")
        return f"{who} {'does' if verb == 'has' else 'do'} not have"


COUNTER_DEFS: tuple[Counter, ...] = (
    Counter("own_fallen", C_FALLEN, 0, "your fallen fighters", "you have", "fallen fighter",
            "fallen fighters"),
    Counter("own_active", C_ACTIVE, 0, "your active fighters", "you have", "active fighter",
            "active fighters"),
    Counter("opponent_fallen", C_FALLEN, 1, "your opponent's fallen fighters",
            "your opponent has", "fallen fighter", "fallen fighters"),
    Counter("opponent_active", C_ACTIVE, 1, "your opponent's active fighters",
            "your opponent has", "active fighter", "active fighters"),
    Counter("own_winners", C_WINNERS, 0, "your fighters that won this turn", "you have",
            "fighter that won this turn", "fighters that won this turn"),
    Counter("opponent_winners", C_WINNERS, 1, "your opponent's fighters that won this turn",
            "your opponent has", "fighter that won this turn", "fighters that won this turn"),
    Counter("own_adjacent_active", C_ADJACENT_ACTIVE, 0, "your active fighters next to this one",
            "you have", "active fighter next to this one", "active fighters next to this one"),
)
COUNTERS: tuple[str, ...] = tuple(c.name for c in COUNTER_DEFS)
COUNTER: dict[str, Counter] = {c.name: c for c in COUNTER_DEFS}

# --- targets of copy_effect and flip (their position is the interpreter's code) ----------------

#: copy_effect: the opposing fighter, an adjacent one of yours, any other active one of yours.
COPY_SOURCES: tuple[str, ...] = ("opposing", "adjacent", "own_active")
COPY_PHRASES: dict[str, str] = {
    "opposing": "the opposing fighter",
    "adjacent": "one of your active fighters next to this one",
    "own_active": "one of your other active fighters",
}
#: flip: one of your fallen fighters face up; an opponent's fighter that has fought, face down.
FLIP_TARGETS: tuple[str, ...] = ("own_fallen", "opponent_fought")

#: The value sets a schema ``$defs`` entry names (``{"$ref": "#/$defs/<kind>"}``).
ENUMS: dict[str, tuple[str, ...]] = {
    "who": WHO,
    "counter": COUNTERS,
    "copy_source": COPY_SOURCES,
    "flip_target": FLIP_TARGETS,
}

# --- primitives --------------------------------------------------------------------------------



@dataclass(frozen=True, slots=True)
class Arg:
    """One argument of a primitive: the Step field it fills and what it may hold."""

    field: str  # amount | who | per | target
    kind: str  # "int", "const", or a key of ENUMS
    lo: int = 0  # int: range
    hi: int = 0
    const: str = ""  # const: the one value
    default: Any = None  # filled in when the card file leaves it out
    required: bool = False
    note: str = ""  # reference: a few words after the type

    def schema(self) -> dict[str, Any]:
        if self.kind == "int":
            return {"type": "integer", "minimum": self.lo, "maximum": self.hi}
        return self.scalar_schema()

    def scalar_schema(self) -> dict[str, Any]:
        """What a bare scalar (``power: 5``) must satisfy."""
        if self.kind == "int":
            return {"minimum": self.lo, "maximum": self.hi}
        if self.kind == "const":
            return {"const": self.const}
        return {"$ref": f"#/$defs/{self.kind}"}

    @property
    def json_type(self) -> str:
        return "integer" if self.kind == "int" else "string"

    def doc(self) -> str:
        """The reference's words for it: ``amount`` int, ``target``: ``a``, ``b``..."""
        if self.kind == "int":
            text = f"`{self.field}` int"
        elif self.kind == "const":
            text = f"`{self.field}`: `{self.const}`"
        elif self.kind == "who":
            text = "`who`"
        elif self.kind == "counter":
            text = f"`{self.field}` counter"
        else:
            text = f"`{self.field}`: " + ", ".join(f"`{v}`" for v in ENUMS[self.kind])
        extra = [self.note] if self.note else []
        if self.default not in (None, "self") and self.kind != "const":
            extra.append(f"default `{self.default}`")
        return text + (f" ({'; '.join(extra)})" if extra else "")


Rate = Callable[[int, bool, bool], tuple[float, float]]
"""(amount, aimed at the opponent, per a counter) -> (fight power, victory points) per use."""


@dataclass(frozen=True, slots=True)
class Primitive:
    """One effect primitive: everything the schema, the reference, the text, the interpreter
    and the greedy agent know about it (see the module docstring for how to add one)."""

    name: str
    args: tuple[Arg, ...]
    main: str | None  # the field a bare scalar fills
    meaning: str  # reference: what it does
    summary: str  # schema description
    text: Callable[[Step], list[Run]]
    samples: tuple[Any, ...]  # card-file forms of the step (the value after the name)
    example: str  # reference: a bundled character using it
    run: int  # RUN_*
    field: int = 0  # RUN_FIGHT_*: the fight-context field
    side: str | None = None  # a fixed subject (negate: always the opposing fighter)
    rate: Rate | None = None
    # Ruling DD-25 (INV-3): the engine relies on every effect keeping hand size and cards per
    # back unchanged. No default: whoever adds a primitive reviews it and says so.
    keeps_hand: bool = dc_field(kw_only=True)
    # The amount at which a use changes nothing (``power: 0``): the validator refuses such a
    # step, which prints as an effect and does nothing. None: every amount does something.
    idle_amount: int | None = dc_field(default=None, kw_only=True)
    # The primitive whose use, for the same subject, undoes this one's (DD-12: on one side
    # auto_win and auto_lose cancel out): the validator refuses the two unconditional in one
    # effect, which print as "wins the fight. ... loses the fight." and do nothing together.
    cancelled_by: str | None = dc_field(default=None, kw_only=True)

    def arg(self, field: str) -> Arg | None:
        return next((a for a in self.args if a.field == field), None)

    @property
    def asks(self) -> bool:
        """Whether a use may ask a player or start a task (the interpreter runs it off the
        inline path)."""
        return self.run >= RUN_UNEARTH

    def defaults(self) -> dict[str, Any]:
        return {a.field: a.default for a in self.args if a.default is not None}

    def schema(self) -> dict[str, Any]:
        """Each form the value may take as its own typed branch (``anyOf``): the bare main
        argument (``auto_win: self``), empty when nothing is required, and the mapping of all
        arguments. An editor completes the values of every branch (an ``if``/``then`` it
        cannot read would leave it only ``null``)."""
        main = self.arg(self.main) if self.main else None
        forms: list[dict[str, Any]] = []
        if main:
            forms.append({"type": main.json_type, **main.scalar_schema()})
        if not any(a.required for a in self.args):
            forms.append({"type": "null"})
        mapping: dict[str, Any] = {"type": "object"}
        if self.args:
            mapping["properties"] = {a.field: a.schema() for a in self.args}
        mapping["additionalProperties"] = False
        required = [a.field for a in self.args if a.required]
        if required:
            mapping["required"] = required
        forms.append(mapping)
        # the branches' types also said at the top: a value of none of them is then one type
        # error, which the validator words with its fix (3.0: "write 3"; "3": "remove the
        # quotes"), where a failed anyOf could only list the types
        types = list(dict.fromkeys(str(f["type"]) for f in forms))
        return {"description": self.summary, "type": types, "anyOf": forms}


_SUBJECT = {"self": "This fighter", "opponent": "The opposing fighter"}
_WHO = Arg("who", "who", default="self")
_WHO_OPP = Arg("who", "who", default="opponent")
_PER = Arg("per", "counter")


def _sign(opp: bool) -> float:
    return -1.0 if opp else 1.0


def _mult(per: bool) -> float:
    return 1.5 if per else 1.0


def _per(step: Step) -> str:
    if step.per is None:
        return ""
    if step.per not in COUNTER:
        raise ValueError(f"unknown counter {step.per!r}")
    return f" for each of {COUNTER[step.per].per_phrase}"


def _power_text(step: Step) -> list[Run]:
    bonus = f"{signed(step.amount)} power this fight{_per(step)}."
    if step.who == "opponent":
        return [(f"The opposing fighter gets {bonus}", PLAIN)]
    return [(bonus, PLAIN)]


def _set_power_text(step: Step) -> list[Run]:
    owner = "The opposing fighter" if step.who == "opponent" else "This fighter"
    # "fights from": bonuses still add, while scoring and any test of printed power read the card
    return [(f"{owner} fights from a power of {step.amount} instead of its printed power this "
             "fight.", PLAIN)]


def _gain_vp_text(step: Step) -> list[Run]:
    gains = step.amount >= 0
    pts = points(abs(step.amount)) + _per(step)
    if step.who == "opponent":
        return [(f"Your opponent {'gains' if gains else 'loses'} {pts}.", PLAIN)]
    return [(f"{'Gain' if gains else 'Lose'} {pts}.", PLAIN)]


def _copy_text(step: Step) -> list[Run]:
    return [(f"Use the effect of {COPY_PHRASES[step.target or 'adjacent']}.", PLAIN)]


def _dig_text(step: Step) -> list[Run]:
    times = step.amount or 1
    return [("Dig" if times == 1 else f"Dig {times}", KEYWORD), (".", PLAIN)]


def _flip_text(step: Step) -> list[Run]:
    target = step.target or "own_fallen"
    if target == "opponent_fought":
        return [("Turn face down one of your opponent's active fighters in a slot that has"
                 " already fought this turn.", PLAIN)]
    if target == "own_fallen":
        return [("Turn one of your fallen fighters face up.", PLAIN)]
    raise ValueError(f"unknown flip target {step.target!r}")


def _suppress_text(step: Step) -> list[Run]:
    owner = "your opponent's" if step.who == "opponent" else "your"
    # what is left of the fight: uses already made stand, and the spirit's back is still its back
    return [(f"From now on this fight, {owner} spirit gives no +2 and no second use.", PLAIN)]


def _fixed(*runs: Run) -> Callable[[Step], list[Run]]:
    return lambda _step: list(runs)


def _about(sentence: str) -> Callable[[Step], list[Run]]:
    """``<This fighter|The opposing fighter> <sentence>``."""
    return lambda step: [(f"{_SUBJECT[step.who]} {sentence}", PLAIN)]


def _choice_rate(_amount: int, _opp: bool, _per: bool) -> tuple[float, float]:
    return 1.5, 0.0


PRIMITIVE_DEFS: tuple[Primitive, ...] = (
    Primitive(
        "power", (Arg("amount", "int", -20, 20, required=True), _WHO, _PER), "amount",
        "Add `amount` (x the counter, if `per`) to a fighter's power this fight.",
        "Add `amount` (x the counter, if `per`) to a fighter's power this fight. "
        "`power: 5` = +5 for this fighter.",
        _power_text, (5, -3, {"amount": -2, "who": "opponent"}, {"amount": 2, "per": "own_fallen"}),
        "Anger: `power: 5`", RUN_FIGHT_ADD, F_BONUS,
        rate=lambda amount, opp, per: (_sign(opp) * amount * _mult(per), 0.0), keeps_hand=True,
        idle_amount=0),
    Primitive(
        "set_power", (Arg("amount", "int", 0, 20, required=True, note="the value"), _WHO_OPP),
        "amount",
        "The fighter fights from `amount` instead of its printed power in this fight (bonuses "
        "still add). Scoring, and any condition on printed power, read the printed power.",
        "The fighter fights from `amount` instead of its printed power (who defaults to opponent).",
        _set_power_text, (0, {"amount": 9, "who": "self"}),
        "Jinx: `set_power: {who: opponent, amount: 0}`", RUN_FIGHT_SET, F_SETP,
        rate=lambda amount, opp, per: ((4.0 - amount) if opp else 0.0, 0.0), keeps_hand=True),
    Primitive(
        "auto_win", (_WHO,), "who", "That fighter wins the fight, no questions asked.",
        "That fighter wins the fight, no questions asked (`auto_win: self`).",
        _about("wins the fight, no questions asked."), ("self", "opponent"),
        "Nemesis: `auto_win: self`", RUN_FIGHT_ADD, F_AW,
        rate=lambda amount, opp, per: (9.0 if not opp else -9.0, 0.0), keeps_hand=True,
        cancelled_by="auto_lose"),
    Primitive(
        "auto_lose", (_WHO,), "who", "That fighter loses the fight.",
        "That fighter loses the fight.",
        _about("loses the fight."), ("self", "opponent"),
        "Coward (with a condition)", RUN_FIGHT_ADD, F_AL,
        rate=lambda amount, opp, per: (-9.0 if not opp else 9.0, 0.0), keeps_hand=True,
        cancelled_by="auto_win"),
    Primitive(
        "win_ties", (_WHO,), "who", "A power tie in this fight is a win for that side.",
        "A power tie in this fight is a win for that side.",
        _about("wins power ties."), ("self", "opponent"),
        "Stubborn: `win_ties: self`", RUN_FIGHT_SET, F_WT,
        rate=lambda amount, opp, per: (0.5, 0.0), keeps_hand=True),
    Primitive(
        "gain_vp", (Arg("amount", "int", -20, 20, required=True), _WHO, _PER), "amount",
        "That player gains victory points now (negative loses).",
        "That player gains `amount` victory points now (x the counter, if `per`).",
        _gain_vp_text,
        (3, 1, -2, {"amount": 2, "who": "opponent"}, {"amount": 1, "per": "own_active"}),
        "Hoard: `gain_vp: 3`", RUN_VP,
        rate=lambda amount, opp, per: (0.0, _sign(opp) * amount * _mult(per)), keeps_hand=True,
        idle_amount=0),
    Primitive(
        "copy_effect", (Arg("target", "copy_source", required=True),), "target",
        "Use the chosen fighter's effect as this fighter's own (copy depth 1: a copied copy "
        "does nothing).",
        "Use the chosen fighter's effect as this fighter's own (copy depth 1).",
        _copy_text, COPY_SOURCES, "Twin: `copy_effect: adjacent`", RUN_COPY, rate=_choice_rate,
        keeps_hand=True),
    Primitive(
        "dig", (Arg("amount", "int", 1, 3, default=1),), "amount",
        "Keyword. Draw a card from a deck (switch `dig_source`), then discard a card with the "
        "same back from your hand; `amount` times.",
        "Keyword. Draw a card, then discard a card with the same back (`dig: 2` digs twice).",
        _dig_text, (1, 2), "Gravedigger: `dig: 1`", RUN_DIG, rate=_choice_rate, keeps_hand=True),
    Primitive(
        "unearth", (Arg("target", "const", const="self", default="self",
                        note="the only value: one of your own cards in play"),), "target",
        "Keyword. Pick one of your cards in play, look at the top 3 of its back's deck, replace "
        "it with one, discard the rest.",
        "Keyword. Replace one of your cards in play with one of the top 3 of its back's deck.",
        _fixed(("Unearth", KEYWORD), (".", PLAIN)), ("self",), "Spook: `unearth: self`",
        RUN_UNEARTH, rate=_choice_rate, keeps_hand=True),
    Primitive(
        "force_unearth", (Arg("target", "const", const="opposing", default="opposing"),),
        "target", "Unearth the opposing fighter: you look and choose its replacement.",
        "Unearth the opposing fighter; you choose its replacement.",
        _fixed(("Unearth", KEYWORD), (" the opposing fighter; you choose its replacement.", PLAIN)),
        ("opposing",), "Body Snatcher: `force_unearth: opposing`", RUN_FORCE_UNEARTH,
        rate=_choice_rate, keeps_hand=True),
    Primitive(
        "flip", (Arg("target", "flip_target", required=True),), "target",
        "Turn one of your fallen fighters face up / one of your opponent's active fighters in a "
        "slot that has already fought this turn face down.",
        "Turn one of your fallen fighters face up / an opponent's fought fighter face down.",
        _flip_text, FLIP_TARGETS,
        "Bugler: `flip: own_fallen`; Poltergeist: `flip: opponent_fought`", RUN_FLIP,
        rate=_choice_rate, keeps_hand=True),
    Primitive(
        "suppress_spirit", (_WHO_OPP,), "who",
        "From now on this fight, that player's spirit gives no +2 and no second use (uses already "
        "made stand; its back still counts for conditions).",
        "That player's spirit gives no +2 and no second use from now on (who defaults to opponent).",
        _suppress_text, ("opponent", "self"), "Party Pooper: `suppress_spirit: opponent`",
        RUN_FIGHT_SET, F_SUP, rate=lambda amount, opp, per: (2.0, 0.0), keeps_hand=True),
    Primitive(
        "negate", (), None, "The opposing fighter's effect does nothing from now on this fight "
        "(uses not yet made).", "The opposing fighter's effect does nothing from now on.",
        _fixed(("The opposing fighter's effect does nothing from now on this fight.", PLAIN)), ({},), "Hush",
        RUN_FIGHT_SET, F_NEG, side="opponent", rate=lambda amount, opp, per: (2.0, 0.0),
        keeps_hand=True),
    Primitive(
        "take_priority", (), None, "Take the Priority counter now.",
        "Take the Priority counter now.",
        _fixed(("Take the Priority counter.", PLAIN)), ({},), "Early Riser", RUN_PRIORITY,
        side="self", keeps_hand=True),
    Primitive(
        "give_priority", (), None, "Give the Priority counter to your opponent now.",
        "Give the Priority counter to your opponent now.",
        _fixed(("Give the Priority counter to your opponent.", PLAIN)), ({},), "Skeleton Butler",
        RUN_PRIORITY, side="opponent", keeps_hand=True),
)
PRIMITIVES: tuple[str, ...] = tuple(p.name for p in PRIMITIVE_DEFS)
PRIMITIVE: dict[str, Primitive] = {p.name: p for p in PRIMITIVE_DEFS}

# --- condition tests ---------------------------------------------------------------------------



def _is(cond: Condition) -> bool:
    """Whether an equality test holds as printed (``ne`` prints the negation)."""
    return cond.op != "ne"


def _bounds(conds: Sequence[Condition], floor: int | None = None) -> Bounds:
    return Bounds(((c.op, c.value) for c in conds), floor)


Clause = Callable[[Sequence[Condition], Mapping[str, str]], str]


@dataclass(frozen=True, slots=True)
class ValueKind:
    """What a condition test's value may be: its schema, its reference words, its int."""

    doc: str
    schema: Callable[[str], dict[str, Any]]  # description -> fragment
    encode: Callable[[Any], int]


def _back_schema(with_none: bool) -> Callable[[str], dict[str, Any]]:
    values = [*BACKS, "none"] if with_none else list(BACKS)

    def schema(description: str) -> dict[str, Any]:
        return {"description": description, "anyOf": [
            {"type": "string", "enum": values},
            {"type": "object", "properties": {"eq": {"enum": values}, "ne": {"enum": values}},
             "additionalProperties": False, "minProperties": 1},
        ]}

    return schema


def _back_code(value: Any) -> int:
    return -1 if value in (None, "none") else BACKS.index(value)


_CMP_INTS = {op: {"type": "integer"} for op in COMPARATORS}

#: The slot numbers a ``slot:`` condition may name (the schema's range; params.turns is at
#: most 12, one slot a turn). The validator judges a number in range against the set's turns.
SLOTS: tuple[int, int] = (1, 12)

VALUE_KINDS: dict[str, ValueKind] = {
    "who": ValueKind("`self` / `opponent`", lambda _d: {"$ref": "#/$defs/who"}, WHO.index),
    "comparison": ValueKind("comparison", lambda _d: {"$ref": "#/$defs/comparison"}, int),
    "slot": ValueKind(
        f"`newest` / `oldest` / {SLOTS[0]}..{SLOTS[1]}",
        lambda _d: {
            # one type error for 3.0 ("write 3"); a number in quotes is text, and said so
            # rather than as a misspelt newest/oldest
            "type": ["string", "integer"],
            "anyOf": [{"type": "string", "enum": ["newest", "oldest"]},
                      {"type": "integer", "minimum": SLOTS[0], "maximum": SLOTS[1]}],
            "allOf": [{"not": {"type": "string", "pattern": r"^\s*[-+]?[0-9]+\s*$"},
                       "errorMessage": f"must be {SLOTS[0]}..{SLOTS[1]}, newest or oldest; "
                                       "got a number in quotes, which is text",
                       "errorHint": "remove the quotes"}]},
        lambda v: 1 if v in ("newest", "oldest") else int(v)),  # newest/oldest: "is it", 1
    "spirit": ValueKind("a back id or `none`", _back_schema(True), _back_code),
    "back": ValueKind("a back id", _back_schema(False), _back_code),
    "bool": ValueKind("bool", lambda _d: {"type": "boolean"}, lambda v: int(bool(v))),
    "count": ValueKind(
        "`{of: counter, <cmp>: n}`",
        lambda _d: {"type": "object", "required": ["of"], "minProperties": 2,
                    "additionalProperties": False,
                    "properties": {"of": {"$ref": "#/$defs/counter"}, **_CMP_INTS},
                    "errorMessage": "count needs a counter and a comparison, e.g. "
                                    "{of: own_fallen, ge: 2}"},
        int),
}


@dataclass(frozen=True, slots=True)
class CondTest:
    """One ``when:`` test: its value kind, what the interpreter measures, its printed clause."""

    name: str
    value: str  # a key of VALUE_KINDS
    measure: int  # M_*
    clause: Clause  # lower case, without "if" (or the leading phrase, for ``leads``)
    samples: tuple[Any, ...]  # values as written in ``when:``, for the reference
    example: str
    side: int = 0  # measured on the fighter's side (0) or the opposing one (1)
    description: str = ""  # schema description
    value_note: str = ""  # reference: after the value kind
    leads: bool = False  # printed first, as its own phrase ("On turn 5 or later, ...")

    def schema(self) -> dict[str, Any]:
        return VALUE_KINDS[self.value].schema(self.description)


OneClause = Callable[[Condition, Mapping[str, str]], str]


def _each(one: OneClause) -> Clause:
    """A test of one named value (a side, a back, a slot's name, true/false), printed by ``one``
    for each of its conditions. ``{eq: x}`` already says every ``{ne: y}`` of another value, so
    those are left out; what is left is joined with ``and`` (and so is a contradiction, truthfully:
    "your spirit is a Double and your spirit is not a Double")."""

    def clause(conds: Sequence[Condition], names: Mapping[str, str]) -> str:
        eqs = [c.value for c in conds if _is(c)]
        said = [c for c in conds if _is(c) or not eqs or c.value in eqs]
        return " and ".join(dict.fromkeys(one(c, names) for c in said))

    return clause


def _priority_one(cond: Condition, _names: Mapping[str, str]) -> str:
    holder_is_self = (cond.value == "self") == _is(cond)
    return "you have priority" if holder_is_self else "your opponent has priority"


def _turn_phrase(conds: Sequence[Condition], _names: Mapping[str, str]) -> str:
    b = _bounds(conds, floor=1)  # turns are numbered from 1
    kind, nums, ne = b.shape()
    if kind == "never":
        return f"On turn {b.literal('later', 'earlier')}"
    if kind == "any":
        return f"Except on turn {either(ne)}" if ne else "On every turn"
    if kind == "range":
        text = f"On turns {nums[0]} to {nums[1]}"
    else:
        text = f"On turn {b.numbers('later', 'earlier')}"
    return f"{text}, except turn {either(ne)}" if ne else text


def _not(numbers: Sequence[int]) -> str:
    """``not 3`` / ``neither 3 nor 5`` / ``none of 3, 5 and 7``."""
    if len(numbers) == 1:
        return f"not {numbers[0]}"
    if len(numbers) == 2:
        return f"neither {numbers[0]} nor {numbers[1]}"
    return f"none of {', '.join(map(str, numbers[:-1]))} and {numbers[-1]}"


def _slot_name_one(cond: Condition, _names: Mapping[str, str]) -> str:
    return f"this is {'' if _is(cond) else 'not '}your {cond.value} slot"


def _slot_clause(conds: Sequence[Condition], names: Mapping[str, str]) -> str:
    named = [c for c in conds if c.value in ("newest", "oldest")]
    parts = [_each(_slot_name_one)(named, names)] if named else []
    numbered = [c for c in conds if c.value not in ("newest", "oldest")]
    if numbered:
        b = _bounds(numbered, floor=1)  # slots are numbered from 1
        kind, _, ne = b.shape()
        if kind == "any" and ne:
            parts.append(f"this is not slot {ne[0]}" if len(ne) == 1
                         else f"this is a slot other than {either(ne)}")
        else:
            parts.append(f"this is slot {b.phrase('higher', 'lower')}")
    return " and ".join(parts)


def _spirit_clause(mine: bool) -> Clause:
    def one(cond: Condition, names: Mapping[str, str]) -> str:
        if cond.value == "none":
            has = "you have" if mine else "your opponent has"
            return f"{has} {'no spirit' if _is(cond) else 'a spirit'}"
        name = back_name(cond.value, names)
        whose = "your spirit" if mine else "your opponent's spirit"
        return f"{whose} is {'' if _is(cond) else 'not '}{article(name)} {name}"

    return _each(one)


def _back_clause(card: str) -> Clause:
    def one(cond: Condition, names: Mapping[str, str]) -> str:
        name = back_name(cond.value, names)
        verb = "has" if _is(cond) else "does not have"
        return f"{card} {verb} {article(name)} {name} back"

    return _each(one)


def _power_clause(conds: Sequence[Condition], _names: Mapping[str, str]) -> str:
    b = _bounds(conds, floor=0)  # a printed power is 0 to 9
    kind, _, ne = b.shape()
    words = _not(ne) if kind == "any" and ne else b.phrase("more", "less")
    return f"the opposing fighter's printed power is {words}"


def _has_effect_one(cond: Condition, _names: Mapping[str, str]) -> str:
    has = bool(cond.value) == _is(cond)
    return f"the opposing fighter has {'an' if has else 'no'} effect"


def _losing_one(cond: Condition, _names: Mapping[str, str]) -> str:
    losing = bool(cond.value) == _is(cond)
    return "this fighter is losing" if losing else "this fighter is not losing"


def _count_clause(conds: Sequence[Condition], _names: Mapping[str, str]) -> str:
    counter = COUNTER.get(conds[0].subject or "")
    if counter is None:
        raise ValueError(f"unknown counter {conds[0].subject!r}")
    b = _bounds(conds, floor=0)  # a count is never negative
    kind, nums, ne = b.shape()
    has, one, many = counter.has, counter.one, counter.many
    if kind == "never":
        return f"{has} {b.literal('more', 'fewer', 'exactly ')} {many}"
    if kind == "one":
        n = nums[0]
        return f"{has} no {many}" if n == 0 else f"{has} exactly {n} {one if n == 1 else many}"
    if kind == "any" and len(ne) == 1:
        return f"{counter.has_not} exactly {ne[0]} {one if ne[0] == 1 else many}"
    if kind == "any" and ne:
        return f"{has} a number of {many} other than {either(ne)}"
    if kind == "upto" and nums[0] == 1:
        text = f"{has} at most 1 {one}"
    else:
        text = f"{has} {b.numbers('more', 'fewer')} {many}"
    return f"{text}, but not {either(ne)}" if ne else text


def _score_exact(n: int) -> str:
    if n == 0:
        return "the scores are tied"
    return f"you are {'ahead' if n > 0 else 'behind'} by exactly {abs(n)}"


def _score_from(lo: int) -> str:
    if lo == 1:
        return "you are ahead"
    if lo > 1:
        return f"you are ahead by {lo} or more"
    if lo == 0:
        return "you are not behind"
    return f"you are not behind by more than {-lo}"


def _score_upto(hi: int) -> str:
    if hi == -1:
        return "you are behind"
    if hi < -1:
        return f"you are behind by {-hi} or more"
    if hi == 0:
        return "you are not ahead"
    return f"you are not ahead by more than {hi}"


def _score_between(lo: int, hi: int) -> str:
    if lo > 0:
        return f"you are ahead by {lo} {'or' if hi == lo + 1 else 'to'} {hi}"
    if hi < 0:
        return f"you are behind by {-hi} {'or' if lo == hi - 1 else 'to'} {-lo}"
    if lo == -hi:
        return f"the scores are at most {hi} apart"
    return f"{_score_from(lo)} and {_score_upto(hi).removeprefix('you are ')}"


def _score_not(n: int) -> str:
    if n == 0:
        return "the scores are not tied"
    return f"you are not {'ahead' if n > 0 else 'behind'} by exactly {abs(n)}"


def _score_clause(conds: Sequence[Condition], _names: Mapping[str, str]) -> str:
    """Your score minus your opponent's, in the words a player uses: ahead, behind, tied."""
    b = _bounds(conds)
    kind, nums, ne = b.shape()
    if kind == "never":
        return f"your score minus your opponent's is {b.literal('more', 'less')}"
    if kind == "one":
        return _score_exact(nums[0])
    if kind == "list":
        if nums[-1] == nums[0] + len(nums) - 1:  # no gap: a range of two
            return _score_between(nums[0], nums[-1])
        if all(n > 0 for n in nums):
            return f"you are ahead by {either(nums)}"
        if all(n < 0 for n in nums):
            return f"you are behind by {either(sorted(-n for n in nums))}"
        if len(nums) == 2 and nums[0] == -nums[1]:
            return f"you are ahead or behind by exactly {nums[1]}"
        return f"your score minus your opponent's is {either(nums)}"
    if kind == "any":
        return " and ".join(_score_not(n) for n in ne) if ne else (
            f"your score minus your opponent's is {b.phrase('more', 'less')}")
    if kind == "range":
        text = _score_between(*nums)
    else:
        text = _score_from(nums[0]) if kind == "from" else _score_upto(nums[0])
    for n in ne:
        text += " and " + _score_not(n).removeprefix("you are ")
    return text


CONDITION_DEFS: tuple[CondTest, ...] = (
    CondTest("priority", "who", M_PRIORITY, _each(_priority_one), ("self", "opponent"), "Night Owl"),
    CondTest("turn", "comparison", M_TURN, _turn_phrase,
             ({"ge": 5}, {"le": 2}, 6, {"ge": 2, "le": 4}), "Mummy: `turn: {le: 2}`", leads=True),
    CondTest("slot", "slot", M_SLOT, _slot_clause, ("newest", "oldest", 3),
             "Old Bones: `slot: oldest`"),
    CondTest("own_spirit", "spirit", M_SPIRIT_BACK, _spirit_clause(True), ("power_up", "none"),
             "Ghost Fan: `own_spirit: power_up`",
             description="Your spirit's back (or none); {ne: double} for 'is not'."),
    CondTest("opponent_spirit", "spirit", M_SPIRIT_BACK, _spirit_clause(False),
             ("double", "none"), "Zombie Giant: `opponent_spirit: double`", side=1,
             description="Your opponent's spirit's back (or none); {ne: ...} for 'is not'."),
    CondTest("own_back", "back", M_LINE_BACK, _back_clause("this card"), ("double",),
             "Pale Vampire: `own_back: unearth`",
             description="This card's back; {ne: ...} for 'is not'."),
    CondTest("opposing_back", "back", M_LINE_BACK, _back_clause("the opposing fighter"),
             ("unearth",), "Crypt Keeper: `opposing_back: unearth`", side=1,
             description="The opposing fighter's back; {ne: ...} for 'is not'."),
    CondTest("opposing_power", "comparison", M_PRINTED_POWER, _power_clause,
             ({"le": 3}, {"ge": 6}), "Bully: `opposing_power: {le: 6}`", side=1),
    CondTest("opposing_has_effect", "bool", M_HAS_EFFECT, _each(_has_effect_one), (False, True),
             "`opposing_has_effect: false` (no bundled card tests it)", side=1),
    CondTest("count", "count", M_COUNT, _count_clause,
             ({"of": "own_fallen", "ge": 2}, {"of": "opponent_active", "eq": 0},
              {"of": "own_winners", "eq": 1}), "Last Stand: `count: {of: own_fallen, ge: 1}`"),
    CondTest("score_diff", "comparison", M_SCORE_DIFF, _score_clause,
             ({"le": -10}, {"lt": 0}, {"gt": 0}, {"ge": 5}, 0, {"le": 0}),
             "Underdog: `score_diff: {le: 0}`", value_note="your score minus theirs"),
    CondTest("losing", "bool", M_LOSING, _each(_losing_one), (True, False),
             "Sore Loser: `losing: true`", value_note="the fight as it stands: power, automatic results, tie-wins"),
)
CONDITION_TESTS: tuple[str, ...] = tuple(c.name for c in CONDITION_DEFS)
CONDITION: dict[str, CondTest] = {c.name: c for c in CONDITION_DEFS}
