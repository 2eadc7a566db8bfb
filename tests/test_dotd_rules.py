"""Day of the Dead rules: the rulebook's examples, one test per primitive, one per switch.

Positions are built with the scenario format from characters defined here (so balance tuning of
the bundled set cannot change what these tests pin down).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from boneyard.engine.dotd import ACT_NO, DotdGame
from boneyard.engine.dotd.convert import character_from_dict
from boneyard.engine.dotd.scenario import apply_choice, build_state, check_expect, play_scenario
from boneyard.engine.dotd.sets import make_card_set
from boneyard.pipeline.cmd_scenario import run_scenario

from boneyard.errors import RulesError, ScenarioError

SCENARIOS = Path(__file__).parent / "scenarios"

CHARS = [
    {"id": "oaf", "power": 7},
    {"id": "brute", "power": 6},
    {"id": "runt", "power": 1},
    {"id": "ghoul", "power": 5},
    {"id": "titan", "power": 9},
    {"id": "anger", "power": 3, "effect": [{"power": 5}]},
    {"id": "jinx", "power": 1, "effect": [{"set_power": {"who": "opponent", "amount": 0}}]},
    {"id": "nemesis", "power": 0, "effect": [{"auto_win": "self"}]},
    {"id": "coward", "power": 9, "effect": [{"auto_lose": "self"}]},
    {"id": "stubborn", "power": 6, "effect": [{"win_ties": "self"}]},
    {"id": "hoard", "power": 1, "effect": [{"gain_vp": 5}]},
    {"id": "twin", "power": 1, "effect": [{"copy_effect": "adjacent"}]},
    {"id": "mirror", "power": 5, "effect": [{"copy_effect": "opposing"}]},
    {"id": "digger", "power": 4, "effect": [{"dig": 1}]},
    {"id": "spook", "power": 2, "effect": [{"unearth": "self"}]},
    {"id": "snatcher", "power": 0, "effect": [{"force_unearth": "opposing"}]},
    {"id": "bugler", "power": 2, "effect": [{"flip": "own_fallen"}]},
    {"id": "polter", "power": 3, "effect": [{"flip": "opponent_fought"}]},
    {"id": "pooper", "power": 2, "effect": [{"suppress_spirit": "opponent"}]},
    {"id": "hush", "power": 1, "effect": [{"negate": True}]},
    {"id": "riser", "power": 5, "effect": [{"take_priority": True}]},
    {"id": "butler", "power": 8, "effect": [{"give_priority": True}]},
    {"id": "brittle", "power": 9, "effect": [{"power": -3}]},
    {"id": "owl", "power": 4, "effect": [{"power": 4, "when": {"priority": "opponent"}}]},
    {"id": "pile", "power": 2, "effect": [{"power": {"amount": 2, "per": "own_fallen"}}]},
]
CHARACTERS = [character_from_dict(c) for c in CHARS]


def game(**switches) -> DotdGame:
    return DotdGame(make_card_set(CHARACTERS, switches))


def fight(lines, spirits, actions=(), priority=0, scores=(0, 0), slot=None, hands=((), ()),
          decks=None, discards=None, finish=True, **switches):
    """Play the fights of turn len(line) from ``slot`` down, then Rewards; returns the state.

    With ``finish``, any conversion offered after the given actions is declined.
    """
    turn = len(lines[0])
    data = {
        "turn": turn,
        "phase": "fight",
        "end_turn": turn,
        "priority": priority,
        "scores": list(scores),
        "players": [
            {"line": list(lines[p]), "spirit": spirits[p], "hand": list(hands[p])} for p in (0, 1)
        ],
        "actions": list(actions),
        "decks": decks or {},
        "discards": discards or {},
    }
    if slot is not None:
        data["slot"] = slot
    state, _ = play_scenario(game(**switches), data)
    while finish and not state.is_terminal() and strings(state)[-1:] == ["no"] and \
            state.to_json()["decision"]["kind"] == "convert":
        apply_choice(state, "no")
    return state


def fights(state):
    return [(f["slot"], f["power"], f["won"]) for f in state.to_json()["fights"]]


def line(state, p):
    return [(x["card"], x["state"]) for x in state.to_json()["players"][p]["line"]]


def strings(state):
    return [state.action_to_string(a) for a in state.legal_actions()]


NEUTRAL = ("runt@unearth", "oaf@unearth")  # Unearth-back spirits: no effect during fights


# --- the rulebook's worked examples -------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(p for p in SCENARIOS.glob("*.yaml")
                                         if not p.name.startswith("gf-")), ids=lambda p: p.stem)
def test_scenario_files_hold(path):
    out, failed = run_scenario(path)
    assert failed == []
    assert out["choices"], "every bundled scenario makes at least one choice"


def test_rulebook_oaf_against_anger_is_9_against_13():
    out, failed = run_scenario(SCENARIOS / "rulebook-fight.yaml")
    assert failed == []
    first = out["fights"][0]
    assert first["cards"] == ["oaf@double", "anger@unearth"]
    assert first["power"] == [9, 13] and first["won"] == [False, True]


def test_rulebook_oaf_may_also_stay_in_line():
    data = {
        "turn": 1, "phase": "reveal", "end_turn": 1, "priority": 0,
        "players": [{"line": ["oaf@double"], "spirit": "oaf@power_up"},
                    {"line": ["anger@unearth"], "spirit": "anger@double"}],
    }
    state = build_state(game(), data)
    assert strings(state) == ["convert oaf@double", "no"]
    apply_choice(state, "no")
    assert line(state, 0) == [("oaf@double", "fallen")]
    assert state.to_json()["players"][0]["spirit"] == "oaf@power_up"


def test_turn5_conversion_shifts_only_newer_own_fighters():
    out, failed = run_scenario(SCENARIOS / "rulebook-conversion-turn5.yaml")
    assert failed == []
    # the opponent's line does not move: pairings change for next turn
    assert [x["card"] for x in out["players"][1]["line"]] == [
        "amber@power_up", "bones@double", "giant@double", "dusty@unearth", "ember@unearth"]


# --- primitives ---------------------------------------------------------------------------------


def test_power_adds_this_fight_only():
    s = fight([["anger@double"], ["oaf@double"]], NEUTRAL)
    assert fights(s) == [(1, [8, 7], [True, False])]
    assert s.scores == [3, 0]  # scoring is printed power, not fight power


def test_double_repeats_every_use_including_drawbacks():
    s = fight([["anger@power_up"], ["brittle@power_up"]], ("runt@double", "oaf@double"))
    assert fights(s) == [(1, [13, 3], [True, False])]


def test_set_power_makes_printed_power_count_as_value():
    s = fight([["jinx@double"], ["oaf@double"]], NEUTRAL)
    assert fights(s) == [(1, [1, 0], [True, False])]


def test_auto_win_beats_power():
    s = fight([["nemesis@double"], ["titan@double"]], NEUTRAL)
    assert fights(s)[0][2] == [True, False]


def test_auto_lose_loses_despite_power():
    s = fight([["coward@double"], ["runt@double"]], NEUTRAL, actions=["no"])
    assert fights(s)[0][2] == [False, True]


def test_win_ties_wins_a_power_tie():
    s = fight([["stubborn@double"], ["brute@double"]], NEUTRAL, actions=["no"])
    assert fights(s) == [(1, [6, 6], [True, False])]
    plain = fight([["brute@power_up"], ["brute@double"]], NEUTRAL)
    assert fights(plain) == [(1, [6, 6], [True, True])]  # a tie: both win, both score
    assert plain.scores == [6, 6]


def test_gain_vp_adds_now_and_double_doubles_it():
    s = fight([["hoard@double"], ["runt@double"]], NEUTRAL)
    assert s.scores == [5 + 1, 1]
    d = fight([["hoard@double"], ["runt@double"]], ("runt@power_up", "oaf@unearth"))
    assert d.scores[0] == 5 + 1  # a Power Up spirit does not double
    d = fight([["hoard@unearth"], ["oaf@double"]], NEUTRAL)
    assert d.scores == [5, 7]  # hoard lost and scores no power, but its 5 VP stand
    dd = fight([["hoard@unearth"], ["runt@power_up"]], ("hoard@double", "oaf@unearth"))
    assert dd.scores[0] == 10 + 1


def test_copy_effect_adjacent_and_copy_doubled():
    s = fight([["anger@double", "twin@double"], ["runt@double", "runt@power_up"]], NEUTRAL)
    assert fights(s)[0] == (2, [6, 1], [True, False])  # twin copied anger's +5
    # Twin copying Hoard under a Double spirit: 10 VP (the published review's case)
    s = fight([["hoard@power_up", "twin@power_up"], ["runt@double", "runt@power_up"]],
              ("twin@double", "oaf@unearth"))
    assert s.scores[0] == 10 + 10 + 1 + 1


def test_copy_effect_opposing():
    s = fight([["mirror@double"], ["anger@double"]], NEUTRAL, priority=1)
    assert fights(s) == [(1, [10, 8], [True, False])]


def test_copy_choice_is_a_decision_point():
    s = fight([["anger@double", "twin@double", "hoard@double"],
               ["runt@double", "runt@power_up", "ghoul@double"]], NEUTRAL, slot=2)
    assert s.current_player() == 0
    assert sorted(strings(s)) == ["copy anger@double", "copy hoard@double"]
    apply_choice(s, "copy hoard@double")
    assert s.scores[0] >= 5


def test_dig_draws_then_discards_same_back():
    s = fight([["digger@double"], ["runt@double"]], NEUTRAL, hands=(["oaf@power_up", "titan@unearth"], []),
              decks={"power_up": ["brute@power_up"]})
    assert sorted(strings(s)) == ["dig double", "dig power_up", "dig unearth"]
    apply_choice(s, "dig power_up")
    assert sorted(strings(s)) == ["discard brute@power_up", "discard oaf@power_up"]
    apply_choice(s, "discard oaf@power_up")
    js = s.to_json()
    assert sorted(js["players"][0]["hand"]) == ["brute@power_up", "titan@unearth"]
    assert js["discards"]["power_up"] == ["oaf@power_up"]


def test_unearth_keyword_replaces_own_card_in_same_state():
    s = fight([["runt@double", "spook@double"], ["titan@double", "runt@power_up"]], NEUTRAL,
              decks={"double": ["oaf@double", "ghoul@double", "brute@double"]})
    assert "unearth runt@double" in strings(s) and "unearth runt@unearth" in strings(s)
    apply_choice(s, "unearth runt@double")
    assert sorted(strings(s)) == ["keep brute@double", "keep ghoul@double", "keep oaf@double"]
    apply_choice(s, "keep oaf@double")
    assert line(s, 0)[0] == ("oaf@double", "active")
    assert sorted(s.to_json()["discards"]["double"]) == ["brute@double", "ghoul@double", "runt@double"]


def test_force_unearth_replaces_opposing_fighter_newcomer_acts_if_its_step_is_to_come():
    """DD-08: "Starting with the player who has the Priority counter, both fighters use their
    effects": with priority, the snatcher replaces Oaf before Oaf's side acted, so Anger uses
    its +5 at that side's step; without priority, that step is spent and Anger does not."""
    top = {"double": ["anger@double", "runt@double", "brute@double"]}
    s = fight([["snatcher@double"], ["oaf@double"]], NEUTRAL, decks=top)
    assert s.current_player() == 0  # the snatcher's owner chooses the opponent's replacement
    apply_choice(s, "keep anger@double")
    assert fights(s) == [(1, [0, 8], [False, True])]
    assert line(s, 1) == [("anger@double", "active")]
    s = fight([["snatcher@double"], ["oaf@double"]], NEUTRAL, decks=top, priority=1)
    apply_choice(s, "keep anger@double")
    assert fights(s) == [(1, [0, 3], [False, True])]  # Oaf's side had acted: +5 not used
    s = fight([["snatcher@double"], ["oaf@double"]], NEUTRAL, decks=top,
              newcomer_uses_pending_effect=False)
    apply_choice(s, "keep anger@double")
    assert fights(s) == [(1, [0, 3], [False, True])]  # the former reading


