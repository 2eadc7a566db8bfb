"""Paired games, sampled sequentially: what one card is worth, and what a change did.

A paired comparison plays the *same* games (same deal, same shuffles, same agent streams:
``engine.sim.game_seed``/``agent_seed``) on two versions of a set and averages, over the seat
that holds the card, the difference of that seat's results. Three comparisons use it:

- *substitution* (``card.<id>.sub_delta``): the set against the set with the card replaced by a
  neutral stand-in (``GameSpec.stand_in``): what the card does for its holder;
- *a changed card* (change-aware builds): the new set against the new set with that card put
  back as it was at the last pass (``GameSpec.swap_unit``); the card's value is then the last
  pass's value plus this difference, so a typo fix (no game changes) is settled at the first look
  and a large edit shows at once;
- *whole-set metrics* against the last pass (:func:`jackknife_change`): the same main games on
  the old and the new content.

Games are chosen by the deal (exactly one seat dealt the card), never by a decision the card
influences. Each comparison is a sequential test (pipeline/gates.py): more paired games, in looks
that double, only while its interval still straddles its bound.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from boneyard.engine.agents import make_agent
from boneyard.engine.cards import CardSet
from boneyard.engine.games import make_game
from boneyard.engine.sim import game_seed, map_tasks, play_game, seat_agents
from boneyard.engine.stats import Z95, Metric, mean_metric, shifted
from boneyard.pipeline.gates import UNDECIDED, Gate, judge, z_for

SCAN_FACTOR = 12
"""How many deals past the wanted count are looked at for a card's paired games (a card dealt
to exactly one seat in 1 game of 12 or fewer is not sampled further)."""


def dealt_by_seat(game: Any, seed_of_game: int, players: int) -> list[set[str]] | None:
    """Character ids in each seat's opening hand (from each player's own observation)."""
    state = game.new_initial_state(seed_of_game)
    out = []
    for k in range(players):
        hand = state.observation(k).to_json().get("hand")
        if not isinstance(hand, list):
            return None
        out.append({str(c).split("@")[0] for c in hand})
    return out


def _returns_for(card_set: CardSet, players: int | None, options: Mapping[str, Any],
                 specs: Sequence[str], seed: int, indices: Sequence[int]) -> list[list[float]]:
    """Outcomes of games ``indices`` of the simulator's run with ``seed`` on ``card_set``."""
    game = make_game(card_set, players, **dict(options))
    out = []
    for i in indices:
        seats = seat_agents(list(specs), game.num_players, i)
        agents = [make_agent(s, game) for s in seats]
        state, _ = play_game(game, agents, game_seed(seed, i))
        out.append(list(state.returns()))
    return out


def _task(args: tuple[Any, ...]) -> tuple[str, list[list[float]]]:
    key, card_set, players, options, specs, seed, indices = args
    return key, _returns_for(card_set, players, options, specs, seed, indices)


GameKey = tuple[int, int]
"""A game by (run seed, index): ``engine.sim.game_seed(seed, index)`` deals it."""

CHUNK = 40
"""Paired games per worker task: small enough that the workers finish together."""


LAST_PASS_KIND = "last pass"
"""A changed card paired with its last-pass self (pipeline/playtest.py ``card_pairings``)."""
UNSETTLED_KIND = "last pass, unsettled; then stand-in"
"""... which its cap left undecided, so the stand-in measured it again (playtest.py ``_pair``)."""


@dataclass
class Pairing:
    """One card's paired comparison: ``card_set`` (the set as it is) against ``other``."""

    cid: str
    metric: str  # e.g. card.<id>.sub_delta
    other: CardSet
    anchor: Metric | None = None  # the last pass's value of the card, with its interval, to add
    declared: bool = False  # a pre-declared hypothesis: judged at the full alpha
    kind: str = "stand-in"  # "stand-in", LAST_PASS_KIND or UNSETTLED_KIND
    picks: list[tuple[GameKey, int]] = field(default_factory=list)  # (game, seat)
    diffs: list[float] = field(default_factory=list)
    scanned: int = 0
    looks: int = 0
    status: str = UNDECIDED

    def measured(self) -> Metric:
        m = mean_metric(self.metric, self.diffs, group="card", subject=self.cid, unit="%")
        if not self.diffs:
            return Metric(self.metric, math.nan, -1.0, 1.0, 0, "card", self.cid, "%")
        base = 0.0 if self.anchor is None else self.anchor.value
        if math.isnan(m.low):  # one game: no spread yet
            return Metric(self.metric, m.value + base, -1.0, 1.0, m.n, "card", self.cid, "%")
        if self.anchor is None:
            return m
        value, low, high = shifted(self.anchor, m.value, m.low, m.high)
        return Metric(self.metric, value, low, high, m.n, "card", self.cid, "%")


