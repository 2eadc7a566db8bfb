"""Grave Feast at the play table (``boneyard play``): one player's view as the page draws it.

Read from that player's observation (``FeastObservation``) and the table's public record: the
families with their eaters, Monster Mashes, permanent Devil Wives, the discard pile, graveyard
and hand sizes. Other hands and the draw pile are backs (all hands face up only while the
player's own Devil Wife looks through them, GF-25). A move or event naming a card the player saw
neither before nor after it (a Devil Wife's take from another hand) says "a card" instead. The
format is engine/table.py's.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.gf.constants import (
    ANNOUNCE,
    ATTACH,
    ATTACK,
    CHAIN,
    COUNTER,
    DISCARD,
    DONE,
    DW_DROP,
    DW_HAND,
    DW_PLACE,
    DW_STEAL,
    END,
    EVIL_ATTACK,
    EXO_HAND,
    EXTEND,
    FOLLOWUP,
    FOOD_NAMES,
    JOIN,
    JOIN_ATTACK,
    MAIN,
    MASH,
    OVER,
    PASS,
    PREACH,
    PREACH_DW,
    START,
    STEAL_FAM,
    STEAL_MASH,
    SUCC_EXO,
    TRIM,
    TRIMMING,
    WINDOW,
    unpack,
)
from boneyard.engine.gf.narration import describe
from boneyard.engine.gf.state import FeastObservation, FeastState

_GROUPS = {
    END: "Pass", PASS: "Pass", DONE: "Pass", DISCARD: "Discard", TRIM: "Discard",
    START: "Families", EXTEND: "Families", JOIN: "Families", ATTACH: "Eaters", MASH: "Monster Mash",
    ANNOUNCE: "Graveyard", STEAL_FAM: "Succubus", STEAL_MASH: "Succubus", PREACH: "Preacher",
    COUNTER: "Preacher", PREACH_DW: "Preacher", EVIL_ATTACK: "Preacher", SUCC_EXO: "Succubus",
    JOIN_ATTACK: "Second attacker", DW_PLACE: "Devil Wife", DW_HAND: "Devil Wife",
    DW_DROP: "Devil Wife", EXO_HAND: "Exorcist",
}
#: the ops whose x field is the card played, and those whose y field is
_CARD_X = frozenset((DISCARD, TRIM, MASH, STEAL_FAM, STEAL_MASH, PREACH, COUNTER, PREACH_DW,
                     EVIL_ATTACK, SUCC_EXO, JOIN_ATTACK, DW_PLACE, DW_HAND, DW_DROP, EXO_HAND))
_CARD_Y = frozenset((EXTEND, ATTACH))
_NAMED = re.compile(r"#(\d+)")
_PHASE = {
    WINDOW: "a response window: answer with an instant or a graveyard call, or pass",
    CHAIN: "a preacher chain: negate with a preacher, or pass",
    FOLLOWUP: "completing a stolen family",
    DW_STEAL: "a Devil Wife picks her takes",
    ATTACK: "an attack on a rare waits for a second attacker",
    TRIMMING: "discarding down to 4",
}
#: the phases that ask only a player who can answer (holds an instant, a preacher, a succubus):
#: who is asked is that player's secret, and whether anyone is asked at all is everyone's
_ASKED_IF_ABLE = frozenset((WINDOW, CHAIN, ATTACK))


def _card(s: FeastState, c: int, note: str = "") -> dict[str, Any]:
    g = s.g
    out: dict[str, Any] = {"face": g.faces[g.face[c]].id, "name": g.names[c], "card": c}
    if note:
        out["note"] = note
    return out


def _backs(n: int, note: str = "") -> list[dict[str, Any]]:
    return [{"back": "back", "name": "a card", **({"note": note} if note else {})}
            for _ in range(n)]


def _seen(obs: FeastObservation) -> set[int]:
    """The cards this player can locate now (hands only their own, unless looking)."""
    s: FeastState = obs._s
    out = set(s.hands[obs.player]) | set(s.discard) | set(s.removed)
    if s.dw_stealing >= 0:
        out.add(s.dw_stealing)  # a Devil Wife from the hand is played face up (GF-25)
    if obs.looking():
        for h in s.hands:
            out.update(h)
    for p in range(s.n):
        out.update(s.mash[p])
        out.update(s.dw[p])
        for f in s.fams[p]:
            out.update(f[4])
            out.update(f[5])
    return out


def _blank(text: str, hidden: set[int], s: FeastState) -> str:
    """``text`` with every card in ``hidden`` written as "a card"."""
    for m in set(_NAMED.findall(text)):
        c = int(m)
        if c in hidden:
            text = text.replace(f"{s.g.names[c]}#{c}", "a card")
    return text


class FeastTable:
    """Grave Feast's :class:`~boneyard.engine.table.TableView`."""

    def view(self, obs: FeastObservation) -> dict[str, Any]:
        s: FeastState = obs._s
        me = obs.player
        order = [(me + i) % s.n for i in range(1, s.n)] + [me]  # you last, at the bottom
        areas = [self._seat(obs, p) for p in order[:-1]]
        areas.append(self._middle(obs))
        areas.append(self._seat(obs, me))
        marks: list[list[str]] = [[] for _ in range(s.n)]
        for p in range(s.n):
            if p == s.tp and s.phase != OVER:
                marks[p].append("turn")
            marks[p].append(f"{len(s.hands[p])} in hand")
            if s.grave[p]:
                marks[p].append(f"graveyard {len(s.grave[p])}")
            hiding = sum(1 for h in s.hidden if h[0] == p)
            if hiding:
                marks[p].append(f"{hiding} exorcist hiding in the hand")
            if p in s.skip:
                marks[p].append("loses the next turn")
        status = ""
        if obs.legal_actions():
            status = "Your turn: play or end" if s.phase == MAIN else f"You are in {_PHASE[s.phase]}"
        return {
            "status": status,
            "turn": "Game over" if s.phase == OVER else f"Turn {s.turn}, player {s.tp + 1}'s",
            "scores": s.score[:],
            "marks": marks,
            "areas": areas,
            "panels": [self._pending(obs)],
        }

    def _seat(self, obs: FeastObservation, p: int) -> dict[str, Any]:
        s: FeastState = obs._s
        g = s.g
        me = p == obs.player
        locked = {c for q, c in s.locked if q == p}
        if me or obs.looking():
            hand = [_card(s, c, "locked this turn" if c in locked else "") for c in s.hands[p]]
        else:
            hand = _backs(len(s.hands[p]))
        zones = [{"title": "Hand", "cards": hand, "text": "" if hand else "empty"}]
        for f in s.fams[p]:
            nums = "-".join(str(g.num[c]) for c in f[5])
            eaters = "".join(f" +{g.names[e]}" for e in f[4])
            flag = ", announced to the graveyard" if f[0] in s.announced else ""
            zones.append({"title": f"Family #{f[0]}: {FOOD_NAMES[f[1]]} {nums}{eaters}{flag}",
                          "cards": [_card(s, c) for c in f[5]] + [_card(s, e, "eater") for e in f[4]],
                          "text": ""})
        if s.mash[p]:
            zones.append({"title": "Monster Mash", "cards": [_card(s, c) for c in s.mash[p]],
                          "text": ""})
        if s.dw[p]:
            zones.append({"title": "Permanent Devil Wife", "cards": [_card(s, c) for c in s.dw[p]],
                          "text": ""})
        zones.append({"title": "Graveyard", "cards": [],
                      "text": f"{len(s.grave[p])} humans eaten (the score)"})
        return {"title": "You" if me else f"Player {p + 1}", "seat": p, "zones": zones}

    def _middle(self, obs: FeastObservation) -> dict[str, Any]:
        s: FeastState = obs._s
        top = s.discard[-8:]
        zones = [
            {"title": "Draw pile", "cards": _backs(1, f"{len(s.draw)} cards") if s.draw else [],
             "text": f"{len(s.draw)} cards"},
            {"title": "Discard pile (newest last)", "cards": [_card(s, c) for c in top],
             "text": f"{len(s.discard)} cards" + (" (the 8 latest shown)" if len(s.discard) > 8 else "")},
        ]
        if s.dw_stealing >= 0:
            zones.append({"title": "Devil Wife from the hand (to the discard pile when her steal ends)",
                          "cards": [_card(s, s.dw_stealing)], "text": ""})
        if s.removed:
            zones.append({"title": "Removed from the game", "cards": [_card(s, c) for c in s.removed],
                          "text": ""})
        return {"title": "The table", "seat": None, "zones": zones}

    def _pending(self, obs: FeastObservation) -> dict[str, Any]:
        s: FeastState = obs._s
        lines = []
        if s.phase in _PHASE and s.current_player() == obs.player:
            lines.append(f"now: {_PHASE[s.phase]} (you to answer)")
        elif s.phase in _PHASE and s.phase not in _ASKED_IF_ABLE:
            lines.append(f"now: {_PHASE[s.phase]} (player {s.current_player() + 1} to answer)")
        if s.announced:
            lines.append("announced to the graveyard: " + ", ".join(f"family #{f}" for f in s.announced))
        if s.chain:
            lines.append(f"preacher chain: {len(s.chain)} preacher(s), started by player {s.chain[0] + 1}")
        if s.attack is not None:
            lines.append(f"attack on player {s.attack[2] + 1}'s {s.g.names[s.attack[1]]}")
        return {"title": "Pending", "lines": lines or ["nothing pending"]}

    def scenario(self, data: Mapping[str, Any], card_set: CardSet, where: str) -> FeastState:
        """The scenario's position and steps (scenario.py); later coins come from the state's
        seeded stream, not the file's script."""
        from boneyard.engine.gf.scenario import _Run

        run = _Run(data, card_set, where)
        run.play()
        s = run.s
        s.scripted = None
        if data.get("phrases"):  # the script decided every phrase; now the set's rate does
            rate = (data.get("switches") or {}).get(
                "phrase_error_rate", card_set.switches.get("phrase_error_rate", 0.0))
            s.g.flub_rate = float(rate)
        s._legal = None
        return s

    def mover(self, obs: FeastObservation, player: int) -> None:
        """None: a window, a chain and an attack ask only the players who can answer, so "player
        3 is choosing" (or "player 3 to answer") says player 3 holds an instant. The turn player
        is not named either, so a window opening on a turn's start reads as no window."""
        return None

    def moves(self, obs: FeastObservation) -> list[dict[str, Any]]:
        s: FeastState = obs._s
        out = []
        for a in obs.legal_actions():
            op, x, y, _z, _f = unpack(a)
            move: dict[str, Any] = {"label": describe(s, a), "group": _GROUPS.get(op, "Rares")}
            if op in _CARD_X:
                move["card"] = x
            elif op in _CARD_Y:
                move["card"] = y
            out.append(move)
        return out

    def move_line(self, before: FeastObservation, after: FeastObservation,
                  mover: int, action: int) -> str | None:
        s: FeastState = before._s
        if mover != before.player and unpack(action)[0] == PASS and s.phase in (WINDOW, CHAIN):
            return None  # only a player holding an instant is asked: a pass would give it away
        text = describe(s, action)
        if mover != before.player:
            text = _blank(text, set(range(s.g.size)) - _seen(before) - _seen(after), s)
        return f"player {mover + 1}: {text}"

    def events(self, obs: FeastObservation, start: int) -> tuple[list[str], int]:
        s: FeastState = obs._s
        out = []
        if start < 0:  # the deal
            out.append(f"player {s.first + 1} plays first (drawn at random)")
        for e in s.log[max(start, 0):]:
            out.append(_event_text(s, e))
        return out, len(s.log)