def test_flip_own_fallen_fighter_face_up_scores():
    s = fight([[{"card": "titan@double", "state": "fallen"}, "bugler@double"],
               ["runt@double", "runt@power_up"]], NEUTRAL)
    assert line(s, 0) == [("titan@double", "active"), ("bugler@double", "active")]
    assert s.scores[0] == 9 + 2


def test_flip_opponent_fighter_that_already_fought():
    s = fight([["polter@double", "runt@double"], ["runt@power_up", "titan@double"]], NEUTRAL,
              actions=["no"])
    assert line(s, 1)[1] == ("titan@double", "fallen")  # titan won slot 2, then was flipped
    assert s.scores[1] == 0


def test_suppress_spirit_cancels_power_up():
    s = fight([["pooper@double"], ["brute@double"]], ("runt@unearth", "brute@power_up"),
              actions=["no"])
    assert fights(s) == [(1, [2, 6], [False, True])]


def test_negate_stops_uses_not_yet_made_so_priority_matters():
    s = fight([["hush@double"], ["anger@double"]], NEUTRAL, priority=0, actions=["no"])
    assert fights(s)[0][1] == [1, 3]
    s = fight([["hush@double"], ["anger@double"]], NEUTRAL, priority=1, actions=["no"])
    assert fights(s)[0][1] == [1, 8]


