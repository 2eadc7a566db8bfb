"""Figures that judge a game's rules parameters, not its cards: what a rules edit does to play.

A card edit moves its card's figures; a rules edit (a back limit, a spirit's bonus, a family's
size) moves none of them, so each game measures what its rules are for: a player left with no
card it may play, each back's spirit's fight edge, humans per feast in Grave Feast.
"""

from __future__ import annotations

import random

from boneyard.engine.agents import make_agent
from boneyard.engine.dotd import DotdGame
from boneyard.engine.dotd.metrics import game_metrics
from boneyard.engine.dotd.sets import make_card_set
from boneyard.engine.gf import FeastGame
from boneyard.engine.gf import metrics as gf_metrics
from boneyard.engine.sim import play_game
from boneyard.engine.stats import Tally
from boneyard.pipeline.load import load_set
from test_dotd_rules import CHARACTERS


def _random_games(game, n: int):
    """The summaries of ``n`` random games (seeds 0..n-1)."""
    agents = [make_agent("random", game)] * game.num_players
    return [play_game(game, agents, seed)[0].summary() for seed in range(n)]


def _random_summaries(n: int, **params):
    return _random_games(DotdGame(make_card_set(CHARACTERS, params=params)), n)


def _greedy_summaries(n: int, **params):
    game = DotdGame(make_card_set(CHARACTERS, params=params))
    agents = [make_agent("greedy", game)] * 2
    return [play_game(game, agents, seed)[0].summary() for seed in range(n)]


def _figures(summaries):
    return {m.name: m for m in game_metrics(summaries)}


def test_one_card_of_a_back_in_play_leaves_every_player_without_a_legal_card_three_times():
    """Turn 1 fills two backs (a spirit and a fighter), turn 2 the third; turns 3-5 then have no
    card under a back limit of 1 (DD-04: play any), and turn 6 is free."""
    summaries = _random_summaries(12, back_limit=1)
    assert [dict(s.abilities).get("no_legal_card") for s in summaries] == [6] * 12
    assert _figures(summaries)["no_legal_card_rate"].value == 1.0
    bundled = _figures(_random_summaries(12))
    assert bundled["no_legal_card_rate"].value == 0.0 and bundled["no_legal_card_rate"].high < 0.3


def test_a_power_up_spirits_edge_grows_with_its_bonus():
    plain = _figures(_random_summaries(30))["power_up_edge_win_rate"]
    big = _figures(_random_summaries(30, power_up_bonus=20))["power_up_edge_win_rate"]
    assert plain.n > 0 and big.n > 0
    assert big.value > 0.85 and plain.high < big.low  # a 20-power bonus wins almost all
    assert 0.3 < plain.value < 0.75


def test_a_double_spirit_of_one_use_is_worth_less_than_one_of_two():
    """A Double spirit with one use repeats nothing: where only one side has it, that side has no
    help the other lacks, and loses more fights against the other backs' bonus. (Greedy plays:
    random play fields drawbacks as often as gains, and a Double repeats both.)"""
    one = _figures(_greedy_summaries(100, double_uses=1))
    two = _figures(_greedy_summaries(100))
    blank, plain = one["double_edge_win_rate"], two["double_edge_win_rate"]
    assert blank.n > 0 and plain.n > 0
    assert blank.high < plain.low
    assert one["fired.ability.double_use"].value == 0 < two["fired.ability.double_use"].value


def test_each_backs_edge_counts_only_fights_where_one_side_has_that_spirit():
    summaries = _random_summaries(30)
    for s in summaries:
        got = dict(s.abilities)
        for back in ("power_up", "double", "unearth"):
            assert got.get(f"{back}_edge_won", 0) <= got.get(f"{back}_edge", 0)
    figures = _figures(summaries)
    for back in ("power_up", "double", "unearth"):
        assert 0.0 < figures[f"{back}_edge_win_rate"].value < 1.0


def test_a_ratio_of_events_takes_games_as_its_unit():
    """Events of one game go together (one strong hand wins several fights): a game whose events
    all go one way counts as one observation, and the interval is about a proportion over games."""
    rng = random.Random(7)
    clustered, spread = Tally(), Tally()
    for _ in range(200):
        k = 10  # events a game
        won_all = rng.random() < 0.5
        for t, won in ((clustered, k if won_all else 0), (spread, sum(rng.random() < 0.5 for _ in range(k)))):
            t.add("events", k)
            t.add("won", won)
            t.add("cross", k * won)
    a = clustered.ratio_metric("r", "won", "events", "cross", 200)
    b = spread.ratio_metric("r", "won", "events", "cross", 200)
    assert a.n == b.n == 2000
    assert 0.4 < a.value < 0.6 and 0.4 < b.value < 0.6
    assert a.width > 2.5 * b.width  # ~ sqrt(10) wider: 200 observations, not 2,000
    assert abs(a.width - 2 * 1.96 * (0.25 / 200) ** 0.5) < 0.03
    assert Tally().ratio_metric("r", "won", "events", "cross", 200).n == 0  # nothing to measure


def test_grave_feast_humans_per_feast_is_final_scores_over_feasts():
    summaries = _random_games(FeastGame(load_set("grave-feast"), num_players=2), 20)
    m = {x.name: x for x in gf_metrics.game_metrics(summaries, 2)}["humans_per_feast"]
    done = [x for x in summaries if x.over]
    assert m.value == sum(sum(x.scores) for x in done) / sum(x.feasts for x in done)
    assert m.unit == "humans" and m.low < m.value < m.high
    assert m.value >= 3  # the bundled families: three humans or more each
