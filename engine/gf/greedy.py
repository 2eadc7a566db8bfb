"""A greedy Grave Feast player: one-ply rules of thumb on the player's own observation.

It builds and completes families, attaches an eater once the family is complete (or when it
would be complete with a card it holds), feeds as soon as it can, steals families that are
nearly ready, preaches against imminent feasts, keeps preachers in hand to win chains, and
otherwise discards the card least likely to join a family. It never looks at a State, only at
what ``FeastObservation`` shows, so it is fair in the same tournament as mcts.
"""

from __future__ import annotations

import random

from boneyard.engine.gf.constants import (
    ANNOUNCE,
    ATTACH,
    COUNTER,
    DEVIL_WIFE,
    DISCARD,
    DONE,
    DW_DROP,
    DW_HAND,
    DW_PLACE,
    DW_SEDUCE,
    DW_TAKE,
    END,
    EXO_HAND,
    EXORCIST,
    EXTEND,
    HUMAN,
    JOIN,
    JOIN_ATTACK,
    MASH,
    PASS,
    PREACH,
    PREACH_DW,
    PREACHER,
    START,
    STEAL_FAM,
    STEAL_MASH,
    SUCC_EXO,
    SUCCUBUS,
    TRIM,
    VAMPIRE,
    ZOMBIE,
    Fam,
    unpack,
)
from boneyard.engine.gf.state import FeastObservation


class GreedyAgent:
    """``choose(obs, rng)``: the best-scoring legal action; ties broken by ``rng``."""

    name = "greedy"

    def __init__(self, game: object | None = None) -> None:
        self.game = game

    def choose(self, obs: FeastObservation, rng: random.Random) -> int:
        legal = obs.legal_actions()
        if len(legal) == 1:
            return legal[0]
        ctx = _Context(obs)
        best = None
        best_score = -1e9
        for a in legal:
            v = ctx.score(a) + rng.random() * 1e-3
            if v > best_score:
                best, best_score = a, v
        assert best is not None
        return best