def test_take_and_give_priority_change_the_holder_now():
    s = fight([["runt@double"], ["riser@double"]], NEUTRAL, priority=0, actions=["no"])
    assert s.prio == 0  # riser took it (1), then Rewards passed it on
    s = fight([["butler@double"], ["runt@double"]], NEUTRAL, priority=0)
    assert s.prio == 0  # butler gave it away (1), then Rewards passed it on
    s = fight([["brute@double"], ["runt@double"]], NEUTRAL, priority=0)
    assert s.prio == 1


def test_conditions_are_checked_per_use():
    s = fight([["owl@double"], ["runt@double"]], NEUTRAL, priority=1)
    assert fights(s)[0][1][0] == 8
    s = fight([["owl@double"], ["runt@double"]], NEUTRAL, priority=0)
    assert fights(s)[0][1][0] == 4
    s = fight([[{"card": "runt@double", "state": "fallen"}, {"card": "brute@double", "state": "fallen"},
                "pile@double"], ["runt@power_up", "brute@power_up", "titan@double"]], NEUTRAL)
    assert fights(s)[0][1][0] == 2 + 2 * 2


def test_invented_card_plays_through_the_one_interpreter():
    """A character no file has ever had: the engine plays it from its data alone."""
    gambler = character_from_dict({
        "id": "gambler", "name": "Gambler", "power": 2,
        "effect": [
            {"gain_vp": 3, "when": {"turn": {"ge": 2}}},
            {"power": {"amount": 3, "per": "opponent_active"}},
            {"give_priority": True},
        ],
    })
    g = DotdGame(make_card_set([*CHARACTERS, gambler]))
    data = {"turn": 2, "phase": "fight", "end_turn": 2, "priority": 0,
            "players": [{"line": ["runt@double", "gambler@unearth"], "spirit": "runt@unearth"},
                        {"line": ["titan@double", "brute@power_up"], "spirit": "oaf@unearth"}],
            "actions": ["no", "no"]}
    state, _ = play_scenario(g, data)
    first = state.to_json()["fights"][0]
    assert first["cards"] == ["gambler@unearth", "brute@power_up"]
    assert first["power"] == [2 + 3 * 2, 6]
    assert state.scores[0] == 3 + 2
    assert state.prio == 0  # given away to 1 in the fight, passed back at Rewards
    # and it takes part in whole random games
    for seed in range(20):
        s = g.new_initial_state(seed)
        while not s.is_terminal():
            s.apply_action(s.legal_actions()[0])


