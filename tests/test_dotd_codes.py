"""The interpreter's int codes line up with the card model's names (one vocabulary, two views)."""

import operator

from boneyard.engine.dotd import rules


def test_every_primitive_and_test_has_the_code_its_constant_names():
    assert {n: getattr(rules.Op, n.upper()) for n in rules.OP_CODES} == rules.OP_CODES
    assert {n: getattr(rules.Test, n.upper()) for n in rules.TEST_CODES} == rules.TEST_CODES


def test_comparison_codes_pick_their_operator():
    for name, code in rules.CMP_CODES.items():
        assert rules.CMP_FUNCS[code] is getattr(operator, name)


def test_range_form_of_a_condition_agrees_with_its_comparison():
    # the interpreter tests lo <= x <= hi (negated for "ne") instead of calling the operator
    for code, cmp in enumerate(rules.CMP_FUNCS):
        for value in (-3, 0, 1, 5):
            test, lo, hi, neg, _ = rules.range_condition((rules.Test.COUNT, cmp, value, 0))
            assert test == rules.Test.COUNT
            for x in range(-8, 10):
                assert ((lo <= x <= hi) != neg) == cmp(x, value), (rules.COMPARATORS[code], value, x)


def test_newest_and_oldest_slot_tests_compare_a_yes_no_measurement():
    for where, code in ((rules.SLOT_NEWEST, rules.Test.SLOT_NEWEST), (rules.SLOT_OLDEST, rules.Test.SLOT_OLDEST)):
        for cmp in (operator.eq, operator.ne):
            test, lo, hi, neg, _ = rules.range_condition((rules.Test.SLOT, cmp, where, -1))
            assert test == code
            for x in (False, True):
                assert ((lo <= x <= hi) != neg) == cmp(x, True)
