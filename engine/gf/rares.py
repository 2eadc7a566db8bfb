"""The rares: Devil Wife and Exorcist (docs/rules/grave-feast.md, GF-20..GF-28).

What the rares' moves do (rare_moves.py lists them, narration.py words them). Kept apart so
the regular game's hot loop pays nothing for them: the engine calls in here only when the deck
option put the rares in play. Every coin flip comes from the state's seeded RNG through
``board.flip`` and is logged.

Action layouts (see constants.pack):
    DW_PLACE c                     place a Devil Wife from hand as a permanent card (a play)
    DW_SEDUCE src, card, victim    the permanent Devil Wife's once-a-turn seduction
    DW_HAND c                      a Devil Wife from hand: drop up to 5, steal as many
    DW_DROP c / DW_TAKE src, card, victim / DONE    the steps of that steal
    EXO_HAND c                     the Exorcist from hand: every visible monster explodes
    PREACH_DW p, dw                a preacher on a permanent Devil Wife (needs a second one)
    SUCC_EXO s, owner              a succubus on an Exorcist in a mash (needs a second one)
    JOIN_ATTACK c                  the second card of such an attack
    TRIM c / DONE                  discard down to 4 after the preachers' attack failed
"""

from __future__ import annotations

from typing import Any

from boneyard.engine.gf.board import (
    confused_attempt,
    find,
    finish_capped,
    flip,
    flub,
    from_hand_or_mash,
    mkfam,
    usable,
)
from boneyard.engine.gf.constants import (
    ATTACK,
    DEVIL_WIFE,
    DONE,
    DW_DROP,
    DW_HAND,
    DW_PLACE,
    DW_SEDUCE,
    DW_STEAL,
    EVIL_ATTACK,
    EXO_HAND,
    EXORCIST,
    MAIN,
    PASS,
    PREACH_DW,
    PREACHER,
    SRC_DISCARD,
    SRC_FAMILY,
    SRC_MASH,
    SUCC_EXO,
    SUCCUBUS,
    TRIMMING,
    WINDOW,
)
from boneyard.engine.gf.position import Position
from boneyard.engine.gf.turn import start_turn, turn_begins
from boneyard.engine.gf.windows import event, instant_used, reask


def _bump(s: Position, key: str) -> None:
    s.stats[key] = s.stats.get(key, 0) + 1  # (board.bump, inline: the rares' own counters)


