"""The Day of the Dead rules engine: a fast, resumable state machine over int card ids.

A game's progress is a stack of small task tuples (start a turn, start a fight, use an effect,
run effect steps, resolve a fight, offer a conversion, score...). ``apply_action`` applies the
pending choice, then pops tasks until one needs a player's choice; that choice becomes the pending
decision (``legal_actions``). So every choice inside an effect is a decision point, never a
callback, and ``clone`` is a handful of list copies. Effects run through one interpreter
(``_exec``, one branch per compiled primitive); no card has its own code path.

Speed (issue 3: random games per second on one core) shapes the code: the task loop is inside
``apply_action`` (one call per decision), the commonest tasks (a fight and its resolution, a
selection, an effect use or its remaining steps, an Unearth spirit) are handled in the loop itself,
effects are compiled once per game into int tuples with conditions as int ranges, and the tables
the loop reads are slots of DotdGame.

Rulings (DD-xx) are in docs/rules/day-of-the-dead.md; the switches are in engine/dotd/rules.py.
"""

from __future__ import annotations

import random
from _random import Random as _CRandom
from itertools import compress
from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.core import TERMINAL

from boneyard.errors import RulesError

from .cards import BACKS
from .codes import (
    ACT_NO,
    D_CONVERT,
    D_COPY,
    D_DIG_DECK,
    D_DIG_DISCARD,
    D_FLIP,
    D_NONE,
    D_SELECT,
    D_UE_PICK,
    D_UE_TARGET,
    DECISION_NAMES,
    DECK_BASE,
    DOUBLE,
    F_AL,
    F_AW,
    F_BONUS,
    F_NEG,
    F_SETP,
    F_SUP,
    F_WT,
    FIGHT_RESET,
    NO_SETP,
    POWER_UP,
    UNEARTH,
)
from .effects import (
    C_ACTIVE,
    C_ADJACENT_ACTIVE,
    C_WINNERS,
    M_COUNT,
    M_HAS_EFFECT,
    M_LINE_BACK,
    M_LOSING,
    M_PRINTED_POWER,
    M_PRIORITY,
    M_SCORE_DIFF,
    M_SLOT,
    M_SLOT_NEWEST,
    M_SLOT_OLDEST,
    M_SPIRIT_BACK,
    M_TURN,
    RUN_COPY,
    RUN_DIG,
    RUN_FIGHT_ADD,
    RUN_FIGHT_SET,
    RUN_FLIP,
    RUN_FORCE_UNEARTH,
    RUN_PRIORITY,
    RUN_UNEARTH,
    RUN_VP,
)
from .rules import INLINE_RUNS, compile_step, resolve_params, resolve_switches

# --- tasks -------------------------------------------------------------------------------------
T_TURN = 0
T_SELECT = 1  # (T, player, kind)
T_REVEAL = 2
T_SPIRIT_UNEARTH = 3  # (T, player)
T_FIGHT = 4  # (T, slot)
T_USE = 5  # (T, player, use number, card)
T_STEPS = 6  # (T, player, steps, index, copy depth)
T_RESOLVE = 7  # (T, slot)
T_CONVERT = 8  # (T, player)
T_REWARDS = 9
T_DIG = 10  # (T, player, remaining, fighter card)

MAX_RETRIGGERS = 3  # re-fired Unearth spirits per player and turn: a chain must end
ALL_AVAILABLE = (True, True, True)
_c_seed = _CRandom.seed
_RESUME = -(1 << 62)  # apply_action's "no action" (never a legal action): run on (_advance)
EK_NONE, EK_INLINE, EK_ASKS = 0, 1, 2  # DotdGame.ekind: what using a card's effect may do


def _select_tasks(first: int, turn1: bool) -> tuple[tuple[int, ...], ...]:
    second = 1 - first
    # turn 1: a spirit and a fighter each
    seq = ((second, 1), (second, 0), (first, 1), (first, 0)) if turn1 else ((second, 1), (first, 1))
    return ((T_REVEAL,), *((T_SELECT, p, kind) for p, kind in seq))


# [turn 1?][priority holder] -> the tasks that open a turn (shared, never mutated)
SELECT_TASKS = [[_select_tasks(f, t1) for f in (0, 1)] for t1 in (False, True)]
FIGHT_TASKS = [(T_FIGHT, i) for i in range(16)]  # a turn's fights, shared tuples

BACK_NAMES = {"double": "Double", "power_up": "Power Up", "unearth": "Unearth"}

def _rebuild_game(card_set: CardSet, switches: dict[str, Any], record_events: bool) -> DotdGame:
    game = DotdGame(card_set, **switches)
    game.record_events = record_events
    return game


