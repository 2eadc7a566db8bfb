"""Static rules of Day of the Dead: switches, parameters and the card tables the state reads.

Everything a State needs that never changes during a game is computed once here, when the game
is built: card ids are ints (the position in ``CardSet.cards``), backs are ints (0 Double,
1 Power Up, 2 Unearth), and every effect is compiled from :class:`engine.cards.Step` records into
plain tuples, so the hot loop reads lists and tuples instead of dataclasses and strings.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from typing import Any

from boneyard.engine.cards import CardSet

from boneyard.errors import RulesError

from .cards import (
    BACKS,
    COMPARATORS,
    CONDITION_TESTS,
    COPY_SOURCES,
    COUNTERS,
    FLIP_TARGETS,
    PRIMITIVES,
    Condition,
    Step,
)

DOUBLE, POWER_UP, UNEARTH = 0, 1, 2
BACK_INDEX = {b: i for i, b in enumerate(BACKS)}

#: Every switch of game.yaml with its default and allowed values (docs/rules/day-of-the-dead.md).
SWITCHES: dict[str, tuple[Any, tuple[Any, ...]]] = {
    "selection": ("simultaneous", ("simultaneous", "priority_first")),  # DD-03
    "no_legal_card": ("play_any", ("play_any",)),  # DD-04
    "unearth_optional": (False, (False, True)),  # DD-06
    "unearth_retrigger_on_spirit_replace": (False, (False, True)),  # DD-07
    "replacement_uses_effect_this_fight": (False, (False, True)),  # DD-08
    "both_auto_lose": ("both_lose", ("both_lose", "compare_power")),  # DD-12
    "conversion_window": ("immediate", ("immediate", "any_loser_this_turn")),  # DD-15
    "max_conversions_per_turn": ("none", ("none", 1)),  # DD-15
    "prev_spirit_enters_as": ("fallen", ("fallen", "active")),  # DD-16
    "new_spirit_applies": ("immediately", ("immediately", "next_turn")),  # DD-17
    "dig_source": ("choose", ("choose", "fighter_back")),  # DD-18
    "deck_empty": ("reshuffle_discard", ("reshuffle_discard", "skip")),  # DD-19
    "score_basis": ("active_at_rewards", ("active_at_rewards", "won_this_turn")),  # DD-20
    "tie_break": ("draw", ("draw", "chain")),  # DD-22
}

#: Rules parameters of game.yaml ``params:`` the engine honours, with their defaults (DD-04 etc.).
PARAMS: dict[str, Any] = {
    "turns": 6,
    "hand_per_back": 3,
    "back_limit": 2,
    "final_turn_free_back": True,
    "power_up_bonus": 2,
    "double_uses": 2,
    "unearth_look": 3,
    "first_player_power": 0,  # fight power for the turn-1 priority holder's fighters (a handicap knob)
}


class Op:
    """Compiled effect primitives: ``Step.op`` names mapped to small ints for the interpreter."""

    POWER = 0
    SET_POWER = 1
    AUTO_WIN = 2
    AUTO_LOSE = 3
    WIN_TIES = 4
    GAIN_VP = 5
    COPY_EFFECT = 6
    DIG = 7
    UNEARTH = 8
    FORCE_UNEARTH = 9
    FLIP = 10
    SUPPRESS_SPIRIT = 11
    NEGATE = 12
    TAKE_PRIORITY = 13
    GIVE_PRIORITY = 14


# Name -> code tables come from the card model's vocabulary, so a name is written down once;
# the int constants of Op and Test are the same positions (tests/test_dotd_codes.py).
OP_CODES = {name: code for code, name in enumerate(PRIMITIVES)}
COUNTER_CODES = {name: code for code, name in enumerate(COUNTERS)}

COPY_CODES = {name: code for code, name in enumerate(COPY_SOURCES)}
FLIP_CODES = {name: code for code, name in enumerate(FLIP_TARGETS)}


class Test:
    """Compiled condition tests (``when:``)."""

    PRIORITY = 0
    TURN = 1
    SLOT = 2
    OWN_SPIRIT = 3
    OPPONENT_SPIRIT = 4
    OWN_BACK = 5
    OPPOSING_BACK = 6
    OPPOSING_POWER = 7
    OPPOSING_HAS_EFFECT = 8
    COUNT = 9
    SCORE_DIFF = 10
    LOSING = 11
    # interpreter-only codes (not names in the card model): a ``slot`` test against newest/oldest
    SLOT_NEWEST = 12
    SLOT_OLDEST = 13


TEST_CODES = {name: code for code, name in enumerate(CONDITION_TESTS)}

CMP_CODES = {name: code for code, name in enumerate(COMPARATORS)}
SLOT_NEWEST, SLOT_OLDEST = -1, -2

# A compiled step: (op, amount, 1 if aimed at the opponent else 0, per_counter or -1, target code or -1,
# conditions); the interpreter finds the affected side as ``player ^ opp``.
CompiledStep = tuple[int, int, int, int, int, tuple[tuple[int, Any, Any, int], ...]]


CMP_FUNCS = (operator.lt, operator.le, operator.eq, operator.ne, operator.ge, operator.gt)


def _compile_condition(cond: Condition, where: str) -> tuple[int, Callable[[Any, Any], bool], Any, int]:
    """(test, comparison function, value, counter): every test compares one measured int."""
    test = TEST_CODES.get(cond.test)
    if test is None:
        raise RulesError(f"{where}: unknown condition '{cond.test}'")
    cmp = CMP_CODES.get(cond.op)
    if cmp is None:
        raise RulesError(f"{where}: unknown comparison '{cond.op}'")
    value: Any = cond.value
    subject = -1
    if test == Test.PRIORITY:
        value = 0 if value == "self" else 1
    elif test in (Test.OWN_SPIRIT, Test.OPPONENT_SPIRIT, Test.OWN_BACK, Test.OPPOSING_BACK):
        value = -1 if value in (None, "none") else BACK_INDEX[value]
    elif test == Test.SLOT:
        value = {"newest": SLOT_NEWEST, "oldest": SLOT_OLDEST}.get(value, value)
        value = int(value)
    elif test in (Test.OPPOSING_HAS_EFFECT, Test.LOSING):
        value = int(bool(value))
    elif test == Test.COUNT:
        if cond.subject not in COUNTER_CODES:
            raise RulesError(f"{where}: unknown counter '{cond.subject}'")
        subject = COUNTER_CODES[cond.subject]
        value = int(value)
    else:
        value = int(value)
    return (test, CMP_FUNCS[cmp], value, subject)


def compile_step(step: Step, where: str) -> CompiledStep:
    """One Step as a plain tuple; unknown names are a RulesError (the loader prevents them)."""
    op = OP_CODES.get(step.op)
    if op is None:
        raise RulesError(f"{where}: unknown effect primitive '{step.op}'")
    per = -1
    if step.per is not None:
        if step.per not in COUNTER_CODES:
            raise RulesError(f"{where}: unknown counter '{step.per}'")
        per = COUNTER_CODES[step.per]
    target = -1
    if op == Op.COPY_EFFECT:
        target = COPY_CODES.get(step.target or "adjacent", -1)
    elif op == Op.FLIP:
        target = FLIP_CODES.get(step.target or "own_fallen", -1)
    if target == -1 and op in (Op.COPY_EFFECT, Op.FLIP):
        raise RulesError(f"{where}: unknown target '{step.target}' for {step.op}")
    amount = step.amount
    if op == Op.DIG and amount <= 0:
        amount = 1
    conds = tuple(_compile_condition(c, where) for c in step.when)
    return (op, amount, int(step.who == "opponent"), per, target, conds)


def resolve_switches(card_set: CardSet, options: Mapping[str, Any]) -> dict[str, Any]:
    """game.yaml switches overlaid by constructor options, each checked against its values."""
    out = {k: d for k, (d, _) in SWITCHES.items()}
    for source in (card_set.switches, options):
        for key, value in source.items():
            if key not in SWITCHES:
                raise RulesError(
                    f"unknown Day of the Dead switch '{key}' (known: {', '.join(SWITCHES)})"
                )
            allowed = SWITCHES[key][1]
            if key == "max_conversions_per_turn" and value in ("1", 1):
                value = 1
            if value not in allowed:
                raise RulesError(
                    f"switch '{key}': {value!r} is not one of {', '.join(map(repr, allowed))}"
                )
            out[key] = value
    return out


def resolve_params(card_set: CardSet) -> dict[str, Any]:
    out = dict(PARAMS)
    for key, value in card_set.params.items():
        if key in out:
            out[key] = value
    return out


BIG = 1 << 29  # within the small ints CPython compares on its fast path


def range_condition(cond: tuple[int, Callable[[Any, Any], bool], Any, int]) -> tuple[int, int, int, bool, int]:
    """A compiled condition as ``(test, lo, hi, negated, counter)``: holds iff ``lo <= x <= hi``
    (negated: iff not). Every measured value is an int (or bool) well inside +-BIG, so this is
    exact for the six comparators, and the interpreter compares instead of calling an operator.
    """
    test, cmp, value, subject = cond
    if test == Test.SLOT and value in (SLOT_NEWEST, SLOT_OLDEST):
        test = Test.SLOT_NEWEST if value == SLOT_NEWEST else Test.SLOT_OLDEST
        value = 1  # the measurement is "is this the newest/oldest slot", compared with True
    value = int(value)
    lo, hi, neg = {
        operator.lt: (-BIG, value - 1, False),
        operator.le: (-BIG, value, False),
        operator.eq: (value, value, False),
        operator.ne: (value, value, True),
        operator.ge: (value, BIG, False),
        operator.gt: (value + 1, BIG, False),
    }[cmp]
    return (test, lo, hi, neg, subject)


def range_step(step: CompiledStep) -> tuple[int, int, int, int, int, tuple[tuple[int, int, int, bool, int], ...]]:
    """``step`` with its conditions in the interpreter's range form (see :func:`range_condition`)."""
    return (*step[:5], tuple(range_condition(c) for c in step[5]))
