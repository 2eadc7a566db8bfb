"""Set up a Grave Feast position by hand: the rulebook's examples, tests and debugging.

Cards are named as the engine prints them ("blood 3", "zombie", "preacher", "devil wife");
families as ``"brains 3 4 5 +zombie"``. Cards not placed anywhere form the draw pile (shuffled by
``seed`` unless ``draw`` gives its order, top card first).
"""

from __future__ import annotations

import difflib
import random
import re
from collections.abc import Sequence

from boneyard.engine.gf.board import mkfam, note_rares
from boneyard.engine.gf.constants import DEVIL_WIFE, EXORCIST, FOOD_NAMES, KIND_NAMES, MAIN
from boneyard.engine.gf.game import FeastGame
from boneyard.engine.gf.state import FeastState
from boneyard.engine.gf.turn import start_turn

from boneyard.errors import RulesError, excerpt


def arrange(
    game: FeastGame,
    *,
    hands: Sequence[Sequence[str]],
    families: Sequence[Sequence[str]] | None = None,
    mashes: Sequence[Sequence[str]] | None = None,
    scores: Sequence[int] | None = None,
    discard: Sequence[str] = (),
    draw: Sequence[str] | None = None,
    turn_player: int = 0,
    seed: int = 0,
    refill: bool = False,
) -> FeastState:
    """A state at the start of ``turn_player``'s main phase with exactly these cards placed."""
    n = game.num_players
    if len(hands) != n:
        raise RulesError(f"arrange: {n} hands needed, got {len(hands)}")
    rng = random.Random(seed)
    s = FeastState.deal(game, random.Random(seed))
    pool: dict[str, list[int]] = {}
    for c in range(game.size):
        pool.setdefault(game.names[c], []).append(c)

    every = {k: v[:] for k, v in pool.items()}

    def take(name: str) -> int:
        face, _, nth = name.strip().partition("#")  # "blood 9#2": the second copy of blood 9
        ids = pool.get(face.strip())
        if nth:
            copies = every.get(face.strip(), [])
            if not nth.isdigit() or not 1 <= int(nth) <= len(copies):
                raise RulesError(f"arrange: no card {name!r}: the set has {len(copies)} "
                                 f"of {face.strip()!r}")
            c = copies[int(nth) - 1]
            if ids is None or c not in ids:
                raise RulesError(f"arrange: card {name!r} is placed twice")
            ids.remove(c)
            return c
        if not ids:
            where = "left in the deck" if face.strip() in every else "in this set"
            raise RulesError(f"arrange: no card {name!r} {where}{_hint(face)}")
        return ids.pop(0)

    def _hint(face: str) -> str:
        face = face.strip()
        if face in every:
            return f" (the set has {len(every[face])}, all placed already)"
        if face in (KIND_NAMES[DEVIL_WIFE], KIND_NAMES[EXORCIST]) and not game.rares:
            return " (the rares are in the deck only with params: {rares: true})"
        near = difflib.get_close_matches(face, list(every), 3)
        return f" (did you mean {' or '.join(repr(x) for x in near)}?)" if near else ""

    s.hands = [[take(x) for x in h] for h in hands]
    s.fams = [[] for _ in range(n)]
    for p, fams in enumerate(families or [[] for _ in range(n)]):
        for spec in fams:
            words = spec.split()
            food = FOOD_NAMES.index(words[0])
            nums = [w for w in words[1:] if not w.startswith("+")]
            eaters = tuple(take(w[1:]) for w in words[1:] if w.startswith("+"))
            cards = [take(f"{words[0]} {x}") for x in nums]
            fid = s.next_fid
            s.next_fid += 1
            s.fams[p].append(mkfam(s, fid, food, cards, eaters))
    s.mash = [[take(x) for x in m] for m in (mashes or [[] for _ in range(n)])]
    s.discard = [take(x) for x in discard]
    s.grave = [[] for _ in range(n)]
    s.score = list(scores) if scores is not None else [0] * n
    rest = [c for ids in pool.values() for c in ids]
    if draw is not None:
        top = [take(x) for x in draw]
        rest = [c for ids in pool.values() for c in ids]
        rng.shuffle(rest)
        s.draw = rest + top[::-1]  # the draw pile is popped from the end
    else:
        rng.shuffle(rest)
        s.draw = rest
    s.tp = s.first = turn_player
    s.turn_no = 0
    s.phase = MAIN
    s.queue = []
    s.held_rare = {}
    if refill:
        start_turn(s)
    else:
        s.played = False
        s.touched = []
        s.flubbed = []
    note_rares(s)
    s._legal = None
    return s


_CARD_ID = re.compile(r"(?<=\w)#\d+")


def find_action(state: FeastState, text: str) -> int:
    """The legal action whose readable form contains ``text`` (exactly one must match)."""
    hits = [a for a in state.legal_actions() if text in _CARD_ID.sub("", state.action_to_string(a))]
    if len(hits) > 1:
        hits = [a for a in hits if _CARD_ID.sub("", state.action_to_string(a)) == text] or hits
    if len(hits) != 1:
        options = "; ".join(state.action_to_string(a) for a in state.legal_actions())
        raise RulesError(f"{len(hits)} actions match {excerpt(text)!r}; legal: {options}")
    return hits[0]


def play(state: FeastState, text: str) -> None:
    """Apply the one legal action whose text contains ``text``."""
    state.apply_action(find_action(state, text))
