"""Grave Feast's compiled modules run all together or not at all: a compiled module calls the
others' native code directly, so one stale twin must send the whole engine back to Python."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest


def engine_modules() -> list[str]:
    """Grave Feast's compiled modules, as pyproject.toml lists them (the one list)."""
    from boneyard.paths import ROOT

    listed = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["boneyard"]["compiled"]
    return [Path(p).stem for p in listed if p.startswith("engine/gf/")]


LOADED = """
import json, sys
import boneyard.engine.gf as gf
import boneyard.engine.gf.state, boneyard.engine.gf.game
mods = {name: sys.modules[f"boneyard.engine.gf.{name}"].__file__ for name in NAMES}
print(json.dumps({"compiled": gf.COMPILED, "files": mods}))
""".replace("NAMES", json.dumps(engine_modules()))

STALE = """
import pathlib
real = pathlib.Path.read_bytes
def edited(self):
    data = real(self)
    return data + b"\\n# a designer's edit\\n" if self.name == "turn.py" and "gf" in self.parts else data
pathlib.Path.read_bytes = edited
""" + LOADED


def run(script: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "BONEYARD_PURE"}
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True,
                          check=True, timeout=120)
    return json.loads(done.stdout)


@pytest.mark.skipif(bool(os.environ.get("BONEYARD_PURE")), reason="BONEYARD_PURE=1 asks for no compiled engine")
def test_every_engine_module_is_compiled():
    out = run(LOADED)
    assert out["compiled"], "engine/gf twins missing or stale: rerun the install (make)"
    assert all(not f.endswith(".py") for f in out["files"].values()), out["files"]


@pytest.mark.skipif(bool(os.environ.get("BONEYARD_PURE")), reason="BONEYARD_PURE=1 asks for no compiled engine")
def test_one_stale_module_sends_the_whole_engine_back_to_python():
    out = run(STALE)
    assert out["compiled"] is False
    assert all(f.endswith(f"{name}.py") for name, f in out["files"].items()), out["files"]


def test_every_rules_module_is_listed_for_the_compiler():
    """The rules' modules (what state.py and game.py import) are all in the compiled list."""
    assert {"state", "game", "moves", "windows", "turn", "rares", "effects"} <= set(engine_modules())
