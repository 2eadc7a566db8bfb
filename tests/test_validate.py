"""Broken card data: every kind of mistake gives its exact message at its exact line:column.

Each folder under tests/fixtures/broken/ is a tiny card set with one kind of mistake (a few
with several, to prove that every problem is reported, not just the first). The same folder is
checked through the API (``check_set``/``load_set``) and through the CLI; neither may ever end
in a traceback.
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import tempfile
from dataclasses import replace
from pathlib import Path

import pytest
from boneyard.engine.dotd import checks as dotd_checks
from boneyard.engine.dotd.checks import HAND_SAFE
from boneyard.engine.dotd.effects import PRIMITIVES, Primitive
from boneyard.pipeline.cli import cli
from boneyard.pipeline.load import check_set, load_set
from boneyard.pipeline.validate_yaml import MAX_FILE_BYTES, display_path, read_yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from boneyard.errors import CardDataError
from boneyard.paths import CARDS

BROKEN = Path(__file__).parent / "fixtures" / "broken"

# fixture folder -> every problem it must report, file names relative to the folder
EXPECTED: dict[str, list[str]] = {
    "alias-bomb": [
        'characters.yaml:2:35: file expands to more than 100000 values (an alias bomb?) (do not nest aliases like *name this deep)',
    ],
    "art-absolute-path": [
        "characters.yaml:5:8: card 'oaf': art '/etc/passwd' is an absolute path; write it relative to the set folder",
    ],
    "art-missing": [
        "characters.yaml:5:8: card 'oaf': art file 'art/oaf.png' does not exist (art paths are relative to the set folder)",
    ],
    "art-not-an-image": [
        "characters.yaml:5:8: card 'oaf': art file 'art/oaf.png' is not a readable image",
    ],
    "art-outside-set": [
        "characters.yaml:5:8: card 'oaf': art '../duplicate-id/characters.yaml' goes outside the set folder with '..' (art paths are relative to the set folder)",
    ],
    "art-symlink-escape": [
        "characters.yaml:5:8: card 'oaf': art 'art/oaf.png' leaves the set folder through a symlink (art paths are relative to the set folder)",
    ],
    "backs-break-back-count": [
        "game.yaml:10:17: back 'unearth' has 1 card but cards_per_back is 2; oaf is not printed on it (add 1 card with that back using backs: or copies: on a character, or change cards_per_back)",
        "game.yaml:12:18: back 'unearth' has 1 card, too few to deal 1 to each of 2 players (add cards or lower hand_per_back)",
    ],
    "bad-colour": [
        "game.yaml:7:40: backs item 1 colour 'black' is not valid: a colour is #rrggbb",
    ],
    "bad-comparison": [
        "characters.yaml:10:21: card 'anger': unknown key 'gte' in effect step 1 when.turn (did you mean 'gt'?)",
    ],
    "bad-counter": [
        "characters.yaml:9:31: card 'anger': effect step 1 power.per must be one of: own_fallen, own_active, opponent_fallen, opponent_active, own_winners, opponent_winners, own_adjacent_active; got 'fallen' (did you mean 'own_fallen'?)",
    ],
    "bad-id": [
        "characters.yaml:2:7: card 'Big Oaf': id 'Big Oaf' is not valid: an id is lower-case letters, digits, '-' and '_', starting with a letter",
    ],
    "bad-switch-value": [
        "game.yaml:14:14: switches.tie_break must be one of: draw, chain; got 'coin_flip'",
    ],
    "bad-who": [
        "characters.yaml:9:17: card 'anger': effect step 1 auto_win must be one of: self, opponent; got 'me'",
    ],
    "card-file-missing": [
        "game.yaml:5:14: card file 'charcters.yaml' does not exist (did you mean 'characters.yaml'? create it next to game.yaml or fix the name)",
    ],
    "card-file-twice": [
        "game.yaml:5:31: card file './characters.yaml' is the file already listed at 5:14 (list each card file once)",
    ],
    "card-file-is-game": [
        "game.yaml:5:31: 'game.yaml' is the set's settings file, not a card file (list the files that hold cards)",
    ],
    "card-file-outside": [
        "game.yaml:5:14: card file '../duplicate-id/characters.yaml' goes outside the set folder with '..'",
    ],
    "condition-never-holds": [
        "characters.yaml:10:20: card 'anger': effect step 1: condition on the turn can never hold (the game has turns 1 to 2) (check the comparison)",
    ],
    "copies-break-back-count": [
        "characters.yaml:5:11: card 'oaf': copies: 2 makes every back 3 cards, but cards_per_back is 2 (game.yaml:10:17) (remove the line for one of each, or write cards_per_back: 3 in game.yaml)",
    ],
    "copies-zero": [
        "characters.yaml:5:11: card 'oaf': copies must be at least 1, got 0 (to leave the card out, delete its entry)",
    ],
    "count-not-positive": [
        "deck.yaml:10:11: card 'vampire': copies must be at least 1, got -2 (to leave the card out, delete its entry)",
    ],
    "deck-too-small": [
        'game.yaml:7:14: 4 cards cannot deal 3 to each of 2 players (add cards, use two decks or lower hand_size)',
    ],
    "dig-zero": [
        "characters.yaml:9:12: card 'anger': effect step 1 dig must be at least 1, got 0",
    ],
    "duplicate-id": [
        "characters.yaml:5:7: card 'oaf': duplicate id 'oaf' (first used at line 2) (give each character its own id)",
    ],
    "duplicate-key": [
        "characters.yaml:5:3: duplicate key 'power' (first written at line 4) (remove one of them; YAML would silently keep only the last)",
    ],
    "duplicate-name": [
        "characters.yaml:6:9: card 'big_oaf': name 'OAF' is already used at line 3 (two printed cards with one name confuse players)",
    ],
    "empty-file": [
        "characters.yaml:1:1: file is empty, expected a list of cards (add its cards, each starting with '- id: ...', or stop naming the file in game.yaml)",
    ],
    "family-number-range": [
        "deck.yaml:6:13: card 'blood': numbers item 1 must be at least 1, got 0",
        "deck.yaml:6:22: card 'blood': numbers item 4 must be at most 9, got 10",
    ],
    "food-on-monster": [
        "deck.yaml:10:9: card 'vampire': food: only humans have a food (remove the line, or make the card kind: human)",
    ],
    "kind-misspelt": [
        "deck.yaml:5:9: card 'blood': kind must be one of: human, vampire, zombie, succubus, preacher, devil_wife, exorcist; got 'humann' (did you mean 'human'?)",
    ],
    "human-without-food": [
        "deck.yaml:2:3: card 'blood': missing required key 'food' (add it)",
    ],
    "many-problems": [
        "characters.yaml:4:10: card 'oaf': power must be at least 0, got -1",
        "characters.yaml:8:3: card 'anger': unknown key 'flavour' (did you mean 'flavor'?)",
        "characters.yaml:10:14: card 'anger': effect step 1 power must be a whole number or a mapping (key: value lines), got 'five'",
    ],
    "missing-name": [
        "characters.yaml:2:3: card 'oaf': missing required key 'name' (add it)",
    ],
    "no-eater": [
        "deck.yaml:5:9: card 'blood': blood humans but no vampire in the deck: these families can never be eaten (add a vampire card)",
        "deck.yaml:9:9: card 'zombie': zombies eat brains, but the deck has no brains humans: this card can never eat (add brains humans or remove it)",
    ],
    "not-utf8": [
        'characters.yaml:4:14: file is not UTF-8 text (save it as UTF-8)',
    ],
    "players-min-above-max": [
        'game.yaml:4:16: players min 4 is above max 2 (swap them)',
    ],
    "power-not-a-number": [
        "characters.yaml:4:10: card 'oaf': power must be a whole number, got 'seven'",
    ],
    "power-out-of-range": [
        "characters.yaml:4:10: card 'oaf': power must be at most 9, got 12",
    ],
    "python-tag": [
        "characters.yaml:3:9: card 'oaf': name: YAML tag '!!python/object/apply:os.system' is not allowed in card files (card files hold plain values: text, numbers, true/false, lists and mappings)",
    ],
    "rare-copies": [
        "rares.yaml:6:11: card 'devil_wife': a rare is a single print (GF-01), got copies: 4 (remove the line: the rulebook prints one of each)",
        "rares.yaml:13:9: card 'exorcist_again': a second Exorcist (the first is 'exorcist'): each rare is a single print (GF-01) (keep one card of each rare)",
    ],
    "rare-in-deck": [
        "deck.yaml:12:9: card 'exorcist': exorcist is a rare and cannot be in the regular deck (move it to the rares file named by rares_file: in game.yaml, or remove it if that file has it already)",
    ],
    "recursive-alias": [
        'characters.yaml:2:3: an alias refers to a value that contains it (remove the recursive alias)',
    ],
    "same-human-twice": [
        "deck.yaml:11:13: card 'blood_extra': blood 3 is already defined at line 6 (raise copies: on one entry instead)",
    ],
    "step-missing-colon": [
        "characters.yaml:9:7: card 'anger': effect step 1 must be a mapping (key: value lines), got 'dig' (write 'dig:' with a colon)",
    ],
    "step-without-primitive": [
        "characters.yaml:9:7: card 'anger': effect step 1 has no primitive (start it with one of: power, set_power, auto_win, auto_lose, win_ties, gain_vp, copy_effect, dig, unearth, force_unearth, flip, suppress_spirit, negate, take_priority, give_priority)",
    ],
    "too-many-per-back": [
        "game.yaml:10:17: every back has 3 cards but cards_per_back is 2 (remove 1 of each back using backs: or copies: on a character, or write cards_per_back: 3)",
    ],
    "two-primitives": [
        "characters.yaml:9:7: card 'anger': effect step 1 has 2 primitives (power, dig); a step has one (write each as its own step, a new line starting with '-')",
    ],
    "unknown-condition": [
        "characters.yaml:10:14: card 'anger': unknown condition 'turns' in effect step 1 (did you mean 'turn'?)",
    ],
    "unknown-key": [  # one mistake, one problem: 'power' is not also reported missing
        "characters.yaml:4:3: card 'oaf': unknown key 'powr' (did you mean 'power'?)",
    ],
    "unknown-primitive": [
        "characters.yaml:9:7: card 'anger': unknown primitive 'powr' in effect step 1 (did you mean 'power'?)",
    ],
    "unknown-rules": [
        "game.yaml:3:8: rules must be one of: day-of-the-dead, grave-feast; got 'poker'",
    ],
    "unknown-switch": [
        "game.yaml:14:3: unknown switch 'tie_brake' (did you mean 'tie_break'?)",
    ],
    "yaml-syntax": [
        "characters.yaml:7:8: YAML syntax error: while parsing a flow sequence (begun at line 6), expected ',' or ']', but got ':' (check the indentation and quoting around here)",
    ],
    "three-players": [
        "game.yaml:4:10: players: Day of the Dead is a game for exactly 2 players",
    ],
    "missing-back": [
        "game.yaml:7:3: backs: unearth missing; Day of the Dead needs double, power_up, unearth (define each back once with its name and colour)",
    ],
    "bad-run-options": [  # engine options are the game's own (--rares): a param put there is refused where it is
        "game.yaml:15:30: unknown key 'rares' in playtest.runs item 1 options (nothing may be given here)",
    ],
    "bad-playtest-agent": [
        "game.yaml:14:11: playtest.agents 'grredy' is not valid: an agent spec: random, greedy, gate, gate:fast, mcts or mcts:N",
        "game.yaml:15:10: playtest.games must be at least 1, got 0",
    ],
    "no-family-possible": [
        "deck.yaml:6:12: card 'blood': no blood family can ever be built: the longest run of consecutive blood numbers is 1, a family needs 3 (add the missing numbers)",
    ],
    "count-never-holds": [
        "characters.yaml:10:21: card 'conga': effect step 1: own_adjacent_active is 0 to 2, so this condition can never hold (check the comparison)",
    ],
    "bad-tag-value": [
        "characters.yaml:4:10: card 'oaf': power: 'seven' is not a valid !!int value (remove the tag)",
    ],
}


def _relative(problem, folder: Path) -> str:
    return str(replace(problem, file=os.path.relpath(problem.file, folder)))


def test_there_is_one_expectation_per_fixture_folder():
    folders = sorted(p.name for p in BROKEN.iterdir() if p.is_dir())
    assert folders == sorted(EXPECTED)
    assert len(folders) >= 25


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_api_reports_exactly_the_expected_problems(name):
    folder = BROKEN / name
    check = check_set(folder)
    assert not check.ok and check.card_set is None
    assert [_relative(p, folder) for p in check.problems] == EXPECTED[name]
    with pytest.raises(CardDataError) as info:
        load_set(folder)
    assert [_relative(p, folder) for p in info.value.problems] == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_cli_prints_every_problem_and_exits_1(name, monkeypatch):
    monkeypatch.chdir(BROKEN / name)
    result = CliRunner().invoke(cli, ["validate", "."])
    assert result.exit_code == 1, result.output
    assert isinstance(result.exception, SystemExit)  # not an uncaught error
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert lines[1:-1] == EXPECTED[name]
    assert lines[-1] == "1 of 1 set invalid"


def test_problems_of_several_sets_are_all_reported_with_their_paths():
    a, b = BROKEN / "duplicate-id", BROKEN / "no-eater"
    result = CliRunner().invoke(cli, ["validate", str(a), str(b)])
    assert result.exit_code == 1
    assert f"{os.path.relpath(a / 'characters.yaml')}:5:7: card 'oaf': duplicate id" in result.stderr
    assert f"{os.path.relpath(b / 'deck.yaml')}:5:9: card 'blood'" in result.stderr
    assert result.stderr.splitlines()[-1] == "2 of 2 sets invalid"


def test_a_file_over_the_size_limit_is_refused_unread(tmp_path):
    big = tmp_path / "characters.yaml"
    big.write_bytes(b"# padding\n" * (MAX_FILE_BYTES // 10 + 1))
    doc, problems = read_yaml(big)
    assert doc.data is None
    assert [(p.line, p.column) for p in problems] == [(1, 1)]
    assert f"over the limit of {MAX_FILE_BYTES} bytes" in problems[0].message


def test_deep_nesting_is_a_message_not_a_crash(tmp_path):
    deep = tmp_path / "deep.yaml"
    deep.write_text("[" * 5000 + "]" * 5000)
    doc, problems = read_yaml(deep)
    assert doc.data is None
    assert len(problems) == 1 and "nested too deeply" in problems[0].message


def test_alias_within_limits_is_read_and_located(tmp_path):
    f = tmp_path / "ok.yaml"
    f.write_text("base: &b {power: 5}\nsteps:\n  - *b\n  - *b\n")
    doc, problems = read_yaml(f)
    assert problems == []
    assert doc.data == {"base": {"power": 5}, "steps": [{"power": 5}, {"power": 5}]}
    # A value reached through an alias is located where it is written: at the anchor.
    assert doc.where(("steps", 1)) == (1, 7)
    assert doc.where(("steps",)) == (3, 3)
    assert doc.where(("base",), key=True) == (1, 1)


def test_a_missing_set_is_a_usage_error():
    result = CliRunner().invoke(cli, ["validate", "no-such-set"])
    assert result.exit_code == 2
    assert "no-such-set: no such card set" in result.output
    result = CliRunner().invoke(cli, ["validate", str(BROKEN)])  # a folder without game.yaml
    assert result.exit_code == 2
    assert "not a card set, it has no game.yaml" in result.output
    # one missing name among sets: the others are still checked and their problems shown
    result = CliRunner().invoke(cli, ["validate", str(BROKEN / "duplicate-id"), "no-such-set"])
    assert result.exit_code == 2
    assert "duplicate" in result.stderr and "no-such-set: no such card set" in result.stderr
    assert "1 of 1 set invalid" in result.stderr


def test_every_primitive_has_been_reviewed_for_hand_and_back_counts():
    # A new primitive must say keeps_hand deliberately (ruling DD-25), not by default.
    assert set(PRIMITIVES) == HAND_SAFE
    with pytest.raises(TypeError, match="keeps_hand"):
        Primitive("probe", (), None, "", "", lambda step: [], (), "", 0)


def test_a_primitive_not_known_to_keep_hand_size_is_refused(monkeypatch):
    monkeypatch.setattr(dotd_checks, "HAND_SAFE", HAND_SAFE - {"unearth"})
    folder = BROKEN / "too-many-per-back"  # Spook has `unearth:` at line 12
    problems = [_relative(p, folder) for p in check_set(folder).problems]
    assert problems[0] == (
        "characters.yaml:12:7: card 'spook': effect step 1: 'unearth' is not known to keep hand "
        "size and cards per back unchanged (the engine relies on this, ruling DD-25; review the "
        "primitive and set its keeps_hand in engine/dotd/effects.py)")


_NOISE = st.sampled_from(list(":-[]{}&*!|>'\"#\n\t ,?0123456789abcxyz") + [
    "!!python/object:os.system", "&a", "*a", "<<: ", "\n- ", "\n  ", "power: ", "when: ",
    "\xe9", "\x00", "copies: -1", "numbers: [0]", "art: ../x.png", "backs: [gold]"])


# Read once: the bundled files may be edited while the suite runs, and hypothesis needs the same
# text on every replay of an example.
_SNAPSHOT = {(p.parent.name, p.name): p.read_text() for p in CARDS.glob("*/*.yaml")}


@settings(max_examples=int(os.environ.get("BONEYARD_FUZZ", "120")), deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_no_edit_of_a_bundled_card_file_ever_raises(data):
    """Whatever a designer types, the answer is a list of problems (or a valid set)."""
    name, file = data.draw(st.sampled_from([
        ("day-of-the-dead", "characters.yaml"), ("day-of-the-dead", "game.yaml"),
        ("grave-feast", "deck.yaml"), ("grave-feast", "game.yaml")]))
    text = _SNAPSHOT[(name, file)]
    for _ in range(data.draw(st.integers(1, 4))):
        at = data.draw(st.integers(0, len(text)))
        cut = data.draw(st.integers(0, 12))
        text = text[:at] + data.draw(_NOISE) + text[at + cut:]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / name
        shutil.copytree(CARDS / name, folder)
        for (set_name, other), content in _SNAPSHOT.items():
            if set_name == name:
                (folder / other).write_text(content)
        (folder / file).write_text(text, encoding="utf-8", errors="surrogateescape")
        check = check_set(folder)
    assert check.ok or check.problems
    for p in check.problems:
        assert p.line >= 1 and p.column >= 1 and p.message


@pytest.mark.parametrize("args, code", [
    (["validate", str(BROKEN / "many-problems")], 1),
    (["cards", str(BROKEN / "alias-bomb")], 1),
    (["validate", "no-such-set"], 2),
    (["validate", "--no-such-option"], 2),
])
def test_the_console_entry_point_exits_with_a_message_never_a_traceback(args, code, capsys):
    from boneyard.pipeline.cli import main

    with pytest.raises(SystemExit) as info:
        main(args)
    assert info.value.code == code
    err = capsys.readouterr().err
    assert err.strip() and "Traceback" not in err


def test_validate_also_checks_the_playtest_section_build_would_refuse(tmp_path):
    """A gate with min above max used to pass `validate` and fail only in `build`."""
    from boneyard.pipeline.cli import main

    folder = tmp_path / "dotd"
    shutil.copytree(CARDS / "day-of-the-dead", folder)
    game = folder / "game.yaml"
    text = game.read_text()
    assert "      min: 0.45\n" in text
    game.write_text(text.replace("      min: 0.45\n", "      min: 0.70\n", 1))
    line = game.read_text().splitlines().index("      min: 0.70") + 1
    with pytest.raises(SystemExit) as info:
        main(["validate", str(folder)])
    assert info.value.code == 1
    err = CliRunner().invoke(cli, ["validate", str(folder)]).output
    assert f"game.yaml:{line - 1}:7: playtest.gates[0]: min 0.7 is above max 0.55 (swap them)" in err


def test_a_gate_whose_min_equals_its_max_is_refused_as_one_that_can_never_pass(tmp_path):
    folder = tmp_path / "dotd"
    shutil.copytree(CARDS / "day-of-the-dead", folder)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("      max: 0.55\n", "      max: 0.45\n", 1))
    line = game.read_text().splitlines().index("    - metric: first_priority_win_rate") + 1
    res = CliRunner().invoke(cli, ["validate", str(folder)])
    assert res.exit_code == 1
    assert (f"game.yaml:{line}:7: playtest.gates[0]: min and max are both 0.45: no measured "
            "interval lies inside a single value, so the gate could never pass (give a range "
            "around it)") in res.output


def test_validate_lays_out_the_sets_own_template(tmp_path):
    """A card the template cannot print (here: a character the font has no glyph for) is found
    by validate, before a build spends minutes playtesting."""
    folder = tmp_path / "dotd"
    shutil.copytree(CARDS / "day-of-the-dead", folder)
    chars = folder / "characters.yaml"
    chars.write_text(chars.read_text().replace("  name: Nemesis\n", '  name: "Nemesis \u2620"\n', 1))
    assert check_set(folder).ok  # the card data itself is fine
    result = CliRunner().invoke(cli, ["validate", str(folder)])
    assert result.exit_code == 1
    line = chars.read_text().splitlines().index('  name: "Nemesis \u2620"') + 1
    assert re.search(rf"characters\.yaml:{line}:9: card 'nemesis': name 'Nemesis \u2620': the "
                     r"font 'sans-bold' has no glyph for '\u2620'", result.output), result.output


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_cli_json_report_holds_the_same_problems_as_data(name, monkeypatch):
    monkeypatch.chdir(BROKEN / name)
    text = CliRunner().invoke(cli, ["validate", "."])
    result = CliRunner().invoke(cli, ["validate", ".", "--json"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    data = json.loads(result.stdout)
    assert data["ok"] is False and [s["ok"] for s in data["sets"]] == [False]
    problems = data["sets"][0]["problems"]
    assert len(problems) == len(text.stderr.splitlines()) - 2  # one per printed problem
    for p, line in zip(problems, text.stderr.splitlines()[1:-1], strict=True):
        if p["line"] is not None:
            assert line.startswith(f"{p['file']}:{p['line']}:{p['column']}:")
        assert p["message"] in line


def test_cli_json_report_of_valid_sets():
    result = CliRunner().invoke(cli, ["validate", "day-of-the-dead", "grave-feast", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data["ok"] is True and [s["set"] for s in data["sets"]] == ["day-of-the-dead", "grave-feast"]
    assert [s["name"] for s in data["sets"]] == ["Day of the Dead", "Grave Feast"]
    assert all(s["problems"] == [] and len(s["content_hash"]) == 16 for s in data["sets"])


def _edited(tmp_path: Path, game: str, file: str, *edits: tuple[str, str]) -> Path:
    """A copy of the bundled set ``game`` with each (old, new) replaced once in ``file``."""
    root = tmp_path / game
    shutil.copytree(CARDS / game, root)
    path = root / file
    text = path.read_text(encoding="utf-8")
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return root


def test_grave_feast_run_options_are_typed_and_only_the_games_own(tmp_path):
    """A bad engine option in a run is a located problem, not an engine error mid-build."""
    root = _edited(tmp_path, "grave-feast", "game.yaml",
                   ("options: {rares: true}", "options: {rares: maybe, hand_size: 200}"))
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert len(problems) == 2
    assert "options.rares must be true or false, got 'maybe'" in problems[0]
    assert "unknown key 'hand_size'" in problems[1] and "allowed here: rares, decks" in problems[1]
    assert all(re.match(r"game\.yaml:\d+:\d+: ", p) for p in problems)


def test_a_value_the_reader_refuses_does_not_hide_the_files_other_problems(tmp_path):
    root = _edited(tmp_path, "day-of-the-dead", "characters.yaml",
                   ("  name: Oaf\n  power: 7", "  name: Oaf\n  power: .nan"),
                   ("  name: Anger\n  power: 3", "  name: Anger\n  power: 33"))
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert len(problems) == 2, problems  # each once: the blanked .nan is not reported again
    assert "power must be at most 9, got 33" in problems[0]
    assert "'.nan' is not a number a card set can use" in problems[1]


@pytest.mark.parametrize("old, new, says", [
    # a refused merge key: not also the keys it would have given ('power' missing)
    ("  name: Body Snatcher\n  power: 0", "  name: Body Snatcher\n  <<: {power: 0}",
     "characters.yaml:20:3: merge keys (<<) are not supported in card files (write the keys out)"),
    # a non-finite number: named by card and key, and no whole-number field is told to write 0.5
    ("  name: Oaf\n  power: 7", "  name: Oaf\n  power: .inf",
     "characters.yaml:215:10: card 'oaf': power: '.inf' is not a number a card set can use "
     "(write a finite number, within the range the field allows)"),
])
def test_a_value_the_reader_refuses_is_one_named_problem(tmp_path, old, new, says):
    root = _edited(tmp_path, "day-of-the-dead", "characters.yaml", (old, new))
    assert [_relative(p, root) for p in check_set(root).problems] == [says]


def test_a_misspelt_gate_metric_is_a_located_problem_with_the_nearest_name(tmp_path):
    """A typo of a reported metric: the build is sure to count the gate missing, so validate
    fails now (exit 1); a name far from any stays a warning (a rare figure may be absent from
    the short trial by chance)."""
    root = _edited(tmp_path, "day-of-the-dead", "game.yaml", ("    - metric: draw_rate\n", "    - metric: draw_rat\n"))
    result = CliRunner().invoke(cli, ["validate", str(root)])
    assert result.exit_code == 1, result.output
    problems = [line for line in result.stderr.splitlines() if "names no metric" in line]
    assert len(problems) == 1 and not problems[0].startswith("warning: ")
    assert re.search(r"game\.yaml:\d+:15: playtest\.gates\[1\]\.metric: 'draw_rat' names no metric", problems[0])
    assert "did you mean 'draw_rate'?" in problems[0] and "fix the name" in problems[0]
    far = _edited(tmp_path / "far", "day-of-the-dead", "game.yaml",
                  ("    - metric: draw_rate\n", "    - metric: stalemate_share\n"))
    result = CliRunner().invoke(cli, ["validate", str(far)])
    assert result.exit_code == 0, result.output
    assert [line for line in result.stderr.splitlines() if line.startswith("warning: ")][0].count(
        "'stalemate_share' names no metric") == 1
    # the bundled sets name only metrics their playtests report
    clean = CliRunner().invoke(cli, ["validate", "day-of-the-dead", "grave-feast"])
    assert clean.exit_code == 0 and "warning:" not in clean.stderr


def test_a_gate_on_a_figure_its_run_never_measures_is_a_warning_not_a_typo_of_itself(tmp_path):
    """Coin flips happen only with the rares: ``coin_heads_rate`` gated on the two-player run is
    reported by the rares run and never by this one. It used to be a problem, "did you mean
    'coin_heads_rate'?", the name itself."""
    root = _edited(tmp_path, "grave-feast", "game.yaml",
                   ("    - metric: coin_heads_rate\n      run: rares\n", "    - metric: coin_heads_rate\n      run: p2\n"))
    result = CliRunner().invoke(cli, ["validate", str(root)])
    assert result.exit_code == 0, result.output
    said = [line for line in result.stderr.splitlines() if "coin_heads_rate" in line]
    assert len(said) == 1 and said[0].startswith("warning: ") and "did you mean" not in said[0]
    assert "'coin_heads_rate' was not measured in the run 'p2'" in said[0]


