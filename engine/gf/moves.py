"""Move generation: the turn player's moves, the instants of a response window, the follow-up
after an out-of-turn steal. The hottest code of the engine: the common case (no rares, nothing
blocked) is kept to few steps, and the rares' moves come from rare_moves.py.

Lists are built fresh for each decision (never edited afterwards), which is what lets
``FeastState.legal_actions`` hand its list out without a copy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from boneyard.engine.gf.board import (
    blocked_cards,
    eligible,
    find,
    first,
    protected,
    usable,
)
from boneyard.engine.gf.constants import (
    ANNOUNCE,
    ATTACH,
    CHAIN,
    COUNTER,
    DEVIL_WIFE,
    DISCARD,
    DONE,
    DW_PLACE,
    DW_STEAL,
    EATER_OF,
    END,
    EXTEND,
    FOLLOWUP,
    HUMAN,
    JOIN,
    MAIN,
    MASH,
    NO_EATERS,
    PASS,
    PREACH,
    PREACHER,
    STEAL_FAM,
    STEAL_MASH,
    SUCCUBUS,
    VAMPIRE,
    WINDOW,
    ZOMBIE,
    Fam,
)
from boneyard.engine.gf.position import Position
from boneyard.engine.gf.rare_moves import instant_moves as rare_instant_moves
from boneyard.engine.gf.rare_moves import main_moves as rare_main_moves
from boneyard.engine.gf.rare_moves import moves as rare_phase_moves


def legal_moves(s: Position) -> list[int]:
    ph = s.phase
    if ph == MAIN:
        return main_moves(s, s.tp)
    if ph == WINDOW:
        p = s.queue[0]
        moves = [PASS]
        instant_moves(s, p, moves)
        if s.g.gy_any_time and s.fams[p]:
            announce_moves(s, p, moves)
        return moves
    if ph == CHAIN:
        p = s.queue[0]
        return [PASS] + [COUNTER | c << 5 for c in usable(s, p, PREACHER)]
    if ph == FOLLOWUP:
        return follow_moves(s)
    if ph >= DW_STEAL:
        return rare_phase_moves(s)
    return []


def may_announce(s: Position, fid: int, eaters: Sequence[int]) -> bool:
    """May family ``fid`` be announced this turn with ``eaters`` (empty: only the family)? Not
    after a flubbed announcement of it (GF-06), not while announced, and not when every eater is
    confused (GF-22: it waits until its controller's next turn). For the moves that extend, join
    or attach and announce in one breath, as ``announce_moves`` asks it of a plain announcement."""
    if fid in s.flubbed or fid in s.announced:
        return False
    if s.confused and eaters:
        conf = [c for _, c in s.confused]
        return any(e not in conf for e in eaters)
    return True


def announce_moves(s: Position, p: int, moves: list[int]) -> None:
    ann = s.announced
    for f in s.fams[p]:
        if f[4] and f[0] not in ann and f[0] not in s.flubbed and eligible(s, f):
            moves.append(ANNOUNCE | f[0] << 5)


def main_moves(s: Position, p: int) -> list[int]:
    """The turn player's moves; the common case (no rares) kept to a handful of bytecodes."""
    g = s.g
    if s.fed and g.gy_ends_turn:
        return [END]  # GF-07: a feast on your own turn ends it
    if g.rares:
        return main_moves_general(s, p)
    hand = s.hands[p]
    played = s.played
    moves = [] if played else list(map(g.discard_act.__getitem__, hand))
    HK = g.mkey
    by = g.scratch  # face key -> last such card in hand; only keys set below are read
    m0 = m1 = 0
    mons = None
    fs = fp = -1  # the first succubus and the first preacher, for instant_moves
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
    fams = s.fams[p]
    if mons is not None:
        for c in mons.values():
            moves.append(MASH | c << 5)
    if fams:
        eat = NO_EATERS if mons is None else [-1, mons.get(VAMPIRE, -1), mons.get(ZOMBIE, -1)]
        family_moves(s, p, fams, [m0, m1], by, eat, (), moves)
        ann = s.announced
        for f in fams:  # only a fed family can be announced (announce_moves, inline)
            if f[4] and f[0] not in ann and f[0] not in s.flubbed and eligible(s, f):
                moves.append(ANNOUNCE | f[0] << 5)
    if fs >= 0 or fp >= 0 or (g.from_mash and s.mash[p] and not g.instants.isdisjoint(s.mash[p])):
        instant_moves(s, p, moves, fs, fp)
    if played or not g.must_act or not hand:
        moves.append(END)  # GF-02: with no card to play or discard, the turn may end
    return moves


def main_moves_general(s: Position, p: int) -> list[int]:
    """Any position, rares and blocked cards included (the fast path handles the rest)."""
    g = s.g
    K = g.kind
    HK = g.hkey
    hand = s.hands[p]
    blocked = blocked_cards(s, p) if (s.locked or s.hidden or s.confused) else ()
    moves: list[int] = []
    played = s.played
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
    fams = s.fams[p]
    if fams:
        family_moves(s, p, fams, masks, by, eat, blocked, moves)
    for k, c in monsters.items():
        if k != DEVIL_WIFE:
            moves.append(MASH | c << 5)
        elif g.rares:
            moves.append(DW_PLACE | c << 5)
    if fams:
        announce_moves(s, p, moves)
    if SUCCUBUS in monsters or PREACHER in monsters or (g.from_mash and s.mash[p]) or g.rares:
        instant_moves(s, p, moves)
    if g.rares:
        rare_main_moves(s, p, moves)
    if played or not g.must_act or not faces:
        # GF-02: the turn must play or discard a card of the hand; with none that can be (an
        # empty hand, or every card locked, hiding or confused) it may end, whatever optional
        # moves are left (an instant, a join, an eater from the mash, the Devil Wife's seduction)
        moves.append(END)
    return moves


def family_moves(
    s: Position, p: int, fams: list[Fam], masks: list[int], by: Any, eat: Sequence[int],
    blocked: Any, moves: list[int],
) -> None:
    """Extensions, joins and eaters to attach for p's families (``by``: a face key's card in
    hand, a list or a dict; ``blocked``: cards p cannot use now)."""
    g = s.g
    N = g.num
    min_f = g.min_family
    strict = g.strict_ext
    touched = s.touched
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
        ok = eaters and announce_pre and len(cards) + 1 >= min_f and may_announce(s, fid, eaters)
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
                    if ne and announce_pre and size >= min_f and size == b[3] - a[2] + 1 \
                            and may_announce(s, a[0], a[4] + b[4]) and may_announce(s, b[0], ()):
                        moves.append(JOIN | a[0] << 5 | b[0] << 15 | 1 << 35)
    # attach eaters from hand or mash
    mp = s.mash[p]
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
                if ready and fresh_announce and may_announce(s, fid, (e,)):
                    moves.append(ATTACH | fid << 5 | e << 15 | 1 << 35)


def instant_moves(s: Position, p: int, moves: list[int], fs: int = -2, fp: int = -2) -> list[int]:
    """p's succubus and preacher moves (and the rares' instants); ``fs``/``fp``: the first
    succubus and preacher of p's hand (-1: none) when the caller has already looked."""
    g = s.g
    K = g.kind
    ann = s.announced
    if s.locked or s.hidden or s.confused:
        succ = usable(s, p, SUCCUBUS)
        pre = usable(s, p, PREACHER)
    else:
        if fs != -2:
            succ = [fs] if fs >= 0 else []
            pre = [fp] if fp >= 0 else []
            hand: list[int] = []
        else:
            succ = []
            pre = []
            hand = s.hands[p]
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
        if g.from_mash and s.mash[p]:
            s1 = p1 = True  # ... and of the mash
            for c in s.mash[p]:
                k = K[c]
                if k == SUCCUBUS:
                    if s1:
                        succ.append(c)
                        s1 = False
                elif k == PREACHER and p1:
                    pre.append(c)
                    p1 = False
    others = g.others[p]
    fams = s.fams
    mash = s.mash
    if succ:
        any_time = g.gy_any_time or p == s.tp
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
                        and (not rares or eligible(s, f))
                    ):
                        moves.append(a | 1 << 35)
                if mash[q] and not (rares and protected(s, q)):
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
                    and (not rares or eligible(s, f))
                )
                for sc in succ:
                    a = STEAL_FAM | sc << 5 | fid << 15
                    moves.append(a)
                    if ready:
                        moves.append(a | 1 << 35)
            if mash[q] and not (rares and protected(s, q)):
                for sc in succ:
                    moves.append(STEAL_MASH | sc << 5 | q << 15)
    if pre:
        ok_ann = g.preach_after_announce
        no_eater = g.eaters.isdisjoint
        one = PREACH | pre[0] << 5 if len(pre) == 1 else -1
        for q in g.preach_seats[p]:
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
        rare_instant_moves(s, p, moves, succ, pre)
    return moves


def follow_moves(s: Position) -> list[int]:
    """GF-16 variant: straight after an out-of-turn steal the thief may complete the family."""
    p = s.actor
    fid = s.follow
    owner, i = find(s, fid)
    moves = [DONE]
    if owner != p:
        return moves
    g = s.g
    f = s.fams[p][i]
    _, food, lo, hi, eaters, cards = f
    N = g.num
    have = {N[c] for c in cards}
    seen = set()
    blocked = blocked_cards(s, p) if g.rares else ()
    for c in s.hands[p]:
        if g.kind[c] == HUMAN and g.food[c] == food and c not in blocked:
            x = N[c]
            if x not in have and x not in seen and (x == lo - 1 or x == hi + 1 or lo < x < hi):
                seen.add(x)
                moves.append(EXTEND | fid << 5 | c << 15)
    if len(eaters) < g.max_eaters:
        ek = EATER_OF[food]
        for src in (s.hands[p], s.mash[p]):
            e = first(s, [c for c in src if c not in blocked], ek)
            if e >= 0:
                moves.append(ATTACH | fid << 5 | e << 15)
    if eligible(s, f) and fid not in s.flubbed:
        moves.append(ANNOUNCE | fid << 5)
    return moves
