"""Grave Feast rules engine (issue 4): ``FeastGame(card_set, num_players, rares, decks, **options)``."""

from boneyard.engine.gf.game import FeastGame
from boneyard.engine.gf.state import FeastObservation, FeastState

__all__ = ["FeastGame", "FeastObservation", "FeastState"]
