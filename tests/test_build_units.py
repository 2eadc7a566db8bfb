"""The small pieces of a playtest: the stand-in, lead story, precision widths, rare deltas, the
CI profile's agent."""

from __future__ import annotations

import math

import pytest
from boneyard.engine.games import spec_of
from boneyard.engine.stats import Metric
from boneyard.pipeline.load import load_set
from boneyard.pipeline.playtest import lead_story, rare_metrics, too_wide


def test_stand_in_keeps_every_card_in_place_but_has_no_effect():
    cs = load_set("day-of-the-dead")
    anger = cs.character("anger")
    stand_in = spec_of(cs.rules).stand_in
    sub = stand_in(cs, "anger", {"power": 5})
    plain = sub.character("anger")
    assert plain.effect == () and plain.power == 5 and plain.backs == anger.backs
    assert [c.id for c in sub.cards] == [c.id for c in cs.cards]  # same indices: same deals
    assert [c.index for c in sub.cards] == [c.index for c in cs.cards]
    assert all(dc.character is plain for dc in sub.cards if dc.character.id == "anger")
    assert sub.content_hash != cs.content_hash
    others = [c for c in cs.characters if c.id != "anger"]
    assert others == [c for c in sub.characters if c.id != "anger"]
    # the default stand-in power is the set's median printed power
    powers = sorted(c.power for c in cs.characters)
    median = (powers[17] + powers[18]) / 2
    assert stand_in(cs, "anger", {}).character("anger").power == round(median)


def test_gate_fast_is_the_cheaper_gate_where_a_game_has_one_and_the_gate_elsewhere():
    from boneyard.engine.agents import make_agent, parse_spec
    from boneyard.engine.dotd.gate import FAST, SEARCH
    from boneyard.engine.games import make_game

    assert parse_spec("gate:fast") == ("gate", None)
    dotd = make_game(load_set("day-of-the-dead"), None)
    fast, full = make_agent("gate:fast", dotd), make_agent("gate", dotd)
    assert (fast.name, fast.search, full.name, full.search) == ("gate:fast", FAST, "gate", SEARCH)  # type: ignore[attr-defined]
    gf = make_game(load_set("grave-feast"), None)
    assert type(make_agent("gate:fast", gf)) is type(make_agent("gate", gf))  # GF has no cheaper gate
    # the bundled Day of the Dead's CI profile plays it, and its record says so
    from boneyard.pipeline.playtest_config import resolve

    cs = load_set("day-of-the-dead")
    assert resolve(cs.playtest, default_players=None, profile="fast").agents == "gate:fast"
    assert resolve(cs.playtest, default_players=None).agents == "gate"


def test_lead_story_counts_changes_and_when_the_winner_took_the_lead_for_good():
    per_turn = [[0, 3], [5, 3], [5, 9], [12, 9], [12, 12], [20, 12]]
    # leaders: 1, 0, 1, 0, (tie), 0 -> 3 changes; player 0 leads for good from turn 6 (tie at 5)
    assert lead_story(per_turn, [1.0, 0.0]) == (3, 6)
    assert lead_story([[3, 0], [6, 1], [9, 2]], [1.0, 0.0]) == (0, 1)
    assert lead_story([[3, 0], [3, 3]], [0.5, 0.5]) == (0, None)  # a draw is never decided


def test_precision_width_is_absolute_for_rates_and_relative_otherwise():
    rate = Metric("x", 0.5, 0.49, 0.515, 100, unit="%")
    assert too_wide(rate, 0.02) and not too_wide(rate, 0.03)
    rounds = Metric("mean_rounds", 12.0, 11.9, 12.1, 100, unit="rounds")
    assert not too_wide(rounds, 0.02) and too_wide(rounds, 0.01)
    small = Metric("reshuffles_per_game", 0.4, 0.39, 0.42, 100)
    assert not too_wide(small, 0.05)  # 0.03 wide, limit 0.05 x max(0.4, 1)


def test_rare_win_delta_compares_holders_with_the_others():
    summaries = [{"rare_holders": {"devil_wife": [0], "exorcist": [1]}}] * 10
    returns = [[1.0, 0.0, 0.0]] * 10
    by = {m.name: m for m in rare_metrics(summaries, returns, set())}
    dw = by["rare.devil_wife.win_delta"]
    assert dw.value == 1.0 and dw.n == 10 and dw.low > 0.5
    assert by["rare.exorcist.win_delta"].value == -0.5
    assert rare_metrics([{}], [[1.0, 0.0]], set()) == []


def test_substituting_a_card_by_itself_changes_no_game():
    """Pairing is exact: Dud (vanilla, power 0, in the 'useless' fixture) replaced by a power-0
    stand-in replays every paired game identically: the effect is exactly zero, zero-width."""
    from dataclasses import replace
    from pathlib import Path

    from boneyard.engine.cards import freeze
    from boneyard.pipeline.build import config_for
    from boneyard.pipeline.playtest import playtest

    cs = load_set(Path(__file__).parent / "fixtures" / "sets" / "dotd-useless")
    assert cs.character("oaf").effect == () and cs.character("oaf").power == 0
    section = {"agents": "greedy", "games": 400, "seed": 11, "strength": {"games": 0},
               "substitution": {"games": 12, "cards": ["oaf"], "stand_in": {"power": 0}},
               "gates": [{"metric": "card.*.sub_delta", "min": -0.2, "max": 0.2}]}
    record = playtest(replace(cs, playtest=freeze(section)), config_for(replace(cs, playtest=freeze(section)), jobs=1))
    m = next(x for x in record["runs"][0]["metrics"] if x["name"] == "card.oaf.sub_delta")
    assert m["n"] == 12 and (m["value"], m["low"], m["high"]) == (0.0, 0.0, 0.0)