def test_one_value_gets_one_message_the_one_written_for_the_case(tmp_path):
    root = _edited(tmp_path, "day-of-the-dead", "game.yaml", ("\nplayers: 2\n", "\nplayers: two\n"))
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert len(problems) == 1 and problems[0].endswith("players: Day of the Dead is a game for exactly 2 players")


@pytest.mark.parametrize("text", [
    "!!python/object/apply:os.system\n- ls\n",  # the whole file: a call, not a list of cards
    "- !!python/object:os.system\n  id: oaf\n  name: Oaf\n  power: 7\n",  # one card
])
def test_a_card_file_not_read_whole_is_one_message_not_its_deck_counts(tmp_path, text):
    """The refused tag is the problem; 'back has 0 cards' (one a back) would only repeat it."""
    root = tmp_path / "day-of-the-dead"
    shutil.copytree(CARDS / "day-of-the-dead", root)
    (root / "characters.yaml").write_text(text, encoding="utf-8")
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert len(problems) == 1, problems
    assert "YAML tag '!!python/object" in problems[0] and "is not allowed" in problems[0]


def test_a_grave_feast_file_not_read_whole_says_nothing_of_the_deck(tmp_path):
    """Neither the deck's size nor its eaters: the vampire may be the card not read."""
    root = tmp_path / "grave-feast"
    shutil.copytree(CARDS / "grave-feast", root)
    deck = root / "deck.yaml"
    deck.write_text("!!python/object/apply:os.system\n- ls\n", encoding="utf-8")
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert len(problems) == 1 and "YAML tag '!!python/object" in problems[0], problems
    shutil.copy(CARDS / "grave-feast" / "deck.yaml", deck)
    deck.write_text(deck.read_text().replace("- id: vampire\n", "- !!set\n  id: vampire\n"))
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert len(problems) == 1 and "YAML tag '!!set' is not allowed" in problems[0], problems


