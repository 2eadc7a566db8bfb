"""What one Grave Feast player may know (``FeastObservation``), and the position as plain data.

The observation is a view on the state, not a copy: agents read it within one decision.
``determinize`` samples a full state consistent with it (the search agents' worlds).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from boneyard.engine.gf.constants import DW_STEAL, FOOD_NAMES, OVER, PHASE_NAMES, Fam

if TYPE_CHECKING:
    from boneyard.engine.gf.game import FeastGame
    from boneyard.engine.gf.state import FeastState


def fam_json(s: FeastState, f: Fam) -> dict[str, Any]:
    g = s.g
    return {
        "id": f[0],
        "food": FOOD_NAMES[f[1]],
        "numbers": [g.num[c] for c in f[5]],
        "eaters": [g.names[e] for e in f[4]],
    }


def state_json(s: FeastState) -> dict[str, Any]:
    """The whole position as plain data (debugging, conformance checks)."""
    g = s.g
    return {
        "turn_player": s.tp,
        "turn": s.turn_no,
        "phase": PHASE_NAMES[s.phase],
        "current_player": s.current_player(),
        "scores": s.score[:],
        "hands": [[g.names[c] for c in h] for h in s.hands],
        "draw_pile": len(s.draw),
        "discard": [g.names[c] for c in s.discard],
        "families": [[fam_json(s, f) for f in fams] for fams in s.fams],
        "mashes": [[g.names[c] for c in m] for m in s.mash],
        "graveyards": [len(x) for x in s.grave],
        "devil_wives": [len(d) for d in s.dw],
        "removed": [g.names[c] for c in s.removed],
        "announced": s.announced[:],
        "chain": len(s.chain),
    }


class FeastObservation:
    """What one player may know: own hand, the board, piles' sizes, the public discard pile."""

    __slots__ = ("_s", "player")

    def __init__(self, state: FeastState, player: int) -> None:
        self._s = state
        self.player = player

    def legal_actions(self) -> list[int]:
        """The state's list when this player is to move (the same contract: read, never mutate)."""
        s = self._s
        if s.phase == OVER or s.current_player() != self.player:
            return []
        return s.legal_actions()

    def looking(self) -> bool:
        """True while this player's Devil Wife from the hand picks her takes: she "can look
        through their hands" (GF-25), so the other hands are part of what the player knows."""
        s = self._s
        return s.phase == DW_STEAL and s.actor == self.player

    def determinize(self, rng: random.Random) -> FeastState:
        """A full state: the other hands and the draw pile resampled from the unseen cards
        (the hands a looking Devil Wife sees are kept: only the draw pile is unseen then)."""
        s = self._s.clone()
        p = self.player
        pool = list(s.draw)
        sizes = []
        sighted = self.looking()
        for q in range(s.n):
            if q != p and not sighted:
                pool.extend(s.hands[q])
                sizes.append((q, len(s.hands[q])))
        # Canonical order first: the pool's order must not depend on where the hidden cards
        # really are, or the sample would leak them (the no-peeking test checks this).
        pool.sort()
        rnd = rng.random
        pool.sort(key=lambda _c: rnd())  # a uniform shuffle, cheaper than rng.shuffle
        for q, k in sizes:
            s.hands[q] = pool[:k]
            del pool[:k]
        s.draw = pool
        s._rng = None  # future chance is resampled too: a fresh seed, drawn lazily
        s._rng_seed = rng.getrandbits(64)
        s._rng_owned = True
        s._legal = None
        if s.g.rares:
            # hidden Exorcists and locked cards are public facts about a hand; keep them consistent
            s.hidden = [h for h in s.hidden if h[1] in s.hands[h[0]]]
            s.locked = [x for x in s.locked if x[1] in s.hands[x[0]]]
        return s

    # --- the view, for agents -----------------------------------------------------------------
    @property
    def game(self) -> FeastGame:
        return self._s.g

    @property
    def hand(self) -> list[int]:
        return self._s.hands[self.player][:]

    @property
    def families(self) -> list[list[Fam]]:
        return [f[:] for f in self._s.fams]

    @property
    def mashes(self) -> list[list[int]]:
        return [m[:] for m in self._s.mash]

    @property
    def devil_wives(self) -> list[list[int]]:
        """Each player's permanent Devil Wives (on the table for everyone to see)."""
        return [d[:] for d in self._s.dw]

    @property
    def scores(self) -> list[int]:
        return self._s.score[:]

    @property
    def phase(self) -> str:
        return PHASE_NAMES[self._s.phase]

    @property
    def announced(self) -> list[int]:
        return self._s.announced[:]

    @property
    def chain_target(self) -> int:
        return self._s.chain_target

    @property
    def chain(self) -> list[int]:
        """Players of the preacher chain so far (first = the preacher)."""
        return self._s.chain[:]

    @property
    def attack(self) -> tuple[int, int, int] | None:
        """A pending two-card attack on a rare: (kind attacked, its card, its owner)."""
        a = self._s.attack
        return None if a is None else (a[0], a[1], a[2])

    def eater_owner(self, e: int) -> int:
        s = self._s
        for p in range(s.n):
            if e in s.mash[p] or any(e in f[4] for f in s.fams[p]):
                return p
        return -1

    def to_json(self) -> dict[str, Any]:
        s = self._s
        g = s.g
        view: dict[str, Any] = {
            "player": self.player,
            "turn_player": s.tp,
            "turn": s.turn_no,
            "phase": PHASE_NAMES[s.phase],
            "scores": s.score[:],
            "hand": [g.names[c] for c in s.hands[self.player]],
            "hand_sizes": [len(h) for h in s.hands],
            "draw_pile": len(s.draw),
            "discard": [g.names[c] for c in s.discard],
            "families": [[fam_json(s, f) for f in fams] for fams in s.fams],
            "mashes": [[g.names[c] for c in m] for m in s.mash],
            "graveyards": [len(x) for x in s.grave],
            "devil_wives": [len(d) for d in s.dw],
            "announced": s.announced[:],
            "chain": len(s.chain),
            "legal_actions": self.legal_actions()[:],  # plain data the caller owns
        }
        if self.looking():
            view["seen_hands"] = [[g.names[c] for c in h] for h in s.hands]
        return view