def change_of(p: Pairing) -> tuple[float, float, float] | None:
    """(change, low, high) of a pairing against the card's last-pass self, without the last
    pass's value: what ``boneyard diff`` lists as the change (None before a spread is known)."""
    if p.anchor is None or len(p.diffs) < 2:
        return None
    m = mean_metric(p.metric, p.diffs)
    return m.value, m.low, m.high


def recorded_change(run: Mapping[str, Any], name: str) -> tuple[float, float, float] | None:
    """(change, low, high) a record's run keeps for ``name`` (``paired_changes``), or None when
    it keeps none or no finite interval (a handful of games; JSON holds infinity as null)."""
    c = (run.get("paired_changes") or {}).get(name)
    if c is None or not all(isinstance(v, (int, float)) and math.isfinite(v) for v in c):
        return None
    return float(c[0]), float(c[1]), float(c[2])


class Deals:
    """Games in the order paired games are drawn from: first the main games already played
    (``keys``), then fresh ones of run seed ``extra_seed``; each deal computed once."""

    def __init__(self, card_set: CardSet, players: int | None, options: Mapping[str, Any],
                 keys: Sequence[GameKey], extra_seed: int) -> None:
        self.game = make_game(card_set, players, **dict(options))
        self.players = self.game.num_players
        self.keys = list(keys)
        self.extra_seed = extra_seed
        self.seats: list[list[set[str]] | None] = []

    def key(self, i: int) -> GameKey:
        return self.keys[i] if i < len(self.keys) else (self.extra_seed, i - len(self.keys))

    def __getitem__(self, i: int) -> list[set[str]] | None:
        while len(self.seats) <= i:
            seed, index = self.key(len(self.seats))
            self.seats.append(dealt_by_seat(self.game, game_seed(seed, index), self.players))
        return self.seats[i]


def _extend(p: Pairing, deals: Deals, want: int) -> None:
    """Add games in which exactly one seat was dealt the card, until ``want`` are picked."""
    limit = max(want * SCAN_FACTOR, 64)
    while len(p.picks) < want and p.scanned < limit:
        seats = deals[p.scanned]
        if seats is None:
            return
        who = [k for k in range(deals.players) if p.cid in seats[k]]
        if len(who) == 1:
            p.picks.append((deals.key(p.scanned), who[0]))
        p.scanned += 1


Done = Callable[[str, int, int], None]


def _chunks(tag: str, card_set: CardSet, players: int | None, options: Mapping[str, Any],
            specs: Sequence[str], keys: Sequence[GameKey]) -> list[tuple[Any, ...]]:
    """Worker tasks playing ``keys`` on ``card_set``: one run seed each, at most CHUNK games."""
    by_seed: dict[int, list[int]] = {}
    for seed, index in keys:
        by_seed.setdefault(seed, []).append(index)
    out = []
    for seed, idx in by_seed.items():
        for at in range(0, len(idx), CHUNK):
            out.append((f"{tag}|{seed}|{at}", card_set, players, options, list(specs), seed, idx[at:at + CHUNK]))
    return out


