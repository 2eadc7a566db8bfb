"""The compiled engines (setup.py: mypyc on the modules pyproject.toml lists, compiled in place)
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
        out.append([s.returns(), s.summary().to_json(), s.log])
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
    assert dotd.COMPILED, "engine/dotd's binaries were not built or are stale: rerun the install (make)"
    assert gf.COMPILED, "engine/gf's binaries were not built or are stale: rerun the install (make)"


def test_compiled_and_pure_engines_play_the_same_games():
    compiled, pure = run(pure=False), run(pure=True)
    assert pure["compiled"] is False
    assert compiled["games"] == pure["games"]  # actions, results, summaries, states, transcripts


def test_compiled_and_pure_grave_feast_play_the_same_games():
    compiled, pure = run(False, GF_SCRIPT), run(True, GF_SCRIPT)
    assert pure["compiled"] is False
    assert compiled["games"] == pure["games"]  # 2-6 players, rares on and off, random and greedy


COPY_SCRIPT = """
import json, sys
import boneyard.engine.dotd as dotd, boneyard.engine.gf as gf
files = {m: sys.modules["boneyard.engine." + m].__file__ for m in ("dotd.game", "gf.game", "gf.state")}
print(json.dumps({"where": dotd.__file__, "dotd": dotd.COMPILED, "gf": gf.COMPILED, "files": files,
                  "edited": getattr(gf.state, "EDITED", False)}))
"""


def run_copy(tmp_path, edit=None, pure: bool = False) -> dict:
    """The installed package copied (binaries, stamps and all) to ``tmp_path``, ``edit(engine)``
    applied to the copy's engine folder, imported in a fresh interpreter."""
    import shutil
    from pathlib import Path

    import boneyard.engine  # and boneyard, the package root

    root = tmp_path / "copy" / "boneyard"
    skip = shutil.ignore_patterns("__pycache__")
    shutil.copytree(Path(boneyard.__file__).parent, root, ignore=skip)
    shutil.copytree(Path(boneyard.engine.__file__).parent, root / "engine", ignore=skip)
    if edit:
        edit(root / "engine")
    env = dict(os.environ, PYTHONPATH=str(root.parent))
    env.pop("BONEYARD_PURE", None)
    if pure:
        env["BONEYARD_PURE"] = "1"
    done = subprocess.run([sys.executable, "-c", COPY_SCRIPT], env=env, capture_output=True,
                          text=True, check=True, timeout=120, cwd=tmp_path)  # not the checkout's boneyard/
    out = json.loads(done.stdout)
    assert out["where"].startswith(str(root)), out["where"]  # the copy ran, not the checkout
    return out


@pytest.mark.skipif(bool(os.environ.get("BONEYARD_PURE")), reason="BONEYARD_PURE=1 asks for no compiled engine")
def test_a_stale_compiled_engine_is_not_used(tmp_path):
    """An edited source runs as written: a binary runs only beside the source it was built from,
    and a game's compiled modules run all compiled or all from source, never mixed."""
    untouched = run_copy(tmp_path / "a")
    assert untouched["dotd"] and untouched["gf"]
    assert all(f.endswith(".so") for f in untouched["files"].values()), untouched["files"]

    def edit_state(engine):
        with open(engine / "gf" / "state.py", "a", encoding="utf-8") as f:
            f.write("\nEDITED = True  # a designer's edit\n")

    edited = run_copy(tmp_path / "b", edit_state)
    assert edited["edited"] and not edited["gf"]
    assert edited["files"]["gf.state"].endswith("state.py")
    assert edited["files"]["gf.game"].endswith("game.py")  # not the binary game beside a pure state
    assert edited["dotd"] and edited["files"]["dotd.game"].endswith(".so")  # the other game is fresh

    def drop_stamp(engine):
        (engine / "dotd" / "compiled.sha256").unlink()

    unstamped = run_copy(tmp_path / "c", drop_stamp)
    assert not unstamped["dotd"] and unstamped["files"]["dotd.game"].endswith("game.py")

    pure = run_copy(tmp_path / "d", pure=True)
    assert not pure["dotd"] and not pure["gf"]
    assert all(f.endswith(".py") for f in pure["files"].values()), pure["files"]


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
