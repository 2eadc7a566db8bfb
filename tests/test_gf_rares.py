"""The rares (GF-20..GF-28): Devil Wife and Exorcist, each ability and each rares switch."""

from __future__ import annotations

from boneyard.engine.gf import FeastGame
from boneyard.engine.gf.arrange import _CARD_ID, arrange, play
from boneyard.engine.gf.turn import start_turn
from test_gf_support import feast_set

X5 = ["blood 9", "blood 8", "blood 7", "brains 9", "brains 8"]


def game(players=2, **options):
    return FeastGame(feast_set(), num_players=players, rares=True, decks=2, **options)


def texts(s):
    return [_CARD_ID.sub("", s.action_to_string(a)) for a in s.legal_actions()]


def has(s, fragment):
    return any(fragment in t for t in texts(s))


def names(s, cards):
    return sorted(s.g.names[c] for c in cards)


def coins(s):
    return [e[2] for e in s.log if e[0] == "coin"]


def test_rares_join_the_deck_once():
    g = game(4)
    assert g.size == 110 and g.names.count("devil wife") == 1 and g.names.count("exorcist") == 1


def test_devil_wife_permanent_seduces_once_a_turn_and_refills():
    s = arrange(game(2), hands=[["devil wife", "blood 1", "blood 3", "blood 5", "blood 7"], X5],
                discard=["succubus"])
    play(s, "place devil wife")
    play(s, "end play")
    assert len(s.hands[0]) == 5  # refilled to five after her owner's play
    play(s, "discard blood 9")
    assert has(s, "devil wife seduces succubus from the discard pile")
    assert has(s, "devil wife seduces a card blindly from the hand of P2")
    assert not any("steals" in t and "devil wife" in t for t in texts(s))  # she cannot be stolen
    play(s, "devil wife seduces succubus from the discard pile")
    assert "succubus" in names(s, s.hands[0]) and not has(s, "seduces")  # once per turn


def test_devil_wife_from_hand_drops_and_steals_locked_cards():
    # (instants_use_action off: her turn stays open to show the locked cards)
    s = arrange(game(2, instants_use_action=False), hands=[["devil wife", "blood 1", "blood 3", "blood 5", "blood 7"],
                                ["succubus", "zombie", "brains 1", "brains 2", "brains 3"]])
    play(s, "devil wife from the hand")
    play(s, "drop blood 1")
    play(s, "devil wife takes succubus from the hand of P2")  # she looks through hands
    play(s, "drop blood 3")
    play(s, "devil wife takes zombie from the hand of P2")
    play(s, "done")
    assert names(s, s.hands[0]) == ["blood 5", "blood 7", "succubus", "zombie"]
    assert names(s, s.hands[1]) == ["brains 1", "brains 2", "brains 3"]
    assert not has(s, "discard succubus") and not has(s, "mash zombie")  # locked until next turn
    assert "devil wife" in names(s, s.discard)


def with_devil_wife(s, p):
    """Put the Devil Wife from the draw pile on p's board as a permanent card."""
    i = next(i for i, c in enumerate(s.draw) if s.g.names[c] == "devil wife")
    s.dw[p] = [s.draw.pop(i)]
    s._legal = None
    return s


def test_preacher_taken_from_a_hand_kills_the_devil_wife():
    s = with_devil_wife(arrange(game(2), hands=[X5, ["preacher"]]), 0)
    play(s, "devil wife seduces a card blindly from the hand of P2")
    assert s.dw[0] == [] and names(s, s.discard) == ["devil wife"]
    assert "preacher" in names(s, s.hands[0]) and s.hands[1] == []


def test_exorcist_from_hand_explodes_visible_monsters_and_frees_even_humans():
    def blast(**options):
        s = arrange(game(2, **options), hands=[["exorcist", *X5[:4]], X5],
                    families=[["brains 1 2 +zombie"], ["blood 2 3 4 5 +vampire"]],
                    mashes=[["succubus"], ["succubus", "preacher", "zombie"]])
        play(s, "exorcist from the hand")
        return s

    s = blast(exorcist_hits_preachers=False)
    assert [[s.g.num[c] for c in f[5]] for f in s.fams[1]] == [[3, 5]]  # one family with a gap
    assert s.fams[1][0][4] == () and names(s, s.mash[1]) == ["preacher"]
    assert len(s.fams[0][0][4]) == 1 and names(s, s.mash[0]) == ["succubus"]  # owner untouched
    assert names(s, s.removed) == ["exorcist"]
    assert names(s, s.discard) == ["blood 2", "blood 4", "succubus", "vampire", "zombie"]
    s = blast(exorcist_broken_family="split_singletons")  # preachers are monsters (GF-21)
    assert [[s.g.num[c] for c in f[5]] for f in s.fams[1]] == [[3], [5]]
    assert s.mash[1] == [] and "preacher" in names(s, s.discard)


