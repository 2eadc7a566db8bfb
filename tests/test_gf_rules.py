"""The rulebook's worked examples as scripted positions, and one test per rules switch showing
the difference each reading makes (docs/rules/grave-feast.md)."""

from __future__ import annotations

import random

import pytest
from boneyard.engine.gf import FeastGame
from boneyard.engine.gf.arrange import _CARD_ID, arrange, find_action, play
from test_gf_support import feast_set

from boneyard.errors import RulesError

X5 = ["blood 9", "blood 8", "blood 7", "brains 9", "brains 8"]


def game(players=2, **options):
    return FeastGame(feast_set(), num_players=players, **options)


def texts(state):
    return [_CARD_ID.sub("", state.action_to_string(a)) for a in state.legal_actions()]


def has(state, fragment):
    return any(fragment in t for t in texts(state))


def names(state, cards):
    return [state.g.names[c] for c in cards]


def fam(state, p, i=0):
    f = state.fams[p][i]
    return [state.g.num[c] for c in f[5]], names(state, f[4])


# --- the rulebook's examples ------------------------------------------------------------------


def test_basic_example_three_to_the_graveyard():
    """'starts a brains family by laying down the 3-4 of brains. On her next turn, she draws the 5
    ... plays it along with a zombie ... Someone notes her score -- 3.'"""
    # (a vampire to mash would keep her turn open after the feast, were it not over: GF-07)
    s = arrange(game(2), hands=[["brains 3", "brains 4", "zombie", "blood 1", "vampire"], X5],
                draw=["brains 9", "brains 5"])
    play(s, "start family brains 3-4")
    play(s, "end play")
    play(s, "discard blood 9")
    assert s.current_player() == 0 and "brains 5" in names(s, s.hands[0])
    play(s, "extend family #1 (P1 brains 3-4) with brains 5")
    play(s, "attach zombie")  # the fresh attach: two phrases, so a window opens first
    play(s, "announce family #1")
    assert s.score == [3, 0]
    assert s.fams[0] == [] and len(s.grave[0]) == 3
    assert names(s, s.discard[-1:]) == ["zombie"]
    assert s.tp == 1  # "Her turn is now over." (GF-07, switch graveyard_ends_turn)


def test_switch_graveyard_ends_turn():
    hands = [["blood 5", "vampire", "brains 9", "brains 8", "brains 1"], X5]
    for ends in (True, False):
        s = arrange(game(2, graveyard_ends_turn=ends), hands=hands,
                    families=[["blood 3 4 +vampire"], []])
        play(s, "with blood 5, to the graveyard")
        assert s.score == [3, 0]
        assert s.tp == (1 if ends else 0)
        if not ends:
            assert has(s, "mash vampire")  # the turn goes on: more plays are offered


def test_game_flow_example_steal_before_announcement_then_two_preachers():
    """'A player throws down a zombie on their brains family of five ... Before they are able to
    say "5 to the graveyard", an opposing player says "Seduce" ... steals the whole brains family
    plus the zombie ... immediately say "5 to the graveyard!" ... Another player throws down a
    preacher with the phrase "Christ compels you!" ... fizzles ... This same player has a second
    preacher ... Now the zombie explodes ... Player two ... keeps the brains family.'"""
    g = game(3)
    s = arrange(g, hands=[["zombie", "blood 1", "blood 3", "blood 5", "vampire"],
                          ["succubus", "blood 2", "blood 4", "blood 6", "blood 8"],
                          ["preacher", "preacher", "blood 9", "brains 9", "vampire"]],
                families=[["brains 1 2 3 4 5"], [], []])
    play(s, "attach zombie")
    assert s.current_player() == 1  # the succubus window before '5 to the graveyard'
    play(s, "steals family #1 (P1 brains 1-2-3-4-5+zombie), to the graveyard")
    assert s.announced == [1] and s.current_player() == 2
    assert not has(s, "seduce")  # the full announcement blocks succubi...
    # ...but not preachers. The first one is misspoken: it fizzles to the discard pile.
    s.g = game(3, phrase_error_rate=1.0)
    s._legal = None
    play(s, "preach: preacher")
    assert s.current_player() == 2 and len(s.hands[2]) == 4  # the same player may try again
    s.g = g
    s._legal = None
    play(s, "preach: preacher")
    assert s.current_player() == 0  # back to the turn player: nobody can answer any more
    assert fam(s, 1) == ([1, 2, 3, 4, 5], [])  # the thief keeps the family, without its zombie
    assert s.score == [0, 0, 0]
    assert names(s, s.discard) == ["succubus", "preacher", "preacher", "zombie"]
    assert s.stats["steals"] == 1 and s.stats["kills"] == 1


