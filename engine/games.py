"""The registry: the one place the shared code meets the games, by name.

Each entry names a game folder's spec module (it defines ``SPEC``, a
:class:`~boneyard.engine.spec.GameSpec`); a spec module is imported on first use, so working with
one game never pays for another. A third game is a new folder and one line here, or one
:func:`register` call (tests register a toy game that way).
"""

from __future__ import annotations

import importlib
from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.core import Game
from boneyard.engine.faces import Deck, RulesRuns
from boneyard.engine.spec import GameSpec

from boneyard.errors import RulesError

#: rules name (``game.yaml`` ``rules:``) -> the module holding its ``SPEC``
GAMES: dict[str, str] = {
    "day-of-the-dead": "boneyard.engine.dotd.spec",
    "grave-feast": "boneyard.engine.gf.spec",
}

_SPECS: dict[str, GameSpec] = {}


def register(spec: GameSpec) -> None:
    """Add a game at run time (a game outside this package, or a test's toy game)."""
    _SPECS[spec.name] = spec
    GAMES.setdefault(spec.name, "")


def names() -> list[str]:
    """Every registered rules name, sorted."""
    return sorted(GAMES)


def spec_of(rules: str) -> GameSpec:
    """The spec of the game played under ``rules``; RulesError names the known ones."""
    spec = _SPECS.get(rules)
    if spec is None:
        module = GAMES.get(rules)
        if not module:
            raise RulesError(f"no rules engine called '{rules}' (known: {', '.join(names())})")
        spec = _SPECS[rules] = importlib.import_module(module).SPEC
    return spec


def specs() -> list[GameSpec]:
    """Every registered game's spec, in name order."""
    return [spec_of(n) for n in names()]


def build_deck(card_set: CardSet, rules_runs: RulesRuns | None = None) -> Deck:
    """Faces and physical cards of a set, in the set's own deck order (its game's spec)."""
    return spec_of(card_set.rules).deck(card_set, rules_runs)


def make_game(card_set: CardSet, num_players: int | None = None, **options: Any) -> Game:
    """The Game for ``card_set`` under its rules; ``options`` are engine options (``rares``...)."""
    return spec_of(card_set.rules).make_game(card_set, num_players, **options)
