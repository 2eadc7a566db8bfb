"""Day of the Dead: the rules engine (DotdGame), observations, greedy agent and metrics."""

from .game import ACT_NO, DECK_BASE, DotdGame, DotdState
from .observation import DotdObservation

__all__ = ["ACT_NO", "DECK_BASE", "DotdGame", "DotdObservation", "DotdState"]