class _Context:
    """Facts about the view computed once per decision."""

    def __init__(self, obs: FeastObservation) -> None:
        self.obs = obs
        self.me = obs.player
        g = obs.game
        self.g = g
        self.K = g.kind
        self.F = g.food
        self.N = g.num
        self.hand = obs.hand
        self.fams = obs.families
        self.mashes = obs.mashes
        self.scores = obs.scores
        self.min_f = g.min_family
        self.win = g.win_score
        self.phase = obs.phase
        self.fam_by_id = {}
        for p, fams in enumerate(self.fams):
            for f in fams:
                self.fam_by_id[f[0]] = (p, f)
        # numbers of each food in hand
        self.have: tuple[dict[int, int], dict[int, int]] = ({}, {})
        for c in self.hand:
            if self.K[c] == HUMAN:
                self.have[self.F[c]][self.N[c]] = self.have[self.F[c]].get(self.N[c], 0) + 1

    # --- value of things ------------------------------------------------------------------
    def threat(self, f: Fam, owner: int) -> float:
        """How close family ``f`` of ``owner`` is to feeding (and winning)."""
        size = len(f[5])
        t = size + (3 if f[4] else 0)
        if f[4] and size >= self.min_f:
            t += 4
        if self.scores[owner] + size >= self.win:
            t += 5
        return t

    def card_value(self, c: int) -> float:
        """How much keeping hand card ``c`` is worth (low: discard it)."""
        k = self.K[c]
        if k == HUMAN:
            food, num = self.F[c], self.N[c]
            v = 0.0
            for f in self.fams[self.me]:
                if f[1] == food and (num == f[2] - 1 or num == f[3] + 1):
                    v += 3
            near = self.have[food]
            if near.get(num - 1) or near.get(num + 1):
                v += 2
            if near.get(num - 2) or near.get(num + 2):
                v += 0.5
            if near.get(num, 0) > 1:
                v -= 0.5
            return v
        if k in (VAMPIRE, ZOMBIE):
            food = 0 if k == VAMPIRE else 1
            return 1.5 + sum(1 for f in self.fams[self.me] if f[1] == food)
        if k == PREACHER:
            return 3.5
        if k == SUCCUBUS:
            return 4.0
        return 6.0  # rares

    # --- scoring actions -------------------------------------------------------------------
    def score(self, a: int) -> float:
        op, x, y, z, flag = unpack(a)
        me = self.me
        if flag:  # feeds a family now
            return 100.0
        if op == ANNOUNCE:
            return 100.0
        if op in (PASS, END, DONE):
            return 0.0
        if op == DISCARD:
            return -5.0 - self.card_value(x)
        if op == START:
            return 10.0 + (z - y + 1)
        if op == EXTEND:
            return 12.0
        if op == JOIN:
            return 11.0
        if op == ATTACH:
            owner, f = self.fam_by_id.get(x, (me, None))
            if f is None:
                return 1.0
            size = len(f[5])
            complete = size >= self.min_f and f[3] - f[2] + 1 == size
            if complete:
                return 40.0
            # pre-attach when we hold the completing card: no steal window later
            food = f[1]
            if self.have[food].get(f[2] - 1) or self.have[food].get(f[3] + 1):
                # eater first, then "complete + N to the graveyard" in one breath: no steal window
                return 50.0 if size + 1 >= self.min_f else 1.0
            return -1.0
        if op == MASH:
            k = self.K[x]
            if k in (VAMPIRE, ZOMBIE):
                food = 0 if k == VAMPIRE else 1
                if not any(f[1] == food for f in self.fams[me]):
                    return 2.0  # park it: frees a hand slot for a draw
                return -0.5
            if k == EXORCIST:
                return 5.0  # protects the mash
            return -2.0  # crashers stay hidden in hand
        if op == STEAL_FAM:
            owner, f = self.fam_by_id.get(y, (me, None))
            if f is None:
                return 0.0
            t = self.threat(f, owner)
            src = 0.2 if x in self.mashes[me] else 0.0
            have = self.have[f[1]]
            completes = bool(have.get(f[2] - 1) or have.get(f[3] + 1))
            if t >= 6 or len(f[5]) >= self.min_f or (completes and len(f[5]) + 1 >= self.min_f):
                return 20.0 + t + src + (5.0 if completes else 0.0)
            return -1.0
        if op == STEAL_MASH:
            m = self.mashes[y]
            worth = sum(2 if self.K[c] in (SUCCUBUS, PREACHER) else 1 for c in m)
            return (8.0 + worth) if worth >= 3 else -1.0
        if op == PREACH:
            owner = self.obs.eater_owner(y)
            ann = self.obs.announced
            for f in self.fams[owner] if owner >= 0 else ():
                if y in f[4]:
                    if f[0] in ann:
                        return 60.0  # an imminent feast
                    t = self.threat(f, owner)
                    return 15.0 + t if t >= 6 else -1.0
            # an eater in a mash: worth it if its owner has a family it could feed
            food = 0 if self.K[y] == VAMPIRE else 1
            if owner >= 0 and any(f[1] == food and len(f[5]) >= 2 for f in self.fams[owner]):
                return 4.0
            return -1.0
        if op == COUNTER:
            target = self.obs.chain_target
            chain = self.obs.chain
            owner = self.obs.eater_owner(target)
            dies = len(chain) % 2 == 1
            if owner == me and dies:
                return 50.0  # evil preacher: save my eater
            if owner != me and not dies:
                return 30.0  # re-preach: the eater would survive
            return -1.0
        # the rares: use them eagerly, they are strong
        if op in (EXO_HAND, DW_HAND, SUCC_EXO, PREACH_DW):
            return 25.0
        if op == DW_PLACE:
            return 15.0
        if op in (DW_SEDUCE, DW_TAKE):
            if y >= len(self.K):  # blindly from a hand
                return 19.0
            k = self.K[y]
            if op == DW_TAKE and x == 3 and k == PREACHER:
                return -10.0  # a preacher from a hand kills her
            return 20.0 + (2.0 if k in (SUCCUBUS, PREACHER, VAMPIRE, ZOMBIE) else 0.0)
        if op == JOIN_ATTACK:
            attack = self.obs.attack
            return 25.0 if attack is not None and attack[2] != me else -5.0
        if op == DW_DROP:
            return 5.0 - self.card_value(x)
        if op == TRIM:
            return -self.card_value(x)
        if self.K[x] == DEVIL_WIFE:
            return 10.0
        return 0.0