@pytest.mark.parametrize("entry", ["../characters.yaml.bak", "../x", "/etc/x"])
def test_a_card_file_outside_the_set_is_one_message(tmp_path, entry):
    root = _edited(tmp_path, "day-of-the-dead", "game.yaml",
                   ("  - characters.yaml\n", f"  - {entry}\n"))
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert len(problems) == 1, problems
    assert re.match(r"game\.yaml:9:5: card_files item 1 .* is not valid: a \.yaml file name "
                    r"relative to the set folder$", problems[0]), problems


@pytest.mark.parametrize("outside", ["a copy of the template", "/etc/hostname"])
def test_a_template_linked_from_outside_the_set_is_refused_and_never_read(tmp_path, outside):
    """It was the one set file followed out of the folder: rendered from there, and the linked
    file's text quoted in a message ("must be a mapping ..., got 'vm'")."""
    root = tmp_path / "set"
    shutil.copytree(CARDS / "day-of-the-dead", root)
    target = (root / "template.yaml").rename(tmp_path / "template.yaml") \
        if outside.startswith("a copy") else Path(outside)
    (root / "template.yaml").unlink(missing_ok=True)
    (root / "template.yaml").symlink_to(target)
    result = CliRunner().invoke(cli, ["validate", str(root)])
    assert result.exit_code == 1, result.output
    assert "template.yaml: template.yaml leaves the set folder through a symlink (make it a file " \
        "inside the set folder, not a link to one elsewhere)" in result.output
    r = CliRunner().invoke(cli, ["render", str(root), "--force", "--out", str(tmp_path / "out")])
    said = r.output + str(r.exception)
    assert r.exit_code == 1 and "leaves the set folder through a symlink" in said, said
    assert "got '" not in result.output + said


