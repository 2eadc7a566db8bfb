"""Gates are sequential tests: fail on proof (the interval wholly outside), pass on proof (wholly
inside), otherwise undecided; error rates corrected for looks and for the family of a pattern."""

from __future__ import annotations

import pytest
from boneyard.engine.stats import Metric, proportion_metric
from boneyard.pipeline.gates import (
    FAIL,
    MISSING,
    PASS,
    UNDECIDED,
    Gate,
    evaluate,
    judge,
    look_sizes,
    parse_gates,
    z_for,
)
from boneyard.pipeline.playtest_config import resolve

from boneyard.errors import GateError


def test_noise_alone_never_fails():
    gate = Gate("first_priority_win_rate", 0.4, 0.6)
    # 62% measured on 50 games: interval reaches back below 60% -> undecided, not failed
    m = proportion_metric("first_priority_win_rate", 31, 50)
    assert m.low < 0.6 < m.value
    assert judge(gate, m) == UNDECIDED
    # 50% on 50 games: inside on its value, but the interval reaches past the bounds: undecided too
    assert judge(gate, proportion_metric("first_priority_win_rate", 25, 50)) == UNDECIDED
    # the same 62% on 5,000 games: proven out of bounds
    assert judge(gate, proportion_metric("first_priority_win_rate", 3100, 5000)) == FAIL
    assert judge(gate, proportion_metric("first_priority_win_rate", 2500, 5000)) == PASS


def test_min_bound_and_patterns():
    gate = Gate("card.*.play_rate", min=0.05)
    metrics = [
        Metric("card.oaf.play_rate", 0.30, 0.28, 0.32, 1000, "card", "oaf", "%"),
        Metric("card.dud.play_rate", 0.01, 0.005, 0.02, 1000, "card", "dud", "%"),
        Metric("card.dud.win_delta", 0.0, -0.1, 0.1, 1000, "card", "dud", "%"),
    ]
    results = evaluate([gate], {"main": metrics})
    assert [(r.metric.name, r.status) for r in results] == [
        ("card.oaf.play_rate", PASS),
        ("card.dud.play_rate", FAIL),
    ]


def test_gate_matching_nothing_fails():
    results = evaluate([Gate("draw_rat", max=0.1)], {"main": [proportion_metric("draw_rate", 1, 100)]})
    assert [r.status for r in results] == [MISSING]
    assert results[0].failed


def test_run_filter():
    m = proportion_metric("x", 90, 100)
    results = evaluate([Gate("x", max=0.5, run="p4")], {"p2": [m], "p4": [proportion_metric("x", 10, 100)]})
    assert [(r.run, r.status) for r in results] == [("p4", PASS)]


def test_parse_gates_reports_every_problem():
    with pytest.raises(GateError) as exc:
        parse_gates([{"metric": "a"}, {"metric": "b", "min": 1, "max": 0}, {"min": 1}, {"metric": "c", "max": "x"}])
    text = str(exc.value)
    assert "gates[0]" in text and "gates[1]" in text and "gates[2]" in text and "gates[3]" in text


def test_profile_overrides_and_unknown_profile():
    section = {"games": 3000, "seed": 7, "profiles": {"fast": {"games": 300}},
               "gates": [{"metric": "draw_rate", "max": 0.2}]}
    assert resolve(section, default_players=2).games == 3000
    fast = resolve(section, default_players=2, profile="fast", overrides={"seed": 9})
    assert (fast.games, fast.seed, fast.profile) == (300, 9, "fast")
    assert fast.runs[0].players == 2 and fast.gates[0].max == 0.2
    with pytest.raises(GateError, match="no profile 'slow'"):
        resolve(section, default_players=2, profile="slow")
    # a profile may play another agent (CI's cheaper one), the default keeps the set's own
    section = {"agents": "gate", "profiles": {"fast": {"agents": "gate:fast"}}}
    assert resolve(section, default_players=2).agents == "gate"
    assert resolve(section, default_players=2, profile="fast").agents == "gate:fast"
    assert resolve(section, default_players=2, profile="fast").to_json()["agents"] == "gate:fast"
    with pytest.raises(GateError, match="run 'p9'"):
        resolve({"runs": [{"players": 2}], "gates": [{"metric": "x", "max": 1, "run": "p9"}]},
                default_players=None)


def test_a_cap_written_below_the_first_look_is_refused_not_ignored():
    with pytest.raises(GateError, match=r"playtest.cap: 10 is below games \(1000\)"):
        resolve({"games": 1000, "cap": 10}, default_players=2)
    with pytest.raises(GateError, match=r"playtest.profiles.fast.cap: 50 is below games \(300\) in profile 'fast'"):
        resolve({"games": 100, "cap": 200, "profiles": {"fast": {"games": 300, "cap": 50}}},
                default_players=2, profile="fast")
    # a cap left to its default, or a --games above the cap, plays one look of --games
    assert resolve({"games": 50_000}, default_players=2).cap == 50_000
    assert resolve({"games": 100, "cap": 200}, default_players=2, overrides={"games": 900}).cap == 900


