"""Grave Feast golden playthroughs: seed x players x rares -> transcript, diffed against files
kept in tests/golden/ (gf-*.txt).

A transcript records every decision (seat, packed action int, its text, how many moves were
legal), the engine's event log as it grows, the turn changes, and at the end the summary and
the whole position as JSON, so any change of rules behaviour, move order, action encoding,
narration or summary shows up as a readable diff. One case also determinizes the observation
and plays the sample out at every decision (clones, RNG forks, lazily seeded determinizations).

When a change is intended, regenerate with
``BONEYARD_REGEN=1 .venv/bin/python -m pytest tests/test_gf_golden.py`` and review the diff.
The card set is written out here (the bundled deck's counts), so tuning cards/grave-feast cannot
move the goldens.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from boneyard.engine.cards import freeze
from boneyard.engine.gf import FeastGame
from boneyard.engine.gf.cards import FeastCard, FeastCardSet
from boneyard.engine.gf.greedy import GreedyAgent

GOLDEN = Path(__file__).parent / "golden"


def golden_set() -> FeastCardSet:
    """36 humans (two of each number in each food), 4+4 eaters, 4 succubi, 6 preachers, and the
    two rares: the bundled deck, in the loader's face order."""
    cards = [FeastCard(id=f"{food}-{n}", name=f"{food.title()} {n}", kind="human", food=food,
                       number=n, copies=2)
             for food in ("blood", "brains") for n in range(1, 10)]
    for kind, copies in (("vampire", 4), ("zombie", 4), ("succubus", 4), ("preacher", 6)):
        cards.append(FeastCard(id=kind, name=kind.title(), kind=kind, copies=copies))
    rares = (FeastCard(id="devil_wife", name="Devil Wife", kind="devil_wife", rare=True),
             FeastCard(id="exorcist", name="Exorcist", kind="exorcist", rare=True))
    return FeastCardSet(name="golden feast", slug="golden-feast", rules="grave-feast", params=freeze({}),
                   switches=freeze({}), content_hash="", feast_cards=tuple(cards), rares=rares)


#: Every switch away from its default, in two groups (the regular game's and the rares').
SWITCHES_A: dict[str, Any] = {
    "must_act": False, "strict_one_card_extension": True, "max_eaters_per_family": 2,
    "join_two_fed": "discard_extra_eater", "phrase_error_rate": 0.15, "callout_rate": 0.5,
    "graveyard_any_time": False, "instants_use_action": True, "instants_from_mash": False,
    "turn_start_window": False, "preacher_after_announce": False,
    "succubus_window_fresh_attach": False, "succubus_window_preattached": True,
    "race_model": "probabilistic", "race_p": 0.4, "recycle": "flip_then_shuffle_corpses",
    "out_of_turn_completion": True,
}  # fmt: skip
SWITCHES_B: dict[str, Any] = {
    "coin_p_heads": 0.3, "exorcist_hits_preachers": True, "exorcist_broken_family": "split_singletons",
    "maelstrom_scope": "opponents_only", "single_succubus_vs_exorcist": "return_to_hand",
    "dw_family_take": "any_and_split", "out_of_turn_completion": True, "phrase_error_rate": 0.1,
}  # fmt: skip

#: The readings issue 15 made the defaults, back at their former values: the seeds picked for
#: the rarest paths below were found under them, and keep those paths only with them.
FORMER: dict[str, Any] = {
    "graveyard_ends_turn": False, "instants_use_action": False, "preacher_own_eaters": False,
    "exorcist_hits_preachers": False, "maelstrom_vs_exorcist_attack": False,
    "evil_preacher_vs_devil_wife": False,
}  # fmt: skip