def apply(s: Position, a: int) -> None:
    op = a & 31
    x = (a >> 5) & 1023
    y = (a >> 15) & 1023
    z = (a >> 25) & 1023
    ph = s.phase
    if ph == TRIMMING:
        if op == DONE:
            turn_begins(s)
        else:
            s.hands[s.tp].remove(x)
            s.discard.append(x)
            if len(s.hands[s.tp]) <= 4:
                turn_begins(s)
        return
    if ph == ATTACK:
        attack = s.attack
        assert attack is not None  # the ATTACK phase has one pending
        kind = SUCCUBUS if attack[0] == EXORCIST else PREACHER
        if op != PASS and s.g.flub_rate > 0.0 and flub(s):  # GF-06: the card's line, misspoken
            p = s.queue[0]
            instant_used(s, p)
            from_hand_or_mash(s, p, x)
            s.discard.append(x)
            s.note(("flub", p, "succubus" if kind == SUCCUBUS else
                    "counter" if op == EVIL_ATTACK else "preacher"))
            if usable(s, p, kind):
                return  # asked again, as after any fizzled instant
            op = PASS
        if op != PASS and kind == SUCCUBUS and s.g.maelstrom_attack and confused_attempt(
                s, s.queue[0], x, "second succubus on the exorcist"):
            instant_used(s, s.queue[0])  # GF-22: a failed attempt counts as the attempt would
            op = PASS  # GF-22: confused, she stays where she was; the next player is asked
        chained = attack[0] == DEVIL_WIFE and s.g.evil_vs_dw  # GF-26: evil preachers answer
        if op == PASS:
            q = s.queue
            q.pop(0)
            while q and not usable(s, q[0], kind):
                q.pop(0)
            if not q:
                if chained and len(attack[3]) - len(attack[4]) >= 2:
                    _resolve_attack(s, s.actor)
                else:
                    _attack_fizzles(s)
        else:
            p = s.queue[0]
            from_hand_or_mash(s, p, x)
            s.discard.append(x)
            instant_used(s, p)
            if op == EVIL_ATTACK:
                attack[4].append(x)  # negates one preacher of the attack
            else:
                attack[3].append(x)
            if chained:  # the others may answer this card: an evil preacher, or a preacher again
                q = [r for r in s.g.after[p] if usable(s, r, PREACHER)]
                if q:
                    s.queue = q
                elif len(attack[3]) - len(attack[4]) >= 2:
                    _resolve_attack(s, s.actor)
                else:
                    _attack_fizzles(s)
            else:
                _resolve_attack(s, p)
        return
    if ph == DW_STEAL:
        p = s.actor
        if op == DONE:
            s.dw_card = -1
            s.steal_left = 0
            _steal_spent(s)
            event(s, p)
        elif op == DW_DROP:
            s.hands[p].remove(x)
            s.discard.append(x)
            s.steal_left -= 1
            s.dw_card = x
        else:  # DW_TAKE
            s.dw_card = -1
            ended = _seduce(s, p, x, y, z, hand_mode=True)
            if ended != "explosion" and s.phase == DW_STEAL and s.steal_left == 0:
                _steal_spent(s)
                event(s, p)
        return
    p = s.queue[0] if ph == WINDOW else s.tp
    if op == DW_PLACE:
        s.hands[p].remove(x)
        s.dw[p].append(x)
        s.played = True
        _bump(s, "dw_placed")
        event(s, p)
    elif op == DW_SEDUCE:
        s.dw_used = True
        w = s.dw[p][0]
        if confused_attempt(s, p, w, "devil wife seduces"):
            event(s, p)
            return
        _bump(s, "dw_seductions")
        if _seduce(s, p, x, y, z, hand_mode=False) != "explosion":
            event(s, p)
    elif op == DW_HAND:
        instant_used(s, p)
        if confused_attempt(s, p, x, "devil wife steals"):
            reask(s, p)
            return
        s.hands[p].remove(x)
        s.dw_stealing = x  # "After her power is spent ... she is placed in discard" (_steal_spent)
        _bump(s, "dw_hand_steals")
        s.phase = DW_STEAL
        s.actor = p
        s.steal_left = 5
        s.dw_card = -1
        s.queue = []
    elif op == EXO_HAND:
        instant_used(s, p)
        _exorcise(s, p, x)
        event(s, p)
    elif op == PREACH_DW:
        instant_used(s, p)
        from_hand_or_mash(s, p, x)
        s.discard.append(x)
        if s.g.flub_rate > 0.0 and flub(s):  # GF-06: the misspoken preacher fizzles
            s.note(("flub", p, "preacher"))
            reask(s, p)
            return
        owner = next(q for q in range(s.n) if y in s.dw[q])
        _open_attack(s, p, [DEVIL_WIFE, y, owner, [x], []], PREACHER)
    elif op == SUCC_EXO:
        instant_used(s, p)
        if s.g.flub_rate > 0.0 and flub(s):  # GF-06: "Fail to do so, and lose the card"
            from_hand_or_mash(s, p, x)
            s.discard.append(x)
            s.note(("flub", p, "succubus"))
            reask(s, p)
            return
        if s.g.maelstrom_attack and confused_attempt(s, p, x, "succubus on the exorcist"):
            reask(s, p)  # GF-22: she is a monster attempting something
            return
        from_hand_or_mash(s, p, x)
        s.discard.append(x)
        exo = next(c for c in s.mash[y] if s.g.kind[c] == EXORCIST)
        _open_attack(s, p, [EXORCIST, exo, y, [x], []], SUCCUBUS)
    else:
        raise ValueError(f"not a rares action: {a}")


def _steal_spent(s: Position) -> None:
    """GF-25: "After her power is spent (see below) she is placed in discard": the Devil Wife
    from the hand goes to the discard pile when her steal ends (done, five taken, killed by a
    preacher she took, the explosion), so she is never among the cards she may take."""
    w = s.dw_stealing
    if w >= 0:
        s.dw_stealing = -1
        s.discard.append(w)


def _open_attack(s: Position, p: int, attack: list[Any], kind: int) -> None:
    """GF-23/GF-26: the second card must come in this window, from anyone (the attacker last)."""
    s.attack = attack
    order = [(p + i) % s.n for i in range(1, s.n)] + [p]
    q = [x for x in order if usable(s, x, kind)]
    s.actor = p
    if q:
        s.phase = ATTACK
        s.queue = q
    else:
        _attack_fizzles(s)