def test_a_game_yaml_that_is_a_folder_is_named_as_such(tmp_path):
    """It was "not a card set, it has no game.yaml", with the list of bundled sets."""
    (tmp_path / "set" / "game.yaml").mkdir(parents=True)
    result = CliRunner().invoke(cli, ["validate", str(tmp_path / "set")])
    assert result.exit_code == 2 and f"{tmp_path / 'set' / 'game.yaml'}: not a regular file " \
        "(a set's game.yaml is a YAML file)" in result.output, result.output


def test_a_game_yaml_linked_from_outside_the_set_is_refused_like_a_card_file(tmp_path):
    root = tmp_path / "set"
    shutil.copytree(CARDS / "day-of-the-dead", root)
    (root / "game.yaml").rename(tmp_path / "game.yaml")
    (root / "game.yaml").symlink_to(tmp_path / "game.yaml")
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert problems == ["game.yaml:1:1: game.yaml leaves the set folder through a symlink (make "
                        "game.yaml a file inside the set folder, not a link to one elsewhere)"]
    result = CliRunner().invoke(cli, ["validate", str(root)])
    assert result.exit_code == 1 and "leaves the set folder through a symlink" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_game_yaml_linked_inside_the_set_is_read(tmp_path):
    root = tmp_path / "set"
    shutil.copytree(CARDS / "day-of-the-dead", root)
    (root / "game.yaml").rename(root / "settings.yaml")
    (root / "game.yaml").symlink_to("settings.yaml")
    assert check_set(root).ok


