"""Grave Feast rules engine (issue 4): ``FeastGame(card_set, num_players, rares, decks, **options)``.

The rules' modules are compiled by mypyc together (pyproject.toml ``[tool.boneyard] compiled``)
and run all compiled or all from source, as the guard decides (see ``boneyard.engine.compiled``):
never a mix, since a compiled module calls the others' native code directly.
"""

from boneyard.engine.compiled import guard

COMPILED: bool = guard(__name__)
"""True when the compiled engine runs (benchmarks say which one they measured)."""

from boneyard.engine.gf.game import FeastGame  # noqa: E402  (after the guard chose binary or source)
from boneyard.engine.gf.state import FeastObservation, FeastState  # noqa: E402

__all__ = ["COMPILED", "FeastGame", "FeastObservation", "FeastState"]