class DotdGame:
    """Static rules of one Day of the Dead set: card tables, compiled effects, switches."""

    # Slots, not a dict: the hot loop reads these tables on every step, and an instance dict of
    # more than 30 keys is not a split dict, so each read would be a hash lookup (CPython 3.11).
    __slots__ = (
        "card_set", "num_players", "record_events", "switches", "params", "turns", "hand_per_back",
        "back_limit", "final_free", "free_turn", "pu_bonus", "double_uses", "look_n", "fp_power", "simultaneous",
        "unearth_optional", "retrigger", "newcomer_uses", "both_lose", "any_loser", "max_conv",
        "prev_active", "spirit_now", "dig_choose", "reshuffle", "score_won_only", "tie_chain",
        "characters", "char_ids", "n", "back", "power", "char", "effect", "has_effect", "ekind",
        "card_ids", "card_index", "deck_order",
    )

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as what it is built from (worker processes, cluster tasks): the tables are
        rebuilt from the card set and switches there. (Compiled classes need it spelled out.)"""
        return (_rebuild_game, (self.card_set, dict(self.switches), self.record_events))

    def __init__(self, card_set: CardSet, num_players: int = 2, **options: Any) -> None:
        if num_players != 2:
            raise RulesError(f"Day of the Dead is a 2-player game, not {num_players}")
        if not card_set.cards:
            raise RulesError(f"card set '{card_set.name}' has no Day of the Dead cards")
        self.card_set = card_set
        self.num_players = 2
        # Transcripts set this before new_initial_state: the state then keeps ``events``, readable
        # lines of what happened. Off by default, so playouts pay one None check per event site.
        self.record_events = False
        self.switches = resolve_switches(card_set, options)
        self.params = resolve_params(card_set)
        p = self.params
        self.turns = int(p["turns"])
        self.hand_per_back = int(p["hand_per_back"])
        self.back_limit = int(p["back_limit"])
        self.final_free = bool(p["final_turn_free_back"])
        self.pu_bonus = int(p["power_up_bonus"])
        self.double_uses = int(p["double_uses"])
        self.look_n = int(p["unearth_look"])
        self.fp_power = int(p["first_player_power"])  # handicap knob, 0 = the rulebook
        # from this turn on the back limit is lifted (DD-04: the final turn, if the switch says so)
        self.free_turn = self.turns if self.final_free else 1 << 30
        sw = self.switches
        self.simultaneous = sw["selection"] == "simultaneous"
        self.unearth_optional = bool(sw["unearth_optional"])
        self.retrigger = bool(sw["unearth_retrigger_on_spirit_replace"])
        self.newcomer_uses = bool(sw["replacement_uses_effect_this_fight"])
        self.both_lose = sw["both_auto_lose"] == "both_lose"
        self.any_loser = sw["conversion_window"] == "any_loser_this_turn"
        self.max_conv = 1 if sw["max_conversions_per_turn"] == 1 else 1 << 30
        self.prev_active = sw["prev_spirit_enters_as"] == "active"
        self.spirit_now = sw["new_spirit_applies"] == "immediately"
        self.dig_choose = sw["dig_source"] == "choose"
        self.reshuffle = sw["deck_empty"] == "reshuffle_discard"
        self.score_won_only = sw["score_basis"] == "won_this_turn"
        self.tie_chain = sw["tie_break"] == "chain"

        chars = list(card_set.characters)
        char_index = {c.id: i for i, c in enumerate(chars)}
        for dc in card_set.cards:
            if dc.character.id not in char_index:
                char_index[dc.character.id] = len(chars)
                chars.append(dc.character)
        self.characters = chars
        self.char_ids = [c.id for c in chars]
        compiled = {}
        for c in chars:
            compiled[c.id] = tuple(
                compile_step(s, f"card '{c.id}' step {k + 1}") for k, s in enumerate(c.effect)
            )
        self.n = len(card_set.cards)
        self.back = [BACKS.index(dc.back) for dc in card_set.cards]
        self.power = [dc.character.power for dc in card_set.cards]
        self.char = [char_index[dc.character.id] for dc in card_set.cards]
        self.effect = [compiled[dc.character.id] for dc in card_set.cards]
        self.has_effect = [bool(e) for e in self.effect]
        # EK_NONE no effect, EK_INLINE an effect that never asks a player nor starts a task (it
        # runs without the task stack), EK_ASKS one that may
        self.ekind = [
            EK_NONE if not e else EK_INLINE if all(st[0] in INLINE_RUNS for st in e) else EK_ASKS
            for e in self.effect
        ]
        self.card_ids = [dc.id for dc in card_set.cards]
        # card id -> its physical cards (several when a character has copies: x 2)
        self.card_index: dict[str, list[int]] = {}
        for i, cid in enumerate(self.card_ids):
            self.card_index.setdefault(cid, []).append(i)
        self.deck_order = [[c for c in range(self.n) if self.back[c] == b] for b in range(3)]

    def new_initial_state(self, seed: int) -> DotdState:
        """Shuffle the three decks separately, deal 3 of each back to both, pick priority."""
        need = 2 * self.hand_per_back
        for b in range(3):
            if len(self.deck_order[b]) < need:
                raise RulesError(
                    f"the {BACKS[b]} deck has {len(self.deck_order[b])} cards; "
                    f"dealing needs at least {need}"
                )
        # random.Random(seed) without its Python-level __init__/seed wrappers: the same generator
        rng = random.Random.__new__(random.Random)
        _c_seed(rng, seed)
        rng.gauss_next = None  # type: ignore[attr-defined]
        s = DotdState.__new__(DotdState)
        s._init(self, seed)
        decks = [d[:] for d in self.deck_order]
        rnd = rng.random
        for d in decks:  # a sort on random keys: a uniform shuffle, cheaper than rng.shuffle
            d.sort(key=lambda _c: rnd())
        # deal from the top of each deck alternately, first card to player 0 (as pops would)
        h2 = 2 * self.hand_per_back
        hands: list[list[int]] = [[], []]
        for d in decks:
            hands[0] += d[-1 : -h2 - 1 : -2]
            hands[1] += d[-2 : -h2 - 1 : -2]
            del d[-h2:]
        s.decks = decks
        s.hands = hands
        s.prio = rng.randrange(2)
        s.first_prio = s.prio
        s.stack = [(T_TURN,)]
        s._advance()
        return s

    def card_name(self, card: int) -> str:
        return self.card_ids[card]

    def describe(self, card: int) -> str:
        ch = self.characters[self.char[card]]
        return f"{ch.name} ({ch.power}) on {BACK_NAMES.get(BACKS[self.back[card]], '?')}"


class DotdState:
    """One position of a Day of the Dead game. Lines are lists, slot 1 (oldest) first."""

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
    )

    def _init(self, g: DotdGame, seed: int) -> None:
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

    # --- core interface ------------------------------------------------------------------------

    def current_player(self) -> int:
        return self.dp if self.dk >= 0 else TERMINAL

    def legal_actions(self) -> list[int]:
        # the pending decision's list; [] once the game is over (the rewards of the last turn set it)
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

    def apply_action(self, action: int) -> None:
        """Apply ``action`` to the pending decision, then run the game on to the next decision.

        The task loop lives here, not in a helper: one call less per decision. It pops tasks until
        one needs a player's choice. The fights are the hot path: a fight whose two effects ask
        nothing is used and resolved right in the loop (no tasks, no call for the resolution);
        T_RESOLVE, left by a fight whose effect may ask, joins the same resolution code.
        """
        kind = self.dk
        if kind < 0 or action not in self.dl:
            if action != _RESUME:  # (_advance: no action, just run on)
                self._refuse(action)
        else:
            self.dk = D_NONE
            self.history.append(action)
            if kind == D_CONVERT:  # the commonest decisions, inline
                if action != ACT_NO:
                    self._convert(self.dp, action)
            elif kind == D_SELECT:
                self.chosen[self.dp].append(action)
            elif kind == D_UE_PICK:
                ctx = self.dc
                self._replace(self.dp, ctx[0], ctx[1], action, ctx[2])
            elif kind == D_UE_TARGET:
                if action != ACT_NO:
                    self._look(self.dp, action, self.dp)
            else:
                self._resolve(kind, self.dp, action, self.dc)
        if self.dk >= 0:  # the action's own handling already asks again (e.g. an Unearth pick)
            return
        stack = self.stack
        g = self.g
        fx = self.fx
        lines = self.lines
        up = self.up
        while stack:
            t = stack.pop()
            code = t[0]
            if code == T_FIGHT:
                i = t[1]
                self.fslot = i
                fx[:] = FIGHT_RESET
                first = self.prio
                second = 1 - first
                c1 = lines[first][i]
                c2 = lines[second][i]
                ekind = g.ekind
                k1 = ekind[c1]
                k2 = ekind[c2]
                if k1 != EK_ASKS and k2 != EK_ASKS:  # no decision possible: no tasks needed
                    # a single use straight into the interpreter; a Double or a transcript
                    # goes through _use_inline (the priority holder cannot be negated yet)
                    if k1 and up[first][i]:
                        if self.eff_back[first] == DOUBLE or self.events is not None:
                            self._use_inline(first, c1)
                        else:
                            self._exec(first, g.effect[c1], 0, 0)
                    if k2 and up[second][i]:
                        if self.eff_back[second] == DOUBLE or self.events is not None:
                            self._use_inline(second, c2)
                        elif not fx[F_NEG + second]:
                            self._exec(second, g.effect[c2], 0, 0)
                elif k1 != EK_ASKS:  # the priority holder's effect asks nothing: use it now
                    if k1 and up[first][i]:
                        self._use_inline(first, c1)
                    # then the other's, which may ask
                    if up[second][i]:
                        stack.append((T_RESOLVE, i))
                        stack.append((T_USE, second, 1, c2))
                        continue
                else:
                    stack.append((T_RESOLVE, i))
                    if k2 and up[second][i]:  # pushed first runs last
                        stack.append((T_USE, second, 1, c2))
                    if up[first][i]:
                        stack.append((T_USE, first, 1, c1))
                    continue
            elif code == T_SELECT:
                p = t[1]
                legal = self._selectable(p)
                if len(legal) > 1:
                    self.dk, self.dp, self.dl, self.dc = D_SELECT, p, legal, t[2]
                    return
                self.chosen[p].append(legal[0])
                continue
            elif code == T_RESOLVE:
                i = t[1]
            elif code == T_USE:
                p, u, card = t[1], t[2], t[3]
                i = self.fslot
                if lines[p][i] != card or not up[p][i] or fx[F_NEG + p]:
                    continue
                if u == 1 and g.ekind[card] != EK_ASKS:  # every use at once: it cannot stop for a decision
                    self._use_inline(p, card)
                    continue
                if u > 1 and (self.eff_back[p] != DOUBLE or fx[F_SUP + p] or u > g.double_uses):
                    continue
                if u < g.double_uses and self.eff_back[p] == DOUBLE:
                    stack.append((T_USE, p, u + 1, card))
                if self.events is not None:
                    nth = f" (use {u}, Double spirit)" if self.eff_back[p] == DOUBLE else ""
                    self.events.append(f"player {p + 1} uses {g.describe(card)}'s effect{nth}")
                self._exec(p, g.effect[card], 0, 0)
                if self.dk >= 0:
                    return
                continue
            elif code == T_STEPS:
                self._exec(t[1], t[2], t[3], t[4])
                if self.dk >= 0:
                    return
                continue
            elif code == T_SPIRIT_UNEARTH:
                self._start_unearth(t[1], g.unearth_optional)
                if self.dk >= 0:
                    return
                continue
            elif code == T_REVEAL:
                self._reveal()
                continue
            elif code == T_REWARDS:
                self._rewards()  # (it starts the next turn, whose first selection may ask)
                continue
            else:
                self._task(t)
                if self.dk >= 0:
                    return
                continue
            # --- resolve the fight in slot i (DD-11 .. DD-14) ---
            l0, l1 = lines
            u0, u1 = up
            a = l0[i]
            b = l1[i]
            ua = u0[i]
            ub = u1[i]
            if ua and ub:
                # the whole fight context in one unpack (see F_BONUS ... F_NEG)
                bo0, bo1, sp0, sp1, aw0, aw1, al0, al1, wt0, wt1, su0, su1, _n0, _n1 = fx
                t0 = (g.power[a] if sp0 == NO_SETP else sp0) + bo0
                t1 = (g.power[b] if sp1 == NO_SETP else sp1) + bo1
                eb0, eb1 = self.eff_back
                if eb0 == POWER_UP and not su0:
                    t0 += g.pu_bonus
                if eb1 == POWER_UP and not su1:
                    t1 += g.pu_bonus
                if g.fp_power:  # first_player_power: the turn-1 priority holder's handicap
                    if self.first_prio == 0:
                        t0 += g.fp_power
                    else:
                        t1 += g.fp_power
                if aw0 or aw1 or al0 or al1:
                    w0 = (aw0 > al0) - (al0 > aw0)
                    w1 = (aw1 > al1) - (al1 > aw1)
                    if w0 == w1 and (w0 == 0 or (w0 == -1 and not g.both_lose)):
                        if t0 == t1:  # DD-12: win_ties breaks a power tie unless both have it
                            win0 = wt0 >= wt1
                            win1 = wt1 >= wt0
                        else:
                            win0 = t0 > t1
                            win1 = not win0
                    elif w0 == w1:
                        win0 = win1 = w0 == 1  # both auto_win: tie; both auto_lose: both lose
                    else:
                        win0 = w0 > w1
                        win1 = not win0
                elif t0 > t1:
                    win0 = True
                    win1 = False
                elif t1 > t0:
                    win0 = False
                    win1 = True
                else:  # DD-12: win_ties breaks a power tie unless both have it
                    win0 = wt0 >= wt1
                    win1 = wt1 >= wt0
                self.fight_log.append((self.turn, i, a, b, t0, t1, win0, win1))
                if self.events is not None:
                    self._note_fight(i, a, b, t0, t1, win0, win1)
            elif not ua and not ub:  # DD-13: no fight between two fallen cards
                if self.events is not None:
                    self.events.append(f"slot {i + 1}: both fighters are fallen, no fight")
                continue
            else:
                win0, win1 = ua, ub  # DD-13: the active side wins, the fallen one did not fight
                if self.events is not None:
                    w, c, f = (0, a, b) if ua else (1, b, a)
                    self.events.append(
                        f"slot {i + 1}: player {w + 1}'s {g.describe(c)} wins unopposed "
                        f"(player {2 - w}'s {g.describe(f)} is fallen and does not fight)"
                    )
            won_n = self.won_n
            if win0:
                won_n[0] += 1
                self.wonc.append(a)
                if win1:
                    won_n[1] += 1
                    self.wonc.append(b)
                elif ub:
                    u1[i] = False
                    self.lostc.append(b)
                    if not g.any_loser:
                        if self.conv_n[1] < g.max_conv:  # step 4: the loser may become the spirit
                            self.dk, self.dp, self.dl, self.dc = D_CONVERT, 1, [b, ACT_NO], None
                            return
                        continue
            elif win1:
                won_n[1] += 1
                self.wonc.append(b)
                if ua:
                    u0[i] = False
                    self.lostc.append(a)
                    if not g.any_loser:
                        if self.conv_n[0] < g.max_conv:
                            self.dk, self.dp, self.dl, self.dc = D_CONVERT, 0, [a, ACT_NO], None
                            return
                        continue
            else:  # both lose (both were active: a fallen card that did not fight is no loser)
                u0[i] = False
                self.lostc.append(a)
                u1[i] = False
                self.lostc.append(b)
                if not g.any_loser:
                    stack.append((T_CONVERT, 1 - self.prio))
                    stack.append((T_CONVERT, self.prio))
                    continue
            if g.any_loser:
                first = self.prio
                lostc = self.lostc
                for p in (1 - first, first):
                    if any(c in lostc for c in lines[p]):
                        stack.append((T_CONVERT, p))


    def _advance(self) -> None:
        """Run tasks until a player must choose or the game ends (a new or set-up position)."""
        self.apply_action(_RESUME)

    def _refuse(self, action: int) -> None:
        if self.dk < 0:
            raise RulesError("the game is over; no action can be applied")
        raise RulesError(
            f"illegal action {action} at {DECISION_NAMES[self.dk]} for player {self.dp}; "
            f"legal: {self.dl}"
        )

    def clone(self) -> DotdState:
        s = DotdState.__new__(DotdState)
        s.g = self.g
        s.seed = self.seed
        s.nshuf = self.nshuf
        s.turn = self.turn
        s.prio = self.prio
        s.first_prio = self.first_prio
        d = self.decks
        s.decks = [d[0][:], d[1][:], d[2][:]]
        d = self.discards
        s.discards = [d[0][:], d[1][:], d[2][:]]
        s.pub = self.pub[:]
        s.hands = [self.hands[0][:], self.hands[1][:]]
        s.lines = [self.lines[0][:], self.lines[1][:]]
        s.up = [self.up[0][:], self.up[1][:]]
        s.spirit = self.spirit[:]
        s.chosen = [self.chosen[0][:], self.chosen[1][:]]
        s.eff_back = self.eff_back[:]
        s.nback = [self.nback[0][:], self.nback[1][:]]
        s.scores = self.scores[:]
        s.stack = self.stack[:]
        s.dk = self.dk
        s.dp = self.dp
        s.dl = self.dl[:]
        s.dc = self.dc
        s.fslot = self.fslot
        s.fx = self.fx[:]
        s.wonc = self.wonc[:]
        s.lostc = self.lostc[:]
        s.won_n = self.won_n[:]
        s.conv_n = self.conv_n[:]
        s.done = self.done
        s.history = self.history[:]
        s.stats = [[st[0][:], st[1][:], st[2], st[3], st[4]] for st in self.stats]
        s.score_log = self.score_log[:]
        s.end_turn = self.end_turn
        s.fight_log = self.fight_log[:]
        s.retrig = self.retrig[:]
        s.events = None if self.events is None else self.events[:]
        return s

    def observation(self, player: int) -> Any:
        from .observation import DotdObservation

        return DotdObservation(self, player)

    def action_to_string(self, action: int) -> str:
        return action_string(self.g, self.dk, self.dc, action)

    def __str__(self) -> str:
        import json

        return json.dumps(self.to_json())

    # --- the machine ---------------------------------------------------------------------------

    def _decide(self, kind: int, player: int, legal: list[int], ctx: Any) -> None:
        """Make ``player`` choose; a choice with one option is taken at once."""
        if len(legal) == 1:
            self._resolve(kind, player, legal[0], ctx)
            return
        self.dk = kind
        self.dp = player
        self.dl = legal
        self.dc = ctx

    def _task(self, t: tuple) -> None:
        """The rare tasks: an offered conversion (both lost, or DD-15's wider window), a further
        Dig, a turn start set up by a scenario; the rest run in the loop of ``apply_action``."""
        code = t[0]
        if code == T_CONVERT:
            self._offer_conversion(t[1])
        elif code == T_DIG:
            self._start_dig(t[1], t[2], t[3])
        elif code == T_TURN:
            self._start_turn()

    # --- turn structure ------------------------------------------------------------------------

    def _start_turn(self) -> None:
        self.turn += 1
        lines, up, spirit = self.lines, self.up, self.spirit
        ev = self.events
        if ev is not None:
            ev.append(f"turn {self.turn}: player {self.prio + 1} holds priority")
        if self.turn > 1:
            for p in (0, 1):  # DD-05: the current spirit opens the new slot, face down
                s = spirit[p]
                if s >= 0:
                    lines[p].append(s)
                    up[p].append(False)
                    spirit[p] = -1
                    if ev is not None:
                        ev.append(f"player {p + 1}'s spirit {self.g.describe(s)} opens slot {len(lines[p])}")
        self.wonc = []
        self.lostc = []
        self.won_n = [0, 0]
        self.conv_n = [0, 0]
        self.retrig = [0, 0]
        # Reveal after the selections; the priority holder selects first (pushed last)
        self.stack += SELECT_TASKS[self.turn == 1][self.prio]

    def _selectable(self, p: int) -> list[int]:
        """Hand cards ``p`` may play now under the back limit (DD-04)."""
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
                raise RulesError(
                    f"player {p} has no card to play on turn {self.turn} "
                    "(a scenario can end earlier with end_turn)"
                )
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

    def _reveal(self) -> None:
        g = self.g
        pub = self.pub
        back = g.back
        char = g.char
        turn1 = self.turn == 1
        chosen, hands, lines, stats, nback = self.chosen, self.hands, self.lines, self.stats, self.nback
        up, spirit, eff_back = self.up, self.spirit, self.eff_back
        for p in (0, 1):
            ch = chosen[p]
            hand = hands[p]
            nb = nback[p]
            played = stats[p][0]
            for c in ch:
                hand.remove(c)
                nb[back[c]] += 1
                played.append(char[c])
            line = lines[p]
            if turn1:
                line.append(ch[0])  # the turn-1 fighter (face up with the field just below)
            s = ch[-1]
            spirit[p] = s
            eff_back[p] = back[s]
            chosen[p] = []
            up[p] = [True] * len(line)  # step 3: the field flips face up
            for c in line:
                pub[c] = True
            if self.events is not None:
                self._note_reveal(p, ch)
        stack = self.stack
        stack.append((T_REWARDS,))
        n = len(lines[0])
        if n <= len(FIGHT_TASKS):  # pushed oldest first: the newest slot fights first
            stack += FIGHT_TASKS[:n]
        else:
            stack += [(T_FIGHT, i) for i in range(n)]
        first = self.prio
        for p in (1 - first, first):  # DD-06: Unearth spirits resolve in priority order
            if back[spirit[p]] == UNEARTH:
                stack.append((T_SPIRIT_UNEARTH, p))

    def _rewards(self) -> None:
        g = self.g
        power = g.power
        scores = self.scores
        if g.score_won_only:
            wonc = self.wonc
            for p in (0, 1):
                scores[p] += sum(
                    [power[c] for c, u in zip(self.lines[p], self.up[p], strict=True) if u and c in wonc]
                )
        else:
            lines, up, get = self.lines, self.up, power.__getitem__
            scores[0] += sum(compress(map(get, lines[0]), up[0]))
            scores[1] += sum(compress(map(get, lines[1]), up[1]))
        self.score_log.append((self.scores[0], self.scores[1], self.prio))
        self.prio = 1 - self.prio  # pass priority
        self.fslot = -1
        if self.events is not None:
            self._note_rewards()
        if self.turn >= self.end_turn:
            self.done = True
            self.dp = TERMINAL
            self.dl = []
            if self.events is not None:
                w = self.winner()
                res = "a draw" if w is None else f"player {w + 1} wins"
                self.events.append(f"game over: {self.scores[0]} to {self.scores[1]}, {res}")
        else:  # the next turn starts at once (as a T_TURN task on top of the stack would)
            self._start_turn()

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

    def _offer_conversion(self, p: int) -> None:
        """Step 4: the loser may become the spirit (DD-14, DD-15)."""
        if self.conv_n[p] >= self.g.max_conv:
            return
        line, up, lostc = self.lines[p], self.up[p], self.lostc
        if self.g.any_loser:
            opts = [c for j, c in enumerate(line) if not up[j] and c in lostc]
        else:
            i = self.fslot
            c = line[i]
            opts = [c] if (not up[i] and c in lostc) else []
        if not opts:
            return
        opts.append(ACT_NO)
        self._decide(D_CONVERT, p, opts, None)

    def _convert(self, p: int, card: int) -> None:
        g = self.g
        line, up = self.lines[p], self.up[p]
        j = line.index(card)
        del line[j]  # pull it; the newer fighters of this player move down one slot
        del up[j]
        prev = self.spirit[p]
        if self.events is not None:
            self.events.append(
                f"player {p + 1} converts {g.describe(card)} (slot {j + 1}) into the spirit; the "
                f"previous spirit {g.describe(prev)} fills slot {len(line) + 1} "
                f"{'active' if g.prev_active else 'fallen'}"
            )
        line.append(prev)  # the previous spirit fills the emptied newest slot
        up.append(g.prev_active)
        if g.prev_active:
            self.pub[prev] = True
        self.spirit[p] = card
        if card in self.lostc:  # converted: if it comes back as a previous spirit, it is no loser
            self.lostc.remove(card)
        self.conv_n[p] += 1
        self.stats[p][2] += 1
        if g.spirit_now:
            self.eff_back[p] = g.back[card]
        if g.back[card] == UNEARTH:
            self.stack.append((T_SPIRIT_UNEARTH, p))

    # --- deck handling (DD-19) -----------------------------------------------------------------

    def _available(self, b: int) -> int:
        n = len(self.decks[b])
        if self.g.reshuffle:
            n += len(self.discards[b])
        return n

    def _take(self, b: int, n: int) -> list[int]:
        """Take up to ``n`` cards from the top of deck ``b``, reshuffling its discards if short."""
        deck = self.decks[b]
        if len(deck) < n and self.g.reshuffle and self.discards[b]:
            deck.extend(self.discards[b])
            self.discards[b] = []
            self.nshuf += 1
            random.Random(f"{self.seed}/{self.nshuf}").shuffle(deck)
        if n >= len(deck):
            taken = deck[::-1]
            deck.clear()
        else:
            taken = deck[-1 : -n - 1 : -1]
            del deck[-n:]
        pub = self.pub
        for c in taken:
            pub[c] = False
        return taken

    # --- Unearth (DD-07, DD-08) ----------------------------------------------------------------

    def _start_unearth(self, p: int, optional: bool) -> None:
        g = self.g
        d0, d1, d2 = self.decks
        if d0 and d1 and d2:
            avail = ALL_AVAILABLE
        elif g.reshuffle:
            x0, x1, x2 = self.discards
            avail = (bool(d0 or x0), bool(d1 or x1), bool(d2 or x2))
        else:
            avail = (bool(d0), bool(d1), bool(d2))
        s = self.spirit[p]
        if avail == ALL_AVAILABLE:  # the usual case: every card can be unearthed
            opts = self.lines[p][:]
            if s >= 0:
                opts.append(s)
        else:
            back = g.back
            opts = [c for c in self.lines[p] if avail[back[c]]]
            if s >= 0 and avail[back[s]]:
                opts.append(s)
        if not opts:
            return
        if optional:
            opts.append(ACT_NO)
        if len(opts) > 1:  # _decide, inline
            self.dk, self.dp, self.dl, self.dc = D_UE_TARGET, p, opts, None
        elif opts[0] != ACT_NO:
            self._look(p, opts[0], p)

    def _look(self, chooser: int, target: int, owner: int) -> None:
        g = self.g
        b = g.back[target]
        n = g.look_n
        deck = self.decks[b]
        if len(deck) > n:  # the usual case, _take inline: the top n cards, top first
            look = deck[-1 : -n - 1 : -1]
            del deck[-n:]
            pub = self.pub
            for c in look:
                pub[c] = False
        else:
            look = self._take(b, n)
        if len(look) > 1:  # _decide, inline
            self.dk, self.dp, self.dl, self.dc = D_UE_PICK, chooser, look, (target, owner, tuple(look))
        elif look:
            self._replace(chooser, target, owner, look[0], (look[0],))

    def _replace(self, chooser: int, target: int, owner: int, new: int, look: tuple) -> None:
        g = self.g
        if self.events is not None:
            where = "spirit" if self.spirit[owner] == target else f"slot {self.lines[owner].index(target) + 1}"
            rest = [g.describe(c) for c in look if c != new]
            self.events.append(
                f"player {chooser + 1} unearths player {owner + 1}'s {where} {g.describe(target)}: "
                f"{g.describe(new)} takes its place" + (f" (discarded: {', '.join(rest)})" if rest else "")
            )
        b = g.back[target]
        disc = self.discards[b]
        pub = self.pub
        for c in look:
            if c != new:
                disc.append(c)
                pub[c] = True
        disc.append(target)
        pub[target] = True
        self.stats[chooser][3] += 1
        self.stats[owner][0].append(g.char[new])
        if self.spirit[owner] == target:
            self.spirit[owner] = new
            if g.retrigger and g.back[new] == UNEARTH and self.retrig[owner] < MAX_RETRIGGERS:
                self.retrig[owner] += 1
                self.stack.append((T_SPIRIT_UNEARTH, owner))
            return
        line = self.lines[owner]
        j = line.index(target)
        line[j] = new
        if self.up[owner][j]:
            pub[new] = True
        if target in self.lostc:  # the newcomer did not lose a fight
            self.lostc.remove(target)
        if j == self.fslot and g.newcomer_uses and self.up[owner][j] and g.has_effect[new]:
            self.stack.append((T_USE, owner, 1, new))

    # --- Dig (DD-18) ---------------------------------------------------------------------------

    def _start_dig(self, p: int, remaining: int, fighter: int) -> None:
        g = self.g
        if g.dig_choose:
            opts = [DECK_BASE + b for b in range(3) if self._available(b) > 0]
        else:
            b = g.back[fighter]
            opts = [DECK_BASE + b] if self._available(b) > 0 else []
        if opts:
            self._decide(D_DIG_DECK, p, opts, (remaining, fighter))

    # --- decisions -----------------------------------------------------------------------------

    def _resolve(self, kind: int, p: int, a: int, ctx: Any) -> None:
        """Apply a choice (the rarer kinds first: apply_action handles the common ones itself)."""
        if kind == D_DIG_DECK:
            b = a - DECK_BASE
            drawn = self._take(b, 1)
            if not drawn:
                return
            hand = self.hands[p]
            hand.append(drawn[0])
            self.stats[p][4] += 1
            if self.events is not None:
                self.events.append(f"player {p + 1} digs {self.g.describe(drawn[0])} from the {BACK_NAMES[BACKS[b]]} deck")
            back = self.g.back
            opts = [c for c in hand if back[c] == b]
            self._decide(D_DIG_DISCARD, p, opts, (ctx[0], ctx[1], b))
        elif kind == D_DIG_DISCARD:
            self.hands[p].remove(a)
            self.discards[ctx[2]].append(a)
            self.pub[a] = True
            if self.events is not None:
                self.events.append(f"player {p + 1} discards {self.g.describe(a)}")
            if ctx[0] > 1:
                self.stack.append((T_DIG, p, ctx[0] - 1, ctx[1]))
        elif kind == D_COPY:
            self.stack.append((T_STEPS, p, self.g.effect[a], 0, 1))
            if self.events is not None:
                self.events.append(f"player {p + 1} copies the effect of {self.g.describe(a)}")
        elif kind == D_FLIP:
            if self.events is not None:
                face = "up" if ctx == 0 else "down"
                self.events.append(f"player {p + 1} flips {self.g.describe(a)} face {face}")
            if ctx == 0:
                line = self.lines[p]
                j = line.index(a)
                self.up[p][j] = True
                self.pub[a] = True
            else:
                o = 1 - p
                j = self.lines[o].index(a)
                self.up[o][j] = False
        elif kind == D_CONVERT:
            if a != ACT_NO:
                self._convert(p, a)
        elif kind == D_SELECT:
            self.chosen[p].append(a)
        elif kind == D_UE_TARGET:
            if a != ACT_NO:
                self._look(p, a, p)
        elif kind == D_UE_PICK:
            self._replace(p, ctx[0], ctx[1], a, ctx[2])
        else:  # pragma: no cover - every kind is handled above
            raise RulesError(f"unknown decision kind {kind}")

    # --- the effect interpreter ----------------------------------------------------------------

    def count(self, p: int, counter: int) -> int:
        """A counter of docs/effects.md from ``p``'s side of the current fight.

        ``counter`` is a compiled counter code: its measure (C_*) shifted left by one, the side
        (0 ``p``'s, 1 the opponent's) in the low bit (effects.Counter.code).
        """
        side = p ^ (counter & 1)
        measure = counter >> 1
        if measure == C_WINNERS:
            return self.won_n[side]
        up = self.up[side]
        if measure == C_ADJACENT_ACTIVE:
            i = self.fslot
            n = 0
            if i > 0 and up[i - 1]:
                n += 1
            if i + 1 < len(up) and up[i + 1]:
                n += 1
            return n
        n_up = sum(up)
        return n_up if measure == C_ACTIVE else len(up) - n_up

    def _conds_hold(self, p: int, conds: tuple) -> bool:
        """Every test of a step's ``when:``, measured now from ``p``'s side of the fight.

        Each test is compiled to ``(measure, lo, hi, negated, arg)``: it holds when
        ``lo <= measured <= hi`` (or, negated, when not), so no comparison function is called.
        ``arg`` is the side measured (0 ``p``'s, 1 the opponent's) or the counter of M_COUNT.
        """
        g = self.g
        i = self.fslot
        for measure, lo, hi, neg, arg in conds:
            if measure == M_PRIORITY:
                x = 0 if self.prio == p else 1
            elif measure == M_TURN:
                x = self.turn
            elif measure == M_SLOT:
                x = i + 1
            elif measure == M_SPIRIT_BACK:
                s = self.spirit[p ^ arg]
                x = g.back[s] if s >= 0 else -1
            elif measure == M_LINE_BACK:
                x = g.back[self.lines[p ^ arg][i]]
            elif measure == M_PRINTED_POWER:
                x = g.power[self.lines[p ^ arg][i]]
            elif measure == M_HAS_EFFECT:
                x = int(g.has_effect[self.lines[p ^ arg][i]])
            elif measure == M_COUNT:
                x = self.count(p, arg)
            elif measure == M_SCORE_DIFF:
                x = self.scores[p] - self.scores[1 - p]
            elif measure == M_LOSING:
                x = int(self.fight_total(p) < self.fight_total(1 - p))
            elif measure == M_SLOT_NEWEST:
                x = int(i == len(self.lines[p]) - 1)
            elif measure == M_SLOT_OLDEST:
                x = int(i == 0)
            else:
                return False
            if lo <= x <= hi:  # (in an if, each comparison takes CPython's fast int path)
                if neg:
                    return False
            elif not neg:
                return False
        return True

    def _use_inline(self, p: int, card: int) -> None:
        """All uses of an effect that needs no decision (same rules as the T_USE task).

        An inline effect never changes the spirit backs, so whether a Double repeats it is known
        up front; negation and suppression (which an effect may set) are checked before each use.
        """
        fx = self.fx
        if fx[F_NEG + p]:  # negated: no use at all
            return
        g = self.g
        double = self.eff_back[p] == DOUBLE
        if self.events is not None:
            self.events.append(
                f"player {p + 1} uses {g.describe(card)}'s effect" + (" (Double spirit)" if double else "")
            )
        steps = g.effect[card]
        self._exec(p, steps, 0, 0)
        if double:
            u = 1
            uses = g.double_uses
            while u < uses and not fx[F_NEG + p] and not fx[F_SUP + p]:
                self._exec(p, steps, 0, 0)
                u += 1

    def _exec(self, p: int, steps: tuple, idx: int, depth: int) -> None:
        """The effect interpreter: run compiled ``steps`` from ``idx`` for ``p``'s fighter.

        One branch per operation of the vocabulary (effects.RUN_*), every card goes through here.
        A step that asks a player or starts a task leaves the remaining steps as a T_STEPS
        continuation, so what it started runs before the rest of the effect.
        """
        fx = self.fx
        for run, amount, opp, per, target, conds in steps[idx:] if idx else steps:
            idx += 1  # (the index of the next step, for a continuation)
            if conds and not self._conds_hold(p, conds):
                continue
            if run == RUN_FIGHT_ADD:  # power (the commonest step), auto_win, auto_lose
                fx[target + (p ^ opp)] += amount if per < 0 else amount * self.count(p, per)
            elif run == RUN_FIGHT_SET:  # set_power, win_ties, suppress_spirit, negate
                fx[target + (p ^ opp)] = amount
            elif run == RUN_VP:
                side = p ^ opp
                vp = amount if per < 0 else amount * self.count(p, per)
                self.scores[side] += vp
                if self.events is not None:
                    self.events.append(f"player {side + 1} gains {vp} VP")
            elif run == RUN_PRIORITY:
                self.prio = p ^ opp
                if self.events is not None:
                    self.events.append(f"player {p + 1} gives priority to player {2 - p}" if opp
                                       else f"player {p + 1} takes priority")
            else:  # the steps that may ask a player or start a task
                stack = self.stack
                n0 = len(stack)
                self._asking_step(p, run, amount, target, depth)
                if idx < len(steps) and (self.dk >= 0 or len(stack) != n0):
                    stack.insert(n0, (T_STEPS, p, steps, idx, depth))
                    return

    def _asking_step(self, p: int, run: int, amount: int, target: int, depth: int) -> None:
        """The operations that may need a decision: Unearth, Dig, force_unearth, flip, copy."""
        if run == RUN_UNEARTH:
            self._start_unearth(p, False)
        elif run == RUN_DIG:
            self._start_dig(p, amount, self.lines[p][self.fslot])
        elif run == RUN_FORCE_UNEARTH:
            o = 1 - p
            c = self.lines[o][self.fslot]
            if self._available(self.g.back[c]) > 0:
                self._look(p, c, o)
        elif run == RUN_FLIP:
            i = self.fslot
            if target == 0:
                opts = [c for c, u in zip(self.lines[p], self.up[p], strict=True) if not u]
            else:
                o = 1 - p
                opts = [c for j, c in enumerate(self.lines[o]) if j > i and self.up[o][j]]
            if opts:
                self._decide(D_FLIP, p, opts, target)
        elif run == RUN_COPY:
            if depth >= 1:  # DD-10: copy depth 1
                return
            i = self.fslot
            has = self.g.has_effect
            line, up = self.lines[p], self.up[p]
            if target == 0:
                c = self.lines[1 - p][i]
                opts = [c] if self.up[1 - p][i] and has[c] else []
            elif target == 1:
                opts = [
                    line[j] for j in (i - 1, i + 1) if 0 <= j < len(line) and up[j] and has[line[j]]
                ]
            else:
                opts = [c for j, c in enumerate(line) if j != i and up[j] and has[c]]
            if opts:
                self._decide(D_COPY, p, opts, None)
        else:  # a RUN_* code the vocabulary has and this interpreter does not
            raise RulesError(f"the interpreter has no operation {run}")

    # --- transcript events (only when DotdGame.record_events is on) ----------------------------

    def _note_reveal(self, p: int, chosen: list[int]) -> None:
        g = self.g
        picks = [g.describe(c) for c in chosen]
        what = f"fighter {picks[0]}, spirit {picks[-1]}" if len(picks) > 1 else f"spirit {picks[0]}"
        field = ", ".join(f"{j + 1} {g.describe(c)}" for j, c in enumerate(self.lines[p]))
        events = self.events
        assert events is not None  # only called while recording
        events.append(f"player {p + 1} reveals {what}; the field flips face up: {field}")

    def _side_detail(self, p: int, card: int, total: int) -> str:
        """``Oaf 9 = 7 +2 Power Up`` with the flags that decided the fight."""
        g = self.g
        fx = self.fx
        sp = fx[F_SETP + p]
        parts = [str(g.power[card]) if sp == NO_SETP else f"set to {sp}"]
        if fx[F_BONUS + p]:
            parts.append(f"{fx[F_BONUS + p]:+d} effects")
        if self.eff_back[p] == POWER_UP and not fx[F_SUP + p]:
            parts.append(f"{g.pu_bonus:+d} Power Up")
        if g.fp_power and p == self.first_prio:
            parts.append(f"{g.fp_power:+d} first player")
        flags = [
            name
            for idx, name in ((F_AW, "auto-win"), (F_AL, "auto-lose"), (F_WT, "wins ties"),
                              (F_SUP, "spirit suppressed"), (F_NEG, "negated"))
            if fx[idx + p]
        ]
        tail = f" [{', '.join(flags)}]" if flags else ""
        return f"player {p + 1}'s {g.characters[g.char[card]].name} {total} = {' '.join(parts)}{tail}"

    def _note_fight(self, i: int, a: int, b: int, t0: int, t1: int, win0: bool, win1: bool) -> None:
        if win0 and win1:
            res = "tie, both win"
        elif win0:
            res = "player 1 wins, player 2's fighter falls"
        elif win1:
            res = "player 2 wins, player 1's fighter falls"
        else:
            res = "both lose and fall"
        events = self.events
        assert events is not None  # only called while recording
        events.append(
            f"fight slot {i + 1}: {self._side_detail(0, a, t0)} vs {self._side_detail(1, b, t1)}: {res}"
        )

    def _note_rewards(self) -> None:
        log = self.score_log
        prev = log[-2] if len(log) > 1 else (0, 0, 0)
        now = log[-1]
        events = self.events
        assert events is not None  # only called while recording
        events.append(
            f"scores after turn {self.turn}: player 1 {now[0]} ({now[0] - prev[0]:+d}), "
            f"player 2 {now[1]} ({now[1] - prev[1]:+d}); priority passes to player {self.prio + 1}"
        )

    # --- facts ---------------------------------------------------------------------------------

    def summary(self) -> dict[str, Any]:
        """Plain facts of a (finished) game for the statistics of engine/dotd/metrics.py."""
        g = self.g
        ids = g.char_ids
        players = []
        for p in (0, 1):
            played, _unused, conv, ue, dig = self.stats[p]
            fights: dict[str, int] = {}
            wins: dict[str, int] = {}
            for f in self.fight_log:
                cid = ids[g.char[f[2 + p]]]
                fights[cid] = fights.get(cid, 0) + 1
                if f[6 + p]:
                    wins[cid] = wins.get(cid, 0) + 1
            players.append(
                {
                    "played": sorted({ids[c] for c in played}),
                    "fights": dict(sorted(fights.items())),
                    "fights_won": dict(sorted(wins.items())),
                    "conversions": conv,
                    "unearths": ue,
                    "digs": dig,
                    "score": self.scores[p],
                }
            )
        return {
            "winner": self.winner() if self.done else None,
            "draw": self.done and self.winner() is None,
            "scores": list(self.scores),
            "scores_per_turn": [[a, b] for a, b, _ in self.score_log],
            "first_priority": self.first_prio,
            "turns": self.turn,
            "actions": len(self.history),
            "players": players,
            "characters": list(ids),
        }

    def to_json(self) -> dict[str, Any]:
        """The whole state as plain data (every card face shown: a referee's view)."""
        g = self.g
        name = g.card_name

        def zone(p: int) -> dict[str, Any]:
            return {
                "hand": [name(c) for c in self.hands[p]],
                "line": [
                    {"card": name(c), "state": "active" if u else "fallen"}
                    for c, u in zip(self.lines[p], self.up[p], strict=True)
                ],
                "spirit": name(self.spirit[p]) if self.spirit[p] >= 0 else None,
                "chosen": [name(c) for c in self.chosen[p]],
                "score": self.scores[p],
            }

        return {
            "turn": self.turn,
            "priority": self.prio,
            "first_priority": self.first_prio,
            "terminal": self.done,
            "winner": self.winner() if self.done else None,
            "scores": list(self.scores),
            "players": [zone(0), zone(1)],
            "fights": [
                {
                    "turn": t,
                    "slot": i + 1,
                    "cards": [name(a), name(b)],
                    "power": [t0, t1],
                    "won": [w0, w1],
                }
                for t, i, a, b, t0, t1, w0, w1 in self.fight_log
            ],
            "decks": {BACKS[b]: len(self.decks[b]) for b in range(3)},
            "discards": {BACKS[b]: [name(c) for c in self.discards[b]] for b in range(3)},
            "decision": None
            if self.dk < 0
            else {
                "kind": DECISION_NAMES[self.dk],
                "player": self.dp,
                "legal": [self.action_to_string(a) for a in self.dl],
            },
        }

    def check_invariants(self) -> None:
        """Every card is in exactly one zone (used by the conformance tests and scenarios)."""
        g = self.g
        seen = [0] * g.n
        zones = [*self.decks, *self.discards, *self.hands, *self.lines]
        for z in zones:
            for c in z:
                seen[c] += 1
        for s in self.spirit:
            if s >= 0:
                seen[s] += 1
        if self.dk == D_UE_PICK:
            for c in self.dc[2]:
                seen[c] += 1
        bad = [g.card_name(c) for c in range(g.n) if seen[c] != 1]
        if bad:
            raise RulesError(f"cards not in exactly one zone: {', '.join(bad[:8])}")
        if len(self.lines[0]) != len(self.lines[1]):
            raise RulesError("the two lines have different lengths")


def action_string(g: DotdGame, kind: int, ctx: Any, action: int) -> str:
    """Readable, parseable form of ``action`` at a decision of ``kind`` (scenarios, transcripts)."""
    if action == ACT_NO:
        return "no"
    if action >= DECK_BASE:
        return f"dig {BACKS[action - DECK_BASE]}"
    if not 0 <= action < g.n:
        return f"?{action}"
    name = g.card_name(action)
    verb = {
        D_SELECT: "fighter" if ctx == 0 else "spirit",
        D_UE_TARGET: "unearth",
        D_UE_PICK: "keep",
        D_DIG_DISCARD: "discard",
        D_COPY: "copy",
        D_FLIP: "flip",
        D_CONVERT: "convert",
    }.get(kind, "card")
    return f"{verb} {name}"
