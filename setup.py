"""Build hook: compile the Day of the Dead engine with mypyc when it can (everything else is in
pyproject.toml).

The rules stay one Python module, ``engine/dotd/game.py``: the source of truth, and what runs
whenever the compiled twin is missing or was built from another version of it (see
``engine/dotd/__init__.py``). mypyc compiles a copy of it, stamped with the source's SHA-256, as
``boneyard.engine.dotd._game_c``: the same code on plain typed ints and lists, about 1.8x the
games per second. ``BONEYARD_PURE=1`` skips the compile (and, at run time, the twin); a failed
compile (no C compiler) leaves the pure-Python engine in charge.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
SOURCE = ROOT / "engine" / "dotd" / "game.py"
TWIN = "boneyard/engine/dotd/_game_c.py"


def _stage() -> Path:
    """The package laid out under its import names (pyproject maps engine/ to boneyard.engine),
    which is how mypyc names the modules it compiles."""
    stage = ROOT / "build" / "mypyc-stage"
    shutil.rmtree(stage, ignore_errors=True)
    skip = shutil.ignore_patterns("__pycache__", "*.so")
    shutil.copytree(ROOT / "boneyard", stage / "boneyard", ignore=skip)
    shutil.copytree(ROOT / "engine", stage / "boneyard" / "engine", ignore=skip)
    source = SOURCE.read_bytes()
    stamp = f'\n_SOURCE_SHA256 = "{hashlib.sha256(source).hexdigest()}"\n'.encode()
    (stage / TWIN).write_bytes(source + stamp)
    # at run time the twin stands in for .game; for the type check, say so in the staged copies
    package = stage / "boneyard" / "engine" / "dotd"
    (package / "game.py").unlink()
    for module in package.glob("*.py"):
        text = module.read_text(encoding="utf-8")
        text = text.replace("from .game import", "from ._game_c import")
        module.write_text(text.replace("from . import game", "from . import _game_c as game"), encoding="utf-8")
    return stage


def ext_modules() -> list:
    if os.environ.get("BONEYARD_PURE"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []
    stage = _stage()
    here = os.getcwd()
    os.chdir(stage)
    try:
        exts = mypycify([TWIN], opt_level="3")
    except BaseException as exc:  # a type error in game.py must not block the install
        print(f"setup.py: not compiling the Day of the Dead engine ({exc!r}); it runs as pure Python")
        return []
    finally:
        os.chdir(here)
    for ext in exts:  # mypycify wrote paths relative to the stage
        ext.sources = [s if os.path.isabs(s) else str(stage / s) for s in ext.sources]
        ext.include_dirs = [d if os.path.isabs(d) else str(stage / d) for d in ext.include_dirs]
    return exts


class OptionalBuildExt(build_ext):
    """A compile that fails leaves the pure-Python engine in charge instead of failing the install."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # any compiler trouble: run pure Python
            self.warn(f"compiling the Day of the Dead engine failed ({exc}); it runs as pure Python")

    def build_extension(self, ext) -> None:  # noqa: ANN001
        try:
            super().build_extension(ext)
        except Exception as exc:  # any compiler trouble: run pure Python
            self.warn(f"compiling {ext.name} failed ({exc}); the engine runs as pure Python")


setup(ext_modules=ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
