"""Determinization: deal a player's hidden cards afresh into a copy of the state (the body of
``DotdObservation.determinize``), compiled with the engine.

Why here: search agents (the gate agent, mcts) sample a deal for every lookahead, and the
deal's Python loops cost as much as the playouts that follow. Compiled beside the state
(pyproject.toml ``[tool.boneyard] compiled``) it runs the same draws, in the same order, to the
same deal as pure Python.
"""

from __future__ import annotations

import random

from .codes import D_SELECT, D_UE_PICK
from .position import Position


def deal_hidden(s: Position, player: int, rng: random.Random) -> None:
    """Redeal, in ``s`` (a copy of the observed state), every card ``player`` cannot locate:
    the pool of them by back, sorted (so it depends only on the view), shuffled with ``rng`` and
    dealt back into the hidden places; the deck keeps its known-but-unordered cards."""
    g = s.g
    opp = 1 - player
    pub = s.pub
    back = g.back
    pool: list[list[int]] = [[], [], []]
    # Hidden places, as (zone list, index); a deck's known-but-unordered cards stay in it.
    places: list[tuple[list[int], int]] = []
    opp_hand = s.hands[opp]
    opp_chosen = s.chosen[opp]
    # pending choices are still in the hand; remember where, to follow them after resampling
    chosen_at = [opp_hand.index(c) for c in opp_chosen]
    for j in range(len(opp_hand)):
        places.append((opp_hand, j))
    line = s.lines[opp]
    up = s.up[opp]
    for j in range(len(line)):
        if not up[j] and not pub[line[j]]:
            places.append((line, j))
    if s.spirit[opp] >= 0 and not pub[s.spirit[opp]]:
        places.append((s.spirit, opp))
    look: list[int] | None = None
    if s.dk == D_UE_PICK and s.dp == opp:  # cards only the opponent is looking at
        look = list(s.dc[2])
        for j in range(len(look)):
            places.append((look, j))
    for zone, j in places:
        pool[back[zone[j]]].append(zone[j])
    deck_known: list[list[int]] = []
    for b in range(3):
        deck = s.decks[b]
        known = [c for c in deck if pub[c]]
        hidden = [c for c in deck if not pub[c]]
        pool[b].extend(hidden)
        deck_known.append(known)
    rnd = rng.random
    for b in range(3):
        pool[b].sort()
        pool[b].sort(key=lambda _c: rnd())  # a uniform shuffle, cheaper than rng.shuffle
    renamed: dict[int, int] = {}
    for zone, j in places:
        new = pool[back[zone[j]]].pop()
        renamed[zone[j]] = new
        zone[j] = new
    for b in range(3):
        deck = pool[b]  # already in random order
        if deck_known[b]:
            deck += deck_known[b]
            deck.sort(key=lambda _c: rnd())
        s.decks[b] = deck
    if opp_chosen:
        if g.simultaneous:  # the choice itself is unknown: sample it among the legal plays
            # ... but a turn-1 fighter already down shows its back, and its hand place kept it
            down = 1 if s.turn == 1 and s.chosen[player] else 0
            s.chosen[opp] = [opp_hand[j] for j in chosen_at[:down]]
            for _ in chosen_at[down:]:
                s.chosen[opp].append(rng.choice(sorted(s._selectable(opp))))
        else:  # its backs are known, and the hand positions kept their backs
            s.chosen[opp] = [opp_hand[j] for j in chosen_at]
    s.seed = rng.getrandbits(64)
    s.nshuf = 0
    if s.dk == D_SELECT:
        s.dl = s._selectable(s.dp)
    elif look is not None:  # the opponent is choosing among cards only it has seen
        s.dc = (renamed.get(s.dc[0], s.dc[0]), s.dc[1], tuple(look))
        s.dl = list(look)
    elif s.dk >= 0 and s.dp == opp:
        # the opponent's pending choice may list cards hidden from me: follow the resample
        s.dl = [renamed.get(a, a) for a in s.dl]
