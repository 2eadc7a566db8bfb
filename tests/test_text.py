"""Printed rules text: one template per primitive and per condition test, generated from data.

A designer relies on the card saying exactly what the engine does; these tests pin every
template, the keyword runs the renderer styles, and the bundled set's text and docs.
"""

from __future__ import annotations

import pytest
from boneyard.engine.cards import BackDef, freeze
from boneyard.engine.dotd.cards import Character, Condition, DotdCardSet, Step
from boneyard.engine.dotd.effects import COUNTER, COUNTERS, PRIMITIVES
from boneyard.engine.dotd.text import (
    KEYWORD,
    PLAIN,
    condition_prefix,
    rules_runs,
    rules_text,
    step_text,
)


def ch(*steps: Step, power: int = 3, cid: str = "test") -> Character:
    return Character(id=cid, name=cid.title(), power=power, effect=tuple(steps))


def when(step: Step, *conds: Condition) -> Step:
    return Step(
        op=step.op, amount=step.amount, who=step.who, per=step.per, target=step.target, when=conds
    )


PLUS5 = Step("power", amount=5)

# --- one test per primitive ------------------------------------------------------------------

PRIMITIVE_CASES: list[tuple[Step, str]] = [
    (Step("power", amount=5), "+5 power this fight."),
    (Step("power", amount=-3), "-3 power this fight."),
    (Step("power", amount=-2, who="opponent"), "The opposing fighter gets -2 power this fight."),
    (
        Step("power", amount=2, per="own_fallen"),
        "+2 power this fight for each of your fallen fighters.",
    ),
    (
        Step("set_power", amount=0, who="opponent"),
        "The opposing fighter fights from a power of 0 instead of its printed power this fight.",
    ),
    (
        Step("set_power", amount=9, who="self"),
        "This fighter fights from a power of 9 instead of its printed power this fight.",
    ),
    (Step("auto_win"), "This fighter wins the fight, no questions asked."),
    (Step("auto_win", who="opponent"), "The opposing fighter wins the fight, no questions asked."),
    (Step("auto_lose"), "This fighter loses the fight."),
    (Step("auto_lose", who="opponent"), "The opposing fighter loses the fight."),
    (Step("win_ties"), "This fighter wins power ties."),
    (Step("win_ties", who="opponent"), "The opposing fighter wins power ties."),
    (Step("gain_vp", amount=5), "Gain 5 victory points."),
    (Step("gain_vp", amount=3), "Gain 3 victory points."),
    (Step("gain_vp", amount=1), "Gain 1 victory point."),
    (Step("gain_vp", amount=-2), "Lose 2 victory points."),
    (Step("gain_vp", amount=2, who="opponent"), "Your opponent gains 2 victory points."),
    (
        Step("gain_vp", amount=1, per="own_active"),
        "Gain 1 victory point for each of your active fighters.",
    ),
    (Step("copy_effect", target="opposing"), "Use the effect of the opposing fighter."),
    (
        Step("copy_effect", target="adjacent"),
        "Use the effect of one of your active fighters next to this one.",
    ),
    (
        Step("copy_effect", target="own_active"),
        "Use the effect of one of your other active fighters.",
    ),
    (Step("dig", amount=1), "Dig."),
    (Step("dig", amount=2), "Dig 2."),
    (Step("unearth", target="self"), "Unearth."),
    (
        Step("force_unearth", target="opposing"),
        "Unearth the opposing fighter; you choose its replacement.",
    ),
    (Step("flip", target="own_fallen"), "Turn one of your fallen fighters face up."),
    (
        Step("flip", target="opponent_fought"),
        "Turn face down one of your opponent's active fighters in a slot that has already fought this turn.",
    ),
    (
        Step("suppress_spirit", who="opponent"),
        "From now on this fight, your opponent's spirit gives no +2 and no second use.",
    ),
    (Step("suppress_spirit", who="self"), "From now on this fight, your spirit gives no +2 and no second use."),
    (Step("negate"), "The opposing fighter's effect does nothing from now on this fight."),
    (Step("take_priority"), "Take the Priority counter."),
    (Step("give_priority"), "Give the Priority counter to your opponent."),
]


@pytest.mark.parametrize(("step", "expected"), PRIMITIVE_CASES, ids=lambda v: getattr(v, "op", ""))
def test_primitive_template(step: Step, expected: str) -> None:
    assert step_text(step) == expected


def test_every_primitive_has_a_template() -> None:
    covered = {step.op for step, _ in PRIMITIVE_CASES}
    assert covered == set(PRIMITIVES)


