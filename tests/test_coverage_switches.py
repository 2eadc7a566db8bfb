"""Coverage of the switch readings (issue 13.6, docs/playtest.md): a reading away from the default
that makes something new happen in play has an ability of its own, counted by the engine and
asked for only under that reading, so a reading the playtest never exercises is "never tested"
instead of passing unseen (a designer set Grave Feast's ``max_eaters_per_family`` to 4 and the
build passed: no agent ever attached a second eater). The bundled sets, on the default readings,
are asked for none of them.
"""

from __future__ import annotations

from pathlib import Path

import yaml
from boneyard.engine.dotd import DotdGame
from boneyard.engine.dotd.convert import character_from_dict
from boneyard.engine.dotd.coverage import items as dotd_items
from boneyard.engine.dotd.scenario import play_scenario
from boneyard.engine.dotd.sets import make_card_set
from boneyard.engine.gf import FeastGame
from boneyard.engine.gf.arrange import arrange, play
from boneyard.pipeline.build import config_for
from boneyard.pipeline.coverage import EXEMPT, TESTED
from boneyard.pipeline.load import load_set
from test_dotd_rules import NEUTRAL, fight
from test_gf_support import feast_set

SCENARIOS = Path(__file__).parent / "scenarios"
X5 = ["blood 9", "blood 8", "blood 7", "brains 9", "brains 8"]

#: Grave Feast: each new ability and a switch reading that asks for it.
GF_READINGS = {
    "second_eater": {"max_eaters_per_family": 4},
    "turn_passed": {"must_act": False},
    "join_discarded_eater": {"join_two_fed": "discard_extra_eater"},
    "out_of_turn_play": {"out_of_turn_completion": True},
    "played_after_own_feast": {"graveyard_ends_turn": False},
    "instant_kept_action": {"instants_use_action": False},
    "attach_and_announce": {"succubus_window_fresh_attach": False},
    "flub_not_called_out": {"phrase_error_rate": 0.1, "callout_rate": 0.5},
    "succubus_returned": {"single_succubus_vs_exorcist": "return_to_hand"},
    "dw_split_family": {"dw_family_take": "any_and_split"},
    "exorcist_split_family": {"exorcist_broken_family": "split_singletons"},
    "exorcist_spared_preacher": {"exorcist_hits_preachers": False},
    "maelstrom_spared_owner": {"maelstrom_scope": "opponents_only"},
}
#: ... and the rares' among them (asked for in the runs with the rares only).
GF_RARES = {"succubus_returned", "dw_split_family", "exorcist_split_family",
            "exorcist_spared_preacher", "maelstrom_spared_owner"}
DOTD_READINGS = {
    "both_auto_lose_compared": {"both_auto_lose": "compare_power"},
    "late_conversion": {"conversion_window": "any_loser_this_turn"},
    "spirit_waits": {"new_spirit_applies": "next_turn"},
    "deck_short": {"deck_empty": "skip"},
    "active_unscored": {"score_basis": "won_this_turn"},
    "tie_broken": {"tie_break": "chain"},
}


def _coverage_gates(card_set) -> dict[str, list]:
    """Per ability the coverage gates of the build's playtest (one per run where it can happen)."""
    out: dict[str, list] = {}
    for g in config_for(card_set, jobs=1).gates:
        why = g.why or ""
        if g.metric.startswith("fired.ability.") and why.startswith((TESTED, EXEMPT)):
            out.setdefault(g.metric[len("fired.ability."):], []).append(g)
    return out


# --- (1) the gates: asked for under the reading, never on the default ones -----------------------


