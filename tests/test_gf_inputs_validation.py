"""Grave Feast bad input: each mistake an audit found passing ``validate`` (or passing as a crash,
a repeated or unlocated message) is now one located message with its fix, and a non-zero exit.

Each test edits a copy of the bundled set the way a designer would and checks the exact words
and position, through the API (``check_set``) or the command line (``validate``, ``import``).
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import replace
from pathlib import Path

import pytest
from boneyard.pipeline.cli import cli
from boneyard.pipeline.load import check_set
from boneyard.pipeline.sheets import SheetError, export_set, import_set
from click.testing import CliRunner
from test_validate import _edited as edited_set


def _edited(tmp_path: Path, file: str, *edits: tuple[str, str], game: str = "grave-feast") -> Path:
    """A copy of the bundled set ``game`` with each (old, new) replaced once in ``file``."""
    return edited_set(tmp_path, game, file, *edits)


def _problems(root: Path) -> list[str]:
    return [str(replace(p, file=os.path.relpath(p.file, root))) for p in check_set(root).problems]


def _line(root: Path, file: str, text: str) -> int:
    """The line of ``file`` that holds ``text`` (1-based)."""
    lines = (root / file).read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def _validate(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["validate", *args])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


BLOOD = ("- id: blood\n  name: Blood\n  kind: human\n  food: blood\n  numbers: [1, 2, 3, 4, 5, 6, "
         "7, 8, 9]\n  copies: 2\n  flavor: Rich, warm and type O. A vampire's idea of a family "
         "dinner.\n")
BRAINS = ("- id: brains\n  name: Brains\n  kind: human\n  food: brains\n  numbers: [1, 2, 3, 4, 5, "
          "6, 7, 8, 9]\n  copies: 2\n  flavor: Big thinkers make the best snacks.\n")


# --- 1. a deck nobody can score with ------------------------------------------------------------


def test_a_deck_without_humans_is_refused_at_the_top_of_the_deck(tmp_path):
    """It used to validate and simulate games that never ended (cap_rate 100%)."""
    root = _edited(tmp_path, "deck.yaml", (BLOOD, ""), (BRAINS, ""),
                   ("  copies: 6\n", "  copies: 8\n"))  # still enough cards to deal 8 players
    assert _problems(root) == [
        "deck.yaml:1:1: the deck has no human cards: nobody can ever score (add human cards, "
        "e.g. blood and brains humans numbered 1-9)"]
    code, _, err = _validate(str(root))
    assert code == 1 and "the deck has no human cards" in err


def test_an_eater_whose_food_no_human_has_is_refused_at_its_kind(tmp_path):
    root = _edited(tmp_path, "deck.yaml", (BRAINS, ""))
    line = _line(root, "deck.yaml", "kind: zombie")
    assert _problems(root) == [
        f"deck.yaml:{line}:9: card 'zombie': zombies eat brains, but the deck has no brains "
        "humans: this card can never eat (add brains humans or remove it)"]


def test_a_human_with_the_wrong_food_is_not_also_an_eater_without_food(tmp_path):
    """The brains humans written food: blood is one mistake, said where it is (the numbers
    defined again), not also as "zombies ... no brains humans"."""
    root = _edited(tmp_path, "deck.yaml", ("  food: brains\n", "  food: blood\n"))
    problems = _problems(root)
    assert len(problems) == 1 and "already defined" in problems[0]


# --- 2. playtest runs the set's player range does not allow --------------------------------------


def test_each_run_outside_the_sets_players_is_one_located_problem(tmp_path):
    """Was an unlocated "Grave Feast is for 3-5 players, got 2" for the first run only, and
    nothing at all on stdout with --json."""
    root = _edited(tmp_path, "game.yaml", ("players: {min: 2, max: 8}", "players: {min: 3, max: 5}"))
    p2 = _line(root, "game.yaml", "{label: p2, players: 2}")
    rares = _line(root, "game.yaml", "{label: rares, players: 6,")
    fix = "(change the run's players or players: min/max)"
    expected = [f"game.yaml:{p2}:28: playtest.runs item 1 (p2): 2 players, but players allows 3-5 {fix}",
                f"game.yaml:{rares}:31: playtest.runs item 3 (rares): 6 players, but players "
                f"allows 3-5 {fix}"]
    assert _problems(root) == expected
    code, _, err = _validate(str(root))
    assert code == 1 and [line.split("game.yaml:", 1)[1] for line in err.splitlines()[1:-1]] == \
        [e.split("game.yaml:", 1)[1] for e in expected]
    code, out, _ = _validate("--json", str(root))
    data = json.loads(out)
    assert code == 1 and data["ok"] is False
    assert [(p["line"], p["message"]) for p in data["sets"][0]["problems"]] == [
        (p2, "playtest.runs item 1 (p2): 2 players, but players allows 3-5"),
        (rares, "playtest.runs item 3 (rares): 6 players, but players allows 3-5")]


def test_build_refuses_such_runs_before_any_game_and_writes_nothing(tmp_path, capsys):
    from boneyard.pipeline.cli import main

    root = _edited(tmp_path, "game.yaml", ("players: {min: 2, max: 8}", "players: {min: 3, max: 5}"))
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as info:
        main(["build", str(root), "--out", str(out)])
    err = capsys.readouterr().err
    assert info.value.code == 1 and "Traceback" not in err
    assert "playtest.runs item 1 (p2): 2 players, but players allows 3-5" in err
    assert "playtest.runs item 3 (rares): 6 players, but players allows 3-5" in err
    assert not out.exists()


def test_the_run_check_is_the_shared_loaders_and_names_the_games_own_limit(tmp_path):
    """Day of the Dead is for exactly 2 players: its one run (the section's own players:) is
    checked the same way, against the game's limit (changing players: could not help)."""
    root = _edited(tmp_path, "game.yaml", ("\nplaytest:\n", "\nplaytest:\n  players: 3\n"),
                   game="day-of-the-dead")
    line = _line(root, "game.yaml", "  players: 3")
    assert _problems(root) == [f"game.yaml:{line}:12: playtest.players: 3 players, but Day of "
                               "the Dead is for exactly 2 players (change the run's players)"]


# --- 3. a misspelt sensitivity metric -----------------------------------------------------------


def test_a_misspelt_sensitivity_gate_metric_is_a_located_error_with_the_nearest_pattern(tmp_path):
    root = _edited(tmp_path, "game.yaml", ("      - metric: kind.*.rounds_delta\n",
                                           "      - metric: kind.*.round_delta\n"))
    line = _line(root, "game.yaml", "- metric: kind.*.round_delta")
    code, _, err = _validate(str(root))
    assert code == 1
    assert re.search(rf"game\.yaml:{line}:17: playtest\.sensitivity\.gates\[0\]\.metric: "
                     r"'kind\.\*\.round_delta' names no sensitivity metric \(did you mean "
                     r"'kind\.\*\.rounds_delta'\? the sensitivity metrics are "
                     r"kind\.\*\.rounds_delta, kind\.\*\.steals_delta, kind\.\*\.kills_delta, "
                     r"kind\.\*\.seat_win_spread, rare\.\*\.paired_delta\)", err), err


def test_a_sensitivity_gate_on_a_figure_not_measured_says_to_measure_it(tmp_path):
    root = _edited(tmp_path, "game.yaml", ("      - metric: kind.*.rounds_delta\n",
                                           "      - metric: kind.*.preaches_delta\n"))
    code, _, err = _validate(str(root))
    assert code == 1
    assert ("'kind.*.preaches_delta' needs the figure 'preaches', which is not measured (add it "
            "to playtest.sensitivity.figures: rounds, steals, kills)") in err


@pytest.mark.parametrize("figures, index, said", [
    ("[rounds, steals, kills, bogus]", 3, "'bogus' is no per-game number of Grave Feast's games "
                                          "(the numbers: "),
    ("[rounds, steals, kils]", 2, "'kils' is no per-game number of Grave Feast's games (did you "
                                  "mean 'kills'? the numbers: "),
])
def test_a_sensitivity_figure_no_game_reports_is_refused_at_it(tmp_path, figures, index, said):
    """validate said ok, and the build stopped at its first games with no line; a misspelt
    figure was also blamed on the gate spelt right (kind.*.kills_delta, "did you mean
    kind.*.kils_delta?")."""
    root = _edited(tmp_path, "game.yaml", ("figures: [rounds, steals, kills]", f"figures: {figures}"))
    line = _line(root, "game.yaml", f"figures: {figures}")
    column = (root / "game.yaml").read_text().splitlines()[line - 1].index(
        figures[1:-1].split(", ")[index]) + 1
    code, _, err = _validate(str(root))
    lines = err.splitlines()[1:-1]
    assert code == 1 and len(lines) == 1, err
    assert lines[0].startswith(f"{root}/game.yaml:{line}:{column}: playtest.sensitivity.figures"
                               f"[{index}]: {said}"), lines


# --- 4. rares turned on with no rare to shuffle in ----------------------------------------------


def test_rares_on_with_an_empty_rares_file_is_one_problem_naming_every_place(tmp_path):
    root = _edited(tmp_path, "game.yaml", ("  rares: false   ", "  rares: true    "))
    (root / "rares.yaml").write_text("[]\n", encoding="utf-8")
    params = _line(root, "game.yaml", "  rares: true ")
    run = _line(root, "game.yaml", "{label: rares,")
    assert _problems(root) == [
        f"game.yaml:{params}:10: rares: true, but the rares file 'rares.yaml' holds no cards; "
        f"line {run} turns them on too (add the Devil Wife and the Exorcist to rares.yaml, or "
        "set rares: false)"]


def test_a_runs_rares_option_with_an_empty_rares_file_is_refused_at_the_option(tmp_path):
    root = _edited(tmp_path, "rares.yaml")
    (root / "rares.yaml").write_text("[]\n", encoding="utf-8")
    run = _line(root, "game.yaml", "{label: rares,")
    assert _problems(root) == [
        f"game.yaml:{run}:51: playtest.runs item 3 (rares) options: rares: true, but the rares "
        "file 'rares.yaml' holds no cards (add the Devil Wife and the Exorcist to rares.yaml, "
        "or set rares: false)"]


# --- 5, 6. template layout names and when: ------------------------------------------------------


def test_a_misspelt_layout_name_is_a_located_error_naming_the_layout_meant(tmp_path):
    """front-vampyre: the vampires silently printed with the plain front."""
    root = _edited(tmp_path, "template.yaml", ("  front-vampire:\n", "  front-vampyre:\n"))
    line = _line(root, "template.yaml", "  front-vampyre:")
    code, _, err = _validate(str(root))
    assert code == 1
    assert err.splitlines()[1:-1] == [
        f"{root}/template.yaml:{line}:3: layout 'front-vampyre' is used by no card (did you mean "
        "'front-vampire'? card 'vampire' looks for it, and prints with 'front' instead)"]


def test_a_layout_no_card_of_this_set_needs_is_not_a_problem(tmp_path):
    """The bundled template's rare layouts in a set without rares: spelt as the game names
    them, no card prints otherwise than meant."""
    root = _edited(tmp_path, "game.yaml", ("rares_file: rares.yaml\n", ""),
                   ("{label: rares, players: 6, options: {rares: true}}", "{label: rares, players: 6}"))
    _, out, _ = _validate(str(root), "--json")
    said = [p["message"] for s in json.loads(out)["sets"] for p in [*s["problems"], *s["warnings"]]]
    assert not any("layout" in m for m in said), said


def test_a_misspelt_when_field_is_one_message_at_the_misspelt_key(tmp_path):
    """It was said three times, twice at lines of layouts that only override the element."""
    root = _edited(tmp_path, "template.yaml", ("number_mark, type: rect, when: {number:",
                                               "number_mark, type: rect, when: {numbr:"))
    line = _line(root, "template.yaml", "when: {numbr: [6, 9]}")
    column = (root / "template.yaml").read_text().splitlines()[line - 1].index("numbr") + 1
    code, _, err = _validate(str(root))
    lines = err.splitlines()[1:-1]
    assert code == 1 and len(lines) == 1, lines
    assert lines[0].startswith(f"{root}/template.yaml:{line}:{column}: layout 'front-human' element "
                               "'number_mark': when: names the field 'numbr', which no card has, "
                               "so it is never drawn (did you mean 'number'? fields are: ")


@pytest.mark.parametrize("written, said", [
    ("{kind: vampyre}", "when: kind: 'vampyre' matches no card of the set, so it is never drawn "
                        "(did you mean 'vampire'? the cards' kind values: "),
    ("{number: six}", "when: number: 'six' matches no card of the set, so it is never drawn "
                      "(the cards' number values: "),
])
def test_a_when_value_no_card_has_is_a_warning_at_the_key(tmp_path, written, said):
    """The field exists, the value does not: the element never prints. Warned, not refused (a
    template shared between sets may serve cards this one lacks)."""
    root = _edited(tmp_path, "template.yaml", ("number_mark, type: rect, when: {number: [6, 9]}",
                                               f"number_mark, type: rect, when: {written}"))
    line = _line(root, "template.yaml", f"when: {written}")
    key = written[1:].split(":")[0]
    column = (root / "template.yaml").read_text().splitlines()[line - 1].index(f"{{{key}:") + 2
    code, out, err = _validate(str(root), "--json")
    assert code == 0, err
    warned = [p for s in json.loads(out)["sets"] for p in s["warnings"]]
    assert len(warned) == 1, warned
    assert (warned[0]["file"], warned[0]["line"], warned[0]["column"]) == \
        (f"{root}/template.yaml", line, column)
    assert warned[0]["message"].startswith(f"layout 'front-human' element 'number_mark': {said}")


@pytest.mark.parametrize("listed", ["  - rares.yaml\n", "  - deck.yaml\n  - rares.yaml\n"])
def test_the_rares_file_listed_as_a_deck_file_is_one_message_there(tmp_path, listed):
    """It was five: the file "already listed" at rares_file, then the deck's checks on the
    rares as a deck (4 cards cannot deal, no humans, two rares in the regular deck)."""
    root = _edited(tmp_path, "game.yaml", ("  - deck.yaml\n", listed))
    line = _line(root, "game.yaml", "  - rares.yaml")
    at = _line(root, "game.yaml", "rares_file: rares.yaml")
    problems = _problems(root)
    assert problems == [f"game.yaml:{line}:5: card file 'rares.yaml' is the file rares_file "
                        f"names (at {at}:13); a file is one or the other (list the deck's own "
                        "card files here, or name another file in rares_file)"], problems


def test_two_kinds_of_card_with_one_name_are_refused_at_the_second(tmp_path):
    """Day of the Dead refused a name twice; Grave Feast took two cards called Zombie."""
    root = _edited(tmp_path, "deck.yaml", ("  name: Vampire\n", "  name: zombie\n"))
    first = _line(root, "deck.yaml", "name: zombie")
    second = _line(root, "deck.yaml", "name: Zombie")
    assert _problems(root) == [f"deck.yaml:{second}:9: card 'zombie': name 'Zombie' is already "
                               f"used at line {first} (two kinds of card with one name confuse "
                               "players: rename one)"]


def test_a_rare_copied_into_the_regular_deck_is_one_message_there(tmp_path):
    """The Exorcist pasted into deck.yaml as well gave three: a rare in the regular deck, then
    its id and its name "already used" in the rares file, where it belongs."""
    root = _edited(tmp_path, "deck.yaml", (
        "  copies: 6\n  flavor: Sends monsters packing. Upside down, he is far less holy.\n",
        "  copies: 6\n  flavor: Sends monsters packing. Upside down, he is far less holy.\n"
        "- id: exorcist\n  name: Exorcist\n  kind: exorcist\n  copies: 2\n"))
    line = _line(root, "deck.yaml", "kind: exorcist")
    assert _problems(root) == [f"deck.yaml:{line}:9: card 'exorcist': exorcist is a rare and cannot "
                               "be in the regular deck (move it to the rares file named by "
                               "rares_file: in game.yaml, or remove it if that file has it already)"]


# --- 7. numbers written as a range or a string --------------------------------------------------


@pytest.mark.parametrize("written, said", [
    ('"1-9"', "numbers must be a list, got '1-9' (write it as a list of the numbers: "
              "[1, 2, 3, 4, 5, 6, 7, 8, 9])"),
    ("1, 2, 3", "numbers must be a list, got '1, 2, 3' (write it as a list, in brackets: "
                "[1, 2, 3])"),
    ("[1-9]", "numbers item 1 must be a whole number, got '1-9' (write the numbers it stands "
              "for: 1, 2, 3, 4, 5, 6, 7, 8, 9)"),
])
def test_numbers_written_as_one_value_say_the_list_meant(tmp_path, written, said):
    root = _edited(tmp_path, "deck.yaml", ("  food: blood\n  numbers: [1, 2, 3, 4, 5, 6, 7, 8, 9]\n",
                                           f"  food: blood\n  numbers: {written}\n"))
    problems = _problems(root)
    assert len(problems) == 1 and problems[0].endswith(f"card 'blood': {said}"), problems


@pytest.mark.parametrize("cell", ["[1, 2, 3]", "1 2 3", "1-9"])
def test_a_numbers_cell_that_is_no_comma_list_is_one_message_at_the_cell(tmp_path, cell):
    root = _edited(tmp_path, "deck.yaml")
    sheet, _ = export_set(root, tmp_path / "cards.csv")
    text = sheet.read_text(encoding="utf-8")
    assert text.count('"1, 2, 3, 4, 5, 6, 7, 8, 9"') == 2
    sheet.write_text(text.replace('"1, 2, 3, 4, 5, 6, 7, 8, 9"', f'"{cell}"', 1), encoding="utf-8")
    before = (root / "deck.yaml").read_bytes()
    with pytest.raises(SheetError) as err:
        import_set(root, sheet)
    assert [line.replace(f"{tmp_path}/", "") for line in err.value.lines] == [
        f"cards.csv:2:5: card 'blood': numbers: expected whole numbers separated by commas, got "
        f"'{cell}' (write it like 1, 2, 3)"]
    assert (root / "deck.yaml").read_bytes() == before


# --- 8. validate --json always prints JSON ------------------------------------------------------


def test_validate_json_of_no_set_at_all_prints_json_and_fails(tmp_path):
    code, out, err = _validate("--json", str(tmp_path / "nosuch"))
    data = json.loads(out)
    assert code == 2 and data["ok"] is False and len(data["sets"]) == 1
    assert "no such card set" in data["sets"][0]["problems"][0]["message"]
    assert "Usage:" not in err
    code, _, err = _validate(str(tmp_path / "nosuch"))  # without --json: a usage error, as before
    assert code == 2 and "no such card set" in err


# --- how to fix: the cheap ones -----------------------------------------------------------------


@pytest.mark.parametrize("file, old, new, said", [
    ("deck.yaml", "  copies: 6\n", "  copies: -1\n",
     "card 'preacher': copies must be at least 1, got -1 (to leave the card out, delete its entry)"),
    ("deck.yaml", "  kind: vampire\n", "  kind: vampire\n  numbers: [1]\n",
     "card 'vampire': numbers: only humans have numbers (remove the line, or make the card kind: "
     "human)"),
    ("game.yaml", "players: {min: 2, max: 8}", "players: {min: 6, max: 3}",
     "players min 6 is above max 3 (swap them)"),
    ("game.yaml", "      max: 16\n", "      max: '16'\n",
     "playtest.gates item 2 max must be a number, got '16' (remove the quotes)"),
])
def test_common_mistakes_say_how_to_fix_them(tmp_path, file, old, new, said):
    root = _edited(tmp_path, file, (old, new))
    problems = _problems(root)
    assert len(problems) == 1 and problems[0].endswith(said), problems


def test_a_card_file_written_as_a_mapping_says_how_a_list_is_written(tmp_path):
    root = _edited(tmp_path, "rares.yaml")
    (root / "rares.yaml").write_text("id: devil_wife\nname: Devil Wife\nkind: devil_wife\n")
    assert _problems(root) == [
        "rares.yaml:1:1: the file must be a list, got a mapping (a card file is a list: start "
        "each card with a dash and a space, '- id: ...', as a bundled set's card file does)"]


def test_an_empty_card_file_says_what_to_put_in_it(tmp_path):
    root = _edited(tmp_path, "rares.yaml")
    (root / "rares.yaml").write_text("# nothing yet\n")
    assert _problems(root) == [
        "rares.yaml:1:1: file is empty, expected a list of cards (add its cards, each starting "
        "with '- id: ...', or stop naming the file in game.yaml)"]


def test_a_misspelt_coverage_exemption_names_the_item_meant(tmp_path):
    root = _edited(tmp_path, "game.yaml", ("      exorcist_hid: &two_succubi\n",
                                           "      exorcist_hidd: &two_succubi\n"))
    code, _, err = _validate(str(root))
    assert code == 1
    assert ("playtest.coverage.exempt.exorcist_hidd: the game counts nothing of that name (did you "
            "mean 'exorcist_hid'? known: ") in err


def test_the_bundled_sets_still_validate_clean():
    code, out, err = _validate("grave-feast", "day-of-the-dead")
    assert code == 0 and "warning:" not in err and out.count("is valid") == 2
