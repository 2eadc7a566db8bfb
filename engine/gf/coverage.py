"""What a Grave Feast playtest must see happen (the coverage gates, docs/playtest.md).

Derived from the deck and the rules: every rules ability the deck's card kinds, the rares option
and the switches leave possible. The playtest's counts of them are the metrics ``fired.<item>``
(metrics.py), read after each game off the engine's counters and event log (summary.abilities).

A switch reading away from the default that makes something new happen in play has an ability of
its own (the last part of ``ABILITIES``), asked for only under that reading: a reading the games
never exercise is then "never tested" instead of passing unseen. The bundled sets, on the default
readings, are asked for none of them. A reading that only forbids something (or changes how
something always done is done) has none: there is no event of its own to count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .constants import DEVIL_WIFE, EXORCIST, KIND_NAMES, PREACHER, SUCCUBUS, VAMPIRE, ZOMBIE

if TYPE_CHECKING:
    from .game import FeastGame

_AGENTS = ("and the playtest agents may never choose to: playtest with an agent that does if the "
           "reading is meant")

#: (ability, what it is, how a game makes it happen). Counted also, never required:
#: rare_attack_fizzled, exorcist_self_loathing_suicide (outcomes, not abilities).
ABILITIES: dict[str, tuple[str, str]] = {
    "feast": ("a family sent to the graveyard (a feast)", "families must be completed and fed"),
    "steal_family": ("a succubus hijacking a family", "the deck needs succubi"),
    "steal_mash": ("a succubus stealing a Monster Mash", "the deck needs succubi and mashes worth taking"),
    "preach": ("a preacher on an eater", "the deck needs preachers"),
    "evil_preacher_counter": ("an evil preacher answering a preacher", "the deck needs preachers"),
    "preacher_chain": ("a preacher chain of two or more", "the deck needs preachers"),
    "eater_killed": ("an eater killed by a preacher chain", "the deck needs preachers"),
    "recycle": ("the discard pile recycled into the draw pile", "games must outlast the draw pile"),
    "flub": ("a misspoken phrase (switch phrase_error_rate)", "phrase_error_rate above 0"),
    "race_lost": ("a lost announcement race (race_model: probabilistic)", "race_p below 1"),
    "dw_placed": ("a Devil Wife placed as a permanent card", "the agents must place her"),
    "dw_seduction": ("a permanent Devil Wife's seduction", "the agents must place her"),
    "dw_from_hand": ("a Devil Wife played from the hand (drop and steal)", "the agents must play her"),
    "dw_killed_by_two_preachers": ("a Devil Wife killed by two preachers (tails)",
                                   "two preachers must attack her"),
    "dw_survived_two_preachers": ("a Devil Wife surviving two preachers (heads)",
                                  "two preachers must attack her"),
    "dw_killed_by_preacher_from_hand": ("a Devil Wife killed by a preacher she took from a hand",
                                        "she must take a preacher"),
    "exorcist_blast": ("an Exorcist played from the hand (every visible monster explodes)",
                       "the agents must play him from the hand"),
    "exorcist_maelstrom": ("an Exorcist in a Monster Mash confusing monsters (maelstrom flips)",
                           "the agents must put him in a mash"),
    "exorcist_self_loathing": ("an Exorcist in a mash at a feast (self-loathing flip)",
                               "he must sit in a mash when a family is fed"),
    "exorcist_hid": ("an Exorcist hiding from two succubi (heads)", "two succubi must attack him"),
    "exorcist_seduced": ("an Exorcist seduced by two succubi (tails)", "two succubi must attack him"),
    "exorcist_killed_by_dw": ("an Exorcist taken from a mash by a Devil Wife from the hand",
                              "she must take him from a mash"),
    "explosion": ("a Devil Wife taking an Exorcist from a hand (the explosion)",
                  "she must pick him blindly from a hand"),
    "coin_flip": ("a coin flip", "a rare must force a flip"),
    "maelstrom_confused": ("a monster confused by the maelstrom (tails)", "an Exorcist in a mash"),
    # What a switch reading away from the default makes happen (docs/rules/grave-feast.md,
    # "Switches at a glance"), each asked for only under that reading (items below).
    "second_eater": ("a family given a second eater (an eater attached to a fed family, or two fed "
                     "families joined; max_eaters_per_family >= 2)",
                     f"a seat must attach an eater to a family that already has one, {_AGENTS}"),
    "turn_passed": ("a turn ended with neither a play nor a discard (must_act: false)",
                    f"a seat holding cards must pass its turn, {_AGENTS}"),
    "join_discarded_eater": ("a join of two fed families that discarded the extra eater "
                             "(join_two_fed: discard_extra_eater)",
                             f"a seat must join two fed families of one food, {_AGENTS}"),
    "out_of_turn_play": ("a stolen family extended or fed straight after an out-of-turn steal "
                         "(out_of_turn_completion: true)",
                         f"a thief must steal on another's turn and then play on the family, {_AGENTS}"),
    "played_after_own_feast": ("a play after a feast on one's own turn (graveyard_ends_turn: false)",
                               f"a seat must play on after feeding on its own turn, {_AGENTS}"),
    "instant_kept_action": ("an instant thrown on one's own turn before any play, leaving the play "
                            "or discard open (instants_use_action: false)",
                            f"a seat must throw a succubus or preacher on its own turn first, {_AGENTS}"),
    "attach_and_announce": ("an eater attached and announced in one breath, with no succubus "
                            "window (succubus_window_fresh_attach: false)",
                            f"a seat must attach an eater to a complete family 'to the graveyard', "
                            f"{_AGENTS}"),
    "flub_not_called_out": ("a flubbed eater phrase nobody called out: the eater feeds "
                            "(callout_rate below 1)", "eaters must be attached with phrase_error_rate above 0"),
    "succubus_returned": ("a lone succubus on an Exorcist back in her player's hand "
                          "(single_succubus_vs_exorcist: return_to_hand)",
                          f"a succubus must attack an Exorcist in a mash with no second one to join, "
                          f"{_AGENTS}"),
    "dw_split_family": ("a Devil Wife taking a middle human, splitting the family "
                        "(dw_family_take: any_and_split)",
                        f"a Devil Wife must take a human from the middle of a family, {_AGENTS}"),
    "exorcist_split_family": ("a family split into one-card families by the Exorcist's blast "
                              "(exorcist_broken_family: split_singletons)",
                              "an Exorcist must blast a family keeping two or more odd humans"),
    "exorcist_spared_preacher": ("a preacher in a mash spared by the Exorcist's blast "
                                 "(exorcist_hits_preachers: false)",
                                 "an Exorcist must blast a player with a preacher in the mash"),
    "maelstrom_spared_owner": ("a monster of the Exorcist's owner attempting something with no "
                               "flip (maelstrom_scope: opponents_only)",
                               "a seat with an Exorcist in its own mash must attempt something "
                               "with a monster"),
}


def items(game: FeastGame) -> list[tuple[str, str, str, bool]]:
    """(item, what it is, a hint to make it happen, whether this game can apply it) for every
    ability the engine counts."""
    kinds = set(game.kind)
    succ, pre = SUCCUBUS in kinds, PREACHER in kinds
    eaters = bool({VAMPIRE, ZOMBIE} & kinds)
    dw, exo = game.rares and DEVIL_WIFE in kinds, game.rares and EXORCIST in kinds
    heads, tails = game.p_heads > 0.0, game.p_heads < 1.0
    on = {
        "feast": eaters,
        "steal_family": succ, "steal_mash": succ,
        "preach": pre and eaters, "evil_preacher_counter": pre and eaters,
        "preacher_chain": pre and eaters, "eater_killed": pre and eaters,
        "recycle": True,
        "flub": game.flub_rate > 0.0,
        "race_lost": game.race_prob and game.window_fresh and game.race_p < 1.0,
        "dw_placed": dw, "dw_seduction": dw, "dw_from_hand": dw,
        "dw_killed_by_two_preachers": dw and pre and tails,
        "dw_survived_two_preachers": dw and pre and heads,
        "dw_killed_by_preacher_from_hand": dw and pre,
        "exorcist_blast": exo, "exorcist_maelstrom": exo, "exorcist_self_loathing": exo and eaters,
        "exorcist_hid": exo and succ and heads, "exorcist_seduced": exo and succ and tails,
        "exorcist_killed_by_dw": exo and dw, "explosion": exo and dw,
        "coin_flip": dw or exo,
        "maelstrom_confused": exo and tails,
        # the switch readings away from the default
        "second_eater": eaters and game.max_eaters >= 2,
        "turn_passed": not game.must_act,
        "join_discarded_eater": eaters and game.join_discards,
        "out_of_turn_play": succ and game.ooo_completion,
        "played_after_own_feast": eaters and not game.gy_ends_turn,
        "instant_kept_action": (succ or pre or game.rares) and not game.instants_use_action,
        "attach_and_announce": eaters and not game.window_fresh,
        "flub_not_called_out": eaters and game.flub_rate > 0.0 and game.callout_rate < 1.0,
        "succubus_returned": exo and succ and game.succ_return,
        "dw_split_family": dw and game.dw_any,
        "exorcist_split_family": exo and game.exo_split,
        "exorcist_spared_preacher": exo and pre and not game.exo_hits_preachers,
        "maelstrom_spared_owner": exo and not game.maelstrom_all,
    }
    hints = {}
    # A card kind the rulebook's deck has but this deck lacks is a hole, not a variant to pass
    # in silence: its first ability stays asked for, so the build names the missing kind once
    # a run (the designer who means it exempts that ability with the reason).
    for kind, ability, where, name in ((SUCCUBUS, "steal_family", "deck", "a succubus"),
                                       (PREACHER, "preach", "deck", "a preacher"),
                                       (DEVIL_WIFE, "dw_from_hand", "rares file", "a Devil Wife"),
                                       (EXORCIST, "exorcist_blast", "rares file", "an Exorcist")):
        if kind in kinds or (where == "rares file" and not game.rares) or not eaters:
            continue
        on[ability] = True
        hints[ability] = (f"the {where} needs {name}: it has none, so none of its rules is ever "
                          f"played (add a card of kind: {KIND_NAMES[kind]})")
    return [(f"ability.{name}", what, hints.get(name, hint), bool(on[name]))
            for name, (what, hint) in ABILITIES.items()]
