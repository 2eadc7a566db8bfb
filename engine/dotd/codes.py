"""The small ints every Day of the Dead module shares: actions, decision kinds, the fight context.

They sit here, not in the state module, so that the observation, the greedy agent, the effect
vocabulary and the interpreter can all import them without importing each other (no import
circles). ``Final``: mypyc folds them into the compiled modules as constants, which is why this
module is compiled with them (setup.py): an edit here makes every twin stale together.
"""

from __future__ import annotations

from typing import Final

# --- actions -----------------------------------------------------------------------------------
# 0 .. n-1: a card id (play it, target it, keep it, discard it, copy it, flip it, convert it)
DECK_BASE: Final = 1000  # 1000 + back: Dig from that deck
ACT_NO: Final = 2000  # decline an optional choice (keep the loser in line, skip an optional Unearth)

# --- decision kinds ------------------------------------------------------------------------------
D_NONE: Final = -1
D_SELECT: Final = 0  # ctx: 0 fighter (turn 1), 1 spirit
D_UE_TARGET: Final = 1  # ctx: None
D_UE_PICK: Final = 2  # ctx: (target card, owner of target, look tuple)
D_DIG_DECK: Final = 3  # ctx: (remaining digs, fighter card)
D_DIG_DISCARD: Final = 4  # ctx: (remaining digs, fighter card, back)
D_COPY: Final = 5
D_FLIP: Final = 6  # ctx: flip target code
D_CONVERT: Final = 7

DECISION_NAMES: Final = (
    "select",
    "unearth_target",
    "unearth_pick",
    "dig_deck",
    "dig_discard",
    "copy",
    "flip",
    "convert",
)

# --- backs -------------------------------------------------------------------------------------
DOUBLE: Final = 0
POWER_UP: Final = 1
UNEARTH: Final = 2

# --- the fight context: one flat list of ints, indexed field + side ------------------------------
F_BONUS: Final = 0  # power bonus from effects
F_SETP: Final = 2  # set_power value, NO_SETP if none
F_AW: Final = 4  # auto_win count
F_AL: Final = 6  # auto_lose count
F_WT: Final = 8  # wins ties
F_SUP: Final = 10  # spirit suppressed
F_NEG: Final = 12  # effect negated
NO_SETP: Final = -10_000
FIGHT_RESET: Final = [0, 0, NO_SETP, NO_SETP, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]

# --- the effect vocabulary's interpreter codes (each definition in effects.py names one) -------

# interpreter measures of a counter (engine/dotd/interpreter.py: count)
C_FALLEN: Final = 0
C_ACTIVE: Final = 1
C_WINNERS: Final = 2  # fighters that won a fight this turn (ties count)
C_ADJACENT_ACTIVE: Final = 3  # active fighters in the slots next to this one

# interpreter operations (engine/dotd/interpreter.py: exec_steps); below RUN_UNEARTH none asks a player
RUN_FIGHT_ADD: Final = 0  # fight context[field + side] += amount (x counter)
RUN_FIGHT_SET: Final = 1  # fight context[field + side] = amount
RUN_VP: Final = 2  # side's score += amount (x counter)
RUN_PRIORITY: Final = 3  # priority to side
RUN_UNEARTH: Final = 4
RUN_DIG: Final = 5
RUN_FORCE_UNEARTH: Final = 6
RUN_FLIP: Final = 7
RUN_COPY: Final = 8

# interpreter measures of a condition (engine/dotd/interpreter.py: conds_hold)
M_PRIORITY: Final = 0  # 0 if the fighter's controller holds priority, else 1
M_TURN: Final = 1
M_SLOT: Final = 2  # 1 = the oldest slot
M_SPIRIT_BACK: Final = 3  # back of side's spirit, -1 without one
M_LINE_BACK: Final = 4  # back of side's fighter in this fight
M_PRINTED_POWER: Final = 5  # printed power of side's fighter in this fight
M_HAS_EFFECT: Final = 6  # whether side's fighter in this fight has an effect
M_COUNT: Final = 7  # a counter (arg: its code)
M_SCORE_DIFF: Final = 8  # your score minus your opponent's
M_LOSING: Final = 9  # fight totals so far: this side below the other
M_SLOT_NEWEST: Final = 10  # whether this is the fighter's newest slot
M_SLOT_OLDEST: Final = 11