def test_cathy_turn():
    """'On turn 1, Cathy discards normally. She now has 4 cards. John attempts to go to the
    graveyard, so Cathy plays a Preacher from the hand ... She now has three cards. On her turn, she
    draws another Preacher, and a 3 of Brains ... plays the 2-3 of brains ... and also puts her
    Preacher and a Vampire ... into the Monster Mash. She's down to 1 card. On her next turn, she
    will draw 4 cards!'"""
    s = arrange(game(2), hands=[["blood 7", "brains 2", "vampire", "preacher", "blood 9"],
                                ["blood 6", "brains 7", "brains 8", "blood 1", "zombie"]],
                families=[[], ["blood 4 5 +vampire"]], draw=["brains 3", "preacher"])
    play(s, "discard blood 7")
    assert len(s.hands[0]) == 4
    assert s.current_player() == 0  # John's turn starts: Cathy could preach his fed family now
    play(s, "pass")
    play(s, "extend family #1 (P2 blood 4-5+vampire) with blood 6, to the graveyard")
    assert s.current_player() == 0  # no succubus window (pre-attached), but a preacher one
    assert not has(s, "seduce")
    play(s, "preach: preacher")
    assert len(s.hands[0]) == 3 and fam(s, 1) == ([4, 5, 6], []) and s.score == [0, 0]
    play(s, "end play")
    assert sorted(names(s, s.hands[0])) == ["blood 9", "brains 2", "brains 3", "preacher", "vampire"]
    play(s, "start family brains 2-3")
    play(s, "mash preacher")
    play(s, "mash vampire")
    # she could preach her own vampire (GF-E2: "on any player"), so ending is a choice
    assert has(s, "preach: preacher") and len(s.hands[0]) == 1
    play(s, "end play")
    play(s, "pass")  # John's turn starts: she may answer (her own vampire is a target)
    assert s.current_player() == 1
    play(s, "discard brains 7")
    assert len(s.hands[0]) == 5  # she drew 4


def test_stolen_three_four_zombie_completed_on_the_thiefs_turn():
    """'if you have a 3-4-Zombie family on the table, and I have a 2 of Brains and a Succubus, I can
    steal your family, complete it with the 2, and go immediately to the graveyard.' (GF-16 a)"""
    s = arrange(game(2), hands=[X5, ["succubus", "brains 2", "blood 1", "blood 2", "blood 3"]],
                families=[["brains 3 4 +zombie"], []], turn_player=1)
    play(s, "steals family #1")
    play(s, "extend family #1 (P2 brains 3-4+zombie) with brains 2, to the graveyard")
    assert s.score == [0, 3]


# --- families ---------------------------------------------------------------------------------


def test_family_rules_start_extend_join_never_break():
    s = arrange(game(2), hands=[["blood 1", "blood 2", "blood 4", "blood 5", "blood 9", "zombie"], X5])
    t = texts(s)
    assert "start family blood 1-2" in t and "start family blood 4-5" in t
    assert not any("blood 9" in x and "start" in x for x in t)  # one card cannot start a family
    assert not any("start family blood 2-4" in x for x in t)  # not consecutive
    play(s, "start family blood 1-2")
    play(s, "start family blood 4-5")
    assert not has(s, "join")  # 1-2 and 4-5 do not touch
    assert not has(s, "with blood 9")  # no wrap-around
    play(s, "end play")


