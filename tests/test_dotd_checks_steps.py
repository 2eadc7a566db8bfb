"""Day of the Dead effect steps the validator refuses, and one message per mistake.

Each case edits a copy of the bundled set in one place and checks every problem ``check_set``
reports (file:line:column, message, hint), so a refusal that is missing, doubled or followed by
a message that only repeats it fails: a step that can never hold or does nothing (a condition on
a back the card is never printed on, a lead no game reaches, an amount of 0, an automatic win
and loss that cancel out, a copy of an effect the opposing fighter never has), a schema refusal
that a semantic check would repeat (a slot past 12, a misspelt back id, copies past 9), and the
fixes the messages name (a number in quotes, a whole number written 3.0, the card a short back
misses).
"""

from __future__ import annotations

import os
import shutil
from dataclasses import replace
from pathlib import Path

import pytest
from boneyard.pipeline.cli import main
from boneyard.pipeline.load import check_set

from boneyard.paths import CARDS

FIXTURE_SETS = Path(__file__).parent / "fixtures" / "sets"

HOARD = "- id: hoard\n  name: Hoard\n  power: 1\n"
NEMESIS = "    - auto_win: self\n  flavor: Nobody"
MIRROR = "    - copy_effect: opposing\n"
OLD_BONES = "      when: {slot: oldest}"
UNDERDOG = "      when: {score_diff: {le: 0}}"
GAIN = "    - gain_vp: 3\n"
DIG = "    - dig: 1\n    - power: 4\n  flavor: Six feet"


def edited(tmp_path: Path, *edits: tuple[str, str, str]) -> Path:
    """A copy of the bundled set with each (file, old, new) edit made; ``old`` must be there
    once, so a change to the bundled cards fails here instead of testing nothing."""
    root = tmp_path / "day-of-the-dead"
    shutil.copytree(CARDS / "day-of-the-dead", root)
    for name, old, new in edits:
        path = root / name
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, (name, old)
        path.write_text(text.replace(old, new), encoding="utf-8")
    return root


def problems(root: Path) -> list[str]:
    """Every problem of the set, its file relative to the set folder."""
    return [str(replace(p, file=os.path.relpath(p.file, root))) for p in check_set(root).problems]


def line_of(root: Path, text: str, name: str = "characters.yaml") -> int:
    lines = (root / name).read_text(encoding="utf-8").splitlines()
    found = [n for n, line in enumerate(lines, 1) if text in line]
    assert len(found) == 1, (text, found)
    return found[0]


# --- 1. steps that can never hold or do nothing ---------------------------------------------------

def test_a_test_of_a_back_the_card_is_never_printed_on_is_refused_and_the_short_back_named(
        tmp_path: Path) -> None:
    """Hoard printed on two backs, with a bonus when its own card is an Unearth: that holds only
    for a copier on an Unearth back (Twin, Mirror Ghoul), never for Hoard; and the Unearth deck
    is one card short, which game.yaml says naming Hoard."""
    root = edited(tmp_path, ("characters.yaml", HOARD + "  effect:\n" + GAIN,
                             HOARD + "  backs: [double, power_up]\n  effect:\n" + GAIN
                             + "    - power: 2\n      when: {own_back: {eq: unearth}}\n"))
    n = line_of(root, "when: {own_back: {eq: unearth}}")
    assert problems(root) == [
        f"characters.yaml:{n}:24: card 'hoard': effect step 2: this card is printed only on the "
        "double and power_up backs, so the condition on its own back can never hold (only a "
        "fighter on the unearth back copying its effect could meet it) (add unearth to its "
        "backs, or check the condition)",
        "game.yaml:14:17: back 'unearth' has 35 cards but cards_per_back is 36; hoard is not "
        "printed on it (add 1 card with that back using backs: or copies: on a character, or "
        "change cards_per_back)",
    ]


