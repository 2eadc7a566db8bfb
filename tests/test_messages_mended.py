"""Messages an audit found misleading, each now one clear message saying what is wrong and how to
fix it, located where it can be, with the right exit code and no traceback:

1. a Grave Feast deal too short for its hands hinted "use two decks" when it already had two;
2. ``diff --against`` an existing folder that is no set spoke of git revisions;
3. ``new gf0 --like gf0`` said the copy was inside the set, not that gf0 already exists;
4. an address from BONEYARD_SCHEDULER was blamed on a ``--scheduler`` never given;
5. a replay log's bad option value gave the engine's "bool or None object expected; got str";
6. scenarios took impossible scores silently (below 0, at or over Grave Feast's win_score,
   beyond what a Day of the Dead game can score).
"""

from __future__ import annotations

import json
import re
import shutil
import socket
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "cards"


def _copy(tmp_path: Path, game: str, name: str | None = None) -> Path:
    dest = tmp_path / (name or game)
    shutil.copytree(CARDS / game, dest)
    return dest


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert re.search(old, text, re.M), old
    path.write_text(re.sub(old, new, text, count=1, flags=re.M))


def _clean(r) -> None:
    assert "Traceback" not in r.output, r.output


# --- 1. a deal too short for its hands ---------------------------------------------------------


def test_a_short_deal_with_two_decks_does_not_hint_two_decks(run, tmp_path):
    """8 players of hand_size 20 from two decks of 54: "108 cards cannot deal ... use two decks"
    suggested what was already the case."""
    gf = _copy(tmp_path, "grave-feast")
    _edit(gf / "game.yaml", r"^  hand_size: \d+", "  hand_size: 20")
    r = run("validate", gf)
    _clean(r)
    assert r.exit_code == 1, r.output
    m = re.search(r"game\.yaml:(\d+):\d+: (\d+) cards \(2 decks of (\d+)\) cannot deal 20 to each "
                  r"of 8 players \(add cards or lower hand_size to (\d+)\)", r.output)
    assert m, r.output
    assert int(m[1]) == next(i for i, t in enumerate((gf / "game.yaml").read_text().splitlines(), 1)
                             if t.startswith("  hand_size:"))
    total, deck, fit = int(m[2]), int(m[3]), int(m[4])
    assert total == 2 * deck and fit == total // 8
    assert "two decks" not in r.output


def test_a_short_deal_with_the_rares_counts_their_decks_and_cards(run, tmp_path):
    """decks: auto plays two decks with the rares (GF-01), and the rares are dealt too."""
    gf = _copy(tmp_path, "grave-feast")
    _edit(gf / "game.yaml", r"^  hand_size: \d+", "  hand_size: 20")
    _edit(gf / "game.yaml", r"^  rares: false", "  rares: true")
    r = run("validate", gf)
    _clean(r)
    assert r.exit_code == 1
    assert re.search(r"\d+ cards \(2 decks of \d+ and the 2 rares\) cannot deal 20 to each of 8 "
                     r"players \(add cards or lower hand_size to \d+\)", r.output), r.output


def test_a_short_deal_of_one_deck_hints_two_decks_only_when_they_would_deal(run, tmp_path):
    gf = _copy(tmp_path, "grave-feast")
    _edit(gf / "game.yaml", r"^  decks: auto", "  decks: 1")
    _edit(gf / "game.yaml", r"^  hand_size: \d+", "  hand_size: 12")  # two decks of 54 deal 96
    r = run("validate", gf)
    assert r.exit_code == 1 and "(add cards, use two decks or lower hand_size)" in r.output, r.output
    _edit(gf / "game.yaml", r"^  hand_size: \d+", "  hand_size: 20")  # two decks would not
    r = run("validate", gf)
    assert r.exit_code == 1 and "two decks" not in r.output, r.output
    assert re.search(r"cannot deal 20 to each of 8 players \(add cards or lower hand_size to \d+\)",
                     r.output), r.output


