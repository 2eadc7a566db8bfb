"""A set with more physical cards than an engine can number is one located problem of validate,
simulate and build, never a traceback from deep in a game; a set just under the limit plays.

Grave Feast numbers the cards of a game (the regular deck once per deck, then the rares) in a
10-bit field of its action ints, 1023 kept for a Devil Wife's blind take: at most 1,023 cards.
Day of the Dead plays card n as action n and digs with actions 1000 + back: at most 1,000.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from boneyard.engine.dotd.checks import MAX_CARDS as DOTD_MAX
from boneyard.engine.dotd.codes import DECK_BASE
from boneyard.engine.gf.checks import MAX_CARDS as GF_MAX
from boneyard.engine.gf.constants import M10
from boneyard.pipeline.load import check_set
from test_validate import _edited, _relative

GF_DECK = 54  # the bundled Grave Feast deck (cards/grave-feast/deck.yaml)
DOTD_CHARACTERS = 36  # the bundled Day of the Dead characters, each on the 3 backs


def _vampires(root: Path, n: int, copies: int = 1) -> Path:
    """``root``'s deck.yaml with ``n`` vampires appended, each ``copies`` times."""
    deck = root / "deck.yaml"
    deck.write_text(deck.read_text(encoding="utf-8") + "".join(
        f"- id: v{i}\n  name: V{i}\n  kind: vampire\n  copies: {copies}\n" for i in range(n)),
        encoding="utf-8")
    return root


def _grave_feast(tmp_path: Path, n: int, copies: int = 1, *edits: tuple[str, str]) -> Path:
    return _vampires(_edited(tmp_path, "grave-feast", "game.yaml", *edits), n, copies)


def _day_of_the_dead(tmp_path: Path, n: int, per_back: int | str, one_back: int = 0) -> Path:
    """The bundled set with ``n`` more characters on every back and ``one_back`` more on the
    double back only, and ``cards_per_back`` written as ``per_back``."""
    root = _edited(tmp_path, "day-of-the-dead", "game.yaml",
                   ("cards_per_back: 36 ", f"cards_per_back: {per_back} "))
    chars = root / "characters.yaml"
    chars.write_text(chars.read_text(encoding="utf-8") + "".join(
        f"- id: extra{i}\n  name: Extra {i}\n  power: {i % 10}\n" for i in range(n)) + "".join(
        f"- id: lone{i}\n  name: Lone {i}\n  power: 4\n  backs: [double]\n" for i in range(one_back)),
        encoding="utf-8")
    return root


def test_the_limits_are_the_engines_own():
    assert GF_MAX == M10 == 1023  # card ids 0..1022: M10 itself is the blind take's "a random card"
    assert DOTD_MAX == DECK_BASE == 1000  # card ids 0..999: 1000 + back digs


def test_a_grave_feast_deck_too_large_for_two_decks_is_one_problem_at_the_card_that_passes(tmp_path):
    """600 more vampires: 654 cards a deck, two decks at 5-8 players (decks: auto) and with the
    bundled rares run: located at the entry that takes one deck past 510 ((1023 - 2) // 2)."""
    root = _grave_feast(tmp_path, 600)
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert len(problems) == 1, problems
    lines = (root / "deck.yaml").read_text(encoding="utf-8").splitlines()
    copies = lines.index("- id: v456") + 4  # its copies: line, 1-based
    assert re.match(rf"deck\.yaml:{copies}:11: card 'v456': the deck holds 654 cards: 1,310 a game with "
                    r"2 decks and the 2 rares \(playtest\.runs item 3 \(rares\) options; decks: auto "
                    r"with the rares\), but the engine deals at most 1,023 cards a game, 510 a deck: "
                    r"the deck passes 510 at this entry \(cut 144 cards from the deck, or play one "
                    r"deck \(decks: 1\)\)$", problems[0]), problems[0]