#: name -> (players, rares, seed, agent, options)
CASES: dict[str, tuple[int, bool, int, str, dict[str, Any]]] = {
    "2p-random-seed1": (2, False, 1, "random", {}),
    "2p-greedy-seed2": (2, False, 2, "greedy", {}),
    "3p-greedy-rares-seed3": (3, True, 3, "greedy", {}),
    "4p-random-seed4": (4, False, 4, "random", {}),
    "4p-greedy-seed5": (4, False, 5, "greedy", {}),
    "4p-random-rares-seed6": (4, True, 6, "random", {}),
    "4p-greedy-rares-seed7": (4, True, 7, "greedy", {}),
    "5p-greedy-seed9": (5, False, 9, "greedy", {}),
    "6p-random-rares-seed8": (6, True, 8, "random", {}),
    "3p-random-switches-seed10": (3, False, 10, "random", SWITCHES_A),
    "4p-greedy-switches-seed13": (4, False, 13, "greedy", SWITCHES_A),
    "4p-random-rares-switches-seed11": (4, True, 11, "random", SWITCHES_B),
    "5p-greedy-rares-switches-seed14": (5, True, 14, "greedy", SWITCHES_B),
    "3p-determinize-rares-seed12": (3, True, 12, "determinize", {}),
    # seeds picked for the rarest paths: a lost race, a trim after a Devil Wife survived two
    # preachers, an Exorcist's self-loathing, the GF-27 explosion, an Exorcist hiding
    "4p-random-rares-race-seed101": (4, True, 101, "random",
                                     {**FORMER, "race_model": "probabilistic", "race_p": 0.3}),
    "4p-random-rares-seed106": (4, True, 106, "random", FORMER),
    "4p-random-rares-seed110": (4, True, 110, "random", FORMER),
    "4p-random-rares-seed1025": (4, True, 1025, "random", FORMER),
    "4p-random-rares-seed176": (4, True, 176, "random", FORMER),
}


def _rollout(state: Any, rng: random.Random) -> list[float]:
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(legal[rng.randrange(len(legal))])
    return state.returns()


def transcript(players: int, rares: bool, seed: int, agent: str, options: dict[str, Any]) -> str:
    game = FeastGame(golden_set(), num_players=players, rares=rares, **options)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    greedy = GreedyAgent(game)
    lines = [f"{game!r}, decks {game.decks}, rares {game.rares}, seed {seed}, agent {agent}",
             f"first player: P{state.tp + 1}",
             "hands: " + " | ".join(" ".join(state.card_name(c) for c in h) for h in state.hands)]
    seen = 0
    turn = -1
    while not state.is_terminal():
        for event in state.log[seen:]:
            lines.append(f"  . {event}")
        seen = len(state.log)
        if state.turn != turn:
            turn = state.turn
            lines.append(f"-- turn {turn}, P{state.tp + 1}, scores {state.score}")
        p = state.current_player()
        legal = state.legal_actions()
        obs = state.observation(p)
        assert obs.legal_actions() == legal
        a = greedy.choose(obs, rng) if agent == "greedy" else legal[rng.randrange(len(legal))]
        if agent == "determinize":
            sample = obs.determinize(rng)
            lines.append(f"  ? sample {_rollout(sample, rng)}")
        lines.append(f"P{p + 1} [{len(legal)}] {a} {state.action_to_string(a)}")
        state.apply_action(a)
    for event in state.log[seen:]:
        lines.append(f"  . {event}")
    lines.append(f"final scores {state.score}, returns {state.returns()}")
    lines.append("summary " + json.dumps(state.summary().to_json()))
    lines.append("state " + json.dumps(state.to_json()))
    lines.append("observation " + json.dumps(state.observation(0).to_json()))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_transcript(name: str) -> None:
    text = transcript(*CASES[name])
    path = GOLDEN / f"gf-{name}.txt"
    if os.environ.get("BONEYARD_REGEN") == "1":
        path.write_text(text)
    assert path.exists(), f"no golden file {path.name}: run with BONEYARD_REGEN=1 and review it"
    assert text == path.read_text()


def test_golden_set_is_the_bundled_deck() -> None:
    """The written-out set deals the same cards as cards/grave-feast (so the goldens cover the
    deck players use), though it is kept apart from it."""
    from test_gf_support import feast_set

    for rares in (False, True):
        ours = FeastGame(golden_set(), num_players=4, rares=rares)
        bundled = FeastGame(feast_set(), num_players=4, rares=rares)
        assert ours.names == bundled.names and ours.kind == bundled.kind