# --- 2. diff against a folder that is no set ---------------------------------------------------


def test_diff_against_a_folder_that_is_no_set_says_so(run, tmp_path):
    gf = _copy(tmp_path, "grave-feast")
    empty = tmp_path / "empty"
    empty.mkdir()
    r = run("diff", gf, "--against", empty, "--games", 1, "--jobs", 1)
    _clean(r)
    assert r.exit_code == 1, r.output
    assert f"--against {empty}: {empty} is not a card set (the folder has no game.yaml)" in r.output
    assert "git" not in r.output.split("not a card set")[1].split(";")[0]
    assert "is not in a git repository" not in r.output and "no revision" not in r.output


def test_diff_against_a_folder_of_sets_names_the_ones_to_give(run, tmp_path):
    gf = _copy(tmp_path, "grave-feast")
    sets = tmp_path / "sets"
    sets.mkdir()
    _copy(sets, "grave-feast")
    _copy(sets, "day-of-the-dead")  # another game: not offered
    r = run("diff", gf, "--against", sets, "--games", 1, "--jobs", 1)
    _clean(r)
    assert r.exit_code == 1
    assert (f"{sets} is not a card set (the folder has no game.yaml); it holds the set "
            f"grave-feast: give one, e.g. --against {sets / 'grave-feast'}") in r.output, r.output


def test_diff_against_a_folder_in_the_sets_git_repository_is_not_called_a_revision(run):
    """Inside a repository a folder went on to ``git rev-parse`` and was "not a git revision"."""
    docs = ROOT / "docs"
    r = run("diff", CARDS / "grave-feast", "--against", docs, "--games", 1, "--jobs", 1)
    _clean(r)
    assert r.exit_code == 1
    assert f"{docs} is not a card set" in r.output and "revision" not in r.output.split(";")[0]


# --- 3. new over an existing folder ------------------------------------------------------------


def test_new_over_the_set_it_copies_says_it_already_exists(run, tmp_path):
    gf0 = _copy(tmp_path, "grave-feast", "gf0")
    before = sorted(p.name for p in gf0.iterdir())
    r = run("new", gf0, "--like", gf0)
    _clean(r)
    assert r.exit_code == 2, r.output
    assert f"{gf0} already exists: it is the set --like copies; boneyard new never overwrites " \
           "(give the copy another name)" in r.output
    assert "inside the set" not in r.output
    assert sorted(p.name for p in gf0.iterdir()) == before


def test_new_over_an_existing_folder_inside_the_set_says_it_already_exists(run, tmp_path):
    gf0 = _copy(tmp_path, "grave-feast", "gf0")
    (gf0 / "art").mkdir(exist_ok=True)
    r = run("new", gf0 / "art", "--like", gf0)
    assert r.exit_code == 2 and "already exists" in r.output and "inside" not in r.output, r.output
    r = run("new", gf0 / "inner", "--like", gf0)  # a new folder inside: that is the problem
    assert r.exit_code == 2 and "is inside the set it copies" in r.output, r.output


# --- 4. the scheduler's address from the environment -------------------------------------------


def _refused_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = int(s.getsockname()[1])
    s.close()
    return port


def test_a_bad_scheduler_from_the_environment_names_the_variable(run, monkeypatch):
    monkeypatch.setenv("BONEYARD_SCHEDULER", "udp://x:1")
    r = run("simulate", "grave-feast", "-n", 5, "-q")
    _clean(r)
    assert r.exit_code == 1
    assert r.output.strip() == ("BONEYARD_SCHEDULER=udp://x:1: only tcp://HOST:PORT addresses are "
                                "supported (got scheme 'udp'); set it to tcp://HOST:PORT, or unset "
                                "BONEYARD_SCHEDULER to run on this machine")