def run_pairings(
    card_set: CardSet, pairings: Sequence[Pairing], *, players: int | None, options: Mapping[str, Any],
    specs: Sequence[str], keys: Sequence[GameKey], extra_seed: int,
    known: Mapping[GameKey, Sequence[float]], sizes: Sequence[int],
    gates: Sequence[Gate], alpha: float, looks: int, family: int, jobs: int = 1,
    scheduler: str | None = None, progress: Done | None = None,
) -> list[Metric]:
    """Sample every pairing in looks (``sizes``: cumulative paired games) until its interval,
    judged by the gates that name its metric, is decided; the metrics, in ``pairings`` order.

    Paired games are drawn from the main games (``keys``, whose outcomes on ``card_set`` are
    ``known``: a paired game then costs one game, not two), then from fresh games."""
    deals = Deals(card_set, players, options, keys, extra_seed)
    open_ = list(pairings)
    for look, target in enumerate(sizes):
        if not open_:
            break
        tasks: list[tuple[Any, ...]] = []
        wanted: dict[int, list[GameKey]] = {}
        for k, p in enumerate(open_):
            _extend(p, deals, target)
            new = [g for g, _ in p.picks[len(p.diffs):]]
            if not new:
                continue
            wanted[k] = new
            tasks += _chunks(f"{k}|other", p.other, players, options, specs, new)
            tasks += _chunks(f"{k}|self", card_set, players, options, specs, [g for g in new if g not in known])
        got: dict[str, list[list[float]]] = {}
        total = len(tasks)

        def done(res: tuple[str, list[list[float]]], total: int = total, look: int = look,
                 got: dict[str, list[list[float]]] = got) -> None:
            got[res[0]] = res[1]
            if progress:
                progress(f"paired games (look {look + 1})", len(got), total)

        map_tasks(_task, tasks, jobs, scheduler, done)
        outcome: dict[tuple[str, GameKey], Sequence[float]] = {}
        for t in tasks:
            tag = t[0].rsplit("|", 2)[0]
            for index, r in zip(t[6], got[t[0]], strict=True):
                outcome[(tag, (t[5], index))] = r
        still = []
        for k, p in enumerate(open_):
            new = wanted.get(k, [])
            if not new:
                continue
            seats = dict(p.picks)
            for g in new:
                mine = known[g] if g in known else outcome[(f"{k}|self", g)]
                other = outcome[(f"{k}|other", g)]
                p.diffs.append(mine[seats[g]] - other[seats[g]])
            p.looks = look + 1
            p.status = _status(p, gates, alpha, looks, family)
            if p.status == UNDECIDED and len(p.picks) >= target:
                still.append(p)
        open_ = still
    return [p.measured() for p in pairings]


def _status(p: Pairing, gates: Sequence[Gate], alpha: float, looks: int, family: int) -> str:
    """The pairing's verdict at this look under every gate on its metric (undecided wins)."""
    m = p.measured()
    mine = [g for g in gates if g.matches(p.metric)]
    if not mine:
        return "pass"  # nothing to decide: the first look is shown, more games would not gate
    z = z_for(alpha, looks, 1 if p.declared else family)
    verdicts = [judge(g, m, z / Z95, z_for(alpha, looks, 1) / Z95) for g in mine]
    return "fail" if "fail" in verdicts else (UNDECIDED if UNDECIDED in verdicts else "pass")


# --- whole-set metrics against the last pass -------------------------------------------------

JACKKNIFE_BLOCKS = 10
T_975 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262)
"""Student's t, 97.5% quantile, for 1..9 degrees of freedom (blocks - 1)."""
JACKKNIFE_MIN_GAMES = 20
"""Fewer paired games than this give no interval (a block of one or two games says nothing of
the spread): a ``diff --games 5`` is a quick look, not a verdict."""


def jackknife_change(
    measure: Callable[[Sequence[int]], Mapping[str, Metric]], n: int, names: Sequence[str],
) -> dict[str, tuple[float, float, float]]:
    """(change, low, high) per metric name: new minus old on the same ``n`` games, with a
    delete-a-block jackknife interval (10 blocks, t with 9 df).

    ``measure(indices)`` returns, per name, the metric of the new content minus the old one's
    *value* over those games (as a Metric whose value is the difference). The jackknife keeps the
    pairing (a block leaves the same games out of both versions) and works for any metric the
    engine computes, rates, means or a seat spread alike."""
    full = measure(range(n))
    blocks = min(JACKKNIFE_BLOCKS, n)
    if n < JACKKNIFE_MIN_GAMES:
        return {k: (m.value, -math.inf, math.inf) for k, m in full.items() if k in names}
    edges = [round(b * n / blocks) for b in range(blocks + 1)]
    leave: list[Mapping[str, Metric]] = []
    for b in range(blocks):
        keep = [i for i in range(n) if not edges[b] <= i < edges[b + 1]]
        leave.append(measure(keep))
    out: dict[str, tuple[float, float, float]] = {}
    for name in names:
        if name not in full or math.isnan(full[name].value):
            continue
        vals = [lv[name].value for lv in leave if name in lv and not math.isnan(lv[name].value)]
        if len(vals) < blocks:
            continue
        mean = math.fsum(vals) / blocks
        var = (blocks - 1) / blocks * math.fsum((v - mean) ** 2 for v in vals)
        half = T_975[blocks - 2] * math.sqrt(var)
        d = full[name].value
        out[name] = (d, d - half, d + half)
    return out
