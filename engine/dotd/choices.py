"""What an effect, a spirit or a lost fight starts: conversions, deck handling, Unearth, Dig,
and applying the choices they ask for (rulings DD-07, DD-08, DD-14 .. DD-19).

Functions of the state rather than methods, so the state module stays readable; compiled with
it (setup.py).
"""

from __future__ import annotations

import random
from typing import Any

from boneyard.errors import RulesError

from .cards import BACKS
from .codes import (
    A_DECK_SHORT,
    A_LATE_CONVERSION,
    A_NEWCOMER,
    A_RETRIGGER,
    A_SPIRIT_WAITS,
    ACT_NO,
    D_CONVERT,
    D_COPY,
    D_DIG_DECK,
    D_DIG_DISCARD,
    D_FLIP,
    D_SELECT,
    D_UE_PICK,
    D_UE_TARGET,
    DECK_BASE,
    T_DIG,
    T_SPIRIT_UNEARTH,
    T_STEPS,
    T_USE,
    UNEARTH,
)
from .phrases import DEFAULT_BACK_NAMES
from .position import Position
from .tables import action_string

MAX_RETRIGGERS = 3  # re-fired Unearth spirits per player and turn: a chain must end
ALL_AVAILABLE = (True, True, True)


def decide(st: Position, kind: int, player: int, legal: list[int], ctx: Any) -> None:
    """Make ``player`` choose; a choice with one option is taken at once."""
    if len(legal) == 1:
        if st.events is not None and st.g.note_forced:
            note_only_option(st, kind, player, ctx, legal[0])
        resolve_choice(st, kind, player, legal[0], ctx)
        return
    st.dk = kind
    st.dp = player
    st.dl = legal
    st.dc = ctx


def note_only_option(st: Position, kind: int, player: int, ctx: Any, action: int) -> None:
    """A choice with one option, taken at once, as an event (scenarios list it or leave it out)."""
    events = st.events
    if events is not None and st.g.note_forced:
        text = action_string(st.g, kind, ctx, action)
        events.append(f"player {player + 1} takes the only option: {text}")


def offer_conversion(st: Position, p: int) -> None:
    """Step 4: the loser may become the spirit (DD-14, DD-15)."""
    if st.conv_n[p] >= st.g.max_conv:
        return
    line, up, lostc = st.lines[p], st.up[p], st.lostc
    if st.g.any_loser:
        opts = [c for j, c in enumerate(line) if not up[j] and c in lostc]
    else:
        i = st.fslot
        c = line[i]
        opts = [c] if (not up[i] and c in lostc) else []
    if not opts:
        return
    opts.append(ACT_NO)
    decide(st, D_CONVERT, p, opts, None)


def convert_loser(st: Position, p: int, card: int) -> None:
    g = st.g
    line, up = st.lines[p], st.up[p]
    j = line.index(card)
    if g.any_loser and j != st.fslot:  # conversion_window: a loser of an earlier fight
        st.fired[A_LATE_CONVERSION] += 1
    del line[j]  # pull it; the newer fighters of this player move down one slot
    del up[j]
    prev = st.spirit[p]
    if st.events is not None:
        st.events.append(
            f"player {p + 1} converts {g.describe(card)} (slot {j + 1}) into the spirit; the "
            f"previous spirit {g.describe(prev)} fills slot {len(line) + 1} "
            f"{'active' if g.prev_active else 'fallen'}"
        )
    line.append(prev)  # the previous spirit fills the emptied newest slot
    up.append(g.prev_active)
    if g.prev_active:
        st.pub[prev] = True
    st.spirit[p] = card
    if card in st.lostc:  # converted: if it comes back as a previous spirit, it is no loser
        st.lostc.remove(card)
    st.conv_n[p] += 1
    st.stats[p][2] += 1
    if g.spirit_now:
        st.eff_back[p] = g.back[card]
    elif st.fslot > 0 and g.back[card] != st.eff_back[p]:
        st.fired[A_SPIRIT_WAITS] += 1  # new_spirit_applies: next_turn, with fights left
    if g.back[card] == UNEARTH:
        st.stack.append((T_SPIRIT_UNEARTH, p))


def available(st: Position, b: int) -> int:
    n = len(st.decks[b])
    if st.g.reshuffle:
        n += len(st.discards[b])
    return n


def take_cards(st: Position, b: int, n: int) -> list[int]:
    """Take up to ``n`` cards from the top of deck ``b``, reshuffling its discards if short."""
    deck = st.decks[b]
    if len(deck) < n:
        if not st.g.reshuffle:
            st.fired[A_DECK_SHORT] += 1  # deck_empty: skip: fewer cards than asked
        elif st.discards[b]:
            deck.extend(st.discards[b])
            st.discards[b] = []
            st.nshuf += 1
            random.Random(f"{st.seed}/{st.nshuf}").shuffle(deck)
    if n >= len(deck):
        taken = deck[::-1]
        deck.clear()
    else:
        taken = deck[-1 : -n - 1 : -1]
        del deck[-n:]
    pub = st.pub
    for c in taken:
        pub[c] = False
    return taken


def start_unearth(st: Position, p: int, optional: bool) -> None:
    g = st.g
    d0, d1, d2 = st.decks
    if d0 and d1 and d2:
        avail = ALL_AVAILABLE
    elif g.reshuffle:
        x0, x1, x2 = st.discards
        avail = (bool(d0 or x0), bool(d1 or x1), bool(d2 or x2))
    else:
        avail = (bool(d0), bool(d1), bool(d2))
    s = st.spirit[p]
    if avail == ALL_AVAILABLE:  # the usual case: every card can be unearthed
        opts = st.lines[p][:]
        if s >= 0:
            opts.append(s)
    else:
        back = g.back
        opts = [c for c in st.lines[p] if avail[back[c]]]
        if s >= 0 and avail[back[s]]:
            opts.append(s)
    if not opts:
        return
    if optional:
        opts.append(ACT_NO)
    if len(opts) > 1:  # decide, inline
        st.dk, st.dp, st.dl, st.dc = D_UE_TARGET, p, opts, None
    elif opts[0] != ACT_NO:
        if st.events is not None:
            note_only_option(st, D_UE_TARGET, p, None, opts[0])
        look_at(st, p, opts[0], p)


