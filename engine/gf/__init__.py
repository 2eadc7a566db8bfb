"""Grave Feast rules engine (issue 4): ``FeastGame(card_set, num_players, rares, decks, **options)``.

The engine's modules (``ENGINE`` below) have mypyc-compiled twins that stand in when every one
of them was built from the file on disk (see ``boneyard.engine.compiled``): all compiled or all
pure, never a mix, since a compiled module calls the others' native code directly.
"""

from boneyard.engine.compiled import use_twin

#: The modules compiled together (setup.py TWINS, the Makefile's dependency line).
ENGINE = ("constants", "board", "rare_moves", "moves", "windows", "turn", "rares", "effects",
          "narration", "observation", "summary", "state", "game")


def _compiled() -> bool:
    import hashlib
    import importlib
    import os
    from pathlib import Path

    if os.environ.get("BONEYARD_PURE"):
        return False
    here = Path(__file__).parent
    for name in ENGINE:  # check every twin before installing any
        try:
            twin = importlib.import_module(f"{__name__}._{name}_c")
        except ImportError:
            return False
        digest = hashlib.sha256((here / f"{name}.py").read_bytes()).hexdigest()
        if getattr(twin, "_SOURCE_SHA256", None) != digest:
            return False
    return all(use_twin(__name__, f"{name}.py", f"_{name}_c") is not None for name in ENGINE)


COMPILED: bool = _compiled()
"""True when the compiled engine runs (benchmarks say which one they measured)."""

from boneyard.engine.gf.game import FeastGame  # noqa: E402  (after the twins are in place)
from boneyard.engine.gf.observation import FeastObservation  # noqa: E402
from boneyard.engine.gf.state import FeastState  # noqa: E402

__all__ = ["COMPILED", "FeastGame", "FeastObservation", "FeastState"]
