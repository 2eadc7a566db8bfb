"""What one Day of the Dead player may know (DD-24), and determinization for search agents.

A player sees: their own hand, spirit and every face of their own line; all backs; active faces;
discard piles; scores; the priority holder; and any face-down card they have seen face up before
(players remember). They never see the opponent's hand, the face of a face-down card they have not
seen, a simultaneous choice not yet revealed, or the order of a deck.

``determinize`` rebuilds a full state from this view: it pools the cards the player cannot locate
(sorted, so the pool depends only on the view), shuffles them with the agent's rng and deals them
back into the hidden places by back, so no sample depends on where the hidden cards really are.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from .cards import BACKS
from .codes import D_FLIP, D_SELECT, D_UE_PICK, DECISION_NAMES
from .position import Position
from .sample import deal_hidden
from .tables import action_string

# The state an observation is of, and what ``determinize`` returns: the game's DotdState, which
# extends Position; generic so that this module sits below the state machine that builds it.
S = TypeVar("S", bound=Position)

_LAZY = frozenset((
    "turn", "priority", "scores", "hand", "opponent_hand_backs", "lines", "spirits", "chosen",
    "opponent_chosen_backs", "discards", "deck_sizes", "decision", "detail", "look",
    "unearth_target", "unearth_owner", "fight_slot", "fight",
))


class DotdObservation(Generic[S]):
    """Player ``player``'s view of a state; valid until the next action is applied."""

    __slots__ = (
        "player",
        "game",
        "turn",
        "priority",
        "scores",
        "hand",
        "opponent_hand_backs",
        "lines",
        "spirits",
        "chosen",
        "opponent_chosen_backs",
        "discards",
        "deck_sizes",
        "decision",
        "detail",
        "look",
        "unearth_target",
        "unearth_owner",
        "fight_slot",
        "fight",
        "_legal",
        "_state",
        "_copy",
    )

    def __init__(self, state: S, player: int, copy: Callable[[], S]) -> None:
        """``copy`` makes an independent copy of ``state`` (its ``clone``): determinize deals into one."""
        # Only what every agent needs is built here; the rest (_fill) on first use, since a
        # random agent -- most playtest games -- never looks past the legal actions.
        self.player = player
        self.game = state.g
        self._state = state
        self._copy = copy
        self._legal = list(state.dl) if state.dk >= 0 and state.dp == player else []

    def __getattr__(self, name: str) -> Any:
        if name in _LAZY:
            self._fill()
            return object.__getattribute__(self, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _fill(self) -> None:
        state = self._state
        player = self.player
        g = state.g
        me, opp = player, 1 - player
        pub = state.pub
        self.player = player
        self.game = g
        self.turn = state.turn
        self.priority = state.prio
        self.scores = list(state.scores)
        self.hand = list(state.hands[me])
        self.opponent_hand_backs = sorted(g.back[c] for c in state.hands[opp])
        lines: list[list[tuple[int, int, bool]]] = [[], []]
        for p in (0, 1):
            for c, u in zip(state.lines[p], state.up[p], strict=True):
                known = p == me or u or pub[c]
                lines[p].append((c if known else -1, g.back[c], u))
        self.lines = lines
        spirits: list[tuple[int, int]] = []
        for p in (0, 1):
            s = state.spirit[p]
            if s < 0:
                spirits.append((-1, -1))
            else:
                spirits.append((s if (p == me or pub[s]) else -1, g.back[s]))
        self.spirits = spirits
        self.chosen = list(state.chosen[me])
        # A pending choice stays in the hand until the reveal. Simultaneous selection hides even
        # its back (DD-03), except the turn-1 fighter's once both fighters are down: step 1 puts
        # them face down before step 2's spirits; priority_first shows the backs of every choice
        # the first player has made.
        if g.simultaneous:
            opp_chosen = state.chosen[opp]
            placed = state.turn == 1 and bool(state.chosen[me]) and bool(opp_chosen)
            self.opponent_chosen_backs = [g.back[opp_chosen[0]]] if placed else []
        else:
            self.opponent_chosen_backs = [g.back[c] for c in state.chosen[opp]]
        self.discards = [list(d) for d in state.discards]
        self.deck_sizes = [len(d) for d in state.decks]
        mine = state.dk >= 0 and state.dp == me
        self.decision = DECISION_NAMES[state.dk] if mine else None
        # select: "fighter" (turn 1) or "spirit"; flip: "own_fallen" or "opponent_fought"
        self.detail = None
        if mine and state.dk == D_SELECT:
            self.detail = "fighter" if state.dc == 0 else "spirit"
        elif mine and state.dk == D_FLIP:
            self.detail = "own_fallen" if state.dc == 0 else "opponent_fought"
        picking = mine and state.dk == D_UE_PICK
        self.look = list(state.dc[2]) if picking else []
        # the card being replaced (public: it is discarded) and whose it is
        self.unearth_target = state.dc[0] if picking else -1
        self.unearth_owner = state.dc[1] if picking else -1
        self.fight_slot = state.fslot
        self.fight = list(state.fx)
        self._legal = list(state.dl) if mine else []
        self._state = state

    def legal_actions(self) -> list[int]:
        return list(self._legal)

    def action_to_string(self, action: int) -> str:
        s = self._state
        return action_string(self.game, s.dk, s.dc, action)

    def determinize(self, rng: random.Random) -> S:
        """A full state consistent with this view; every hidden card drawn from ``rng``."""
        s = self._copy()
        deal_hidden(s, self.player, rng)
        return s

    def to_json(self) -> dict[str, Any]:
        g = self.game

        def name(c: int) -> str | None:
            return g.card_name(c) if c >= 0 else None

        return {
            "player": self.player,
            "turn": self.turn,
            "priority": self.priority,
            "scores": self.scores,
            "hand": [name(c) for c in self.hand],
            "opponent_hand_backs": [BACKS[b] for b in self.opponent_hand_backs],
            "chosen": [name(c) for c in self.chosen],
            "opponent_chosen_backs": [BACKS[b] for b in self.opponent_chosen_backs],
            "lines": [
                [
                    {"card": name(c), "back": BACKS[b], "state": "active" if u else "fallen"}
                    for c, b, u in line
                ]
                for line in self.lines
            ],
            "spirits": [
                None if b < 0 else {"card": name(c), "back": BACKS[b]} for c, b in self.spirits
            ],
            "discards": {BACKS[b]: [name(c) for c in d] for b, d in enumerate(self.discards)},
            "deck_sizes": {BACKS[b]: n for b, n in enumerate(self.deck_sizes)},
            "decision": self.decision,
            "detail": self.detail,
            "look": [name(c) for c in self.look],
            "unearth_target": name(self.unearth_target),
            "legal": [self.action_to_string(a) for a in self._legal],
        }
