"""Compiled engine modules run only while they match their sources on disk.

setup.py compiles the modules that pyproject.toml lists (``[tool.boneyard] compiled``) in place
with mypyc: each binary sits beside its ``.py`` under the same import name, and Python's import
system would load it first. ``compiled.sha256`` in the game folder records the SHA-256 of each
source its binaries were built from. ``guard`` runs first in a game package's ``__init__``: when
``BONEYARD_PURE`` is set, the stamp is missing, or any binary in the game folder (subfolders
too) lacks a stamp line that matches its source, every compiled module of the game is imported
from its ``.py`` instead. All or nothing: compiled code relies on the native classes of the modules compiled
with it, so it must never run beside their pure versions. An edited engine runs as written.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec
from pathlib import Path
from types import ModuleType

STAMP = "compiled.sha256"
LIBRARY = "compiled__mypyc"  # the folder's shared library (setup.py), which has no source


def binaries(folder: Path) -> dict[str, Path]:
    """The compiled modules under ``folder`` that an import would load: their dotted name in
    the folder (``state``, ``sub.moves``) -> their source."""
    found: dict[str, Path] = {}
    for entry in folder.rglob("*"):
        stem, _, suffix = entry.name.partition(".")
        if "." + suffix in EXTENSION_SUFFIXES and stem != LIBRARY:
            where = entry.parent.relative_to(folder).parts
            found[".".join((*where, stem))] = entry.with_name(f"{stem}.py")
    return found


def is_fresh(folder: Path, sources: dict[str, Path]) -> bool:
    """True when the stamp lists exactly these sources, each with its SHA-256 on disk."""
    try:
        lines = (folder / STAMP).read_text(encoding="utf-8").splitlines()
    except OSError:
        return False
    stamped = {name: digest for digest, _, name in (line.partition("  ") for line in lines)}
    names = {source.relative_to(folder).as_posix(): source for source in sources.values()}
    if stamped.keys() != names.keys():
        return False
    try:
        return all(hashlib.sha256(source.read_bytes()).hexdigest() == stamped[name]
                   for name, source in names.items())
    except OSError:  # a binary whose source is gone
        return False


class FromSource(MetaPathFinder):
    """Imports the given modules from their ``.py`` even where a binary sits beside them."""

    def __init__(self, sources: dict[str, Path]) -> None:
        self.sources = sources

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        source = self.sources.get(fullname)
        if source is None:
            return None
        if not source.is_file():
            raise ModuleNotFoundError(f"{fullname}: only a stale compiled binary is left "
                                      f"beside {source.parent} (reinstall: make)", name=fullname)
        return importlib.util.spec_from_file_location(fullname, source)


def guard(package: str) -> bool:
    """Decide, before ``package`` imports its modules, whether its binaries run: True when they
    do; otherwise its compiled modules will load from source."""
    folder = Path(sys.modules[package].__path__[0])
    found = binaries(folder)
    if not found:
        return False
    if not os.environ.get("BONEYARD_PURE") and is_fresh(folder, found):
        return True
    sys.meta_path.insert(0, FromSource({f"{package}.{stem}": py for stem, py in found.items()}))
    return False
