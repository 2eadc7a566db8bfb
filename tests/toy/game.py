"""A tiny hidden-information card game for testing the shared machinery without a real engine.

"Prize duel": a deck of numbered cards is shuffled; each player holds a few hidden cards. Each
round a prize card is turned face up and every player commits one card face down (in seat order,
choices hidden until all have chosen); the single highest card takes the prize's value, a tie for
highest takes nothing. Then everyone draws a card. After the last round the highest score wins.
It has what the agents and simulator must cope with: hidden hands, a hidden deck order, hidden
simultaneous choices, chance from the state's own seeded RNG, 2 or more players, and a
``determinize`` that samples only from what a player can know.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from boneyard.engine.cards import CardSet, freeze
from boneyard.engine.core import TERMINAL

from boneyard.errors import RulesError


@dataclass(frozen=True, slots=True)
class PrizeCard:
    """One kind of numbered card (``copies`` of it in the deck)."""

    id: str
    name: str
    value: int
    copies: int = 1
    flavor: str | None = None


@dataclass(frozen=True, slots=True)
class ToyCardSet(CardSet):
    """A Prize duel set: the generic card set plus the game's own cards."""

    prizes: tuple[PrizeCard, ...] = ()


def numbered_set(top: int = 9, copies: int = 2) -> ToyCardSet:
    """A set built in code: cards 1..top, ``copies`` of each."""
    prizes = tuple(PrizeCard(f"c{v}", f"Card {v}", v, copies) for v in range(1, top + 1))
    return ToyCardSet(name="Toy", slug="toy", rules="toy", params=freeze({}), switches=freeze({}),
                      content_hash="toy0", prizes=prizes)


TOY_SET = numbered_set()


@dataclass(frozen=True, slots=True)
class ToySummary:
    """A finished Prize duel: the facts every game reports (engine/core.py Summary)."""

    winner: int | None
    draw: bool
    scores: tuple[int, ...]
    first_player: int
    turns: int
    played: tuple[tuple[str, ...], ...]

    def to_json(self) -> dict[str, Any]:
        return {"scores": list(self.scores), "first_player": self.first_player,
                "turns": self.turns, "winner": self.winner}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ToySummary:
        return cls(data["winner"], data["winner"] is None, tuple(data["scores"]),
                   data["first_player"], data["turns"], tuple(() for _ in data["scores"]))


class ToyGame:
    def __init__(self, card_set: CardSet | None = None, num_players: int = 2,
                 rounds: int | None = None, hand: int | None = None, top: int | None = None,
                 copies: int | None = None) -> None:
        if card_set is None or top is not None or copies is not None:
            card_set = numbered_set(top or 9, copies or 2)
        assert isinstance(card_set, ToyCardSet)
        self.card_set = card_set
        self.num_players = num_players
        self.rounds = rounds if rounds is not None else int(card_set.params.get("rounds", 4))
        self.hand = hand if hand is not None else int(card_set.params.get("hand", 3))
        self.full = sorted(c.value for c in card_set.prizes for _ in range(c.copies))

    def new_initial_state(self, seed: int) -> ToyState:
        rng = random.Random(seed)
        deck = list(self.full)
        rng.shuffle(deck)
        hands = [sorted(deck.pop() for _ in range(self.hand)) for _ in range(self.num_players)]
        s = ToyState(self, rng, hands, deck)
        s.prize = deck.pop()
        s.events.append(f"round 1: prize {s.prize}")
        return s

    def make_greedy(self) -> ToyGreedy:
        return ToyGreedy()