def test_grave_feast_asks_for_what_a_switch_reading_turns_on_and_the_bundled_set_for_none():
    bundled = load_set("grave-feast")
    runs = [r["label"] for r in bundled.playtest["runs"]]
    rare_runs = [r["label"] for r in bundled.playtest["runs"] if (r.get("options") or {}).get("rares")]
    assert rare_runs and set(rare_runs) < set(runs)
    plain = _coverage_gates(bundled)
    assert not set(GF_READINGS) & set(plain), "the default readings ask for none of them"
    assert {"feast", "steal_family", "recycle"} <= set(plain)
    for name, reading in GF_READINGS.items():
        gates = _coverage_gates(bundled.with_switches(**reading))
        assert sorted(g.run for g in gates[name]) == sorted(rare_runs if name in GF_RARES else runs), name
        gate = gates[name][0]
        assert gate.min == 5 and gate.count and gate.why.startswith(TESTED), name
        # the reading asks for its own ability and changes none of the others' gates (a flub
        # that nobody calls out needs flubs: phrase_error_rate above 0 asks for those too)
        also = {"flub"} if name == "flub_not_called_out" else set()
        assert {k: [(g.run, g.min) for g in v] for k, v in gates.items() if k not in {name} | also} == \
            {k: [(g.run, g.min) for g in v] for k, v in plain.items()}, name
    why = _coverage_gates(bundled.with_switches(max_eaters_per_family=4))["second_eater"][0].why
    assert "a seat must attach an eater to a family that already has one" in why
    assert "the playtest agents may never choose to" in why


def test_day_of_the_dead_asks_for_what_a_switch_reading_turns_on_and_the_bundled_set_for_none():
    bundled = load_set("day-of-the-dead")
    plain = _coverage_gates(bundled)
    assert not set(DOTD_READINGS) & set(plain)
    assert {"conversion", "double_use"} <= set(plain)
    for name, reading in DOTD_READINGS.items():
        gates = _coverage_gates(bundled.with_switches(**reading))
        assert len(gates.get(name, ())) == 1 and gates[name][0].why.startswith(TESTED), name
        assert set(gates) - {name} == set(plain), name
    # a reading whose event the set's cards cannot make is not asked for: no auto_lose card
    no_coward = make_card_set([c for c in bundled.characters
                               if not any(s.op == "auto_lose" for s in c.effect)],
                              {"both_auto_lose": "compare_power"})
    on = {name for name, _what, _hint, ok in dotd_items(DotdGame(no_coward)) if ok}
    assert "ability.both_auto_lose_compared" not in on


# --- (2) the engine counts them -----------------------------------------------------------------


def _fired(state) -> dict[str, int]:
    return dict(state.summary().abilities or {})


def _gf(players=2, **options):
    return FeastGame(feast_set(), num_players=players, **options)


def _new(fired: dict[str, int], readings) -> dict[str, int]:
    return {k: v for k, v in fired.items() if k in readings}


def test_grave_feast_counts_a_second_eater_and_only_under_the_reading():
    hands = [["vampire", "blood 9", "brains 9", "brains 8", "brains 1"], X5]
    s = arrange(_gf(max_eaters_per_family=2), hands=hands, families=[["blood 3 4 +vampire"], []])
    play(s, "attach vampire")
    assert len(s.fams[0][0][4]) == 2
    assert _new(_fired(s), GF_READINGS) == {"second_eater": 1}
    # two fed families joined keep both eaters: a family given a second eater too
    s = arrange(_gf(max_eaters_per_family=2), hands=[X5, X5],
                families=[["blood 3 4 +vampire", "blood 5 6 +vampire"], []])
    play(s, "join family #1 (P1 blood 3-4+vampire) and family #2 (P1 blood 5-6+vampire)")
    assert _new(_fired(s), GF_READINGS) == {"second_eater": 1}
    # the default: the first eater of a family is no second one
    s = arrange(_gf(), hands=hands, families=[["blood 3 4"], []])
    play(s, "attach vampire")
    assert _new(_fired(s), GF_READINGS) == {}
    assert "second_eaters" not in s.stats  # a game that never counts it keeps its stats


