"""Grave Feast's small vocabulary: card kinds, foods, action ops, phases, a family's fields.

Its own module so that every other module of the engine can import it and it imports none of
them (no import circle). The ints are ``Final``: mypyc inlines them in the compiled engine, where
a plain module global would cost a dictionary look-up on each use.

Actions are packed ints ``op | x << 5 | y << 15 | z << 25 | flag << 35`` with card ids and family
ids as arguments, so the same int means the same move in every determinization of a view.
"""

from __future__ import annotations

from typing import Final

from boneyard.engine.gf.cards import FOODS, GF_KINDS

# --- cards ------------------------------------------------------------------------------------
# Card kinds as small ints (index into KIND_NAMES).
HUMAN: Final = 0
VAMPIRE: Final = 1
ZOMBIE: Final = 2
SUCCUBUS: Final = 3
PREACHER: Final = 4
DEVIL_WIFE: Final = 5
EXORCIST: Final = 6
KIND_NAMES: Final[tuple[str, ...]] = GF_KINDS
BLOOD: Final = 0
BRAINS: Final = 1
FOOD_NAMES: Final[tuple[str, ...]] = FOODS
#: The eater kind each food needs, and the food each eater kind eats.
EATER_OF: Final[tuple[int, int]] = (VAMPIRE, ZOMBIE)
FOOD_OF_EATER: Final[dict[int, int]] = {VAMPIRE: BLOOD, ZOMBIE: BRAINS}

# --- actions ----------------------------------------------------------------------------------
END: Final = 0
DISCARD: Final = 1
START: Final = 2
EXTEND: Final = 3
JOIN: Final = 4
ATTACH: Final = 5
MASH: Final = 6
ANNOUNCE: Final = 7
STEAL_FAM: Final = 8
STEAL_MASH: Final = 9
PREACH: Final = 10
PASS: Final = 11
COUNTER: Final = 12
DONE: Final = 13
# rares
DW_PLACE: Final = 14
DW_SEDUCE: Final = 15
DW_HAND: Final = 16
DW_DROP: Final = 17
DW_TAKE: Final = 18
EXO_HAND: Final = 19
PREACH_DW: Final = 20
SUCC_EXO: Final = 21
JOIN_ATTACK: Final = 22
TRIM: Final = 23
EVIL_ATTACK: Final = 24
OP_NAMES: Final[tuple[str, ...]] = (
    "end", "discard", "start", "extend", "join", "attach", "mash", "announce", "steal_family",
    "steal_mash", "preach", "pass", "counter", "done", "dw_place", "dw_seduce", "dw_hand",
    "dw_drop", "dw_take", "exorcist", "preach_dw", "succubus_exorcist", "join_attack", "trim",
    "evil_attack",
)  # fmt: skip

M10: Final = 1023


def pack(op: int, x: int = 0, y: int = 0, z: int = 0, flag: int = 0) -> int:
    """An action int from its op and up to three 10-bit arguments and a flag."""
    return op | x << 5 | y << 15 | z << 25 | flag << 35


def unpack(a: int) -> tuple[int, int, int, int, int]:
    """(op, x, y, z, flag) of an action int."""
    return a & 31, (a >> 5) & M10, (a >> 15) & M10, (a >> 25) & M10, (a >> 35) & 1


# --- phases -----------------------------------------------------------------------------------
MAIN: Final = 0
WINDOW: Final = 1
CHAIN: Final = 2
FOLLOWUP: Final = 3
OVER: Final = 4
# rares
DW_STEAL: Final = 5
ATTACK: Final = 6
TRIMMING: Final = 7
PHASE_NAMES: Final[tuple[str, ...]] = ("main", "window", "chain", "followup", "over", "dw_steal", "attack", "trim")

# --- families ---------------------------------------------------------------------------------
#: A family on a board: (id, food, lowest number, highest number, eater cards, human cards).
Fam = tuple[int, int, int, int, tuple[int, ...], tuple[int, ...]]
NO_EATERS: Final[tuple[int, int, int]] = (-1, -1, -1)

# DW_SEDUCE / DW_TAKE sources (x field)
SRC_DISCARD: Final = 0
SRC_FAMILY: Final = 1
SRC_MASH: Final = 2
SRC_HAND: Final = 3
