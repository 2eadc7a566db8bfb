"""What each move does: families started, extended, joined and fed, announcements, steals,
preachers and their chains (GF-11), the follow-up after an out-of-turn steal. The rares' moves
go to rares.py.

At the top of the rules' imports: it uses the windows and the turn flow, nothing uses it but
the state's verbs.
"""

from __future__ import annotations

from boneyard.engine.gf.board import (
    bump,
    confused_attempt,
    find,
    flub,
    from_hand_or_mash,
    has_preacher,
    maelstrom,
    mkfam,
    spared,
)
from boneyard.engine.gf.constants import (
    ANNOUNCE,
    ATTACH,
    CHAIN,
    DISCARD,
    DONE,
    DW_PLACE,
    DW_STEAL,
    END,
    EXTEND,
    FOLLOWUP,
    HUMAN,
    JOIN,
    M10,
    MAIN,
    MASH,
    PASS,
    PREACH,
    START,
    STEAL_FAM,
    STEAL_MASH,
    WINDOW,
)
from boneyard.engine.gf.position import Position
from boneyard.engine.gf.rares import apply as apply_rare
from boneyard.engine.gf.turn import end_turn
from boneyard.engine.gf.windows import (
    advance_window,
    close_window,
    event,
    instant_used,
    reask,
    resolve_announcements,
)

from boneyard.errors import RulesError


def apply(s: Position, a: int) -> None:
    op = a & 31
    if op == DISCARD and s.phase == MAIN:  # the commonest move: keep it short
        c = (a >> 5) & M10
        s.hands[s.tp].remove(c)
        s.discard.append(c)
        end_turn(s)
        return
    x = (a >> 5) & M10
    y = (a >> 15) & M10
    flag = (a >> 35) & 1
    ph = s.phase
    if s.fed and ph == MAIN and op != END:
        # graveyard_ends_turn: false: the turn player plays on after a feast of their own turn
        # (under the default only the end is legal then); counted once a feast
        s.fed = False
        bump(s, "played_after_feast")
    if ph == FOLLOWUP:
        _apply_follow(s, op, x, y)
        return
    if ph >= DW_STEAL or op >= DW_PLACE:
        apply_rare(s, a)
        return
    if ph == CHAIN:
        if op == PASS:
            q = s.queue
            q.pop(0)
            while q and not has_preacher(s, q[0]):
                q.pop(0)
            if not q:
                _resolve_chain(s)
        else:
            _counter(s, s.queue[0], x)
        return
    if ph == WINDOW:
        p = s.queue[0]
        if op == PASS:
            if s.g.rares:
                advance_window(s)
                return
            # nothing changed since the window opened, so everyone left in the queue can
            # still answer: no need to ask can_respond again
            q = s.queue
            q.pop(0)
            if not q:
                close_window(s)
            return
    else:
        p = s.tp
    # commonest first (random and greedy play alike)
    if op == MASH:
        s.hands[p].remove(x)
        s.mash[p].append(x)
        s.played = True
        event(s, p)
    elif op == END:
        if not s.played and not s.g.must_act and not s.fed and s.hands[p]:
            bump(s, "turns_passed")  # must_act: false: neither a play nor a discard
        end_turn(s)
    elif op in (STEAL_FAM, STEAL_MASH):
        _steal(s, p, op, x, y, flag)
    elif op == PREACH:
        _preach(s, p, x, y)
    elif op == ATTACH:
        _attach(s, p, x, y, flag)
    elif op == START:
        _start_family(s, p, x, y, (a >> 25) & M10)
    elif op == EXTEND:
        _extend(s, p, x, y, flag)
    elif op == JOIN:
        _join(s, p, x, y, flag)
    elif op == ANNOUNCE:
        _announce(s, p, x)
    elif op == DISCARD:
        s.hands[p].remove(x)
        s.discard.append(x)
        end_turn(s)
    else:
        raise RulesError(f"unknown action {a}")


def _start_family(s: Position, p: int, food: int, lo: int, hi: int) -> None:
    g = s.g
    hand = s.hands[p]
    cards = []
    for num in range(lo, hi + 1):
        for c in hand:
            if g.kind[c] == HUMAN and g.food[c] == food and g.num[c] == num:
                cards.append(c)
                hand.remove(c)
                break
    fid = s.next_fid
    s.next_fid += 1
    s.fams[p].append((fid, food, lo, hi, (), tuple(cards)))
    s.touched.append(fid)
    s.played = True
    event(s, p)