def test_unknown_primitive_is_refused_not_printed_blank() -> None:
    with pytest.raises(ValueError, match="frobnicate"):
        step_text(Step("frobnicate"))


@pytest.mark.parametrize("counter", COUNTERS)
def test_every_counter_reads_for_each_of(counter: str) -> None:
    text = step_text(Step("power", amount=1, per=counter))
    assert text == f"+1 power this fight for each of {COUNTER[counter].per_phrase}."
    assert "_" not in text


# --- one test per condition test -------------------------------------------------------------

CONDITION_CASES: list[tuple[tuple[Condition, ...], str]] = [
    ((Condition("priority", "self"),), "If you have priority, +5 power this fight."),
    ((Condition("priority", "opponent"),), "If your opponent has priority, +5 power this fight."),
    ((Condition("turn", 5, op="ge"),), "On turn 5 or later, +5 power this fight."),
    ((Condition("turn", 2, op="le"),), "On turn 2 or earlier, +5 power this fight."),
    ((Condition("turn", 3, op="lt"),), "On turn 2 or earlier, +5 power this fight."),
    ((Condition("turn", 6),), "On turn 6, +5 power this fight."),
    (
        (Condition("turn", 2, op="ge"), Condition("turn", 4, op="le")),
        "On turns 2 to 4, +5 power this fight.",
    ),
    ((Condition("slot", "newest"),), "If this is your newest slot, +5 power this fight."),
    ((Condition("slot", "oldest"),), "If this is your oldest slot, +5 power this fight."),
    ((Condition("slot", 3),), "If this is slot 3, +5 power this fight."),
    ((Condition("own_spirit", "power_up"),), "If your spirit is a Power Up, +5 power this fight."),
    ((Condition("own_spirit", "none"),), "If you have no spirit, +5 power this fight."),
    (
        (Condition("opponent_spirit", "none"),),
        "If your opponent has no spirit, +5 power this fight.",
    ),
    (
        (Condition("opponent_spirit", "double"),),
        "If your opponent's spirit is a Double, +5 power this fight.",
    ),
    (
        (Condition("opponent_spirit", "unearth", op="ne"),),
        "If your opponent's spirit is not an Unearth, +5 power this fight.",
    ),
    ((Condition("own_back", "double"),), "If this card has a Double back, +5 power this fight."),
    (
        (Condition("opposing_back", "unearth"),),
        "If the opposing fighter has an Unearth back, +5 power this fight.",
    ),
    (
        (Condition("opposing_power", 3, op="le"),),
        "If the opposing fighter's printed power is 3 or less, +5 power this fight.",
    ),
    (
        (Condition("opposing_power", 6, op="ge"),),
        "If the opposing fighter's printed power is 6 or more, +5 power this fight.",
    ),
    (
        (Condition("opposing_has_effect", False),),
        "If the opposing fighter has no effect, +5 power this fight.",
    ),
    (
        (Condition("opposing_has_effect", True),),
        "If the opposing fighter has an effect, +5 power this fight.",
    ),
    (
        (Condition("count", 2, op="ge", subject="own_fallen"),),
        "If you have 2 or more fallen fighters, +5 power this fight.",
    ),
    (
        (Condition("count", 0, subject="opponent_active"),),
        "If your opponent has no active fighters, +5 power this fight.",
    ),
    (
        (Condition("count", 1, subject="own_winners"),),
        "If you have exactly 1 fighter that won this turn, +5 power this fight.",
    ),
    (
        (Condition("score_diff", -10, op="le"),),
        "If you are behind by 10 or more, +5 power this fight.",
    ),
    ((Condition("score_diff", 0, op="lt"),), "If you are behind, +5 power this fight."),
    ((Condition("score_diff", 0, op="gt"),), "If you are ahead, +5 power this fight."),
    ((Condition("score_diff", 5, op="ge"),), "If you are ahead by 5 or more, +5 power this fight."),
    ((Condition("score_diff", 0),), "If the scores are tied, +5 power this fight."),
    ((Condition("score_diff", 0, op="le"),), "If you are not ahead, +5 power this fight."),
    ((Condition("losing", True),), "If this fighter is losing, +5 power this fight."),
    ((Condition("losing", False),), "If this fighter is not losing, +5 power this fight."),
]


@pytest.mark.parametrize(("conds", "expected"), CONDITION_CASES, ids=lambda v: str(v)[:40])
def test_condition_template(conds: tuple[Condition, ...], expected: str) -> None:
    assert step_text(when(PLUS5, *conds)) == expected


def test_every_condition_test_has_a_template() -> None:
    from boneyard.engine.dotd.effects import CONDITION_TESTS

    covered = {c.test for conds, _ in CONDITION_CASES for c in conds}
    assert covered == set(CONDITION_TESTS)


