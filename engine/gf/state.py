"""One Grave Feast position driven by the engine/core.py verbs, and a player's view of it.

The position's data is ``Position`` (position.py): plain data for speed, so ``clone`` copies a
few small lists and never deep-copies.

"At any time" is modelled by response windows (docs/rules/grave-feast.md, GF-08): after every
public event the other players, clockwise from the actor, are asked in turn whether to play an
instant; a player with nothing they could play is skipped without a decision, so windows cost
nothing when nobody holds a party crasher. A preacher opens a chain (preacher, evil preacher,
preacher, ...) that resolves as a stack once everyone passes. Succubus hijacks are sequential:
each steal resolves at once and opens a new window (windows.py).

Layers: ``FeastState`` is a ``Position`` with the verbs; they call the rules' modules, which
take a ``Position`` and import nothing above it, so the imports form no circle. The observation
lives here because it calls the verbs (legal actions, clone) and returns a ``FeastState``.
"""

from __future__ import annotations

import random
from typing import Any

from boneyard.engine.gf.board import note_rares, shuffle
from boneyard.engine.gf.constants import DW_STEAL, MAIN, OVER, PHASE_NAMES, Fam
from boneyard.engine.gf.effects import apply
from boneyard.engine.gf.moves import legal_moves, main_moves
from boneyard.engine.gf.narration import card_name, describe
from boneyard.engine.gf.observation import fam_json, state_json
from boneyard.engine.gf.position import Position
from boneyard.engine.gf.rules import FeastRules
from boneyard.engine.gf.summary import FeastSummary, summarize
from boneyard.engine.gf.turn import start_turn

from boneyard.errors import RulesError


class FeastState(Position):
    """A Grave Feast position. Build one with ``FeastGame.new_initial_state(seed)``.

    The core verbs live here; the rules they run are module functions by concern (turn.py,
    moves.py, windows.py, effects.py, rares.py, narration.py, summary.py, observation.py).

    ``legal_actions()`` returns a list owned by the state: the caller reads it and must not
    mutate it; it is valid until the next ``apply_action``. (Both games keep this contract; it
    saves a copy per decision, and the engine rebuilds the list rather than editing it.)
    """

    __slots__ = ()  # the fields are all Position's (and pure Python makes no __dict__)

    # --- construction -------------------------------------------------------------------------

    @classmethod
    def deal(cls, game: FeastRules, rng: random.Random) -> FeastState:
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
        s.dw_stealing = -1
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
        s.dw_stealing = self.dw_stealing
        s.held_rare = {k: set(v) for k, v in self.held_rare.items()} if self.held_rare else {}
        s.first = self.first
        s.rebuffed = self.rebuffed[:]
        s.fed = self.fed
        s.scripted = self.scripted
        return s

    # --- core verbs ---------------------------------------------------------------------------

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
        if self.dw_stealing >= 0:
            z["stealing"] = [self.dw_stealing]  # a Devil Wife from the hand, at work (GF-25)
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


class FeastObservation:
    """What one player may know: own hand, the board, piles' sizes, the public discard pile.

    A view on the state, not a copy: agents read it within one decision. ``determinize``
    samples a full state consistent with it (the search agents' worlds).
    """

    __slots__ = ("_s", "player")

    def __init__(self, state: FeastState, player: int) -> None:
        self._s = state
        self.player = player

    def legal_actions(self) -> list[int]:
        """The state's list when this player is to move (the same contract: read, never mutate)."""
        s = self._s
        if s.phase == OVER or s.current_player() != self.player:
            return []
        return s.legal_actions()

    def looking(self) -> bool:
        """True while this player's Devil Wife from the hand picks her takes: she "can look
        through their hands" (GF-25), so the other hands are part of what the player knows."""
        s = self._s
        return s.phase == DW_STEAL and s.actor == self.player

    def determinize(self, rng: random.Random) -> FeastState:
        """A full state: the other hands and the draw pile resampled from the unseen cards
        (the hands a looking Devil Wife sees are kept: only the draw pile is unseen then)."""
        s = self._s.clone()
        p = self.player
        pool = list(s.draw)
        sizes = []
        sighted = self.looking()
        for q in range(s.n):
            if q != p and not sighted:
                pool.extend(s.hands[q])
                sizes.append((q, len(s.hands[q])))
        # Canonical order first: the pool's order must not depend on where the hidden cards
        # really are, or the sample would leak them (the no-peeking test checks this).
        pool.sort()
        rnd = rng.random
        pool.sort(key=lambda _c: rnd())  # a uniform shuffle, cheaper than rng.shuffle
        for q, k in sizes:
            s.hands[q] = pool[:k]
            del pool[:k]
        s.draw = pool
        s._rng = None  # future chance is resampled too: a fresh seed, drawn lazily
        s._rng_seed = rng.getrandbits(64)
        s._rng_owned = True
        s._legal = None
        if s.g.rares:
            # hidden Exorcists and locked cards are public facts about a hand; keep them consistent
            s.hidden = [h for h in s.hidden if h[1] in s.hands[h[0]]]
            s.locked = [x for x in s.locked if x[1] in s.hands[x[0]]]
        return s

    # --- the view, for agents -----------------------------------------------------------------
    @property
    def game(self) -> FeastRules:
        return self._s.g

    @property
    def hand(self) -> list[int]:
        return self._s.hands[self.player][:]

    @property
    def families(self) -> list[list[Fam]]:
        return [f[:] for f in self._s.fams]

    @property
    def mashes(self) -> list[list[int]]:
        return [m[:] for m in self._s.mash]

    @property
    def devil_wives(self) -> list[list[int]]:
        """Each player's permanent Devil Wives (on the table for everyone to see)."""
        return [d[:] for d in self._s.dw]

    @property
    def scores(self) -> list[int]:
        return self._s.score[:]

    @property
    def phase(self) -> str:
        return PHASE_NAMES[self._s.phase]

    @property
    def announced(self) -> list[int]:
        return self._s.announced[:]

    @property
    def chain_target(self) -> int:
        return self._s.chain_target

    @property
    def chain(self) -> list[int]:
        """Players of the preacher chain so far (first = the preacher)."""
        return self._s.chain[:]

    @property
    def attack(self) -> tuple[int, int, int] | None:
        """A pending two-card attack on a rare: (kind attacked, its card, its owner)."""
        a = self._s.attack
        return None if a is None else (a[0], a[1], a[2])

    def eater_owner(self, e: int) -> int:
        s = self._s
        for p in range(s.n):
            if e in s.mash[p] or any(e in f[4] for f in s.fams[p]):
                return p
        return -1

    def to_json(self) -> dict[str, Any]:
        s = self._s
        g = s.g
        view: dict[str, Any] = {
            "player": self.player,
            "turn_player": s.tp,
            "turn": s.turn_no,
            "phase": PHASE_NAMES[s.phase],
            "scores": s.score[:],
            "hand": [g.names[c] for c in s.hands[self.player]],
            "hand_sizes": [len(h) for h in s.hands],
            "draw_pile": len(s.draw),
            "discard": [g.names[c] for c in s.discard],
            "families": [[fam_json(s, f) for f in fams] for fams in s.fams],
            "mashes": [[g.names[c] for c in m] for m in s.mash],
            "graveyards": [len(x) for x in s.grave],
            "devil_wives": [len(d) for d in s.dw],
            "announced": s.announced[:],
            "chain": len(s.chain),
            "legal_actions": self.legal_actions()[:],  # plain data the caller owns
        }
        if self.looking():
            view["seen_hands"] = [[g.names[c] for c in h] for h in s.hands]
        return view


__all__ = ["FeastObservation", "FeastState"]