# --- switches -----------------------------------------------------------------------------------


def _start(turn=1, **switches):
    g = game(**switches)
    return g, g.new_initial_state(7)


def test_switch_selection_hides_or_shows_the_first_choice():
    for mode, visible in (("simultaneous", False), ("priority_first", True)):
        g, s = _start(selection=mode)
        first = s.current_player()
        s.apply_action(s.legal_actions()[0])  # the first player's fighter
        second = s.current_player()
        assert second == 1 - first
        obs = s.observation(second)
        assert bool(obs.opponent_chosen_backs) is visible
        assert obs.to_json()["lines"][first] == []  # nothing is on the field before the reveal
        assert len(obs.opponent_hand_backs) == 9


def test_simultaneous_choice_is_not_leaked_by_determinize():
    import random

    g, s = _start()
    first = s.current_player()
    s.apply_action(s.legal_actions()[0])  # the first player's turn-1 fighter, not yet down
    assert s.current_player() == 1 - first
    obs = s.observation(1 - first)
    seen = set()
    for k in range(30):
        d = obs.determinize(random.Random(k))
        d.check_invariants()
        assert d.legal_actions() == s.legal_actions()
        seen.add(tuple(d.chosen[first]))
    assert len(seen) > 1 and len({g.back[c[0]] for c in seen}) > 1  # not even its back


