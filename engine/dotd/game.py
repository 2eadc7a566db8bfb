"""The Day of the Dead rules engine: a fast, resumable state machine over int card ids.

A game's progress is a stack of small task tuples (start a turn, start a fight, use an effect,
run effect steps, resolve a fight, offer a conversion, score...). ``apply_action`` applies the
pending choice, then pops tasks until one needs a player's choice; that choice becomes the pending
decision (``legal_actions``). So every choice inside an effect is a decision point, never a
callback, and ``clone`` is a handful of list copies. Effects run through one interpreter
(``interpreter.exec_steps``, one branch per operation of the vocabulary); no card has its own
code path. This module is the state machine; what it calls lives by concern in ``interpreter``
(effects), ``choices`` (conversions, decks, Unearth, Dig, applying a choice), ``turns`` (turn
start, reveal, rewards), ``narrate`` (transcript events, JSON) and ``summary``; they all work on
the data below this module, the tables (``tables.GameTables``, which DotdGame extends) and the
position (``position.Position``, which DotdState extends), so none of them imports this one.

Speed (issue 3: random games per second on one core) shapes the code: the task loop is inside
``apply_action`` (one call per decision), the commonest tasks (a fight and its resolution, a
selection, an effect use or its remaining steps, an Unearth spirit) are handled in the loop itself,
effects are compiled once per game into int tuples with conditions as int ranges, and the tables
the loop reads are slots of GameTables.

Rulings (DD-xx) are in docs/rules/day-of-the-dead.md; the switches are in engine/dotd/rules.py.
"""

from __future__ import annotations

import random
from _random import Random as _CRandom
from collections.abc import Callable
from typing import Any

from boneyard.engine.cards import CardSet

from boneyard.errors import RulesError

from .cards import BACKS
from .choices import (
    convert_loser,
    look_at,
    note_only_option,
    offer_conversion,
    replace_card,
    resolve_choice,
    start_dig,
    start_unearth,
)
from .codes import (
    A_BOTH_AL_COMPARED,
    A_DOUBLE,
    A_DOUBLE_EDGE,
    A_DOUBLE_EDGE_WON,
    A_NEWCOMER,
    A_POWER_UP,
    A_PU_EDGE,
    A_PU_EDGE_WON,
    A_SPIRIT_UNEARTH,
    A_UNEARTH_EDGE,
    A_UNEARTH_EDGE_WON,
    ACT_NO,
    D_CONVERT,
    D_NONE,
    D_SELECT,
    D_UE_PICK,
    D_UE_TARGET,
    DOUBLE,
    EK_ASKS,
    F_NEG,
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
    UNEARTH,
)
from .interpreter import exec_steps, use_inline
from .narrate import check_invariants as _check_invariants
from .narrate import note_fight, note_fighters_down, state_json
from .observation import DotdObservation
from .position import Position
from .summary import DotdSummary, summarize
from .tables import GameTables
from .turns import reveal, rewards, start_turn

_c_seed = _CRandom.seed
_RESUME = -(1 << 62)  # apply_action's "no action" (never a legal action): run on (_advance)


def _rebuild_game(card_set: CardSet, switches: dict[str, Any], record_events: bool) -> DotdGame:
    game = DotdGame(card_set, **switches)
    game.record_events = record_events
    return game


