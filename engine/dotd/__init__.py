"""Day of the Dead: the rules engine (DotdGame), observations, greedy agent and metrics.

``game.py`` is the engine; its mypyc-compiled binary runs when it was built from the ``game.py``
on disk (see ``boneyard.engine.compiled``).
"""

from __future__ import annotations

from boneyard.engine.compiled import guard

COMPILED: bool = guard(__name__)
"""True when the compiled engine runs (benchmarks say which one they measured)."""

from . import game  # noqa: E402  (after the guard chose binary or source)
from .game import ACT_NO, DECK_BASE, DotdGame, DotdState  # noqa: E402
from .observation import DotdObservation  # noqa: E402

__all__ = ["ACT_NO", "COMPILED", "DECK_BASE", "DotdGame", "DotdObservation", "DotdState", "game"]