def test_players_decide_the_limit_only_through_the_decks_they_deal(tmp_path):
    """decks: auto plays two decks from 5 players: with at most 4 (and no rares run) the same
    deck is one deck of 654, well within the limit; at 5 players it is two, refused."""
    no_rares = ("    - {label: rares, players: 6, options: {rares: true}}   # two decks (decks: auto), "
                "as the rulebook says\n", "")
    four = _grave_feast(tmp_path / "four", 600, 1, ("players: {min: 2, max: 8}",
                                                    "players: {min: 2, max: 4}"), no_rares)
    assert not [p for p in check_set(four).problems if "the engine deals" in p.message]
    five = _grave_feast(tmp_path / "five", 600, 1, ("players: {min: 2, max: 8}",
                                                    "players: {min: 2, max: 5}"), no_rares)
    problems = [_relative(p, five) for p in check_set(five).problems
                if "the engine deals" in p.message]
    assert len(problems) == 1 and "1,308 a game with 2 decks (decks: auto at 5 players)" in problems[0]
    assert problems[0].endswith("(cut 143 cards from the deck, or play one deck (decks: 1, or "
                                "players max 4))"), problems[0]


def test_a_grave_feast_deck_too_large_for_one_deck_says_so_without_offering_one_deck(tmp_path):
    """25 vampires at copies: 20 and decks: 1: 554 cards fit one deck; 60 at copies: 20 do not."""
    root = _grave_feast(tmp_path, 60, 20, ("decks: auto ", "decks: 1    "))
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert len(problems) == 1, problems
    assert re.match(r"deck\.yaml:\d+:11: card 'v48': the deck holds 1,254 cards: 1,256 a game with 1 "
                    r"deck and the 2 rares \(playtest\.runs item 3 \(rares\) options\), but the engine "
                    r"deals at most 1,023 cards a game, 1,021 a deck: the deck passes 1,021 at this "
                    r"entry \(cut 233 cards from the deck\)$", problems[0]), problems[0]


def test_a_day_of_the_dead_set_too_large_is_one_problem_at_cards_per_back(tmp_path):
    root = _day_of_the_dead(tmp_path, 300, 336)
    problems = [_relative(p, root) for p in check_set(root).problems]
    assert problems == [
        "game.yaml:14:17: the set holds 1,008 cards (336 on each of the 3 backs), but the engine "
        "deals at most 1,000 cards a game (cut 8 cards: fewer characters, copies: or backs: on a "
        "character; 333 on each back fit)"], problems


@pytest.mark.parametrize("game", ["grave-feast", "day-of-the-dead"])
@pytest.mark.parametrize("command", [
    ("validate",),
    ("simulate", "-n", "20", "--jobs", "1", "-q"),
    ("build", "--fast", "--jobs", "1", "--no-render"),
])
def test_every_command_refuses_it_with_the_problem_and_no_traceback(tmp_path, run, game, command):
    if game == "grave-feast":
        root = _grave_feast(tmp_path, 25, 20)  # 554 cards a deck: 1,110 a game with two decks
        said = "deck.yaml:"
        more = ["--players", "6"] if command[0] == "simulate" else []
    else:
        root = _day_of_the_dead(tmp_path, 300, 336)
        said = "game.yaml:14:17: the set holds 1,008 cards"
        more = []
    out = tmp_path / "out"
    result = run(command[0], root, *command[1:], *more, *(["--out", out] if command[0] == "build" else []))
    assert result.exit_code == 1, result.output
    assert "Traceback" not in result.output, result.output
    problems = [line for line in result.stderr.splitlines() if "the engine deals at most" in line]
    assert len(problems) == 1 and said in problems[0], result.stderr
    if game == "grave-feast":
        assert "card 'v22': the deck holds 554 cards: 1,110 a game" in problems[0]
    assert not out.exists() or not any(out.rglob("*.png"))