def test_an_unreachable_scheduler_from_the_environment_names_the_variable(run, monkeypatch):
    address = f"tcp://127.0.0.1:{_refused_port()}"
    monkeypatch.setenv("BONEYARD_SCHEDULER", address)
    r = run("simulate", "grave-feast", "-n", 5, "-q")
    _clean(r)
    assert r.exit_code == 1
    assert f"cannot reach the Dask scheduler that BONEYARD_SCHEDULER names, at {address} (" in r.output
    assert r.output.rstrip().endswith("or unset BONEYARD_SCHEDULER to run on this machine")
    assert "--scheduler" not in r.output


def test_a_scheduler_given_as_the_option_is_still_named_as_the_option(run, monkeypatch):
    monkeypatch.delenv("BONEYARD_SCHEDULER", raising=False)
    address = f"tcp://127.0.0.1:{_refused_port()}"
    r = run("simulate", "grave-feast", "-n", 5, "-q", "--scheduler", address)
    assert r.exit_code == 1 and r.output.rstrip().endswith("or drop --scheduler"), r.output
    assert "BONEYARD_SCHEDULER" not in r.output
    # the option wins over the variable, and its message names the option
    monkeypatch.setenv("BONEYARD_SCHEDULER", "garbage")
    r = run("simulate", "grave-feast", "-n", 5, "-q", "--scheduler", "udp://x:1")
    assert r.exit_code == 1 and "--scheduler (or BONEYARD_SCHEDULER) udp://x:1: only" in r.output


# --- 5. a replay log's option values -----------------------------------------------------------


@pytest.fixture
def gf_log(run, tmp_path):
    gf = _copy(tmp_path, "grave-feast")
    log = tmp_path / "g.jsonl"
    r = run("simulate", gf, "-n", 2, "--log", log, "--jobs", 1, "-q")
    assert r.exit_code == 0, r.output
    return gf, log


def _with_options(log: Path, options: object) -> None:
    lines = log.read_text().splitlines()
    rec = json.loads(lines[0])
    rec["options"] = options
    lines[0] = json.dumps(rec)
    log.write_text("\n".join(lines) + "\n")


@pytest.mark.parametrize("options, said", [
    ({"rares": "maybe"}, "the log's options.rares is \"maybe\", but it must be true or false "
                         "(as --rares gives it)"),
    ({"decks": 3}, "the log's options.decks is 3, but it must be 1 or 2 (as --decks gives it)"),
    ({"decks": True}, "the log's options.decks is true, but it must be 1 or 2"),
    ({"wild": 1}, "the log's options name 'wild', which Grave Feast does not take (its options "
                  "are rares, decks)"),
])
def test_a_log_option_of_a_bad_value_is_named_with_what_it_must_be(run, gf_log, options, said):
    gf, log = gf_log
    _with_options(log, options)
    r = run("replay", log, "--set", gf)
    _clean(r)
    assert r.exit_code == 1, r.output
    assert f"{log}:1: game 0: {said}" in r.output, r.output
    assert "the line was edited: use the line as simulate --log wrote it" in r.output
    assert "object expected" not in r.output and "is not legal" not in r.output


def test_a_log_option_of_the_games_default_still_replays(run, gf_log):
    gf, log = gf_log
    _with_options(log, {"rares": None})
    r = run("replay", log, "--set", gf)
    assert r.exit_code == 0 and "replay ok: game 0" in r.output, r.output


# --- 6. impossible scores in scenarios ---------------------------------------------------------


GF = """game: grave-feast
players:
  - hand: [blood 9, brains 9, zombie]
    score: {a}
  - hand: [brains 8, blood 8]
    score: {b}
"""


def _scenario(tmp_path: Path, text: str) -> Path:
    f = tmp_path / "s.yaml"
    f.write_text(text)
    return f


