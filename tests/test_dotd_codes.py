"""The interpreter's int codes line up with the card model's names (one vocabulary, two views)."""

import operator

from boneyard.engine.dotd import rules


def test_every_primitive_and_test_has_the_code_its_constant_names():
    assert {n: getattr(rules.Op, n.upper()) for n in rules.OP_CODES} == rules.OP_CODES
    assert {n: getattr(rules.Test, n.upper()) for n in rules.TEST_CODES} == rules.TEST_CODES


def test_comparison_codes_pick_their_operator():
    for name, code in rules.CMP_CODES.items():
        assert rules.CMP_FUNCS[code] is getattr(operator, name)