def look_at(st: Position, chooser: int, target: int, owner: int) -> None:
    g = st.g
    b = g.back[target]
    n = g.look_n
    deck = st.decks[b]
    if len(deck) > n:  # the usual case, _take inline: the top n cards, top first
        look = deck[-1 : -n - 1 : -1]
        del deck[-n:]
        pub = st.pub
        for c in look:
            pub[c] = False
    else:
        look = take_cards(st, b, n)
    if len(look) > 1:  # decide, inline
        st.dk, st.dp, st.dl, st.dc = D_UE_PICK, chooser, look, (target, owner, tuple(look))
    elif look:
        if st.events is not None:
            note_only_option(st, D_UE_PICK, chooser, (target, owner, (look[0],)), look[0])
        replace_card(st, chooser, target, owner, look[0], (look[0],))


def replace_card(st: Position, chooser: int, target: int, owner: int, new: int, look: tuple[int, ...]) -> None:
    g = st.g
    if st.events is not None:
        where = "spirit" if st.spirit[owner] == target else f"slot {st.lines[owner].index(target) + 1}"
        rest = [g.describe(c) for c in look if c != new]
        st.events.append(
            f"player {chooser + 1} unearths player {owner + 1}'s {where} {g.describe(target)}: "
            f"{g.describe(new)} takes its place" + (f" (discarded: {', '.join(rest)})" if rest else "")
        )
    b = g.back[target]
    disc = st.discards[b]
    pub = st.pub
    for c in look:
        if c != new:
            disc.append(c)
            pub[c] = True
    disc.append(target)
    pub[target] = True
    st.stats[chooser][3] += 1
    st.stats[owner][0].append(g.char[new])
    if st.spirit[owner] == target:
        st.spirit[owner] = new
        if g.retrigger and g.back[new] == UNEARTH and st.retrig[owner] < MAX_RETRIGGERS:
            st.retrig[owner] += 1
            st.fired[A_RETRIGGER] += 1
            st.stack.append((T_SPIRIT_UNEARTH, owner))
        return
    line = st.lines[owner]
    j = line.index(target)
    line[j] = new
    if st.up[owner][j]:
        pub[new] = True
    if target in st.lostc:  # the newcomer did not lose a fight
        st.lostc.remove(target)
    if j == st.fslot and g.newcomer_uses and st.up[owner][j] and g.has_effect[new]:
        st.fired[A_NEWCOMER] += 1
        st.stack.append((T_USE, owner, 1, new))


def start_dig(st: Position, p: int, remaining: int, fighter: int) -> None:
    g = st.g
    if g.dig_choose:
        opts = [DECK_BASE + b for b in range(3) if available(st, b) > 0]
    else:
        b = g.back[fighter]
        opts = [DECK_BASE + b] if available(st, b) > 0 else []
    if opts:
        decide(st, D_DIG_DECK, p, opts, (remaining, fighter))


def resolve_choice(st: Position, kind: int, p: int, a: int, ctx: Any) -> None:
    """Apply a choice (the rarer kinds first: apply_action handles the common ones itself)."""
    if kind == D_DIG_DECK:
        b = a - DECK_BASE
        drawn = take_cards(st, b, 1)
        if not drawn:
            return
        hand = st.hands[p]
        hand.append(drawn[0])
        st.stats[p][4] += 1
        if st.events is not None:
            st.events.append(f"player {p + 1} digs {st.g.describe(drawn[0])} from the {DEFAULT_BACK_NAMES[BACKS[b]]} deck")
        back = st.g.back
        opts = [c for c in hand if back[c] == b]
        decide(st, D_DIG_DISCARD, p, opts, (ctx[0], ctx[1], b))
    elif kind == D_DIG_DISCARD:
        st.hands[p].remove(a)
        st.discards[ctx[2]].append(a)
        st.pub[a] = True
        if st.events is not None:
            st.events.append(f"player {p + 1} discards {st.g.describe(a)}")
        if ctx[0] > 1:
            st.stack.append((T_DIG, p, ctx[0] - 1, ctx[1]))
    elif kind == D_COPY:
        st.stack.append((T_STEPS, p, st.g.effect[a], 0, 1))
        if st.events is not None:
            st.events.append(f"player {p + 1} copies the effect of {st.g.describe(a)}")
    elif kind == D_FLIP:
        if st.events is not None:
            face = "up" if ctx == 0 else "down"
            st.events.append(f"player {p + 1} flips {st.g.describe(a)} face {face}")
        if ctx == 0:
            line = st.lines[p]
            j = line.index(a)
            st.up[p][j] = True
            st.pub[a] = True
        else:
            o = 1 - p
            j = st.lines[o].index(a)
            st.up[o][j] = False
    elif kind == D_CONVERT:
        if a != ACT_NO:
            convert_loser(st, p, a)
    elif kind == D_SELECT:
        st.chosen[p].append(a)
    elif kind == D_UE_TARGET:
        if a != ACT_NO:
            look_at(st, p, a, p)
    elif kind == D_UE_PICK:
        replace_card(st, p, ctx[0], ctx[1], a, ctx[2])
    else:  # pragma: no cover - every kind is handled above
        raise RulesError(f"unknown decision kind {kind}")
