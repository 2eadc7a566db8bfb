"""Grave Feast's static rules: a card set's switches and params, the player count, the card tables.

The engine works on int card ids: every physical card of the shuffled deck(s) is an index into
flat tables (kind, food, number, face) computed once per game, so the hot loop never touches a
dataclass. Switch defaults live here too, so an engine built from a bare ``CardSet`` (tests,
before the loader fills them) plays the documented default rules (docs/rules/grave-feast.md).

The lowest layer but the constants: the position (position.py) and every rules module read a
game through ``FeastRules``; game.py's ``FeastGame`` adds the deal, which needs the state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.gf.cards import FeastCard, feast_set
from boneyard.engine.gf.constants import (
    DEVIL_WIFE,
    EXORCIST,
    FOOD_NAMES,
    FOOD_OF_EATER,
    HUMAN,
    KIND_NAMES,
    M10,
    PREACHER,
    SUCCUBUS,
    VAMPIRE,
    ZOMBIE,
)

from boneyard.errors import RulesError

#: Every switch with its default and its allowed values (None: any number in the given range).
SWITCHES: dict[str, tuple[Any, tuple[Any, ...] | tuple[float, float]]] = {
    "must_act": (True, (True, False)),
    "strict_one_card_extension": (False, (True, False)),
    "max_eaters_per_family": (1, (1, 2, 3, 4)),
    "join_two_fed": ("forbid", ("forbid", "discard_extra_eater")),
    "phrase_error_rate": (0.0, (0.0, 1.0)),
    "callout_rate": (1.0, (0.0, 1.0)),
    "graveyard_any_time": (True, (True, False)),
    "graveyard_ends_turn": (True, (True, False)),
    "instants_use_action": (True, (True, False)),
    "instants_from_mash": (True, (True, False)),
    "turn_start_window": (True, (True, False)),
    "preacher_after_announce": (True, (True, False)),
    "preacher_own_eaters": (True, (True, False)),
    "succubus_window_fresh_attach": (True, (True, False)),
    "succubus_window_preattached": (False, (True, False)),
    "race_model": ("windows", ("windows", "probabilistic")),
    "race_p": (0.5, (0.0, 1.0)),
    "recycle": ("shuffle", ("shuffle", "flip_then_shuffle_corpses")),
    "out_of_turn_completion": (False, (True, False)),
    "coin_p_heads": (0.5, (0.0, 1.0)),
    "exorcist_hits_preachers": (True, (True, False)),
    "exorcist_broken_family": ("gapped", ("gapped", "split_singletons")),
    "maelstrom_scope": ("all", ("all", "opponents_only")),
    "maelstrom_vs_exorcist_attack": (True, (True, False)),
    "single_succubus_vs_exorcist": ("fizzle", ("fizzle", "return_to_hand")),
    "dw_family_take": ("ends_only", ("ends_only", "any_and_split")),
    "evil_preacher_vs_devil_wife": (True, (True, False)),
}
_RATES = {"phrase_error_rate", "callout_rate", "race_p", "coin_p_heads"}

#: Rules parameters (game.yaml ``params``) the engine reads, with defaults.
PARAMS: dict[str, Any] = {
    "hand_size": 5,
    "win_score": 9,
    "min_family": 3,
    "decks": "auto",
    "rares": False,
    "turn_cap": 60,
}


def _check_switch(name: str, value: Any) -> Any:
    default, allowed = SWITCHES[name]
    if name in _RATES:
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0.0 <= value <= 1.0:
            raise RulesError(f"grave-feast switch {name}: expected a probability 0..1, got {value!r}")
        return float(value)
    if isinstance(default, bool):
        if not isinstance(value, bool):
            raise RulesError(f"grave-feast switch {name}: expected true or false, got {value!r}")
        return value
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise RulesError(f"grave-feast switch {name}: expected a whole number >= 1, got {value!r}")
        return value
    if value not in allowed:
        choices = " | ".join(str(a) for a in allowed)
        raise RulesError(f"grave-feast switch {name}: expected one of {choices}, got {value!r}")
    return value


class FeastRules:
    """Grave Feast's rules for 2-8 players on a card set: what every position reads of its game.

    ``options`` override switches and params by name (``win_score=5``, ``race_model=...``), so
    the simulator and the tests can try a reading without editing game.yaml.
    """

    def __init__(
        self,
        card_set: CardSet,
        num_players: int | None = 4,
        rares: bool | None = None,
        decks: int | str | None = None,
        **options: Any,
    ) -> None:
        n = 4 if num_players is None else num_players
        if isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= 8:
            raise RulesError(f"grave-feast is for 2-8 players, got {num_players!r}")
        limits = card_set.params.get("players")
        if isinstance(limits, Mapping) and not limits.get("min", 2) <= n <= limits.get("max", 8):
            raise RulesError(
                f"{card_set.name} is for {limits.get('min', 2)}-{limits.get('max', 8)} players, got {n}"
            )
        fs = feast_set(card_set)  # (another game's set has no Grave Feast cards either)
        if not fs.feast_cards:
            raise RulesError(f"card set {fs.name!r} has no Grave Feast cards")
        self.card_set = fs
        self.num_players = n
        params = dict(PARAMS)
        params.update({k: v for k, v in card_set.params.items() if k in PARAMS})
        switches = {k: d for k, (d, _) in SWITCHES.items()}
        switches.update({k: v for k, v in card_set.switches.items() if k in SWITCHES})
        for key, value in options.items():
            if value is None:
                continue
            if key in SWITCHES:
                switches[key] = value
            elif key in PARAMS:
                params[key] = value
            else:
                known = ", ".join(sorted([*SWITCHES, *PARAMS]))
                raise RulesError(f"grave-feast has no option {key!r} (known: {known})")
        if rares is not None:
            params["rares"] = rares
        if decks is not None:
            params["decks"] = decks
        for key in SWITCHES:
            switches[key] = _check_switch(key, switches[key])
        self.switches = switches
        self.params = params
        d = params["decks"]
        if d in ("auto", None):  # GF-01: two decks from 5 players, and whenever the rares are in
            d = 2 if n > 4 or params["rares"] else 1
        if isinstance(d, bool) or d not in (1, 2, 3, 4):
            raise RulesError(f"grave-feast decks: expected auto, 1 or 2, got {params['decks']!r}")
        self.decks: int = d
        self.rares: bool = bool(params["rares"])
        for key in ("hand_size", "win_score", "min_family", "turn_cap"):
            v = params[key]
            if isinstance(v, bool) or not isinstance(v, int) or v < 1:
                raise RulesError(f"grave-feast {key}: expected a whole number >= 1, got {v!r}")
        self.hand_size: int = params["hand_size"]
        self.win_score: int = params["win_score"]
        self.min_family: int = params["min_family"]
        self.turn_cap: int = params["turn_cap"]
        self._build_tables()
        s = switches
        self.must_act: bool = s["must_act"]
        self.strict_ext: bool = s["strict_one_card_extension"]
        self.max_eaters: int = s["max_eaters_per_family"]
        self.join_discards: bool = s["join_two_fed"] == "discard_extra_eater"
        self.flub_rate: float = s["phrase_error_rate"]
        self.callout_rate: float = s["callout_rate"]
        self.gy_any_time: bool = s["graveyard_any_time"]
        self.gy_ends_turn: bool = s["graveyard_ends_turn"]
        self.instants_use_action: bool = s["instants_use_action"]
        self.from_mash: bool = s["instants_from_mash"]
        self.turn_start_window: bool = s["turn_start_window"]
        self.preach_after_announce: bool = s["preacher_after_announce"]
        self.preach_own: bool = s["preacher_own_eaters"]
        #: whose eaters p's preacher may target (GF-E2: "on any player", p too by default)
        self.preach_seats: list[tuple[int, ...]] = [
            (p, *self.others[p]) if self.preach_own else self.others[p] for p in range(n)]
        self.window_fresh: bool = s["succubus_window_fresh_attach"]
        self.window_pre: bool = s["succubus_window_preattached"]
        self.race_prob: bool = s["race_model"] == "probabilistic"
        self.race_p: float = s["race_p"]
        self.flip_recycle: bool = s["recycle"] == "flip_then_shuffle_corpses"
        self.ooo_completion: bool = s["out_of_turn_completion"]
        self.p_heads: float = s["coin_p_heads"]
        self.exo_hits_preachers: bool = s["exorcist_hits_preachers"]
        self.exo_split: bool = s["exorcist_broken_family"] == "split_singletons"
        self.maelstrom_all: bool = s["maelstrom_scope"] == "all"
        self.maelstrom_attack: bool = s["maelstrom_vs_exorcist_attack"]
        self.succ_return: bool = s["single_succubus_vs_exorcist"] == "return_to_hand"
        self.dw_any: bool = s["dw_family_take"] == "any_and_split"
        self.evil_vs_dw: bool = s["evil_preacher_vs_devil_wife"]

    def _build_tables(self) -> None:
        faces: list[FeastCard] = []
        cards: list[int] = []  # card id -> face index
        for fc in self.card_set.feast_cards:
            faces.append(fc)
        rare_faces: list[int] = []
        if self.rares:
            for fc in self.card_set.rares:
                rare_faces.append(len(faces))
                faces.append(fc)
        for _ in range(self.decks):
            for fi, fc in enumerate(faces):
                if fi in rare_faces:
                    continue
                cards.extend([fi] * fc.copies)
        for fi in rare_faces:  # rares are single prints: once, whatever the number of decks
            cards.extend([fi] * faces[fi].copies)
        if len(cards) > M10:  # numbers 0..1022 in 10-bit fields, M10 itself meaning "any card"
            # (validate says so of game.yaml; this is for --decks and --rares on the command line)
            with_rares = " and the rares" if self.rares else ""
            raise RulesError(f"a game of this set holds {len(cards):,} cards ({self.decks} "
                             f"deck{'s' if self.decks != 1 else ''}{with_rares}), but the engine "
                             f"numbers at most {M10:,}: play one deck (--decks 1), leave the "
                             "rares out, or cut copies in the card files")
        kinds = {k: i for i, k in enumerate(KIND_NAMES)}
        self.faces = faces
        self.face: list[int] = cards
        self.kind: list[int] = []
        self.food: list[int] = []
        self.num: list[int] = []
        self.names: list[str] = []
        for fi in cards:
            fc = faces[fi]
            if fc.kind not in kinds:
                raise RulesError(f"card {fc.id!r}: unknown Grave Feast kind {fc.kind!r}")
            k = kinds[fc.kind]
            self.kind.append(k)
            if k == HUMAN:
                if fc.food not in FOOD_NAMES or not isinstance(fc.number, int) or not 1 <= fc.number <= 9:
                    raise RulesError(f"card {fc.id!r}: a human needs food blood|brains and a number 1..9")
                self.food.append(FOOD_NAMES.index(fc.food))
                self.num.append(fc.number)
                self.names.append(f"{fc.food} {fc.number}")
            else:
                self.food.append(FOOD_OF_EATER.get(k, -1))
                self.num.append(0)
                self.names.append(fc.kind.replace("_", " "))
        self.size = len(cards)
        # hot-loop tables: a human's food*16 + number (-1 for monsters), instants, and for every
        # set of numbers in a hand the START actions of each food (runs of 2+)
        self.hkey: list[int] = [
            self.food[c] * 16 + self.num[c] if self.kind[c] == HUMAN else -1 for c in range(self.size)
        ]
        self.instant: list[bool] = [self.kind[c] in (SUCCUBUS, PREACHER, DEVIL_WIFE, EXORCIST) for c in range(self.size)]
        runs: list[list[tuple[int, ...]]] = [[], []]
        for food in (0, 1):
            for mask in range(1024):
                acts = []
                for lo in range(1, 9):
                    hi = lo
                    while hi + 1 <= 9 and mask >> (hi + 1) & 1 and mask >> lo & 1:
                        hi += 1
                        acts.append(2 | food << 5 | lo << 15 | hi << 25)  # START food lo hi
                runs[food].append(tuple(acts))
        self.runs = runs
        self.discard_act: list[int] = [1 | c << 5 for c in range(self.size)]  # DISCARD c
        #: hkey, with a monster's key -kind instead of -1 (the turn player's move generation)
        self.mkey: list[int] = [h if h >= 0 else -self.kind[c] for c, h in enumerate(self.hkey)]
        #: scratch list for move generation (face key -> card), reused so no call allocates one
        self.scratch: list[int] = [0] * 32
        #: for a gap-free family lo..hi (index lo*16 + hi): the numbers that extend it, as a mask
        self.ends: list[int] = [
            ((1 << (lo - 1)) if lo > 1 else 0) | ((1 << (hi + 1)) if hi < 9 else 0)
            for lo in range(16) for hi in range(16)
        ]
        self.instants: frozenset[int] = frozenset(c for c in range(self.size) if self.instant[c])
        #: the other players in seat order after each actor (who a window asks, in turn)
        n = self.num_players
        self.after: list[tuple[int, ...]] = [tuple((a + i) % n for i in range(1, n)) for a in range(n)]
        #: everyone but p, in seat order from 0 (the order instant moves are listed in)
        self.others: list[tuple[int, ...]] = [tuple(q for q in range(n) if q != p) for p in range(n)]
        self.succubi: frozenset[int] = frozenset(c for c in range(self.size) if self.kind[c] == SUCCUBUS)
        self.preachers: frozenset[int] = frozenset(c for c in range(self.size) if self.kind[c] == PREACHER)
        self.eaters: frozenset[int] = frozenset(c for c in range(self.size) if self.kind[c] in (VAMPIRE, ZOMBIE))
        self.exorcists: frozenset[int] = frozenset(c for c in range(self.size) if self.kind[c] == EXORCIST)
        self.rare_cards: frozenset[int] = frozenset(c for c in range(self.size) if self.kind[c] >= DEVIL_WIFE)
