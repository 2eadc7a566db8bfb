"""Compiled twins of the hot engine modules, used only when they match the source on disk.

setup.py compiles copies of ``engine/dotd/game.py``, ``engine/gf/game.py`` and
``engine/gf/state.py`` with mypyc (same code, plain typed ints and lists, about 1.9-2.3x the games
per second) as ``_game_c`` / ``_state_c``, each stamped with the SHA-256 of the source it came from. A package swaps its
twin in before anything imports the module, and only while the stamp matches the file on disk:
an edited engine always runs as written. ``BONEYARD_PURE=1`` turns the twins off.
"""

from __future__ import annotations

import hashlib
import importlib
import os
import sys
from pathlib import Path
from types import ModuleType


def use_twin(package: str, source: str, twin: str) -> ModuleType | None:
    """Put ``package.twin`` in the place of ``package.<source>`` if it was built from that file."""
    if os.environ.get("BONEYARD_PURE"):
        return None
    try:
        module = importlib.import_module(f"{package}.{twin}")
    except ImportError:
        return None
    where = Path(sys.modules[package].__file__ or "").with_name(source)
    if getattr(module, "_SOURCE_SHA256", None) != hashlib.sha256(where.read_bytes()).hexdigest():
        return None  # built from another version of the source: run the source as it is now
    sys.modules[f"{package}.{source.removesuffix('.py')}"] = module
    return module