@pytest.mark.parametrize("game, file, old", [
    ("day-of-the-dead", "characters.yaml", "  name: Nemesis\n"),
    ("grave-feast", "deck.yaml", "  name: Vampire\n"),
])
def test_a_name_of_only_spaces_is_refused_where_it_is_written(tmp_path, game, file, old):
    root = _edited(tmp_path, game, file, (old, '  name: "   "\n'))
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert len(problems) == 1, problems
    assert re.match(rf"{file}:\d+:9: card '\w+': name '   ' is not valid: a printed name "
                    "cannot be only spaces; write the name$", problems[0]), problems
    root = _edited(tmp_path / "empty", game, file, (old, '  name: ""\n'))
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert len(problems) == 1 and problems[0].endswith("name must not be empty"), problems


def test_a_turn_count_the_game_cannot_have_is_one_message_not_every_turn_bound_card(tmp_path):
    """turns: 0 is the schema's problem; the cards whose conditions count turns are judged
    against the default, not reported as never holding."""
    root = _edited(tmp_path, "day-of-the-dead", "game.yaml",
                   ("  turns: 6                  #", "  turns: 0                  #"))
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert problems == ["game.yaml:16:10: params.turns must be at least 1, got 0"], problems


@pytest.mark.parametrize("old, new, expected", [
    ("turns: 6 ", "turns: 10 ",
     "game.yaml:16:10: a game of 10 turns plays 11 cards from each hand (two on turn 1, one a "
     "turn after), but a hand holds 9 (hand_per_back 3 x 3 backs): the players would run out of "
     "cards on turn 9 (lower turns to at most 8 or raise hand_per_back to 4)"),
    ("hand_per_back: 3 ", "hand_per_back: 2 ",
     "game.yaml:17:18: a game of 6 turns plays 7 cards from each hand (two on turn 1, one a "
     "turn after), but a hand holds 6 (hand_per_back 2 x 3 backs): the players would run out of "
     "cards on turn 6 (lower turns to at most 5 or raise hand_per_back to 3)"),
])
def test_a_hand_too_small_for_the_game_is_refused_before_any_game(tmp_path, old, new, expected):
    """The rulebook plays two cards on turn 1 and one a turn after, so 9 cards last 8 turns; a
    longer game used to pass validation and stop the build mid-simulation with no location."""
    root = _edited(tmp_path, "day-of-the-dead", "game.yaml", (old, new))
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert problems == [expected], problems
    ok = _edited(tmp_path / "ok", "day-of-the-dead", "game.yaml", ("turns: 6 ", "turns: 8 "))
    assert check_set(ok).problems == []


def test_a_win_score_above_the_decks_humans_is_valid_and_can_be_won(tmp_path):
    """validate refused it as "no one can ever win": but a draw pile that runs out takes the
    graveyards' corpses back in (GF-14) while the scores stay, so more humans than the deck holds
    can be taken. How long such games run is the playtest's to say (mean_rounds, cap_rate)."""
    from boneyard.engine.gf import FeastGame

    root = _edited(tmp_path, "grave-feast", "game.yaml", ("win_score: 9 ", "win_score: 37 "))
    check = check_set(root)
    assert check.problems == [] and check.card_set is not None
    game = FeastGame(check.card_set, 2, turn_cap=400)
    state = game.new_initial_state(3)
    rng = random.Random(3)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    assert max(state.score) >= 37 and not state.capped


@pytest.mark.parametrize("game, old, new, expected", [
    ("day-of-the-dead", "hand_per_back: 3 ", "hand_per_back: 99 ",
     "game.yaml:17:18: params.hand_per_back must be at most 12, got 99"),
    ("grave-feast", "min_family: 3 ", "min_family: 40 ",
     "game.yaml:14:15: params.min_family must be at most 9, got 40"),
    ("grave-feast", "win_score: 9 ", "win_score: -1 ",
     "game.yaml:13:14: params.win_score must be at least 1, got -1"),
    ("grave-feast", "players: {min: 2, max: 8}", "players: {min: 2, max: 99}",
     "game.yaml:7:24: players.max must be at most 8, got 99"),
    ("day-of-the-dead", "cards_per_back: 36 ", "cards_per_back: 0 ",
     "game.yaml:14:17: cards_per_back must be at least 1, got 0"),
])
def test_a_param_the_schema_refuses_is_not_judged_again_by_the_checks(tmp_path, game, old, new,
                                                                      expected):
    """Not also 'too few to deal 99', 'no family of 40 can be built', 'min_family above
    win_score -1': the cards are judged against the default of a refused value."""
    root = _edited(tmp_path, game, "game.yaml", (old, new))
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert problems == [expected], problems