def test_grave_feast_counts_each_regular_reading():
    # must_act: false: a pass with cards in hand
    s = arrange(_gf(must_act=False), hands=[["blood 1", "blood 3", "blood 5", "blood 7", "blood 9"], X5])
    play(s, "pass")
    assert _new(_fired(s), GF_READINGS) == {"turn_passed": 1}
    # join_two_fed: discard_extra_eater
    s = arrange(_gf(join_two_fed="discard_extra_eater"), hands=[X5, X5],
                families=[["blood 3 4 +vampire", "blood 5 6 +vampire"], []])
    play(s, "join family #1 (P1 blood 3-4+vampire) and family #2 (P1 blood 5-6+vampire), to the")
    assert _new(_fired(s), GF_READINGS) == {"join_discarded_eater": 1}
    # out_of_turn_completion: the thief extends the stolen family before the window
    s = arrange(_gf(out_of_turn_completion=True),
                hands=[["blood 9", "blood 8", "blood 7", "brains 9", "brains 1"],
                       ["succubus", "brains 2", "blood 1", "blood 2", "blood 3"]],
                families=[["brains 3 4 +zombie"], []])
    play(s, "start family blood 8-9")
    play(s, "steals family #1")
    play(s, "with brains 2")
    play(s, "announce family #1")
    assert s.score == [0, 3] and _new(_fired(s), GF_READINGS) == {"out_of_turn_play": 1}
    # graveyard_ends_turn: false: a play after a feast of one's own turn (counted once a feast)
    s = arrange(_gf(graveyard_ends_turn=False),
                hands=[["blood 5", "vampire", "zombie", "brains 8", "brains 1"], X5],
                families=[["blood 3 4 +vampire"], []])
    play(s, "with blood 5, to the graveyard")
    play(s, "mash vampire")
    play(s, "mash zombie")
    assert s.score == [3, 0] and _new(_fired(s), GF_READINGS) == {"played_after_own_feast": 1}
    # instants_use_action: false: a steal on one's own turn before any play
    s = arrange(_gf(instants_use_action=False),
                hands=[["succubus", "blood 9", "brains 9", "brains 8", "brains 1"], X5],
                families=[[], ["blood 3 4"]])
    play(s, "steals family #1")
    assert _new(_fired(s), GF_READINGS) == {"instant_kept_action": 1}
    # succubus_window_fresh_attach: false: attach and announce in one breath
    s = arrange(_gf(succubus_window_fresh_attach=False),
                hands=[["vampire", "blood 5", "brains 9", "brains 8", "brains 1"], ["succubus", *X5[:4]]],
                families=[["blood 3 4 5"], []])
    play(s, "attach vampire to family #1 (P1 blood 3-4-5), to the graveyard")
    assert s.score == [3, 0] and _new(_fired(s), GF_READINGS) == {"attach_and_announce": 1}
    # callout_rate below 1: a flubbed 'Blood!' nobody calls out
    hands = [["vampire", "blood 9", "brains 9", "brains 8", "brains 1"], X5]
    s = arrange(_gf(phrase_error_rate=1.0, callout_rate=0.0), hands=hands, families=[["blood 3 4"], []])
    play(s, "attach vampire")
    assert _new(_fired(s), GF_READINGS) == {"flub_not_called_out": 1}
    s = arrange(_gf(phrase_error_rate=1.0, callout_rate=1.0), hands=hands, families=[["blood 3 4"], []])
    play(s, "attach vampire")  # called out: the eater is lost, nothing of the reading happened
    assert _new(_fired(s), GF_READINGS) == {}


def _rares(players=2, **options):
    return FeastGame(feast_set(), num_players=players, rares=True, decks=2, **options)