def _extend(s: Position, p: int, fid: int, c: int, announce: int) -> None:
    owner, i = find(s, fid)
    f = s.fams[owner][i]
    s.hands[p].remove(c)
    s.fams[owner][i] = mkfam(s, fid, f[1], f[5] + (c,), f[4])
    s.touched.append(fid)
    s.played = True
    if announce:
        _announce(s, p, fid)
    else:
        event(s, p)


def _join(s: Position, p: int, fa: int, fb: int, announce: int) -> None:
    fams = s.fams[p]
    _, ia = find(s, fa)
    a = fams[ia]
    _, ib = find(s, fb)
    b = fams[ib]
    eaters = a[4] + b[4]
    if len(eaters) > s.g.max_eaters:
        s.discard.extend(eaters[s.g.max_eaters:])
        eaters = eaters[: s.g.max_eaters]
        bump(s, "join_discards")  # join_two_fed: discard_extra_eater
    if a[4] and b[4] and len(eaters) > 1:
        bump(s, "second_eaters")  # max_eaters_per_family >= 2: two fed families joined
    fams[ia] = (fa, a[1], a[2], b[3], eaters, a[5] + b[5])
    fams.remove(b)
    if fb in s.touched:
        s.touched.append(fa)
    if announce:
        _announce(s, p, fa)
    else:
        event(s, p)


def _attach(s: Position, p: int, fid: int, e: int, announce: int) -> None:
    s.played = True
    owner, i = find(s, fid)
    if s.g.flub_rate > 0.0 and flub(s):
        if s.rng.random() < s.g.callout_rate:
            from_hand_or_mash(s, p, e)
            s.discard.append(e)  # GF-06: a flubbed 'Blood!'/'Brains!' that someone calls out
            s.note(("flub", p, "eater"))
            event(s, p)
            return
        bump(s, "flubs_uncalled")  # callout_rate below 1: nobody called it, the eater feeds
    if s.g.rares and confused_attempt(s, p, e, "attach"):
        event(s, p)  # the confused eater stays where it was until its next turn
        return
    from_hand_or_mash(s, p, e)
    f = s.fams[owner][i]
    if f[4]:
        bump(s, "second_eaters")  # max_eaters_per_family >= 2
    s.fams[owner][i] = (fid, f[1], f[2], f[3], f[4] + (e,), f[5])
    if announce:
        if not s.g.window_fresh:
            bump(s, "attach_announced")  # succubus_window_fresh_attach: false
        if s.g.race_prob and s.g.window_fresh and s.rng.random() >= s.g.race_p:
            s.note(("race_lost", p))
            event(s, p)  # lost the race: the succubus window opens before the announcement
        else:
            _announce(s, p, fid)
    else:
        event(s, p)


def _announce(s: Position, p: int, fid: int) -> None:
    if s.g.flub_rate > 0.0 and flub(s):
        s.flubbed.append(fid)  # an inexact 'N to the graveyard' blocks nothing
        s.note(("flub", p, "announce"))
        event(s, p)
        return
    owner, i = find(s, fid)
    f = s.fams[owner][i]
    if s.g.rares:
        if maelstrom(s, p):
            if confused_attempt(s, p, f[4][0], "graveyard"):
                event(s, p)
                return
        else:
            spared(s, p)
    s.announced.append(fid)
    s.note(("announce", p, len(f[5])))
    if s.g.preach_after_announce:
        event(s, p)
    else:
        resolve_announcements(s)
        event(s, p)


