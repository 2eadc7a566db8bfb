"""The Day of the Dead gate agent: greedy's reading of the cards, with choices scored by a linear
model fitted to search.

Why: a build must play thousands of games in seconds, yet the greedy player's verdicts describe
greedy (it undervalues cards that win through effects and victory points). Search plays well but
costs 10 ms a decision. This agent keeps greedy's speed: every candidate of a decision gets a
short vector of card-generic features (printed power, the effect's rated fight bonus and victory
points, backs, the static fight margins of the line, turns left, scores, what is left unseen in
each deck, and whether greedy would pick it), and the candidate with the highest weighted sum is
played. The weights (``gate_weights.WEIGHTS``, one vector per decision kind) were fitted by
``bench/fit_gate.py`` to the visit shares of mcts at the root on positions of self-play; no
feature names a card, so edited and invented cards are played from their data alone. It reads only
the observation, and its only randomness is greedy's (none), so it is reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from .game import ACT_NO, DECK_BASE, DotdGame
from .gate_weights import WEIGHTS
from .greedy import GreedyAgent, _effect_bonus
from .observation import DotdObservation
from .rules import DOUBLE, POWER_UP, UNEARTH

Features = Callable[["GateAgent", DotdObservation, list[int], int], list[list[float]]]

# Decision kinds the model scores; the others (copy, flip: rare) are greedy's.
KINDS = ("fighter", "spirit", "convert", "unearth_target", "unearth_pick", "dig_deck", "dig_discard")

# A kind missing from WEIGHTS falls back to greedy's choice.


class GateAgent(GreedyAgent):
    """Greedy's ratings, choices by the fitted linear scores (see the module docstring)."""

    name = "gate"

    def __init__(self, game: DotdGame | None = None,
                 weights: dict[str, tuple[float, ...]] | None = None) -> None:
        self.weights = WEIGHTS if weights is None else weights
        self._vp: list[float] = []
        super().__init__(game)

    def _prepare(self, g: DotdGame) -> None:
        super()._prepare(g)
        self._vp = [_effect_bonus(g.effect[c])[1] for c in range(g.n)]

    def kind_of(self, obs: DotdObservation) -> str | None:
        """The decision kind the model scores (None: greedy decides)."""
        kind = obs.decision
        if kind == "select":
            return "fighter" if obs.detail == "fighter" else "spirit"
        return kind if kind in KINDS else None

    def choose(self, obs: DotdObservation, rng: random.Random) -> int:
        if self._game is not obs.game:
            self._prepare(obs.game)
        legal = obs.legal_actions()
        if len(legal) == 1:
            return legal[0]
        kind = self.kind_of(obs)
        w = self.weights.get(kind) if kind is not None else None
        pick = GreedyAgent.choose(self, obs, rng)
        if w is None or kind is None:
            return pick
        rows = FEATURES[kind](self, obs, legal, pick)
        best, best_v = pick, -1e300
        for a, row in zip(legal, rows, strict=True):
            v = sum(x * y for x, y in zip(w, row, strict=True))
            if v > best_v:  # strict: the first of equals (in legal order) wins
                best, best_v = a, v
        return best

    # --- features ------------------------------------------------------------------------------

    def _unseen_mean(self, obs: DotdObservation, back: int) -> tuple[float, float]:
        """Mean (fight, value) of the cards of ``back`` I have not seen: what a draw brings."""
        g = obs.game
        seen = [False] * g.n
        for c in obs.hand:
            seen[c] = True
        for line in obs.lines:
            for c, _b, _u in line:
                if c >= 0:
                    seen[c] = True
        for c, _b in obs.spirits:
            if c >= 0:
                seen[c] = True
        for c in obs.discards[back]:
            seen[c] = True
        fs = vs = 0.0
        k = 0
        for c in g.deck_order[back]:
            if not seen[c]:
                fs += self._fight[c]
                vs += self._value[c]
                k += 1
        return (fs / k, vs / k) if k else (6.0, 6.0)

    def _context(self, obs: DotdObservation) -> tuple[int, int, float]:
        g = obs.game
        me = obs.player
        left = g.turns - obs.turn  # Rewards still to come after this turn's
        return left, obs.turn, float(obs.scores[me] - obs.scores[1 - me])


def _card_rows(agent: GateAgent, obs: DotdObservation, legal: list[int], pick: int,
               extra: Callable[[int], list[float]]) -> list[list[float]]:
    """Per candidate: greedy's pick?, printed power, effect fight bonus and victory points (now
    and over the turns left), back, has an effect; then the kind's own ``extra`` features."""
    g = obs.game
    left, _turn, _diff = agent._context(obs)
    rows = []
    for a in legal:
        if a == ACT_NO or a >= DECK_BASE:
            rows.append([1.0 if a == pick else 0.0] + [0.0] * 9 + extra(a))
            continue
        b = g.back[a]
        p = g.power[a]
        rows.append([
            1.0 if a == pick else 0.0,
            p, agent._bonus[a], agent._vp[a], p * left, agent._vp[a] * left,
            1.0 if b == DOUBLE else 0.0, 1.0 if b == POWER_UP else 0.0,
            1.0 if b == UNEARTH else 0.0, 1.0 if g.has_effect[a] else 0.0,
        ] + extra(a))
    return rows


