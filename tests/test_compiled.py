"""The compiled engines (setup.py: mypyc on copies of engine/dotd/game.py and engine/gf/state.py)
are the same engines: the same seeds give the same games, states and summaries as the sources."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from boneyard.engine import dotd, gf

SCRIPT = """
import json, random
from boneyard.engine.dotd import COMPILED, DotdGame
from boneyard.engine.dotd.greedy import GreedyAgent
from boneyard.pipeline.load import load_set
game = DotdGame(load_set("day-of-the-dead"))
game.record_events = True
greedy = GreedyAgent(game)
out = []
for seed in range(30):
    s = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not s.is_terminal():
        p = s.current_player()
        if seed % 3:
            legal = s.legal_actions()
            a = legal[rng.randrange(len(legal))]
        else:
            a = greedy.choose(s.observation(p), rng)
        s.apply_action(a)
    out.append([s.history, s.returns(), s.summary().to_json(), s.to_json(), s.events])
print(json.dumps({"compiled": COMPILED, "games": out}, sort_keys=True))
"""


GF_SCRIPT = """
import json, random
from boneyard.engine.gf import COMPILED, FeastGame
from boneyard.engine.gf.greedy import GreedyAgent
from boneyard.pipeline.load import load_set
out = []
for players, rares in ((2, False), (4, False), (4, True), (6, True)):
    game = FeastGame(load_set("grave-feast"), num_players=players, rares=rares)
    greedy = GreedyAgent(game)
    for seed in range(8):
        s = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal():
            p = s.current_player()
            if seed % 2:
                legal = s.legal_actions()
                a = legal[rng.randrange(len(legal))]
            else:
                a = greedy.choose(s.observation(p), rng)
            s.apply_action(a)
        out.append([s.returns(), s.summary(), s.log])
print(json.dumps({"compiled": COMPILED, "games": out}, sort_keys=True, default=repr))
"""


def run(pure: bool, script: str = SCRIPT) -> dict:
    env = dict(os.environ)
    env.pop("BONEYARD_PURE", None)
    if pure:
        env["BONEYARD_PURE"] = "1"
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                          check=True, timeout=300)
    return json.loads(done.stdout)


@pytest.mark.skipif(bool(os.environ.get("BONEYARD_PURE")), reason="BONEYARD_PURE=1 asks for no compiled engine")
def test_the_installed_engine_is_compiled():
    # make builds it (setup.py); a missing compiler would show here rather than as a slow engine
    assert dotd.COMPILED, "engine/dotd/_game_c was not built or is stale: rerun the install (make)"
    assert gf.COMPILED, "engine/gf/_state_c was not built or is stale: rerun the install (make)"


def test_compiled_and_pure_engines_play_the_same_games():
    compiled, pure = run(pure=False), run(pure=True)
    assert pure["compiled"] is False
    assert compiled["games"] == pure["games"]  # actions, results, summaries, states, transcripts


def test_compiled_and_pure_grave_feast_play_the_same_games():
    compiled, pure = run(False, GF_SCRIPT), run(True, GF_SCRIPT)
    assert pure["compiled"] is False
    assert compiled["games"] == pure["games"]  # 2-6 players, rares on and off, random and greedy


@pytest.mark.skipif(bool(os.environ.get("BONEYARD_PURE")), reason="BONEYARD_PURE=1 asks for no compiled engine")
def test_a_stale_compiled_engine_is_not_used(monkeypatch):
    """An edited game.py runs as written: the twin stands in only for the source it was built from."""
    from pathlib import Path

    from boneyard.engine import compiled

    assert compiled.use_twin(dotd.__name__, "game.py", "_game_c") is not None  # built from this game.py
    real = Path(dotd.__file__).with_name("game.py").read_bytes()

    class EditedSource(type(Path())):
        def read_bytes(self) -> bytes:
            return real + b"\n# a designer's edit\n" if self.name == "game.py" else super().read_bytes()

    monkeypatch.setattr(compiled, "Path", EditedSource)
    monkeypatch.setitem(sys.modules, f"{dotd.__name__}.game", dotd.game)  # restored afterwards
    assert compiled.use_twin(dotd.__name__, "game.py", "_game_c") is None  # game.py runs as edited
    monkeypatch.setattr(compiled, "Path", Path)
    monkeypatch.setenv("BONEYARD_PURE", "1")
    assert compiled.use_twin(dotd.__name__, "game.py", "_game_c") is None


def test_games_pickle_for_worker_processes_and_clusters():
    import pickle

    import boneyard.engine.sim  # noqa: F401  (teaches pickle the card set's read-only mappings)
    from boneyard.engine.dotd import DotdGame
    from boneyard.pipeline.load import load_set

    game = DotdGame(load_set("day-of-the-dead"), selection="priority_first")
    game.record_events = True
    copy = pickle.loads(pickle.dumps(game))
    assert copy.switches == game.switches and copy.record_events
    a, b = game.new_initial_state(5), copy.new_initial_state(5)
    assert a.legal_actions() == b.legal_actions() and a.to_json() == b.to_json()


def test_grave_feast_games_pickle_with_their_options():
    import pickle

    import boneyard.engine.sim  # noqa: F401  (teaches pickle the card set's read-only mappings)
    from boneyard.engine.gf import FeastGame
    from boneyard.pipeline.load import load_set

    game = FeastGame(load_set("grave-feast"), num_players=5, rares=True, win_score=7, recycle="flip_then_shuffle_corpses")
    copy = pickle.loads(pickle.dumps(game))
    assert (copy.num_players, copy.rares, copy.decks, copy.win_score) == (5, True, 2, 7)
    assert copy.switches == game.switches and copy.params == game.params
    assert copy.new_initial_state(3).legal_actions() == game.new_initial_state(3).legal_actions()
