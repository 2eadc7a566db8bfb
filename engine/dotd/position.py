"""A Day of the Dead position as data: its fields and the plain reads and counts on them.

The state machine (``DotdState`` in game.py) is this position plus the verbs that run the game
(``apply_action``, ``clone``, its views); the modules those verbs call (interpreter, choices,
turns, narrate, summary, observation) type their state as :class:`Position`, so they sit below the
machine and never import it. A native class when compiled (setup.py): their reads of its slots stay
native. Lines are lists, slot 1 (oldest) first.
"""

from __future__ import annotations

from typing import Any

from boneyard.engine.core import TERMINAL

from boneyard.errors import RulesError

from .codes import (
    A_NO_LEGAL,
    D_NONE,
    DECISION_NAMES,
    F_AL,
    F_AW,
    F_BONUS,
    F_SETP,
    F_SUP,
    F_WT,
    FIGHT_RESET,
    NO_SETP,
    POWER_UP,
)
from .tables import GameTables, action_string


class Position:
    """The fields of one Day of the Dead position, and what can be read off them."""

    __slots__ = (
        "g",
        "seed",
        "nshuf",
        "turn",
        "prio",
        "first_prio",
        "decks",
        "discards",
        "pub",
        "hands",
        "lines",
        "up",
        "spirit",
        "chosen",
        "eff_back",
        "nback",
        "scores",
        "stack",
        "dk",
        "dp",
        "dl",
        "dc",
        "fslot",
        "fx",
        "wonc",
        "lostc",
        "won_n",
        "conv_n",
        "done",
        "history",
        "stats",
        "score_log",
        "end_turn",
        "fight_log",
        "retrig",
        "events",
        "fired",
    )

    def _init(self, g: GameTables, seed: int) -> None:
        self.g = g
        # Later shuffles (a deck running out) draw from Random(seed, shuffle number): no generator
        # state to copy, so clone stays cheap and a clone replays exactly like the original.
        self.seed = seed
        self.nshuf = 0
        self.turn = 0
        self.prio = 0
        self.first_prio = 0
        self.decks: list[list[int]] = [[], [], []]
        self.discards: list[list[int]] = [[], [], []]
        self.pub = [False] * g.n
        self.hands: list[list[int]] = [[], []]
        self.lines: list[list[int]] = [[], []]
        self.up: list[list[bool]] = [[], []]
        self.spirit = [-1, -1]
        self.chosen: list[list[int]] = [[], []]
        self.eff_back = [-1, -1]
        self.nback = [[0, 0, 0], [0, 0, 0]]  # backs in each line and spirit (the back limit, DD-04)
        self.scores = [0, 0]
        self.stack: list[Any] = []
        self.dk = D_NONE
        self.dp = TERMINAL
        self.dl: list[int] = []
        self.dc: Any = None
        self.fslot = -1
        self.fx = list(FIGHT_RESET)
        self.wonc: list[int] = []
        self.lostc: list[int] = []
        self.won_n = [0, 0]
        self.conv_n = [0, 0]
        self.done = False
        self.history: list[int] = []  # actions applied (for replay logs)
        # per player: [played chars, (unused), conversions, unearths, digs]
        self.stats: list[list[Any]] = [[[], [], 0, 0, 0], [[], [], 0, 0, 0]]
        self.score_log: list[tuple[int, int, int]] = []  # per turn: (score0, score1, priority holder at rewards)
        self.end_turn = g.turns  # a scenario may end the game earlier
        self.fight_log: list[tuple[Any, ...]] = []  # (turn, slot, card0, card1, total0, total1, won0, won1)
        self.retrig = [0, 0]  # Unearth spirits fired again this turn (DD-07 switch), capped
        self.events: list[str] | None = [] if g.record_events else None  # see DotdGame.record_events
        # coverage counts, both players together (slots: GameTables.fired_names): the abilities,
        # each compiled step, each character's effect fired (one list: a clone copies it once)
        self.fired: list[int] = [0] * g.n_fired

    # --- reads ---------------------------------------------------------------------------------

    def current_player(self) -> int:
        return self.dp if self.dk >= 0 else TERMINAL

    def legal_actions(self) -> list[int]:
        """The pending decision's options; [] once the game is over.

        The list is owned by the state: read it, never mutate it; it is valid until the next
        ``apply_action`` (the engine hands out its own list, no copy per decision).
        """
        return self.dl

    def is_terminal(self) -> bool:
        return self.done

    def returns(self) -> list[float]:
        if not self.done:
            return [0.0, 0.0]
        w = self.winner()
        if w is None:
            return [0.5, 0.5]
        return [1.0, 0.0] if w == 0 else [0.0, 1.0]

    def winner(self) -> int | None:
        """The winner of a finished game, or None for a draw (DD-22)."""
        a, b = self.scores
        if a != b:
            return 0 if a > b else 1
        if self.g.tie_chain:
            keys = []
            for p in (0, 1):
                act = [self.g.power[c] for c, u in zip(self.lines[p], self.up[p], strict=True) if u]
                keys.append((len(act), max(act, default=-1)))
            if keys[0] != keys[1]:
                return 0 if keys[0] > keys[1] else 1
        return None

    def _refuse(self, action: int) -> None:
        if self.dk < 0:
            raise RulesError("the game is over; no action can be applied")
        raise RulesError(
            f"illegal action {action} at {DECISION_NAMES[self.dk]} for player {self.dp}; "
            f"legal: {self.dl}"
        )

    def action_to_string(self, action: int) -> str:
        return action_string(self.g, self.dk, self.dc, action)

    # --- turn structure ------------------------------------------------------------------------

    def _selectable(self, p: int, count: bool = False) -> list[int]:
        """Hand cards ``p`` may play now under the back limit (DD-04); ``count``: the turn loop's
        call, which counts a hand with no card under the limit (``no_legal_card``)."""
        g = self.g
        chosen = self.chosen[p]
        hand = [c for c in self.hands[p] if c not in chosen] if chosen else self.hands[p][:]
        if self.turn >= g.free_turn:
            return hand
        counts = self.nback[p]  # backs in line and spirit
        lim = g.back_limit
        back = g.back
        if chosen:
            counts = counts[:]
            for c in chosen:
                counts[back[c]] += 1
        if counts[0] < lim and counts[1] < lim and counts[2] < lim:
            return hand
        legal = [c for c in hand if counts[back[c]] < lim]
        if not legal:
            if not hand:
                raise RulesError(f"player {p} has no card to play on turn {self.turn}")
            if count:
                self.fired[A_NO_LEGAL] += 1
            return hand  # no_legal_card = play_any
        return legal

    def count_backs(self) -> None:
        """Recount the backs in each line and spirit (``nback``), after a position was set up.

        Play keeps the counts itself: only a reveal adds cards there; a new slot, a conversion
        and an Unearth move cards between line and spirit or swap a card for one of its back.
        """
        back = self.g.back
        for p in (0, 1):
            cards = self.lines[p] + ([self.spirit[p]] if self.spirit[p] >= 0 else [])
            self.nback[p] = [sum(1 for c in cards if back[c] == b) for b in range(3)]

    # --- fights --------------------------------------------------------------------------------

    def fight_total(self, p: int) -> int:
        """Fight power of ``p``'s side of the current fight so far (DD-11)."""
        g = self.g
        fx = self.fx
        c = self.lines[p][self.fslot]
        sp = fx[F_SETP + p]
        total = (g.power[c] if sp == NO_SETP else sp) + fx[F_BONUS + p]
        if self.eff_back[p] == POWER_UP and not fx[F_SUP + p]:
            total += g.pu_bonus
        if g.fp_power and p == self.first_prio:
            total += g.fp_power
        return total

    def losing(self, p: int) -> bool:
        """Whether ``p``'s side would lose the current fight if it were judged now: the power
        so far, and the automatic results and tie-wins it has gained (DD-11, DD-12), as the
        fight's resolution judges them. Why: "If this fighter is losing" (Sore Loser) reads as
        losing the fight, and a 9-9 tie the other side wins is lost however level the power."""
        fx = self.fx
        o = 1 - p
        w = (fx[F_AW + p] > fx[F_AL + p]) - (fx[F_AL + p] > fx[F_AW + p])
        v = (fx[F_AW + o] > fx[F_AL + o]) - (fx[F_AL + o] > fx[F_AW + o])
        if w != v:
            return w < v
        if w == 1:  # both win automatically: a tie, both win
            return False
        if w == -1 and self.g.both_lose:  # both lose automatically (DD-12)
            return True
        t = self.fight_total(p)
        u = self.fight_total(o)
        if t != u:
            return t < u
        return fx[F_WT + o] > fx[F_WT + p]  # a tie: won by the side that wins ties, unless both do