def test_a_devil_wife_blasted_by_the_exorcist_is_removed_from_play():
    """'By an Exorcist played from the hand. Remove her from play.' (not the discard pile,
    so no recycle brings her back)"""
    s = with_devil_wife(arrange(game(2), hands=[X5, ["exorcist", *X5[:4]]], turn_player=1), 0)
    play(s, "exorcist from the hand")
    assert s.dw[0] == [] and names(s, s.removed) == ["devil wife", "exorcist"]
    assert "devil wife" not in names(s, s.discard)


def test_gapped_family_fills_its_gap_and_feeds_only_gap_free():
    s = arrange(game(2), hands=[["blood 4", "vampire", *X5[3:], "brains 1"], X5],
                families=[["blood 3 5"], []])
    play(s, "attach vampire")  # a gapped family may hold an eater...
    assert not has(s, "announce")  # ...but cannot feed while it has a gap
    play(s, "with blood 4, to the graveyard")
    assert s.score == [3, 0]


def test_exorcist_in_mash_protects_it_and_flips_for_monsters():
    hands = [["vampire", *X5[1:]], ["succubus", "brains 1", "brains 2", "brains 3", "brains 4"]]
    fams = [["blood 3 4 5"], []]
    s = arrange(game(2), hands=hands, families=fams, mashes=[["exorcist", "zombie"], []],
                turn_player=1)
    assert not has(s, "steals the monster mash")
    # tails on every flip: the vampire is confused and stays in hand
    s = arrange(game(2, coin_p_heads=0.0), hands=hands, families=fams, mashes=[["exorcist"], []])
    play(s, "attach vampire")
    assert coins(s) == ["tails"] and s.fams[0][0][4] == () and "vampire" in names(s, s.hands[0])
    assert not has(s, "attach vampire")  # it waits for its controller's next turn
    s = arrange(game(2, coin_p_heads=1.0), hands=hands, families=fams, mashes=[["exorcist"], []])
    play(s, "attach vampire")
    assert coins(s) == ["heads"] and len(s.fams[0][0][4]) == 1
    # maelstrom_scope = opponents_only: the Exorcist's owner's monsters do not flip
    s = arrange(game(2, coin_p_heads=0.0, maelstrom_scope="opponents_only"), hands=hands,
                families=fams, mashes=[["exorcist"], []])
    play(s, "attach vampire")
    assert coins(s) == [] and len(s.fams[0][0][4]) == 1


def test_self_loathing_after_a_graveyard_trip():
    hands = [["blood 5", *X5[1:]], X5]
    for heads, survives in ((1.0, True), (0.0, False)):
        s = arrange(game(2, coin_p_heads=heads, maelstrom_scope="opponents_only"), hands=hands,
                    families=[["blood 3 4 +vampire"], []], mashes=[["exorcist"], []])
        play(s, "with blood 5, to the graveyard")
        assert s.score == [3, 0] and coins(s) == ["heads" if survives else "tails"]
        assert ("exorcist" in names(s, s.mash[0])) == survives
        assert ("exorcist" in names(s, s.removed)) != survives


def test_two_succubi_against_the_exorcist():
    hands = [["succubus", *X5[1:]], ["succubus", "brains 1", "brains 2", "brains 3", "brains 4"]]
    mashes = [[], ["exorcist"]]
    s = arrange(game(3, coin_p_heads=1.0), hands=[hands[0], X5, hands[1]], mashes=[[], ["exorcist"], []])
    play(s, "seduce: succubus on the exorcist of P2")
    play(s, "second attacker succubus")
    # each succubus flips for the maelstrom (GF-22), then the Exorcist flips: hiding in his cloister
    assert "exorcist" in names(s, s.hands[1]) and coins(s) == ["heads", "heads", "heads"]
    assert s.hidden and s.hidden[0][2] == 3
    s.tp = 1
    start_turn(s)
    assert not has(s, "discard exorcist") and not has(s, "mash exorcist")
    s = arrange(game(3, coin_p_heads=0.0, maelstrom_vs_exorcist_attack=False),
                hands=[hands[0], X5, hands[1]], mashes=[[], ["exorcist"], []])
    play(s, "seduce: succubus on the exorcist of P2")
    play(s, "second attacker succubus")
    assert "exorcist" in names(s, s.discard) and coins(s) == ["tails"]
    # with the maelstrom a tails confuses the first succubus: she stays in the hand, unused
    s = arrange(game(3, coin_p_heads=0.0), hands=[hands[0], X5, hands[1]], mashes=[[], ["exorcist"], []])
    play(s, "seduce: succubus on the exorcist of P2")
    assert "succubus" in names(s, s.hands[0]) and "exorcist" in names(s, s.mash[1])
    assert coins(s) == ["tails"] and not has(s, "on the exorcist")
    # alone, the succubus fizzles (or, by the switch, goes back to her player's hand)
    hands[1] = X5
    s = arrange(game(2, maelstrom_vs_exorcist_attack=False), hands=hands, mashes=mashes)
    play(s, "seduce: succubus on the exorcist of P2")
    assert "succubus" in names(s, s.discard) and "exorcist" in names(s, s.mash[1])
    s = arrange(game(2, single_succubus_vs_exorcist="return_to_hand", maelstrom_vs_exorcist_attack=False),
                hands=hands, mashes=mashes)
    play(s, "seduce: succubus on the exorcist of P2")
    assert "succubus" in names(s, s.hands[0]) and "succubus" not in names(s, s.discard)
    # she may not try the same Exorcist again this turn (else a seat could loop for ever)...
    assert not has(s, "on the exorcist")
    play(s, "end play")  # (the attack was her play) P2's turn starts: P1 may answer
    assert s.tp == 1 and s.current_player() == 0
    assert has(s, "seduce: succubus on the exorcist of P2")  # ...but may in the next turn