def test_turn_comes_first_and_conditions_join_with_and() -> None:
    step = when(
        Step("gain_vp", amount=2),
        Condition("priority", "self"),
        Condition("turn", 5, op="ge"),
        Condition("opposing_power", 3, op="le"),
    )
    assert step_text(step) == (
        "On turn 5 or later, if you have priority and the opposing fighter's printed power"
        " is 3 or less, gain 2 victory points."
    )


def test_action_after_a_condition_is_lower_case_but_keywords_keep_their_capital() -> None:
    assert step_text(when(Step("negate"), Condition("losing", True))) == (
        "If this fighter is losing, the opposing fighter's effect does nothing from now on this fight."
    )
    assert step_text(when(Step("dig", amount=1), Condition("slot", "newest"))) == (
        "If this is your newest slot, Dig."
    )


def test_back_names_come_from_the_card_set() -> None:
    card_set = DotdCardSet(
        name="Test",
        slug="test",
        rules="day-of-the-dead",
        params=freeze({}),
        switches=freeze({}),
        content_hash="x",
        backs=(BackDef("double", "Twice", "#000000", "black"),),
    )
    step = when(PLUS5, Condition("own_spirit", "double"))
    assert step_text(step, card_set) == "If your spirit is a Twice, +5 power this fight."
    assert condition_prefix((Condition("own_back", "power_up"),)) == (
        "If this card has a Power Up back, "
    )


# --- characters: runs, keywords, whole text --------------------------------------------------


def test_character_without_effect_has_no_text() -> None:
    oaf = Character(id="oaf", name="Oaf", power=7)
    assert rules_text(oaf) == ""
    assert rules_runs(oaf) == []


def test_steps_join_into_sentences_and_keywords_are_separate_runs() -> None:
    gravedigger = ch(Step("dig", amount=1), Step("power", amount=2), power=4)
    assert rules_text(gravedigger) == "Dig. +2 power this fight."
    assert rules_runs(gravedigger) == [("Dig", KEYWORD), (". +2 power this fight.", PLAIN)]

    snatcher = ch(Step("force_unearth", target="opposing"), Step("power", amount=3))
    assert rules_runs(snatcher) == [
        ("Unearth", KEYWORD),
        (" the opposing fighter; you choose its replacement. +3 power this fight.", PLAIN),
    ]


def test_back_names_are_never_styled_as_keywords() -> None:
    """'Unearth' as a back name is plain text; only the keyword is set apart."""
    runs = rules_runs(ch(when(PLUS5, Condition("opposing_back", "unearth"))))
    assert runs == [("If the opposing fighter has an Unearth back, +5 power this fight.", PLAIN)]


def test_runs_join_to_the_text() -> None:
    spook = ch(
        Step("unearth", target="self"),
        when(Step("dig", amount=2), Condition("turn", 4, op="ge")),
        Step("power", amount=1),
    )
    runs = rules_runs(spook)
    assert "".join(t for t, _ in runs) == rules_text(spook)
    assert [t for t, s in runs if s == KEYWORD] == ["Unearth", "Dig 2"]
    assert all(s in (PLAIN, KEYWORD) for _, s in runs)
    # adjacent runs of the same style are merged, so the renderer gets the fewest pieces
    assert all(a[1] != b[1] for a, b in zip(runs, runs[1:], strict=False))


# --- docs/effects.md says exactly what the generator prints ----------------------------------


