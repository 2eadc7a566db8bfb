"""Grave Feast rules engine (issue 4): ``FeastGame(card_set, num_players, rares, decks, **options)``.

``game.py`` and ``state.py`` are the engine; their mypyc-compiled binaries run when they were built
from the files on disk (see ``boneyard.engine.compiled``).
"""

from boneyard.engine.compiled import guard

COMPILED: bool = guard(__name__)
"""True when the compiled engine runs (benchmarks say which one they measured)."""

from boneyard.engine.gf import rares as _rares  # noqa: E402  (after the guard chose binary or source)
from boneyard.engine.gf import state as _state  # noqa: E402

_state._rares = _rares  # the state's rare moves call into rares (see state._rares)

from boneyard.engine.gf.game import FeastGame  # noqa: E402
from boneyard.engine.gf.state import FeastObservation, FeastState  # noqa: E402

__all__ = ["COMPILED", "FeastGame", "FeastObservation", "FeastState"]
