"""The play table's view of a game (``boneyard play``): what one seat sees, as data a page draws.

Each game folder implements :class:`TableView` in its ``table.py`` and exposes it through
``GameSpec.table``. The web table (``pipeline/play``) calls nothing else of the game, so it never
names one, and every function here is given an :class:`~boneyard.engine.core.Observation` of the
seat it answers for: what it returns is what that seat may know (the no-peeking tests walk every
answer of the web table for hidden cards).

The view is plain JSON:

``view(obs)`` ->
    ``status``   what is being decided now, in words ("Choose your spirit");
    ``turn``     where the game is ("Turn 3 of 6");
    ``scores``   per seat, an int;
    ``marks``    per seat, short public facts ("priority", "5 cards in hand");
    ``areas``    a list of ``{"title", "seat" (int or None), "zones": [zone]}``;
    ``panels``   a list of ``{"title", "lines": [str]}`` (fights with totals, pending windows).
A zone is ``{"title", "cards": [card], "text"}``; a card is ``{"face"}`` (a printed face id of
the set's deck: ``GameSpec.deck``) or ``{"back"}`` (a back face id, for a card the seat may not
see), with ``name`` (its label) and optional ``note`` ("fallen", "9 = 7 +2 Power Up"), ``dim``
(face down or fallen) and ``card`` (the engine's card number, only for cards the seat sees, so a
legal move can point at it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from boneyard.engine.cards import CardSet
from boneyard.engine.core import Observation, State


class TableView(Protocol):
    """One game's play table (see the module docstring)."""

    def view(self, obs: Observation) -> dict[str, Any]:
        """The table as ``obs.player`` sees it."""
        ...

    def mover(self, obs: Observation, player: int) -> int | None:
        """Who the observing seat may be told is choosing while ``player`` (another seat) is:
        ``player``, or None where being asked at all tells what a hand holds (Grave Feast asks
        only the players who can answer a window, a chain or an attack). A game where that can
        happen answers None for every other seat, so that "someone is choosing" reads the same
        whether a window is open or not."""
        ...

    def moves(self, obs: Observation) -> list[dict[str, Any]]:
        """Each of ``obs.legal_actions()`` in order, as ``{"label", "card"?, "group"?}``: the
        card (engine number, as the view gives it) the move is about, and a heading to group
        the buttons under ("Fighter", "Response")."""
        ...

    def move_line(self, before: Observation, after: Observation, mover: int,
                  action: int) -> str | None:
        """The transcript line of ``mover``'s ``action`` as the observing seat may read it:
        ``before`` is that seat's view of a copy of the state the move was made in, ``after``
        of the state it led to (a card the seat saw neither before nor after is not named).
        None when the seat does not see the move at all (another player's silent pass, where
        being asked at all would tell what that player holds)."""
        ...

    def events(self, obs: Observation, start: int) -> tuple[list[str], int]:
        """What happened since event ``start`` (fights, reveals, coin flips, steals) in words
        the observing seat may read, and the new event count to pass next time; ``start`` is -1
        at the deal (how the game opened: who holds priority, who plays first)."""
        ...

    def scenario(self, data: Mapping[str, Any], card_set: CardSet, where: str) -> State:
        """The position a schema-valid scenario file (``data``, read from ``where``) describes,
        its steps played, on ``card_set`` (plus the cards the file invents), for the table to
        go on from; ScenarioError names a problem as ``where: path: message``."""
        ...