def test_turn_one_fighters_go_down_backs_showing_before_the_spirits():
    """DD-03, the summoning example: both fighters are chosen, then lie face down with their
    backs seen, then the spirits are chosen; a determinization keeps the fighter's back."""
    import random

    g, s = _start()
    first = s.current_player()
    s.apply_action(s.legal_actions()[0])
    s.apply_action(s.legal_actions()[0])  # the second player's fighter: both are down
    assert s.current_player() == first and s.observation(first).detail == "spirit"
    fighter = s.chosen[1 - first][0]
    assert s.observation(first).opponent_chosen_backs == [g.back[fighter]]
    s.apply_action(s.legal_actions()[0])  # the first player's spirit, hidden to the other
    obs = s.observation(1 - first)
    assert obs.opponent_chosen_backs == [g.back[s.chosen[first][0]]]
    fighters, spirits = set(), set()
    for k in range(30):
        d = obs.determinize(random.Random(k))
        d.check_invariants()
        fighters.add(g.back[d.chosen[first][0]])
        spirits.add(d.chosen[first][1])
    assert fighters == {g.back[s.chosen[first][0]]} and len(spirits) > 1


def test_back_limit_and_final_turn_exception():
    # turn 3 start: line 2 cards + the spirit moving in; two Double already in play
    data = {"turn": 3, "phase": "start", "end_turn": 3, "priority": 0,
            "players": [{"line": ["runt@double", "brute@power_up"], "spirit": "oaf@double",
                         "hand": ["titan@double", "ghoul@power_up", "anger@unearth"]},
                        {"line": ["runt@power_up", "brute@double"], "spirit": "oaf@power_up",
                         "hand": ["titan@power_up", "ghoul@double", "anger@double"]}]}
    s = build_state(game(), data)
    assert sorted(strings(s)) == ["spirit anger@unearth", "spirit ghoul@power_up"]
    data6 = dict(data, turn=6, end_turn=6)
    data6["players"] = [dict(p, line=p["line"] + x) for p, x in zip(
        data["players"], (["jinx@double", "hush@unearth", "twin@unearth"],
                          ["jinx@power_up", "hush@unearth", "twin@unearth"]), strict=True)]
    with pytest.raises(ScenarioError):
        build_state(game(), data6)  # hush@unearth placed twice: the set has one
    data6["players"][1]["line"] = data["players"][1]["line"] + ["jinx@power_up", "hush@power_up", "twin@power_up"]
    s = build_state(game(), data6)
    assert len(s.legal_actions()) == 3  # turn 6: any back may be played