class DotdGame(GameTables):
    """Static rules of one Day of the Dead set (the tables, ``tables.py``) and the verb that
    starts a game on them."""

    __slots__ = ()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled as what it is built from (worker processes, cluster tasks): the tables are
        rebuilt from the card set and switches there. (Compiled classes need it spelled out.)"""
        return (_rebuild_game, (self.card_set, dict(self.switches), self.record_events))

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


class DotdState(Position):
    """One position of a Day of the Dead game (its fields and reads: ``position.py``) and the verbs
    that play it.

    ``legal_actions()`` returns a list owned by the state: read it, never mutate it; valid until
    the next ``apply_action`` (the contract of ``boneyard.engine.core.State`` for every game).
    """

    __slots__ = ()

    # --- core interface ------------------------------------------------------------------------
    def play_uniform(self, bits: list[Callable[[int], int]], cap: int) -> list[int]:
        """Play on with every seat uniform at random, to the end or ``cap`` actions; the actions.

        The simulator's loop for random agents (``engine/sim/play.py``), here to run compiled:
        each seat draws from its own ``bits`` (a ``Random.getrandbits``) exactly as
        ``boneyard.engine.agents.uniform_choice`` does, so the games are the agent's own
        (tests/test_sim_uniform.py plays both ways).
        """
        actions: list[int] = []
        while not self.is_terminal() and len(actions) < cap:
            legal = self.legal_actions()
            n = len(legal)
            if n < 2:
                a = legal[0]
            else:
                draw = bits[self.current_player()]
                k = n.bit_length()
                r = draw(k)
                while r >= n:
                    r = draw(k)
                a = legal[r]
            self.apply_action(a)
            actions.append(a)
        return actions


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
                if t[2] and self.turn == 1 and p == self.prio and self.events is not None:
                    note_fighters_down(self)  # turn 1's spirits: both fighters are down now
                legal = self._selectable(p, True)
                if len(legal) > 1:
                    self.dk, self.dp, self.dl, self.dc = D_SELECT, p, legal, t[2]
                    return
                if self.events is not None:
                    note_only_option(self, D_SELECT, p, t[2], legal[0])
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
                    self.fired[A_NEWCOMER] += 1
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
                if u > 1:
                    self.fired[A_DOUBLE] += 1
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
                self.fired[A_SPIRIT_UNEARTH] += 1
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
                pu0 = eb0 == POWER_UP and not su0
                pu1 = eb1 == POWER_UP and not su1
                if pu0:
                    t0 += g.pu_bonus
                    self.fired[A_POWER_UP] += 1
                if pu1:
                    t1 += g.pu_bonus
                    self.fired[A_POWER_UP] += 1
                if g.fp_power:  # first_player_power: the turn-1 priority holder's handicap
                    if self.first_prio == 0:
                        t0 += g.fp_power
                    else:
                        t1 += g.fp_power
                if aw0 or aw1 or al0 or al1:
                    w0 = (aw0 > al0) - (al0 > aw0)
                    w1 = (aw1 > al1) - (al1 > aw1)
                    if w0 == w1 and (w0 == 0 or (w0 == -1 and not g.both_lose)):
                        if w0 == -1:  # both_auto_lose: compare_power
                            self.fired[A_BOTH_AL_COMPARED] += 1
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
                if pu0 != pu1:  # what the bonus is worth: the power_up_edge_win_rate metric
                    self.fired[A_PU_EDGE] += 1
                    if (win0 and not win1) if pu0 else (win1 and not win0):
                        self.fired[A_PU_EDGE_WON] += 1
                d0 = eb0 == DOUBLE and not su0  # the other backs' spirits alike
                if d0 != (eb1 == DOUBLE and not su1):
                    self.fired[A_DOUBLE_EDGE] += 1
                    if (win0 and not win1) if d0 else (win1 and not win0):
                        self.fired[A_DOUBLE_EDGE_WON] += 1
                n0 = eb0 == UNEARTH
                if n0 != (eb1 == UNEARTH):
                    self.fired[A_UNEARTH_EDGE] += 1
                    if (win0 and not win1) if n0 else (win1 and not win0):
                        self.fired[A_UNEARTH_EDGE_WON] += 1
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

    def clone(self) -> DotdState:
        s = self.fork()
        s.history = self.history[:]
        s.stats = [[st[0][:], st[1][:], st[2], st[3], st[4]] for st in self.stats]
        s.score_log = self.score_log[:]
        s.fight_log = self.fight_log[:]
        s.events = None if self.events is None else self.events[:]
        s.fired = self.fired[:]
        return s

    def fork(self) -> DotdState:
        """A copy to play on in a search's playout: the position is copied as by ``clone``, but
        its logs and coverage counts (history, fight and score logs, player stats, fired) are
        shared with this state, where the playout's moves land meaningless. Only for a throwaway
        state, such as a sampled deal, whose logs and counts nobody reads."""
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
        s.history = self.history
        s.stats = self.stats
        s.score_log = self.score_log
        s.end_turn = self.end_turn
        s.fight_log = self.fight_log
        s.retrig = self.retrig[:]
        s.events = None
        s.fired = self.fired
        return s

    def observation(self, player: int) -> DotdObservation[DotdState]:
        return DotdObservation(self, player, self.clone)

    def __str__(self) -> str:
        import json

        return json.dumps(self.to_json())

    # --- the machine ---------------------------------------------------------------------------

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
