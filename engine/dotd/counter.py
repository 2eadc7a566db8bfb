"""Counting finished Day of the Dead games straight from their states, a block at a time.

Why: a random game costs the engine about 100 us, and building its typed summary (strings,
sorted tuples) and tallying that figure by figure cost half as much again: the summary is what a
log or a replay keeps, but a run that keeps no games only needs the counts. :class:`GameCounter`
reads the finished positions' own lists (character indices, the coverage slots) into per-block
arrays and hands the block's tally over in one go. Its sums are exactly those of
``metrics.tally`` over each game's summary (every value added is an integer or a multiple of a
half, so their sums are exact in any order; tests/test_sim_uniform.py compares the two).
"""

from __future__ import annotations

from .codes import EDGES
from .position import Position
from .tables import GameTables


def _merge(sums: dict[str, list[float]], name: str, n: int, total: float, squares: float) -> None:
    """Add ``n`` observations summing to ``total`` (``squares``) under ``name`` (Tally.merge)."""
    acc = sums.get(name)
    if acc is None:
        sums[name] = [n, total, squares]
    else:
        acc[0] += n
        acc[1] += total
        acc[2] += squares


class _Sums:
    """Count, sum and sum of squares per slot, each observation a whole number at one slot.

    A result (1, a half, 0) is counted in halves (2, 1, 0) and read back as a float
    (:meth:`halves`): exact, and the sums stay native ints when compiled."""

    __slots__ = ("n", "s", "ss")

    def __init__(self, size: int) -> None:
        self.n: list[int] = [0] * size
        self.s: list[int] = [0] * size
        self.ss: list[int] = [0] * size

    def add(self, k: int, x: int) -> None:
        self.n[k] += 1
        self.s[k] += x
        self.ss[k] += x * x

    def halves(self, k: int) -> tuple[int, float, float]:
        """(count, sum, sum of squares) of slot ``k`` counted in halves, as results."""
        return self.n[k], self.s[k] / 2, self.ss[k] / 4


