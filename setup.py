"""Build hook: compile the engines' hot modules in place with mypyc when it can (the rest of the
build is in pyproject.toml).

Which modules: ``[tool.boneyard] compiled`` in pyproject.toml, one source path a line; the
Makefile reinstalls when one of them changes. Adding a module is adding its line.

How: pyproject maps the folders to their import names (``engine/`` is ``boneyard.engine``), and
mypyc names a module after the folders it sits in, so the compile runs in ``build/mypyc/``, a
generated tree of symlinks (``build/mypyc/boneyard/engine`` -> ``engine/`` ...) where the folders
carry their import names: no copy, no renaming. Each game's modules make one library (calls
between them stay native); the editable install's build_ext puts each ``.so`` beside its
``.py``, and ``compiled.sha256`` in the game folder records the SHA-256 of the sources they were
built from. At import time the game package (``boneyard.engine.compiled.guard``) runs its binaries
only while every stamp matches the source on disk, otherwise all of that game's modules from source:
an edited engine always runs as written. ``BONEYARD_PURE=1`` skips the compile (and, at run
time, the binaries); a failed compile (no C compiler) leaves pure Python in charge.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tomllib
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
TREE = ROOT / "build" / "mypyc"  # the import-name view of the repository mypyc compiles from
STAMP = "compiled.sha256"  # in the game folder: "<sha256>  <path in the folder>" a compiled module
LIBRARY = "compiled__mypyc"  # a game's library of compiled modules, in its folder
_CONFIG = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
SOURCES: list[str] = _CONFIG["tool"]["boneyard"]["compiled"]  # repository paths, e.g. engine/gf/state.py
PACKAGE_DIR: dict[str, str] = _CONFIG["tool"]["setuptools"]["package-dir"]  # import name -> folder


def import_path(source: str) -> Path:
    """``engine/gf/state.py`` as the path of its import name: ``boneyard/engine/gf/state.py``."""
    folder, name = max(((k, v) for k, v in PACKAGE_DIR.items() if source.startswith(v + "/")),
                       key=lambda kv: len(kv[1]))
    return Path(*folder.split(".")) / source.removeprefix(name + "/")


def module_name(source: str) -> str:
    """``engine/gf/state.py`` -> ``boneyard.engine.gf.state``."""
    return str(import_path(source).with_suffix("")).replace("/", ".")


def game_of(source: str) -> str:
    """The game package a compiled module belongs to (``boneyard.engine.gf``): its binaries run
    all or none, as that package's guard decides (boneyard/engine/compiled.py)."""
    parts = module_name(source).split(".")
    if len(parts) < 4 or parts[:2] != ["boneyard", "engine"]:
        raise SystemExit(f"setup.py: {source} is not in a game folder (engine/<game>/), where a "
                         "guard keeps a stale binary from running; compile only game modules")
    return ".".join(parts[:3])


def in_game(source: str) -> str:
    """The source's path inside its game folder, as the stamp names it (``state.py``)."""
    return import_path(source).relative_to(Path(*game_of(source).split("."))).as_posix()


def link_tree() -> None:
    """Lay out ``TREE`` so that every folder of PACKAGE_DIR sits at its import name (symlinks,
    made anew each time: a moved checkout or a deleted file leaves no stale link)."""
    shutil.rmtree(TREE / "boneyard", ignore_errors=True)  # links only: rmtree does not follow them
    for name, folder in sorted(PACKAGE_DIR.items(), key=lambda kv: kv[0].count(".")):
        at = TREE.joinpath(*name.split("."))
        if name == "boneyard":  # the package root is a real folder that holds the others
            at.mkdir(parents=True)
            for entry in (ROOT / folder).iterdir():
                if entry.name != "__pycache__":
                    at.joinpath(entry.name).symlink_to(entry)
        else:
            at.symlink_to(ROOT / folder, target_is_directory=True)


def ext_modules() -> list:
    """mypyc's extensions for SOURCES, one library per game folder; [] when it cannot compile."""
    if os.environ.get("BONEYARD_PURE"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        return []
    link_tree()
    digests = {s: hashlib.sha256((ROOT / s).read_bytes()).hexdigest() for s in SOURCES}  # before
    # the compile reads them: a source edited meanwhile shows as stale
    game = {s: game_of(s) for s in SOURCES}
    groups = [([str(import_path(s)) for s in SOURCES if game[s] == g], f"{g}.{LIBRARY.removesuffix('__mypyc')}")
              for g in sorted(set(game.values()))]  # one library a game: mypyc adds the __mypyc
    # type errors stop the compile only in the compiled modules; make test runs mypy on the rest
    (TREE / "mypy.ini").write_text("[mypy]\nignore_errors = True\n[mypy-" + ",".join(
        map(module_name, SOURCES)) + "]\nignore_errors = False\n", encoding="utf-8")
    here = os.getcwd()
    os.chdir(TREE)  # mypy names a module after the folders above it, and searches from here
    try:
        exts = mypycify(["--config-file", "mypy.ini", *(str(import_path(s)) for s in SOURCES)],
                        opt_level="3", separate=groups, target_dir=str(TREE / "c"))
    except BaseException as exc:  # a type error in the engine must not block the install
        print(f"setup.py: not compiling the engines ({exc!r}); they run as pure Python")
        return []
    finally:
        os.chdir(here)
    for ext in exts:  # the game and sources of each extension (a module, or a game's library)
        mine = [s for s in SOURCES if ext.name in (module_name(s), f"{game[s]}.{LIBRARY}")]
        ext.game = game[mine[0]]
        ext.digests = {in_game(s): digests[s] for s in mine}
    return exts


class OptionalBuildExt(build_ext):
    """Builds the engines and stamps each game whose every extension built; a compile that fails
    leaves pure Python in charge instead of failing the install."""

    def run(self) -> None:
        self.failed: set[str] = set()
        outputs = {Path(self.get_ext_fullpath(ext.name)).resolve() for ext in self.extensions}
        stamps = {g: Path(self.get_ext_fullpath(f"{g}.{LIBRARY}")).with_name(STAMP)
                  for g in {ext.game for ext in self.extensions}}
        for stamp in stamps.values():  # no stamp until the new binaries are all there
            stamp.unlink(missing_ok=True)
        if self.inplace:  # a binary of a module no longer listed would make its game run pure
            for folder in PACKAGE_DIR.values():
                for binary in (ROOT / folder).rglob("*.so"):
                    if binary.resolve() not in outputs:
                        binary.unlink()
        try:
            super().run()
        except Exception as exc:  # any compiler trouble: run pure Python
            self.warn(f"compiling the engines failed ({exc}); they run as pure Python")
            return
        failed = {ext.game for ext in self.extensions if ext.name in self.failed}
        for g, stamp in stamps.items():
            if g not in failed:
                lines = {p: d for ext in self.extensions if ext.game == g for p, d in ext.digests.items()}
                stamp.write_text("".join(f"{d}  {p}\n" for p, d in sorted(lines.items())),
                                 encoding="utf-8")

    def build_extension(self, ext) -> None:  # noqa: ANN001
        try:
            super().build_extension(ext)
        except Exception as exc:  # any compiler trouble: run pure Python
            self.failed.add(ext.name)
            self.warn(f"compiling {ext.name} failed ({exc}); that engine runs as pure Python")


if __name__ == "__main__":  # as the build runs it; the Makefile imports link_tree
    setup(ext_modules=ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