def _fighter(agent: GateAgent, obs: DotdObservation, legal: list[int], pick: int) -> list[list[float]]:
    return _card_rows(agent, obs, legal, pick, lambda a: [agent._fight[a], agent._value[a]])


def _spirit(agent: GateAgent, obs: DotdObservation, legal: list[int], pick: int) -> list[list[float]]:
    g = obs.game
    me = obs.player
    left, _turn, diff = agent._context(obs)
    line = obs.lines[me]
    margins = [agent._margin(obs, j) for j in range(len(line))]
    close = sum(1.0 for m in margins if -3.0 <= m <= 1.0)
    worst_keep = min((agent._keep_value(obs, c) for c, _b, _u in line if c >= 0), default=6.0)
    bvals = [agent._back_value(obs, b) for b in range(3)]
    in_hand = [0, 0, 0]
    for c in obs.hand:
        in_hand[g.back[c]] += 1
    final = 1.0 if left == 0 else 0.0

    def extra(a: int) -> list[float]:
        b = g.back[a]
        return [
            bvals[b], final * bvals[b], agent._fight[a] * min(1, left), agent._value[a] * min(1, left),
            close if b == POWER_UP else 0.0, worst_keep if b == UNEARTH else 0.0,
            float(in_hand[b]), diff * (1.0 if b == POWER_UP else 0.0),
        ]

    return _card_rows(agent, obs, legal, pick, extra)


def _convert(agent: GateAgent, obs: DotdObservation, legal: list[int], pick: int) -> list[list[float]]:
    g = obs.game
    me = obs.player
    spirit = obs.spirits[me][0]
    sb = g.back[spirit] if spirit >= 0 else -1
    remaining = float(max(0, obs.fight_slot))
    sp_fight = agent._fight[spirit] if spirit >= 0 else 6.0

    def extra(a: int) -> list[float]:
        if a == ACT_NO:
            return [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        slot = next(j for j, (c, _b, _u) in enumerate(obs.lines[me]) if c == a)
        nb = g.back[a]
        bv = agent._back_value(obs, nb) - (agent._back_value(obs, sb) if sb >= 0 else 0.0)
        return [0.0, -agent._margin(obs, slot), bv * remaining, remaining,
                sp_fight, 1.0 if sb == UNEARTH else 0.0]

    return _card_rows(agent, obs, legal, pick, extra)


def _unearth_target(agent: GateAgent, obs: DotdObservation, legal: list[int],
                    pick: int) -> list[list[float]]:
    g = obs.game
    me = obs.player
    line = obs.lines[me]
    slot_of = {c: j for j, (c, _b, _u) in enumerate(line)}
    means = [agent._unseen_mean(obs, b) for b in range(3)]

    def extra(a: int) -> list[float]:
        if a == ACT_NO:
            return [1.0, 0.0, 0.0, 0.0, 0.0]
        j = slot_of.get(a)
        gain = means[g.back[a]][0] - agent._fight[a]
        margin = agent._margin(obs, j) if j is not None else 0.0
        return [0.0, agent._keep_value(obs, a), gain, 1.0 if j is None else 0.0, margin]

    return _card_rows(agent, obs, legal, pick, extra)


def _unearth_pick(agent: GateAgent, obs: DotdObservation, legal: list[int],
                  pick: int) -> list[list[float]]:
    sign = 1.0 if obs.unearth_owner == obs.player else -1.0  # force_unearth picks for the rival
    rows = _card_rows(agent, obs, legal, pick, lambda a: [agent._fight[a], agent._value[a]])
    return [[r[0]] + [sign * x for x in r[1:]] for r in rows]


def _dig_deck(agent: GateAgent, obs: DotdObservation, legal: list[int], pick: int) -> list[list[float]]:
    g = obs.game

    def extra(a: int) -> list[float]:
        b = a - DECK_BASE
        vals = [agent._value[c] for c in obs.hand if g.back[c] == b]
        worst = min(vals, default=12.0)
        mean = agent._unseen_mean(obs, b)[1]
        return [worst, mean - worst, float(obs.deck_sizes[b])]

    return _card_rows(agent, obs, legal, pick, extra)


def _dig_discard(agent: GateAgent, obs: DotdObservation, legal: list[int],
                 pick: int) -> list[list[float]]:
    return _card_rows(agent, obs, legal, pick, lambda a: [agent._fight[a], agent._value[a]])


FEATURES: dict[str, Features] = {
    "fighter": _fighter,
    "spirit": _spirit,
    "convert": _convert,
    "unearth_target": _unearth_target,
    "unearth_pick": _unearth_pick,
    "dig_deck": _dig_deck,
    "dig_discard": _dig_discard,
}