def test_switch_no_legal_card_play_any():
    # three Doubles already in play (an effect could cause it): the hand has only Doubles
    data = {"turn": 3, "phase": "start", "end_turn": 3, "priority": 0,
            "players": [{"line": ["runt@double", "brute@double"], "spirit": "oaf@double",
                         "hand": ["titan@double", "ghoul@double"]},
                        {"line": ["runt@power_up", "brute@power_up"], "spirit": "oaf@unearth",
                         "hand": ["titan@power_up", "ghoul@unearth"]}]}
    s = build_state(game(no_legal_card="play_any"), data)
    assert sorted(strings(s)) == ["spirit ghoul@double", "spirit titan@double"]
    with pytest.raises(RulesError):
        game(no_legal_card="pass")


def _reveal_unearth(**switches):
    data = {"turn": 1, "phase": "reveal", "end_turn": 1, "priority": 0,
            "players": [{"line": ["runt@double"], "spirit": "spook@unearth"},
                        {"line": ["brute@double"], "spirit": "oaf@power_up"}],
            "decks": {"unearth": ["ghoul@unearth", "titan@unearth", "anger@unearth"]}}
    return build_state(game(**switches), data)


def test_switch_unearth_optional():
    """DD-06: "Unearth lets you replace your least favorite card": the default may decline."""
    assert "no" not in strings(_reveal_unearth(unearth_optional=False))
    s = _reveal_unearth()
    assert "no" in strings(s)
    apply_choice(s, "no")
    assert s.to_json()["players"][0]["spirit"] == "spook@unearth"


def test_switch_unearth_retrigger_on_spirit_replace():
    s = _reveal_unearth()
    apply_choice(s, "unearth spook@unearth")
    apply_choice(s, "keep titan@unearth")
    assert s.current_player() == 0 and strings(s) == ["convert runt@double", "no"]
    s = _reveal_unearth(unearth_retrigger_on_spirit_replace=True)
    apply_choice(s, "unearth spook@unearth")
    apply_choice(s, "keep titan@unearth")
    assert "unearth titan@unearth" in strings(s)  # the new Unearth spirit fires again


def test_switch_replacement_uses_effect_this_fight():
    top = {"double": ["anger@double", "runt@double", "brute@double"]}
    s = fight([["snatcher@double"], ["oaf@double"]], NEUTRAL, decks=top,
              replacement_uses_effect_this_fight=True)
    apply_choice(s, "keep anger@double")
    assert fights(s) == [(1, [0, 8], [False, True])]


def test_switch_both_auto_lose():
    s = fight([["coward@double"], ["coward@power_up"]], NEUTRAL, actions=["no", "no"])
    assert fights(s)[0][2] == [False, False]
    assert s.scores == [0, 0]
    s = fight([["coward@double"], ["coward@power_up"]], NEUTRAL, both_auto_lose="compare_power")
    assert fights(s)[0][2] == [True, True]


def test_switch_conversion_window():
    lines = [["titan@double", "runt@double"], ["runt@power_up", "titan@power_up"]]
    s = fight(lines, NEUTRAL, actions=["no"])
    assert s.is_terminal()  # the slot-2 loser's chance has passed; slot 1 is a win
    s = fight(lines, NEUTRAL, actions=["no"], conversion_window="any_loser_this_turn", finish=False)
    assert strings(s) == ["convert runt@double", "no"]  # offered again at slot 1's step 4
    apply_choice(s, "convert runt@double")
    assert line(s, 0) == [("titan@double", "active"), ("runt@unearth", "fallen")]


