"""Day of the Dead conditions: the printed words of every comparison form, and the validator's
refusal of a condition that can never hold or always holds.

The text must say exactly what the interpreter tests (bounds included), in plain words; the
bundled cards' text is pinned by tests/test_text.py and docs/characters.md and does not change.
"""

from __future__ import annotations

import math
import random
import re
import shutil
from collections.abc import Callable
from dataclasses import replace
from itertools import combinations, product
from pathlib import Path

import pytest
from boneyard.engine.dotd import DotdGame
from boneyard.engine.dotd.cards import Condition, Step, dotd_set
from boneyard.engine.dotd.convert import conditions_from_dict
from boneyard.engine.dotd.effects import COMPARATORS
from boneyard.engine.dotd.phrases import Bounds
from boneyard.engine.dotd.rules import compile_condition
from boneyard.engine.dotd.sets import make_card_set
from boneyard.engine.dotd.text import condition_prefix
from boneyard.pipeline.load import check_set, load_set

from boneyard.paths import CARDS

# --- the words ----------------------------------------------------------------------------------

WORDING: list[tuple[dict[str, object], str]] = [
    # an exclusion at the floor of a count moves it; a count is never negative
    ({"count": {"of": "own_fallen", "ne": 0}}, "If you have 1 or more fallen fighters, "),
    ({"count": {"of": "own_fallen", "ne": 2}}, "If you do not have exactly 2 fallen fighters, "),
    ({"count": {"of": "own_fallen", "ne": 1}}, "If you do not have exactly 1 fallen fighter, "),
    ({"count": {"of": "opponent_active", "ne": 3}},
     "If your opponent does not have exactly 3 active fighters, "),
    ({"count": {"of": "own_fallen", "le": 1}}, "If you have at most 1 fallen fighter, "),
    ({"count": {"of": "own_winners", "lt": 2}},
     "If you have at most 1 fighter that won this turn, "),
    ({"count": {"of": "own_fallen", "ge": 1, "le": 2}}, "If you have 1 or 2 fallen fighters, "),
    ({"count": {"of": "own_fallen", "ge": 2, "le": 4, "ne": 3}},
     "If you have 2 or 4 fallen fighters, "),
    ({"count": {"of": "opponent_fallen", "ge": 2, "ne": 3}},
     "If your opponent has 2 or more fallen fighters, but not 3, "),
    ({"count": {"of": "own_fallen", "ne": 0, "lt": 3}}, "If you have 1 or 2 fallen fighters, "),
    ({"count": {"of": "own_fallen", "ge": 3, "le": 3}}, "If you have exactly 3 fallen fighters, "),
    # no number passes: said as written, never "no fallen fighters" (which would hold at 0)
    ({"count": {"of": "own_fallen", "le": -1}}, "If you have -1 or fewer fallen fighters, "),
    ({"count": {"of": "own_fallen", "eq": -1}}, "If you have exactly -1 fallen fighters, "),
    ({"count": {"of": "own_fallen", "ge": 5, "le": 3}},
     "If you have 5 or more and 3 or fewer fallen fighters, "),
    # turns are numbered from 1
    ({"turn": {"ge": 3, "le": 3}}, "On turn 3, "),
    ({"turn": {"ge": 3, "le": 4}}, "On turn 3 or 4, "),
    ({"turn": {"eq": 2, "ne": 1}}, "On turn 2, "),
    ({"turn": {"le": 4, "ne": 1}}, "On turns 2 to 4, "),
    ({"turn": {"ne": 1}}, "On turn 2 or later, "),
    ({"turn": {"lt": 2}}, "On turn 1, "),
    ({"turn": {"ne": 3}}, "Except on turn 3, "),
    ({"turn": {"ge": 2, "le": 4, "ne": 3}}, "On turn 2 or 4, "),
    ({"turn": {"ge": 2, "ne": 3}}, "On turn 2 or later, except turn 3, "),
    ({"turn": {"ge": 2, "le": 6, "ne": 4}}, "On turns 2 to 6, except turn 4, "),
    ({"turn": {"ge": 5, "le": 3}}, "On turn 5 or later and 3 or earlier, "),
    # a printed power is 0 to 9
    ({"opposing_power": {"ne": 0}}, "If the opposing fighter's printed power is 1 or more, "),
    ({"opposing_power": {"ne": 4}}, "If the opposing fighter's printed power is not 4, "),
    ({"opposing_power": {"lt": 1}}, "If the opposing fighter's printed power is 0, "),
    ({"opposing_power": {"ge": 2, "le": 4, "ne": 3}},
     "If the opposing fighter's printed power is 2 or 4, "),
    ({"opposing_power": {"le": 6, "ne": 3}},
     "If the opposing fighter's printed power is 6 or less, but not 3, "),
    # the score difference in a player's words
    ({"score_diff": {"ne": 2}}, "If you are not ahead by exactly 2, "),
    ({"score_diff": {"ne": -2}}, "If you are not behind by exactly 2, "),
    ({"score_diff": {"ge": 2, "le": 4}}, "If you are ahead by 2 to 4, "),
    ({"score_diff": {"ge": -4, "le": -2}}, "If you are behind by 2 to 4, "),
    ({"score_diff": {"ge": 1, "le": 2}}, "If you are ahead by 1 or 2, "),
    ({"score_diff": {"ge": -2, "le": 2}}, "If the scores are at most 2 apart, "),
    ({"score_diff": {"ge": 0, "le": 3}}, "If you are not behind and not ahead by more than 3, "),
    ({"score_diff": {"ge": 2, "ne": 3}}, "If you are ahead by 2 or more and not ahead by exactly 3, "),
    ({"score_diff": {"ge": -1, "le": 1, "ne": 0}}, "If you are ahead or behind by exactly 1, "),
    # a back or spirit: eq says it all, whatever order the mapping is written in
    ({"own_spirit": {"ne": "double", "eq": "unearth"}}, "If your spirit is an Unearth, "),
    ({"opposing_back": {"ne": "double", "eq": "unearth"}},
     "If the opposing fighter has an Unearth back, "),
]


