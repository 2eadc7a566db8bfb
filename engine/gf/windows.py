"""Response windows (GF-08): after every public event the other players, clockwise from the
actor, may answer with an instant or a graveyard announcement; announcements resolve when the
window closes, and a feast may end the game.

Below the effects and the turn flow in the engine's imports (they open windows), above move
generation (a window asks whether anyone could answer).
"""

from __future__ import annotations

from boneyard.engine.gf.board import (
    bump,
    eligible,
    find,
    flip,
    win,
)
from boneyard.engine.gf.constants import (
    EXORCIST,
    FOOD_NAMES,
    KIND_NAMES,
    MAIN,
    OVER,
    WINDOW,
)
from boneyard.engine.gf.moves import instant_moves
from boneyard.engine.gf.position import Position


def event(s: Position, actor: int) -> None:
    """A public event by ``actor``: open a response window for everyone else, in seat order."""
    if s.phase == OVER:
        return
    g = s.g
    free = g.instants.isdisjoint
    hands = s.hands
    mash = s.mash if g.from_mash else None
    fams = s.fams if g.gy_any_time else None
    q = []
    for p in g.after[actor]:
        # cheap pre-check inline: most players hold no instant and no family to announce
        if not free(hands[p]) or (mash is not None and mash[p] and not free(mash[p])):
            if can_respond(s, p):
                q.append(p)
        elif fams is not None and fams[p]:
            for f in fams[p]:
                if f[4] and f[0] not in s.announced and f[0] not in s.flubbed and eligible(s, f):
                    q.append(p)
                    break
    if q:
        s.phase = WINDOW
        s.queue = q
        s.actor = actor
    else:
        s.queue = []
        if s.announced:
            resolve_announcements(s)
            if s.phase == OVER:
                return
        s.phase = MAIN


def advance_window(s: Position) -> None:
    q = s.queue
    q.pop(0)
    while q and not can_respond(s, q[0]):
        q.pop(0)
    if not q:
        close_window(s)


def close_window(s: Position) -> None:
    s.queue = []
    if s.announced:
        resolve_announcements(s)
        if s.phase == OVER:
            return
    s.phase = MAIN


def can_respond(s: Position, p: int) -> bool:
    """Has p any instant with a target (or a graveyard announcement) right now?"""
    g = s.g
    own = s.fams[p]
    if g.gy_any_time and own:
        ann = s.announced
        for fam in own:
            if fam[4] and fam[0] not in ann and fam[0] not in s.flubbed and eligible(s, fam):
                return True
    hand = s.hands[p]
    succ = not g.succubi.isdisjoint(hand)
    preach = not g.preachers.isdisjoint(hand)
    if g.from_mash and s.mash[p]:  # succubi and preachers may come from the mash too
        m = s.mash[p]
        succ = succ or not g.succubi.isdisjoint(m)
        preach = preach or not g.preachers.isdisjoint(m)
    if g.rares:
        if succ or preach or not g.rare_cards.isdisjoint(hand):
            return bool(instant_moves(s, p, []))
        return False
    fams = s.fams
    mash = s.mash
    if succ:
        ann = s.announced
        for q in g.after[p]:
            if mash[q]:  # no Exorcist protects a mash without the rares
                return True
            for f in fams[q]:
                if f[0] not in ann:
                    return True
    if preach:
        ok_ann = g.preach_after_announce
        no_eater = g.eaters.isdisjoint
        for q in g.preach_seats[p]:
            for f in fams[q]:  # some family of q is fed
                if f[4] and (ok_ann or f[0] not in s.announced):
                    return True
            if mash[q] and not no_eater(mash[q]):
                return True  # (no Devil Wife is on any board without the rares)
    return False


def resolve_announcements(s: Position) -> None:
    """The announced families whose eater survived go to the graveyard (GF-07)."""
    ann = s.announced
    s.announced = []
    for fid in ann:
        owner, i = find(s, fid)
        if owner < 0:
            continue
        f = s.fams[owner][i]
        if not eligible(s, f):
            continue
        feast(s, owner, i)
        if s.phase == OVER:
            return


def feast(s: Position, owner: int, i: int) -> None:
    g = s.g
    f = s.fams[owner].pop(i)
    eaters = f[4]
    s.score[owner] += len(f[5])
    s.grave[owner].extend(f[5])
    s.discard.extend(eaters)
    s.stats["feasts"] += 1
    s.last_feast[owner] = (FOOD_NAMES[f[1]], len(f[5]), KIND_NAMES[g.kind[eaters[0]]])
    s.note(("feast", owner, len(f[5])))
    if owner == s.tp:
        # GF-07: "Her turn is now over." (main_moves offers only the end); with
        # graveyard_ends_turn: false the turn goes on, and a play after it is counted (effects)
        s.fed = True
    if s.score[owner] >= g.win_score:
        win(s, owner)
        return
    if g.rares:
        K = g.kind
        for q, m in enumerate(s.mash):  # GF-22: the self-loathing check
            if g.exorcists.isdisjoint(m):
                continue
            for c in [c for c in m if K[c] == EXORCIST]:
                if not flip(s, "self-loathing"):
                    m.remove(c)
                    s.removed.append(c)
                    s.note(("exorcist_suicide", q))


def reask(s: Position, p: int) -> None:
    """After a fizzled instant the same player may try again, if they still can."""
    if s.phase == WINDOW and not can_respond(s, p):
        advance_window(s)


def instant_used(s: Position, p: int) -> None:
    """GF-17: a party crasher (or a rare thrown as an instant) used on one's own turn is that
    turn's play, whether thrown in the main phase, in a window another player's move opened, or
    into a preacher chain or an attack on a rare: the discard is no longer offered."""
    if p == s.tp:
        if s.g.instants_use_action:
            s.played = True
        elif not s.played:
            bump(s, "instants_kept_action")  # instants_use_action: false: play or discard still open
