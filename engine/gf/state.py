"""One Grave Feast position, driven by the engine/core.py verbs.

Plain data for speed: cards are ints (see game.py's tables), hands/piles are lists, a family is
an immutable tuple ``(fid, food, lo, hi, eaters, cards)`` kept in its controller's list, so
``clone`` copies a few small lists and never deep-copies.

"At any time" is modelled by response windows (docs/rules/grave-feast.md, GF-08): after every
public event the other players, clockwise from the actor, are asked in turn whether to play an
instant; a player with nothing they could play is skipped without a decision, so windows cost
nothing when nobody holds a party crasher. A preacher opens a chain (preacher, evil preacher,
preacher, ...) that resolves as a stack once everyone passes. Succubus hijacks are sequential:
each steal resolves at once and opens a new window.

Actions are packed ints ``op | x << 5 | y << 15 | z << 25 | flag << 35`` with card ids and family
ids as arguments, so the same int means the same move in every determinization of a view.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from boneyard.engine.core import TERMINAL
from boneyard.engine.gf.game import (
    DEVIL_WIFE,
    EATER_OF,
    EXORCIST,
    FOOD_NAMES,
    HUMAN,
    KIND_NAMES,
    PREACHER,
    SUCCUBUS,
    VAMPIRE,
    ZOMBIE,
    FeastGame,
)

from boneyard.errors import RulesError

# The rares' rules live in their own module, which builds on this one (it imports this module):
# the package binds it here once both are loaded (engine/gf/__init__.py), so no call pays for an
# import statement and no import cycle runs at load time.
_rares: Any = None

#: A family on a board: (id, food, lowest number, highest number, eater cards, human cards).
Fam = tuple[int, int, int, int, tuple[int, ...], tuple[int, ...]]

# --- actions ----------------------------------------------------------------------------------
END, DISCARD, START, EXTEND, JOIN, ATTACH, MASH, ANNOUNCE = range(8)
STEAL_FAM, STEAL_MASH, PREACH, PASS, COUNTER, DONE = range(8, 14)
# rares
DW_PLACE, DW_SEDUCE, DW_HAND, DW_DROP, DW_TAKE, EXO_HAND, PREACH_DW, SUCC_EXO, JOIN_ATTACK = range(14, 23)
TRIM = 23
OP_NAMES = (
    "end", "discard", "start", "extend", "join", "attach", "mash", "announce", "steal_family",
    "steal_mash", "preach", "pass", "counter", "done", "dw_place", "dw_seduce", "dw_hand",
    "dw_drop", "dw_take", "exorcist", "preach_dw", "succubus_exorcist", "join_attack", "trim",
)  # fmt: skip

M10 = 1023


def pack(op: int, x: int = 0, y: int = 0, z: int = 0, flag: int = 0) -> int:
    """An action int from its op and up to three 10-bit arguments and a flag."""
    return op | x << 5 | y << 15 | z << 25 | flag << 35


def unpack(a: int) -> tuple[int, int, int, int, int]:
    return a & 31, (a >> 5) & M10, (a >> 15) & M10, (a >> 25) & M10, (a >> 35) & 1


def shuffle(rng: random.Random, x: list[int]) -> None:
    """``rng.shuffle(x)`` with the same draws, but with CPython's ``_randbelow`` inlined (a plain
    ``random.Random`` draws ``getrandbits(bit_length)`` until below the bound): the deal and
    every recycle shuffle, and the library's two nested calls per card were a visible share of a
    game. A subclass of Random keeps its own shuffle."""
    if type(rng) is not random.Random:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


# --- phases -----------------------------------------------------------------------------------
MAIN, WINDOW, CHAIN, FOLLOWUP, OVER = range(5)
DW_STEAL, ATTACK, TRIMMING = range(5, 8)  # rares
PHASE_NAMES = ("main", "window", "chain", "followup", "over", "dw_steal", "attack", "trim")

NO_EATERS = (-1, -1, -1)
_NONE_BLOCKED: frozenset[int] = frozenset()

# family tuple fields
FID, FFOOD, LO, HI, EAT, CARDS = range(6)

# DW_SEDUCE / DW_TAKE sources (x field)
SRC_DISCARD, SRC_FAMILY, SRC_MASH, SRC_HAND = range(4)


class FeastState:
    """A Grave Feast position. Build one with ``FeastGame.new_initial_state(seed)``."""

    __slots__ = (
        "g", "n", "hands", "draw", "discard", "fams", "mash", "grave", "score", "removed",
        "tp", "turn_no", "played", "phase", "queue", "actor", "announced", "chain", "chain_target",
        "_rng", "_rng_owned", "_rng_seed", "_log_owned",
        "follow", "flubbed", "touched", "next_fid", "result", "capped", "stats", "log",
        "last_feast", "_legal", "dw", "locked", "confused", "hidden", "dw_used", "attack",
        "skip", "trim", "steal_left", "dw_card", "held_rare",
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
    result: Any
    capped: bool
    stats: dict[str, Any]
    log: list[Any]
    last_feast: list[Any]
    _legal: list[int] | None
    dw: list[Any]
    locked: list[Any]
    confused: list[Any]
    hidden: list[Any]
    dw_used: bool
    attack: Any
    skip: list[Any]
    trim: list[Any]
    steal_left: int
    dw_card: int
    held_rare: dict[Any, Any]

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
        s.tp = rng.randrange(n)
        s._note_rares()
        s._start_turn()
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
        s.attack = None if self.attack is None else [*self.attack[:3], self.attack[3][:]]
        s.skip = self.skip[:]
        s.trim = self.trim[:]
        s.steal_left = self.steal_left
        s.dw_card = self.dw_card
        s.held_rare = {k: set(v) for k, v in self.held_rare.items()} if self.held_rare else {}
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

    def _note(self, event: tuple) -> None:
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
        legal = self._legal
        if legal is None:
            legal = self._settle()
        return legal[:]

    def apply_action(self, action: int) -> None:
        legal = self._legal
        if legal is None:
            legal = self._settle()
        if action not in legal:
            if self.phase == OVER:
                raise RulesError("the game is over: no action is legal")
            raise RulesError(
                f"illegal action {action} ({self._describe(action)}) for "
                f"P{self.current_player() + 1} in phase {PHASE_NAMES[self.phase]}"
            )
        self._legal = None
        self._apply(action)
        legal = self._main_moves(self.tp) if self.phase == MAIN else self._moves()
        while len(legal) == 1:  # as in _settle
            self._apply(legal[0])
            legal = self._moves()
        self._legal = legal

    def _settle(self) -> list[int]:
        """Play forced moves (a single legal action) at once and cache the next real decision's
        actions: a move nobody can choose is no decision, so agents, logs and replays never see it."""
        legal = self._main_moves(self.tp) if self.phase == MAIN else self._moves()
        while len(legal) == 1:
            self._apply(legal[0])
            legal = self._moves()
        self._legal = legal
        return legal

    def observation(self, player: int) -> FeastObservation:
        return FeastObservation(self, player)

    # --- helpers ------------------------------------------------------------------------------

    def _find(self, fid: int) -> tuple[int, int]:
        """(controller, index) of family ``fid``; (-1, -1) if it left the board."""
        for p, fams in enumerate(self.fams):
            for i, f in enumerate(fams):
                if f[0] == fid:
                    return p, i
        return -1, -1

    def _mkfam(self, fid: int, food: int, cards: list[int] | tuple[int, ...], eaters: tuple[int, ...]) -> Fam:
        num = self.g.num
        cs = tuple(sorted(cards, key=num.__getitem__))
        return (fid, food, num[cs[0]], num[cs[-1]], eaters, cs)

    def _eligible(self, f: Fam) -> bool:
        cards = f[5]
        if not f[4] or len(cards) < self.g.min_family or f[3] - f[2] + 1 != len(cards):
            return False
        if self.confused:
            conf = [c for _, c in self.confused]
            return any(e not in conf for e in f[4])
        return True

    def _from_hand_or_mash(self, p: int, c: int) -> None:
        h = self.hands[p]
        if c in h:
            h.remove(c)
        else:
            self.mash[p].remove(c)

    def _first(self, cards: list[int], kind: int) -> int:
        K = self.g.kind
        for c in cards:
            if K[c] == kind:
                return c
        return -1

    def _usable(self, p: int, kind: int) -> list[int]:
        """The first card of ``kind`` in p's hand and in p's mash (instants: one of each)."""
        out = []
        K = self.g.kind
        blocked = self._blocked_cards(p) if (self.locked or self.hidden or self.confused) else ()
        for c in self.hands[p]:
            if K[c] == kind and c not in blocked:
                out.append(c)
                break
        if self.g.from_mash:
            for c in self.mash[p]:
                if K[c] == kind and c not in blocked:
                    out.append(c)
                    break
        return out

    def _has_preacher(self, p: int) -> bool:
        """``bool(self._usable(p, PREACHER))``, without building the list when nothing is blocked."""
        if self.locked or self.hidden or self.confused:
            return bool(self._usable(p, PREACHER))
        g = self.g
        if not g.preachers.isdisjoint(self.hands[p]):
            return True
        return g.from_mash and not g.preachers.isdisjoint(self.mash[p])

    def _blocked_cards(self, p: int) -> set[int] | frozenset[int]:
        """p's cards that cannot be used now (locked, hiding, confused); read-only."""
        if not (self.locked or self.hidden or self.confused):
            return _NONE_BLOCKED
        b = {c for q, c in self.locked if q == p}
        b.update(c for q, c, _ in self.hidden if q == p)
        b.update(c for q, c in self.confused if q == p)
        return b

    def _protected(self, q: int) -> bool:
        """An Exorcist in q's mash protects it from every steal (GF-22)."""
        return not self.g.exorcists.isdisjoint(self.mash[q])

    def _maelstrom(self, p: int) -> bool:
        """Is player p's monster under an Exorcist's maelstrom (some Exorcist in some mash)?"""
        exo_free = self.g.exorcists.isdisjoint
        for q, m in enumerate(self.mash):
            if (self.g.maelstrom_all or q != p) and not exo_free(m):
                return True
        return False

    def _flip(self, why: str) -> bool:
        """A logged coin flip from the state's seeded RNG; True is heads."""
        heads = self.rng.random() < self.g.p_heads
        self._note(("coin", why, "heads" if heads else "tails"))
        return heads

    def _confused_attempt(self, p: int, card: int, why: str) -> bool:
        """The maelstrom flip for a monster attempting something; True when it fails (tails)."""
        if not self.g.rares or not self._maelstrom(p):
            return False
        if self._flip(f"maelstrom: {why}"):
            return False
        self.confused.append((p, card))
        self.stats["confused"] = self.stats.get("confused", 0) + 1
        return True

    def _flub(self) -> bool:
        r = self.g.flub_rate
        if r > 0.0 and self.rng.random() < r:
            self.stats["flubs"] += 1
            return True
        return False

    def _note_rares(self) -> None:
        if not self.g.rares:
            return
        K = self.g.kind
        no_rare = self.g.rare_cards.isdisjoint
        for p, h in enumerate(self.hands):
            if no_rare(h):
                continue
            for c in h:
                if K[c] >= DEVIL_WIFE:
                    self.held_rare.setdefault(c, set()).add(p)

    # --- turn flow ----------------------------------------------------------------------------

    def _start_turn(self) -> None:
        g = self.g
        p = self.tp
        self.played = False
        if self.touched:
            self.touched = []
        if self.flubbed:
            self.flubbed = []
        self.dw_used = False
        self.phase = MAIN
        if self.locked:
            self.locked = [x for x in self.locked if x[0] != p]
        if self.confused:
            self.confused = [x for x in self.confused if x[0] != p]
        if self.hidden:
            for x in self.hidden:
                if x[0] == p:
                    x[2] -= 1
            self.hidden = [x for x in self.hidden if x[2] >= 0]
        if g.rares:
            if p in self.trim:
                self.trim.remove(p)
                if len(self.hands[p]) > 4:
                    self.phase = TRIMMING  # GF-26: she may discard down to 4 before drawing
                    return
            self._draw_up(p)
        else:
            hand = self.hands[p]
            k = g.hand_size - len(hand)
            if k > 0:
                draw = self.draw
                if len(draw) >= k:  # the common case: one slice from the top of the pile
                    hand += draw[-k:][::-1]
                    del draw[-k:]
                else:
                    self._draw_up(p)
        if g.turn_start_window:
            self._event(p)  # GF-08: the start of a turn is an event the others may answer

    def _turn_begins(self) -> None:
        """After a Devil Wife owner's trim: draw, then the start-of-turn window."""
        self.phase = MAIN
        self._draw_up(self.tp)
        if self.g.turn_start_window:
            self._event(self.tp)

    def _draw_up(self, p: int) -> None:
        g = self.g
        hand = self.hands[p]
        draw = self.draw
        while len(hand) < g.hand_size:
            if not draw:
                self._recycle()
                draw = self.draw
                if not draw:
                    break
            hand.append(draw.pop())
        if g.rares:
            self._note_rares()

    def _recycle(self) -> None:
        """GF-14: the discard pile and every graveyard make the new draw pile; scores are kept."""
        corpses = [c for gy in self.grave for c in gy]
        if not corpses and not self.discard:
            return
        self.grave = [[] for _ in range(self.n)]
        rng = self.rng
        if self.g.flip_recycle:
            pile = self.discard[::-1]  # the first card discarded comes up first
            for c in corpses:
                pile.insert(rng.randrange(len(pile) + 1), c)
        else:
            pile = self.discard + corpses
            shuffle(rng, pile)
        self.discard = []
        self.draw = pile
        self.stats["reshuffles"] += 1
        self._note(("reshuffle", len(pile)))

    def _end_turn(self) -> None:
        g = self.g
        p = self.tp
        if not g.rares:  # _start_turn inlined, less what only the rares need (skips, locks...)
            self.turn_no += 1
            n = self.n
            if self.turn_no >= g.turn_cap * n:
                self._finish_capped()
                return
            p += 1
            if p == n:
                p = 0
            self.tp = p
            self.played = False
            if self.touched:
                self.touched = []
            if self.flubbed:
                self.flubbed = []
            self.phase = MAIN
            hand = self.hands[p]
            k = g.hand_size - len(hand)
            if k > 0:
                draw = self.draw
                if k == 1 and draw:  # the commonest: one card after a discard
                    hand.append(draw.pop())
                elif len(draw) >= k:  # one slice from the top of the pile
                    hand += draw[-k:][::-1]
                    del draw[-k:]
                else:
                    self._draw_up(p)
            if g.turn_start_window:
                self._event(p)  # GF-08: the start of a turn is an event the others may answer
            return
        if self.dw[p]:
            self._draw_up(p)  # GF-24: a permanent Devil Wife refills her owner's hand
        self.turn_no += 1
        if self.turn_no >= g.turn_cap * self.n:
            self._finish_capped()
            return
        nxt = (p + 1) % self.n
        while nxt in self.skip:
            self.skip.remove(nxt)
            self.turn_no += 1
            nxt = (nxt + 1) % self.n
        self.tp = nxt
        self._start_turn()

    def _finish_capped(self) -> None:
        top = max(self.score)
        leaders = [i for i, v in enumerate(self.score) if v == top]
        share = 1.0 / len(leaders)
        self.result = [share if i in leaders else 0.0 for i in range(self.n)]
        self.capped = True
        self.phase = OVER
        self.queue = []

    def _win(self, p: int) -> None:
        self.result = [1.0 if i == p else 0.0 for i in range(self.n)]
        self.phase = OVER
        self.queue = []

    # --- windows ------------------------------------------------------------------------------

    def _event(self, actor: int) -> None:
        """A public event by ``actor``: open a response window for everyone else, in seat order."""
        if self.phase == OVER:
            return
        g = self.g
        free = g.instants.isdisjoint
        hands = self.hands
        mash = self.mash if g.from_mash else None
        fams = self.fams if g.gy_any_time else None
        q = []
        for p in g.after[actor]:
            # cheap pre-check inline: most players hold no instant and no family to announce
            if not free(hands[p]) or (mash is not None and mash[p] and not free(mash[p])):
                if self._can_respond(p):
                    q.append(p)
            elif fams is not None and fams[p]:
                for f in fams[p]:
                    if f[4] and f[0] not in self.announced and f[0] not in self.flubbed and self._eligible(f):
                        q.append(p)
                        break
        if q:
            self.phase = WINDOW
            self.queue = q
            self.actor = actor
        else:
            self.queue = []
            if self.announced:
                self._resolve_announcements()
                if self.phase == OVER:
                    return
            self.phase = MAIN

    def _advance_window(self) -> None:
        q = self.queue
        q.pop(0)
        while q and not self._can_respond(q[0]):
            q.pop(0)
        if not q:
            self._close_window()

    def _close_window(self) -> None:
        self.queue = []
        if self.announced:
            self._resolve_announcements()
            if self.phase == OVER:
                return
        self.phase = MAIN

    def _can_respond(self, p: int) -> bool:
        """Has p any instant with a target (or a graveyard announcement) right now?"""
        g = self.g
        own = self.fams[p]
        if g.gy_any_time and own:
            ann = self.announced
            for fam in own:
                if fam[4] and fam[0] not in ann and fam[0] not in self.flubbed and self._eligible(fam):
                    return True
        hand = self.hands[p]
        succ = not g.succubi.isdisjoint(hand)
        preach = not g.preachers.isdisjoint(hand)
        if g.from_mash and self.mash[p]:  # succubi and preachers may come from the mash too
            m = self.mash[p]
            succ = succ or not g.succubi.isdisjoint(m)
            preach = preach or not g.preachers.isdisjoint(m)
        if g.rares:
            if succ or preach or not g.rare_cards.isdisjoint(hand):
                return bool(self._instant_moves(p, []))
            return False
        fams = self.fams
        mash = self.mash
        if succ:
            ann = self.announced
            for q in g.after[p]:
                if mash[q]:  # no Exorcist protects a mash without the rares
                    return True
                for f in fams[q]:
                    if f[0] not in ann:
                        return True
        if preach:
            ok_ann = g.preach_after_announce
            no_eater = g.eaters.isdisjoint
            for q in g.after[p]:
                for f in fams[q]:  # some family of q is fed
                    if f[4] and (ok_ann or f[0] not in self.announced):
                        return True
                if mash[q] and not no_eater(mash[q]):
                    return True  # (no Devil Wife is on any board without the rares)
        return False

    def _resolve_announcements(self) -> None:
        """The announced families whose eater survived go to the graveyard (GF-07)."""
        ann = self.announced
        self.announced = []
        for fid in ann:
            owner, i = self._find(fid)
            if owner < 0:
                continue
            f = self.fams[owner][i]
            if not self._eligible(f):
                continue
            self._feast(owner, i)
            if self.phase == OVER:
                return

    def _feast(self, owner: int, i: int) -> None:
        g = self.g
        f = self.fams[owner].pop(i)
        eaters = f[4]
        self.score[owner] += len(f[5])
        self.grave[owner].extend(f[5])
        self.discard.extend(eaters)
        self.stats["feasts"] += 1
        self.last_feast[owner] = (FOOD_NAMES[f[1]], len(f[5]), KIND_NAMES[g.kind[eaters[0]]])
        self._note(("feast", owner, len(f[5])))
        if self.score[owner] >= g.win_score:
            self._win(owner)
            return
        if g.rares:
            K = g.kind
            for q, m in enumerate(self.mash):  # GF-22: the self-loathing check
                if g.exorcists.isdisjoint(m):
                    continue
                for c in [c for c in m if K[c] == EXORCIST]:
                    if not self._flip("self-loathing"):
                        m.remove(c)
                        self.removed.append(c)
                        self._note(("exorcist_suicide", q))

    # --- move generation ----------------------------------------------------------------------

    def _moves(self) -> list[int]:
        ph = self.phase
        if ph == MAIN:
            return self._main_moves(self.tp)
        if ph == WINDOW:
            p = self.queue[0]
            moves = [PASS]
            self._instant_moves(p, moves)
            if self.g.gy_any_time and self.fams[p]:
                self._announce_moves(p, moves)
            return moves
        if ph == CHAIN:
            p = self.queue[0]
            return [PASS] + [COUNTER | c << 5 for c in self._usable(p, PREACHER)]
        if ph == FOLLOWUP:
            return self._follow_moves()
        if ph >= DW_STEAL:
            return _rares.moves(self)
        return []

    def _announce_moves(self, p: int, moves: list[int]) -> None:
        ann = self.announced
        for f in self.fams[p]:
            if f[4] and f[0] not in ann and f[0] not in self.flubbed and self._eligible(f):
                moves.append(ANNOUNCE | f[0] << 5)

    def _main_moves(self, p: int) -> list[int]:
        """The turn player's moves; the common case (no rares) kept to a handful of bytecodes."""
        g = self.g
        if g.rares:
            return self._main_moves_general(p)
        hand = self.hands[p]
        played = self.played
        moves = [] if played else list(map(g.discard_act.__getitem__, hand))
        HK = g.mkey
        by = g.scratch  # face key -> last such card in hand; only keys set below are read
        m0 = m1 = 0
        mons = None
        fs = fp = -1  # the first succubus and the first preacher, for _instant_moves
        for c in hand:
            h = HK[c]
            if h >= 16:
                m1 |= 1 << (h - 16)
                by[h] = c
            elif h >= 0:
                m0 |= 1 << h
                by[h] = c
            else:
                if mons is None:
                    mons = {-h: c}
                else:
                    mons[-h] = c
                if h == -SUCCUBUS:
                    if fs < 0:
                        fs = c
                elif h == -PREACHER and fp < 0:
                    fp = c
        if m0:
            moves += g.runs[0][m0]
        if m1:
            moves += g.runs[1][m1]
        fams = self.fams[p]
        if mons is not None:
            for c in mons.values():
                moves.append(MASH | c << 5)
        if fams:
            eat = NO_EATERS if mons is None else [-1, mons.get(VAMPIRE, -1), mons.get(ZOMBIE, -1)]
            self._family_moves(p, fams, [m0, m1], by, eat, (), moves)
            ann = self.announced
            for f in fams:  # only a fed family can be announced (_announce_moves, inline)
                if f[4] and f[0] not in ann and f[0] not in self.flubbed and self._eligible(f):
                    moves.append(ANNOUNCE | f[0] << 5)
        if fs >= 0 or fp >= 0 or (g.from_mash and self.mash[p] and not g.instants.isdisjoint(self.mash[p])):
            self._instant_moves(p, moves, fs, fp)
        if played or not g.must_act or not moves:
            moves.append(END)
        return moves

    def _main_moves_general(self, p: int) -> list[int]:
        """Any position, rares and blocked cards included (the fast path handles the rest)."""
        g = self.g
        K = g.kind
        HK = g.hkey
        hand = self.hands[p]
        blocked = self._blocked_cards(p) if (self.locked or self.hidden or self.confused) else ()
        moves: list[int] = []
        played = self.played
        masks = [0, 0]
        by: dict[int, int] = {}  # food*16+number -> first such card in hand
        eat = [-1, -1, -1]  # by kind: -, first vampire, first zombie (hand)
        monsters: dict[int, int] = {}
        faces: list[int] = []
        face = g.face
        for c in hand:
            if blocked and c in blocked:
                continue
            if not played:
                fc = face[c]
                if fc not in faces:
                    faces.append(fc)
                    moves.append(DISCARD | c << 5)
            h = HK[c]
            if h >= 0:
                if h not in by:
                    by[h] = c
                    masks[h >> 4] |= 1 << (h & 15)
            else:
                k = K[c]
                if k not in monsters:
                    monsters[k] = c
                    if k <= 2:
                        eat[k] = c
        if masks[0]:
            moves.extend(g.runs[0][masks[0]])
        if masks[1]:
            moves.extend(g.runs[1][masks[1]])
        fams = self.fams[p]
        if fams:
            self._family_moves(p, fams, masks, by, eat, blocked, moves)
        for k, c in monsters.items():
            if k != DEVIL_WIFE:
                moves.append(MASH | c << 5)
            elif g.rares:
                moves.append(DW_PLACE | c << 5)
        if fams:
            self._announce_moves(p, moves)
        if SUCCUBUS in monsters or PREACHER in monsters or (g.from_mash and self.mash[p]) or g.rares:
            self._instant_moves(p, moves)
        if g.rares:
            _rares.main_moves(self, p, moves)
        if played or not g.must_act or not moves:
            moves.append(END)
        return moves

    def _family_moves(
        self, p: int, fams: list, masks: list[int], by: Any, eat: Sequence[int],
        blocked: Any, moves: list[int],
    ) -> None:
        g = self.g
        N = g.num
        min_f = g.min_family
        strict = g.strict_ext
        touched = self.touched
        announce_pre = not g.window_pre
        ends = g.ends
        for fid, food, lo, hi, eaters, cards in fams:
            m = masks[food]
            if not m or (strict and fid in touched):
                continue
            gapfree = hi - lo + 1 == len(cards)
            if gapfree and not m & ends[lo << 4 | hi]:
                continue  # the common case: nothing in hand extends it
            base = food << 4
            ok = eaters and announce_pre and len(cards) + 1 >= min_f
            if lo > 1 and m >> (lo - 1) & 1:
                a = EXTEND | fid << 5 | by[base + lo - 1] << 15
                moves.append(a)
                if ok and gapfree:
                    moves.append(a | 1 << 35)
            if hi < 9 and m >> (hi + 1) & 1:
                a = EXTEND | fid << 5 | by[base + hi + 1] << 15
                moves.append(a)
                if ok and gapfree:
                    moves.append(a | 1 << 35)
            if not gapfree:
                have = {N[x] for x in cards}
                for num in range(lo + 1, hi):
                    if num not in have and m >> num & 1:
                        a = EXTEND | fid << 5 | by[base + num] << 15
                        moves.append(a)
                        if ok and len(cards) + 1 == hi - lo + 1:
                            moves.append(a | 1 << 35)
        if len(fams) > 1:
            for a in fams:
                after_a = a[3] + 1
                for b in fams:
                    if b[2] == after_a and a[1] == b[1]:
                        ne = len(a[4]) + len(b[4])
                        if ne > g.max_eaters and not g.join_discards:
                            continue
                        moves.append(JOIN | a[0] << 5 | b[0] << 15)
                        size = len(a[5]) + len(b[5])
                        if ne and announce_pre and size >= min_f and size == b[3] - a[2] + 1:
                            moves.append(JOIN | a[0] << 5 | b[0] << 15 | 1 << 35)
        # attach eaters from hand or mash
        mp = self.mash[p]
        if eat[1] < 0 and eat[2] < 0 and (not mp or g.eaters.isdisjoint(mp)):
            return  # no eater to attach: the common case
        K = g.kind
        eat_mash = [-1, -1, -1]
        for c in mp:
            k = K[c]
            if k <= 2 and eat_mash[k] < 0 and not (blocked and c in blocked):
                eat_mash[k] = c
        if eat[1] < 0 and eat[2] < 0 and eat_mash[1] < 0 and eat_mash[2] < 0:
            return
        fresh_announce = (not g.window_fresh) or g.race_prob
        max_e = g.max_eaters
        for fid, food, lo, hi, eaters, cards in fams:
            k = food + 1  # VAMPIRE eats BLOOD (0), ZOMBIE eats BRAINS (1)
            if len(eaters) >= max_e or (eat[k] < 0 and eat_mash[k] < 0):
                continue
            ready = len(cards) >= min_f and hi - lo + 1 == len(cards)
            for e in (eat[k], eat_mash[k]):
                if e >= 0:
                    moves.append(ATTACH | fid << 5 | e << 15)
                    if ready and fresh_announce:
                        moves.append(ATTACH | fid << 5 | e << 15 | 1 << 35)

    def _instant_moves(self, p: int, moves: list[int], fs: int = -2, fp: int = -2) -> list[int]:
        """p's succubus and preacher moves (and the rares' instants); ``fs``/``fp``: the first
        succubus and preacher of p's hand (-1: none) when the caller has already looked."""
        g = self.g
        K = g.kind
        ann = self.announced
        if self.locked or self.hidden or self.confused:
            succ = self._usable(p, SUCCUBUS)
            pre = self._usable(p, PREACHER)
        else:
            if fs != -2:
                succ = [fs] if fs >= 0 else []
                pre = [fp] if fp >= 0 else []
                hand: list[int] = []
            else:
                succ = []
                pre = []
                hand = self.hands[p]
            for c in hand:  # the first succubus and the first preacher of the hand
                k = K[c]
                if k == SUCCUBUS:
                    if not succ:
                        succ.append(c)
                        if pre:
                            break
                elif k == PREACHER and not pre:
                    pre.append(c)
                    if succ:
                        break
            if g.from_mash and self.mash[p]:
                s1 = p1 = True  # ... and of the mash
                for c in self.mash[p]:
                    k = K[c]
                    if k == SUCCUBUS:
                        if s1:
                            succ.append(c)
                            s1 = False
                    elif k == PREACHER and p1:
                        pre.append(c)
                        p1 = False
        others = g.others[p]
        fams = self.fams
        mash = self.mash
        if succ:
            any_time = g.gy_any_time or p == self.tp
            min_f = g.min_family
            rares = g.rares
            if len(succ) == 1:  # the common case, with the loop over succubi unrolled
                s5 = STEAL_FAM | succ[0] << 5
                sm = STEAL_MASH | succ[0] << 5
                for q in others:
                    for f in fams[q]:
                        fid = f[0]
                        if ann and fid in ann:
                            continue
                        a = s5 | fid << 15
                        moves.append(a)
                        if (
                            any_time and f[4] and len(f[5]) >= min_f and f[3] - f[2] + 1 == len(f[5])
                            and (not rares or self._eligible(f))
                        ):
                            moves.append(a | 1 << 35)
                    if mash[q] and not (rares and self._protected(q)):
                        moves.append(sm | q << 15)
                others_s: tuple[int, ...] = ()
            else:
                others_s = others
            for q in others_s:
                for f in fams[q]:
                    fid = f[0]
                    if ann and fid in ann:
                        continue
                    ready = (
                        any_time and f[4] and len(f[5]) >= min_f and f[3] - f[2] + 1 == len(f[5])
                        and (not rares or self._eligible(f))
                    )
                    for s in succ:
                        a = STEAL_FAM | s << 5 | fid << 15
                        moves.append(a)
                        if ready:
                            moves.append(a | 1 << 35)
                if mash[q] and not (rares and self._protected(q)):
                    for s in succ:
                        moves.append(STEAL_MASH | s << 5 | q << 15)
        if pre:
            ok_ann = g.preach_after_announce
            no_eater = g.eaters.isdisjoint
            one = PREACH | pre[0] << 5 if len(pre) == 1 else -1
            for q in others:
                fq = fams[q]
                if fq:
                    for f in fq:
                        if f[4] and (ok_ann or f[0] not in ann):
                            if one >= 0:
                                for e in f[4]:
                                    moves.append(one | e << 15)
                            else:
                                for e in f[4]:
                                    for pr in pre:
                                        moves.append(PREACH | pr << 5 | e << 15)
                mq = mash[q]
                if mq and not no_eater(mq):
                    seen = 0
                    for c in mq:
                        k = K[c]
                        if k in (VAMPIRE, ZOMBIE) and not seen & k:
                            seen |= k
                            for pr in pre:
                                moves.append(PREACH | pr << 5 | c << 15)
        if g.rares:
            _rares.instant_moves(self, p, moves, succ, pre)
        return moves

    def _follow_moves(self) -> list[int]:
        """GF-16 variant: straight after an out-of-turn steal the thief may complete the family."""
        p = self.actor
        fid = self.follow
        owner, i = self._find(fid)
        moves = [DONE]
        if owner != p:
            return moves
        g = self.g
        f = self.fams[p][i]
        _, food, lo, hi, eaters, cards = f
        N = g.num
        have = {N[c] for c in cards}
        seen = set()
        blocked = self._blocked_cards(p) if g.rares else ()
        for c in self.hands[p]:
            if g.kind[c] == HUMAN and g.food[c] == food and c not in blocked:
                x = N[c]
                if x not in have and x not in seen and (x == lo - 1 or x == hi + 1 or lo < x < hi):
                    seen.add(x)
                    moves.append(EXTEND | fid << 5 | c << 15)
        if len(eaters) < g.max_eaters:
            ek = EATER_OF[food]
            for src in (self.hands[p], self.mash[p]):
                e = self._first([c for c in src if c not in blocked], ek)
                if e >= 0:
                    moves.append(ATTACH | fid << 5 | e << 15)
        if self._eligible(f) and fid not in self.flubbed:
            moves.append(ANNOUNCE | fid << 5)
        return moves

    # --- applying -----------------------------------------------------------------------------

    def _apply(self, a: int) -> None:
        op = a & 31
        if op == DISCARD and self.phase == MAIN:  # the commonest move: keep it short
            c = (a >> 5) & M10
            self.hands[self.tp].remove(c)
            self.discard.append(c)
            self._end_turn()
            return
        x = (a >> 5) & M10
        y = (a >> 15) & M10
        flag = (a >> 35) & 1
        ph = self.phase
        if ph == FOLLOWUP:
            self._apply_follow(op, x, y)
            return
        if ph >= DW_STEAL or op >= DW_PLACE:
            _rares.apply(self, a)
            return
        if ph == CHAIN:
            if op == PASS:
                q = self.queue
                q.pop(0)
                while q and not self._has_preacher(q[0]):
                    q.pop(0)
                if not q:
                    self._resolve_chain()
            else:
                self._counter(self.queue[0], x)
            return
        if ph == WINDOW:
            p = self.queue[0]
            if op == PASS:
                if self.g.rares:
                    self._advance_window()
                    return
                # nothing changed since the window opened, so everyone left in the queue can
                # still answer: no need to ask _can_respond again
                q = self.queue
                q.pop(0)
                if not q:
                    self._close_window()
                return
        else:
            p = self.tp
        # commonest first (random and greedy play alike)
        if op == MASH:
            self.hands[p].remove(x)
            self.mash[p].append(x)
            self.played = True
            self._event(p)
        elif op == END:
            self._end_turn()
        elif op in (STEAL_FAM, STEAL_MASH):
            self._steal(p, op, x, y, flag)
        elif op == PREACH:
            self._preach(p, x, y)
        elif op == ATTACH:
            self._attach(p, x, y, flag)
        elif op == START:
            self._start_family(p, x, y, (a >> 25) & M10)
        elif op == EXTEND:
            self._extend(p, x, y, flag)
        elif op == JOIN:
            self._join(p, x, y, flag)
        elif op == ANNOUNCE:
            self._announce(p, x)
        elif op == DISCARD:
            self.hands[p].remove(x)
            self.discard.append(x)
            self._end_turn()
        else:
            raise RulesError(f"unknown action {a}")

    def _start_family(self, p: int, food: int, lo: int, hi: int) -> None:
        g = self.g
        hand = self.hands[p]
        cards = []
        for num in range(lo, hi + 1):
            for c in hand:
                if g.kind[c] == HUMAN and g.food[c] == food and g.num[c] == num:
                    cards.append(c)
                    hand.remove(c)
                    break
        fid = self.next_fid
        self.next_fid += 1
        self.fams[p].append((fid, food, lo, hi, (), tuple(cards)))
        self.touched.append(fid)
        self.played = True
        self._event(p)

    def _extend(self, p: int, fid: int, c: int, announce: int) -> None:
        owner, i = self._find(fid)
        f = self.fams[owner][i]
        self.hands[p].remove(c)
        self.fams[owner][i] = self._mkfam(fid, f[1], f[5] + (c,), f[4])
        self.touched.append(fid)
        self.played = True
        if announce:
            self._announce(p, fid)
        else:
            self._event(p)

    def _join(self, p: int, fa: int, fb: int, announce: int) -> None:
        fams = self.fams[p]
        _, ia = self._find(fa)
        a = fams[ia]
        _, ib = self._find(fb)
        b = fams[ib]
        eaters = a[4] + b[4]
        if len(eaters) > self.g.max_eaters:
            self.discard.extend(eaters[self.g.max_eaters:])
            eaters = eaters[: self.g.max_eaters]
        fams[ia] = (fa, a[1], a[2], b[3], eaters, a[5] + b[5])
        fams.remove(b)
        if fb in self.touched:
            self.touched.append(fa)
        if announce:
            self._announce(p, fa)
        else:
            self._event(p)

    def _attach(self, p: int, fid: int, e: int, announce: int) -> None:
        self.played = True
        owner, i = self._find(fid)
        if self.g.flub_rate > 0.0 and self._flub() and self.rng.random() < self.g.callout_rate:
            self._from_hand_or_mash(p, e)
            self.discard.append(e)  # GF-06: a flubbed 'Blood!'/'Brains!' that someone calls out
            self._note(("flub", p, "eater"))
            self._event(p)
            return
        if self.g.rares and self._confused_attempt(p, e, "attach"):
            self._event(p)  # the confused eater stays where it was until its next turn
            return
        self._from_hand_or_mash(p, e)
        f = self.fams[owner][i]
        self.fams[owner][i] = (fid, f[1], f[2], f[3], f[4] + (e,), f[5])
        if announce:
            if self.g.race_prob and self.g.window_fresh and self.rng.random() >= self.g.race_p:
                self._note(("race_lost", p))
                self._event(p)  # lost the race: the succubus window opens before the announcement
            else:
                self._announce(p, fid)
        else:
            self._event(p)

    def _announce(self, p: int, fid: int) -> None:
        if self.g.flub_rate > 0.0 and self._flub():
            self.flubbed.append(fid)  # an inexact 'N to the graveyard' blocks nothing
            self._note(("flub", p, "announce"))
            self._event(p)
            return
        owner, i = self._find(fid)
        f = self.fams[owner][i]
        if self.g.rares and self._maelstrom(p):
            eater = f[4][0]
            if self.g.rares and self._confused_attempt(p, eater, "graveyard"):
                self._event(p)
                return
        self.announced.append(fid)
        self._note(("announce", p, len(f[5])))
        if self.g.preach_after_announce:
            self._event(p)
        else:
            self._resolve_announcements()
            self._event(p)

    def _reask(self, p: int) -> None:
        """After a fizzled instant the same player may try again, if they still can."""
        if self.phase == WINDOW and not self._can_respond(p):
            self._advance_window()

    def _instant_used(self, p: int) -> None:
        if p == self.tp and self.phase == MAIN and self.g.instants_use_action:
            self.played = True

    def _steal(self, p: int, op: int, s: int, target: int, announce: int) -> None:
        self._instant_used(p)
        if self.g.flub_rate > 0.0 and self._flub():
            self._from_hand_or_mash(p, s)
            self.discard.append(s)
            self._note(("flub", p, "succubus"))
            self._reask(p)
            return
        if self.g.rares and self._confused_attempt(p, s, "steal"):
            self._reask(p)  # the confused succubus stays where she was
            return
        self._from_hand_or_mash(p, s)
        self.discard.append(s)
        self.stats["steals"] += 1
        if op == STEAL_MASH:
            self.mash[p].extend(self.mash[target])
            self.mash[target] = []
            self._note(("steal_mash", p, target))
            self._event(p)
            return
        owner, i = self._find(target)
        f = self.fams[owner].pop(i)
        self.fams[p].append(f)
        self._note(("steal", p, owner, len(f[5])))
        if announce:
            self._announce(p, target)
        elif self.g.ooo_completion and p != self.tp:
            self.phase = FOLLOWUP
            self.actor = p
            self.follow = target
        else:
            self._event(p)

    def _apply_follow(self, op: int, x: int, y: int) -> None:
        p = self.actor
        if op == DONE:
            self.follow = -1
            self._event(p)
        elif op == EXTEND:
            owner, i = self._find(x)
            f = self.fams[owner][i]
            self.hands[p].remove(y)
            self.fams[owner][i] = self._mkfam(x, f[1], f[5] + (y,), f[4])
        elif op == ATTACH:
            if self.g.flub_rate > 0.0 and self._flub() and self.rng.random() < self.g.callout_rate:
                self._from_hand_or_mash(p, y)
                self.discard.append(y)
                return
            if self.g.rares and self._confused_attempt(p, y, "attach"):
                return
            self._from_hand_or_mash(p, y)
            owner, i = self._find(x)
            f = self.fams[owner][i]
            self.fams[owner][i] = (x, f[1], f[2], f[3], f[4] + (y,), f[5])
        elif op == ANNOUNCE:
            self.follow = -1
            self._announce(p, x)

    def _preach(self, p: int, pr: int, eater: int) -> None:
        self._from_hand_or_mash(p, pr)
        self.discard.append(pr)
        self._instant_used(p)
        if self.g.flub_rate > 0.0 and self._flub():
            self._note(("flub", p, "preacher"))  # the misspoken preacher fizzles
            self._reask(p)
            return
        self.stats["preaches"] += 1
        self.chain = [p]
        self.chain_target = eater
        self._open_chain(p)

    def _open_chain(self, p: int) -> None:
        q = []
        for x in self.g.after[p]:
            if self._has_preacher(x):
                q.append(x)
        self.actor = p
        if q:
            self.phase = CHAIN
            self.queue = q
        else:
            self._resolve_chain()

    def _counter(self, p: int, pr: int) -> None:
        self._from_hand_or_mash(p, pr)
        self.discard.append(pr)
        if self.g.flub_rate > 0.0 and self._flub():
            self._note(("flub", p, "counter"))
            if not self._has_preacher(p):
                q = self.queue
                q.pop(0)
                while q and not self._has_preacher(q[0]):
                    q.pop(0)
                if not q:
                    self._resolve_chain()
            return
        self.stats["counters"] += 1
        self.chain.append(p)
        self._open_chain(p)

    def _resolve_chain(self) -> None:
        """Odd chain: the eater explodes; even: the last evil preacher saved it (GF-11)."""
        chain = self.chain
        e = self.chain_target
        self.stats["chains"].append(len(chain))
        last = chain[-1]
        if len(chain) % 2 == 1:
            self._kill_eater(e)
        self.chain = []
        self.chain_target = -1
        self.queue = []
        self.phase = MAIN
        self._event(last)

    def _kill_eater(self, e: int) -> None:
        for fams in self.fams:
            for i, f in enumerate(fams):
                if e in f[4]:
                    fams[i] = (f[0], f[1], f[2], f[3], tuple(x for x in f[4] if x != e), f[5])
                    self.discard.append(e)
                    self.stats["kills"] += 1
                    self._note(("kill", e))
                    return
        for m in self.mash:
            if e in m:
                m.remove(e)
                self.discard.append(e)
                self.stats["kills"] += 1
                self._note(("kill", e))
                return

    # --- text, summary ------------------------------------------------------------------------

    @property
    def turn(self) -> int:
        """The public turn number, 1-based like the seats in texts (turn_no counts from 0)."""
        return self.turn_no + 1

    def card_name(self, c: int) -> str:
        return f"{self.g.names[c]}#{c}"

    def fam_text(self, fid: int) -> str:
        owner, i = self._find(fid)
        if owner < 0:
            return f"family #{fid}"
        f = self.fams[owner][i]
        nums = "-".join(str(self.g.num[c]) for c in f[5])
        eat = "+" + "+".join(self.g.names[e] for e in f[4]) if f[4] else ""
        return f"family #{fid} (P{owner + 1} {FOOD_NAMES[f[1]]} {nums}{eat})"

    def action_to_string(self, action: int) -> str:
        return self._describe(action)

    def _describe(self, a: int) -> str:
        op, x, y, z, flag = unpack(a)
        cn = self.card_name
        ann = ", to the graveyard" if flag else ""
        if op >= len(OP_NAMES):
            return f"unknown {a}"
        if op == END:
            return "end play" if self.played else "pass"
        if op == DISCARD:
            return f"discard {cn(x)}"
        if op == START:
            return f"start family {FOOD_NAMES[x] if x < 2 else x} {y}-{z}"
        if op == EXTEND:
            return f"extend {self.fam_text(x)} with {cn(y)}{ann}"
        if op == JOIN:
            return f"join {self.fam_text(x)} and {self.fam_text(y)}{ann}"
        if op == ATTACH:
            return f"attach {cn(y)} to {self.fam_text(x)}{ann}"
        if op == MASH:
            return f"mash {cn(x)}"
        if op == ANNOUNCE:
            return f"announce {self.fam_text(x)} to the graveyard"
        if op == STEAL_FAM:
            return f"seduce: {cn(x)} steals {self.fam_text(y)}{ann}"
        if op == STEAL_MASH:
            return f"seduce: {cn(x)} steals the monster mash of P{y + 1}"
        if op == PREACH:
            return f"preach: {cn(x)} destroys {cn(y)}"
        if op == PASS:
            return "pass"
        if op == COUNTER:
            evil = len(self.chain) % 2 == 1
            return f"{'evil preacher' if evil else 'preacher'} {cn(x)} negates"
        if op == DONE:
            return "done"
        return _rares.describe(self, op, x, y, z, flag)

    def summary(self) -> dict[str, Any]:
        """Plain facts about the game for the statistics (engine/gf/metrics.py)."""
        res = self.returns()
        winner = None
        if self.result is not None and not self.capped:
            winner = res.index(1.0)
        st = self.stats
        out: dict[str, Any] = {
            "game": "grave-feast",
            "players": self.n,
            "over": self.phase == OVER,
            "returns": res,
            "winner": winner,
            "capped": self.capped,
            "scores": self.score[:],
            "turns": self.turn_no,
            "rounds": self.turn_no / self.n,
            "reshuffles": st["reshuffles"],
            "steals": st["steals"],
            "preaches": st["preaches"],
            "counters": st["counters"],
            "kills": st["kills"],
            "feasts": st["feasts"],
            "flubs": st["flubs"],
            "chains": st["chains"][:],
            "winner_last_feast": list(self.last_feast[winner]) if winner is not None and self.last_feast[winner] else None,
            "rares": self.g.rares,
            "decks": self.g.decks,
        }
        if self.g.rares:
            g = self.g
            out["rare_holders"] = {g.faces[g.face[c]].id: sorted(ps) for c, ps in self.held_rare.items()}
            out["rare_events"] = {
                k: v for k, v in st.items() if k not in out and not isinstance(v, list)
            }
            out["coin_flips"] = sum(1 for e in self.log if e[0] == "coin")
        return out

    def to_json(self) -> dict[str, Any]:
        """The whole position as plain data (debugging, conformance checks)."""
        g = self.g
        return {
            "turn_player": self.tp,
            "turn": self.turn_no,
            "phase": PHASE_NAMES[self.phase],
            "current_player": self.current_player(),
            "scores": self.score[:],
            "hands": [[g.names[c] for c in h] for h in self.hands],
            "draw_pile": len(self.draw),
            "discard": [g.names[c] for c in self.discard],
            "families": [[self._fam_json(f) for f in fams] for fams in self.fams],
            "mashes": [[g.names[c] for c in m] for m in self.mash],
            "graveyards": [len(x) for x in self.grave],
            "devil_wives": [len(d) for d in self.dw],
            "removed": [g.names[c] for c in self.removed],
            "announced": self.announced[:],
            "chain": len(self.chain),
        }

    def _fam_json(self, f: tuple) -> dict[str, Any]:
        g = self.g
        return {
            "id": f[0],
            "food": FOOD_NAMES[f[1]],
            "numbers": [g.num[c] for c in f[5]],
            "eaters": [g.names[e] for e in f[4]],
        }

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


