"""The Day of the Dead rules engine: a fast, resumable state machine over int card ids.

A game's progress is a stack of small task tuples (start a turn, start a fight, use an effect,
run effect steps, resolve a fight, offer a conversion, score...). ``apply_action`` applies the
pending choice, then pops tasks until one needs a player's choice; that choice becomes the pending
decision (``legal_actions``). So every choice inside an effect is a decision point, never a
callback, and ``clone`` is a handful of list copies. Effects run through one interpreter
(``interpreter.exec_steps``, one branch per operation of the vocabulary); no card has its own
code path. This module is the state machine; what it calls lives by concern in ``interpreter``
(effects), ``choices`` (conversions, decks, Unearth, Dig, applying a choice), ``turns`` (turn
start, reveal, rewards), ``narrate`` (transcript events, JSON) and ``summary``.

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
from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.core import TERMINAL

from boneyard.errors import RulesError

from .cards import BACKS
from .choices import (
    convert_loser,
    look_at,
    offer_conversion,
    replace_card,
    resolve_choice,
    start_dig,
    start_unearth,
)
from .codes import (
    ACT_NO,
    D_CONVERT,
    D_NONE,
    D_SELECT,
    D_UE_PICK,
    D_UE_TARGET,
    DECISION_NAMES,
    DOUBLE,
    F_BONUS,
    F_NEG,
    F_SETP,
    F_SUP,
    FIGHT_RESET,
    NO_SETP,
    POWER_UP,
    T_CONVERT,
    T_DIG,
    T_FIGHT,
    T_RESOLVE,
    T_REVEAL,
    T_REWARDS,
    T_SELECT,
    T_SPIRIT_UNEARTH,
    T_STEPS,
    T_TURN,
    T_USE,
    action_string,
)
from .interpreter import exec_steps, use_inline
from .narrate import check_invariants as _check_invariants
from .narrate import note_fight, state_json
from .observation import DotdObservation
from .phrases import DEFAULT_BACK_NAMES
from .rules import INLINE_RUNS, compile_step, resolve_params, resolve_switches
from .summary import DotdSummary, summarize
from .turns import reveal, rewards, start_turn

_c_seed = _CRandom.seed
_RESUME = -(1 << 62)  # apply_action's "no action" (never a legal action): run on (_advance)
EK_NONE, EK_INLINE, EK_ASKS = 0, 1, 2  # DotdGame.ekind: what using a card's effect may do


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
        "unearth_optional", "retrigger", "newcomer_uses", "newcomer_pending", "both_lose", "any_loser", "max_conv",
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
        self.newcomer_pending = bool(sw["newcomer_uses_pending_effect"]) and not self.newcomer_uses
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
        return f"{ch.name} ({ch.power}) on {DEFAULT_BACK_NAMES.get(BACKS[self.back[card]], '?')}"


class DotdState:
    """One position of a Day of the Dead game. Lines are lists, slot 1 (oldest) first.

    ``legal_actions()`` returns a list owned by the state: read it, never mutate it; valid until
    the next ``apply_action`` (the contract of ``boneyard.engine.core.State`` for every game).
    """

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
                    convert_loser(self, self.dp, action)
            elif kind == D_SELECT:
                self.chosen[self.dp].append(action)
            elif kind == D_UE_PICK:
                ctx = self.dc
                replace_card(self, self.dp, ctx[0], ctx[1], action, ctx[2])
            elif kind == D_UE_TARGET:
                if action != ACT_NO:
                    look_at(self, self.dp, action, self.dp)
            else:
                resolve_choice(self, kind, self.dp, action, self.dc)
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
                    # goes through use_inline (the priority holder cannot be negated yet)
                    if k1 and up[first][i]:
                        if self.eff_back[first] == DOUBLE or self.events is not None:
                            use_inline(self, first, c1)
                        else:
                            exec_steps(self, first, g.effect[c1], 0, 0)
                    if k2 and up[second][i]:
                        if self.eff_back[second] == DOUBLE or self.events is not None:
                            use_inline(self, second, c2)
                        elif not fx[F_NEG + second]:
                            exec_steps(self, second, g.effect[c2], 0, 0)
                elif k1 != EK_ASKS:  # the priority holder's effect asks nothing: use it now
                    if k1 and up[first][i]:
                        use_inline(self, first, c1)
                    # then the other's, which may ask
                    if up[second][i]:
                        stack.append((T_RESOLVE, i))
                        stack.append((T_USE, second, 1, c2))
                        continue
                else:
                    stack.append((T_RESOLVE, i))
                    # pushed first runs last; without an effect of its own the second side still
                    # gets its step if the first may replace its fighter (DD-08)
                    if k2 and up[second][i]:
                        stack.append((T_USE, second, 1, c2))
                    elif g.newcomer_pending and up[second][i]:
                        stack.append((T_USE, second, 0, c2))
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
                if u <= 1 and lines[p][i] != card and g.newcomer_pending:
                    # DD-08: replaced before its controller's effect step came ("both fighters
                    # use their effects"): the newcomer uses its own at that step
                    card = lines[p][i]
                    u = 1
                    if not g.has_effect[card]:
                        continue
                elif u == 0:  # a step kept only for a newcomer, and none came
                    continue
                if lines[p][i] != card or not up[p][i] or fx[F_NEG + p]:
                    continue
                if u == 1 and g.ekind[card] != EK_ASKS:  # every use at once: it cannot stop for a decision
                    use_inline(self, p, card)
                    continue
                if u > 1 and (self.eff_back[p] != DOUBLE or fx[F_SUP + p] or u > g.double_uses):
                    continue
                if u < g.double_uses and self.eff_back[p] == DOUBLE:
                    stack.append((T_USE, p, u + 1, card))
                if self.events is not None:
                    nth = f" (use {u}, Double spirit)" if self.eff_back[p] == DOUBLE else ""
                    self.events.append(f"player {p + 1} uses {g.describe(card)}'s effect{nth}")
                exec_steps(self, p, g.effect[card], 0, 0)
                if self.dk >= 0:
                    return
                continue
            elif code == T_STEPS:
                exec_steps(self, t[1], t[2], t[3], t[4])
                if self.dk >= 0:
                    return
                continue
            elif code == T_SPIRIT_UNEARTH:
                start_unearth(self, t[1], g.unearth_optional)
                if self.dk >= 0:
                    return
                continue
            elif code == T_REVEAL:
                reveal(self)
                continue
            elif code == T_REWARDS:
                rewards(self)  # (it starts the next turn, whose first selection may ask)
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
                    note_fight(self, i, a, b, t0, t1, win0, win1)
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

    def observation(self, player: int) -> DotdObservation:
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
            resolve_choice(self, kind, player, legal[0], ctx)
            return
        self.dk = kind
        self.dp = player
        self.dl = legal
        self.dc = ctx

    def _task(self, t: tuple[Any, ...]) -> None:
        """The rare tasks: an offered conversion (both lost, or DD-15's wider window), a further
        Dig, a turn start set up by a scenario; the rest run in the loop of ``apply_action``."""
        code = t[0]
        if code == T_CONVERT:
            offer_conversion(self, t[1])
        elif code == T_DIG:
            start_dig(self, t[1], t[2], t[3])
        elif code == T_TURN:
            start_turn(self)

    # --- turn structure ------------------------------------------------------------------------

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

    # --- facts ---------------------------------------------------------------------------------

    def summary(self) -> DotdSummary:
        """Typed facts of a (finished) game for the statistics of engine/dotd/metrics.py."""
        return summarize(self)

    def to_json(self) -> dict[str, Any]:
        """The whole state as plain data (every card face shown: a referee's view)."""
        return state_json(self)

    def check_invariants(self) -> None:
        """Every card is in exactly one zone (used by the conformance tests and scenarios)."""
        _check_invariants(self)