def test_coin_heads_rate_reads_each_flip_off_the_outcome_it_decided():
    from dataclasses import replace

    from boneyard.engine.sim import simulate
    from boneyard.pipeline.playtest import _measure

    cs = load_set("grave-feast")
    rates = {}
    for p in (0.0, 0.5, 1.0):
        c = replace(cs, switches={**cs.switches, "coin_p_heads": p})
        res = simulate(c, ["gate"], 30, 1, jobs=1, num_players=6, options={"rares": True}, keep_games=True)
        m = {m.name: m for m in _measure(c, res.summaries, res.returns, res.seats, 6)}["coin_heads_rate"]
        assert m.n > 100  # every game of six with the rares flips the coin
        rates[p] = m
    assert rates[0.0].value == 0.0 and rates[1.0].value == 1.0
    assert rates[0.5].low < 0.5 < rates[0.5].high


def test_once_a_run_refuses_the_build_later_runs_play_their_first_look_only():
    """A proof of failure in one run is the verdict: later runs show their figures at the first
    look instead of sampling on (a refused Grave Feast build waited for the rares run's cap)."""
    from dataclasses import replace

    from boneyard.engine.cards import freeze
    from boneyard.pipeline.build import config_for
    from boneyard.pipeline.playtest import playtest

    cs = load_set("grave-feast")
    section = {"agents": "greedy", "games": 40, "cap": 320, "seed": 2, "strength": {"games": 0},
               "coverage": {"min": 0}, "sensitivity": {"games": 0},
               "runs": [{"label": "p2", "players": 2}, {"label": "p3", "players": 3}],
               "gates": [{"metric": "mean_rounds", "run": "p2", "max": 1},   # fails at once
                         {"metric": "seat_win_spread", "max": 0.0001}]}      # never decided
    alone = {**section, "gates": section["gates"][1:]}
    refused = playtest(replace(cs, playtest=freeze(section)), config_for(replace(cs, playtest=freeze(section)), jobs=1))
    p2, p3 = refused["runs"]
    assert p2["refused"] and p2["games"] == 40 and not refused["passed"]
    assert p3["games"] == 40 and "refused by run p2" in p3["first_look_only"]
    sampled = playtest(replace(cs, playtest=freeze(alone)), config_for(replace(cs, playtest=freeze(alone)), jobs=1))
    assert sampled["runs"][1]["games"] > 40 and "first_look_only" not in sampled["runs"][1]


def test_a_paired_change_over_a_handful_of_games_has_no_interval():
    """A jackknife over blocks of a game or two says nothing of the spread: no verdict from it."""
    from boneyard.engine.stats import Metric
    from boneyard.pipeline.paired import JACKKNIFE_MIN_GAMES, jackknife_change

    def measure(idx):
        idx = list(idx)
        d = sum(0.1 if i % 2 else 0.0 for i in idx) / max(1, len(idx))  # a change that varies by game
        return {"x": Metric("x", d, d, d, len(idx), "game", None, "%")}

    few = jackknife_change(measure, JACKKNIFE_MIN_GAMES - 1, ["x"])["x"]
    assert few[1] == -math.inf and few[2] == math.inf
    many = jackknife_change(measure, 200, ["x"])["x"]
    assert math.isfinite(many[1]) and many[1] <= many[0] <= many[2]


def test_a_last_pass_value_plus_a_change_keeps_the_last_pass_error():
    """A change-aware figure is the last pass's value plus a paired change; the last pass's value
    was a sample too, so its error stays in the interval: no change keeps the old interval, and a
    change measured to within 1 point on a level known to within 3 is known to within about 3.2."""
    from boneyard.engine.stats import shifted

    old = Metric("draw_rate", 0.10, 0.07, 0.14, 1000)
    assert shifted(old, 0.0, 0.0, 0.0) == (0.10, 0.07, 0.14)
    value, low, high = shifted(old, 0.02, 0.01, 0.03)
    assert value == pytest.approx(0.12)
    assert low == pytest.approx(0.12 - (0.03 ** 2 + 0.01 ** 2) ** 0.5)
    assert high == pytest.approx(0.12 + (0.04 ** 2 + 0.01 ** 2) ** 0.5)


def test_a_rare_count_is_never_said_to_be_below_zero():
    """A count seen once in 60 games read "0.02 (-0.02 to 0.05)": the low end is cut at the
    least value a count has, and a figure that can be negative keeps its normal interval."""
    from boneyard.engine.stats import Tally

    t = Tally()
    t.add("flips", 1.0)
    t.add("swing", 1.0)
    t.add("swing", -1.0)
    count = t.mean_metric("flips", over=60, least=0.0)
    assert count.low == 0.0 and count.high > count.value > 0
    plain = t.mean_metric("flips", over=60)
    assert plain.low < 0 and plain.high == count.high
    assert t.mean_metric("swing").low < -1
