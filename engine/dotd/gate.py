"""The Day of the Dead gate agent: greedy's reading of the cards, and every real choice played
out on a few sampled deals to the end of the turn, its own Unearths and conversions played well.

Why: a build must play thousands of games in seconds, yet the greedy player's verdicts describe
greedy. Search plays well but costs milliseconds a decision. Each choice of ``SEARCH``'s kinds is a
flat lookahead: every action on up to ``SEARCH[kind]`` sampled deals (``obs.determinize``), each
deal played on to the end of the turn with one stream of random numbers shared by the actions
(common random numbers); the best total score difference then (on the last turn the result, the
margin breaking ties) wins, greedy's pick on a tie; an action clearly behind the leader gets no
more deals, and the deals stop once one is left (``RACE_Z``, ``PRUNE``).

The playouts are random but for the agent's own Unearths (which card, which of the three to keep)
and conversions: in the sampled deal every card is known, so each of those is played out every
way and the best kept (``HINDSIGHT[kind]`` such choices deep; ``gate_playout.hindsight_values``).
A random playout Unearths a random card and keeps a random one, so before 2026-12-06 an Unearth
spirit or an Unearth-backed loser looked no better than chance: against mcts:50 that playout won
36% of games, and these won 52% over the same deals with 3 deals a decision, 56% with 6
(bench/gate_variants.py, docs/simulation.md). A spirit's back is all that acts this turn, so one
card of each back is played out (greedy's choice of that back) and the best back's card is
played. Dig's choices act beyond the turn, where the playouts do not look; the fitted weights
below make them.

The playouts (``gate_playout.py``) and the deals (``sample.py``) are compiled with the engine:
the same games as pure Python, faster.

A kind without search scores every candidate by a weighted sum of card-generic features (greedy's
pick, printed power, the effect's rated fight bonus and victory points, backs, the static margins
of the line, turns left, scores, what is left unseen in each deck), weights in
``gate_weights.WEIGHTS``: softmax regression on mcts:100 visit shares (``bench/fit_gate.py``),
refined by paired play against greedy (``bench/tune_gate.py``). ``FAST`` (several times faster,
weaker) is the former agent that used them; ``gate:fast`` plays it.

No feature names a card, so edited and invented cards are played from their data alone. It reads
only the observation, and all its randomness comes from the rng it is given: reproducible.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from operator import mul

from .codes import ACT_NO, DECK_BASE, DOUBLE, POWER_UP, UNEARTH
from .game import DotdGame, DotdState
from .gate_playout import lookahead
from .gate_weights import WEIGHTS
from .greedy import GreedyAgent, _effect_bonus
from .observation import DotdObservation
from .tables import GameTables

Features = Callable[["GateAgent", DotdObservation[DotdState], list[int], int], list[list[float]]]

# Decision kinds the model scores; the others (copy, flip: rare) are greedy's.
KINDS = ("fighter", "spirit", "convert", "unearth_target", "unearth_pick", "dig_deck", "dig_discard")

# A kind missing from WEIGHTS falls back to greedy's choice.

SEARCH: dict[str, int] = dict.fromkeys(
    ("fighter", "spirit", "convert", "unearth_target", "unearth_pick"), 5)
"""Decision kinds decided by the lookahead, with at most this many sampled deals (see the module
docstring); Dig's kinds are left to the weights. Every action on every deal (no ``PRUNE``),
bench/gate_variants.py's deals 3, 4, 5, 6 and 8 won 52.1, 54.0, 54.8, 56.1 and 56.0% against
mcts:50; with ``PRUNE``, 4, 5 and 6 deals won 53.3, 54.0 and 54.2% over two seeds' 3,200 games,
at 48, 45 and 42 games/s (docs/simulation.md). 5 deals with ``PRUNE`` since 2026-12-07: a
Day of the Dead build from nothing in 162-177 s where 6 deals without it took 181-186 s."""
HINDSIGHT: dict[str, int] = {**dict.fromkeys(SEARCH, 2), "convert": 1}
"""Per searched kind, how many of its own Unearth and conversion choices along a playout the agent
plays the best way in the sampled deal (a kind left out plays them at random). Measured with 3
deals against mcts:50, 1,600 games each: 2 everywhere 52.8%; a conversion's playouts 1 deep, as
here, 52.1% a little faster (42.6 against 40.9 games/s); 0 for conversions 45.6%; 1 for the
Unearths 48.1% (bench/gate_variants.py, docs/simulation.md)."""
FAST: dict[str, int] = {"convert": 1, "unearth_target": 1, "unearth_pick": 1}
"""The gate before 2026-12-01 (``gate:fast``: ``GateAgent(search=FAST, hindsight={})``): one deal
of random playouts for the conversions and Unearths, the fitted weights elsewhere; several times
faster, weaker (docs/simulation.md)."""
PLAYOUTS_PER_DEAL = 1  # playout streams on one sampled deal before the next is drawn
RACE_MIN = 2  # sampled deals before the lookahead may stop early
RACE_Z = 1.5  # standard errors of lead that stop it (2.0: as strong and a little slower)
PRUNE = True
"""From ``RACE_MIN`` deals on, play no more deals for an action clearly behind (``survivors``):
with 6 deals about a fifth faster (42 against 34 games/s) and about a point weaker against
mcts:50 (54.2% against 55.3% over 3,200 games, bench/gate_variants.py ``gate+noprune``)."""
CLEAR_PICK = 3.0  # greedy's rating lead of an Unearth pick that is not played out
FINAL_WEIGHT = 1000.0  # a won game outweighs any score difference
PLAYOUT_LUCK = 16  # random numbers drawn per sampled deal for its playouts (reused cyclically)

OUTLOOK_T = 2.0  # fight strength difference that makes a win e (~2.7) times as likely as a loss


class GateAgent(GreedyAgent):
    """Greedy's ratings; choices by lookahead on sampled deals, or by the fitted linear scores
    where a kind is not searched (see the module docstring)."""

    name = "gate"

    def __init__(self, game: DotdGame | None = None,
                 weights: dict[str, tuple[float, ...]] | None = None,
                 search: dict[str, int] | None = None,
                 hindsight: dict[str, int] | None = None, race_z: float = RACE_Z,
                 prune: bool = PRUNE) -> None:
        self.weights = WEIGHTS if weights is None else weights
        self.search = SEARCH if search is None else search  # kind -> sampled deals per action
        # kind -> own choices played the best way in a playout; a kind left out plays at random
        self.hindsight = HINDSIGHT if hindsight is None else hindsight
        self.race_z = race_z  # standard errors of lead that stop the deals early
        self.prune = prune  # drop each action as soon as it is clearly behind (``survivors``)
        self.clear_pick = CLEAR_PICK
        self._vp: list[float] = []
        super().__init__(game)

    def _prepare(self, g: GameTables) -> None:
        super()._prepare(g)
        self._vp = [_effect_bonus(g.characters[g.char[c]].effect)[1] for c in range(g.n)]
        # what a fighter brings home when it wins: printed power plus its victory points
        self._gain = [g.power[c] + self._vp[c] for c in range(g.n)]
        self._mean_gain = sum(self._gain) / len(self._gain) if self._gain else 4.0

    def _outlook(self, mine: list[int], theirs: list[int]) -> float:
        """Expected points of my fighters minus theirs if these lines fought slot by slot
        (win chance from the static strengths; unknown cards as an average card)."""
        strength = self._strength
        gain = self._gain
        mean = self._mean_gain
        v = 0.0
        for a, b in zip(mine, theirs, strict=False):
            d = strength(a) - strength(b)
            win = 1.0 / (1.0 + math.exp(-d / OUTLOOK_T))
            v += win * (gain[a] if a >= 0 else mean) - (1.0 - win) * (gain[b] if b >= 0 else mean)
        return v

    def kind_of(self, obs: DotdObservation[DotdState]) -> str | None:
        """The decision kind the model scores (None: greedy decides)."""
        kind = obs.decision
        if kind == "select":
            return "fighter" if obs.detail == "fighter" else "spirit"
        return kind if kind in KINDS else None

    def choose(self, obs: DotdObservation[DotdState], rng: random.Random) -> int:
        if self._game is not obs.game:
            self._prepare(obs.game)
        legal = obs.legal_actions()
        if len(legal) == 1:
            return legal[0]
        kind = self.kind_of(obs)
        pick = GreedyAgent.choose(self, obs, rng)
        if kind is None:
            return pick
        worlds = self.search.get(kind, 0)
        if worlds and kind == "convert" and obs.turn == obs.game.turns and obs.fight_slot == 0 \
                and all(a == ACT_NO or obs.game.back[a] != UNEARTH for a in legal):
            return pick  # the game's last fight, no Unearth to gain: converting changes nothing
        if worlds and kind == "unearth_pick" and self._clear_pick(obs, legal):
            return pick  # one look-at card far better than the others: nothing to play out
        if worlds:
            depth = self.hindsight.get(kind)
            if depth is not None and kind == "spirit":
                legal = self._one_of_each_back(obs, legal, pick)
                if len(legal) == 1:
                    return legal[0]
            return self._lookahead(obs, legal, pick, worlds, rng, depth)
        w = self.weights.get(kind)
        if w is None:
            return pick
        rows = FEATURES[kind](self, obs, legal, pick)
        best, best_v = pick, -1e300
        for a, row in zip(legal, rows, strict=True):
            v = sum(map(mul, w, row))
            if v > best_v:  # strict: the first of equals (in legal order) wins
                best, best_v = a, v
        return best

    def _one_of_each_back(self, obs: DotdObservation[DotdState], legal: list[int], pick: int) -> list[int]:
        """The spirits worth playing out: of each back, greedy's pick or else its best-rated
        card. Only the back acts this turn, so the cards of one back play out alike."""
        back = obs.game.back
        fight = self._fight
        value = self._value
        best: dict[int, int] = {}
        for a in legal:
            b = back[a]
            c = best.get(b)
            if c is None or (c != pick and (a == pick or fight[a] + value[a] > fight[c] + value[c])):
                best[b] = a
        keep = set(best.values())
        return [a for a in legal if a in keep]

    def _clear_pick(self, obs: DotdObservation[DotdState], legal: list[int]) -> bool:
        """Does greedy's rating of the looked-at cards put one ahead by ``CLEAR_PICK``?"""
        keys = sorted((self._value[a] + 0.3 * self._fight[a] for a in legal),
                      reverse=obs.unearth_owner == obs.player)
        return abs(keys[0] - keys[1]) > self.clear_pick

    def _lookahead(self, obs: DotdObservation[DotdState], legal: list[int], pick: int, worlds: int,
                   rng: random.Random, depth: int | None = None) -> int:
        """Each action on up to ``worlds`` sampled deals, each played on to the end of this turn
        (one stream of random numbers per deal, the same for every action), at random or, with
        ``depth``, with the agent's own Unearths and conversions played the best way that deep
        (``hindsight_values``); the best total score difference then (the result, on the last
        turn) wins, greedy's pick on a tie (the first action when greedy's pick was left out).
        From ``RACE_MIN`` deals on, with ``prune``, an action the leader is ahead of by
        ``race_z`` standard errors of their paired difference (or ties on every deal) gets no
        more deals; without it the deals stop once the leader is that far ahead of every other
        action. Either way the search ends when one is left (``gate_playout.lookahead``)."""
        pi = legal.index(pick) if pick in legal else 0
        return legal[lookahead(obs.determinize, legal, pi, worlds, rng, obs.player, FINAL_WEIGHT,
                               -1 if depth is None else depth, PLAYOUTS_PER_DEAL, PLAYOUT_LUCK,
                               RACE_MIN, self.race_z, self.prune)]

    # --- features ------------------------------------------------------------------------------

    def _unseen_means(self, obs: DotdObservation[DotdState]) -> list[tuple[float, float]]:
        """Per back, the mean (fight, value) of its cards I have not seen: what a draw brings."""
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
        for pile in obs.discards:
            for c in pile:
                seen[c] = True
        out = []
        fight = self._fight
        value = self._value
        for deck in g.deck_order:
            fs = vs = 0.0
            k = 0
            for c in deck:
                if not seen[c]:
                    fs += fight[c]
                    vs += value[c]
                    k += 1
            out.append((fs / k, vs / k) if k else (6.0, 6.0))
        return out

    def _context(self, obs: DotdObservation[DotdState]) -> tuple[int, int, float]:
        g = obs.game
        me = obs.player
        left = g.turns - obs.turn  # Rewards still to come after this turn's
        return left, obs.turn, float(obs.scores[me] - obs.scores[1 - me])


