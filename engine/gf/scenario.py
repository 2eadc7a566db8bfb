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
that led to them, so the printed log reads like the game; a step may list one all the same.
``blood 9#2`` names the second copy of a face, in the position, the steps and the facts;
``start: deal`` takes the deal and the first player from ``seed``. Facts are exact values or
matchers (engine/expect.py), ``sees`` checks one player's observation, ``events`` the narrated
log. Every failed fact is reported with its path in the file (``expect.players[1].hand``), which
the CLI turns into file:line:col. Format: docs/scenarios.md.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.expect import match
from boneyard.engine.gf.arrange import _CARD_ID, arrange
from boneyard.engine.gf.board import controls
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
from boneyard.engine.gf.rules import FeastRules
from boneyard.engine.gf.state import FeastState
from boneyard.engine.gf.turn import start_turn

from boneyard.errors import RulesError, ScenarioError, excerpt

EVERYONE_PASSES = "everyone else passes"
_STEP = re.compile(r"\s*P(\d+)\s*:\s*(.+?)\s*$")


def _text(s: FeastState, a: int) -> str:
    return _CARD_ID.sub("", describe(s, a))


def copy_numbers(g: FeastRules) -> list[int]:
    """Each card's copy number among the cards of its face (``blood 9#2``: the second)."""
    seen: dict[str, int] = {}
    out = []
    for c in range(g.size):
        seen[g.names[c]] = seen.get(g.names[c], 0) + 1
        out.append(seen[g.names[c]])
    return [k if seen[g.names[c]] > 1 else 0 for c, k in enumerate(out)]  # 0: the only copy


def _names(g: FeastRules, numbers: list[int], c: int, name: object) -> bool:
    """Whether ``name`` (``blood 9``, or one copy: ``blood 9#2``) names card ``c``."""
    face, _, nth = str(name).strip().partition("#")
    if g.names[c] != face.strip():
        return False
    return not nth or nth.strip() == str(numbers[c] or 1)


def _shown(text: str, numbers: list[int]) -> str:
    """An engine text with each card's id (``#16``) as its copy number (``#2``)."""
    return _ID.sub(lambda m: f"#{numbers[int(m.group(1))]}" if numbers[int(m.group(1))] else "",
                   text)


_ID = re.compile(r"(?<=\w)#(\d+)")


def _refused_at(game: FeastGame, players: list[Mapping[str, Any]], fams: list[list[str]],
                d: Mapping[str, Any]) -> str | None:
    """The path of the card that ``arrange`` refused: its placements replayed in its order
    (hands, families' eaters then numbers, mashes, discard, draw), so a card written once too
    often is located where it runs out, and a card inside a family string at that family."""
    places: list[tuple[str, str]] = []
    for i, p in enumerate(players):
        places += [(f"players[{i}].hand[{k}]", str(x)) for k, x in enumerate(p.get("hand", []))]
    for i, fs in enumerate(fams):
        for k, f in enumerate(fs):
            words = f.split()
            cards = [w[1:] for w in words[1:] if w.startswith("+")]
            cards += [f"{words[0]} {w}" for w in words[1:] if not w.startswith("+")]
            places += [(f"players[{i}].families[{k}]", c) for c in cards]
    for i, p in enumerate(players):
        places += [(f"players[{i}].mash[{k}]", str(x)) for k, x in enumerate(p.get("mash", []))]
    places += [(f"discard[{k}]", str(x)) for k, x in enumerate(d.get("discard", []))]
    places += [(f"draw[{k}]", str(x)) for k, x in enumerate(d.get("draw") or [])]
    every: dict[str, list[int]] = {}
    for c in range(game.size):
        every.setdefault(game.names[c], []).append(c)
    pool = {k: v[:] for k, v in every.items()}
    for path, name in places:
        face, _, nth = name.strip().partition("#")
        ids = pool.get(face.strip())
        if nth:
            copies = every.get(face.strip(), [])
            if not nth.isdigit() or not 1 <= int(nth) <= len(copies):
                return path
            if ids is None or copies[int(nth) - 1] not in ids:
                return path
            ids.remove(copies[int(nth) - 1])
        elif not ids:
            return path
        else:
            ids.pop(0)
    return None


