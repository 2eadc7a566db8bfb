"""Golden playthroughs: seed -> transcript, diffed against files kept in tests/scenarios/golden/.

A change of rules behaviour shows up here as a readable diff. When the change is intended,
regenerate with ``BONEYARD_REGEN=1 .venv/bin/pytest tests/test_dotd_golden.py`` and review the diff.
The set is the one defined in test_dotd_rules.py, so tuning the bundled characters cannot move it.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from boneyard.engine.dotd import DotdGame
from boneyard.engine.dotd.greedy import GreedyAgent
from boneyard.engine.dotd.sets import make_card_set
from test_dotd_rules import CHARACTERS

GOLDEN = Path(__file__).parent / "scenarios" / "golden"
CASES = {
    "random-seed7": ({}, 7, "random"),
    "greedy-seed11": ({}, 11, "greedy"),
    "all-switches-seed3": (
        {"selection": "priority_first", "unearth_optional": False, "newcomer_uses_pending_effect": False,
         "conversion_window": "any_loser_this_turn",
         "prev_spirit_enters_as": "active", "new_spirit_applies": "next_turn", "dig_source": "fighter_back",
         "score_basis": "won_this_turn", "tie_break": "chain"}, 3, "random"),
}


def transcript(switches: dict, seed: int, agent: str) -> str:
    game = DotdGame(make_card_set(CHARACTERS, switches))
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    greedy = GreedyAgent(game)
    lines = [f"first priority: player {state.prio}"]
    turn = 0
    while not state.is_terminal():
        if state.turn != turn:
            turn = state.turn
            lines.append(f"-- turn {turn}, priority {state.prio}, scores {state.scores}")
        p = state.current_player()
        legal = state.legal_actions()
        a = greedy.choose(state.observation(p), rng) if agent == "greedy" else legal[rng.randrange(len(legal))]
        lines.append(f"p{p} {state.action_to_string(a)}")
        state.apply_action(a)
    js = state.to_json()
    for f in js["fights"]:
        lines.append(f"fight t{f['turn']} s{f['slot']} {f['cards'][0]} {f['power'][0]} - "
                     f"{f['power'][1]} {f['cards'][1]} won {f['won']}")
    lines.append(f"final scores {state.scores}, returns {state.returns()}")
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_transcript(name):
    text = transcript(*CASES[name])
    path = GOLDEN / f"dotd-{name}.txt"
    if os.environ.get("BONEYARD_REGEN") == "1":
        path.write_text(text)
    assert path.exists(), f"no golden file {path.name}: run with BONEYARD_REGEN=1 and review it"
    assert text == path.read_text()
