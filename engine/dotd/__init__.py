"""Day of the Dead: the rules engine (DotdGame), observations, greedy agent and metrics.

``game.py`` is the state machine; ``interpreter.py``, ``choices.py`` and ``turns.py`` are the
parts of it it calls on every decision, ``codes.py`` the constants compiled into them. They are
compiled by mypyc together (pyproject.toml ``[tool.boneyard] compiled``) and run all compiled or
all from source, as the guard decides (see ``boneyard.engine.compiled``): a compiled module never
runs next to the pure source of a module whose native classes it uses.
"""

from __future__ import annotations

from boneyard.engine.compiled import guard

COMPILED: bool = guard(__name__)
"""True when the compiled engine runs (benchmarks say which one they measured)."""

from . import game  # noqa: E402  (after the guard chose binary or source)
from .codes import ACT_NO, DECK_BASE  # noqa: E402
from .game import DotdGame, DotdState  # noqa: E402
from .observation import DotdObservation  # noqa: E402

__all__ = ["ACT_NO", "COMPILED", "DECK_BASE", "DotdGame", "DotdObservation", "DotdState", "game"]