def test_a_test_of_its_own_back_that_always_holds_is_refused_without_a_copier(
        tmp_path: Path) -> None:
    """In a set without copy_effect, ``{ne: unearth}`` on a card never printed on Unearth holds
    every time, and nothing else could use the effect."""
    root = edited(tmp_path,
                  ("characters.yaml", HOARD + "  effect:\n" + GAIN,
                   HOARD + "  backs: [double, power_up]\n  effect:\n" + GAIN
                   + "    - power: 2\n      when: {own_back: {ne: unearth}}\n"),
                  ("characters.yaml", "    - copy_effect: adjacent\n", "    - power: 2\n"),
                  ("characters.yaml", MIRROR, "    - power: 1\n"))
    n = line_of(root, "when: {own_back: {ne: unearth}}")
    assert [p for p in problems(root) if p.startswith("characters.yaml")] == [
        f"characters.yaml:{n}:24: card 'hoard': effect step 2: this card is printed only on the "
        "double and power_up backs, so the condition on its own back always holds (remove the "
        "condition, or check the comparison)",
    ]


def test_a_test_of_a_back_the_card_has_is_accepted(tmp_path: Path) -> None:
    root = edited(tmp_path, ("characters.yaml", HOARD + "  effect:\n" + GAIN,
                             HOARD + "  effect:\n" + GAIN
                             + "    - power: 2\n      when: {own_back: {ne: unearth}}\n"))
    assert problems(root) == []


@pytest.mark.parametrize(("when", "message"), [
    ("{ge: 1000}",
     "effect step 1: the scores are never more than 693 points apart in this set's game (6 "
     "turns' Rewards score at most 21 fighters in all, a slot more each turn, each at most the "
     "highest printed power, 9; effects move at most 504 points more), so this condition can "
     "never hold (check the comparison)"),
    ("{le: -694}", "effect step 1: the scores are never more than 693 points apart"),
    ("{ge: 3, lt: 2}",
     "effect step 1: no score difference meets all of these comparisons, so this condition can "
     "never hold (check the comparison)"),
])
def test_a_score_difference_no_game_reaches_is_refused(tmp_path: Path, when: str,
                                                       message: str) -> None:
    root = edited(tmp_path, ("characters.yaml", UNDERDOG, f"      when: {{score_diff: {when}}}"))
    n = line_of(root, "when: {score_diff:")
    [said] = problems(root)
    assert said.startswith(f"characters.yaml:{n}:26: card 'underdog': {message}"), said


@pytest.mark.parametrize("when", ["{ge: 693}", "{le: -693}", "{ge: 100}", "0"])
def test_a_score_difference_some_game_may_reach_is_accepted(tmp_path: Path, when: str) -> None:
    root = edited(tmp_path, ("characters.yaml", UNDERDOG, f"      when: {{score_diff: {when}}}"))
    assert problems(root) == []


def test_no_lead_is_promised_when_a_replacement_uses_its_effect_again(tmp_path: Path) -> None:
    """With replacement_uses_effect_this_fight an Unearth chain may repeat gain_vp without a
    bound the validator could show: only what no game reaches is refused, so nothing is."""
    root = edited(tmp_path,
                  ("characters.yaml", UNDERDOG, "      when: {score_diff: {ge: 100000}}"),
                  ("game.yaml", "replacement_uses_effect_this_fight: false",
                   "replacement_uses_effect_this_fight: true"))
    assert problems(root) == []


