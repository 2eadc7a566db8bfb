"""Small queries and steps on a Grave Feast position that every other part of the engine uses:
finding a family, what a player may use now, coin flips and flubs, the end of a game.

Module functions taking the state, not methods: under mypyc a call between modules of the
engine is a direct native call. This module sits at the bottom of the engine's imports (it needs
only the constants), so no import circle can form through it.
"""

from __future__ import annotations

import random

from boneyard.engine.gf.constants import DEVIL_WIFE, OVER, PREACHER, Fam
from boneyard.engine.gf.position import Position

from boneyard.errors import RulesError

NONE_BLOCKED: frozenset[int] = frozenset()


def shuffle(rng: random.Random, x: list[int]) -> None:
    """``rng.shuffle(x)`` with the same draws, but with CPython's ``_randbelow`` inlined (a plain
    ``random.Random`` draws ``getrandbits(bit_length)`` until below the bound): the deal and
    every recycle shuffle, and the library's two nested calls per card were a visible share of a
    game. A subclass of Random keeps its own shuffle."""
    if type(rng) is not random.Random:
        rng.shuffle(x)
        return
    getrandbits = rng.getrandbits
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def find(s: Position, fid: int) -> tuple[int, int]:
    """(controller, index) of family ``fid``; (-1, -1) if it left the board."""
    for p, fams in enumerate(s.fams):
        for i, f in enumerate(fams):
            if f[0] == fid:
                return p, i
    return -1, -1


def mkfam(s: Position, fid: int, food: int, cards: list[int] | tuple[int, ...], eaters: tuple[int, ...]) -> Fam:
    """A family tuple with its cards in number order."""
    num = s.g.num
    cs = tuple(sorted(cards, key=num.__getitem__))
    return (fid, food, num[cs[0]], num[cs[-1]], eaters, cs)


def eligible(s: Position, f: Fam) -> bool:
    """May the family go to the graveyard: fed, gap-free, big enough, an eater not confused."""
    cards = f[5]
    if not f[4] or len(cards) < s.g.min_family or f[3] - f[2] + 1 != len(cards):
        return False
    if s.confused:
        conf = [c for _, c in s.confused]
        return any(e not in conf for e in f[4])
    return True


def from_hand_or_mash(s: Position, p: int, c: int) -> None:
    h = s.hands[p]
    if c in h:
        h.remove(c)
    else:
        s.mash[p].remove(c)


def first(s: Position, cards: list[int], kind: int) -> int:
    """The first card of ``kind`` in ``cards``, or -1."""
    K = s.g.kind
    for c in cards:
        if K[c] == kind:
            return c
    return -1


def usable(s: Position, p: int, kind: int) -> list[int]:
    """The first card of ``kind`` in p's hand and in p's mash (instants: one of each)."""
    out = []
    K = s.g.kind
    blocked = blocked_cards(s, p) if (s.locked or s.hidden or s.confused) else NONE_BLOCKED
    for c in s.hands[p]:
        if K[c] == kind and c not in blocked:
            out.append(c)
            break
    if s.g.from_mash:
        for c in s.mash[p]:
            if K[c] == kind and c not in blocked:
                out.append(c)
                break
    return out


def has_preacher(s: Position, p: int) -> bool:
    """``bool(usable(s, p, PREACHER))``, without building the list when nothing is blocked."""
    if s.locked or s.hidden or s.confused:
        return bool(usable(s, p, PREACHER))
    g = s.g
    if not g.preachers.isdisjoint(s.hands[p]):
        return True
    return g.from_mash and not g.preachers.isdisjoint(s.mash[p])


def blocked_cards(s: Position, p: int) -> set[int] | frozenset[int]:
    """p's cards that cannot be used now (locked, hiding, confused); read-only."""
    if not (s.locked or s.hidden or s.confused):
        return NONE_BLOCKED
    b = {c for q, c in s.locked if q == p}
    b.update(h[1] for h in s.hidden if h[0] == p)
    b.update(c for _q, c in s.confused)  # whoever holds it now (a steal does not wake it)
    return b


