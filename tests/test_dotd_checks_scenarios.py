"""Characters a Day of the Dead scenario invents are checked as card files are.

A scenario with ``set:`` adds its ``characters:`` to the set's: an id or a name the set already
has would silently make a second card of it (``oaf@double`` then names either), and an effect
the validator refuses in characters.yaml (a condition that can never hold, a step that does
nothing) would be played without a word. Both are refused with one located message, through
``boneyard scenario`` and the play table alike.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from boneyard.engine.dotd.table import table
from boneyard.pipeline.cli import main
from boneyard.pipeline.load import load_set

from boneyard.errors import ScenarioError
from boneyard.paths import CARDS

HEAD = "set: day-of-the-dead\nturn: 1\nphase: deal\nend_turn: 1\n"


def bundled_line(text: str) -> int:
    """The line of the bundled characters.yaml that holds ``text``, once."""
    lines = (CARDS / "day-of-the-dead" / "characters.yaml").read_text(encoding="utf-8").splitlines()
    found = [n for n, line in enumerate(lines, 1) if line == text]
    assert len(found) == 1, (text, found)
    return found[0]


def play(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> tuple[int, str]:
    """``boneyard scenario`` on a file of ``text``: (exit code, stderr)."""
    f = tmp_path / "s.yaml"
    f.write_text(text, encoding="utf-8")
    try:
        main(["scenario", str(f)])
    except SystemExit as done:
        code = done.code
    else:
        code = 0
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return int(code or 0), err.replace(str(f), "s.yaml")


@pytest.mark.parametrize(("characters", "message"), [
    ("  - {id: oaf, name: Oaf, power: 1}\n",
     "s.yaml:6:10: characters[0].id: id 'oaf' is already in day-of-the-dead (characters.yaml:"
     f"{bundled_line('- id: oaf')}); give the invented card another id"),
    ("  - {id: big_oaf, name: oaf, power: 1}\n",
     "s.yaml:6:25: characters[0].name: name 'oaf' is already used by oaf in day-of-the-dead "
     f"(characters.yaml:{bundled_line('- id: oaf')}); give the invented card another name"),
    ("  - {id: zed, name: Zed, power: 1}\n  - {id: zoe, name: ZED, power: 2}\n",
     "s.yaml:7:21: characters[1].name: name 'ZED' is already used by the invented zed "
     "(characters[0]); give the invented card another name"),
    ("  - {id: zed, name: Zed, power: 1, effect: [{power: 2, when: {turn: 9}}]}\n",
     "s.yaml:6:69: characters[0].effect[0].when.turn: card 'zed': effect step 1: condition on "
     "the turn can never hold (the game has turns 1 to 6) (check the comparison)"),
    ("  - {id: zed, name: Zed, power: 1, effect: [{gain_vp: 0}]}\n",
     "s.yaml:6:55: characters[0].effect[0].gain_vp: card 'zed': effect step 1: gain_vp 0 does "
     "nothing (remove the step or give it an amount other than 0)"),
    ("  - {id: zed, name: Zed, power: 1, backs: [double, power_up],\n"
     "     effect: [{power: 2, when: {own_back: unearth}}]}\n",
     "s.yaml:7:43: characters[0].effect[0].when.own_back: card 'zed': effect step 1: this card "
     "is printed only on the double and power_up backs, so the condition on its own back can "
     "never hold (only a fighter on the unearth back copying its effect could meet it) (add "
     "unearth to its backs, or check the condition)"),
])
def test_an_invented_card_the_validator_would_refuse_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], characters: str, message: str) -> None:
    code, err = play(tmp_path, capsys, HEAD + "characters:\n" + characters)
    assert code == 1
    assert err.strip() == message


def test_the_scenario_s_own_turns_judge_its_invented_cards(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Turn 5 exists in the set's 6-turn game, not in the scenario's 4-turn one."""
    card = "  - {id: zed, name: Zed, power: 1, effect: [{power: 2, when: {turn: 5}}]}\n"
    code, _ = play(tmp_path, capsys, HEAD + "characters:\n" + card)
    assert code == 0
    code, err = play(tmp_path, capsys, HEAD + "params: {turns: 4}\ncharacters:\n" + card)
    assert code == 1
    assert "s.yaml:7:69: characters[0].effect[0].when.turn: card 'zed': effect step 1: " \
           "condition on the turn can never hold (the game has turns 1 to 4)" in err


def test_cards_invented_without_a_set_are_checked_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = ("characters:\n  - {id: amber, name: Amber, power: 4}\n"
            "  - {id: bones, name: Bones, power: 4, effect: [{auto_win: self}, {auto_lose: self}]}\n"
            "turn: 1\nphase: deal\n")
    code, err = play(tmp_path, capsys, text)
    assert code == 1
    assert err.strip() == (
        "s.yaml:3:79: characters[1].effect[1].auto_lose: card 'bones': effect steps 1 and 2: "
        "auto_win: self and auto_lose: self cancel each other out (ruling DD-12), so together "
        "they do nothing (remove one of them, or give them conditions that cannot hold at once)")


def test_sound_invented_cards_still_play(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    text = HEAD + "characters:\n  - {id: zed, name: Zed, power: 1, effect: [{gain_vp: 2}]}\n"
    code, err = play(tmp_path, capsys, text)
    assert (code, err) == (0, "")


def test_the_play_table_refuses_them_too() -> None:
    """``boneyard play --scenario`` builds its game through the table, not the CLI runner."""
    data = {"turn": 1, "phase": "deal", "characters": [{"id": "oaf", "name": "Big Oaf", "power": 1}]}
    with pytest.raises(ScenarioError) as refused:
        table().scenario(data, load_set("day-of-the-dead"), "s.yaml")
    assert str(refused.value) == ("s.yaml: characters[0].id: id 'oaf' is already in Day of the "
                                  "Dead; give the invented card another id")


def test_a_lead_is_judged_from_the_scores_the_scenario_starts_at() -> None:
    """No game of the set gets 1000 points apart, but a position written at 2000 to 0 is."""
    from boneyard.engine.dotd import DotdGame
    from boneyard.engine.dotd.cards import dotd_set
    from boneyard.engine.dotd.convert import character_from_dict
    from boneyard.engine.dotd.scenario import check_invented
    from boneyard.engine.dotd.sets import make_card_set

    zed = {"id": "zed", "name": "Zed", "power": 1,
           "effect": [{"power": 2, "when": {"score_diff": {"ge": 1000}}}]}
    base = dotd_set(load_set("day-of-the-dead"))
    game = DotdGame(make_card_set([*base.characters, character_from_dict(zed)],
                                  dict(base.switches), dict(base.params), base.name))
    data = {"set": "day-of-the-dead", "characters": [zed]}
    with pytest.raises(ScenarioError) as refused:
        check_invented(game, data, "s.yaml")
    assert str(refused.value).startswith(
        "s.yaml: characters[0].effect[0].when.score_diff: card 'zed': effect step 1: the scores "
        "are never more than 693 points apart in this set's game")
    check_invented(game, {**data, "scores": [2000, 0]}, "s.yaml")  # reachable from there