# --- tasks: the state's stack holds tuples whose first item is one of these ---------------------
T_TURN: Final = 0
T_SELECT: Final = 1  # (T, player, kind)
T_REVEAL: Final = 2
T_SPIRIT_UNEARTH: Final = 3  # (T, player)
T_FIGHT: Final = 4  # (T, slot)
T_USE: Final = 5  # (T, player, use number, card)
T_STEPS: Final = 6  # (T, player, steps, index, copy depth)
T_RESOLVE: Final = 7  # (T, slot)
T_CONVERT: Final = 8  # (T, player)
T_REWARDS: Final = 9
T_DIG: Final = 10  # (T, player, remaining, fighter card)

# --- what using a card's effect may do (GameTables.ekind) -------------------------------------
EK_NONE: Final = 0  # no effect
EK_INLINE: Final = 1  # an effect that never asks a player nor starts a task: runs without the stack
EK_ASKS: Final = 2  # an effect that may ask a player

# --- coverage counters: rules abilities counted (both players together) in Position.fired -------
# (slots 0..N_ABILITIES-1 of each player's list; then one slot per compiled step, then one per
# character: see GameTables.fired_names). Counted where the rules apply them, never per card.
A_DOUBLE: Final = 0  # a Double spirit's further use of the fighter's effect
A_POWER_UP: Final = 1  # a fight where the Power Up spirit's bonus counted
A_SPIRIT_UNEARTH: Final = 2  # an Unearth spirit's Unearth started (DD-06)
A_RETRIGGER: Final = 3  # an Unearth spirit fired again after its replacement (DD-07 switch)
A_NEWCOMER: Final = 4  # a replacement fighter used its effect in this fight (DD-08 switches)
A_NO_LEGAL: Final = 5  # a player had no card of a back under the limit and played any (DD-04)
A_PU_EDGE: Final = 6  # a fight in which only one side had the Power Up spirit's bonus
A_PU_EDGE_WON: Final = 7  # ... and that side won it
# what a switch reading away from the default makes happen (coverage of that reading)
A_BOTH_AL_COMPARED: Final = 8  # both sides a net automatic loss, power compared (both_auto_lose)
A_LATE_CONVERSION: Final = 9  # a loser of an earlier fight this turn converted (conversion_window)
A_SPIRIT_WAITS: Final = 10  # a spirit of another back converted with fights left (new_spirit_applies)
A_DECK_SHORT: Final = 11  # a deck short of the cards asked, not reshuffled (deck_empty: skip)
A_UNSCORED: Final = 12  # an active line card that won nothing scored nothing (score_basis)
A_TIE_BROKEN: Final = 13  # a game level on points decided by the chain (tie_break: chain)
# what each back's spirit is worth, as A_PU_EDGE measures the Power Up's bonus (the metrics
# <back>_edge_win_rate of the backs in EDGES, from the abilities <back>_edge and <back>_edge_won)
A_DOUBLE_EDGE: Final = 14  # a fight in which only one side had a Double spirit in force
A_DOUBLE_EDGE_WON: Final = 15  # ... and that side won it
A_UNEARTH_EDGE: Final = 16  # a fight in which only one side's spirit was an Unearth card
A_UNEARTH_EDGE_WON: Final = 17  # ... and that side won it
N_ABILITIES: Final = 18
ABILITY_NAMES: Final = ("double_use", "power_up_fight", "spirit_unearth", "unearth_retrigger",
                        "newcomer_effect", "no_legal_card", "power_up_edge", "power_up_edge_won",
                        "both_auto_lose_compared", "late_conversion", "spirit_waits",
                        "deck_short", "active_unscored", "tie_broken",
                        "double_edge", "double_edge_won", "unearth_edge", "unearth_edge_won")
EDGES: Final = ("power_up", "double", "unearth")

# --- compiled effects (rules.compile_step makes them, the interpreter runs them) --------------
# A compiled condition: (measure M_*, lo, hi, negated, arg). It holds iff ``lo <= x <= hi`` for
# the measured int x (negated: iff not), so the interpreter compares instead of calling an
# operator; ``arg`` is the side measured (0 own, 1 opposing) or, for ``count``, the counter code.
CompiledCond = tuple[int, int, int, bool, int]
# A compiled step: (operation RUN_*, amount, 1 if aimed at the opponent else 0, counter code or -1,
# target: the fight-context field of RUN_FIGHT_* or the copy/flip target code, conditions,
# this step's coverage counter, its character's "effect fired" counter: slots of Position.fired);
# the interpreter finds the affected side as ``player ^ opp``.
CompiledStep = tuple[int, int, int, int, int, tuple[CompiledCond, ...], int, int]