def test_a_forced_move_is_no_decision():
    """With nothing left to play, ending the turn is the only legal move: the engine makes it at
    once, so agents, logs and replays only ever see real choices (two or more actions)."""
    s = arrange(game(2), hands=[["blood 1", "blood 2", "blood 4", "blood 5", "blood 9"], X5])
    play(s, "start family blood 1-2")
    play(s, "start family blood 4-5")  # only blood 9 left: it cannot be played after a play
    assert s.current_player() == 1 and s.turn_no == 1
    assert len(s.hands[0]) == 1  # blood 9 stays in her hand until her next turn
    assert len(s.legal_actions()) >= 2


def test_join_whole_families_and_two_fed_families_do_not_join():
    s = arrange(game(2), hands=[["vampire", "blood 9", "brains 9", "brains 8", "brains 1"], X5],
                families=[["blood 3 4 +vampire", "blood 5 6 +vampire", "blood 7 8"], []])
    assert not has(s, "join family #1 (P1 blood 3-4+vampire) and family #2")
    play(s, "join family #2 (P1 blood 5-6+vampire) and family #3 (P1 blood 7-8)")
    assert fam(s, 0, 1) == ([5, 6, 7, 8], ["vampire"])


def test_eater_is_bound_and_only_one_per_family():
    s = arrange(game(2), hands=[["vampire", "vampire", "zombie", "brains 9", "brains 8"], X5],
                families=[["blood 3 4 +vampire", "blood 7 8"], []])
    t = texts(s)
    assert not any("attach" in x and "#1" in x for x in t)  # one eater per family
    assert not any("attach zombie" in x for x in t)  # zombies eat brains only
    assert any("attach vampire" in x and "#2" in x for x in t)


# --- switches ---------------------------------------------------------------------------------


def test_switch_must_act():
    hands = [["blood 1", "blood 3", "blood 5", "blood 7", "blood 9"], X5]
    assert "pass" not in texts(arrange(game(2), hands=hands))
    assert "pass" in texts(arrange(game(2, must_act=False), hands=hands))


def test_switch_strict_one_card_extension():
    hands = [["blood 1", "blood 2", "blood 3", "blood 4", "blood 9"], X5]
    s = arrange(game(2), hands=hands)
    play(s, "start family blood 1-2")
    assert has(s, "with blood 3")
    s = arrange(game(2, strict_one_card_extension=True), hands=hands)
    play(s, "start family blood 1-2")
    assert not has(s, "with blood 3")  # not on the turn it was started
    assert has(s, "start family blood 3-4")


def test_switch_max_eaters_per_family():
    hands = [["vampire", "blood 9", "brains 9", "brains 8", "brains 1"], X5]
    fams = [["blood 3 4 +vampire"], []]
    assert not has(arrange(game(2), hands=hands, families=fams), "attach vampire")
    assert has(arrange(game(2, max_eaters_per_family=2), hands=hands, families=fams), "attach vampire")


def test_switch_join_two_fed():
    hands = [X5, X5]
    fams = [["blood 3 4 +vampire", "blood 5 6 +vampire"], []]
    assert not has(arrange(game(2), hands=hands, families=fams), "join")
    s = arrange(game(2, join_two_fed="discard_extra_eater"), hands=hands, families=fams)
    play(s, "join family #1 (P1 blood 3-4+vampire) and family #2 (P1 blood 5-6+vampire), to the")
    assert s.score == [4, 0] and names(s, s.discard).count("vampire") == 2


def test_switch_phrase_error_rate_and_callout_rate():
    hands = [["vampire", "blood 9", "brains 9", "brains 8", "brains 1"], X5]
    fams = [["blood 3 4"], []]
    s = arrange(game(2, phrase_error_rate=1.0, callout_rate=1.0), hands=hands, families=fams)
    play(s, "attach vampire")
    assert fam(s, 0) == ([3, 4], []) and names(s, s.discard) == ["vampire"]
    s = arrange(game(2, phrase_error_rate=1.0, callout_rate=0.0), hands=hands, families=fams)
    play(s, "attach vampire")  # nobody calls the mistake: the vampire feeds anyway
    assert fam(s, 0) == ([3, 4], ["vampire"])
    s = arrange(game(2), hands=hands, families=fams)
    play(s, "attach vampire")
    assert fam(s, 0) == ([3, 4], ["vampire"]) and s.stats["flubs"] == 0