def controls(s: Position, p: int, c: int) -> bool:
    """Is card ``c`` p's now: in p's hand or mash, an eater of p's family, p's Devil Wife? A
    confused monster stolen with a family or a mash is its new controller's (GF-22)."""
    if c in s.hands[p] or c in s.mash[p] or c in s.dw[p]:
        return True
    return any(c in f[4] for f in s.fams[p])


def protected(s: Position, q: int) -> bool:
    """An Exorcist in q's mash protects it from every steal (GF-22)."""
    return not s.g.exorcists.isdisjoint(s.mash[q])


def maelstrom(s: Position, p: int) -> bool:
    """Is player p's monster under an Exorcist's maelstrom (some Exorcist in some mash)?"""
    exo_free = s.g.exorcists.isdisjoint
    for q, m in enumerate(s.mash):  # noqa: SIM110  (a loop: no generator in the hot path)
        if (s.g.maelstrom_all or q != p) and not exo_free(m):
            return True
    return False


def flip(s: Position, why: str) -> bool:
    """A logged coin flip from the state's seeded RNG (or a scenario's script); True is heads."""
    if s.scripted is not None:
        heads = scripted(s, 0, why) == "heads"
        s.note(("coin", why, "heads" if heads else "tails"))
        return heads
    heads = s.rng.random() < s.g.p_heads
    s.note(("coin", why, "heads" if heads else "tails"))
    return heads


def bump(s: Position, key: str) -> None:
    """One more of a counter of ``Position.stats`` that only some games have (set when first
    counted, so a game that never counts it prints the same stats as before it existed)."""
    s.stats[key] = s.stats.get(key, 0) + 1


def spared(s: Position, p: int) -> None:
    """``maelstrom_scope: opponents_only``: p's monster attempts something with no flip although
    an Exorcist sits in p's own mash (counted for coverage; called where no flip is made)."""
    if not s.g.maelstrom_all and not s.g.exorcists.isdisjoint(s.mash[p]):
        bump(s, "maelstrom_spared")


def confused_attempt(s: Position, p: int, card: int, why: str) -> bool:
    """The maelstrom flip for a monster attempting something; True when it fails (tails)."""
    if not s.g.rares:
        return False
    if not maelstrom(s, p):
        spared(s, p)
        return False
    if flip(s, f"maelstrom: {why}"):
        return False
    s.confused.append((p, card))
    bump(s, "confused")
    return True


def flub(s: Position) -> bool:
    """Did the player misspeak (the ``phrase_error_rate`` switch)?"""
    r = s.g.flub_rate
    if s.scripted is not None and r > 0.0:
        if scripted(s, 1, "phrase") != "flub":
            return False
        s.stats["flubs"] += 1
        return True
    if r > 0.0 and s.rng.random() < r:
        s.stats["flubs"] += 1
        return True
    return False


def scripted(s: Position, k: int, why: str) -> str:
    """The next scripted outcome (a scenario's ``coins``: k=0, ``phrases``: k=1, in order); an
    unscripted phrase is said right, an unscripted coin is a mistake in the scenario."""
    assert s.scripted is not None
    seq = s.scripted[k]
    if seq:
        return seq.pop(0)
    if k == 1:
        return "ok"
    raise RulesError(f"a coin is flipped ({why}) but the scenario's coins are used up")


def note_rares(s: Position) -> None:
    """Remember who held each rare (the metrics' holder win rates)."""
    if not s.g.rares:
        return
    K = s.g.kind
    no_rare = s.g.rare_cards.isdisjoint
    for p, h in enumerate(s.hands):
        if no_rare(h):
            continue
        for c in h:
            if K[c] >= DEVIL_WIFE:
                s.held_rare.setdefault(c, set()).add(p)


def finish_capped(s: Position) -> None:
    """The turn cap: the leaders share the win."""
    top = max(s.score)
    leaders = [i for i, v in enumerate(s.score) if v == top]
    share = 1.0 / len(leaders)
    s.result = [share if i in leaders else 0.0 for i in range(s.n)]
    s.capped = True
    s.phase = OVER
    s.queue = []


def win(s: Position, p: int) -> None:
    s.result = [1.0 if i == p else 0.0 for i in range(s.n)]
    s.phase = OVER
    s.queue = []
