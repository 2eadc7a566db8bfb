"""Day of the Dead: the rules engine (DotdGame), observations, greedy agent and metrics.

``game.py`` is the engine. When the package was installed with a C compiler at hand, setup.py
also built ``_game_c``: the same source compiled by mypyc (about 1.8x faster), stamped with the
SHA-256 of the ``game.py`` it came from. It stands in for ``game`` only while that stamp matches
the file on disk, so an edited engine always runs as written; ``BONEYARD_PURE=1`` turns it off.
"""

from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from types import ModuleType


def _compiled_twin() -> ModuleType | None:
    if os.environ.get("BONEYARD_PURE"):
        return None
    try:
        from . import _game_c  # type: ignore[attr-defined]
    except ImportError:
        return None
    source = Path(__file__).with_name("game.py").read_bytes()
    if getattr(_game_c, "_SOURCE_SHA256", None) != hashlib.sha256(source).hexdigest():
        return None  # built from another game.py: run the source as it is now
    return _game_c


_twin = _compiled_twin()
if _twin is not None:
    sys.modules[f"{__name__}.game"] = _twin

COMPILED: bool = _twin is not None
"""True when the mypyc-compiled engine runs (benchmarks say which one they measured)."""

from . import game  # noqa: E402  (after the twin, if any, took game's place)
from .game import ACT_NO, DECK_BASE, DotdGame, DotdState  # noqa: E402
from .observation import DotdObservation  # noqa: E402

__all__ = ["ACT_NO", "COMPILED", "DECK_BASE", "DotdGame", "DotdObservation", "DotdState", "game"]