class GameCounter:
    """One block's counts of finished games (:meth:`add`), as tally sums (:meth:`into`)."""

    __slots__ = ("g", "chars", "slot_kind", "slot_of", "prim_names", "ab_names", "ab_conv",
                 "ab_no_legal", "ab_edges", "games", "results", "ints",
                 "decided", "prims", "abs", "effects", "played", "fights", "won",
                 "no_legal", "edge_cross", "player_game", "_per", "_prim", "_ab", "_fought", "_won")

    def __init__(self, g: GameTables) -> None:
        self.g = g
        self.chars = len(g.char_ids)
        # each coverage slot of Position.fired: 0 an ability, 1 a step (by its primitive), 2 a
        # character's effect; and the index of its name among its kind's distinct names
        self.slot_kind: list[int] = []
        self.slot_of: list[int] = []
        prim_index: dict[str, int] = {}
        ab_index: dict[str, int] = {}
        self.prim_names: list[str] = []
        self.ab_names: list[str] = []
        char_index = {cid: i for i, cid in enumerate(g.char_ids)}
        for kind, name in g.fired_names:
            if kind == "card":
                self.slot_kind.append(2)
                self.slot_of.append(char_index[name])
            elif kind == "primitive":
                if name not in prim_index:
                    prim_index[name] = len(self.prim_names)
                    self.prim_names.append(name)
                self.slot_kind.append(1)
                self.slot_of.append(prim_index[name])
            else:
                if name not in ab_index:
                    ab_index[name] = len(self.ab_names)
                    self.ab_names.append(name)
                self.slot_kind.append(0)
                self.slot_of.append(ab_index[name])
        if "conversion" not in ab_index:
            ab_index["conversion"] = len(self.ab_names)
            self.ab_names.append("conversion")
        self.ab_conv = ab_index["conversion"]
        self.ab_no_legal = ab_index.get("no_legal_card", -1)
        # each back's edge: the slots of its fights and fights won (-1: not counted)
        self.ab_edges = [(ab_index.get(f"{e}_edge", -1), ab_index.get(f"{e}_edge_won", -1)) for e in EDGES]
        self.games = 0
        # seat 1, seat 2, the turn-1 priority holder: results (a draw is a half)
        self.results = _Sums(3)  # in halves
        # integer figures: draw, score, margin, lead changes
        self.ints = _Sums(4)
        self.decided = _Sums(1)
        self.prims = _Sums(len(self.prim_names))
        self.abs = _Sums(len(self.ab_names))
        self.effects = _Sums(self.chars)
        self.played = _Sums(self.chars)  # in halves
        self.fights = _Sums(self.chars)
        self.won = _Sums(self.chars)
        self.no_legal = _Sums(1)
        self.edge_cross = _Sums(len(EDGES))
        self.player_game = _Sums(1)  # in halves
        self._per: list[int] = [0] * self.chars
        self._prim: list[int] = [0] * len(self.prim_names)
        self._ab: list[int] = [0] * len(self.ab_names)
        self._fought: list[int] = [0] * (2 * self.chars)
        self._won: list[int] = [0] * (2 * self.chars)

    def add(self, st: Position) -> tuple[int, list[int], int]:
        """Count the finished game ``st``; the facts the shared figures read (the turn-1
        priority holder, the final scores, the turns played)."""
        self.games += 1
        w = st.winner() if st.done else None
        r0 = 1 if w is None else (2 if w == 0 else 0)  # results in halves
        r1 = 2 - r0
        res = self.results
        res.add(0, r0)
        res.add(1, r1)
        res.add(2, r0 if st.first_prio == 0 else r1)
        ints = self.ints
        ints.add(0, 1 if w is None else 0)
        a: int = st.scores[0]
        b: int = st.scores[1]
        ints.add(1, a)
        ints.add(1, b)
        ints.add(2, a - b if a >= b else b - a)
        changes, decided = _lead_story(st.score_log, -1 if w is None else w)
        ints.add(3, changes)
        if decided > 0:
            self.decided.add(0, decided)
        self._fired(st)
        self.player_game.add(0, r0)
        self.player_game.add(0, r1)
        self._played(st.stats[0][0], r0)
        self._played(st.stats[1][0], r1)
        self._fights(st)
        return st.first_prio, st.scores, st.turn

    def _played(self, chars: list[int], r: int) -> None:
        """One observation ``r`` per character a seat put into play (once however often)."""
        per = self._per
        for c in chars:
            if per[c] == 0:
                per[c] = 1
                self.played.add(c, r)
        for c in chars:
            per[c] = 0

    def _fights(self, st: Position) -> None:
        """Per seat and character: its fights and fights won in this game, one observation per
        character that had any (``fight_log``: turn, slot, card0, card1, totals, won0, won1)."""
        char = self.g.char
        n = self.chars
        fought = self._fought  # seat 1's characters, then seat 2's: one flat list
        won = self._won
        touched: list[int] = []
        for f in st.fight_log:
            k: int = char[f[2]]
            if fought[k] == 0:
                touched.append(k)
            fought[k] += 1
            if f[6]:
                won[k] += 1
            k = n + char[f[3]]
            if fought[k] == 0:
                touched.append(k)
            fought[k] += 1
            if f[7]:
                won[k] += 1
        for k in touched:
            c = k - n if k >= n else k
            self.fights.add(c, fought[k])
            fought[k] = 0
            if won[k]:
                self.won.add(c, won[k])
                won[k] = 0

    def _fired(self, st: Position) -> None:
        """The coverage counts of one game: per distinct name, one observation if it fired."""
        fired = st.fired
        kinds = self.slot_kind
        slots = self.slot_of
        prim = self._prim
        ab = self._ab
        for i in range(len(fired)):
            n = fired[i]
            if n:
                k = kinds[i]
                if k == 1:
                    prim[slots[i]] += n
                elif k == 0:
                    ab[slots[i]] += n
                else:
                    self.effects.add(slots[i], n)
        conv = st.stats[0][2] + st.stats[1][2]
        if conv:
            ab[self.ab_conv] = conv
        for j in range(len(prim)):
            if prim[j]:
                self.prims.add(j, prim[j])
                prim[j] = 0
        no_legal = ab[self.ab_no_legal] if self.ab_no_legal >= 0 else 0
        self.no_legal.add(0, 1 if no_legal else 0)
        for k, (e, w) in enumerate(self.ab_edges):
            edge = ab[e] if e >= 0 else 0
            if edge:
                self.edge_cross.add(k, edge * (ab[w] if w >= 0 else 0))
        for j in range(len(ab)):
            if ab[j]:
                self.abs.add(j, ab[j])
                ab[j] = 0

    def into(self, sums: dict[str, list[float]]) -> None:
        """Add the block's counts to a tally's ``sums``, as ``metrics.tally`` adds each game's."""
        if not self.games:
            return
        n = self.games
        _merge(sums, "games", n, n, n)
        res = self.results
        for k in range(2):
            _merge(sums, f"seat.{k + 1}.win_rate", *res.halves(k))
        _merge(sums, "first_priority_win_rate", *res.halves(2))
        ints = self.ints
        for k, name in enumerate(("draw_rate", "score", "score_margin", "lead_changes")):
            _merge(sums, name, ints.n[k], ints.s[k], ints.ss[k])
        _each(sums, "decided_turn", self.decided, 0)
        ids = self.g.char_ids
        for c in range(self.chars):  # every character's play count, played or not
            _merge(sums, f"card.{ids[c]}.played", 0, 0.0, 0.0)
        _named(sums, "fired.primitive.", self.prim_names, self.prims)
        _named(sums, "fired.ability.", self.ab_names, self.abs)
        _each(sums, "no_legal_card_rate", self.no_legal, 0)
        for k, e in enumerate(EDGES):
            _each(sums, f"{e}_edge_cross", self.edge_cross, k)
        for c in range(self.chars):
            _each(sums, f"card.{ids[c]}.effect_fired", self.effects, c)
        _merge(sums, "player_game", *self.player_game.halves(0))
        for c in range(self.chars):
            if self.played.n[c]:
                _merge(sums, f"card.{ids[c]}.played", *self.played.halves(c))
            _each(sums, f"card.{ids[c]}.fights", self.fights, c)
            _each(sums, f"card.{ids[c]}.fights_won", self.won, c)


def _lead_story(score_log: list[tuple[int, int, int]], winner: int) -> tuple[int, int]:
    """``boneyard.engine.stats.lead_story`` for two players, on the score log itself (``winner``
    -1 for a draw; 0 for "never decided"): typed here, it costs a tenth of the generic one, and
    tests/test_sim_uniform.py checks the two agree over every game it plays."""
    changes = 0
    last = -1
    leaders: list[int] = []
    for a, b, _p in score_log:
        x = 0 if a > b else 1 if b > a else -1
        leaders.append(x)
        if x >= 0:
            if last >= 0 and x != last:
                changes += 1
            last = x
    decided = 0
    if winner >= 0 and leaders:
        decided = len(leaders)
        for t in range(len(leaders) - 1, -1, -1):
            if leaders[t] != winner:
                break
            decided = t + 1
    return changes, decided


def _each(sums: dict[str, list[float]], name: str, acc: _Sums, k: int) -> None:
    if acc.n[k]:
        _merge(sums, name, acc.n[k], acc.s[k], acc.ss[k])


def _named(sums: dict[str, list[float]], prefix: str, names: list[str], acc: _Sums) -> None:
    for j in range(len(names)):
        _each(sums, prefix + names[j], acc, j)