@pytest.mark.parametrize(("when", "expected"), WORDING, ids=lambda v: str(v)[:60])
def test_a_condition_reads_as_plain_words(when: dict[str, object], expected: str) -> None:
    assert condition_prefix(conditions_from_dict(when)) == expected


def test_a_slot_number_excluded_reads_is_not() -> None:
    """Card files name one slot; a condition built in code may exclude one."""
    assert condition_prefix((Condition("slot", 3, op="ne"),)) == "If this is not slot 3, "
    assert condition_prefix((Condition("slot", 1, op="ne"),)) == "If this is slot 2 or higher, "


# --- every form the vocabulary allows, read back against the interpreter -------------------------

VALUES = (-1, 0, 1, 2, 4)


def _forms(most: int = 3) -> list[dict[str, int]]:
    """Every mapping of up to ``most`` comparisons (a YAML mapping holds each key once)."""
    return [dict(zip(ops, values, strict=True))
            for k in range(1, most + 1) for ops in combinations(COMPARATORS, k)
            for values in product(VALUES, repeat=k)]


def _interpreter(conds: tuple[Condition, ...]) -> Callable[[int], bool]:
    """Whether the interpreter's test (compiled ranges, rules.compile_condition) holds at x."""
    ranges = [compile_condition(c, "test")[1:4] for c in conds]
    return lambda x: all((lo <= x <= hi) != neg for lo, hi, neg in ranges)


def _between(lo: float, hi: float) -> Callable[[int], bool]:
    return lambda x: lo <= x <= hi


def _other_than(n: int) -> Callable[[int], bool]:
    return lambda x: x != n


def _numbers(words: str) -> Callable[[int], bool]:
    """The numbers a phrase of the printed text names: ``3``, ``2 or 4``, ``1, 2 or 4``,
    ``2 to 4``, ``5 or more``/``later``, ``3 or less``/``fewer``/``earlier``."""
    if m := re.fullmatch(r"(-?\d+) or (more|later|higher)", words):
        return _between(int(m[1]), math.inf)
    if m := re.fullmatch(r"(-?\d+) or (less|fewer|earlier|lower)", words):
        return _between(-math.inf, int(m[1]))
    if m := re.fullmatch(r"(-?\d+) to (-?\d+)", words):
        return _between(int(m[1]), int(m[2]))
    if re.fullmatch(r"(-?\d+)((, -?\d+)* or -?\d+)?", words):
        named = {int(n) for n in re.findall(r"-?\d+", words)}
        return lambda x: x in named
    raise AssertionError(f"not a number phrase: {words!r}")