def test_two_preachers_against_the_devil_wife():
    hands = [["preacher", "blood 1", "blood 2", "blood 3", "blood 4"], X5, ["preacher", *X5[:2]]]

    def attacked(heads):
        s = with_devil_wife(arrange(game(3, coin_p_heads=heads), hands=hands), 1)
        play(s, "preach: preacher on devil wife")
        play(s, "second attacker preacher")
        return s

    s = attacked(0.0)
    assert s.dw[1] == [] and "devil wife" in names(s, s.discard)
    s = attacked(1.0)
    assert len(s.dw[1]) == 1 and len(s.hands[1]) == 7  # she picked one card from each hand
    assert len(s.hands[0]) == 3 and len(s.hands[2]) == 1 and 1 in s.trim


def test_devil_wife_takes_an_exorcist_the_explosion():
    s = arrange(game(3), hands=[X5, ["exorcist"], ["blood 1", "blood 2"]],
                families=[["brains 1 2 3"], [], []], mashes=[["zombie"], [], []], scores=[2, 0, 0])
    with_devil_wife(s, 0)
    play(s, "devil wife seduces a card blindly from the hand of P2")
    assert s.score == [-4, 0, 0]
    assert s.hands[0] == [] and s.fams[0] == [] and s.mash[0] == [] and s.dw[0] == []
    assert "exorcist" in names(s, s.hands[1])  # he keeps the Exorcist
    assert s.tp == 1 and 0 in s.skip  # the Exorcist owner's turn; she loses her next one
    # her 9 cards were dealt between the two opponents, starting with the Exorcist owner (5 + 4)
    assert len(s.hands[1]) == 6 and len(s.hands[2]) == 6
    play(s, "discard exorcist")
    assert s.tp == 2


def test_switch_dw_family_take():
    hands = [["devil wife", *X5[1:]], X5]
    fams = [[], ["blood 2 3 4 5"]]
    s = arrange(game(2), hands=hands, families=fams)
    play(s, "devil wife from the hand")
    play(s, "drop blood 8")
    assert has(s, "takes blood 2 from a family") and has(s, "takes blood 5 from a family")
    assert not has(s, "takes blood 3 from a family")
    s = arrange(game(2, dw_family_take="any_and_split"), hands=hands, families=fams)
    play(s, "devil wife from the hand")
    play(s, "drop blood 8")
    play(s, "takes blood 3 from a family")
    assert sorted([s.g.num[c] for c in f[5]] for f in s.fams[1]) == [[2], [4, 5]]


def test_switch_evil_preacher_vs_devil_wife():
    """GF-26: evil preachers may negate the preachers attacking a Devil Wife (the default)."""
    hands = [["preacher", *X5[1:]], ["preacher", *X5[1:]], ["preacher", "brains 1"]]
    s = with_devil_wife(arrange(game(3), hands=hands), 1)
    play(s, "preach: preacher on devil wife")
    play(s, "pass")
    play(s, "second attacker preacher")
    assert s.current_player() == 1 and has(s, "evil preacher")
    play(s, "evil preacher")
    assert len(s.dw[1]) == 1 and coins(s) == []  # one preacher left: the attack fails
    s = with_devil_wife(arrange(game(3, evil_preacher_vs_devil_wife=False, coin_p_heads=0.0),
                                hands=hands), 1)
    play(s, "preach: preacher on devil wife")
    assert not has(s, "evil preacher")
    play(s, "pass")
    play(s, "second attacker preacher")  # resolves at once: tails, she dies
    assert s.dw[1] == [] and coins(s) == ["tails"]
