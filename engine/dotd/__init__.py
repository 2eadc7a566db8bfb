"""Day of the Dead: the rules engine (DotdGame), observations, greedy agent and metrics.

``game.py`` is the state machine; ``interpreter.py``, ``choices.py`` and ``turns.py`` are the
parts of it it calls on every decision, ``codes.py`` the constants compiled into them.
mypyc-compiled twins of these five stand in together,
only when every one was built from the file on disk (see ``boneyard.engine.compiled``): a
compiled module never runs next to the pure source of a module whose native classes it uses.
"""

from __future__ import annotations

import sys

from boneyard.engine.compiled import use_twin

#: (source, twin) of the compiled modules; setup.py's TWINS lists the same.
TWINS = (
    ("codes.py", "_codes_c"),  # first: the constants mypyc folds into the others
    ("game.py", "_game_c"),
    ("interpreter.py", "_interpreter_c"),
    ("choices.py", "_choices_c"),
    ("turns.py", "_turns_c"),
)


def _use_twins() -> bool:
    """All twins in place of their sources, or none (a stale one puts every source back)."""
    placed: list[str] = []
    for source, twin in TWINS:
        if use_twin(__name__, source, twin) is None:
            for name in placed:
                sys.modules.pop(f"{__name__}.{name}", None)
            return False
        placed.append(source.removesuffix(".py"))
    return True


COMPILED: bool = _use_twins()
"""True when the compiled engine runs (benchmarks say which one they measured)."""

from . import game  # noqa: E402  (after the twins, if any, took their sources' places)
from .codes import ACT_NO, DECK_BASE  # noqa: E402
from .game import DotdGame, DotdState  # noqa: E402
from .observation import DotdObservation  # noqa: E402

__all__ = ["ACT_NO", "COMPILED", "DECK_BASE", "DotdGame", "DotdObservation", "DotdState", "game"]