def test_validate_and_cards_print_a_name_with_brackets_as_written(tmp_path):
    """Rich reads "[/b]" as markup: a set or card so named stopped validate with a MarkupError."""
    folder = tmp_path / "dotd"
    shutil.copytree(CARDS / "day-of-the-dead", folder)
    game = folder / "game.yaml"
    game.write_text(re.sub(r"(?m)^name: .*$", 'name: "X [/b] [red]y"', game.read_text(), count=1))
    chars = folder / "characters.yaml"
    chars.write_text(chars.read_text().replace("  name: Nemesis\n", '  name: "Nem [/i]esis"\n', 1))
    res = CliRunner().invoke(cli, ["validate", str(folder)])
    assert res.exit_code == 0, res.output
    assert "ok: X [/b] [red]y is valid" in res.output and "X [/b] [red]y (" in res.output
    res = CliRunner().invoke(cli, ["cards", str(folder)])
    assert res.exit_code == 0, res.output
    assert "Nem [/i]esis" in res.output


@pytest.mark.parametrize("game, other, typo", [
    ("day-of-the-dead", "grave-feast", ("characters.yaml", "  power: 0\n", "  pwer: 0\n")),
    ("grave-feast", "day-of-the-dead", None),
])
def test_rules_naming_the_other_game_is_one_message_at_rules_not_every_card(tmp_path, game,
                                                                            other, typo):
    """A set copied from one game with ``rules:`` set to the other used to give a hundred
    missing and unknown keys and nothing at the line to change."""
    root = _edited(tmp_path, game, "game.yaml", (f"rules: {game}", f"rules: {other}"))
    if typo is not None:  # the set's own problem is counted, to be said once rules: is fixed
        file, old, new = typo
        text = (root / file).read_text(encoding="utf-8")
        (root / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert len(problems) == 1, problems
    assert re.match(rf"game\.yaml:5:8: rules: says '{other}' but the cards and settings are "
                    rf"written for '{game}' \(\d+ problems under '{other}', "
                    rf"{1 if typo else 0} under '{game}'", problems[0]), problems
    assert problems[0].endswith(f"(write rules: {game})")
    assert ("then 1 more to fix" in problems[0]) == bool(typo)


@pytest.mark.parametrize("old, new, expected", [
    ("food: blood\n  numbers: [1, 2, 3,", "food: blood\n  numbers: [1, 1, 3,",
     "deck.yaml:33:16: card 'blood': numbers lists 1 twice (remove one)"),
    ("food: blood\n  numbers: [1, 2, 3, 4, 5, 6, 7, 8, 9]", "food: blood\n  numbers: []",
     "deck.yaml:33:12: card 'blood': numbers must list at least 1 item"),
    ("  kind: vampire\n", "  kind: Vampire\n",
     "deck.yaml:45:9: card 'vampire': kind must be one of: human, vampire, zombie, succubus, "
     "preacher, devil_wife, exorcist; got 'Vampire' (did you mean 'vampire'?)"),
])
def test_a_grave_feast_card_the_schema_refuses_is_not_judged_again_by_the_checks(
        tmp_path, old, new, expected):
    """A number listed twice is not also a duplicate card and a human "already defined"; no
    numbers is not also "no family can be built"; a misspelt kind is not also "no vampire"."""
    root = _edited(tmp_path, "grave-feast", "deck.yaml", (old, new))
    assert [_relative(p, root) for p in check_set(root).problems] == [expected]


@pytest.mark.parametrize("new, expected", [
    ("  backs: [purple]\n", "characters.yaml:20:11: card 'body_snatcher': backs item 1 must be one "
                            "of: double, power_up, unearth; got 'purple'"),
    ("  copies: 0\n", "characters.yaml:20:11: card 'body_snatcher': copies must be at least 1, "
                      "got 0 (to leave the card out, delete its entry)"),
    ("  backs: []\n", "characters.yaml:20:10: card 'body_snatcher': backs must list at least 1 "
                      "item"),
    ("  backs: [double, double]\n", "characters.yaml:20:19: card 'body_snatcher': backs lists "
                                    "'double' twice (remove one)"),
])
def test_a_refused_back_or_copy_count_is_not_also_every_backs_count(tmp_path, new, expected):
    """One card's bad backs: or copies: also said "every back has 35 cards but cards_per_back
    is 36 (add 1 ... or write cards_per_back: 35)": the wrong fix for the one mistake."""
    root = _edited(tmp_path, "day-of-the-dead", "characters.yaml",
                   ("- id: body_snatcher\n  name: Body Snatcher\n",
                    "- id: body_snatcher\n  name: Body Snatcher\n" + new))
    assert [_relative(p, root) for p in check_set(root).problems] == [expected]


@pytest.mark.parametrize("written, message", [
    ("010", "'010' is read by YAML as an octal number, 8, not 10 (write 10 without the leading "
            "zero, or 8 if that is meant)"),
    ("0x5", "'0x5' is read by YAML as a hexadecimal number, 5 (write 5 in plain digits, or quote "
            "it if it is text)"),
    ("1_0", "'1_0' is a number with a leading zero or underscores (write 10)"),
    ("0xb3121f", "'0xb3121f' is read by YAML as a hexadecimal number, 11735583 (a colour is "
                 "written \"#b3121f\", in quotes; or write 11735583 in plain digits if a number "
                 "is meant)"),
    ("08", "must be a whole number, got '08' (write 8 without the leading zero)"),
])
def test_a_number_yaml_reads_in_another_base_is_refused(tmp_path, written, message):
    """``power: 010`` was Hoard at 8, while a sheet's 010 imports as 10: one set, two readings."""
    root = _edited(tmp_path, "day-of-the-dead", "characters.yaml",
                   ("  name: Hoard\n  power: 1\n", f"  name: Hoard\n  power: {written}\n"))
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert len(problems) == 1, problems
    assert re.match(r"characters.yaml:\d+:10: card 'hoard': power", problems[0]), problems
    assert problems[0].endswith(message), problems


@pytest.mark.parametrize("written, message", [
    ('"Hoard\\u200b"', "name: the text holds U+200B ZERO WIDTH SPACE at character 6, an "
                       "invisible character: it prints as nothing or a box, and makes two texts "
                       "that look the same differ (delete it)"),
    ('"Nemesis "', "name: the name 'Nemesis ' begins or ends with a space: it looks like the name "
                   "without it, and prints off centre (remove the space)"),
    ('"Nemesis\\u00a0"', "begins or ends with a space"),
    ('"Cafe\\u0301"', "name: the text writes a letter and a separate accent (U+0301) at character "
                      "5: fonts may print it as a letter and a box (write it as one character: "
                      "'é')"),
    ('"Ho\\nard"', "name: a name is one line, this one has a line break (join the lines)"),
])
def test_a_name_that_prints_other_than_it_reads_is_refused(tmp_path, written, message):
    """Two cards printed "Nemesis" passed when one name ended in a space, and a zero-width space
    pasted with a name only showed up as an empty box on the printed card."""
    root = _edited(tmp_path, "day-of-the-dead", "characters.yaml",
                   ("  name: Hoard\n", f"  name: {written}\n"))
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert len(problems) == 1, problems
    assert re.match(r"characters.yaml:\d+:9: card 'hoard': ", problems[0]), problems
    assert problems[0].endswith(message) or message in problems[0], problems


def test_a_soft_hyphen_in_flavour_text_is_kept(tmp_path):
    root = _edited(tmp_path, "day-of-the-dead", "characters.yaml",
                   ("  flavor: You can't take it with you, so it takes everything with it.\n",
                    '  flavor: "You can\'t take it with you, so it takes every\\u00adthing."\n'))
    assert check_set(root).ok, check_set(root).problems


def test_an_art_path_that_differs_from_its_file_in_case_names_the_file(tmp_path):
    """``art: art/hoard.png`` for ``art/Hoard.png`` builds on macOS and Windows and fails on
    Linux, where CI or a print shop runs: the message names the file that is there."""
    from PIL import Image

    root = _edited(tmp_path, "day-of-the-dead", "characters.yaml",
                   ("  name: Hoard\n", "  name: Hoard\n  art: art/hoard.png\n"))
    (root / "art").mkdir()
    Image.new("RGB", (8, 5)).save(root / "art" / "Hoard.png")
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert len(problems) == 1, problems
    assert re.fullmatch(r"characters.yaml:\d+:8: card 'hoard': art file 'art/hoard.png' does not "
                        r"exist, but 'art/Hoard.png' does: the names differ in case only \(write "
                        r"art/Hoard.png; file names are case-sensitive on Linux, where a build or "
                        r"a print shop may run\)", problems[0]), problems


@pytest.mark.parametrize("folder, file, said", [
    ("art", "CON.png", "Windows reserves it for a device ('CON.png')"),
    ("aux", "hoard.png", "Windows reserves it for a device ('aux')"),
    ("art", "hoard?.png", "Windows does not allow '?' in a file name ('hoard?.png')"),
])
def test_art_named_as_windows_cannot_name_a_file_is_refused(tmp_path, folder, file, said):
    """``art/CON.png`` renders here, but the set cannot be checked out or unzipped on Windows."""
    from PIL import Image

    root = _edited(tmp_path, "day-of-the-dead", "characters.yaml",
                   ("  name: Hoard\n", f"  name: Hoard\n  art: '{folder}/{file}'\n"))
    (root / folder).mkdir()
    Image.new("RGB", (8, 5)).save(root / folder / file, format="PNG")
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert len(problems) == 1, problems
    assert re.fullmatch(rf"characters.yaml:\d+:8: card 'hoard': art '{folder}/{re.escape(file)}': "
                        rf"{re.escape(said)}, so the set could not be copied to Windows or zipped "
                        r"for a print shop \(rename the file\)", problems[0]), problems


@pytest.mark.parametrize("old, new, said", [
    ("  name: Hoard\n", "  name: No\n", "card 'hoard': name must be text, got false (YAML reads "
     "yes, no, on, off, true and false as a yes-or-no value: put the word in quotes, e.g. \"No\")"),
    ("  name: Hoard\n", "  name: ~\n", "card 'hoard': name must be text, got nothing (YAML reads "
     "~ and null as nothing: put the word in quotes, or write the text)"),
])
def test_a_word_yaml_reads_as_a_boolean_or_nothing_says_to_quote_it(tmp_path, old, new, said):
    """A card named No (or an id on) was "must be text, got false": true, but no way out."""
    root = _edited(tmp_path, "day-of-the-dead", "characters.yaml", (old, new))
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert len(problems) == 1 and problems[0].endswith(said), problems


def test_a_playtest_profile_build_cannot_select_is_refused_where_it_is_written(tmp_path):
    """`fsat:` validated, then build --fast failed in CI ("no profile 'fast'"); a `default:`
    profile was silently ignored. build selects one name, with --fast."""
    root = _edited(tmp_path, "grave-feast", "game.yaml", ("\n    fast:\n", "\n    fsat:\n"))
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert len(problems) == 1 and re.fullmatch(
        r"game.yaml:\d+:5: unknown key 'fsat' in playtest.profiles \(did you mean 'fast'\?\)",
        problems[0]), problems


@pytest.mark.parametrize("file, old, new, said", [
    # a human's cards are blood-1..blood-9, so an eater written 'blood' met no card id, but the
    # sheet export wrote two rows 'blood' and import then refused its own sheet (19 problems)
    ("deck.yaml", "- id: vampire\n", "- id: blood\n",
     "deck.yaml:43:7: card 'blood': duplicate id 'blood' (first used at line 29) (give each "
     "card its own id)"),
    ("deck.yaml", "- id: brains\n", "- id: blood\n",  # was said once for each of its 9 numbers
     "deck.yaml:36:7: card 'blood': duplicate id 'blood' (first used at line 29) (give each "
     "card its own id)"),
    ("rares.yaml", "- id: exorcist\n", "- id: blood\n",
     "rares.yaml:9:7: card 'blood': duplicate id 'blood' (first used at {deck}:29) (give "
     "each card its own id)"),
])
def test_a_grave_feast_id_written_twice_is_one_problem(tmp_path, file, old, new, said):
    root = _edited(tmp_path, "grave-feast", file, (old, new))
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert problems == [said.format(deck=display_path(root / "deck.yaml"))]


def test_a_human_entry_with_the_wrong_food_is_one_problem_not_one_a_number(tmp_path):
    root = _edited(tmp_path, "grave-feast", "deck.yaml",
                   ("  name: Brains\n  kind: human\n  food: brains\n",
                    "  name: Brains\n  kind: human\n  food: blood\n"))
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert problems == ["deck.yaml:40:13: card 'brains': blood 1, 2, 3, 4, 5, 6, 7, 8, 9 are "
                        "already defined at line 33 (raise copies: on one entry instead)"]


@pytest.mark.parametrize("bound, said", [
    ("", "game.yaml:{line}:7: playtest.gates item 2: missing 'min' or 'max' (add one of them)"),
    # a misspelt bound is said once, as the misspelling, not also as a bound missing
    ("      mxa: 0.08\n",
     "game.yaml:{next}:7: unknown key 'mxa' in playtest.gates item 2 (did you mean 'max'?)"),
])
def test_a_gate_without_a_bound_says_min_or_max(tmp_path, bound, said):
    """It said "missing required key 'min'": as if max alone were not a gate."""
    root = _edited(tmp_path, "day-of-the-dead", "game.yaml",
                   ("    - metric: draw_rate\n      max: 0.08\n", "    - metric: draw_rate\n" + bound))
    line = (root / "game.yaml").read_text(encoding="utf-8").splitlines().index(
        "    - metric: draw_rate") + 1
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert problems == [said.format(line=line, next=line + 1)]


def test_deep_nesting_is_located_where_it_goes_too_deep(tmp_path):
    """It was reported at 1:1, wherever the runaway brackets were."""
    deep = tmp_path / "deep.yaml"
    deep.write_text("- id: oaf\n  power: " + "[" * 5000 + "]" * 5000 + "\n")
    _, problems = read_yaml(deep)
    assert [(p.line, p.column, p.message) for p in problems] == [(2, 108, "YAML nested too deeply")]
    assert "is a bracket left open?" in (problems[0].hint or "")


@pytest.mark.parametrize("text, where, said, hint", [
    # the quote ran on to the next quote in the file, and the error was said there
    ('- id: oaf\n  name: "Oaf\n  power: 5\n- id: imp\n  name: "Imp"\n  power: 2\n', (2, 9),
     "YAML syntax error: the quote opened here is closed only at line 5 (is its closing quote "
     "missing?)", "close the quote on this line"),
    ('- id: oaf\n  name: "Oaf\n  power: 5\n', (2, 9),  # was at 4:1, the end of the file
     "YAML syntax error: the quote opened here is never closed", "close the quote on this line"),
    ("- id: oaf\n  name: Oaf\n\tpower: 5\n", (3, 1),
     "YAML syntax error: while scanning for the next token, found character '\\t' that cannot "
     "start any token", "YAML indents with spaces: replace the tab with spaces"),
    ("- id: oaf\n---\n- id: imp\n", (2, 1),
     "YAML syntax error: expected a single document in the stream (begun at line 1), but found "
     "another document", "a card file is one YAML document: remove the '---' line"),
])
def test_a_yaml_syntax_error_is_said_where_the_fix_goes(tmp_path, text, where, said, hint):
    f = tmp_path / "characters.yaml"
    f.write_text(text)
    _, problems = read_yaml(f)
    assert [((p.line, p.column), p.message, p.hint) for p in problems] == [(where, said, hint)]


def test_a_text_quoted_over_several_lines_is_not_taken_for_an_open_quote(tmp_path):
    f = tmp_path / "characters.yaml"
    f.write_text('- id: oaf\n  flavor: "Big,\n    slow"\n  name: [Oaf\n')
    _, problems = read_yaml(f)
    assert [(p.line, p.hint) for p in problems] == [(5, "check the indentation and quoting "
                                                          "around here")]


@pytest.mark.parametrize("file, old, new, said", [
    ("game.yaml", "card_files:\n  - characters.yaml\n", "card_files: characters.yaml\n",
     "game.yaml:8:13: card_files must be a list, got 'characters.yaml' (write it as a list, even "
     "of one: [characters.yaml])"),
    ("characters.yaml", "- id: nemesis\n", "- id: nemesis\n  backs: double\n",
     "characters.yaml:13:10: card 'nemesis': backs must be a list, got 'double' (write it as a "
     "list, even of one: [double])"),
])
def test_one_value_where_a_list_is_wanted_says_how_to_write_the_list(tmp_path, file, old, new,
                                                                      said):
    root = _edited(tmp_path, "day-of-the-dead", file, (old, new))
    assert [_relative(p, root) for p in check_set(root).problems] == [said]


@pytest.mark.parametrize("game, old, new, says", [
    ("day-of-the-dead", "      max: 0.08\n", "      max: 8\n",
     "playtest.gates[1].max: draw_rate is a share, from 0 to 1, so max 8 always passes (for 8% write 0.08)"),
    ("day-of-the-dead", "      min: -0.12\n", "      min: -12\n",
     "playtest.gates[2].min: card.*.sub_delta is a difference of two shares, from -1 to 1, so min -12 "
     "always passes (for -12% write -0.12)"),
    ("grave-feast", "      min: 0.40\n", "      min: 40\n",  # said by the bounds' order first
     "playtest.gates[12]: min 40 is above max 0.6 (for 40% write 0.4)"),
    ("grave-feast", "      min: 2.5\n      max: 6\n", "      min: 250\n      max: 600\n",  # not shares
     None),
])
def test_a_share_bound_written_as_a_percentage_is_a_located_problem(tmp_path, game, old, new, says):
    """A designer's 8 for 8%: the gate would always pass (or never), whatever the games show."""
    root = _edited(tmp_path, game, "game.yaml", (old, new))
    result = CliRunner().invoke(cli, ["validate", str(root)])
    if says is None:  # steals a game, not a share: any number may bound it
        assert result.exit_code == 0, result.output
        return
    assert result.exit_code == 1, result.output
    lines = [line for line in result.stderr.splitlines() if says in line]
    assert len(lines) == 1 and re.match(r".*game\.yaml:\d+:\d+: playtest\.gates", lines[0]), result.stderr


@pytest.mark.parametrize("written, hint", [
    ("who: opponent", "'who' is an argument of gain_vp: write gain_vp: {amount: 3, who: opponent}"),
    ("flavor: Mine.", "'flavor' is a key of the card, not of an effect step: indent it as "
                      "'effect:' is"),
    ("wen: {turn: 1}", "did you mean 'when'?"),
])
def test_a_key_beside_a_primitive_is_one_message_with_its_fix(tmp_path, written, hint):
    """``who: opponent`` under ``- gain_vp: 3`` was two messages, the first "effect step 1 has 1
    primitives (gain_vp); a step has one": wrong, and no fix."""
    root = _edited(tmp_path, "day-of-the-dead", "characters.yaml",
                   ("    - gain_vp: 3\n", f"    - gain_vp: 3\n      {written}\n"))
    key = written.split(":")[0]
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert len(problems) == 1, problems
    assert re.fullmatch(rf"characters\.yaml:\d+:7: card 'hoard': unknown primitive '{key}' in "
                        rf"effect step 1 \({re.escape(hint)}\)", problems[0]), problems


def test_one_card_s_copies_that_overfill_every_back_are_blamed_on_its_copies(tmp_path):
    """It was "game.yaml:14:17: every back has 37 cards but cards_per_back is 36", naming no
    card: the one card printed twice is the mistake, at its copies: line."""
    root = _edited(tmp_path, "day-of-the-dead", "characters.yaml",
                   ("- id: hoard\n", "- id: hoard\n  copies: 2\n"))
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert len(problems) == 1, problems
    assert re.fullmatch(r"characters\.yaml:\d+:11: card 'hoard': copies: 2 makes every back 37 "
                        r"cards, but cards_per_back is 36 \(game\.yaml:\d+:\d+\) \(remove the "
                        r"line for one of each, or write cards_per_back: 37 in game\.yaml\)",
                        problems[0]), problems


@pytest.mark.parametrize("spaces", [1, 3, 5])
def test_a_key_indented_to_no_level_says_where_the_keys_are(tmp_path, spaces):
    """PyYAML said "while parsing a block mapping (begun at line 34), expected <block end>, but
    found '<block mapping start>'": parser words, no fix."""
    root = _edited(tmp_path, "day-of-the-dead", "characters.yaml",
                   ("    - gain_vp: 3\n  flavor: You", f"    - gain_vp: 3\n{' ' * spaces}flavor: You"))
    line = next(i for i, text in enumerate((root / "characters.yaml").read_text().splitlines(), 1)
                if "flavor: You can't take it" in text)
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert problems == [
        f"characters.yaml:{line}:{spaces + 1}: YAML syntax error: 'flavor:' is indented {spaces} "
        f"space{'s' if spaces != 1 else ''}, which lines up with no key above it (those are at "
        f"2, as 'effect:' at line {line - 2}, and 6, as 'gain_vp:' at line {line - 1}) "
        f"(indent it by 2 spaces, like 'effect:' at line {line - 2})"], problems


def test_a_list_dash_without_its_space_is_named_with_the_fix(tmp_path):
    """``-id: vampire`` is a key to YAML, and PyYAML says only "expected <block end>, but found
    '?'" some lines on."""
    root = _edited(tmp_path, "grave-feast", "deck.yaml", ("- id: vampire\n", "-id: vampire\n"))
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert len(problems) == 1 and re.match(r"deck\.yaml:\d+:1: YAML syntax error: '-id: vampire' needs "
                                           r"a space after '-' to start a list item \(write '- id: "
                                           r"vampire'\)$", problems[0]), problems


def test_a_huge_number_is_shown_short(tmp_path):
    """A spreadsheet's 1e300 was echoed as 301 digits; YAML's whole numbers have no limit either."""
    root = _edited(tmp_path, "grave-feast", "deck.yaml", ("  kind: vampire\n  copies: 4\n",
                                                          "  kind: vampire\n  copies: " + "9" * 300 + "\n"))
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert any(p.endswith("copies must be at most 20, got a whole number of 300 digits")
               for p in problems), problems
    assert max(len(p) for p in problems) < 200


def test_a_whole_number_a_little_too_big_is_shown_as_typed(tmp_path):
    """1e+23 for 99999999999999999999999 reads as if a float had been typed."""
    root = _edited(tmp_path, "day-of-the-dead", "characters.yaml",
                   ("    - gain_vp: 3\n", "    - gain_vp: 99999999999999999999999\n"))
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert len(problems) == 1 and problems[0].endswith(
        "card 'hoard': effect step 1 gain_vp must be at most 20, got 99999999999999999999999"), problems