def test_a_grave_feast_set_at_the_limit_plays(tmp_path, run):
    """Two decks of 510 and the 2 rares: 1,022 cards, the ids 0..1021; one more card a deck is
    refused (1,024)."""
    root = _grave_feast(tmp_path, 510 - GF_DECK)
    assert check_set(root).problems == []
    result = run("simulate", root, "-n", "5", "--jobs", "1", "--players", "6", "--rares", "-q",
                 "--check")
    assert result.exit_code == 0, result.output
    over = _grave_feast(tmp_path / "over", 511 - GF_DECK)
    problems = [p.message for p in check_set(over).problems]
    assert len(problems) == 1 and "1,024 a game" in problems[0], problems


def test_a_grave_feast_game_of_exactly_1023_cards_plays(tmp_path, run):
    """One deck of 1,021 and the 2 rares: card 1022, the last, is not the blind take's 1023."""
    root = _grave_feast(tmp_path, 1021 - GF_DECK, 1, ("decks: auto ", "decks: 1    "),
                        ("rares: false", "rares: true "))
    assert check_set(root).problems == []
    result = run("simulate", root, "-n", "5", "--jobs", "1", "--players", "6", "-q", "--check")
    assert result.exit_code == 0, result.output


def test_a_day_of_the_dead_set_of_exactly_1000_cards_plays(tmp_path, run):
    """334 + 333 + 333: card 999 is the last one, 1000 the dig from the double deck."""
    per_back = "{double: 334, power_up: 333, unearth: 333}"
    root = _day_of_the_dead(tmp_path, 333 - DOTD_CHARACTERS, per_back, one_back=1)
    assert check_set(root).problems == []
    result = run("simulate", root, "-n", "5", "--jobs", "1", "-q", "--check")
    assert result.exit_code == 0, result.output
    over = _day_of_the_dead(tmp_path / "over", 333 - DOTD_CHARACTERS,
                            "{double: 335, power_up: 333, unearth: 333}", one_back=2)
    problems = [_relative(p, over) for p in check_set(over).problems]
    assert problems == [
        "game.yaml:14:17: the set holds 1,001 cards (335 double, 333 power_up, 333 unearth), but "
        "the engine deals at most 1,000 cards a game (cut 1 card: fewer characters, copies: or "
        "backs: on a character; 333 on each back fit)"], problems


def test_copies_the_schema_refuses_are_its_problem_not_also_a_count(tmp_path):
    """copies: 21 on 60 vampires is 60 schema problems, not also a deck of 1,314 cards."""
    root = _grave_feast(tmp_path, 60, 21)
    problems = [p.message for p in check_set(root).problems]
    assert problems and all("copies must be at most 20, got 21" in m for m in problems), problems


def test_simulate_asking_for_more_decks_than_the_engine_numbers_is_one_message(tmp_path, run):
    """Validation sees game.yaml only: a set that fits one deck at 2-4 players is valid, but
    ``--decks 2`` or ``--rares`` (two decks with the rares) on the command line would pass the
    engine's limit. Said by the engine's rules, once, exit 1, with the way out."""
    root = _vampires(_edited(tmp_path, "grave-feast", "game.yaml",
                             ("players: {min: 2, max: 8}", "players: {min: 2, max: 4}")), 26, 20)
    game = root / "game.yaml"
    text = game.read_text(encoding="utf-8")
    game.write_text(text[:text.index("\nplaytest:") + 1], encoding="utf-8")  # its runs deal two
    assert check_set(root).ok
    for option, said in (("--decks", "1,148 cards (2 decks)"), ("--rares", "1,150 cards (2 decks and the rares)")):
        args = ["simulate", str(root), "-n", "2", "--jobs", "1", "--players", "2", option]
        result = run(*(args + ["2"] if option == "--decks" else args))
        assert result.exit_code == 1, result.output
        assert "Traceback" not in result.stderr
        lines = [line for line in result.stderr.splitlines() if "engine numbers at most 1,023" in line]
        assert len(lines) == 1 and said in lines[0] and "play one deck (--decks 1)" in lines[0]
