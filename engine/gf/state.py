"""One Grave Feast position, driven by the engine/core.py verbs.

Plain data for speed: cards are ints (see game.py's tables), hands/piles are lists, a family is
an immutable tuple ``(fid, food, lo, hi, eaters, cards)`` kept in its controller's list, so
``clone`` copies a few small lists and never deep-copies.

"At any time" is modelled by response windows (docs/rules/grave-feast.md, GF-08): after every
public event the other players, clockwise from the actor, are asked in turn whether to play an
instant; a player with nothing they could play is skipped without a decision, so windows cost
nothing when nobody holds a party crasher. A preacher opens a chain (preacher, evil preacher,
preacher, ...) that resolves as a stack once everyone passes. Succubus hijacks are sequential:
each steal resolves at once and opens a new window (windows.py).

This module holds the state's data and its verbs; it imports the rules' modules and none of them
imports it at run time (they name the class for types only), so the imports form no circle.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from boneyard.engine.core import TERMINAL
from boneyard.engine.gf.board import note_rares, shuffle
from boneyard.engine.gf.constants import (
    ATTACK,
    CHAIN,
    DW_STEAL,
    FOLLOWUP,
    MAIN,
    OVER,
    PHASE_NAMES,
    TRIMMING,
    WINDOW,
    Fam,
)
from boneyard.engine.gf.effects import apply
from boneyard.engine.gf.moves import legal_moves, main_moves
from boneyard.engine.gf.narration import card_name, describe
from boneyard.engine.gf.observation import FeastObservation, state_json
from boneyard.engine.gf.summary import FeastSummary, summarize
from boneyard.engine.gf.turn import start_turn

from boneyard.errors import RulesError

if TYPE_CHECKING:
    from boneyard.engine.gf.game import FeastGame


class FeastState:
    """A Grave Feast position. Build one with ``FeastGame.new_initial_state(seed)``.

    The core verbs live here; the rules they run are module functions by concern (turn.py,
    moves.py, windows.py, effects.py, rares.py, narration.py, summary.py, observation.py).

    ``legal_actions()`` returns a list owned by the state: the caller reads it and must not
    mutate it; it is valid until the next ``apply_action``. (Both games keep this contract; it
    saves a copy per decision, and the engine rebuilds the list rather than editing it.)
    """

    __slots__ = (
        "g", "n", "hands", "draw", "discard", "fams", "mash", "grave", "score", "removed",
        "tp", "turn_no", "played", "phase", "queue", "actor", "announced", "chain", "chain_target",
        "_rng", "_rng_owned", "_rng_seed", "_log_owned",
        "follow", "flubbed", "touched", "next_fid", "result", "capped", "stats", "log",
        "last_feast", "_legal", "dw", "locked", "confused", "hidden", "dw_used", "attack",
        "skip", "trim", "steal_left", "dw_card", "held_rare", "first", "rebuffed", "fed",
        "scripted",
    )  # fmt: skip

    # The slots' types: documentation, and what mypyc compiles to plain C fields (setup.py).
    g: FeastGame
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
    held_rare: dict[int, set[int]]
    first: int  # who played the first turn
    rebuffed: list[tuple[int, int]]  # (succubus, exorcist): a lone attack returned this turn
    fed: bool  # the turn player fed a family this turn (graveyard_ends_turn: the turn is over)
    scripted: list[list[str]] | None  # a scenario's coins and phrases, in order (board.flip)

    # --- construction -------------------------------------------------------------------------

    @classmethod
    def deal(cls, game: FeastGame, rng: random.Random) -> FeastState:
        s = FeastState.__new__(FeastState)  # (not cls.__new__: mypyc compiles this one)
        n = game.num_players
        s.g = game
        s.n = n
        s._rng = rng
        s._rng_owned = True
        s._rng_seed = 0
        s._log_owned = True
        deck = list(range(game.size))
        shuffle(rng, deck)
        s.hands = [[] for _ in range(n)]
        for _ in range(game.hand_size):
            for p in range(n):
                if deck:
                    s.hands[p].append(deck.pop())
        s.draw = deck
        s.discard = []
        s.fams = [[] for _ in range(n)]
        s.mash = [[] for _ in range(n)]
        s.grave = [[] for _ in range(n)]
        s.score = [0] * n
        s.removed = []
        s.turn_no = 0
        s.played = False
        s.phase = MAIN
        s.queue = []
        s.actor = 0
        s.announced = []
        s.chain = []
        s.chain_target = -1
        s.follow = -1
        s.flubbed = []
        s.touched = []
        s.next_fid = 1
        s.result = None
        s.capped = False
        # steals, preaches, kills, feasts, reshuffles, flubs, turns
        s.stats = {"steals": 0, "preaches": 0, "kills": 0, "feasts": 0, "reshuffles": 0,
                   "flubs": 0, "chains": [], "counters": 0}  # fmt: skip
        s.log = []
        s.last_feast = [None] * n
        s._legal = None
        # rares
        s.dw = [[] for _ in range(n)]  # permanent Devil Wives on each board
        s.locked = []  # (player, card): stolen by a Devil Wife from the hand, unusable this turn
        s.confused = []  # (player, card): failed a maelstrom flip, waits for its controller's turn
        s.hidden = []  # [player, card, turns]: an Exorcist hiding in its cloister
        s.dw_used = False
        s.attack = None  # pending two-card attack on a rare: [kind, target, owner, cards]
        s.skip = []  # players who lose their next turn
        s.trim = []  # players who may discard down to 4 at their next turn
        s.steal_left = 0
        s.dw_card = -1
        s.held_rare = {}  # rare card -> players who held it (metrics)
        s.rebuffed = []
        s.fed = False
        s.scripted = None
        s.tp = s.first = rng.randrange(n)
        note_rares(s)
        start_turn(s)
        s._settle()
        return s

    def clone(self) -> FeastState:
        s = FeastState.__new__(FeastState)
        s.g = self.g
        s.n = self.n
        # copy-on-use: both share the RNG until one of them needs a random number (see rng)
        s._rng = self._rng
        s._rng_seed = self._rng_seed
        s._rng_owned = self._rng_owned = False
        s._log_owned = self._log_owned = False
        s.hands = [h[:] for h in self.hands]
        s.draw = self.draw[:]
        s.discard = self.discard[:]
        s.fams = [f[:] for f in self.fams]
        s.mash = [m[:] for m in self.mash]
        s.grave = [x[:] for x in self.grave]
        s.score = self.score[:]
        s.removed = self.removed[:]
        s.tp = self.tp
        s.turn_no = self.turn_no
        s.played = self.played
        s.phase = self.phase
        s.queue = self.queue[:]
        s.actor = self.actor
        s.announced = self.announced[:]
        s.chain = self.chain[:]
        s.chain_target = self.chain_target
        s.follow = self.follow
        s.flubbed = self.flubbed[:]
        s.touched = self.touched[:]
        s.next_fid = self.next_fid
        s.result = self.result
        s.capped = self.capped
        st = dict(self.stats)
        st["chains"] = st["chains"][:]
        s.stats = st
        s.log = self.log
        s.last_feast = self.last_feast[:]
        s._legal = self._legal
        s.dw = [d[:] for d in self.dw]
        s.locked = self.locked[:]
        s.confused = self.confused[:]
        s.hidden = [h[:] for h in self.hidden]
        s.dw_used = self.dw_used
        a = self.attack
        s.attack = None if a is None else [a[0], a[1], a[2], a[3][:], a[4][:]]
        s.skip = self.skip[:]
        s.trim = self.trim[:]
        s.steal_left = self.steal_left
        s.dw_card = self.dw_card
        s.held_rare = {k: set(v) for k, v in self.held_rare.items()} if self.held_rare else {}
        s.first = self.first
        s.rebuffed = self.rebuffed[:]
        s.fed = self.fed
        s.scripted = self.scripted
        return s

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

    # --- core verbs ---------------------------------------------------------------------------

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

    def legal_actions(self) -> list[int]:
        """The moves of the player to move (see the class docstring: read it, do not mutate it)."""
        legal = self._legal
        if legal is None:
            legal = self._settle()
        return legal

    def apply_action(self, action: int) -> None:
        legal = self._legal
        if legal is None:
            legal = self._settle()
        if action not in legal:
            if self.phase == OVER:
                raise RulesError("the game is over: no action is legal")
            raise RulesError(
                f"illegal action {action} ({describe(self, action)}) for "
                f"P{self.current_player() + 1} in phase {PHASE_NAMES[self.phase]}"
            )
        self._legal = None
        apply(self, action)
        legal = main_moves(self, self.tp) if self.phase == MAIN else legal_moves(self)
        while len(legal) == 1:  # as in _settle
            apply(self, legal[0])
            legal = legal_moves(self)
        self._legal = legal

    def _settle(self) -> list[int]:
        """Play forced moves (a single legal action) at once and cache the next real decision's
        actions: a move nobody can choose is no decision, so agents, logs and replays never see it."""
        legal = main_moves(self, self.tp) if self.phase == MAIN else legal_moves(self)
        while len(legal) == 1:
            apply(self, legal[0])
            legal = legal_moves(self)
        self._legal = legal
        return legal[:]

    def observation(self, player: int) -> FeastObservation:
        return FeastObservation(self, player)

    # --- text, summary ------------------------------------------------------------------------

    @property
    def turn(self) -> int:
        """The public turn number, 1-based like the seats in texts (turn_no counts from 0)."""
        return self.turn_no + 1

    def card_name(self, c: int) -> str:
        return card_name(self, c)

    def action_to_string(self, action: int) -> str:
        return describe(self, action)

    def summary(self) -> FeastSummary:
        """The game in figures for the statistics (engine/gf/metrics.py); ``.to_json()`` for logs."""
        return summarize(self)

    def to_json(self) -> dict[str, Any]:
        """The whole position as plain data (debugging, conformance checks)."""
        return state_json(self)

    def zones(self) -> dict[str, list[int]]:
        """Every card id by the zone it is in (the conformance tests check it is a partition)."""
        z: dict[str, list[int]] = {"draw": self.draw[:], "discard": self.discard[:], "removed": self.removed[:]}
        for p in range(self.n):
            z[f"hand{p}"] = self.hands[p][:]
            z[f"mash{p}"] = self.mash[p][:]
            z[f"grave{p}"] = self.grave[p][:]
            z[f"dw{p}"] = self.dw[p][:]
            z[f"families{p}"] = [c for f in self.fams[p] for c in f[5]]
            z[f"eaters{p}"] = [c for f in self.fams[p] for c in f[4]]
        return z

    def __repr__(self) -> str:
        return f"FeastState(turn {self.turn}, P{self.tp + 1}, {PHASE_NAMES[self.phase]}, scores {self.score})"


__all__ = ["FeastObservation", "FeastState"]
