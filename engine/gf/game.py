"""Grave Feast: the game the simulator drives (``FeastGame``): its rules, and the deal.

The rules' data (switches, params, card tables) is ``FeastRules`` in rules.py, below the state;
this class adds what needs the state (the deal), so no rules module imports upward.
"""

from __future__ import annotations

import random
from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.gf.rules import PARAMS, SWITCHES, FeastRules
from boneyard.engine.gf.state import FeastState


def _rebuild_game(card_set: CardSet, players: int, rares: bool | None, decks: int | str | None,
                  options: dict[str, Any]) -> FeastGame:
    return FeastGame(card_set, players, rares, decks, **options)


class FeastGame(FeastRules):
    """Grave Feast for 2-8 players on a card set; ``new_initial_state(seed)`` deals a game.

    Built like ``FeastRules`` (``FeastGame(card_set, num_players, rares, decks, **options)``).
    """

    name = "grave-feast"

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as what it is built from (worker processes, cluster tasks); compiled classes
        need it spelled out."""
        options = {k: v for k, v in self.params.items() if k not in ("rares", "decks")}
        return (_rebuild_game, (self.card_set, self.num_players, self.params["rares"],
                                self.params["decks"], {**options, **self.switches}))

    def new_initial_state(self, seed: int) -> FeastState:
        """A fresh game, shuffled and dealt from ``random.Random(seed)`` (both games' one scheme:
        an int seed, the state's own stream from it)."""
        return FeastState.deal(self, random.Random(seed))

    def __repr__(self) -> str:
        return f"FeastGame({self.card_set.slug or self.card_set.name!r}, {self.num_players} players)"


__all__ = ["PARAMS", "SWITCHES", "FeastGame"]
