"""Build hook: compile the engines' hot modules in place with mypyc when it can (the rest of the
build is in pyproject.toml).

Which modules: ``[tool.boneyard] compiled`` in pyproject.toml, one source path a line; the
Makefile reinstalls when one of them changes. Adding a module is adding its line.

How: pyproject maps the folders to their import names (``engine/`` is ``boneyard.engine``), and
mypyc names a module after the folders it sits in, so the compile runs in ``build/mypyc/``, a
generated tree of symlinks (``boneyard/engine -> ../../../engine`` ...) where the folders carry
their import names: no copy, no renaming. Each game folder's modules make one library (calls
between them stay native); the editable install's build_ext puts each ``.so`` beside its
``.py``, and ``compiled.sha256`` beside them records the SHA-256 of the sources it was built
from. At import time the game package (``boneyard.engine.compiled.guard``) runs its binaries only
while every stamp matches the source on disk, otherwise all of that game's modules from source:
an edited engine always runs as written. ``BONEYARD_PURE=1`` skips the compile (and, at run
time, the binaries); a failed compile (no C compiler) leaves pure Python in charge.
"""

from __future__ import annotations

import hashlib
import os
import tomllib
from pathlib import Path

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
TREE = ROOT / "build" / "mypyc"  # the import-name view of the repository mypyc compiles from
STAMP = "compiled.sha256"  # beside the binaries: "<sha256>  <file>.py" for each compiled module
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


def link_tree() -> None:
    """Lay out ``TREE`` so that every folder of PACKAGE_DIR sits at its import name (symlinks)."""
    for name, folder in sorted(PACKAGE_DIR.items(), key=lambda kv: kv[0].count(".")):
        at = TREE.joinpath(*name.split("."))
        if name == "boneyard":  # the package root is a real folder that holds the others
            at.mkdir(parents=True, exist_ok=True)
            for entry in (ROOT / folder).iterdir():
                if entry.name != "__pycache__" and not at.joinpath(entry.name).is_symlink():
                    at.joinpath(entry.name).symlink_to(entry)
        elif not at.is_symlink():
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
    library = {s: module_name(s).rpartition(".")[0] + ".compiled" for s in SOURCES}  # per folder
    groups = [([str(import_path(s)) for s in SOURCES if library[s] == lib], lib)
              for lib in sorted(set(library.values()))]  # boneyard.engine.gf.compiled__mypyc ...
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
    for ext in exts:  # the sources each extension (a module, or its folder's library) comes from
        ext.digests = {s: digests[s] for s in SOURCES
                       if ext.name in (module_name(s), library[s] + "__mypyc")}
    return exts


class OptionalBuildExt(build_ext):
    """Builds the engines and stamps each folder whose every extension built; a compile that fails
    leaves pure Python in charge instead of failing the install."""

    def run(self) -> None:
        self.failed: set[str] = set()
        outputs = {Path(self.get_ext_fullpath(ext.name)).resolve() for ext in self.extensions}
        for folder in {output.parent for output in outputs}:  # no stamp until the new binaries
            (folder / STAMP).unlink(missing_ok=True)  # are all there
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
        stamps: dict[Path, dict[str, str]] = {}
        for ext in self.extensions:
            stamp = Path(self.get_ext_fullpath(ext.name)).with_name(STAMP)
            lines = stamps.setdefault(stamp, {})
            if ext.name in self.failed:
                lines["failed"] = ""
            lines.update({Path(s).name: d for s, d in ext.digests.items()})
        for stamp, lines in stamps.items():
            if "failed" not in lines:
                stamp.write_text("".join(f"{d}  {n}\n" for n, d in sorted(lines.items())),
                                 encoding="utf-8")

    def build_extension(self, ext) -> None:  # noqa: ANN001
        try:
            super().build_extension(ext)
        except Exception as exc:  # any compiler trouble: run pure Python
            self.failed.add(ext.name)
            self.warn(f"compiling {ext.name} failed ({exc}); that engine runs as pure Python")


if __name__ == "__main__":  # as the build runs it; the Makefile imports link_tree
    setup(ext_modules=ext_modules(), cmdclass={"build_ext": OptionalBuildExt})
