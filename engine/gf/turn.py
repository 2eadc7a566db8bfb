"""Turn flow: the start of a turn (refill, the start-of-turn window), drawing and recycling the
draw pile (GF-14), the end of a turn and the turn cap.

The no-rares paths are inlined (the commonest steps of a game); what only the rares need
(skipped turns, locks, hiding Exorcists, a Devil Wife's trim) takes the general path.
"""

from __future__ import annotations

from boneyard.engine.gf.board import (
    controls,
    finish_capped,
    note_rares,
    shuffle,
)
from boneyard.engine.gf.constants import (
    MAIN,
    TRIMMING,
)
from boneyard.engine.gf.position import Position
from boneyard.engine.gf.windows import event


def start_turn(s: Position) -> None:
    g = s.g
    p = s.tp
    s.played = False
    if s.touched:
        s.touched = []
    if s.flubbed:
        s.flubbed = []
    s.dw_used = False
    s.fed = False
    s.phase = MAIN
    if s.rebuffed:
        s.rebuffed = []
    if s.locked:
        s.locked = [x for x in s.locked if x[0] != p]
    if s.confused:  # GF-22: a confused monster waits until its controller's next turn begins
        s.confused = [x for x in s.confused if not confusion_ends(s, p, x[1])]
    if s.hidden:
        for x in s.hidden:
            if x[0] == p:
                x[2] -= 1
        s.hidden = [x for x in s.hidden if x[2] >= 0]
    if g.rares:
        if p in s.trim:
            s.trim.remove(p)
            if len(s.hands[p]) > 4:
                s.phase = TRIMMING  # GF-26: she may discard down to 4 before drawing
                return
        draw_up(s, p)
    else:
        hand = s.hands[p]
        k = g.hand_size - len(hand)
        if k > 0:
            draw = s.draw
            if len(draw) >= k:  # the common case: one slice from the top of the pile
                hand += draw[-k:][::-1]
                del draw[-k:]
            else:
                draw_up(s, p)
    if g.turn_start_window:
        event(s, p)  # GF-08: the start of a turn is an event the others may answer


def confusion_ends(s: Position, p: int, c: int) -> bool:
    """Does p's turn beginning free confused card ``c``? GF-E6 (a): "until the next turn of
    whoever controls the monster now", so p's own (a steal moves the wait to the thief, not
    back to whoever tried); a card nobody controls any more (it left the board) is free."""
    if controls(s, p, c):
        return True
    return not any(controls(s, q, c) for q in range(s.n))


def turn_begins(s: Position) -> None:
    """After a Devil Wife owner's trim: draw, then the start-of-turn window."""
    s.phase = MAIN
    draw_up(s, s.tp)
    if s.g.turn_start_window:
        event(s, s.tp)


def draw_up(s: Position, p: int) -> None:
    g = s.g
    hand = s.hands[p]
    draw = s.draw
    while len(hand) < g.hand_size:
        if not draw:
            recycle(s)
            draw = s.draw
            if not draw:
                break
        hand.append(draw.pop())
    if g.rares:
        note_rares(s)


def recycle(s: Position) -> None:
    """GF-14: the discard pile and every graveyard make the new draw pile; scores are kept."""
    corpses = [c for gy in s.grave for c in gy]
    if not corpses and not s.discard:
        return
    s.grave = [[] for _ in range(s.n)]
    rng = s.rng
    if s.g.flip_recycle:
        pile = s.discard[::-1]  # the first card discarded comes up first
        for c in corpses:
            pile.insert(rng.randrange(len(pile) + 1), c)
    else:
        pile = s.discard + corpses
        shuffle(rng, pile)
    s.discard = []
    s.draw = pile
    s.stats["reshuffles"] += 1
    s.note(("reshuffle", len(pile)))


def end_turn(s: Position) -> None:
    g = s.g
    p = s.tp
    if not g.rares:  # _start_turn inlined, less what only the rares need (skips, locks...)
        s.turn_no += 1
        n = s.n
        if s.turn_no >= g.turn_cap * n:
            finish_capped(s)
            return
        p += 1
        if p == n:
            p = 0
        s.tp = p
        s.played = False
        s.fed = False
        if s.touched:
            s.touched = []
        if s.flubbed:
            s.flubbed = []
        s.phase = MAIN
        hand = s.hands[p]
        k = g.hand_size - len(hand)
        if k > 0:
            draw = s.draw
            if k == 1 and draw:  # the commonest: one card after a discard
                hand.append(draw.pop())
            elif len(draw) >= k:  # one slice from the top of the pile
                hand += draw[-k:][::-1]
                del draw[-k:]
            else:
                draw_up(s, p)
        if g.turn_start_window:
            event(s, p)  # GF-08: the start of a turn is an event the others may answer
        return
    if s.dw[p]:
        draw_up(s, p)  # GF-24: a permanent Devil Wife refills her owner's hand
    if s.hidden:  # GF-23: his owner's third turn in hiding is over: he is free again at once
        s.hidden = [x for x in s.hidden if x[0] != p or x[2] > 0]
    s.turn_no += 1
    if s.turn_no >= g.turn_cap * s.n:
        finish_capped(s)
        return
    nxt = (p + 1) % s.n
    while nxt in s.skip:
        s.skip.remove(nxt)
        s.turn_no += 1
        nxt = (nxt + 1) % s.n
    s.tp = nxt
    start_turn(s)