def _card_rows(agent: GateAgent, obs: DotdObservation[DotdState], legal: list[int], pick: int,
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


def _fighter(agent: GateAgent, obs: DotdObservation[DotdState], legal: list[int], pick: int) -> list[list[float]]:
    return _card_rows(agent, obs, legal, pick, lambda a: [agent._fight[a], agent._value[a]])


def _spirit(agent: GateAgent, obs: DotdObservation[DotdState], legal: list[int], pick: int) -> list[list[float]]:
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

    future = min(1, left)

    def extra(a: int) -> list[float]:
        b = g.back[a]
        return [
            bvals[b], final * bvals[b], agent._fight[a] * future, agent._value[a] * future,
            close if b == POWER_UP else 0.0, worst_keep if b == UNEARTH else 0.0,
            float(in_hand[b]), diff * (1.0 if b == POWER_UP else 0.0),
        ]

    return _card_rows(agent, obs, legal, pick, extra)


def _convert(agent: GateAgent, obs: DotdObservation[DotdState], legal: list[int], pick: int) -> list[list[float]]:
    g = obs.game
    me = obs.player
    spirit = obs.spirits[me][0]
    sb = g.back[spirit] if spirit >= 0 else -1
    remaining = float(max(0, obs.fight_slot))
    sp_fight = agent._fight[spirit] if spirit >= 0 else 6.0
    left = min(1, agent._context(obs)[0])
    mine = [c for c, _b, _u in obs.lines[me]]
    theirs = [c for c, _b, _u in obs.lines[1 - me]] + [obs.spirits[1 - me][0]]
    stay = agent._outlook(mine + [spirit], theirs) if left else 0.0

    active = float(sum(1 for _c, _b, u in obs.lines[me] if u))
    fight_now = float(obs.fight[me])  # the bonus my side had in the fight just lost

    def extra(a: int) -> list[float]:
        if a == ACT_NO:
            return [1.0] + [0.0] * 27
        slot = mine.index(a)
        nb = g.back[a]
        bv = agent._back_value(obs, nb) - (agent._back_value(obs, sb) if sb >= 0 else 0.0)
        # next turn's pairings: the newer fighters move down, the old spirit fills the newest
        # slot and the loser, now the spirit, opens the slot after it
        moved = agent._outlook(mine[:slot] + mine[slot + 1:] + [spirit, a], theirs) - stay \
            if left else 0.0
        # which back becomes the spirit for which: nine pairs, alone and with fights to come
        pair = [0.0] * 18
        if sb >= 0:
            pair[3 * nb + sb] = 1.0
            pair[9 + 3 * nb + sb] = 1.0 if remaining else 0.0
        return [0.0, -agent._margin(obs, slot), bv * remaining, remaining,
                sp_fight, 1.0 if sb == UNEARTH else 0.0, moved, active, fight_now,
                float(left)] + pair

    return _card_rows(agent, obs, legal, pick, extra)


def _unearth_target(agent: GateAgent, obs: DotdObservation[DotdState], legal: list[int],
                    pick: int) -> list[list[float]]:
    g = obs.game
    me = obs.player
    line = obs.lines[me]
    slot_of = {c: j for j, (c, _b, _u) in enumerate(line)}
    means = agent._unseen_means(obs)
    theirs = [c for c, _b, _u in obs.lines[1 - me]]
    strength = agent._strength

    def extra(a: int) -> list[float]:
        if a == ACT_NO:
            return [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]
        j = slot_of.get(a)
        gain = means[g.back[a]][0] - agent._fight[a]
        margin = agent._margin(obs, j) if j is not None else 0.0
        # the slot's fight with an average newcomer instead (a spirit: next turn's new slot)
        d_new = means[g.back[a]][0] - (strength(theirs[j]) if j is not None and j < len(theirs) else 6.0)
        d_old = agent._fight[a] - (strength(theirs[j]) if j is not None and j < len(theirs) else 6.0)
        swing = 1.0 / (1.0 + math.exp(-d_new / OUTLOOK_T)) - 1.0 / (1.0 + math.exp(-d_old / OUTLOOK_T))
        return [0.0, agent._keep_value(obs, a), gain, 1.0 if j is None else 0.0, margin, swing]

    return _card_rows(agent, obs, legal, pick, extra)


def _unearth_pick(agent: GateAgent, obs: DotdObservation[DotdState], legal: list[int],
                  pick: int) -> list[list[float]]:
    sign = 1.0 if obs.unearth_owner == obs.player else -1.0  # force_unearth picks for the rival
    rows = _card_rows(agent, obs, legal, pick, lambda a: [agent._fight[a], agent._value[a]])
    return [[r[0]] + [sign * x for x in r[1:]] for r in rows]


def _dig_deck(agent: GateAgent, obs: DotdObservation[DotdState], legal: list[int], pick: int) -> list[list[float]]:
    g = obs.game
    means = agent._unseen_means(obs)

    def extra(a: int) -> list[float]:
        b = a - DECK_BASE
        vals = [agent._value[c] for c in obs.hand if g.back[c] == b]
        worst = min(vals, default=12.0)
        mean = means[b][1]
        return [worst, mean - worst, float(obs.deck_sizes[b])]

    return _card_rows(agent, obs, legal, pick, extra)


def _dig_discard(agent: GateAgent, obs: DotdObservation[DotdState], legal: list[int],
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