def _but_not(text: str, mark: str) -> tuple[str, Callable[[int], bool]]:
    head, _, tail = text.partition(mark)
    if not tail:
        return text, lambda x: True
    excluded = _numbers(tail)
    return head, lambda x: not excluded(x)


def _read_turn(text: str) -> Callable[[int], bool]:
    text = text.removesuffix(", ")
    if text == "On every turn":
        return lambda x: True
    if m := re.fullmatch(r"Except on turn (.+)", text):
        excluded = _numbers(m[1])
        return lambda x: not excluded(x)
    text, keep = _but_not(text, ", except turn ")
    words = re.fullmatch(r"On turns? (.+)", text)
    assert words, text
    f = _numbers(words[1])
    return lambda x: f(x) and keep(x)


def _read_power(text: str) -> Callable[[int], bool]:
    words = re.fullmatch(r"If the opposing fighter's printed power is (.+), ", text)
    assert words, text
    if m := re.fullmatch(r"not (-?\d+)", words[1]):
        return _other_than(int(m[1]))
    rest, keep = _but_not(words[1], ", but not ")
    f = _numbers(rest)
    return lambda x: f(x) and keep(x)


def _read_count(text: str) -> Callable[[int], bool]:
    """``own_fallen`` as printed: "you have ... fallen fighter(s)", then any ", but not n"."""
    text, keep = _but_not(text.removeprefix("If ").removesuffix(", "), ", but not ")
    if m := re.fullmatch(r"you do not have exactly (\d+) fallen fighters?", text):
        return _other_than(int(m[1]))
    m = re.fullmatch(r"you have (.+) fallen fighters?", text)
    assert m, text
    words = m[1].replace("at most 1", "1 or fewer").removeprefix("exactly ")
    f = (lambda x: x == 0) if words == "no" else _numbers(words)
    singular = text.endswith("fighter")
    assert singular == (words in ("1", "1 or fewer")), f"{text!r}: singular or plural"
    return lambda x: f(x) and keep(x)


READERS = [
    ("turn", None, 1, _read_turn),
    ("opposing_power", None, 0, _read_power),
    ("count", "own_fallen", 0, _read_count),
]


@pytest.mark.parametrize(("test", "subject", "floor", "read"), READERS, ids=lambda v: str(v)[:20])
def test_every_comparison_form_says_what_the_interpreter_tests(
        test: str, subject: str | None, floor: int, read: Callable[[str], Callable[[int], bool]],
) -> None:
    """Every mapping of up to three comparisons with small values (negative ones included),
    printed, then read back: the numbers the words name are the numbers the interpreter accepts,
    from the least value the quantity has. A form no number passes is said as written."""
    domain = range(floor, floor + 12)
    for form in _forms():
        conds = tuple(Condition(test, n, op, subject) for op, n in form.items())
        text = condition_prefix(conds)
        assert "  " not in text and not re.search(r"\b(\d+) to \1\b", text), (form, text)
        holds = _interpreter(conds)
        if " and " in text:  # each comparison as written: only for a form no number passes
            assert not any(holds(x) for x in domain), (form, text)
            continue
        said = read(text)
        wrong = [x for x in domain if said(x) != holds(x)]
        assert not wrong, f"{form}: {text!r} is wrong at {wrong}"


@pytest.mark.parametrize("floor", [None, 0, 1])
def test_the_range_named_is_the_interpreters_for_every_form(floor: int | None) -> None:
    """Bounds (which every numeric clause, score_diff included, reads) against the compiled
    ranges, over every mapping of up to six comparisons."""
    start = -6 if floor is None else floor
    domain = range(start, start + 14)
    for form in _forms(most=6):
        conds = tuple(Condition("score_diff", n, op) for op, n in form.items())
        holds = _interpreter(conds)
        shape = Bounds(form.items(), floor).shape()
        kind, nums, ne = shape
        least = floor if floor is not None else -99
        wrong = [x for x in domain if _named(shape, least, x) != holds(x)]
        assert not wrong, f"{form} (floor {floor}): {kind} {nums} but not {ne}, wrong at {wrong}"