def test_a_negative_grave_feast_score_without_the_rares_is_refused_at_it(run, tmp_path):
    f = _scenario(tmp_path, GF.format(a=-3, b=0))
    r = run("scenario", f)
    _clean(r)
    assert r.exit_code == 1
    assert r.output.strip() == (
        f"{f}:4:12: players[0].score: -3 is below 0, which no game without the rares reaches: "
        "only their spiritual explosion lowers a score (GF-27) (write 0 or more, or turn the "
        "rares on with params.rares: true)")


def test_a_negative_grave_feast_score_with_the_rares_is_a_position(run, tmp_path):
    f = _scenario(tmp_path, "params: {rares: true}\n" + GF.format(a=-3, b=0))
    r = run("scenario", f)
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["state"]["players"][0]["score"] == -3
    assert "warning" not in r.stderr


@pytest.mark.parametrize("score", [9, 500])
def test_a_grave_feast_score_at_the_win_score_is_warned_about_at_it(run, tmp_path, score):
    """The game is already won (GF-15): played all the same, as the other positions the rules
    cannot reach are, and said at the score."""
    f = _scenario(tmp_path, GF.format(a=0, b=score))
    r = run("scenario", f)
    _clean(r)
    assert r.exit_code == 0, r.output
    assert r.stderr.strip() == (
        f"warning: {f}:6:12: players[1].score: {score} is at or above win_score 9, which wins at "
        "once (GF-15), so this game would be over; it is played on, and the player wins at "
        "their next feast (write at most 8, or raise params.win_score) (a position the rules "
        "cannot reach)")
    r = run("scenario", _scenario(tmp_path, "params: {win_score: 12}\n" + GF.format(a=0, b=9)))
    assert r.exit_code == 0 and "warning" not in r.stderr, r.output


DOTD = """set: day-of-the-dead
turn: 1
phase: reveal
end_turn: 1
priority: 1
scores: [{a}, {b}]
players:
  - line: [oaf@double]
    spirit: anger@power_up
  - line: [zombie_giant@power_up]
    spirit: anger@unearth
actions: ["player 1: no", "player 1: no"]
"""


def test_a_negative_day_of_the_dead_score_no_card_can_make_is_refused_at_it(run, tmp_path):
    f = _scenario(tmp_path, DOTD.format(a=-5, b=1000))
    r = run("scenario", f)
    _clean(r)
    assert r.exit_code == 1
    assert r.output.strip() == (
        f"{f}:6:10: scores[0]: -5 is below 0, which no game of this set reaches: only a card "
        "that takes points away (gain_vp with a negative amount, DD-20) lowers a score, and none "
        "does (write 0 or more)")


def test_a_day_of_the_dead_score_beyond_a_whole_game_is_warned_about_at_it(run, tmp_path):
    f = _scenario(tmp_path, DOTD.format(a=0, b=1000))
    r = run("scenario", f)
    _clean(r)
    assert r.exit_code == 0, r.output
    assert re.search(rf"warning: {re.escape(str(f))}:6:13: scores\[1\]: 1000 is more points than "
                     r"a whole game can move a score \(at most \d+: \d+ turns' Rewards score at "
                     r"most .*\) \(a position the rules cannot reach\)", r.stderr), r.stderr


def test_a_negative_day_of_the_dead_score_is_a_position_when_a_card_takes_points(run, tmp_path):
    f = _scenario(tmp_path, """characters:
  - {id: oaf, name: Oaf, power: 7, copies: 2}
  - {id: leech, name: Leech, power: 3, effect: [{gain_vp: {amount: -2, who: opponent}}]}
turn: 1
phase: reveal
end_turn: 1
priority: 0
scores: [-2, 0]
players:
  - line: [oaf@double#2]
    spirit: oaf@power_up#1
  - line: [oaf@double#1]
    spirit: oaf@unearth
actions: ["player 1: no", "player 1: no"]
""")
    r = run("scenario", f)
    _clean(r)
    assert r.exit_code == 0, r.output
    assert "below 0" not in r.output
