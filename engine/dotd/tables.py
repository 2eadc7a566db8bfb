"""The static tables of one Day of the Dead set: card tables, compiled effects, switches.

They sit below the state machine (``game.py``) so that the modules it calls (interpreter, choices,
turns, narrate, summary, observation) can type what they read natively without importing the
machine: ``DotdGame`` in game.py is these tables plus the verb that starts a game. Compiled with
the engine (setup.py): the hot loop reads these slots on every step.
"""

from __future__ import annotations

from typing import Any

from boneyard.engine.cards import CardSet

from boneyard.errors import RulesError

from .cards import BACKS, dotd_set
from .codes import (
    ABILITY_NAMES,
    ACT_NO,
    D_CONVERT,
    D_COPY,
    D_DIG_DISCARD,
    D_FLIP,
    D_SELECT,
    D_UE_PICK,
    D_UE_TARGET,
    DECK_BASE,
    EK_ASKS,
    EK_INLINE,
    EK_NONE,
    N_ABILITIES,
)
from .phrases import DEFAULT_BACK_NAMES
from .rules import INLINE_RUNS, compile_step, resolve_params, resolve_switches


class GameTables:
    """Static rules of one Day of the Dead set: card tables, compiled effects, switches."""

    # Slots, not a dict: the hot loop reads these tables on every step, and an instance dict of
    # more than 30 keys is not a split dict, so each read would be a hash lookup (CPython 3.11).
    __slots__ = (
        "card_set", "num_players", "record_events", "note_forced", "switches", "params", "turns", "hand_per_back",
        "back_limit", "final_free", "free_turn", "pu_bonus", "double_uses", "look_n", "fp_power", "simultaneous",
        "unearth_optional", "retrigger", "newcomer_uses", "newcomer_pending", "both_lose", "any_loser", "max_conv",
        "prev_active", "spirit_now", "dig_choose", "reshuffle", "score_won_only", "tie_chain",
        "characters", "char_ids", "n", "back", "power", "char", "effect", "has_effect", "ekind",
        "card_ids", "card_index", "deck_order", "n_fired", "fired_names",
    )

    def __init__(self, card_set: CardSet, num_players: int = 2, **options: Any) -> None:
        if num_players != 2:
            raise RulesError(f"Day of the Dead is a 2-player game, not {num_players}")
        cs = dotd_set(card_set)  # (another game's set has no Day of the Dead cards either)
        if not cs.cards:
            raise RulesError(f"card set '{cs.name}' has no Day of the Dead cards")
        self.card_set = cs
        self.num_players = 2
        # Transcripts set this before new_initial_state: the state then keeps ``events``, readable
        # lines of what happened. Off by default, so playouts pay one None check per event site.
        self.record_events = False
        # Scenarios set this too: a choice with one option, taken at once, is then an event
        # ("player 1 takes the only option: ..."), so a scenario may list it or leave it out.
        self.note_forced = False
        self.switches = resolve_switches(card_set, options)
        self.params = resolve_params(card_set)
        p = self.params
        self.turns = int(p["turns"])
        self.hand_per_back = int(p["hand_per_back"])
        self.back_limit = int(p["back_limit"])
        self.final_free = bool(p["final_turn_free_back"])
        self.pu_bonus = int(p["power_up_bonus"])
        self.double_uses = int(p["double_uses"])
        self.look_n = int(p["unearth_look"])
        self.fp_power = int(p["first_player_power"])  # handicap knob, 0 = the rulebook
        # from this turn on the back limit is lifted (DD-04: the final turn, if the switch says so)
        self.free_turn = self.turns if self.final_free else 1 << 30
        sw = self.switches
        self.simultaneous = sw["selection"] == "simultaneous"
        self.unearth_optional = bool(sw["unearth_optional"])
        self.retrigger = bool(sw["unearth_retrigger_on_spirit_replace"])
        self.newcomer_uses = bool(sw["replacement_uses_effect_this_fight"])
        self.newcomer_pending = bool(sw["newcomer_uses_pending_effect"]) and not self.newcomer_uses
        self.both_lose = sw["both_auto_lose"] == "both_lose"
        self.any_loser = sw["conversion_window"] == "any_loser_this_turn"
        self.max_conv = 1 if sw["max_conversions_per_turn"] == 1 else 1 << 30
        self.prev_active = sw["prev_spirit_enters_as"] == "active"
        self.spirit_now = sw["new_spirit_applies"] == "immediately"
        self.dig_choose = sw["dig_source"] == "choose"
        self.reshuffle = sw["deck_empty"] == "reshuffle_discard"
        self.score_won_only = sw["score_basis"] == "won_this_turn"
        self.tie_chain = sw["tie_break"] == "chain"

        chars = list(cs.characters)
        char_index = {c.id: i for i, c in enumerate(chars)}
        for dc in cs.cards:
            if dc.character.id not in char_index:
                char_index[dc.character.id] = len(chars)
                chars.append(dc.character)
        self.characters = chars
        self.char_ids = [c.id for c in chars]
        # Position.fired (coverage, both players): the rules abilities, then one counter per
        # compiled step (named by its primitive), then one per character (its effect fired)
        uses = N_ABILITIES + sum(len(c.effect) for c in chars)
        names: list[tuple[str, str]] = [("ability", a) for a in ABILITY_NAMES]
        compiled = {}
        for ci, c in enumerate(chars):
            steps = []
            for k, s in enumerate(c.effect):
                steps.append(compile_step(s, f"card '{c.id}' step {k + 1}", len(names), uses + ci))
                names.append(("primitive", s.op))
            compiled[c.id] = tuple(steps)
        names += [("card", c.id) for c in chars]
        self.n_fired = len(names)
        self.fired_names = names
        self.n = len(cs.cards)
        self.back = [BACKS.index(dc.back) for dc in cs.cards]
        self.power = [dc.character.power for dc in cs.cards]
        self.char = [char_index[dc.character.id] for dc in cs.cards]
        self.effect = [compiled[dc.character.id] for dc in cs.cards]
        self.has_effect = [bool(e) for e in self.effect]
        # EK_NONE no effect, EK_INLINE an effect that never asks a player nor starts a task (it
        # runs without the task stack), EK_ASKS one that may
        self.ekind = [
            EK_NONE if not e else EK_INLINE if all(st[0] in INLINE_RUNS for st in e) else EK_ASKS
            for e in self.effect
        ]
        self.card_ids = [dc.id for dc in cs.cards]
        # card id -> its physical cards (several when a character has copies: x 2)
        self.card_index: dict[str, list[int]] = {}
        for i, cid in enumerate(self.card_ids):
            self.card_index.setdefault(cid, []).append(i)
        self.deck_order = [[c for c in range(self.n) if self.back[c] == b] for b in range(3)]

    def card_name(self, card: int) -> str:
        return self.card_ids[card]

    def describe(self, card: int) -> str:
        ch = self.characters[self.char[card]]
        return f"{ch.name} ({ch.power}) on {DEFAULT_BACK_NAMES.get(BACKS[self.back[card]], '?')}"


def action_string(g: GameTables, kind: int, ctx: Any, action: int) -> str:
    """Readable, parseable form of ``action`` at a decision of ``kind`` (scenarios, transcripts)."""
    if action == ACT_NO:
        return "no"
    if action >= DECK_BASE:
        return f"dig {BACKS[action - DECK_BASE]}"
    if not 0 <= action < g.n:
        return f"?{action}"
    name = g.card_name(action)
    verb = {
        D_SELECT: "fighter" if ctx == 0 else "spirit",
        D_UE_TARGET: "unearth",
        D_UE_PICK: "keep",
        D_DIG_DISCARD: "discard",
        D_COPY: "copy",
        D_FLIP: "flip",
        D_CONVERT: "convert",
    }.get(kind, "card")
    return f"{verb} {name}"