def _doc_table_cells(root, heading: str, column: int) -> list[str]:
    text = (root / "docs" / "effects.md").read_text(encoding="utf-8")
    section = text.split(heading, 1)[1].split("\n#", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `")]
    return [row.split(" | ")[column] for row in rows]


def _spans(cell: str) -> list[str]:
    return cell.split("`")[1::2]


def test_effects_doc_primitive_templates_are_what_the_generator_prints(root) -> None:
    printed = {expected for _, expected in PRIMITIVE_CASES}
    sentences = [
        span
        for cell in _doc_table_cells(root, "## Primitives", 3)
        for span in _spans(cell)
        if span.endswith(".")
    ]
    assert len(sentences) >= len(PRIMITIVES)
    assert [s for s in sentences if s not in printed] == []


def test_effects_doc_condition_templates_are_what_the_generator_prints(root) -> None:
    printed = [expected for _, expected in CONDITION_CASES]
    prefixes = [
        span.removesuffix("...")
        for cell in _doc_table_cells(root, "## Conditions", 2)
        for span in _spans(cell)
        if span.endswith(", ...") and not span.startswith("...")
    ]
    assert len(prefixes) >= 12
    assert [p for p in prefixes if not any(t.startswith(p) for t in printed)] == []


# --- the bundled set -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def dotd():
    from boneyard.pipeline.load import load_set

    return load_set("day-of-the-dead")


def test_every_bundled_character_has_text_for_its_effect(dotd) -> None:
    assert len(dotd.characters) == 36
    for character in dotd.characters:
        text = rules_text(character, dotd)
        if character.is_vanilla:
            assert text == "", character.id
        else:
            assert text.strip() and text.endswith("."), character.id
            assert "_" not in text and "None" not in text, (character.id, text)
    assert rules_text(dotd.character("oaf"), dotd) == ""


def test_bundled_text_is_stable(dotd) -> None:
    """Golden strings for the characters the rulebook fixes: their printed text must not move."""
    assert rules_text(dotd.character("anger"), dotd) == "+5 power this fight."
    assert rules_text(dotd.character("nemesis"), dotd) == (
        "This fighter wins the fight, no questions asked."
    )
    assert rules_text(dotd.character("twin"), dotd) == (
        "Use the effect of one of your active fighters next to this one."
    )


GOLDEN: list[tuple[Character, str]] = [
    (
        ch(Step("force_unearth", target="opposing"), Step("power", amount=3)),
        "Unearth the opposing fighter; you choose its replacement. +3 power this fight.",
    ),
    (
        ch(when(Step("auto_win"), Condition("count", 2, op="ge", subject="own_fallen"))),
        "If you have 2 or more fallen fighters, this fighter wins the fight, no questions asked.",
    ),
    (
        ch(Step("dig", amount=1), when(Step("power", amount=-3), Condition("turn", 2, op="le"))),
        "Dig. On turn 2 or earlier, -3 power this fight.",
    ),
    (
        ch(
            Step("copy_effect", target="opposing"),
            when(Step("power", amount=2), Condition("opposing_has_effect", False)),
        ),
        "Use the effect of the opposing fighter. If the opposing fighter has no effect,"
        " +2 power this fight.",
    ),
]


@pytest.mark.parametrize(("character", "text"), GOLDEN, ids=lambda v: str(v)[:30])
def test_golden_character_text(character: Character, text: str) -> None:
    assert rules_text(character) == text


def test_characters_doc_is_up_to_date(dotd, root) -> None:
    from boneyard.engine.dotd.docs import characters_table_markdown

    committed = (root / "docs" / "characters.md").read_text(encoding="utf-8")
    assert committed == characters_table_markdown(dotd), (
        "docs/characters.md is out of date: run .venv/bin/python -m boneyard.pipeline.text"
    )


def test_characters_doc_lists_every_character_with_power_and_text(dotd) -> None:
    from boneyard.engine.dotd.docs import characters_table_markdown

    doc = characters_table_markdown(dotd)
    for character in dotd.characters:
        row = next(line for line in doc.splitlines() if f"| {character.name} |" in line)
        assert f"| {character.power} |" in row
        assert rules_text(character, dotd).replace("|", "\\|") in row


def test_characters_doc_notes_restricted_backs_and_extra_copies(tmp_path) -> None:
    from boneyard.engine.dotd.docs import characters_table_markdown, set_docs

    card_set = DotdCardSet(
        name="Tiny",
        slug="tiny",
        rules="day-of-the-dead",
        params=freeze({}),
        switches=freeze({}),
        content_hash="x",
        backs=(
            BackDef("double", "Double", "#000000", "black"),
            BackDef("power_up", "Power Up", "#888888", "gray"),
            BackDef("unearth", "Unearth", "#ffffff", "white"),
        ),
        characters=(
            Character(id="oaf", name="Oaf", power=7, flavor="An | oaf."),
            Character(
                id="ghoul", name="Ghoul", power=4, effect=(PLUS5,), backs=("double",), copies=2
            ),
        ),
    )
    doc = characters_table_markdown(card_set)
    assert "| 1 | Oaf | 7 | — | An \\| oaf. |" in doc
    assert "| 2 | Ghoul (backs: Double; 2 copies per back) | 4 | +5 power this fight. |  |" in doc
    assert "Printed powers (characters per power): 4: 1, 7: 1; mean 5.50." in doc
    assert set_docs(card_set) == {"characters.md": doc}


def test_generated_docs_are_written_whole_into_docs(tmp_path) -> None:
    from boneyard.pipeline.text import generated_docs, main

    assert main([str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(generated_docs())
    assert (tmp_path / "characters.md").read_text(encoding="utf-8") == \
        generated_docs()["characters.md"]
