"""The interpreter's compiled codes come from the one vocabulary (engine/dotd/effects.py)."""

import operator

import pytest
from boneyard.engine.dotd import codes, effects, rules
from boneyard.engine.dotd.cards import Condition, Step
from boneyard.engine.dotd.codes import F_AW, F_BONUS, F_NEG

from boneyard.errors import RulesError

CMP = {name: getattr(operator, name) for name in effects.COMPARATORS}


def test_range_form_of_a_condition_agrees_with_its_comparison():
    # the interpreter tests lo <= x <= hi (negated for "ne") instead of calling the operator
    for name, cmp in CMP.items():
        for value in (-3, 0, 1, 5):
            cond = Condition("count", value, name, "own_fallen")
            measure, lo, hi, neg, arg = rules.compile_condition(cond, "test")
            assert (measure, arg) == (codes.M_COUNT, effects.COUNTER["own_fallen"].code)
            for x in range(-8, 10):
                assert ((lo <= x <= hi) != neg) == cmp(x, value), (name, value, x)


def test_newest_and_oldest_slot_tests_compare_a_yes_no_measurement():
    for where, code in (("newest", codes.M_SLOT_NEWEST), ("oldest", codes.M_SLOT_OLDEST)):
        for name in ("eq", "ne"):
            measure, lo, hi, neg, _ = rules.compile_condition(Condition("slot", where, name), "t")
            assert measure == code
            for x in (False, True):
                assert ((lo <= x <= hi) != neg) == CMP[name](x, True)


def test_side_of_a_test_and_of_a_counter_is_the_low_bit():
    assert rules.compile_condition(Condition("own_back", "double"), "t")[4] == 0
    assert rules.compile_condition(Condition("opposing_back", "double"), "t")[4] == 1
    for counter in effects.COUNTER_DEFS:
        assert counter.code & 1 == counter.side and counter.code >> 1 == counter.measure
    assert len({c.code for c in effects.COUNTER_DEFS}) == len(effects.COUNTERS)


def test_primitives_compile_to_their_operation_and_field():
    assert rules.compile_step(Step("power", amount=3, who="opponent"), "t")[:5] == (
        codes.RUN_FIGHT_ADD, 3, 1, -1, F_BONUS)
    # no amount argument: counts once
    assert rules.compile_step(Step("auto_win"), "t")[:5] == (codes.RUN_FIGHT_ADD, 1, 0, -1, F_AW)
    # negate always aims at the opposing fighter, whatever the step's who says
    assert rules.compile_step(Step("negate"), "t")[:5] == (codes.RUN_FIGHT_SET, 1, 1, -1, F_NEG)
    assert rules.compile_step(Step("give_priority"), "t")[:3] == (codes.RUN_PRIORITY, 1, 1)
    assert rules.compile_step(Step("take_priority"), "t")[2] == 0
    assert rules.compile_step(Step("flip", target="opponent_fought"), "t")[4] == 1
    assert rules.compile_step(Step("dig", amount=0), "t")[1] == 1


def test_inline_operations_are_those_that_never_ask():
    assert {codes.RUN_FIGHT_ADD, codes.RUN_FIGHT_SET, codes.RUN_VP,
                                 codes.RUN_PRIORITY} == rules.INLINE_RUNS
    for prim in effects.PRIMITIVE_DEFS:
        assert prim.asks == (prim.run not in rules.INLINE_RUNS), prim.name


@pytest.mark.parametrize(("step", "message"), [
    (Step("frobnicate"), "unknown effect primitive 'frobnicate'"),
    (Step("power", amount=1, per="nobody"), "unknown counter 'nobody'"),
    (Step("flip", target="sideways"), "unknown target 'sideways' for flip"),
    (Step("power", amount=1, when=(Condition("moon", "full"),)), "unknown condition 'moon'"),
    (Step("power", amount=1, when=(Condition("turn", 2, "about"),)), "unknown comparison 'about'"),
])
def test_unknown_names_are_refused(step, message):
    with pytest.raises(RulesError, match=message):
        rules.compile_step(step, "card 'x' step 1")