class _Run:
    """One scenario being played: the state, the printed steps and the failed facts."""

    def __init__(self, data: Mapping[str, Any], card_set: CardSet, where: str) -> None:
        self.where = where
        self.data = data
        self.failed: list[str] = []
        self.steps: list[dict[str, Any]] = []
        self.warnings: list[str] = []
        self.events: list[str] = []  # the narrated log: moves and what they set off
        self.logged = 0  # entries of the engine's log already narrated
        self.pending: list[str] = []  # moves the engine made alone since the last listed one
        self.s = self._build(card_set)
        self.numbers = copy_numbers(self.s.g)

    # --- setup --------------------------------------------------------------------------------
    def _error(self, path: str, message: str) -> ScenarioError:
        return ScenarioError(f"{self.where}: {path}: {message}")

    def _build(self, card_set: CardSet) -> FeastState:
        d = self.data
        players = d["players"]
        if isinstance(players, int):
            if d.get("start") != "deal":
                raise self._error("players", "a number of players needs start: deal (the cards "
                                             "are then dealt from the seed); else list each player")
            players = [{} for _ in range(players)]
        options: dict[str, Any] = {**d.get("params", {}), **d.get("switches", {})}
        if d.get("phrases"):
            options["phrase_error_rate"] = 1.0  # every phrase is decided by the script
        try:
            game = FeastGame(card_set, num_players=len(players), **options)
        except RulesError as exc:
            named = re.findall(r"\w+", str(exc))  # located at the key the message names
            key = next((f"{part}.{k}" for part in ("switches", "params")
                        for k in named if k in d.get(part, {})), "params")
            raise self._error(key, str(exc)) from None
        turn = int(d.get("turn", 1))
        if not 1 <= turn <= len(players):
            raise self._error("turn", f"seat {turn} does not play (1..{len(players)})")
        if d.get("start") == "deal":
            return self._deal(game)
        self._check_scores(game, players)
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
            # located at the card it names (cmd_scenario), else at players
            msg = str(exc).replace("arrange: ", "")
            at = _refused_at(game, players, fams, d) if "card '" in msg else None
            raise (self._error(at, msg) if at else ScenarioError(f"{self.where}: {msg}")
                   if "card '" in msg else self._error("players", msg)) from None
        self._place_extra(s, players)
        self._warn_unreachable(s)
        s.scripted = [list(d.get("coins", [])), list(d.get("phrases", []))]
        if d.get("start", "main") == "turn":
            start_turn(s)
        else:
            s.phase = MAIN
        s._legal = None
        return s

    def _deal(self, game: FeastGame) -> FeastState:
        """The setup as the rules do it: shuffled and dealt from ``seed``, the first player drawn,
        that player's turn begun; only the coins and phrases may be scripted."""
        d = self.data
        for key in ("discard", "draw", "removed", "turn"):
            if key in d:
                raise self._error(key, "start: deal deals every card from the seed; to script "
                                       "the deal, list each player's hand (and turn) instead")
        players = d["players"]
        for i, p in enumerate(players if isinstance(players, list) else []):
            if p:
                raise self._error(f"players[{i}]", "start: deal deals every card from the seed; "
                                                   "leave the players empty ({}) or give a number")
        s = game.new_initial_state(int(d.get("seed", 0)))
        hand = game.hand_size
        if any(len(h) < hand for h in s.hands):  # validate refuses it in game.yaml, so here too
            total = sum(len(h) for h in s.hands) + len(s.draw)
            raise self._error("params.hand_size" if "hand_size" in d.get("params", {})
                              else "players", f"{total} cards cannot deal {hand} to each of "
                              f"{s.n} players (add cards, "
                              + ("use two decks with params.decks: 2, " if game.decks == 1 else "")
                              + "or lower params.hand_size)")
        s.scripted = [list(d.get("coins", [])), list(d.get("phrases", []))]
        return s

    def _check_scores(self, game: FeastGame, players: list[Mapping[str, Any]]) -> None:
        """A score below 0 where no rule takes points away (only the rares' spiritual
        explosion does, GF-27): not a position but a slip, refused at the score."""
        if game.rares:
            return
        for i, p in enumerate(players):
            score = p.get("score", 0)
            if isinstance(score, int) and score < 0:
                raise self._error(f"players[{i}].score", f"{score} is below 0, which no game "
                                  "without the rares reaches: only their spiritual explosion "
                                  "lowers a score (GF-27) (write 0 or more, or turn the rares on "
                                  "with params.rares: true)")

    def _warn_unreachable(self, s: FeastState) -> None:
        """Positions the rules cannot reach are allowed (a designer may want one) but said."""
        g = s.g
        for p in range(s.n):
            if s.score[p] >= g.win_score:
                self.warnings.append(f"players[{p}].score: {s.score[p]} is at or above win_score "
                                     f"{g.win_score}, which wins at once (GF-15), so this game "
                                     "would be over; it is played on, and the player wins at "
                                     f"their next feast (write at most {g.win_score - 1}, or "
                                     "raise params.win_score)")
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

    def _from_draw(self, s: FeastState, numbers: list[int], name: str, path: str) -> int:
        for i, c in enumerate(s.draw):
            if _names(s.g, numbers, c, name):
                return s.draw.pop(i)
        raise self._error(path, f"no card '{name}' left in the deck")

    def _place_extra(self, s: FeastState, players: list[Mapping[str, Any]]) -> None:
        g = s.g
        numbers = copy_numbers(g)
        for i, p in enumerate(players):
            if p.get("devil_wife"):
                s.dw[i] = [self._from_draw(s, numbers, "devil wife", f"players[{i}].devil_wife")]
            for k, name in enumerate(p.get("graveyard", [])):
                s.grave[i].append(self._from_draw(s, numbers, name, f"players[{i}].graveyard[{k}]"))
            for key in ("locked", "hidden", "confused"):
                for k, item in enumerate(p.get(key, [])):
                    name, turns = (item["card"], int(item.get("turns", 3))) \
                        if isinstance(item, Mapping) else (item, 3)
                    zone = list(s.hands[i])
                    if key == "confused":
                        zone += s.mash[i] + [e for f in s.fams[i] for e in f[4]] + s.dw[i]
                    taken = {c for q, c in s.locked if q == i} | {h[1] for h in s.hidden}
                    cards = [c for c in zone if _names(g, numbers, c, name) and c not in taken]
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
            s.removed.append(self._from_draw(s, numbers, name, f"removed[{k}]"))

    # --- playing ------------------------------------------------------------------------------
    def _legal(self) -> list[int]:
        s = self.s
        if s.phase == OVER:
            return []
        return main_moves(s, s.tp) if s.phase == MAIN else legal_moves(s)

    def show(self, a: int) -> str:
        """A move as the scenario prints it: copies by their copy number (``blood 9#2``)."""
        return _shown(describe(self.s, a), self.numbers)

    def _did(self, seat: int, a: int, path: str) -> str:
        """Apply ``a`` for ``seat``; the move and what it set off go to the event log."""
        s = self.s
        text = f"P{seat + 1}: {self.show(a)}"
        self.events.append(text)
        try:
            apply(s, a)
        except RulesError as exc:
            raise self._error(path, str(exc)) from None
        self._narrate()
        return text

    def _narrate(self) -> None:
        log = self.s.log
        self.events += [event_text(self.s, e) for e in log[self.logged:]]
        self.logged = len(log)

    def _forced(self, path: str) -> list[str]:
        """Play the moves that are the only legal one, as the engine does; their texts."""
        s = self.s
        shown = []
        legal = self._legal()
        while len(legal) == 1:
            shown.append(self._did(s.current_player(), legal[0], path))
            legal = self._legal()
        s._legal = legal
        self.pending += shown
        return shown

    def _find(self, text: str, path: str) -> int:
        s = self.s
        legal = self._legal()
        exact = _CARD_ID.search(text) is not None  # "blood 9#2": one copy, told apart
        texts = [self.show(a) if exact else _text(s, a) for a in legal]
        hits = [a for a, t in zip(legal, texts, strict=True) if text in t]
        if len(hits) > 1:
            hits = [a for a, t in zip(legal, texts, strict=True) if t == text] or hits
        if len(hits) > 1 and not exact and len({_text(s, a) for a in hits}) == 1:
            hits = hits[:1]  # copies of one card: either will do (name one with its #number)
        if len(hits) != 1:
            options = "; ".join(self.show(a) for a in legal) or "none (the game is over)"
            raise self._error(path, f"{len(hits)} legal moves match '{excerpt(text)}'; legal: "
                                    f"{options}")
        return hits[0]

    def _matches_now(self, seat: int, move: str) -> bool:
        s = self.s
        if s.phase == OVER or s.current_player() != seat - 1:
            return False
        return any(move in self.show(a) or move in _text(s, a) for a in self._legal())

    def _only_option(self, seat: int, move: str) -> str | None:
        """A listed move the engine already made as the only legal one (it may be listed)."""
        for i, done in enumerate(self.pending):
            head, _, rest = done.partition(": ")
            plain = _CARD_ID.sub("", rest)
            if head == f"P{seat}" and (move in rest or move in plain):
                del self.pending[: i + 1]
                return done
        return None

    def play(self) -> None:
        s = self.s
        self._narrate()
        first = self._forced("players")
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
                self.pending = []
                while s.phase in (WINDOW, CHAIN, ATTACK) and PASS in self._legal():
                    did.append(self._did(s.current_player(), PASS, path))
                    did.extend(self._forced(path))
            else:
                m = _STEP.match(step)
                if m is None:
                    raise self._error(path, f"'{excerpt(step)}' is not a step (write 'P1: <move>' or "
                                            f"'{EVERYONE_PASSES}')")
                seat = int(m.group(1))
                # a move the engine made alone may be listed; a move legal now comes first
                done = None if self._matches_now(seat, m.group(2)) else \
                    self._only_option(seat, m.group(2))
                if done is not None:
                    self.steps.append({"step": k + 1, "did": done, "only_option": True})
                    continue
                if s.phase == OVER:
                    raise self._error(path, "the game is over: no move is legal")
                if s.current_player() != seat - 1:
                    options = "; ".join(self.show(a) for a in self._legal())
                    raise self._error(path, f"P{s.current_player() + 1} is to move, not P{seat} "
                                            f"(legal: {options})")
                a = self._find(m.group(2), path)
                self.pending = []  # a listed move: the engine's own moves before it are past
                did.append(self._did(seat - 1, a, path))
                did.extend(self._forced(path))
            self.steps.append({"step": k + 1, "did": did[0] if did else "nothing to pass",
                               "forced": did[1:]})
        s._legal = None

    # --- the position and the facts -----------------------------------------------------------
    def unused_script(self) -> None:
        """Scripted coins or phrases the game never asked for: the scenario expected a flip or
        a phrase that did not happen, so what it checks is not what it meant to."""
        scripted = self.s.scripted or [[], []]
        for key, left, what in (("coins", scripted[0], "coin flip"),
                                ("phrases", scripted[1], "phrase")):
            if left:
                given = len(self.data.get(key, []))
                self.failed.append(f"{self.where}: {key}: {len(left)} of the {given} scripted "
                                   f"{what}s never happened ({', '.join(map(str, left))} left): "
                                   f"the game asked for {given - len(left)} (remove them, or "
                                   "check the steps reach what they were for)")

    def position(self, exact: bool = False) -> dict[str, Any]:
        """The position as printed; ``exact`` names each card with its copy number, which an
        expectation naming a copy (``blood 9#2``) is compared with."""
        s = self.s
        g = s.g
        names = [f"{g.names[c]}#{k}" if k else g.names[c] for c, k in enumerate(self.numbers)] \
            if exact else g.names

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
                "confused": sorted(names[c] for _q, c in s.confused if controls(s, p, c)),
            } for p in range(s.n)],
            "discard": [names[c] for c in s.discard],
            "removed": [names[c] for c in s.removed],
            "draw_pile": len(s.draw),
            "draw_top": [names[c] for c in s.draw[::-1][:5]],
            "coins": [e[2] for e in s.log if e[0] == "coin"],
            "events": list(self.events),
            # the moves of the player to move, as a step names them (what to write next)
            "legal": [] if s.phase == OVER else [self.show(a) for a in self._legal()],
        }

    def check(self, expect: Mapping[str, Any], path: str) -> None:
        pos = self.position(exact=True)
        for key, want in expect.items():
            where = f"{path}.{key}"
            if key in ("legal", "illegal"):
                self._check_moves(key, want, where)
            elif key in ("sees", "view"):  # (view: the first name of sees)
                seat = int(want.get("player", 1))
                if not 1 <= seat <= self.s.n:
                    self.failed.append(f"{self.where}: {where}.player: P{seat} does not play "
                                       f"(seats P1..P{self.s.n})")
                    continue
                view = self.s.observation(seat - 1).to_json()
                for k, v in want.items():
                    if k == "player":
                        continue
                    if k not in view:
                        self.failed.append(f"{self.where}: {where}.{k}: P{seat} sees no '{k}' "
                                           f"(known: {', '.join(view)})")
                    else:
                        self._match(view[k], v, f"{where}.{k}")
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
                                   f"{', '.join(dict.fromkeys([*pos, 'illegal', 'view']))})")

    def _check_moves(self, key: str, want: Any, where: str) -> None:
        s = self.s
        if isinstance(want, Mapping):  # {player: 2, moves: [...]}: that player is to move
            seat = int(want["player"])
            mover = None if s.phase == OVER else s.current_player() + 1
            if mover != seat:
                self.failed.append(f"{self.where}: {where}.player: P{seat} has no move now "
                                   f"({'the game is over' if mover is None else f'P{mover} is to move'})")
                return
            want, where = want.get("moves", []), f"{where}.moves"
        texts = [_text(s, a) for a in self._legal()] + [self.show(a) for a in self._legal()]
        for i, t in enumerate(want):
            found = any(t in x for x in texts)
            if found != (key == "legal"):
                options = "; ".join(self.show(a) for a in self._legal()) or "none"
                self.failed.append(
                    f"{self.where}: {where}[{i}]: '{excerpt(t)}' is {'not ' if key == 'legal' else ''}"
                    f"a legal move of P{s.current_player() + 1} (legal: {options})")

    def _match(self, got: Any, want: Any, where: str) -> None:
        key = where.split(".")[-1]
        self.failed += [f"{self.where}: {m}" for m in match(
            got, want, where, whole=True, text=key == "events",
            unordered=key in ("hand", "mash", "locked", "hidden", "confused"))]