def test_grave_feast_counts_each_rares_reading():
    # single_succubus_vs_exorcist: return_to_hand
    s = arrange(_rares(single_succubus_vs_exorcist="return_to_hand", maelstrom_vs_exorcist_attack=False),
                hands=[["succubus", *X5[1:]], X5], mashes=[[], ["exorcist"]])
    play(s, "seduce: succubus on the exorcist of P2")
    assert _new(_fired(s), GF_READINGS) == {"succubus_returned": 1}
    # dw_family_take: any_and_split
    s = arrange(_rares(dw_family_take="any_and_split"), hands=[["devil wife", *X5[1:]], X5],
                families=[[], ["blood 2 3 4 5"]])
    play(s, "devil wife from the hand")
    play(s, "drop blood 8")
    play(s, "takes blood 3 from a family")
    assert _new(_fired(s), GF_READINGS) == {"dw_split_family": 1}

    def blast(**options):
        s = arrange(_rares(**options), hands=[["exorcist", *X5[:4]], X5],
                    families=[["brains 1 2 +zombie"], ["blood 2 3 4 5 +vampire"]],
                    mashes=[["succubus"], ["succubus", "preacher", "zombie"]])
        play(s, "exorcist from the hand")
        return _new(_fired(s), GF_READINGS)

    assert blast(exorcist_broken_family="split_singletons") == {"exorcist_split_family": 1}
    assert blast(exorcist_hits_preachers=False) == {"exorcist_spared_preacher": 1}
    assert blast() == {}
    # maelstrom_scope: opponents_only: the owner's own eater attaches without a flip
    s = arrange(_rares(coin_p_heads=0.0, maelstrom_scope="opponents_only"),
                hands=[["vampire", *X5[1:]], X5], families=[["blood 3 4 5"], []],
                mashes=[["exorcist"], []])
    play(s, "attach vampire")
    assert _new(_fired(s), GF_READINGS) == {"maelstrom_spared_owner": 1}
    summary = s.summary()
    assert "maelstrom_spared" not in (summary.rare_events or {})  # coverage, not a rare event


def test_day_of_the_dead_counts_each_reading():
    def new(state):
        return _new(_fired(state), DOTD_READINGS)

    cowards = [["coward@double"], ["coward@power_up"]]
    assert new(fight(cowards, NEUTRAL, both_auto_lose="compare_power")) == {"both_auto_lose_compared": 1}
    assert new(fight(cowards, NEUTRAL, actions=["no", "no"])) == {}
    lines = [["titan@double", "runt@double"], ["runt@power_up", "titan@power_up"]]
    s = fight(lines, NEUTRAL, actions=["no", "convert runt@double"],
              conversion_window="any_loser_this_turn")
    assert new(s) == {"late_conversion": 1}
    lines = [["brute@double", "runt@power_up"], ["brute@power_up", "titan@double"]]
    assert new(fight(lines, NEUTRAL, actions=["convert runt@power_up"],
                     new_spirit_applies="next_turn")) == {"spirit_waits": 1}
    assert new(fight(lines, NEUTRAL, actions=["convert runt@power_up"])) == {}
    prev = [["runt@double"], ["titan@double"]]
    s = fight(prev, ("brute@unearth", "oaf@unearth"), actions=["convert runt@double"],
              prev_spirit_enters_as="active", score_basis="won_this_turn")
    assert s.scores[0] == 0 and new(s) == {"active_unscored": 1}
    lines = [["oaf@double", "runt@double"], ["oaf@power_up", {"card": "titan@double", "state": "fallen"}]]
    s = fight(lines, NEUTRAL, scores=(10, 11), tie_break="chain")
    assert s.returns() == [1.0, 0.0] and new(s) == {"tie_broken": 1}
    assert new(fight(lines, NEUTRAL, scores=(10, 11))) == {}
    # deck_empty: skip: the Unearth looks at the 2 cards left, the discard pile stays
    data = yaml.safe_load((SCENARIOS / "dotd-unearth-short-deck-skip.yaml").read_text())
    game = DotdGame(make_card_set([character_from_dict(c) for c in data["characters"]],
                                  data["switches"]))
    state, _ = play_scenario(game, {k: v for k, v in data.items() if k != "actions"} |
                             {"actions": data["actions"][:1]})
    assert new(state) == {"deck_short": 1}