def _steal(s: Position, p: int, op: int, sc: int, target: int, announce: int) -> None:
    instant_used(s, p)
    if s.g.flub_rate > 0.0 and flub(s):
        from_hand_or_mash(s, p, sc)
        s.discard.append(sc)
        s.note(("flub", p, "succubus"))
        reask(s, p)
        return
    if s.g.rares and confused_attempt(s, p, sc, "steal"):
        reask(s, p)  # the confused succubus stays where she was
        return
    from_hand_or_mash(s, p, sc)
    s.discard.append(sc)
    s.stats["steals"] += 1
    if op == STEAL_MASH:
        s.mash[p].extend(s.mash[target])
        s.mash[target] = []
        s.note(("steal_mash", p, target))
        event(s, p)
        return
    owner, i = find(s, target)
    f = s.fams[owner].pop(i)
    s.fams[p].append(f)
    s.note(("steal", p, owner, len(f[5])))
    if announce:
        _announce(s, p, target)
    elif s.g.ooo_completion and p != s.tp:
        s.phase = FOLLOWUP
        s.actor = p
        s.follow = target
    else:
        event(s, p)


def _apply_follow(s: Position, op: int, x: int, y: int) -> None:
    p = s.actor
    if op == DONE:
        s.follow = -1
        event(s, p)
    elif op == EXTEND:
        owner, i = find(s, x)
        f = s.fams[owner][i]
        s.hands[p].remove(y)
        s.fams[owner][i] = mkfam(s, x, f[1], f[5] + (y,), f[4])
        bump(s, "out_of_turn_plays")  # out_of_turn_completion: true
    elif op == ATTACH:
        if s.g.flub_rate > 0.0 and flub(s):
            if s.rng.random() < s.g.callout_rate:
                from_hand_or_mash(s, p, y)
                s.discard.append(y)
                return
            bump(s, "flubs_uncalled")
        if s.g.rares and confused_attempt(s, p, y, "attach"):
            return
        from_hand_or_mash(s, p, y)
        owner, i = find(s, x)
        f = s.fams[owner][i]
        if f[4]:
            bump(s, "second_eaters")
        s.fams[owner][i] = (x, f[1], f[2], f[3], f[4] + (y,), f[5])
        bump(s, "out_of_turn_plays")
    elif op == ANNOUNCE:
        s.follow = -1
        _announce(s, p, x)


def _preach(s: Position, p: int, pr: int, eater: int) -> None:
    from_hand_or_mash(s, p, pr)
    s.discard.append(pr)
    instant_used(s, p)
    if s.g.flub_rate > 0.0 and flub(s):
        s.note(("flub", p, "preacher"))  # the misspoken preacher fizzles
        reask(s, p)
        return
    s.stats["preaches"] += 1
    s.chain = [p]
    s.chain_target = eater
    _open_chain(s, p)


def _open_chain(s: Position, p: int) -> None:
    q = []
    for x in s.g.after[p]:
        if has_preacher(s, x):
            q.append(x)
    s.actor = p
    if q:
        s.phase = CHAIN
        s.queue = q
    else:
        _resolve_chain(s)


def _counter(s: Position, p: int, pr: int) -> None:
    from_hand_or_mash(s, p, pr)
    s.discard.append(pr)
    instant_used(s, p)
    if s.g.flub_rate > 0.0 and flub(s):
        s.note(("flub", p, "counter"))
        if not has_preacher(s, p):
            q = s.queue
            q.pop(0)
            while q and not has_preacher(s, q[0]):
                q.pop(0)
            if not q:
                _resolve_chain(s)
        return
    s.stats["counters"] += 1
    s.chain.append(p)
    _open_chain(s, p)


def _resolve_chain(s: Position) -> None:
    """Odd chain: the eater explodes; even: the last evil preacher saved it (GF-11)."""
    chain = s.chain
    e = s.chain_target
    s.stats["chains"].append(len(chain))
    last = chain[-1]
    if len(chain) % 2 == 1:
        _kill_eater(s, e)
    s.chain = []
    s.chain_target = -1
    s.queue = []
    s.phase = MAIN
    event(s, last)


def _kill_eater(s: Position, e: int) -> None:
    for fams in s.fams:
        for i, f in enumerate(fams):
            if e in f[4]:
                fams[i] = (f[0], f[1], f[2], f[3], tuple(x for x in f[4] if x != e), f[5])
                s.discard.append(e)
                s.stats["kills"] += 1
                s.note(("kill", e))
                return
    for m in s.mash:
        if e in m:
            m.remove(e)
            s.discard.append(e)
            s.stats["kills"] += 1
            s.note(("kill", e))
            return
