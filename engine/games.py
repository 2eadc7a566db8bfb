"""One entry point from a card set to its rules engine, so callers never name an engine class.

The simulator, the CLI, replays and the gates all go through :func:`make_game`; the engines are
imported lazily so that loading one game never pays for the other.
"""

from __future__ import annotations

import importlib
from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.core import Game

from boneyard.errors import RulesError

#: rules name (``game.yaml`` ``rules:``) -> (module, Game class name)
ENGINES: dict[str, tuple[str, str]] = {
    "day-of-the-dead": ("boneyard.engine.dotd", "DotdGame"),
    "grave-feast": ("boneyard.engine.gf", "FeastGame"),
}


def engine_package(rules: str) -> str:
    """The engine package (``boneyard.engine.dotd``...) that plays ``rules``."""
    try:
        return ENGINES[rules][0]
    except KeyError:
        known = ", ".join(sorted(ENGINES))
        raise RulesError(f"no rules engine called '{rules}' (known: {known})") from None


def make_game(card_set: CardSet, num_players: int | None = None, **options: Any) -> Game:
    """The Game for ``card_set`` under its rules; ``options`` are engine options (``rares``...)."""
    module = importlib.import_module(engine_package(card_set.rules))
    game_class = getattr(module, ENGINES[card_set.rules][1])
    if num_players is not None:
        options["num_players"] = num_players
    game: Game = game_class(card_set, **options)
    return game
