"""The rares' moves (Devil Wife and Exorcist, docs/rules/grave-feast.md GF-20..GF-28): in their
own phases, the permanent Devil Wife's seduction and the rare instants.

Apart from rares.py (what the moves do) because move generation sits below the response windows
in the engine's imports (a window asks whether anyone has an instant) and what the rares do sits
above them (it opens windows): one module for both would close an import circle.
"""

from __future__ import annotations

from boneyard.engine.gf.board import blocked_cards, protected, usable
from boneyard.engine.gf.constants import (
    ATTACK,
    DEVIL_WIFE,
    DONE,
    DW_DROP,
    DW_HAND,
    DW_SEDUCE,
    DW_STEAL,
    DW_TAKE,
    EVIL_ATTACK,
    EXO_HAND,
    EXORCIST,
    JOIN_ATTACK,
    PASS,
    PREACH_DW,
    PREACHER,
    SRC_DISCARD,
    SRC_FAMILY,
    SRC_HAND,
    SRC_MASH,
    SUCC_EXO,
    SUCCUBUS,
    TRIM,
    TRIMMING,
)
from boneyard.engine.gf.position import Position


def moves(s: Position) -> list[int]:
    ph = s.phase
    if ph == TRIMMING:
        p = s.tp
        blocked = blocked_cards(s, p)
        out = [DONE]
        seen = set()
        for c in s.hands[p]:
            if c not in blocked and s.g.face[c] not in seen:
                seen.add(s.g.face[c])
                out.append(TRIM | c << 5)
        return out
    if ph == ATTACK:
        p = s.queue[0]
        assert s.attack is not None  # the ATTACK phase has one pending
        kind = SUCCUBUS if s.attack[0] == EXORCIST else PREACHER
        cards = usable(s, p, kind)
        if kind == PREACHER and s.g.evil_vs_dw:  # GF-26: the attack is a chain of preachers
            net = len(s.attack[3]) - len(s.attack[4])
            out = [PASS] + [JOIN_ATTACK | c << 5 for c in cards] if net < 2 else [PASS]
            if net > 0:
                out += [EVIL_ATTACK | c << 5 for c in cards]
            return out
        return [PASS] + [JOIN_ATTACK | c << 5 for c in cards]
    if ph == DW_STEAL:
        p = s.actor
        if s.dw_card >= 0:  # a card was dropped: take one
            return _take_moves(s, p, DW_TAKE, hand_sighted=True)
        out = [DONE]
        if s.steal_left > 0:
            taken = {c for q, c in s.locked if q == p}
            blocked = blocked_cards(s, p) | taken
            seen = set()
            for c in s.hands[p]:
                if c not in blocked and s.g.face[c] not in seen:
                    seen.add(s.g.face[c])
                    out.append(DW_DROP | c << 5)
        return out
    return []


def _take_moves(s: Position, p: int, op: int, hand_sighted: bool) -> list[int]:
    """Cards a Devil Wife may seduce: discard pile, family ends/eaters, unprotected mashes, hands."""
    g = s.g
    face = g.face
    out: list[int] = []
    seen = set()
    for c in s.discard:
        if face[c] not in seen:
            seen.add(face[c])
            out.append(op | SRC_DISCARD << 5 | c << 15)
    for q in range(s.n):
        if q == p:
            continue
        for f in s.fams[q]:
            cards = f[5]
            picks = list(cards) if g.dw_any else ([cards[0], cards[-1]] if len(cards) > 1 else [cards[0]])
            for c in dict.fromkeys(picks):
                out.append(op | SRC_FAMILY << 5 | c << 15 | q << 25)
            for e in f[4]:
                out.append(op | SRC_FAMILY << 5 | e << 15 | q << 25)
        guarded = protected(s, q)
        kinds = set()
        for c in s.mash[q]:
            k = g.kind[c]
            if k in kinds or (guarded and k != EXORCIST):
                continue  # an Exorcist protects his mash, but she may take him (GF-25)
            if guarded and op == DW_SEDUCE:
                continue  # the permanent one cannot reach a protected mash at all
            kinds.add(k)
            out.append(op | SRC_MASH << 5 | c << 15 | q << 25)
        if s.hands[q]:
            if hand_sighted:
                faces = set()
                for c in s.hands[q]:
                    if face[c] not in faces:
                        faces.add(face[c])
                        out.append(op | SRC_HAND << 5 | c << 15 | q << 25)
            else:
                out.append(op | SRC_HAND << 5 | 1023 << 15 | q << 25)  # blind: a random card
    if not out:
        out.append(DONE)
    return out


def main_moves(s: Position, p: int, moves: list[int]) -> None:
    """The permanent Devil Wife's seduction, once on each of her owner's turns (GF-24)."""
    if s.dw[p] and not s.dw_used and not any(q == p and c in s.dw[p] for q, c in s.confused):
        for a in _take_moves(s, p, DW_SEDUCE, hand_sighted=False):
            if a != DONE:
                moves.append(a)


def instant_moves(s: Position, p: int, moves: list[int], succ: list[int], pre: list[int]) -> None:
    g = s.g
    K = g.kind
    exo = dw = -1
    hand = s.hands[p]
    if not g.rare_cards.isdisjoint(hand):  # (most hands hold no rare)
        blocked = blocked_cards(s, p)
        for c in hand:
            if c in blocked:
                continue
            if K[c] == EXORCIST and exo < 0:
                exo = c
            elif K[c] == DEVIL_WIFE and dw < 0:
                dw = c
    if exo >= 0:
        moves.append(EXO_HAND | exo << 5)
    if dw >= 0:
        moves.append(DW_HAND | dw << 5)
    for q in range(s.n):
        if q == p:
            continue
        for w in s.dw[q]:
            for pr in pre:
                moves.append(PREACH_DW | pr << 5 | w << 15)
        if succ and not g.exorcists.isdisjoint(s.mash[q]):
            exo = next(c for c in s.mash[q] if c in g.exorcists)
            for sc in succ:
                if (sc, exo) not in s.rebuffed:  # GF-23: a returned succubus tries him once a turn
                    moves.append(SUCC_EXO | sc << 5 | q << 15)
