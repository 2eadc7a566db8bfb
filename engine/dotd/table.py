"""Day of the Dead at the play table (``boneyard play``): one player's view as the page draws it.

Everything is read from that player's observation (observation.py) and the public record of the
position (scores, finished fights, the discard piles); a card the player may not see is drawn as
its back. The opponent's choices read "chooses a card" until the reveal names them, a card dug
into the opponent's hand is not named, and an Unearth that puts a face-down card in place says so
without naming it (see :func:`move_line` and :func:`events`). The format is engine/table.py's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from boneyard.engine.cards import CardSet

from .cards import BACKS, dotd_set
from .codes import (
    ACT_NO,
    D_CONVERT,
    D_COPY,
    D_DIG_DECK,
    D_DIG_DISCARD,
    D_FLIP,
    D_SELECT,
    D_UE_PICK,
    D_UE_TARGET,
    DECISION_NAMES,
    DECK_BASE,
)
from .observation import DotdObservation
from .phrases import DEFAULT_BACK_NAMES
from .tables import GameTables

if TYPE_CHECKING:
    from .game import DotdState

_STATUS = {
    ("select", "fighter"): "Choose your fighter for the first slot",
    ("select", "spirit"): "Choose your spirit for this turn",
    ("unearth_target", None): "Unearth: choose the card to replace (or decline)",
    ("unearth_pick", None): "Unearth: keep one of the cards you look at",
    ("dig_deck", None): "Dig: choose the deck to draw from",
    ("dig_discard", None): "Dig: discard a card of that back",
    ("copy", None): "Copy: choose the effect to copy",
    ("flip", "own_fallen"): "Flip one of your fallen cards face up",
    ("flip", "opponent_fought"): "Flip the opponent's fighter face down",
    ("convert", None): "Convert a losing fighter into your spirit, or keep it in line",
}
_GROUP = {
    D_SELECT: "Play a card", D_UE_TARGET: "Unearth", D_UE_PICK: "Keep", D_DIG_DECK: "Dig",
    D_DIG_DISCARD: "Discard", D_COPY: "Copy", D_FLIP: "Flip", D_CONVERT: "Convert",
}
_DIG = re.compile(r"^player (\d+) digs (.+) from the (.+) deck$")
_REVEAL = re.compile(r"^player (\d+) reveals (fighter .+?, )?spirit (.+?); the field flips face up: (.*)$")
_OPENS = re.compile(r"^player (\d+)'s spirit (.+) opens slot (\d+)$")


def _back_name(g: GameTables, b: int) -> str:
    own = {bk.id: bk.name for bk in g.card_set.backs}
    return own.get(BACKS[b], DEFAULT_BACK_NAMES.get(BACKS[b], BACKS[b]))


def _face(g: GameTables, c: int, note: str = "", dim: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"face": g.card_ids[c], "name": g.describe(c), "card": c}
    if note:
        out["note"] = note
    if dim:
        out["dim"] = True
    return out


def _back(g: GameTables, b: int, note: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {"back": f"back-{BACKS[b]}", "name": f"{_back_name(g, b)} back"}
    if note:
        out["note"] = note
    return out


def _seen(obs: DotdObservation[Any]) -> set[int]:
    """The physical cards this player can locate now."""
    out = set(obs.hand) | set(obs.chosen) | set(obs.look)
    for line in obs.lines:
        out.update(c for c, _b, _u in line if c >= 0)
    out.update(c for c, _b in obs.spirits if c >= 0)
    for d in obs.discards:
        out.update(d)
    return out


class DotdTable:
    """Day of the Dead's :class:`~boneyard.engine.table.TableView`."""

    def view(self, obs: DotdObservation[Any]) -> dict[str, Any]:
        g = obs.game
        st = obs._state  # its public record only: scores, fights fought, counts
        me, opp = obs.player, 1 - obs.player
        status = _STATUS.get((obs.decision, obs.detail)) if obs.decision else None
        areas = [self._side(obs, opp), self._middle(obs), self._side(obs, me)]
        marks: list[list[str]] = [[], []]
        marks[obs.priority].append("holds the priority counter")
        for p in (0, 1):
            marks[p].append(f"{len(obs.hand) if p == me else len(obs.opponent_hand_backs)} in hand")
        return {
            "status": status or "",
            "turn": f"Turn {obs.turn} of {g.turns}" if not st.done else "Game over",
            "scores": list(obs.scores),
            "marks": marks,
            "areas": areas,
            "panels": [self._fights(obs)],
        }

    def _side(self, obs: DotdObservation[Any], p: int) -> dict[str, Any]:
        g = obs.game
        me = p == obs.player
        if me:
            chosen = set(obs.chosen)
            hand = [_face(g, c, "chosen" if c in chosen else "") for c in obs.hand]
        else:
            hand = [_back(g, b) for b in obs.opponent_hand_backs]
            hand += [_back(g, b, "chosen") for b in obs.opponent_chosen_backs]
        slots = []
        for j, (c, b, up) in enumerate(obs.lines[p]):
            note = f"slot {j + 1}, {'active' if up else 'fallen'}"
            slots.append(_face(g, c, note, dim=not up) if c >= 0 else _back(g, b, note + ", face down"))
        c, b = obs.spirits[p]
        spirit = [] if b < 0 else [_face(g, c, "spirit") if c >= 0 else _back(g, b, "spirit, face down")]
        zones = [
            {"title": "Spirit", "cards": spirit, "text": "" if spirit else "none yet"},
            {"title": "Line (slot 1 is the oldest)", "cards": slots, "text": "" if slots else "empty"},
            {"title": "Hand", "cards": hand, "text": "" if hand else "empty"},
        ]
        if me and obs.look:
            zones.insert(0, {"title": "Unearth: the cards you look at",
                             "cards": [_face(g, x) for x in obs.look], "text": ""})
        return {"title": "You" if me else "Opponent", "seat": p, "zones": zones}

    def _middle(self, obs: DotdObservation[Any]) -> dict[str, Any]:
        g = obs.game
        zones = []
        for b in range(3):
            pile = obs.discards[b]
            zones.append({"title": f"{_back_name(g, b)} deck and discards",
                          "cards": ([_back(g, b, f"deck, {obs.deck_sizes[b]} cards")]
                                    if obs.deck_sizes[b] else [])
                          + [_face(g, c, "discarded") for c in pile[-6:]],
                          "text": f"{obs.deck_sizes[b]} in the deck, {len(pile)} discarded"
                                  + (" (the 6 latest shown)" if len(pile) > 6 else "")})
        return {"title": "Decks and discards", "seat": None, "zones": zones}

    def _fights(self, obs: DotdObservation[Any]) -> dict[str, Any]:
        """This turn's fights newest to oldest (the order they are fought), with totals."""
        g = obs.game
        st = obs._state
        lines = []
        i = obs.fight_slot
        if i >= 0 and not st.done and all(i < len(ln) and ln[i][0] >= 0 and ln[i][2]
                                          for ln in obs.lines):
            t0, t1 = st.fight_total(0), st.fight_total(1)
            a, b = obs.lines[0][i][0], obs.lines[1][i][0]
            lines.append(f"now, slot {i + 1}: player 1's {g.describe(a)} at {t0} vs "
                         f"player 2's {g.describe(b)} at {t1}")
        for t, slot, a, b, t0, t1, w0, w1 in reversed(st.fight_log):
            if t != obs.turn:
                continue
            res = ("tie, both win" if w0 and w1 else "player 1 wins" if w0
                   else "player 2 wins" if w1 else "both lose")
            lines.append(f"slot {slot + 1}: {g.describe(a)} {t0} vs {g.describe(b)} {t1}: {res}")
        return {"title": f"Fights of turn {obs.turn} (newest slot first)",
                "lines": lines or ["no fight yet this turn"]}

    def scenario(self, data: Mapping[str, Any], card_set: CardSet, where: str) -> DotdState:
        """The scenario's position and choices (scenario.py) on the set, events recorded."""
        from .convert import character_from_dict
        from .game import DotdGame
        from .scenario import play_scenario
        from .sets import make_card_set

        cs = dotd_set(card_set)
        invented = [character_from_dict(c) for c in data.get("characters", [])]
        if invented:
            cs = make_card_set(list(cs.characters) + invented, dict(cs.switches), dict(cs.params),
                               cs.name)
        game = DotdGame(cs, **(data.get("switches") or {}))
        game.record_events = True
        return play_scenario(game, data, where)[0]

    def mover(self, obs: DotdObservation[Any], player: int) -> int:
        """Every Day of the Dead decision is asked in the open (a choice of every turn, or one a
        revealed card's effect gives), so the player choosing is always named."""
        return player

    def moves(self, obs: DotdObservation[Any]) -> list[dict[str, Any]]:
        kind = obs._state.dk
        seen = _seen(obs)
        out = []
        for a in obs.legal_actions():
            move: dict[str, Any] = {"label": _label(obs, kind, a), "group": _GROUP.get(kind, "Choose")}
            if 0 <= a < obs.game.n:
                if a in seen:
                    move["card"] = a
                else:  # a face-down card of the opponent's (an Unearth forced on their line)
                    move["label"] = f"{obs.action_to_string(a).split(' ', 1)[0]} {_place(obs, a)}"
            out.append(move)
        return out

    def move_line(self, before: DotdObservation[Any], after: DotdObservation[Any],
                  mover: int, action: int) -> str:
        g = before.game
        kind = before._state.dk
        who = f"player {mover + 1}"
        if mover == before.player:
            return f"{who}: {_label(before, kind, action)}"
        if kind == D_SELECT:
            return f"{who} chooses a card (revealed with the other player's)"
        if 0 <= action < g.n and action not in _seen(before) and action not in _seen(after):
            return f"{who}: {DECISION_NAMES[kind].replace('_', ' ')}, a card you do not see"
        return f"{who}: {_label(before, kind, action)}"

    def events(self, obs: DotdObservation[Any], start: int) -> tuple[list[str], int]:
        st = obs._state
        g = obs.game
        ev = st.events or []
        out = []
        if start < 0:  # the deal
            out.append(f"a coin flip gives player {st.first_prio + 1} the priority counter")
        new = ev[max(start, 0):]
        if not new:
            return out, len(ev)
        # DD-24: the faces this player cannot place now are not named (a copy in sight excepted)
        seen = _seen(obs)
        shown = {g.describe(c) for c in seen}
        private = {g.describe(c) for c in range(g.n) if c not in seen} - shown
        opp = str(2 - obs.player)
        for line in new:
            m = _DIG.match(line)
            if m and m.group(1) == opp:
                line = f"player {opp} digs a card from the {m.group(3)} deck"
            m = _REVEAL.match(line)
            if m and m.group(1) == opp:
                line = (f"player {opp} reveals {m.group(2) or ''}a spirit face down; "
                        f"the field flips face up: {m.group(4)}")
            m = _OPENS.match(line)
            if m and m.group(1) == opp and obs.lines[1 - obs.player][int(m.group(3)) - 1][0] < 0:
                line = f"player {opp}'s spirit opens slot {m.group(3)} face down"
            for name in private:
                if name in line:
                    line = line.replace(name, "a face-down card")
            out.append(line)
        return out, len(ev)


def _place(obs: DotdObservation[Any], c: int) -> str:
    """Where a card the player cannot see lies, in words: "player 2's face-down slot 3"."""
    st = obs._state
    back = _back_name(obs.game, obs.game.back[c])
    for p in (0, 1):
        if c in st.lines[p]:
            return f"player {p + 1}'s face-down {back} card in slot {st.lines[p].index(c) + 1}"
        if st.spirit[p] == c:
            return f"player {p + 1}'s face-down {back} spirit"
    return f"a face-down {back} card"


def _label(obs: DotdObservation[Any], kind: int, a: int) -> str:
    """A move in words: "spirit Oaf (3) on Double", "dig from the Unearth deck"."""
    g = obs.game
    if a == ACT_NO:
        return {D_CONVERT: "keep the losers in line", D_UE_TARGET: "do not unearth"}.get(kind, "no")
    if a >= DECK_BASE:
        return f"dig from the {_back_name(g, a - DECK_BASE)} deck"
    verb = obs.action_to_string(a).split(" ", 1)[0]
    return f"{verb} {g.describe(a)}"


TABLE = DotdTable()


def table() -> DotdTable:
    """The spec's hook (imported on first use)."""
    return TABLE