def test_switch_graveyard_any_time():
    hands = [X5, ["succubus", "blood 1", "blood 2", "blood 3", "blood 4"]]
    fams = [["brains 3 4 5 +zombie"], []]
    s = arrange(game(2), hands=hands, families=fams)
    play(s, "start family blood 8-9")
    assert has(s, "steals family #1 (P1 brains 3-4-5+zombie), to the graveyard")
    s = arrange(game(2, graveyard_any_time=False), hands=hands, families=fams)
    play(s, "start family blood 8-9")
    assert has(s, "steals family #1") and not has(s, "to the graveyard")


def test_switch_instants_use_action():
    hands = [["succubus", "blood 9", "brains 9", "brains 8", "brains 1"], X5]
    fams = [[], ["blood 3 4"]]
    s = arrange(game(2, instants_use_action=False), hands=hands, families=fams)
    play(s, "steals family #1")
    assert has(s, "discard")
    s = arrange(game(2), hands=hands, families=fams)  # the default: the steal was her play
    play(s, "steals family #1")
    assert not has(s, "discard") and has(s, "end play")


def test_switch_instants_from_mash():
    hands = [X5, X5]
    fams = [[], ["blood 3 4 +vampire"]]
    mashes = [["preacher"], []]
    assert has(arrange(game(2), hands=hands, families=fams, mashes=mashes), "preach")
    assert not has(arrange(game(2, instants_from_mash=False), hands=hands, families=fams,
                           mashes=mashes), "preach")


def test_switch_turn_start_window():
    hands = [["blood 1", "blood 3", "blood 5", "blood 7", "blood 9"], ["succubus", *X5[:4]]]
    fams = [["brains 3 4 +zombie"], []]
    s = arrange(game(2), hands=hands, families=fams, turn_player=1)
    play(s, "discard blood 9")
    assert s.current_player() == 1 and s.tp == 0  # the start of P1's turn is an event
    play(s, "steals family #1")
    assert s.fams[1] and s.current_player() == 0
    s = arrange(game(2, turn_start_window=False), hands=hands, families=fams, turn_player=1)
    play(s, "discard blood 9")
    assert s.current_player() == 0 and not has(s, "pass")


def test_switch_preacher_after_announce():
    hands = [["blood 5", "blood 9", "brains 9", "brains 8", "brains 1"], ["preacher", *X5[:4]]]
    fams = [["blood 3 4 +vampire"], []]
    s = arrange(game(2), hands=hands, families=fams)
    play(s, "with blood 5, to the graveyard")
    assert s.current_player() == 1 and has(s, "preach")
    s = arrange(game(2, preacher_after_announce=False, graveyard_ends_turn=False), hands=hands,
                families=fams)
    play(s, "with blood 5, to the graveyard")
    assert s.score == [3, 0] and s.current_player() == 0


def test_switch_preacher_own_eaters():
    """GF-E2: "He can be played instantly, at any time, on any player." (yourself included)"""
    hands = [["preacher", "blood 9", "brains 9", "brains 8", "brains 1"], X5]
    fams = [["blood 3 4 +vampire"], []]
    s = arrange(game(2), hands=hands, families=fams)
    play(s, "preach: preacher")
    assert s.fams[0][0][4] == () and names(s, s.discard) == ["preacher", "vampire"]
    s = arrange(game(2, preacher_own_eaters=False), hands=hands, families=fams)
    assert not has(s, "preach:")


