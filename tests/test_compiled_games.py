"""Each game's compiled modules run all together or not at all: a compiled module calls the
others' native code directly, so one stale module must send the whole game back to Python."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

# (game folder, a module to edit, modules whose binaries must exist)
GAMES = [
    ("gf", "turn.py", {"state", "game", "moves", "windows", "turn", "rares", "effects"}),
    ("dotd", "choices.py", {"codes", "game", "interpreter", "choices", "turns"}),
]


def engine_modules(game: str) -> list[str]:
    """A game's compiled modules, as pyproject.toml lists them (the one list)."""
    from boneyard.paths import ROOT

    listed = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["boneyard"]["compiled"]
    return [Path(p).stem for p in listed if p.startswith(f"engine/{game}/")]


def loaded(game: str) -> str:
    names = engine_modules(game)
    return f"""
import importlib, json, sys
pkg = importlib.import_module("boneyard.engine.{game}")
for name in {names!r}:
    importlib.import_module(f"boneyard.engine.{game}." + name)
mods = {{name: sys.modules[f"boneyard.engine.{game}." + name].__file__ for name in {names!r}}}
print(json.dumps({{"compiled": pkg.COMPILED, "files": mods}}))
"""


def stale(game: str, module: str) -> str:
    return f"""
import pathlib
real = pathlib.Path.read_bytes
def edited(self):
    data = real(self)
    return data + b"\\n# a designer's edit\\n" if self.name == {module!r} and {game!r} in self.parts else data
pathlib.Path.read_bytes = edited
""" + loaded(game)


def run(script: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "BONEYARD_PURE"}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                          check=True, timeout=120)
    return json.loads(done.stdout)


PURE = pytest.mark.skipif(bool(os.environ.get("BONEYARD_PURE")),
                          reason="BONEYARD_PURE=1 asks for no compiled engine")


@PURE
@pytest.mark.parametrize("game, module, hot", GAMES)
def test_every_engine_module_is_compiled(game, module, hot):
    out = run(loaded(game))
    assert out["compiled"], f"engine/{game} binaries missing or stale: rerun the install (make)"
    assert all(not f.endswith(".py") for f in out["files"].values()), out["files"]


@PURE
@pytest.mark.parametrize("game, module, hot", GAMES)
def test_one_stale_module_sends_the_whole_game_back_to_python(game, module, hot):
    out = run(stale(game, module))
    assert out["compiled"] is False
    assert all(f.endswith(f"{name}.py") for name, f in out["files"].items()), out["files"]


@pytest.mark.parametrize("game, module, hot", GAMES)
def test_every_hot_module_is_listed_for_the_compiler(game, module, hot):
    assert hot <= set(engine_modules(game))