@pytest.mark.parametrize(("old", "new", "before", "where"), [
    (GAIN, "    - gain_vp: 0\n", "- gain_vp: ", "gain_vp 0"),
    (GAIN, "    - gain_vp: {amount: 0, who: opponent}\n", "- gain_vp: {amount: ", "gain_vp 0"),
    ("    - power: 3\n      when: {slot: oldest}", "    - power: 0\n      when: {slot: oldest}",
     "- power: ", "power 0"),
])
def test_a_step_of_amount_0_does_nothing(tmp_path: Path, old: str, new: str, before: str,
                                         where: str) -> None:
    """Said at the 0 (``before`` is the text in front of it, on a line of its own)."""
    root = edited(tmp_path, ("characters.yaml", old, new))
    n = line_of(root, new.splitlines()[0].strip())
    column = (root / "characters.yaml").read_text().splitlines()[n - 1].index(before) \
        + len(before) + 1
    assert problems(root) == [
        f"characters.yaml:{n}:{column}: card '{'hoard' if 'gain' in where else 'old_bones'}': "
        f"effect step 1: {where} does nothing (remove the step or give it an amount other than "
        "0)"]


def test_an_automatic_win_and_loss_of_one_fighter_cancel_out(tmp_path: Path) -> None:
    root = edited(tmp_path, ("characters.yaml", NEMESIS,
                             "    - auto_win: self\n    - auto_lose: {who: self}\n  flavor: Nobody"))
    n = line_of(root, "- auto_lose: {who: self}")
    assert problems(root) == [
        f"characters.yaml:{n}:18: card 'nemesis': effect steps 1 and 2: auto_win: self and "
        "auto_lose: self cancel each other out (ruling DD-12), so together they do nothing "
        "(remove one of them, or give them conditions that cannot hold at once)",
    ]


@pytest.mark.parametrize("second", [
    "    - auto_lose: self\n      when: {losing: true}\n",  # a condition may keep them apart
    "    - auto_lose: opponent\n",  # a win for this fighter, a loss for the other: one result
])
def test_an_automatic_win_and_loss_that_do_not_cancel_are_accepted(tmp_path: Path,
                                                                   second: str) -> None:
    root = edited(tmp_path, ("characters.yaml", NEMESIS,
                             "    - auto_win: self\n" + second + "  flavor: Nobody"))
    assert problems(root) == []


def test_a_copy_of_the_opposing_effect_only_when_it_has_none_copies_nothing(
        tmp_path: Path) -> None:
    root = edited(tmp_path, ("characters.yaml", MIRROR,
                             MIRROR + "      when: {opposing_has_effect: false}\n"))
    n = line_of(root, "when: {opposing_has_effect: false}")
    assert problems(root) == [
        f"characters.yaml:{n}:35: card 'mirror_ghoul': effect step 1: copy_effect: opposing "
        "copies the opposing fighter's effect, but this condition lets the step run only when "
        "it has none, so it copies nothing, every time (remove the condition: a fighter without "
        "an effect has nothing to copy anyway)",
    ]


@pytest.mark.parametrize(("old", "new"), [
    (MIRROR, MIRROR + "      when: {opposing_has_effect: true}\n"),
    ("    - copy_effect: adjacent\n",
     "    - copy_effect: adjacent\n      when: {opposing_has_effect: false}\n"),
])
def test_a_copy_that_can_find_an_effect_is_accepted(tmp_path: Path, old: str, new: str) -> None:
    root = edited(tmp_path, ("characters.yaml", old, new))
    assert problems(root) == []


@pytest.mark.parametrize("folder", [CARDS / "day-of-the-dead",
                                    *sorted(p for p in FIXTURE_SETS.iterdir()
                                            if (p / "game.yaml").is_file())],
                         ids=lambda p: p.name)
def test_the_bundled_and_fixture_sets_still_validate(folder: Path) -> None:
    assert check_set(folder).problems == []


# --- 3. one mistake, one message ------------------------------------------------------------------

def test_a_slot_past_12_is_said_once_by_the_schema(tmp_path: Path) -> None:
    root = edited(tmp_path, ("characters.yaml", OLD_BONES, "      when: {slot: 13}"))
    n = line_of(root, "when: {slot: 13}")
    assert problems(root) == [
        f"characters.yaml:{n}:20: card 'old_bones': effect step 1 when.slot must be at most 12, "
        "got 13",
    ]