def test_a_pattern_gate_over_many_metrics_is_judged_family_wise():
    from boneyard.pipeline.gates import family_scale

    # one card of 36 whose 95% interval just clears the bound: at 95% each, one such fluke among
    # 36 honest cards would fail builds by chance; judged family-wise it is undecided, not failed
    fluke = Metric("card.c0.sub_delta", 0.30, 0.22, 0.38, 40, "card", "c0", "%")
    calm = [Metric(f"card.c{i}.sub_delta", 0.0, -0.1, 0.1, 150, "card", f"c{i}", "%") for i in range(1, 36)]
    gate = Gate("card.*.sub_delta", -0.2, 0.2)
    alone = evaluate([gate], {"main": [fluke]})
    assert [r.status for r in alone] == [FAIL]
    crowd = evaluate([gate], {"main": [fluke, *calm]})
    assert crowd[0].status == UNDECIDED and all(r.status == PASS for r in crowd[1:])
    assert 1.6 < family_scale(36) < 1.7 and abs(family_scale(1) - 1.0) < 1e-9
    # a real problem still fails: the whole widened interval is out of bounds
    broken = Metric("card.c0.sub_delta", 0.52, 0.41, 0.63, 80, "card", "c0", "%")
    assert evaluate([gate], {"main": [broken, *calm]})[0].status == FAIL


def test_error_rates_are_split_over_looks_and_the_family_but_passes_are_per_metric():
    assert look_sizes(400, 3200) == [400, 800, 1600, 3200] and look_sizes(300, 1000) == [300, 600, 1000]
    assert abs(z_for(0.05, 1, 1) - 1.96) < 0.01
    assert z_for(0.05, 4, 1) > z_for(0.05, 1, 1)  # more looks: each judged more strictly
    # a card 8 points out, +-5.5 at 95%: a changed card (declared) fails, one of 36 does not yet
    card = Metric("card.c0.sub_delta", 0.26, 0.205, 0.315, 400, "card", "c0", "%")
    calm = [Metric(f"card.c{i}.sub_delta", 0.0, -0.05, 0.05, 400, "card", f"c{i}", "%") for i in range(1, 36)]
    gate = Gate("card.*.sub_delta", -0.12, 0.18)
    crowd = evaluate([gate], {"main": [card, *calm]}, looks=4)
    assert crowd[0].status == UNDECIDED
    declared = evaluate([gate], {"main": [card, *calm]}, looks=4, declared=["card.c0.sub_delta"])
    assert declared[0].status == FAIL
    # passing is not diluted by the family: the calm cards pass at once
    assert all(r.status == PASS for r in crowd[1:])


def test_undecided_fails_unless_accepted():
    from boneyard.pipeline.gates import failed

    results = evaluate([Gate("x", 0.45, 0.55)], {"main": [proportion_metric("x", 56, 100)]})
    assert [r.status for r in results] == [UNDECIDED]
    assert failed(results) and not failed(results, accept_undecided=True)


def test_a_changed_gate_judges_only_what_a_build_against_the_last_pass_measured():
    (gate,) = parse_gates([{"metric": "card.*.fight_rate_kept", "min": 0.25, "changed": True}])
    assert gate.changed and gate.to_json()["changed"] is True
    # from scratch: nothing changed, nothing measured, and no "missing" failure either
    assert evaluate([gate], {"main": [Metric("card.oaf.fight_rate", 0.8, 0.7, 0.9, 400)]}) == []
    # against the last pass: a card now dumped (4 fights in 100 where it had 96) fails
    dumped = Metric("card.coward.fight_rate_kept", 0.04, 0.02, 0.07, 400, "card", "coward", "%")
    kept = Metric("card.oaf.fight_rate_kept", 0.9, 0.7, 1.2, 400, "card", "oaf", "%")
    (r1,), (r2,) = (evaluate([gate], {"main": [m]}) for m in (dumped, kept))
    assert (r1.status, r2.status) == (FAIL, PASS)


def test_a_profile_cap_below_its_games_points_at_the_profile_line(tmp_path):
    """The message used to say "playtest (profile fast).cap", which no line could be found for."""
    import shutil

    from boneyard.pipeline.cli import cli
    from click.testing import CliRunner

    from boneyard.paths import CARDS

    folder = tmp_path / "dotd"
    shutil.copytree(CARDS / "day-of-the-dead", folder)
    game = folder / "game.yaml"
    text = game.read_text()
    assert "      cap: 3200\n" in text
    game.write_text(text.replace("      cap: 3200\n", "      cap: 300\n", 1))
    line = game.read_text().splitlines().index("      cap: 300") + 1
    res = CliRunner().invoke(cli, ["validate", str(folder)])
    assert res.exit_code == 1
    assert (f"game.yaml:{line}:12: playtest.profiles.fast.cap: 300 is below games (400) in profile "
            "'fast', the first look") in res.output, res.output


def test_a_missing_profile_says_how_to_fix_it():
    with pytest.raises(GateError) as info:
        resolve({"games": 10}, default_players=2, profile="fast")
    assert str(info.value) == ("game.yaml: playtest: no profile 'fast' (profiles: none); add it under "
                               "playtest.profiles, or build without --fast")
