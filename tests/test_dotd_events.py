"""Day of the Dead transcript events: what a designer reads under each choice of a replayed game."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml
from boneyard.engine.dotd import DotdGame
from boneyard.engine.dotd.convert import character_from_dict
from boneyard.engine.dotd.scenario import play_scenario
from boneyard.engine.dotd.sets import make_card_set
from boneyard.engine.sim import replay, simulate, transcript
from boneyard.pipeline.load import load_set

SCENARIOS = Path(__file__).parent / "scenarios"


def scenario_game(name: str) -> tuple[DotdGame, dict]:
    data = yaml.safe_load((SCENARIOS / name).read_text())
    chars = [character_from_dict(c) for c in data["characters"]]
    return DotdGame(make_card_set(chars, name="scenario")), data


def test_rulebook_fight_event_shows_both_totals_and_the_breakdown():
    game, data = scenario_game("rulebook-fight.yaml")
    game.record_events = True
    state, _ = play_scenario(game, data)
    ev = state.events
    assert (
        "fight slot 1: player 1's Oaf 9 = 7 +2 Power Up vs player 2's Anger 13 = 3 +10 effects: "
        "player 2 wins, player 1's fighter falls"
    ) in ev
    assert any(e.startswith("player 1 converts Oaf (7) on Double (slot 1) into the spirit") for e in ev)
    assert any(e.startswith("player 2 uses Anger (3) on Unearth's effect") for e in ev)
    assert "scores after turn 1: player 1 0 (+0), player 2 3 (+3); priority passes to player 2" in ev
    assert ev[-1] == "game over: 0 to 3, player 2 wins"


def test_events_are_off_by_default_and_change_nothing():
    game, data = scenario_game("rulebook-fight.yaml")
    plain, _ = play_scenario(game, data)
    assert plain.events is None  # the playout path keeps no log
    game.record_events = True
    logged, _ = play_scenario(game, data)
    assert logged.to_json() == plain.to_json() and logged.history == plain.history
    assert "events" not in json.dumps(logged.to_json())
    obs = logged.observation(0)
    assert not any(getattr(obs, k, None) is logged.events for k in getattr(obs, "__slots__", ()))


def test_replayed_seeded_game_reads_turn_by_turn(tmp_path):
    card_set = load_set("day-of-the-dead")
    log = tmp_path / "games.jsonl"
    simulate(card_set, ["random", "greedy"], 2, seed=13, log=log)
    rec = json.loads(log.read_text().splitlines()[0])
    text = transcript(card_set, rec)
    turns = [t for t in text if t.strip().startswith("turn ") and "holds priority" in t]
    assert len(turns) == 6
    fights = [t for t in text if t.strip().startswith("fight slot ")]
    assert fights and all(re.search(r"'s .+ -?\d+ = .+ vs player 2's .+ -?\d+ = ", f) for f in fights)
    assert sum("scores after turn" in t for t in text) == 6
    assert any(t.strip().startswith("game over:") for t in text)
    # the transcript turns logging on for its own replay only; the same game replays plainly after
    from boneyard.engine.games import make_game

    g = make_game(card_set)
    transcript(g, rec)
    assert g.record_events is False and replay(g, rec).events is None


def test_a_victory_point_loss_reads_as_a_loss():
    """A card printed 'Lose 1 victory point' was narrated 'player 1 gains -1 VP'."""
    data = yaml.safe_load("""
characters:
  - {id: miser, name: Miser, power: 5, effect: [{gain_vp: -1}]}
  - {id: oaf, name: Oaf, power: 7}
  - {id: dud, name: Dud, power: 1, copies: 2}
turn: 1
phase: reveal
end_turn: 1
priority: 0
players:
  - {line: [miser@double], spirit: dud@unearth#1}
  - {line: [oaf@double], spirit: dud@power_up#2}
actions: ["no"]
""")
    game = DotdGame(make_card_set([character_from_dict(c) for c in data["characters"]], name="t"))
    game.record_events = True
    state, _ = play_scenario(game, data)
    assert "player 1 loses 1 VP" in state.events
    assert not any("gains -" in e for e in state.events)