def _attack_fizzles(s: Position) -> None:
    assert s.attack is not None
    kind, target, owner, cards, _evil = s.attack
    first = cards[0]
    s.attack = None
    s.queue = []
    s.phase = MAIN
    attacker = s.actor
    if kind == EXORCIST and s.g.succ_return:
        s.discard.remove(first)  # GF-23 variant: the lone succubus goes back to her player
        s.hands[attacker].append(first)
        s.rebuffed.append((first, target))  # ... and may not try this Exorcist again this turn
        _bump(s, "succubi_returned")
    _bump(s, "rare_attacks_fizzled")
    event(s, attacker)


def _resolve_attack(s: Position, last: int) -> None:
    assert s.attack is not None
    kind, target, owner, _cards, _evil = s.attack
    s.attack = None
    s.queue = []
    s.phase = MAIN
    if kind == DEVIL_WIFE:
        if target not in s.dw[owner]:
            event(s, last)
            return
        if not flip(s, "devil wife versus two preachers"):
            s.dw[owner].remove(target)
            s.discard.append(target)
            _bump(s, "dw_killed")
            event(s, last)
            return
        # heads: the preachers explode (already discarded); she picks blindly from every hand
        _bump(s, "dw_survived_preachers")
        if owner not in s.trim:
            s.trim.append(owner)
        for i in range(1, s.n):
            q = (owner + i) % s.n
            if s.hands[q]:
                c = s.hands[q][int(s.rng.random() * len(s.hands[q]))]
                s.note(("dw_pick", owner, q))
                ended = _take_from_hand(s, owner, q, c, target, lock=False)
                if ended == "explosion":
                    return
                if ended:
                    break
        event(s, last)
        return
    # the Exorcist versus two succubi
    if target not in s.mash[owner]:
        event(s, last)
        return
    s.mash[owner].remove(target)
    if flip(s, "exorcist versus two succubi"):
        s.hands[owner].append(target)  # heads: he hides in his cloister for three turns
        s.hidden.append([owner, target, 3])
        _bump(s, "exorcist_hid")
    else:
        s.discard.append(target)
        _bump(s, "exorcist_seduced")
    event(s, last)


def _take_from_hand(s: Position, p: int, q: int, c: int, dw: int, lock: bool) -> str:
    """Move card c from q's hand to the Devil Wife owner p; says if that ended her (or the turn)."""
    s.hands[q].remove(c)
    kind = s.g.kind[c]
    if kind == EXORCIST:
        _explosion(s, p, q, c, dw)
        return "explosion"
    s.hands[p].append(c)
    if lock:
        s.locked.append((p, c))
    if kind == PREACHER:  # GF-26: a preacher taken from a hand kills her at once
        if dw in s.dw[p]:
            s.dw[p].remove(dw)
            s.discard.append(dw)
        _bump(s, "dw_killed")
        s.note(("dw_killed_by_preacher", p))
        return "killed"
    return ""


def _seduce(s: Position, p: int, src: int, c: int, victim: int, hand_mode: bool) -> str:
    """Take one card for a Devil Wife (either mode) into p's hand."""
    g = s.g
    dw = s.dw[p][0] if (not hand_mode and s.dw[p]) else -1
    if src == SRC_DISCARD:
        s.discard.remove(c)
    elif src == SRC_FAMILY:
        _take_from_family(s, victim, c)
    elif src == SRC_MASH:
        s.mash[victim].remove(c)
        if g.kind[c] == EXORCIST and hand_mode:
            s.removed.append(c)  # GF-25: she kills the Exorcist; he leaves the game
            _bump(s, "exorcist_killed_by_dw")
            return ""
    else:
        if c == 1023:
            hand = s.hands[victim]
            c = hand[int(s.rng.random() * len(hand))]
        s.note(("dw_takes_from_hand", p, victim))
        ended = _take_from_hand(s, p, victim, c, dw, lock=hand_mode)
        if ended == "killed" and hand_mode and s.phase == DW_STEAL:
            s.steal_left = 0  # she is dead: no more steals
            s.dw_card = -1
        return ended
    s.hands[p].append(c)
    if hand_mode:
        s.locked.append((p, c))
    return ""


