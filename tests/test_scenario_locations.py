"""Issue 18 item 10 / issue 15 item 4: an engine's message about a value the scenario names (an
unknown switch, an unknown card) is located at that value, file:line:col, in both games."""

from __future__ import annotations

from pathlib import Path

import pytest
from boneyard.pipeline.cmd_scenario import run_scenario

from boneyard.errors import ScenarioError

FIGHT = Path(__file__).parent / "scenarios" / "rulebook-fight.yaml"


def test_day_of_the_dead_unknown_switch_and_card_are_located(tmp_path):
    text = FIGHT.read_text()
    f = tmp_path / "s.yaml"
    f.write_text(text.replace("\nturn: 1\n", "\nswitches: {no_such: true}\nturn: 1\n", 1))
    line = f.read_text().splitlines().index("switches: {no_such: true}") + 1
    with pytest.raises(ScenarioError, match=rf"s\.yaml:{line}:12: unknown switch 'no_such'"):
        run_scenario(f)
    f.write_text(text.replace("line: [oaf@double]", "line: [oafx@double]"))
    with pytest.raises(ScenarioError, match=r"s\.yaml:\d+:\d+: .*no card 'oafx@double'"):
        run_scenario(f)


def test_grave_feast_unknown_card_is_located(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text("game: grave-feast\nplayers:\n  - hand: [blood 3, exorcist]\n  - hand: [blood 4]\n")
    with pytest.raises(ScenarioError, match=r"s\.yaml:3:\d+: .*no card 'exorcist' in this set "
                                            r"\(the rares are in the deck only with params: "
                                            r"\{rares: true\}\)"):
        run_scenario(f)  # no rares in the deck: there is no Exorcist to place
    f.write_text("game: grave-feast\nplayers:\n  - hand: [blood 3]\n  - hand: [blod 4]\n")
    with pytest.raises(ScenarioError, match=r"s\.yaml:4:12: no card 'blod 4' in this set "
                                            r"\(did you mean 'blood 4'"):
        run_scenario(f)
