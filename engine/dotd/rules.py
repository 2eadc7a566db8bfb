"""Static rules of Day of the Dead: switches, parameters and the card tables the state reads.

Everything a State needs that never changes during a game is computed once here, when the game
is built: card ids are ints (the position in ``CardSet.cards``), backs are ints (0 Double,
1 Power Up, 2 Unearth), and every effect is compiled from :class:`~.cards.Step` records into
plain tuples, so the hot loop reads lists and tuples instead of dataclasses and strings. What a
name compiles to comes from the vocabulary (``effects.py``); this module only packs it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from boneyard.engine.cards import CardSet

from boneyard.errors import RulesError

from .cards import Condition, Step
from .codes import (
    M_SLOT_NEWEST,
    M_SLOT_OLDEST,
    RUN_COPY,
    RUN_DIG,
    RUN_FIGHT_ADD,
    RUN_FIGHT_SET,
    RUN_FLIP,
    CompiledCond,
    CompiledStep,
)
from .effects import (
    COMPARATORS,
    CONDITION,
    COPY_SOURCES,
    COUNTER,
    FLIP_TARGETS,
    PRIMITIVE,
    PRIMITIVE_DEFS,
    VALUE_KINDS,
)

#: Every switch of game.yaml with its default and allowed values (docs/rules/day-of-the-dead.md).
SWITCHES: dict[str, tuple[Any, tuple[Any, ...]]] = {
    "selection": ("simultaneous", ("simultaneous", "priority_first")),  # DD-03
    "no_legal_card": ("play_any", ("play_any",)),  # DD-04
    "unearth_optional": (True, (False, True)),  # DD-06
    "unearth_retrigger_on_spirit_replace": (False, (False, True)),  # DD-07
    "replacement_uses_effect_this_fight": (False, (False, True)),  # DD-08
    "newcomer_uses_pending_effect": (True, (True, False)),  # DD-08
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


#: Operations that never ask a player nor start a task: an effect made of them runs inline.
INLINE_RUNS = frozenset(p.run for p in PRIMITIVE_DEFS if not p.asks)

BIG = 1 << 29  # within the small ints CPython compares on its fast path
# comparison -> (lo, hi, negated) around value v; exact for ints well inside +-BIG
_RANGES: dict[str, Callable[[int], tuple[int, int, bool]]] = {
    "lt": lambda v: (-BIG, v - 1, False),
    "le": lambda v: (-BIG, v, False),
    "eq": lambda v: (v, v, False),
    "ne": lambda v: (v, v, True),
    "ge": lambda v: (v, BIG, False),
    "gt": lambda v: (v + 1, BIG, False),
}
assert tuple(_RANGES) == COMPARATORS


def compile_condition(cond: Condition, where: str) -> CompiledCond:
    """One ``when:`` test in the interpreter's range form (the vocabulary says what to measure)."""
    test = CONDITION.get(cond.test)
    if test is None:
        raise RulesError(f"{where}: unknown condition '{cond.test}'")
    if cond.op not in _RANGES:
        raise RulesError(f"{where}: unknown comparison '{cond.op}'")
    measure, arg = test.measure, test.side
    if test.value == "count":
        counter = COUNTER.get(cond.subject or "")
        if counter is None:
            raise RulesError(f"{where}: unknown counter '{cond.subject}'")
        arg = counter.code
    elif test.value == "slot" and cond.value in ("newest", "oldest"):
        measure = M_SLOT_NEWEST if cond.value == "newest" else M_SLOT_OLDEST
    lo, hi, neg = _RANGES[cond.op](VALUE_KINDS[test.value].encode(cond.value))
    return (measure, lo, hi, neg, arg)


def compile_step(step: Step, where: str, slot: int = 0, use_slot: int = 0) -> CompiledStep:
    """One Step as a plain tuple; unknown names are a RulesError (the loader prevents them).

    ``slot`` and ``use_slot`` are the counters of ``Position.fired`` the interpreter bumps when
    the step runs and when it is the first of its character's use to run (tables.py numbers them).
    """
    prim = PRIMITIVE.get(step.op)
    if prim is None:
        raise RulesError(f"{where}: unknown effect primitive '{step.op}'")
    per = -1
    if step.per is not None:
        counter = COUNTER.get(step.per)
        if counter is None:
            raise RulesError(f"{where}: unknown counter '{step.per}'")
        per = counter.code
    run = prim.run
    target = -1
    if run in (RUN_FIGHT_ADD, RUN_FIGHT_SET):
        target = prim.field
    elif run in (RUN_COPY, RUN_FLIP):
        values, default = (COPY_SOURCES, "adjacent") if run == RUN_COPY else (FLIP_TARGETS, "own_fallen")
        name = step.target or default
        if name not in values:
            raise RulesError(f"{where}: unknown target '{step.target}' for {step.op}")
        target = values.index(name)
    # a primitive without an amount counts once (auto_win: one more auto-win, win_ties: on)
    amount = step.amount if prim.arg("amount") is not None else 1
    if run == RUN_DIG and amount <= 0:
        amount = 1
    conds = tuple(compile_condition(c, where) for c in step.when)
    return (run, amount, int((prim.side or step.who) == "opponent"), per, target, conds, slot,
            use_slot)


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


