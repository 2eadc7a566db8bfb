"""The gate agents: card-generic (invented cards play), reproducible, skilled, and in Grave
Feast a player of every rare (coin flips, permanent Devil Wife, Exorcist in the mash)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from boneyard.engine.agents import make_agent
from boneyard.engine.dotd.convert import character_from_dict
from boneyard.engine.dotd.sets import make_card_set
from boneyard.engine.games import make_game
from boneyard.pipeline.load import load_set

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from gate_eval import win_share


def _invented_characters() -> list[Any]:
    """Twelve characters no bundled set has: new ids, names, powers and effect mixes."""
    rng = random.Random(12)
    effects = [
        [], [{"power": 4}], [{"gain_vp": 2}], [{"auto_win": "self"}],
        [{"power": {"amount": 1, "per": "own_active"}}], [{"dig": 1}, {"power": 2}],
        [{"unearth": "self"}], [{"set_power": {"who": "opponent", "amount": 1}}],
        [{"win_ties": "self"}, {"power": 1}], [{"gain_vp": -1}, {"power": 6}],
        [{"copy_effect": "opposing"}], [{"negate": {}}, {"power": 3}],
    ]
    return [character_from_dict({"id": f"made_up_{i}", "name": f"Made Up {i}",
                                 "power": rng.randint(0, 9), "effect": e, "copies": 1})
            for i, e in enumerate(effects)]


def _play(game: Any, agents: list[Any], seed: int) -> tuple[list[int], list[float]]:
    state = game.new_initial_state(seed)
    rngs = [random.Random(seed * 10 + k) for k in range(len(agents))]
    actions = []
    while not state.is_terminal():
        p = state.current_player()
        a = agents[p].choose(state.observation(p), rngs[p])
        actions.append(a)
        state.apply_action(a)
    return actions, state.returns()


def test_dotd_gate_plays_invented_characters_its_own_way():
    game = make_game(make_card_set(_invented_characters(), name="invented"))
    gate, greedy = make_agent("gate", game), make_agent("greedy", game)
    differs = 0
    for seed in range(40):
        moves, returns = _play(game, [gate, greedy], seed)
        assert sum(returns) == 1.0
        assert _play(game, [gate, greedy], seed)[0] == moves  # same seed, same game
        differs += moves != _play(game, [greedy, greedy], seed)[0]
    assert differs >= 20, "the fitted model should change greedy's choices on invented cards too"


def test_dotd_gate_beats_greedy():
    game = make_game(load_set("day-of-the-dead"))
    share, half = win_share(game, make_agent("gate", game), "greedy", 400, seed=3)
    assert share - half > 0.5, (share, half)


def test_gf_gate_uses_the_rares_and_flips_coins():
    game = make_game(load_set("grave-feast"), num_players=2, rares=True)
    gate = make_agent("gate", game)
    placed = flips = 0
    for seed in range(40):
        state = game.new_initial_state(seed)
        rngs = [random.Random(seed * 10 + k) for k in range(2)]
        while not state.is_terminal():
            p = state.current_player()
            state.apply_action(gate.choose(state.observation(p), rngs[p]))
        summary = state.summary()
        flips += summary.coin_flips or 0
        placed += (summary.rare_events or {}).get("dw_placed", 0)
    assert flips >= 40 and placed >= 5, (flips, placed)


def test_gf_gate_finishes_its_attacks_on_rares_at_four_players():
    """Two succubi take an Exorcist from a mash and two preachers attack a permanent Devil Wife:
    the gate opens such an attack only holding both cards and joins attacks on a rival's rare,
    so hiding, seduction and the Devil Wife's death happen in a 4-player build."""
    game = make_game(load_set("grave-feast"), num_players=4, rares=True)
    gate = make_agent("gate", game)
    events: dict[str, int] = {}
    for seed in range(40):
        state = game.new_initial_state(seed)
        rngs = [random.Random(seed * 10 + k) for k in range(4)]
        while not state.is_terminal():
            p = state.current_player()
            state.apply_action(gate.choose(state.observation(p), rngs[p]))
        for k, v in (state.summary().rare_events or {}).items():
            events[k] = events.get(k, 0) + v
    exorcist = events.get("exorcist_hid", 0) + events.get("exorcist_seduced", 0)
    assert exorcist >= 5 and events.get("dw_killed", 0) >= 5, events
    assert events.get("rare_attacks_fizzled", 0) < exorcist + events.get("dw_killed", 0), events


