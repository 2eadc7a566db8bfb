"""The words for Grave Feast moves and things on the table: what logs, transcripts, replays and
error messages print (the golden transcripts in tests/golden/ pin them down).
"""

from __future__ import annotations

from boneyard.engine.gf.board import find
from boneyard.engine.gf.constants import (
    ANNOUNCE,
    ATTACH,
    COUNTER,
    DISCARD,
    DONE,
    DW_DROP,
    DW_HAND,
    DW_PLACE,
    DW_SEDUCE,
    DW_TAKE,
    END,
    EVIL_ATTACK,
    EXO_HAND,
    EXTEND,
    FOOD_NAMES,
    JOIN,
    JOIN_ATTACK,
    MASH,
    OP_NAMES,
    PASS,
    PREACH,
    PREACH_DW,
    SRC_DISCARD,
    SRC_FAMILY,
    SRC_MASH,
    START,
    STEAL_FAM,
    STEAL_MASH,
    SUCC_EXO,
    TRIM,
    unpack,
)
from boneyard.engine.gf.position import Position


def card_name(s: Position, c: int) -> str:
    """A card as the logs name it: its face and its id (two copies of a face differ)."""
    return f"{s.g.names[c]}#{c}"


def fam_text(s: Position, fid: int) -> str:
    owner, i = find(s, fid)
    if owner < 0:
        return f"family #{fid}"
    f = s.fams[owner][i]
    nums = "-".join(str(s.g.num[c]) for c in f[5])
    eat = "+" + "+".join(s.g.names[e] for e in f[4]) if f[4] else ""
    return f"family #{fid} (P{owner + 1} {FOOD_NAMES[f[1]]} {nums}{eat})"


def describe(s: Position, a: int) -> str:
    """One action in words, as of this position (family texts show the families now)."""
    op, x, y, z, flag = unpack(a)
    ann = ", to the graveyard" if flag else ""
    if op >= len(OP_NAMES):
        return f"unknown {a}"
    if op == END:
        return "end play" if s.played else "pass"
    if op == DISCARD:
        return f"discard {card_name(s, x)}"
    if op == START:
        return f"start family {FOOD_NAMES[x] if x < 2 else x} {y}-{z}"
    if op == EXTEND:
        return f"extend {fam_text(s, x)} with {card_name(s, y)}{ann}"
    if op == JOIN:
        return f"join {fam_text(s, x)} and {fam_text(s, y)}{ann}"
    if op == ATTACH:
        return f"attach {card_name(s, y)} to {fam_text(s, x)}{ann}"
    if op == MASH:
        return f"mash {card_name(s, x)}"
    if op == ANNOUNCE:
        return f"announce {fam_text(s, x)} to the graveyard"
    if op == STEAL_FAM:
        return f"seduce: {card_name(s, x)} steals {fam_text(s, y)}{ann}"
    if op == STEAL_MASH:
        return f"seduce: {card_name(s, x)} steals the monster mash of P{y + 1}"
    if op == PREACH:
        return f"preach: {card_name(s, x)} destroys {card_name(s, y)}"
    if op == PASS:
        return "pass"
    if op == COUNTER:
        evil = len(s.chain) % 2 == 1
        return f"{'evil preacher' if evil else 'preacher'} {card_name(s, x)} negates"
    if op == DONE:
        return "done"
    return describe_rare(s, op, x, y, z)


def describe_rare(s: Position, op: int, x: int, y: int, z: int) -> str:
    """The rares' moves (rares.py)."""
    if op == DW_PLACE:
        return f"place {card_name(s, x)} as a permanent card"
    if op in (DW_SEDUCE, DW_TAKE):
        who = "devil wife seduces" if op == DW_SEDUCE else "devil wife takes"
        if x == SRC_DISCARD:
            return f"{who} {card_name(s, y)} from the discard pile"
        if x == SRC_FAMILY:
            return f"{who} {card_name(s, y)} from a family of P{z + 1}"
        if x == SRC_MASH:
            return f"{who} {card_name(s, y)} from the monster mash of P{z + 1}"
        if y == 1023:
            return f"{who} a card blindly from the hand of P{z + 1}"
        return f"{who} {card_name(s, y)} from the hand of P{z + 1}"
    if op == DW_HAND:
        return f"{card_name(s, x)} from the hand: drop up to 5 cards, steal as many"
    if op == DW_DROP:
        return f"drop {card_name(s, x)} for the devil wife"
    if op == EXO_HAND:
        return f"{card_name(s, x)} from the hand: every visible monster explodes"
    if op == PREACH_DW:
        return f"preach: {card_name(s, x)} on {card_name(s, y)}"
    if op == SUCC_EXO:
        return f"seduce: {card_name(s, x)} on the exorcist of P{y + 1}"
    if op == JOIN_ATTACK:
        return f"second attacker {card_name(s, x)}"
    if op == EVIL_ATTACK:
        return f"evil preacher {card_name(s, x)} negates a preacher on the devil wife"
    if op == TRIM:
        return f"discard {card_name(s, x)} (down to 4)"
    return f"action {op}"