def _named(shape: tuple[str, tuple[int, ...], tuple[int, ...]], least: int, x: int) -> bool:
    """Whether ``x`` is one of the numbers a Bounds shape names (from ``least``)."""
    kind, nums, ne = shape
    if x in ne or kind == "never":
        return False
    if kind in ("one", "list"):
        return x in nums
    if kind == "range":
        return nums[0] <= x <= nums[1]
    if kind == "from":
        return x >= nums[0]
    if kind == "upto":
        return least <= x <= nums[0]
    return x >= least  # any


# --- the validator ------------------------------------------------------------------------------

MUMMY = "      when: {turn: {le: 2}}\n"


def _with_condition(tmp_path: Path, when: str, params: tuple[str, str] | None = None) -> Path:
    """The bundled set with Mummy's condition replaced by ``when``."""
    root = tmp_path / "day-of-the-dead"
    shutil.copytree(CARDS / "day-of-the-dead", root)
    path = root / "characters.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(MUMMY) == 1
    path.write_text(text.replace(MUMMY, f"      when: {when}\n"), encoding="utf-8")
    if params:
        game = root / "game.yaml"
        text = game.read_text(encoding="utf-8")
        assert text.count(params[0]) == 1
        game.write_text(text.replace(*params), encoding="utf-8")
    return root


NEVER = "so this condition can never hold (check the comparison)"
ALWAYS = "so this condition always holds (remove the condition, or check the comparison)"

REFUSED: list[tuple[str, str, str]] = [
    ("{count: {of: own_active, eq: 0}}", "count",
     "own_active is 1 to 6 (the fighter using the effect is one of them), " + NEVER),
    ("{count: {of: own_active, lt: 1}}", "count",
     "own_active is 1 to 6 (the fighter using the effect is one of them), " + NEVER),
    ("{count: {of: own_fallen, ge: 6}}", "count",
     "own_fallen is 0 to 5 (the fighter using the effect is active, in a line of at most 6 "
     "slots), " + NEVER),
    ("{count: {of: own_fallen, ge: 5, le: 3}}", "count", "own_fallen is 0 to 5, " + NEVER),
    ("{count: {of: opponent_fallen, lt: 0}}", "count", "opponent_fallen is 0 to 6, " + NEVER),
    ("{count: {of: own_fallen, ge: -1}}", "count", "own_fallen is 0 or more, " + ALWAYS),
    ("{count: {of: opponent_winners, ne: -2}}", "count",
     "opponent_winners is 0 or more, " + ALWAYS),
    ("{count: {of: own_active, ge: 1}}", "count",
     "own_active is 1 or more (the fighter using the effect is one of them), " + ALWAYS),
    ("{count: {of: own_active, ne: 0}}", "count",
     "own_active is 1 or more (the fighter using the effect is one of them), " + ALWAYS),
    ("{count: {of: own_adjacent_active, le: 2}}", "count",
     "own_adjacent_active is 0 to 2, " + ALWAYS),
    ("{turn: {ge: 1}}", "turn",
     "condition on the turn always holds (turns are numbered from 1) (remove the condition, or "
     "check the comparison)"),
    ("{turn: {ne: 0}}", "turn",
     "condition on the turn always holds (turns are numbered from 1) (remove the condition, or "
     "check the comparison)"),
    ("{turn: {ge: 5, le: 3}}", "turn",
     "condition on the turn can never hold (the game has turns 1 to 6) (check the comparison)"),
    ("{turn: 7}", "turn",
     "condition on the turn can never hold (the game has turns 1 to 6) (check the comparison)"),
    ("{opposing_power: {le: 9}}", "opposing_power", "printed powers are 0 to 9, " + ALWAYS),
    ("{opposing_power: {ne: -1}}", "opposing_power", "printed powers are 0 to 9, " + ALWAYS),
    ("{own_spirit: {eq: double, ne: double}}", "own_spirit",
     "own_spirit cannot be 'double' and not 'double' at once, so this condition can never hold "
     "(keep either eq or ne)"),
]