def test_switch_succubus_windows_speed_race():
    hands = [["vampire", "blood 5", "brains 9", "brains 8", "brains 1"], ["succubus", *X5[:4]]]
    fams = [["blood 3 4"], []]
    # fresh attach on a complete family: the succubus window comes before the announcement
    s = arrange(game(2), hands=hands, families=[["blood 3 4 5"], []])
    assert not has(s, "attach vampire to family #1 (P1 blood 3-4-5), to the graveyard")
    play(s, "attach vampire")
    assert s.current_player() == 1 and has(s, "seduce")
    s = arrange(game(2, succubus_window_fresh_attach=False), hands=hands,
                families=[["blood 3 4 5"], []])
    play(s, "attach vampire to family #1 (P1 blood 3-4-5), to the graveyard")
    assert s.score == [3, 0]
    # pre-attached eater: completion and announcement together, no succubus window
    fams = [["blood 3 4 +vampire"], []]
    s = arrange(game(2), hands=hands, families=fams)
    play(s, "with blood 5, to the graveyard")
    assert s.score == [3, 0]
    s = arrange(game(2, succubus_window_preattached=True), hands=hands, families=fams)
    assert not has(s, "with blood 5, to the graveyard")
    play(s, "with blood 5")
    assert s.current_player() == 1 and has(s, "seduce")


def test_switch_race_model_probabilistic():
    hands = [["vampire", "blood 9", "brains 9", "brains 8", "brains 1"], ["succubus", *X5[:4]]]
    fams = [["blood 3 4 5"], []]
    outcomes = set()
    for seed in range(12):
        s = arrange(game(2, race_model="probabilistic", race_p=0.5, graveyard_ends_turn=False),
                    hands=hands, families=fams, seed=seed)
        play(s, "to the graveyard")
        outcomes.add((s.score[0], s.current_player()))
    assert outcomes == {(3, 0), (0, 1)}  # won the race: scored; lost it: the thief may steal
    for seed in range(4):
        s = arrange(game(2, race_model="probabilistic", race_p=1.0), hands=hands, families=fams,
                    seed=seed)
        play(s, "to the graveyard")
        assert s.score == [3, 0]


def test_switch_recycle():
    pile = ["vampire", "zombie", "succubus", "preacher", "brains 1", "brains 2"]

    def recycled(option, seed):
        s = arrange(game(2, recycle=option), seed=seed, discard=pile,
                    hands=[["blood 1", "blood 3", "blood 5", "blood 7", "blood 9"], X5[:4]])
        corpse = s.draw.pop()
        s.grave[0] = [corpse]
        s.removed, s.draw = s.draw, []  # only the discard pile and one corpse are left
        play(s, "discard blood 1")
        assert s.stats["reshuffles"] == 1 and s.grave == [[], []] and s.score == [0, 0]
        return s, corpse

    for seed in range(3):
        s, corpse = recycled("flip_then_shuffle_corpses", seed)
        order = [c for c in [s.hands[1][-1], *reversed(s.draw)] if c != corpse]
        assert names(s, order) == [*pile, "blood 1"]  # the first card discarded comes up first
    drawn = set()
    for seed in range(12):
        s, _ = recycled("shuffle", seed)
        drawn.add(s.g.names[s.hands[1][-1]])
    assert len(drawn) > 1  # shuffled: the vampire is not always on top


def test_switch_out_of_turn_completion():
    hands = [["blood 9", "blood 8", "blood 7", "brains 9", "brains 1"],
             ["succubus", "brains 2", "blood 1", "blood 2", "blood 3"]]
    fams = [["brains 3 4 +zombie"], []]
    s = arrange(game(2), hands=hands, families=fams)
    play(s, "start family blood 8-9")
    play(s, "steals family #1")
    assert s.current_player() == 0 and s.score == [0, 0]
    s = arrange(game(2, out_of_turn_completion=True), hands=hands, families=fams)
    play(s, "start family blood 8-9")
    play(s, "steals family #1")
    assert s.current_player() == 1
    play(s, "with brains 2")
    play(s, "announce family #1")
    assert s.score == [0, 3]


def test_params_win_score_turn_cap_hand_size():
    s = arrange(game(2, win_score=3), hands=[["blood 5", *X5[:4]], X5],
                families=[["blood 3 4 +vampire"], []])
    play(s, "to the graveyard")
    assert s.is_terminal() and s.returns() == [1.0, 0.0]
    g = game(2, turn_cap=2, must_act=False)
    s = g.new_initial_state(1)
    while not s.is_terminal():
        s.apply_action(find_action(s, "pass") if has(s, "pass") else s.legal_actions()[0])
    assert s.turn_no == 4 and s.summary().capped and s.returns() == [0.5, 0.5]
    s = game(3, hand_size=7).new_initial_state(2)
    assert [len(h) for h in s.hands].count(7) == 3


