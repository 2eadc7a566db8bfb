"""The one core every game, agent, simulator, replay and test drives (OpenSpiel-style).

A :class:`Game` holds the static rules (a validated ``CardSet`` and the player count) and makes
states. A :class:`State` is one position, driven by a handful of verbs:

    current_player()   who must choose now (TERMINAL when the game is over)
    legal_actions()    the choices open to that player, as small ints
    apply_action(a)    make one; raises RulesError if ``a`` is not legal
    is_terminal()      the game is over
    returns()          per player, in [0, 1]: 1 for a win, 0 for a loss, a draw splits 1
    clone()            an independent copy (fast path for search)
    observation(p)     what player ``p`` may know, and nothing more

Randomness (shuffles, coin flips) comes only from the ``random.Random`` the state was created
with, seeded by the caller; rules code never touches the global ``random``. So a game is fully
determined by (card-set content hash, switches, agents, seed).

Agents never see a State. They get an :class:`Observation`: the player's view, the legal
actions, and ``determinize(rng)`` which builds a full State consistent with that view by
sampling the unknown cards from what the player cannot see. Search agents (mcts) work on such
samples, so an agent cannot peek even by accident.
"""

from __future__ import annotations

import random
from typing import Any, Protocol, runtime_checkable

TERMINAL = -4
"""``current_player()`` once the game is over."""


@runtime_checkable
class Observation(Protocol):
    """A player's view of a state at a decision point."""

    player: int

    def legal_actions(self) -> list[int]:
        """The actions the observing player may take now (empty if it is not their turn)."""
        ...

    def determinize(self, rng: random.Random) -> State:
        """A full state consistent with this view; hidden cards drawn from ``rng``."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The view as plain data (for transcripts, debugging and the no-peeking test)."""
        ...


class Summary(Protocol):
    """What every game says about a finished game; each game's summary type adds its own facts.

    ``to_json()`` is the summary as plain data, as logs and replays store it.
    """

    @property
    def winner(self) -> int | None:
        """The seat that won, None for a draw (or an unfinished game)."""

    @property
    def draw(self) -> bool: ...

    @property
    def scores(self) -> tuple[int, ...]:
        """Per seat."""

    @property
    def first_player(self) -> int:
        """The seat that moved first (Day of the Dead: the first priority); -1 if unknown."""

    @property
    def turns(self) -> int:
        """The game's length in its own unit."""

    @property
    def played(self) -> tuple[tuple[str, ...], ...]:
        """Per seat, the card ids it played (sorted)."""

    def to_json(self) -> dict[str, Any]: ...


class State(Protocol):
    """One position of a game.

    ``legal_actions()`` returns a list the state owns: read it, never change it; it holds until
    the next ``apply_action`` (so an engine may hand out its own list without copying).
    """

    def current_player(self) -> int: ...

    def legal_actions(self) -> list[int]: ...

    def apply_action(self, action: int) -> None: ...

    def is_terminal(self) -> bool: ...

    def returns(self) -> list[float]: ...

    def clone(self) -> State: ...

    def observation(self, player: int) -> Observation: ...

    def action_to_string(self, action: int) -> str:
        """A short readable form of ``action`` in this state, e.g. ``spirit Anger@double``."""
        ...

    def summary(self) -> Summary:
        """Typed facts about a finished game, read by the statistics (see engine/sim/tally.py)."""
        ...


class Game(Protocol):
    """Static rules: the card set, its switches, the number of players."""

    num_players: int

    def new_initial_state(self, seed: int) -> State:
        """A fresh game, shuffled and dealt from ``seed``."""
        ...


@runtime_checkable
class Agent(Protocol):
    """A player. ``rng`` is the agent's own seeded stream, so its choices are reproducible."""

    name: str

    def choose(self, obs: Observation, rng: random.Random) -> int: ...