def _event_text(s: FeastState, e: tuple[Any, ...]) -> str:
    kind = e[0]
    if kind == "coin":
        return f"coin flip ({e[1]}): {e[2]}"
    if kind == "flub":
        return f"player {e[1] + 1} gets the {e[2]} phrase wrong: the play fails"
    if kind == "race_lost":
        return f"player {e[1] + 1} loses the race to the graveyard call"
    if kind == "announce":
        return f"player {e[1] + 1} announces {e[2]} to the graveyard"
    if kind == "steal_mash":
        return f"player {e[1] + 1} steals player {e[2] + 1}'s Monster Mash"
    if kind == "steal":
        return f"player {e[1] + 1} steals a family of {e[3]} from player {e[2] + 1}"
    if kind == "feast":
        return f"player {e[1] + 1} feasts on {e[2]} humans: they go to the graveyard"
    if kind == "kill":
        return f"{s.g.names[e[1]]}#{e[1]} is destroyed"
    if kind == "reshuffle":
        return f"the discard pile is shuffled into a new draw pile of {e[1]} cards"
    if kind == "dw_pick":
        return f"player {e[1] + 1}'s Devil Wife picks blindly from player {e[2] + 1}'s hand"
    if kind == "dw_takes_from_hand":
        return f"player {e[1] + 1}'s Devil Wife takes a card from player {e[2] + 1}'s hand"
    if kind == "dw_killed_by_preacher":
        return f"player {e[1] + 1}'s Devil Wife took a preacher and dies"
    if kind == "exorcist":
        return f"player {e[1] + 1}'s Exorcist: every visible monster explodes"
    if kind == "explosion":
        return f"player {e[1] + 1}'s Devil Wife took an Exorcist from player {e[2] + 1}: explosion"
    if kind == "exorcist_suicide":
        return f"player {e[1] + 1}'s Exorcist leaves the game (self-loathing)"
    return " ".join(str(x) for x in e)


TABLE = FeastTable()


def table() -> FeastTable:
    """The spec's hook (imported on first use)."""
    return TABLE
