"""What a Day of the Dead player may see, determinization, the greedy agent and the metrics."""

from __future__ import annotations

import random

import pytest
from boneyard.engine.dotd import DotdGame
from boneyard.engine.dotd.greedy import GreedyAgent
from boneyard.engine.dotd.metrics import game_metrics
from boneyard.engine.dotd.summary import DotdSummary
from boneyard.pipeline.load import load_set


@pytest.fixture(scope="module")
def g() -> DotdGame:
    return DotdGame(load_set("day-of-the-dead"))


def _advance(s, n, seed=0):
    rng = random.Random(seed)
    for _ in range(n):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        s.apply_action(legal[rng.randrange(len(legal))])
    return s


def _swap_hidden(s, p):
    """A copy of ``s`` where one of p's opponent's hand cards trades places with a deck card of
    the same back: a change p cannot observe."""
    o = 1 - p
    t = s.clone()
    for j, c in enumerate(t.hands[o]):
        if c in t.chosen[o]:
            continue
        deck = t.decks[t.g.back[c]]
        hidden = [k for k, d in enumerate(deck) if not t.pub[d]]  # not a reshuffled, known card
        if hidden:
            k = hidden[len(hidden) // 2]
            new = deck[k]
            t.hands[o][j], deck[k] = new, c
            t.dl = [new if a == c else a for a in t.dl]  # a pending choice among hand cards
            return t
    raise AssertionError("nothing to swap")


def test_observation_hides_opponent_hand_and_unseen_faces(g):
    for seed in range(30):
        s = _advance(g.new_initial_state(seed), 25, seed)
        if s.is_terminal():
            continue
        for p in (0, 1):
            js = s.observation(p).to_json()
            text = repr(js)
            for c in s.hands[1 - p]:
                if not s.pub[c]:
                    assert g.card_name(c) not in text
            s_face = s.spirit[1 - p]
            if s_face >= 0 and not s.pub[s_face]:
                assert g.card_name(s_face) not in text
            assert js["hand"] == [g.card_name(c) for c in s.hands[p]]


def test_unrevealed_face_down_line_card_is_hidden_from_the_opponent(g):
    found = 0
    for seed in range(200):
        s = g.new_initial_state(seed)
        rng = random.Random(seed)
        while not s.is_terminal() and not found:
            for p in (0, 1):
                for j, (c, u) in enumerate(zip(s.lines[p], s.up[p], strict=True)):
                    if not u and not s.pub[c]:
                        assert s.observation(1 - p).lines[p][j][0] == -1
                        assert s.observation(p).lines[p][j][0] == c
                        found += 1
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
        if found:
            break
    assert found


def test_determinize_depends_only_on_the_view(g):
    checked = 0
    for seed in range(40):
        s = _advance(g.new_initial_state(seed), 3 + seed % 20, seed)
        if s.is_terminal():
            continue
        p = s.current_player()
        t = _swap_hidden(s, p)
        a = s.observation(p).determinize(random.Random(9))
        b = t.observation(p).determinize(random.Random(9))
        assert a.to_json() == b.to_json()
        assert a.decks == b.decks and a.hands == b.hands
        a.check_invariants()
        # what p knows is kept: own hand, the field as seen, discards, scores, backs
        assert a.hands[p] == s.hands[p] and a.discards == s.discards and a.scores == s.scores
        assert sorted(g.back[c] for c in a.hands[1 - p]) == sorted(g.back[c] for c in s.hands[1 - p])
        assert [len(d) for d in a.decks] == [len(d) for d in s.decks]
        checked += 1
    assert checked > 20


def test_determinize_samples_differ(g):
    s = _advance(g.new_initial_state(4), 6, 4)
    p = s.current_player()
    obs = s.observation(p)
    hands = {tuple(sorted(obs.determinize(random.Random(k)).hands[1 - p])) for k in range(10)}
    assert len(hands) > 1


def test_greedy_does_not_peek(g):
    agent = GreedyAgent(g)
    for seed in range(30):
        s = _advance(g.new_initial_state(seed), seed % 25, seed)
        if s.is_terminal():
            continue
        p = s.current_player()
        t = _swap_hidden(s, p)
        assert agent.choose(s.observation(p), random.Random(1)) == agent.choose(
            t.observation(p), random.Random(1))


def test_greedy_beats_random_clearly(g):
    agent = GreedyAgent(g)
    rng = random.Random(2)
    score = 0.0
    n = 160
    for k in range(n):
        s = g.new_initial_state(10_000 + k)
        seat = k % 2
        while not s.is_terminal():
            p = s.current_player()
            legal = s.legal_actions()
            a = agent.choose(s.observation(p), rng) if p == seat else legal[rng.randrange(len(legal))]
            s.apply_action(a)
        score += s.returns()[seat]
    assert score / n > 0.7


def test_metrics_names_and_values(g):
    rng = random.Random(0)
    summaries = []
    for seed in range(80):
        s = g.new_initial_state(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            s.apply_action(legal[rng.randrange(len(legal))])
        summaries.append(s.summary())
    ms = {m.name: m for m in game_metrics(summaries, 2)}
    assert ms["games"].value == 80
    for name in ("first_priority_win_rate", "draw_rate", "seat.1.win_rate", "seat.2.win_rate",
                 "score_mean", "score_sd", "score_margin", "lead_changes", "decided_turn"):
        assert name in ms and ms[name].low <= ms[name].value <= ms[name].high
    assert abs(ms["seat.1.win_rate"].value + ms["seat.2.win_rate"].value - 1) < 1e-9
    for c in g.card_set.characters:
        for suffix in ("play_rate", "fights_won_rate", "win_rate_played", "win_rate_not_played", "win_delta"):
            assert f"card.{c.id}.{suffix}" in ms
        m = ms[f"card.{c.id}.win_delta"]
        assert m.group == "card" and m.subject == c.id
        played = ms[f"card.{c.id}.win_rate_played"].value
        not_played = ms[f"card.{c.id}.win_rate_not_played"].value
        assert m.value == pytest.approx(played - not_played)


def test_lead_changes_and_decided_turn():
    s = {"winner": 1, "scores": [20, 25], "first_priority": 0,
         "scores_per_turn": [[5, 0], [5, 7], [12, 7], [12, 7], [15, 20], [20, 25]],
         "players": [{"played": ["a"], "fights": {"a": 1}, "fights_won": {}},
                     {"played": ["b"], "fights": {"b": 1}, "fights_won": {"b": 1}}]}
    # a summary as logs keep it (to_json), and the typed one it stands for, count the same
    ms = {m.name: m for m in game_metrics([s], 2)}
    assert ms == {m.name: m for m in game_metrics([DotdSummary.from_json(s)], 2)}
    assert ms["lead_changes"].value == 3
    assert ms["decided_turn"].value == 5
    assert ms["first_priority_win_rate"].value == 0.0
    assert ms["card.b.fights_won_rate"].value == 1.0
    assert ms["card.a.play_rate"].value == 0.5


def test_determinize_at_the_opponents_decision_hides_its_options(g):
    checked = 0
    for seed in range(60):
        s = _advance(g.new_initial_state(seed), seed % 30, seed)
        if s.is_terminal():
            continue
        p = 1 - s.current_player()  # p looks while the opponent decides
        t = _swap_hidden(s, p)
        a = s.observation(p).determinize(random.Random(3))
        b = t.observation(p).determinize(random.Random(3))
        assert a.to_json() == b.to_json()
        a.check_invariants()
        assert a.current_player() == s.current_player() and a.legal_actions()
        c = a.clone()
        c.apply_action(c.legal_actions()[0])  # the sampled options are playable
        checked += 1
    assert checked > 30
