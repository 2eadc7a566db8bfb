"""Boneyard: a card-game design toolkit.

Card data (``cards/``) flows one way: ``pipeline`` loads and validates it into the frozen card
model of ``engine``, the engine playtests it by simulation, and ``pipeline`` gates and renders
it into ``output/``. ``engine`` never imports ``pipeline``.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("boneyard")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "0.0.0+source"