class FeastObservation:
    """What one player may know: own hand, the board, piles' sizes, the public discard pile."""

    __slots__ = ("_s", "player")

    def __init__(self, state: FeastState, player: int) -> None:
        self._s = state
        self.player = player

    def legal_actions(self) -> list[int]:
        s = self._s
        if s.phase == OVER or s.current_player() != self.player:
            return []
        return s.legal_actions()

    def determinize(self, rng: random.Random) -> FeastState:
        """A full state: the other hands and the draw pile resampled from the unseen cards."""
        s = self._s.clone()
        p = self.player
        pool = list(s.draw)
        sizes = []
        for q in range(s.n):
            if q != p:
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
    def game(self) -> FeastGame:
        return self._s.g

    @property
    def hand(self) -> list[int]:
        return self._s.hands[self.player][:]

    @property
    def families(self) -> list[list[tuple]]:
        return [f[:] for f in self._s.fams]

    @property
    def mashes(self) -> list[list[int]]:
        return [m[:] for m in self._s.mash]

    @property
    def scores(self) -> list[int]:
        return self._s.score[:]

    @property
    def hand_sizes(self) -> list[int]:
        return [len(h) for h in self._s.hands]

    @property
    def phase(self) -> str:
        return PHASE_NAMES[self._s.phase]

    @property
    def turn_player(self) -> int:
        return self._s.tp

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
    def played(self) -> bool:
        return self._s.played

    @property
    def attack(self) -> tuple[int, int, int] | None:
        """A pending two-card attack on a rare: (kind attacked, its card, its owner)."""
        a = self._s.attack
        return None if a is None else (a[0], a[1], a[2])

    @property
    def devil_wives(self) -> list[list[int]]:
        return [d[:] for d in self._s.dw]

    def eligible(self, fam: tuple) -> bool:
        return self._s._eligible(fam)

    def owner_of(self, fid: int) -> int:
        return self._s._find(fid)[0]

    def eater_owner(self, e: int) -> int:
        s = self._s
        for p in range(s.n):
            if e in s.mash[p] or any(e in f[4] for f in s.fams[p]):
                return p
        return -1

    def action_to_string(self, a: int) -> str:
        return self._s._describe(a)

    def to_json(self) -> dict[str, Any]:
        s = self._s
        g = s.g
        return {
            "player": self.player,
            "turn_player": s.tp,
            "turn": s.turn_no,
            "phase": PHASE_NAMES[s.phase],
            "scores": s.score[:],
            "hand": [g.names[c] for c in s.hands[self.player]],
            "hand_sizes": [len(h) for h in s.hands],
            "draw_pile": len(s.draw),
            "discard": [g.names[c] for c in s.discard],
            "families": [[s._fam_json(f) for f in fams] for fams in s.fams],
            "mashes": [[g.names[c] for c in m] for m in s.mash],
            "graveyards": [len(x) for x in s.grave],
            "devil_wives": [len(d) for d in s.dw],
            "announced": s.announced[:],
            "chain": len(s.chain),
            "legal_actions": self.legal_actions(),
        }


__all__ = ["FeastObservation", "FeastState", "pack", "unpack"]