_WHO = {"coin": "", "flub": "P{} flubs the {} phrase", "race_lost": "P{} loses the race to announce",
        "announce": "P{} announces {} cards to the graveyard",
        "steal_mash": "P{} steals the monster mash of P{}",
        "steal": "P{} steals a family from P{} ({} cards)",
        "dw_pick": "the devil wife of P{} picks a card blindly from the hand of P{}",
        "dw_killed_by_preacher": "the devil wife of P{} takes a preacher and dies",
        "dw_takes_from_hand": "the devil wife of P{} takes a card from the hand of P{}",
        "exorcist": "P{} plays the exorcist: every visible monster explodes",
        "explosion": "explosion: the devil wife of P{} took the exorcist from the hand of P{}",
        "feast": "P{} feasts: {} cards to the graveyard",
        "exorcist_suicide": "the exorcist in the monster mash of P{} loathes himself and leaves play"}


def event_text(s: FeastState, e: tuple[Any, ...]) -> str:
    """One entry of the engine's log in words (seats from 1, cards by name)."""
    kind, args = e[0], e[1:]
    if kind == "coin":
        return f"coin ({args[0]}): {args[1]}"
    if kind == "kill":
        return f"{s.g.names[args[0]]} explodes"
    if kind == "reshuffle":
        return f"the discard pile ({args[0]} cards) is shuffled into the draw pile"
    form = _WHO.get(kind)
    if not form:
        return " ".join(str(x) for x in e)
    seats = [x + 1 if isinstance(x, int) and i < form.count("P{}") else x
             for i, x in enumerate(args)]
    return form.format(*seats)


def run(data: Mapping[str, Any], card_set: CardSet | None, where: str) -> tuple[dict[str, Any], list[str]]:
    """The ``scenario`` runner of the Grave Feast spec: (the printed result, failed facts)."""
    if card_set is None:
        raise ScenarioError(f"{where}: set: a Grave Feast scenario plays a set's cards")
    r = _Run(data, card_set, where)
    try:
        r.play()
        if "expect" in data:
            r.check(data["expect"], "expect")
        r.unused_script()
    except ScenarioError as exc:  # the position's warning is likely why a step fails: say both
        exc.warnings = tuple(_said(where, r.warnings))
        exc.failed = tuple(r.failed)  # an expectation that failed first says why the step did
        raise
    out: dict[str, Any] = {"steps": r.steps, "state": r.position()}
    if r.warnings:
        out["warnings"] = _said(where, r.warnings)
    return out, r.failed


def _said(where: str, warnings: list[str]) -> list[str]:
    """The position's warnings as printed, located by the caller from ``where``."""
    return [f"{where}: {w} (a position the rules cannot reach)" for w in warnings]