def _at(root: Path, when: str, key: str) -> str:
    """``characters.yaml:line:column`` of the value of ``key`` in the condition written."""
    lines = (root / "characters.yaml").read_text(encoding="utf-8").splitlines()
    written = f"      when: {when}"
    assert lines.count(written) == 1
    n = lines.index(written) + 1
    return f"characters.yaml:{n}:{written.index(f'{key}: ') + len(key) + 3}"


@pytest.mark.parametrize(("when", "key", "message"), REFUSED, ids=lambda v: str(v)[:50])
def test_a_condition_that_never_or_always_holds_is_one_located_problem(
        tmp_path: Path, when: str, key: str, message: str) -> None:
    root = _with_condition(tmp_path, when)
    problems = [str(replace(p, file=str(Path(p.file).relative_to(root))))
                for p in check_set(root).problems]
    assert problems == [f"{_at(root, when, key)}: card 'mummy': effect step 2: {message}"]


def test_the_bundled_set_validates_cleanly() -> None:
    assert check_set(CARDS / "day-of-the-dead").problems == []


def test_always_is_judged_for_every_game_never_for_this_one(tmp_path: Path) -> None:
    """A shorter game makes Mummy's 'turn 2 or earlier' hold on every turn it has: that is the
    set's choice (the build's playtest judges it), not a card written wrong. A game of one turn
    leaves no fallen fighter beside the one using Last Stand's effect: that can never hold."""
    short = _with_condition(tmp_path / "short", "{turn: {le: 2}}",
                            ("  turns: 6 ", "  turns: 2 "))
    assert check_set(short).problems == []
    one = _with_condition(tmp_path / "one", "{turn: {le: 2}}", ("  turns: 6 ", "  turns: 1 "))
    problems = [p.message for p in check_set(one).problems]
    assert problems == ["effect step 1: own_fallen is 0 to 0 (the fighter using the effect is "
                        "active, in a line of at most 1 slot), so this condition can never hold"]


# --- the rules the validator relies on ------------------------------------------------------------

PROBES = (
    # never: the fighter using the effect is active, so own_active >= 1 and own_fallen <= turns - 1
    Step("gain_vp", amount=1000, when=(Condition("count", 0, "eq", "own_active"),)),
    Step("gain_vp", amount=1000, when=(Condition("count", 6, "ge", "own_fallen"),)),
    Step("gain_vp", amount=1000, when=(Condition("count", 3, "ge", "own_adjacent_active"),)),
)


@pytest.mark.parametrize("switches", [
    {},
    {"replacement_uses_effect_this_fight": True, "conversion_window": "any_loser_this_turn",
     "prev_spirit_enters_as": "active", "newcomer_uses_pending_effect": False},
])
def test_no_game_ever_meets_a_condition_the_validator_calls_impossible(
        switches: dict[str, object]) -> None:
    """Every bundled character with the impossible conditions appended to its effect (so copies,
    Doubles, Unearthed newcomers and flips all go through them), in random games: none holds."""
    bundled = dotd_set(load_set(CARDS / "day-of-the-dead"))
    chars = [replace(c, effect=(*c.effect, *PROBES)) for c in bundled.characters]
    game = DotdGame(make_card_set(chars, {**bundled.switches, **switches}))
    assert all(max(scores) < 1000 for scores in _random_games(game, 200))
    # the same games see the bounds reached: one active fighter, the one using its effect
    bound = Step("gain_vp", amount=1000, when=(Condition("count", 1, "eq", "own_active"),))
    reached = DotdGame(make_card_set([replace(c, effect=(*c.effect, bound)) for c in chars],
                                     {**bundled.switches, **switches}))
    assert any(max(scores) >= 1000 for scores in _random_games(reached, 200))


def _random_games(game: DotdGame, n: int) -> list[list[int]]:
    """The final scores of ``n`` games of seeded random choices."""
    out = []
    for seed in range(n):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        out.append(list(state.scores))
    return out

