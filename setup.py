"""Build hook: compile the two engines' hot modules with mypyc when it can (everything else is in
pyproject.toml).

The rules stay Python modules, ``engine/dotd/game.py``, ``engine/gf/game.py`` and
``engine/gf/state.py``: the source of truth, and what runs whenever a compiled twin is missing or was built from another version of
its source (``boneyard/engine/compiled.py``). mypyc compiles a copy of each, stamped with the
source's SHA-256, as ``_game_c`` / ``_state_c``: the same code on plain typed ints and lists,
about 1.9-2.3x the games per second. ``BONEYARD_PURE=1`` skips the compile (and, at run time,
the twins); a failed compile (no C compiler) leaves the pure-Python engines in charge.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
# (source under the repository, its package under the import names, twin module): see
# boneyard/engine/compiled.py for how a twin takes its source's place at run time
TWINS = (
    # Day of the Dead: the state and what it calls on every decision (all or none run compiled,
    # boneyard/engine/dotd/__init__.py)
    ("engine/dotd/game.py", "boneyard/engine/dotd", "_game_c"),
    ("engine/dotd/interpreter.py", "boneyard/engine/dotd", "_interpreter_c"),
    ("engine/dotd/choices.py", "boneyard/engine/dotd", "_choices_c"),
    ("engine/dotd/turns.py", "boneyard/engine/dotd", "_turns_c"),
    ("engine/dotd/codes.py", "boneyard/engine/dotd", "_codes_c"),  # its constants fold into them
    ("engine/gf/game.py", "boneyard/engine/gf", "_game_c"),
    ("engine/gf/state.py", "boneyard/engine/gf", "_state_c"),
)


def _stage() -> Path:
    """The package laid out under its import names (pyproject maps engine/ to boneyard.engine),
    which is how mypyc names the modules it compiles; each twin is its source plus a stamp."""
    stage = ROOT / "build" / "mypyc-stage"
    shutil.rmtree(stage, ignore_errors=True)
    skip = shutil.ignore_patterns("__pycache__", "*.so")
    shutil.copytree(ROOT / "boneyard", stage / "boneyard", ignore=skip)
    shutil.copytree(ROOT / "engine", stage / "boneyard" / "engine", ignore=skip)
    for source, package, twin in TWINS:
        text = (ROOT / source).read_bytes()
        stamp = f'\n_SOURCE_SHA256 = "{hashlib.sha256(text).hexdigest()}"\n'.encode()
        (stage / package / f"{twin}.py").write_bytes(text + stamp)
        (stage / package / Path(source).name).unlink()
    # at run time a twin stands in for its source module; say so for the type check
    for module in (stage / "boneyard").rglob("*.py"):
        code = new = module.read_text(encoding="utf-8")
        for source, package, twin in TWINS:
            name, dotted = Path(source).stem, package.replace("/", ".")
            new = (new.replace(f"from {dotted}.{name} import", f"from {dotted}.{twin} import")
                   .replace(f"from {dotted} import {name} as ", f"from {dotted} import {twin} as "))
            if module.parent == stage / package:  # relative imports, within the package only
                new = (new.replace(f"from .{name} import", f"from .{twin} import")
                       .replace(f"from . import {name}", f"from . import {twin} as {name}"))
        if new != code:
            module.write_text(new, encoding="utf-8")
    # the modules around the twins are type-checked only as far as the twins use them
    (stage / "mypy.ini").write_text(
        "[mypy]\n[mypy-boneyard.engine.gf.rares,boneyard.engine.gf.arrange,boneyard.engine.gf.greedy]\n"
        "ignore_errors = True\n", encoding="utf-8")
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
        exts = mypycify([f"{package}/{twin}.py" for _, package, twin in TWINS], opt_level="3",
                        separate=True)  # one library per twin, each inside its own package
    except BaseException as exc:  # a type error in game.py must not block the install
        print(f"setup.py: not compiling the engines ({exc!r}); they run as pure Python")
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
            self.warn(f"compiling the engines failed ({exc}); they run as pure Python")

    def build_extension(self, ext) -> None:  # noqa: ANN001
        try:
            super().build_extension(ext)
        except Exception as exc:  # any compiler trouble: run pure Python
            self.warn(f"compiling {ext.name} failed ({exc}); that engine runs as pure Python")


setup(ext_modules=ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