_SAME_PLAY = """
import hashlib, json, random, sys
sys.path.insert(0, {tests!r})
from boneyard.engine.agents import make_agent
from boneyard.engine.dotd import DotdGame
from boneyard.engine.dotd.sets import make_card_set
from test_dotd_rules import CHARACTERS
out = {{}}
for name, switches in (("default", {{}}), ("priority_first", {{"selection": "priority_first",
        "unearth_optional": False, "conversion_window": "any_loser_this_turn"}})):
    game = DotdGame(make_card_set(CHARACTERS, switches))
    h = hashlib.sha256()
    for seed in range(4):
        agents = [make_agent("gate", game), make_agent("mcts:8", game)][::1 - 2 * (seed % 2)]
        state = game.new_initial_state(seed)
        rngs = [random.Random(seed * 10 + k) for k in range(2)]
        while not state.is_terminal():
            p = state.current_player()
            a = agents[p].choose(state.observation(p), rngs[p])
            h.update(str(a).encode() + b",")
            state.apply_action(a)
    out[name] = h.hexdigest()
import boneyard.engine.dotd as dotd
print(json.dumps({{"compiled": dotd.COMPILED, "games": out}}))
"""


def test_dotd_search_agents_play_the_same_games_compiled_and_pure():
    """The gate's playouts and every search agent's deals (gate_playout.py, sample.py) are
    compiled with the engine: the binaries must play exactly the games pure Python plays."""
    script = _SAME_PLAY.format(tests=str(Path(__file__).resolve().parent))
    env = {k: v for k, v in os.environ.items() if k != "BONEYARD_PURE"}
    runs = [json.loads(subprocess.run([sys.executable, "-c", script], env=e, capture_output=True,
                                      text=True, check=True, timeout=300).stdout)
            for e in (env, {**env, "BONEYARD_PURE": "1"})]
    if not runs[0]["compiled"]:
        pytest.skip("the engine is not compiled here (no C compiler, or BONEYARD_PURE at install)")
    assert not runs[1]["compiled"]
    assert runs[0]["games"] == runs[1]["games"]


def test_dotd_hindsight_plays_its_own_unearths_and_conversions_best():
    """In a sampled deal the gate plays its own Unearths and conversions every way and keeps the
    best: never worse than the random playout of the same luck (which is one of the ways), and
    strictly better somewhere; 0 deep, it is that random playout."""
    from boneyard.engine.dotd.gate_playout import action_values, hindsight_values

    game = make_game(load_set("day-of-the-dead"))
    greedy = make_agent("greedy", game)
    better = compared = 0
    for seed in range(30):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal() and state.turn < game.turns:
            p = state.current_player()
            obs = state.observation(p)
            legal = obs.legal_actions()
            if len(legal) > 1:
                world = obs.determinize(rng)
                luck = [rng.random() for _ in range(16)]
                plain = action_values(world, legal, luck, p, 1000.0)
                at_random = hindsight_values(world, legal, luck, p, 1000.0, 0)
                if state.turn < game.turns - 1:  # (a lost game is worth its margin to the new leaf)
                    assert at_random == plain
                deep = hindsight_values(world, legal, luck, p, 1000.0, 2)
                shallow = hindsight_values(world, legal, luck, p, 1000.0, 1)
                assert all(d >= s - 1e-9 for d, s in zip(deep, shallow, strict=True))
                assert all(s >= r - 1e-9 for s, r in zip(shallow, at_random, strict=True))
                compared += 1
                better += deep != at_random
            state.apply_action(greedy.choose(obs, rng))
    assert compared > 500 and better > compared // 10, (compared, better)


def test_dotd_gate_race_drops_only_the_actions_clearly_behind():
    """With ``prune`` the lookahead stops playing out an action once the leader is clearly ahead
    of it: the leader stays, a close rival stays, one far behind or equal on every deal goes."""
    from boneyard.engine.dotd.gate_playout import separated, survivors

    seen = [[5.0, 5.0, 1.0, 7.0], [6.0, 6.0, 0.0, 3.0], [7.0, 7.0, 2.0, 6.0]]
    totals = [sum(col) for col in zip(*seen, strict=True)]
    assert survivors(seen, totals, [0, 1, 2, 3], 0, 1.5) == [0, 3]
    assert survivors(seen, totals, [0, 1, 2, 3], 1, 1.5) == [1, 3]  # greedy's pick leads equals
    assert survivors(seen, totals, [0, 1, 2], 0, 1.5) == [0]
    assert not separated(seen, totals, 0, 1.5)  # the close rival keeps the race going


def test_dotd_fork_plays_on_as_a_clone_and_leaves_the_position_alone():
    """The playouts' fork shares only the logs and counts: it plays on exactly as a clone does,
    and the state it was forked from keeps its position."""
    game = make_game(load_set("day-of-the-dead"))

    def position(s: Any) -> tuple[Any, ...]:
        return (s.turn, s.prio, s.scores, s.hands, s.lines, s.up, s.spirit, s.decks, s.discards,
                s.pub, s.dk, s.dp, s.dl, s.stack, s.done)

    for seed in range(20):
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            before = json.dumps(position(state), default=str)
            fork, clone = state.fork(), state.clone()
            moves = random.Random(seed * 7 + len(state.history))
            while not clone.is_terminal():
                a = clone.legal_actions()[moves.randrange(len(clone.legal_actions()))]
                clone.apply_action(a)
                fork.apply_action(a)
                assert position(fork) == position(clone)
            assert json.dumps(position(state), default=str) == before
            state.apply_action(state.legal_actions()[rng.randrange(len(state.legal_actions()))])