def test_switch_max_conversions_per_turn():
    lines = [["runt@double", "runt@power_up"], ["titan@double", "titan@power_up"]]
    s = fight(lines, NEUTRAL, actions=["convert runt@power_up"], finish=False)
    assert strings(s) == ["convert runt@double", "no"]
    s = fight(lines, NEUTRAL, actions=["convert runt@power_up"], max_conversions_per_turn=1)
    assert s.is_terminal()


def test_switch_prev_spirit_enters_as():
    lines = [["runt@double"], ["titan@double"]]
    s = fight(lines, ("brute@unearth", "oaf@unearth"), actions=["convert runt@double"])
    assert line(s, 0) == [("brute@unearth", "fallen")] and s.scores[0] == 0
    s = fight(lines, ("brute@unearth", "oaf@unearth"), actions=["convert runt@double"],
              prev_spirit_enters_as="active")
    assert line(s, 0) == [("brute@unearth", "active")] and s.scores[0] == 6


def test_switch_new_spirit_applies():
    lines = [["brute@double", "runt@power_up"], ["brute@power_up", "titan@double"]]
    s = fight(lines, NEUTRAL, actions=["convert runt@power_up"])
    assert fights(s)[1] == (1, [8, 6], [True, False])  # the new Power Up spirit counts at once
    s = fight(lines, NEUTRAL, actions=["convert runt@power_up"], new_spirit_applies="next_turn")
    assert fights(s)[1] == (1, [6, 6], [True, True])


def test_switch_dig_source():
    kw = dict(hands=(["oaf@power_up", "titan@unearth"], []))
    s = fight([["digger@double"], ["runt@double"]], NEUTRAL, **kw)
    assert s.to_json()["decision"]["kind"] == "dig_deck"
    s = fight([["digger@double"], ["runt@double"]], NEUTRAL, dig_source="fighter_back",
              decks={"double": ["brute@double"]}, **kw)
    # only the fighter's back: no deck choice; the drawn Double is the only Double in hand
    assert s.to_json()["discards"]["double"] == ["brute@double"]


def test_switch_deck_empty():
    # every Unearth-back card is placed: the Unearth deck is empty, its discard pile is not
    placed = {"hand": ["oaf@unearth", "titan@unearth"]}
    everything = [c.id for c in CHARACTERS]
    rest = [f"{c}@unearth" for c in everything if c not in ("oaf", "titan", "runt", "ghoul")]
    data = {"turn": 1, "phase": "fight", "end_turn": 1, "priority": 0,
            "players": [dict(placed, line=["digger@double"], spirit="runt@unearth"),
                        {"line": ["runt@double"], "spirit": "ghoul@unearth"}],
            "discards": {"unearth": rest}, "actions": ["dig unearth"]}
    state, _ = play_scenario(game(dig_source="choose"), data)
    assert state.to_json()["decision"]["kind"] == "dig_discard"  # reshuffled and drawn
    with pytest.raises(ScenarioError):
        play_scenario(game(deck_empty="skip"), data)  # no Unearth deck to dig from
    data["actions"] = []
    state = build_state(game(deck_empty="skip"), data)
    assert "dig unearth" not in strings(state)


def test_switch_score_basis():
    lines = [[{"card": "titan@double", "state": "fallen"}, "bugler@double"],
             ["runt@double", "runt@power_up"]]
    assert fight(lines, NEUTRAL).scores[0] == 11
    assert fight(lines, NEUTRAL, score_basis="won_this_turn").scores[0] == 11  # titan won slot 1
    lines = [["polter@double", "runt@double"], ["runt@power_up", "titan@double"]]
    s = fight([["brute@double"], ["brute@power_up"]], NEUTRAL, score_basis="won_this_turn")
    assert s.scores == [6, 6]
    # an active fighter that did not win this turn scores only under active_at_rewards
    prev = [["runt@double"], ["titan@double"]]
    s = fight(prev, ("brute@unearth", "oaf@unearth"), actions=["convert runt@double"],
              prev_spirit_enters_as="active")
    assert s.scores[0] == 6
    s = fight(prev, ("brute@unearth", "oaf@unearth"), actions=["convert runt@double"],
              prev_spirit_enters_as="active", score_basis="won_this_turn")
    assert s.scores[0] == 0