class ToyState:
    __slots__ = ("game", "rng", "hands", "deck", "prize", "committed", "round", "scores",
                 "history", "current", "events")

    def __init__(self, game: ToyGame, rng: random.Random, hands: list[list[int]],
                 deck: list[int]) -> None:
        self.game = game
        self.rng = rng
        self.hands = hands
        self.deck = deck
        self.prize = 0
        self.committed: list[int | None] = [None] * game.num_players
        self.round = 0
        self.scores = [0] * game.num_players
        self.history: list[tuple[tuple[int, ...], int, int]] = []
        self.current = 0
        self.events: list[str] = []

    def current_player(self) -> int:
        return self.current

    def is_terminal(self) -> bool:
        return self.current == TERMINAL

    def legal_actions(self) -> list[int]:
        if self.current == TERMINAL:
            return []
        return sorted(set(self.hands[self.current]))

    def apply_action(self, action: int) -> None:
        p = self.current
        if p == TERMINAL or action not in self.hands[p]:
            raise RulesError(f"illegal action {action}")
        self.hands[p].remove(action)
        self.committed[p] = action
        n = self.game.num_players
        if p + 1 < n:
            self.current = p + 1
            return
        plays = tuple(int(c) for c in self.committed if c is not None)
        best = max(plays)
        winners = [i for i, c in enumerate(plays) if c == best]
        winner = winners[0] if len(winners) == 1 else -1
        if winner >= 0:
            self.scores[winner] += self.prize
        self.history.append((plays, self.prize, winner))
        self.events.append(f"plays {list(plays)}: " + (f"player {winner} takes {self.prize}" if winner >= 0 else "tie"))
        self.committed = [None] * n
        self.round += 1
        for hand in self.hands:
            if self.deck:
                hand.append(self.deck.pop())
                hand.sort()
        if self.round >= self.game.rounds or not self.deck or not all(self.hands):
            self.current = TERMINAL
            return
        self.prize = self.deck.pop()
        self.events.append(f"round {self.round + 1}: prize {self.prize}")
        self.current = 0

    def returns(self) -> list[float]:
        best = max(self.scores)
        top = [i for i, s in enumerate(self.scores) if s == best]
        return [1.0 / len(top) if i in top else 0.0 for i in range(self.game.num_players)]

    def clone(self) -> ToyState:
        c = ToyState.__new__(ToyState)
        c.game = self.game
        c.rng = random.Random()
        c.rng.setstate(self.rng.getstate())
        c.hands = [list(h) for h in self.hands]
        c.deck = list(self.deck)
        c.prize = self.prize
        c.committed = list(self.committed)
        c.round = self.round
        c.scores = list(self.scores)
        c.history = list(self.history)
        c.current = self.current
        c.events = list(self.events)
        return c

    def observation(self, player: int) -> ToyObservation:
        return ToyObservation(self, player)

    def action_to_string(self, action: int) -> str:
        return f"play {action}"

    def summary(self) -> ToySummary:
        r = self.returns()
        winner = r.index(1.0) if 1.0 in r else None
        return ToySummary(winner, winner is None, tuple(self.scores), 0, self.round,
                          tuple(() for _ in self.scores))


class ToyObservation:
    """What one player may know: own hand, the prize, past plays, scores, counts of hidden cards."""

    def __init__(self, state: ToyState, player: int) -> None:
        self.player = player
        self._game = state.game
        self._hand = list(state.hands[player])
        self._own_commit = state.committed[player]
        self._committed = [c is not None for c in state.committed]
        self._hand_sizes = [len(h) for h in state.hands]
        self._deck_size = len(state.deck)
        self._prize = state.prize
        self._round = state.round
        self._scores = list(state.scores)
        self._history = list(state.history)
        self._current = state.current

    def legal_actions(self) -> list[int]:
        return sorted(set(self._hand)) if self._current == self.player else []

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "hand": self._hand, "own_commit": self._own_commit,
                "committed": self._committed, "hand_sizes": self._hand_sizes,
                "deck_size": self._deck_size, "prize": self._prize, "round": self._round,
                "scores": self._scores, "history": [list(h[0]) + [h[1], h[2]] for h in self._history],
                "current": self._current}

    def determinize(self, rng: random.Random) -> ToyState:
        pool = list(self._game.full)
        known = list(self._hand) + [self._prize]
        if self._own_commit is not None:
            known.append(self._own_commit)
        for plays, prize, _ in self._history:
            known.extend(plays)
            known.append(prize)
        for c in known:
            pool.remove(c)
        rng.shuffle(pool)
        n = self._game.num_players
        hands: list[list[int]] = []
        for p in range(n):
            if p == self.player:
                hands.append(list(self._hand))
            else:
                hands.append(sorted(pool.pop() for _ in range(self._hand_sizes[p])))
        committed: list[int | None] = [None] * n
        for p in range(n):
            if p == self.player:
                committed[p] = self._own_commit
            elif self._committed[p]:
                committed[p] = pool.pop()
        s = ToyState(self._game, random.Random(rng.getrandbits(64)), hands, pool)
        assert len(pool) == self._deck_size
        s.prize = self._prize
        s.committed = committed
        s.round = self._round
        s.scores = list(self._scores)
        s.history = list(self._history)
        s.current = self._current
        return s


class ToyGreedy:
    """Plays its highest card for a big prize and its lowest otherwise."""

    name = "greedy"

    def choose(self, obs: ToyObservation, rng: random.Random) -> int:
        acts = obs.legal_actions()
        return acts[-1] if obs.to_json()["prize"] >= 5 else acts[0]