def test_a_misspelt_back_id_in_game_yaml_is_said_once_there(tmp_path: Path) -> None:
    """The schema names the id with the one meant; the back it stands for is not also said to
    be missing, nor every card's test of it to name an undefined back."""
    root = edited(tmp_path, ("game.yaml", "{id: unearth, name: Unearth",
                             "{id: unearthh, name: Unearth"))
    assert problems(root) == [
        "game.yaml:13:10: backs item 3 id must be one of: double, power_up, unearth; got "
        "'unearthh' (did you mean 'unearth'?)",
    ]


def test_a_back_left_out_of_game_yaml_is_said_once_there(tmp_path: Path) -> None:
    root = edited(tmp_path, ("game.yaml",
                             '  - {id: unearth, name: Unearth, colour: "#f2f0ea", colour_name: '
                             'white}\n', ""))
    assert problems(root) == [
        "game.yaml:11:3: backs: unearth missing; Day of the Dead needs double, power_up, unearth "
        "(define each back once with its name and colour)",
    ]


def test_copies_past_the_schema_bound_are_not_counted_into_the_decks(tmp_path: Path) -> None:
    root = edited(tmp_path, ("characters.yaml", "- id: oaf\n  name: Oaf\n  power: 7\n",
                             "- id: oaf\n  name: Oaf\n  power: 7\n  copies: 1000000000\n"))
    n = line_of(root, "copies: 1000000000")
    assert problems(root) == [
        f"characters.yaml:{n}:11: card 'oaf': copies must be at most 9, got 1000000000",
    ]


# --- 4. the fix in the message --------------------------------------------------------------------

@pytest.mark.parametrize(("old", "new", "message"), [
    (OLD_BONES, '      when: {slot: "3"}',
     "card 'old_bones': effect step 1 when.slot: must be 1..12, newest or oldest; got a number "
     "in quotes, which is text (remove the quotes)"),
    (OLD_BONES, "      when: {slot: 3.0}",
     "card 'old_bones': effect step 1 when.slot must be text or a whole number, got 3.0 "
     "(write 3)"),
    (OLD_BONES, "      when: {slot: 7}",
     "card 'old_bones': effect step 1: slot 7 never exists (the game has 6 turns, one slot per "
     "turn) (name a slot from 1 to 6, or newest or oldest)"),
    (OLD_BONES, "      when: {slot: newst}",
     "card 'old_bones': effect step 1 when.slot must be one of: newest, oldest; got 'newst' "
     "(did you mean 'newest'?)"),
    (GAIN, "    - gain_vp: 3.0\n",
     "card 'hoard': effect step 1 gain_vp must be a whole number or a mapping (key: value "
     "lines), got 3.0 (write 3)"),
    (GAIN, '    - gain_vp: "3"\n',
     "card 'hoard': effect step 1 gain_vp must be a whole number or a mapping (key: value "
     "lines), got '3' (remove the quotes)"),
    (DIG, "    - dig: 1.0\n    - power: 4\n  flavor: Six feet",
     "card 'gravedigger': effect step 1 dig must be a whole number or empty or a mapping "
     "(key: value lines), got 1.0 (write 1)"),
])
def test_a_value_of_the_wrong_form_is_one_message_with_its_fix(tmp_path: Path, old: str,
                                                               new: str, message: str) -> None:
    root = edited(tmp_path, ("characters.yaml", old, new))
    [said] = problems(root)
    assert said.split(": ", 1)[1] == message, said


def test_the_cli_says_it_located_and_exits_1(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    root = edited(tmp_path, (("characters.yaml", GAIN, "    - gain_vp: 0\n")))
    with pytest.raises(SystemExit) as done:
        main(["validate", str(root)])
    err = capsys.readouterr().err
    assert done.value.code == 1 and "Traceback" not in err
    assert "characters.yaml:38:16: card 'hoard': effect step 1: gain_vp 0 does nothing" in err