def test_switch_tie_break():
    lines = [["brute@double", "runt@double"], ["brute@power_up", "runt@power_up"]]
    s = fight(lines, NEUTRAL, scores=(10, 10))
    assert s.scores == [17, 17] and s.returns() == [0.5, 0.5]
    lines = [["oaf@double", "runt@double"], ["oaf@power_up", {"card": "titan@double", "state": "fallen"}]]
    s = fight(lines, NEUTRAL, scores=(10, 11))
    assert s.scores == [18, 18] and s.returns() == [0.5, 0.5]
    s = fight(lines, NEUTRAL, scores=(10, 11), tie_break="chain")
    assert s.scores == [18, 18] and s.returns() == [1.0, 0.0]  # two active fighters against one


def test_unknown_switch_is_an_error():
    with pytest.raises(RulesError, match="unknown Day of the Dead switch"):
        game(selectoin="simultaneous")


# --- scenario format ----------------------------------------------------------------------------


def test_scenario_errors_name_the_problem():
    with pytest.raises(ScenarioError, match="no card 'zombie@double'"):
        build_state(game(), {"players": [{"line": ["zombie@double"]}, {"line": ["runt@double"]}]})
    with pytest.raises(ScenarioError, match="same number of slots"):
        build_state(game(), {"players": [{"line": ["oaf@double"], "spirit": "runt@unearth"},
                                         {"line": [], "spirit": "oaf@unearth"}]})
    s = fight([["runt@double"], ["titan@double"]], NEUTRAL, finish=False)
    with pytest.raises(ScenarioError, match="legal: 'convert runt@double', 'no'"):
        apply_choice(s, "convert titan@double")


def test_check_expect_reports_differences():
    assert check_expect({"a": [1, {"card": "x"}], "b": 2}, {"a": [1, "x"]}) == []
    assert check_expect({"a": 1}, {"a": 2}) == ["a: expected 2, got 1"]


def test_illegal_action_raises_rules_error():
    _, s = _start()
    with pytest.raises(RulesError):
        s.apply_action(ACT_NO)


def test_retriggered_unearth_chain_ends():
    s = _reveal_unearth(unearth_retrigger_on_spirit_replace=True)
    fired = 0
    while not s.is_terminal() and s.to_json()["decision"]["kind"] in ("unearth_target", "unearth_pick"):
        kind = s.to_json()["decision"]["kind"]
        spirit = s.to_json()["players"][0]["spirit"]
        if kind == "unearth_target":
            fired += 1
            apply_choice(s, f"unearth {spirit}")
        else:
            apply_choice(s, strings(s)[0])
    assert fired == 1 + 3  # the spirit's own Unearth, then at most 3 re-fires this turn


def test_copies_are_separate_cards():
    twice = character_from_dict({"id": "imp", "name": "Imp", "power": 4, "copies": 2})
    g = DotdGame(make_card_set([*CHARACTERS, twice]))
    data = {"turn": 1, "phase": "fight", "end_turn": 1,
            "players": [{"line": ["imp@double"], "spirit": "imp@unearth"},
                        {"line": ["imp@double"], "spirit": "imp@unearth"}]}
    state, _ = play_scenario(g, data)
    assert fights(state) == [(1, [4, 4], [True, True])]
    data["players"][0]["hand"] = ["imp@double"]
    with pytest.raises(ScenarioError, match=r"used more often than the set has it \(2\)"):
        build_state(g, data)
