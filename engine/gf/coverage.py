"""What a Grave Feast playtest must see happen (the coverage gates, docs/playtest.md).

Derived from the deck and the rules: every rules ability the deck's card kinds, the rares option
and the switches leave possible. The playtest's counts of them are the metrics ``fired.<item>``
(metrics.py), read after each game off the engine's counters and event log (summary.abilities).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .constants import DEVIL_WIFE, EXORCIST, KIND_NAMES, PREACHER, SUCCUBUS, VAMPIRE, ZOMBIE

if TYPE_CHECKING:
    from .game import FeastGame

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
    return [(f"ability.{name}", what, hints.get(name, hint), on[name])
            for name, (what, hint) in ABILITIES.items()]