def test_param_min_family():
    hands = [["vampire", *X5[1:]], X5]
    fams = [["blood 3 4"], []]
    s = arrange(game(2, min_family=2, succubus_window_fresh_attach=False), hands=hands, families=fams)
    play(s, "attach vampire to family #1 (P1 blood 3-4), to the graveyard")
    assert s.score == [2, 0]
    s = arrange(game(2, succubus_window_fresh_attach=False), hands=hands, families=fams)
    assert not has(s, "to the graveyard")


def test_decks_auto_and_bad_options():
    assert game(4).decks == 1 and game(5).decks == 2 and game(4, decks=2).size == 108
    assert game(2, rares=True).decks == 2 and game(2, rares=True, decks=1).size == 56
    with pytest.raises(RulesError, match="no option"):
        game(2, flux_capacitor=True)
    with pytest.raises(RulesError, match="race_model"):
        game(2, race_model="fast")
    with pytest.raises(RulesError, match="2-8 players"):
        game(9)


def test_illegal_action_is_refused():
    s = arrange(game(2), hands=[["blood 1", "blood 3", "blood 5", "blood 7", "blood 9"], X5])
    with pytest.raises(RulesError, match="illegal action"):
        s.apply_action(123456)
    s.apply_action(random.Random(1).choice(s.legal_actions()))


def test_hijack_steals_back_and_forth():
    """'player 4 might steal the family player 3 just stole from player 2 who stole it from
    player 1.' Each steal resolves at once and opens a new window (GF-10)."""
    s = arrange(game(4), hands=[["zombie", "vampire", "brains 9"], ["succubus", "blood 8", "brains 8"],
                                ["succubus", "blood 7", "brains 7"], ["succubus", "blood 6", "brains 6"]],
                families=[["brains 3 4"], [], [], []])
    play(s, "attach zombie")
    assert s.current_player() == 1
    play(s, "steals family #1 (P1 brains 3-4+zombie)")
    assert s.current_player() == 2  # a new window, from the thief
    play(s, "steals family #1 (P2 brains 3-4+zombie)")
    assert s.current_player() == 3
    play(s, "steals family #1 (P3 brains 3-4+zombie)")
    assert s.fams[3] and s.fams[3][0][0] == 1 and s.stats["steals"] == 3
    assert s.current_player() == 0  # nobody holds a succubus any more: back to the turn
    assert names(s, s.discard) == ["succubus"] * 3


@pytest.mark.parametrize("cards, dies", [(1, True), (2, False), (3, True), (4, False)])
def test_preacher_chains_of_any_length(cards, dies):
    """Preacher, evil preacher, preacher, ...: an odd chain destroys the eater (GF-11)."""
    s = arrange(game(3), hands=[["preacher", "preacher", "blood 9"], ["preacher", "preacher", "blood 8"],
                                ["blood 7", "brains 7"]], families=[[], ["blood 3 4 +vampire"], []])
    play(s, "preach: preacher")
    for _ in range(1, cards):
        play(s, "negates")
    while s.phase == 2:  # the chain is open until everyone passes
        play(s, "pass")
    assert s.stats["chains"] == [cards]
    assert (fam(s, 1)[1] == []) == dies
    assert names(s, s.discard).count("preacher") == cards


def test_texts_number_seats_and_turns_from_one():
    """Transcripts say "player 3" (1-based): the family owner in an action text and the turn header
    must use the same numbering, or a designer reads the wrong seat's family."""
    s = arrange(game(3), hands=[X5, X5, ["brains 3", "brains 4", "zombie", "blood 1", "vampire"]],
                turn_player=2)
    play(s, "start family brains 3-4")
    assert has(s, "attach zombie to family #1 (P3 brains 3-4)")
    assert repr(s).startswith(f"FeastState(turn {s.turn_no + 1}, P3,")
    assert game(3).new_initial_state(7).turn == 1
