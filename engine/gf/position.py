"""The data of one Grave Feast position (``Position``), below every rules module.

Plain data for speed: cards are ints (see rules.py's tables), hands/piles are lists, a family is
an immutable tuple ``(fid, food, lo, hi, eaters, cards)`` kept in its controller's list, so a
clone copies a few small lists and never deep-copies.

The rules modules (turn.py, moves.py, windows.py, effects.py, rares.py, narration.py, summary.py,
observation.py) take a ``Position``: its fields and the few plain methods here (the RNG, the event
log, whose move it is). ``FeastState`` (state.py) is a ``Position`` with the core verbs, which
call those modules; so the imports run one way, and mypyc still compiles every field access to
a native one (``Position`` is a native class).
"""

from __future__ import annotations

import random
from typing import Any

from boneyard.engine.core import TERMINAL
from boneyard.engine.gf.constants import (
    ATTACK,
    CHAIN,
    DW_STEAL,
    FOLLOWUP,
    MAIN,
    OVER,
    TRIMMING,
    WINDOW,
    Fam,
)
from boneyard.engine.gf.rules import FeastRules


class Position:
    """A Grave Feast position's data; ``FeastState`` (state.py) adds the verbs that play it."""

    __slots__ = (
        "g", "n", "hands", "draw", "discard", "fams", "mash", "grave", "score", "removed",
        "tp", "turn_no", "played", "phase", "queue", "actor", "announced", "chain", "chain_target",
        "_rng", "_rng_owned", "_rng_seed", "_log_owned",
        "follow", "flubbed", "touched", "next_fid", "result", "capped", "stats", "log",
        "last_feast", "_legal", "dw", "locked", "confused", "hidden", "dw_used", "attack",
        "skip", "trim", "steal_left", "dw_card", "dw_stealing", "held_rare", "first", "rebuffed",
        "fed", "scripted",
    )  # fmt: skip

    # The slots' types: documentation, and what mypyc compiles to plain C fields (setup.py).
    g: FeastRules
    n: int
    hands: list[list[int]]
    draw: list[int]
    discard: list[int]
    fams: list[list[Fam]]
    mash: list[list[int]]
    grave: list[list[int]]
    score: list[int]
    removed: list[int]
    tp: int
    turn_no: int
    played: bool
    phase: int
    queue: list[int]
    actor: int
    announced: list[int]
    chain: list[int]
    chain_target: int
    _rng: random.Random | None
    _rng_owned: bool
    _rng_seed: int
    _log_owned: bool
    follow: int
    flubbed: list[int]
    touched: list[int]
    next_fid: int
    result: list[float] | None
    capped: bool
    stats: dict[str, Any]  # counters, and "chains": the length of each preacher chain
    log: list[tuple[Any, ...]]
    last_feast: list[tuple[str, int, str] | None]  # per seat: (food, humans, eater kind)
    _legal: list[int] | None
    dw: list[list[int]]
    locked: list[tuple[int, int]]
    confused: list[tuple[int, int]]
    hidden: list[list[int]]
    dw_used: bool
    attack: list[Any] | None  # [kind attacked, its card, owner, attackers' cards, evil preachers]
    skip: list[int]
    trim: list[int]
    steal_left: int
    dw_card: int
    dw_stealing: int  # the Devil Wife from the hand whose steal is under way (GF-25), or -1:
    # she is in play, between her player's hand and the discard pile, until her power is spent
    held_rare: dict[int, set[int]]
    first: int  # who played the first turn
    rebuffed: list[tuple[int, int]]  # (succubus, exorcist): a lone attack returned this turn
    fed: bool  # the turn player fed a family this turn (graveyard_ends_turn: the turn is over;
    # false: no play since the feast, which the coverage counts)
    scripted: list[list[str]] | None  # a scenario's coins and phrases, in order (board.flip)

    @property
    def rng(self) -> random.Random:
        """The state's own seeded RNG. Clones share it until one needs a number: then that one
        forks a private copy, so neither's draws ever move the other's stream."""
        r = self._rng
        if r is None:  # a determinized state, seeded lazily
            r = self._rng = random.Random(self._rng_seed)
            self._rng_owned = True
        elif not self._rng_owned:
            fork = random.Random.__new__(random.Random)
            fork.setstate(r.getstate())
            r = self._rng = fork
            self._rng_owned = True
        return r

    @rng.setter
    def rng(self, value: random.Random) -> None:
        self._rng = value
        self._rng_owned = True

    def note(self, event: tuple[Any, ...]) -> None:
        """Append to the event log (coin flips, steals, feasts...), copying it if shared."""
        if not self._log_owned:
            self.log = self.log[:]
            self._log_owned = True
        self.log.append(event)

    def current_player(self) -> int:
        ph = self.phase
        if ph in (MAIN, TRIMMING):
            return self.tp
        if ph in (WINDOW, CHAIN, ATTACK):
            return self.queue[0]
        if ph in (FOLLOWUP, DW_STEAL):
            return self.actor
        return TERMINAL

    def is_terminal(self) -> bool:
        return self.phase == OVER

    def returns(self) -> list[float]:
        if self.result is None:
            return [0.0] * self.n
        return list(self.result)

    @property
    def turn(self) -> int:
        """The public turn number, 1-based like the seats in texts (turn_no counts from 0)."""
        return self.turn_no + 1
