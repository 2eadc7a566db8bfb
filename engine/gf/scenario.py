"""Grave Feast scenarios: a position written as plain data, choices played, facts checked.

``boneyard scenario FILE`` runs this for files with ``game: grave-feast`` (format:
schema/scenario.schema.json ``$defs/feast``; examples: tests/scenarios/gf-*.yaml). A designer
writes the position (each player's hand, families with their eaters, Monster Mash, permanent
Devil Wife, graveyard and score; the discard pile in order; the top of the draw pile; whose
turn; locked, hidden and confused cards), the randomness (coin flips and phrase flubs in order),
the steps ("P2: seduce: succubus steals family #1", "everyone else passes", or an ``expect:``
between steps) and the facts that must hold at the end. Cards are named as the engine prints
them ("blood 3", "zombie", "devil wife"); a family is ``"brains 3 4 5 +zombie"`` (gaps allowed).

Moves the engine makes by itself (a move that is the only legal one) are shown after the step
that led to them, so the printed log reads like the game. Every failed fact is reported with its
path in the file (``expect.players[1].hand``), which the CLI turns into file:line:col.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.gf.arrange import _CARD_ID, arrange
from boneyard.engine.gf.constants import (
    ATTACK,
    CHAIN,
    EATER_OF,
    FOOD_NAMES,
    MAIN,
    OVER,
    PASS,
    PHASE_NAMES,
    WINDOW,
)
from boneyard.engine.gf.effects import apply
from boneyard.engine.gf.game import FeastGame
from boneyard.engine.gf.moves import legal_moves, main_moves
from boneyard.engine.gf.narration import describe
from boneyard.engine.gf.state import FeastState
from boneyard.engine.gf.turn import start_turn

from boneyard.errors import RulesError, ScenarioError

EVERYONE_PASSES = "everyone else passes"
_STEP = re.compile(r"\s*P(\d+)\s*:\s*(.+?)\s*$")


def _text(s: FeastState, a: int) -> str:
    return _CARD_ID.sub("", describe(s, a))


class _Run:
    """One scenario being played: the state, the printed steps and the failed facts."""

    def __init__(self, data: Mapping[str, Any], card_set: CardSet, where: str) -> None:
        self.where = where
        self.data = data
        self.failed: list[str] = []
        self.steps: list[dict[str, Any]] = []
        self.warnings: list[str] = []
        self.s = self._build(card_set)

    # --- setup --------------------------------------------------------------------------------
    def _error(self, path: str, message: str) -> ScenarioError:
        return ScenarioError(f"{self.where}: {path}: {message}")

    def _build(self, card_set: CardSet) -> FeastState:
        d = self.data
        players = d["players"]
        options: dict[str, Any] = {**d.get("params", {}), **d.get("switches", {})}
        if d.get("phrases"):
            options["phrase_error_rate"] = 1.0  # every phrase is decided by the script
        try:
            game = FeastGame(card_set, num_players=len(players), **options)
        except RulesError as exc:
            key = "switches" if any(k in d.get("switches", {}) for k in str(exc).split("'")) \
                else "params"
            raise self._error(key, str(exc)) from None
        turn = int(d.get("turn", 1))
        if not 1 <= turn <= len(players):
            raise self._error("turn", f"seat {turn} does not play (1..{len(players)})")
        fams: list[list[str]] = []
        for i, p in enumerate(players):
            out = []
            for k, f in enumerate(p.get("families", [])):
                words = f.split()
                if not words or words[0] not in FOOD_NAMES or len(words) < 2:
                    raise self._error(f"players[{i}].families[{k}]",
                                      f"'{f}' is not a family (write e.g. 'brains 3 4 5 +zombie')")
                out.append(f)
            fams.append(out)
        try:
            s = arrange(game, hands=[p.get("hand", []) for p in players], families=fams,
                        mashes=[p.get("mash", []) for p in players],
                        scores=[int(p.get("score", 0)) for p in players],
                        discard=d.get("discard", []), draw=d.get("draw"),
                        turn_player=turn - 1, seed=int(d.get("seed", 0)))
        except RulesError as exc:
            raise self._error("players", str(exc).replace("arrange: ", "")) from None
        self._place_extra(s, players)
        self._warn_unreachable(s)
        s.scripted = [list(d.get("coins", [])), list(d.get("phrases", []))]
        if d.get("start", "main") == "turn":
            start_turn(s)
        else:
            s.phase = MAIN
        s._legal = None
        return s

    def _warn_unreachable(self, s: FeastState) -> None:
        """Positions the rules cannot reach are allowed (a designer may want one) but said."""
        g = s.g
        for p in range(s.n):
            for k, f in enumerate(s.fams[p]):
                at = f"players[{p}].families[{k}]"
                if any(g.kind[e] != EATER_OF[f[1]] for e in f[4]):
                    self.warnings.append(f"{at}: a {FOOD_NAMES[f[1]]} family fed by the wrong eater")
                if len(f[4]) > g.max_eaters:
                    self.warnings.append(f"{at}: {len(f[4])} eaters, the rules allow "
                                         f"{g.max_eaters} (max_eaters_per_family)")
                nums = [g.num[c] for c in f[5]]
                if len(set(nums)) != len(nums):
                    self.warnings.append(f"{at}: a number twice in one family")
                if len(nums) == 1 and not g.rares:
                    self.warnings.append(f"{at}: a one-card family (only the rares leave one)")
            if (s.dw[p] or s.locked or s.hidden) and not g.rares:
                self.warnings.append(f"players[{p}]: a rare's marker without the rares (params.rares)")
            if len(s.dw[p]) > 1:
                self.warnings.append(f"players[{p}].devil_wife: more than one Devil Wife")

    def _from_draw(self, s: FeastState, name: str, path: str) -> int:
        for i, c in enumerate(s.draw):
            if s.g.names[c] == name.strip():
                return s.draw.pop(i)
        raise self._error(path, f"no card '{name}' left in the deck")

    def _place_extra(self, s: FeastState, players: list[Mapping[str, Any]]) -> None:
        g = s.g
        for i, p in enumerate(players):
            if p.get("devil_wife"):
                s.dw[i] = [self._from_draw(s, "devil wife", f"players[{i}].devil_wife")]
            for k, name in enumerate(p.get("graveyard", [])):
                s.grave[i].append(self._from_draw(s, name, f"players[{i}].graveyard[{k}]"))
            for key in ("locked", "hidden", "confused"):
                for k, item in enumerate(p.get(key, [])):
                    name, turns = (item["card"], int(item.get("turns", 3))) \
                        if isinstance(item, Mapping) else (item, 3)
                    zone = list(s.hands[i])
                    if key == "confused":
                        zone += s.mash[i] + [e for f in s.fams[i] for e in f[4]] + s.dw[i]
                    taken = {c for q, c in s.locked if q == i} | {h[1] for h in s.hidden}
                    cards = [c for c in zone if g.names[c] == str(name).strip() and c not in taken]
                    if not cards:
                        where = "hand" if key != "confused" else "hand, mash, eaters or devil wife"
                        raise self._error(f"players[{i}].{key}[{k}]",
                                          f"no '{name}' in this player's {where} to mark {key}")
                    if key == "locked":
                        s.locked.append((i, cards[0]))
                    elif key == "hidden":
                        s.hidden.append([i, cards[0], turns])
                    else:
                        s.confused.append((i, cards[0]))
        for k, name in enumerate(self.data.get("removed", [])):
            s.removed.append(self._from_draw(s, name, f"removed[{k}]"))

    # --- playing ------------------------------------------------------------------------------
    def _legal(self) -> list[int]:
        s = self.s
        if s.phase == OVER:
            return []
        return main_moves(s, s.tp) if s.phase == MAIN else legal_moves(s)

    def _forced(self) -> list[str]:
        """Play the moves that are the only legal one, as the engine does; their texts."""
        s = self.s
        shown = []
        legal = self._legal()
        while len(legal) == 1:
            shown.append(f"P{s.current_player() + 1}: {_text(s, legal[0])}")
            apply(s, legal[0])
            legal = self._legal()
        s._legal = legal
        return shown

    def _find(self, text: str, path: str) -> int:
        s = self.s
        legal = self._legal()
        exact = _CARD_ID.search(text) is not None  # "blood 3#12": one copy, told apart
        texts = [describe(s, a) if exact else _text(s, a) for a in legal]
        hits = [a for a, t in zip(legal, texts, strict=True) if text in t]
        if len(hits) > 1:
            hits = [a for a, t in zip(legal, texts, strict=True) if t == text] or hits
        if len(hits) > 1 and not exact and len({_text(s, a) for a in hits}) == 1:
            hits = hits[:1]  # copies of one card: either will do (name one with its #id)
        if len(hits) != 1:
            options = "; ".join(describe(s, a) for a in legal) or "none (the game is over)"
            raise self._error(path, f"{len(hits)} legal moves match '{text}'; legal: {options}")
        return hits[0]

    def _apply(self, a: int, path: str) -> None:
        s = self.s
        try:
            apply(s, a)
        except RulesError as exc:
            raise self._error(path, str(exc)) from None

    def play(self) -> None:
        s = self.s
        try:
            first = self._forced()
        except RulesError as exc:
            raise self._error("players", str(exc)) from None
        if first:
            self.steps.append({"step": 0, "did": "setup", "forced": first})
        for k, step in enumerate(self.data.get("steps", [])):
            path = f"steps[{k}]"
            if isinstance(step, Mapping):
                self.check(step["expect"], f"{path}.expect")
                continue
            did: list[str] = []
            if step.strip() == EVERYONE_PASSES:
                # every answer asked for passes, until the position needs a real move again
                while s.phase in (WINDOW, CHAIN, ATTACK) and PASS in self._legal():
                    did.append(f"P{s.current_player() + 1}: pass")
                    self._apply(PASS, path)
                    self._forced_into(did, path)
            else:
                m = _STEP.match(step)
                if m is None:
                    raise self._error(path, f"'{step}' is not a step (write 'P1: <move>' or "
                                            f"'{EVERYONE_PASSES}')")
                seat = int(m.group(1))
                if s.phase == OVER:
                    raise self._error(path, "the game is over: no move is legal")
                if s.current_player() != seat - 1:
                    raise self._error(path, f"P{s.current_player() + 1} is to move, not P{seat}")
                a = self._find(m.group(2), path)
                did.append(f"P{seat}: {describe(s, a)}")
                self._apply(a, path)
                self._forced_into(did, path)
            self.steps.append({"step": k + 1, "did": did[0] if did else "nothing to pass",
                               "forced": did[1:]})
        s._legal = None

    def _forced_into(self, did: list[str], path: str) -> None:
        try:
            did.extend(self._forced())
        except RulesError as exc:
            raise self._error(path, str(exc)) from None

    # --- the position and the facts -----------------------------------------------------------
    def position(self) -> dict[str, Any]:
        s = self.s
        g = s.g
        names = g.names

        def fam(f: Any) -> str:
            nums = " ".join(str(g.num[c]) for c in f[5])
            return f"{FOOD_NAMES[f[1]]} {nums}" + "".join(f" +{names[e]}" for e in f[4])

        winner = None
        if s.phase == OVER and s.result is not None and max(s.result) == 1.0:
            winner = s.result.index(1.0) + 1
        return {
            "turn": s.tp + 1,
            "phase": PHASE_NAMES[s.phase],
            "to_move": None if s.phase == OVER else s.current_player() + 1,
            "winner": winner,
            "players": [{
                "hand": sorted(names[c] for c in s.hands[p]),
                "families": [fam(f) for f in s.fams[p]],
                "mash": sorted(names[c] for c in s.mash[p]),
                "devil_wife": bool(s.dw[p]),
                "graveyard": len(s.grave[p]),
                "score": s.score[p],
                "locked": sorted(names[c] for q, c in s.locked if q == p),
                "hidden": sorted(names[h[1]] for h in s.hidden if h[0] == p),
                "confused": sorted(names[c] for q, c in s.confused if q == p),
            } for p in range(s.n)],
            "discard": [names[c] for c in s.discard],
            "removed": [names[c] for c in s.removed],
            "draw_pile": len(s.draw),
            "draw_top": [names[c] for c in s.draw[::-1][:5]],
            "coins": [e[2] for e in s.log if e[0] == "coin"],
            "events": [" ".join(str(x) for x in e) for e in s.log],
        }

    def check(self, expect: Mapping[str, Any], path: str) -> None:
        pos = self.position()
        for key, want in expect.items():
            where = f"{path}.{key}"
            if key in ("legal", "illegal"):
                self._check_moves(key, want, where)
            elif key == "view":
                seat = int(want.get("player", 1))
                view = self.s.observation(seat - 1).to_json()
                for k, v in want.items():
                    if k != "player":
                        self._match(view.get(k), v, f"{where}.{k}")
            elif key == "players":
                for i, pw in enumerate(want):
                    if i >= len(pos["players"]):
                        self.failed.append(f"{self.where}: {where}[{i}]: no such player")
                        continue
                    for k, v in pw.items():
                        self._match(pos["players"][i].get(k), v, f"{where}[{i}].{k}")
            elif key in pos:
                self._match(pos[key], want, where)
            else:
                self.failed.append(f"{self.where}: {where}: no such fact (known: "
                                   f"{', '.join([*pos, 'legal', 'illegal', 'view'])})")

    def _check_moves(self, key: str, want: Any, where: str) -> None:
        s = self.s
        texts = [_text(s, a) for a in self._legal()] + [describe(s, a) for a in self._legal()]
        for i, t in enumerate(want):
            found = any(t in x for x in texts)
            if found != (key == "legal"):
                options = "; ".join(_text(s, a) for a in self._legal()) or "none"
                self.failed.append(
                    f"{self.where}: {where}[{i}]: '{t}' is {'not ' if key == 'legal' else ''}"
                    f"a legal move of P{s.current_player() + 1} (legal: {options})")

    def _match(self, got: Any, want: Any, where: str) -> None:
        if isinstance(want, Mapping):  # matchers
            for op, v in want.items():
                ok = True
                if op == "contains":
                    ok = _contains(got, v)
                elif op == "absent":
                    ok = not any(x in _items(got) for x in v)
                elif op in ("at_least", "at_most"):
                    n = len(got) if isinstance(got, list) else got
                    ok = isinstance(n, int) and (n >= v if op == "at_least" else n <= v)
                if not ok:
                    self.failed.append(f"{self.where}: {where}: expected {op} {v!r}, got {got!r}")
            return
        if isinstance(got, list) and isinstance(want, list) and where.split(".")[-1] in (
                "hand", "mash", "locked", "hidden", "confused"):
            got, want = sorted(got), sorted(want)  # zones without an order: multisets
        if got != want:
            self.failed.append(f"{self.where}: {where}: expected {want!r}, got {got!r}")


def _items(got: Any) -> list[Any]:
    return got if isinstance(got, list) else [got]


def _contains(got: Any, want: list[Any]) -> bool:
    rest = list(_items(got))
    for x in want:
        if x not in rest:
            return False
        rest.remove(x)
    return True


def run(data: Mapping[str, Any], card_set: CardSet | None, where: str) -> tuple[dict[str, Any], list[str]]:
    """The ``scenario`` runner of the Grave Feast spec: (the printed result, failed facts)."""
    if card_set is None:
        raise ScenarioError(f"{where}: set: a Grave Feast scenario plays a set's cards")
    r = _Run(data, card_set, where)
    r.play()
    if "expect" in data:
        r.check(data["expect"], "expect")
    out: dict[str, Any] = {"steps": r.steps, "state": r.position()}
    if r.warnings:
        out["warnings"] = [f"{where}: {w} (a position the rules cannot reach)" for w in r.warnings]
    return out, r.failed