def _take_from_family(s: Position, q: int, c: int) -> None:
    fams = s.fams[q]
    for i, f in enumerate(fams):
        if c in f[4]:
            fams[i] = (f[0], f[1], f[2], f[3], tuple(e for e in f[4] if e != c), f[5])
            return
        if c in f[5]:
            rest = [x for x in f[5] if x != c]
            if not rest:
                fams.pop(i)
                s.discard.extend(f[4])  # an eater with no family left goes to the discard pile
                return
            num = s.g.num[c]
            left = [x for x in rest if s.g.num[x] < num]
            right = [x for x in rest if s.g.num[x] > num]
            if left and right:  # dw_family_take = any_and_split: two families
                fams[i] = mkfam(s, f[0], f[1], left, f[4])
                fams.append(mkfam(s, s.next_fid, f[1], right, ()))
                s.next_fid += 1
                _bump(s, "dw_splits")
            else:
                fams[i] = mkfam(s, f[0], f[1], rest, f[4])
            return


def _exorcise(s: Position, p: int, exo: int) -> None:
    """GF-21: every visible monster of the others explodes; their even humans go free."""
    g = s.g
    K = g.kind
    s.hands[p].remove(exo)
    s.removed.append(exo)
    _bump(s, "exorcist_blasts")
    hits_pre = g.exo_hits_preachers
    for q in range(s.n):
        if q == p:
            continue
        keep = []
        for c in s.mash[q]:
            k = K[c]
            if k in (1, 2, SUCCUBUS) or (hits_pre and k == PREACHER):
                s.discard.append(c)
            else:
                keep.append(c)
                if k == PREACHER:
                    _bump(s, "preachers_spared")  # exorcist_hits_preachers: false
        s.mash[q] = keep
        s.removed.extend(s.dw[q])  # "By an Exorcist played from the hand. Remove her from play."
        s.dw[q] = []
        new = []
        for f in s.fams[q]:
            s.discard.extend(f[4])
            odd = [c for c in f[5] if g.num[c] % 2 == 1]
            s.discard.extend(c for c in f[5] if g.num[c] % 2 == 0)
            if not odd:
                continue
            if g.exo_split:  # every survivor is its own one-card family (odds never touch)
                if len(odd) > 1:
                    _bump(s, "exorcist_splits")
                for i, c in enumerate(odd):
                    fid = f[0] if i == 0 else s.next_fid
                    if i:
                        s.next_fid += 1
                    new.append(mkfam(s, fid, f[1], [c], ()))
            else:
                new.append(mkfam(s, f[0], f[1], odd, ()))
        s.fams[q] = new
    s.note(("exorcist", p))


def _explosion(s: Position, o: int, x: int, exo: int, dw: int) -> None:
    """GF-27: the Devil Wife took an Exorcist from x's hand."""
    _bump(s, "explosions")
    s.note(("explosion", o, x))
    if dw >= 0 and dw in s.dw[o]:
        s.dw[o].remove(dw)
        s.discard.append(dw)
    _steal_spent(s)  # (from the hand: she goes to the discard pile too)
    loot = list(s.hands[o])
    for f in s.fams[o]:
        loot.extend(f[5])
        loot.extend(f[4])
    loot.extend(s.mash[o])
    loot.extend(s.dw[o])
    s.hands[o] = []
    s.fams[o] = []
    s.mash[o] = []
    s.dw[o] = []
    s.locked = [t for t in s.locked if t[0] != o]
    s.hidden = [t for t in s.hidden if t[0] != o]
    gone = set(loot)  # GF-E6: a confusion waits on the monster, whoever tried; these leave the board
    s.confused = [t for t in s.confused if t[1] not in gone]
    s.rng.shuffle(loot)
    order = [(x + i) % s.n for i in range(s.n) if (x + i) % s.n != o]
    for i, c in enumerate(loot):
        s.hands[order[i % len(order)]].append(c)
    s.hands[x].append(exo)  # he keeps the Exorcist
    s.score[o] -= 6
    s.announced = [fid for fid in s.announced if find(s, fid)[0] >= 0]
    s.chain = []
    s.chain_target = -1
    s.attack = None
    s.queue = []
    s.steal_left = 0
    s.dw_card = -1
    if o not in s.skip:
        s.skip.append(o)
    # the current turn ends at once and it is the Exorcist owner's turn
    s.turn_no += 1
    if s.turn_no >= s.g.turn_cap * s.n:
        finish_capped(s)
        return
    s.tp = x
    start_turn(s)
