"""The Grave Feast gate agent: greedy's rules of thumb, retuned by play, and using every rare.

Why: builds need thousands of games a minute, and greedy never places a Devil Wife permanently
nor puts an Exorcist in a Monster Mash, so coin flips, the maelstrom, permanent seductions, the
preachers' and succubi's attacks on rares, hiding and the explosion never happen in a playtest.
This agent scores each legal action as greedy does plus a tuned bias per kind of move
(``gate_weights.WEIGHTS["bias"]`` at two players, ``"bias_multi"`` at three or more, indexed by
the action's op code: 24 numbers each, fitted by ``bench/tune_gate.py``, an evolution strategy
on the paired win share against greedy), and it
decides the rares by the board instead of always playing them from the hand:

- a Devil Wife is placed as a permanent card (a seduction every turn) unless a rival family is
  close to feeding, when her one-off steal from the hand is worth more; once placed she takes
  blindly from a hand when nothing on view is worth much;
- an Exorcist goes into the Monster Mash (it guards the mash and throws the others' monsters
  into the maelstrom) unless the rivals show enough monsters for his blast to pay, or a rival
  has a permanent Devil Wife: then he waits in the hand, where her seduction makes him explode.

It reads only the observation and card kinds (never a card id), so invented sets play the same
way; ties are broken by the agent's own seeded stream, as greedy's are.
"""

from __future__ import annotations

import random

from boneyard.engine.gf.constants import (
    DW_HAND,
    DW_PLACE,
    DW_SEDUCE,
    EXO_HAND,
    EXORCIST,
    HUMAN,
    JOIN_ATTACK,
    MASH,
    PASS,
    PREACH_DW,
    PREACHER,
    SUCC_EXO,
    SUCCUBUS,
    VAMPIRE,
    ZOMBIE,
    unpack,
)
from boneyard.engine.gf.gate_weights import WEIGHTS
from boneyard.engine.gf.greedy import GreedyAgent, _Context
from boneyard.engine.gf.state import FeastObservation

# what lifts the permanent plays just above greedy's score for the same rare from the hand
# (Devil Wife placed 15 vs from the hand 25; Exorcist in the mash 5 vs from the hand 25)
PLACE_DW = 11.0
MASH_EXO = 21.0
KEEP_EXO = 40.0  # drops both Exorcist plays below a discard
BLIND_BELOW = 2.5  # a human on view worth less than this (greedy's card_value) is no target
BLIND_PICK = 3.5  # lifts the blind pick (greedy: 19) over the visible ones (20-22)


class GateAgent(GreedyAgent):
    """Greedy's scores plus tuned biases; rares by the board (see the module docstring)."""

    name = "gate"

    def __init__(self, game: object | None = None,
                 weights: dict[str, tuple[float, ...]] | None = None) -> None:
        super().__init__(game)
        self.weights = WEIGHTS if weights is None else weights

    def choose(self, obs: FeastObservation, rng: random.Random) -> int:
        legal = obs.legal_actions()
        if len(legal) == 1:
            return legal[0]
        ctx = _Context(obs)
        w = self.weights
        bias = w["bias"] if len(ctx.fams) == 2 else w.get("bias_multi", w["bias"])
        dw_threat, exo_min = self.weights["rares"]
        rare_pref: dict[int, float] = {}
        kinds = ctx.K
        if any(unpack(a)[0] in (DW_PLACE, EXO_HAND, DW_SEDUCE, SUCC_EXO, PREACH_DW, JOIN_ATTACK)
               for a in legal) or any(
                unpack(a)[0] == MASH and kinds[unpack(a)[1]] == EXORCIST for a in legal):
            rare_pref = self._rares(ctx, legal, bias, dw_threat, exo_min)
        best = legal[0]
        best_score = -1e9
        for a in legal:
            op = unpack(a)[0]
            b = bias[op] if op < len(bias) else 0.0  # a move newer than the tuning: no bias
            v = ctx.score(a) + b + rare_pref.get(a, 0.0) + rng.random() * 1e-3
            if v > best_score:
                best, best_score = a, v
        return best

    def _rares(self, ctx: _Context, legal: list[int], bias: tuple[float, ...], dw_threat: float,
               exo_min: float) -> dict[int, float]:
        """Extra score for the rare plays the board calls for (whatever the biases say)."""
        me = ctx.me
        obs = ctx.obs
        K = ctx.K
        threat = max((ctx.threat(f, p) for p, fams in enumerate(ctx.fams) if p != me for f in fams),
                     default=0.0)
        monsters = 0
        for p in range(len(ctx.fams)):
            if p == me:
                continue
            monsters += sum(len(f[4]) for f in ctx.fams[p])
            monsters += sum(1 for c in ctx.mashes[p] if K[c] in (VAMPIRE, ZOMBIE, SUCCUBUS))
            monsters += len(obs.devil_wives[p])
        rival_dw = any(obs.devil_wives[p] for p in range(len(ctx.fams)) if p != me)
        # the permanent Devil Wife: a blind pick from a hand when nothing on view is worth much
        # to me (a monster, or a human my families or hand can use)
        n_cards = len(K)
        view = [ctx.card_value(y) if K[y] == HUMAN else BLIND_BELOW
                for op, _x, y, _z, _f in map(unpack, legal) if op == DW_SEDUCE and y < n_cards]
        blind = max(view, default=0.0) < BLIND_BELOW
        # an attack on a rare needs a second attacker in the same window: open one only holding
        # both (a lone succubus or preacher fizzles into the discard pile)
        held = [0] * (max(K) + 1)
        for c in ctx.hand:
            held[K[c]] += 1
        attack = obs.attack
        greedy_join = attack is not None and attack[2] != me
        out: dict[int, float] = {}
        for a in legal:
            op, x, y, _z, _f = unpack(a)
            if (op == SUCC_EXO and held[SUCCUBUS] < 2) or (op == PREACH_DW and held[PREACHER] < 2):
                out[a] = -KEEP_EXO
            elif op == JOIN_ATTACK and greedy_join:
                # greedy joins an attack on a rival's rare; the multi-player biases prefer to pass
                # any window, which left every attack (my own included) to fizzle
                out[a] = max(0.0, bias[PASS] - bias[JOIN_ATTACK]) + 1.0
            elif op == DW_SEDUCE and y >= n_cards and blind:
                out[a] = BLIND_PICK
            elif op == DW_PLACE and threat < dw_threat:
                out[a] = PLACE_DW + max(0.0, bias[DW_HAND] - bias[DW_PLACE])
            elif rival_dw and monsters < exo_min and (op == EXO_HAND or (
                    op == MASH and K[x] == EXORCIST)):
                out[a] = -KEEP_EXO  # keep him in the hand: a Devil Wife that takes him explodes
            elif op == MASH and K[x] == EXORCIST and monsters < exo_min:
                out[a] = MASH_EXO + max(0.0, bias[EXO_HAND] - bias[MASH])
        return out
