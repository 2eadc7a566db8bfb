"""Boneyard: a card-game design toolkit.

Card data (``cards/``) flows one way: ``pipeline`` loads and validates it into the frozen card
model of ``engine``, the engine playtests it by simulation, and ``pipeline`` gates and renders
it into ``output/``. ``engine`` never imports ``pipeline``.
"""

from typing import Any


def __getattr__(name: str) -> Any:
    """``__version__``, read from the installed metadata when first asked: reading it takes
    tens of milliseconds, which the console script spends before it can answer a Ctrl-C
    (pipeline/entry.py)."""
    if name != "__version__":
        raise AttributeError(name)
    from importlib.metadata import PackageNotFoundError, version

    try:
        found = version("boneyard")
    except PackageNotFoundError:  # running from a source tree that was never installed
        found = "0.0.0+source"
    globals()["__version__"] = found
    return found
