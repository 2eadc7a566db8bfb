"""What a Day of the Dead playtest must see happen (the coverage gates, docs/playtest.md).

Derived from the set and the rules, never from a card table: every effect primitive some
character's effect uses, every rules ability the set's backs, params and switches leave
switched on, and every character's own effect (a condition that can never hold, or a target
that is never there, leaves printed text that does nothing). The playtest's counts of them are the metrics ``fired.<item>`` (metrics.py), made
by the engine's counters (``Position.fired``: the interpreter and the turn loop bump them).

A switch reading away from the default that makes something new happen in play has an ability of
its own (the last part of ``_ABILITIES``), asked for only under that reading, so a reading the
games never exercise is "never tested" instead of passing unseen; the bundled set, on the
default readings, is asked for none of them.
"""

from __future__ import annotations

from .effects import PRIMITIVES
from .game import DotdGame

#: (ability, what it is, how a set makes it happen) for the rules abilities the engine counts.
_ABILITIES = {
    "conversion": ("a lost fighter converted into the spirit (DD-14)",
                   "players must lose fights and keep a loser"),
    "double_use": ("a Double spirit's second use of the fighter's effect",
                   "the set needs Double-back cards and fighters with effects worth repeating"),
    "power_up_fight": ("a fight with the Power Up spirit's bonus", "the set needs Power Up-back cards"),
    "spirit_unearth": ("an Unearth spirit's Unearth (DD-06)", "the set needs Unearth-back cards"),
    "unearth_retrigger": ("an Unearth spirit fired again after it was replaced (DD-07)",
                          "an Unearth spirit must be unearthed into another Unearth card"),
    "newcomer_effect": ("a fighter unearthed mid-fight using its effect in that fight (DD-08)",
                        "fighters must be replaced (unearth, force_unearth) before their effect step"),
    # what a switch reading away from the default makes happen (docs/rules/day-of-the-dead.md)
    "both_auto_lose_compared": ("a fight where both fighters had a net automatic loss, decided on "
                                "power (DD-12, both_auto_lose: compare_power)",
                                "the set's auto_lose effects must hit both fighters of one fight "
                                "at once, which random and greedy play may never bring about"),
    "late_conversion": ("a loser of an earlier fight this turn converted at a later step 4 "
                        "(DD-15, conversion_window: any_loser_this_turn)",
                        "a player must keep a loser and convert it after a later fight, which the "
                        "agents may never choose: playtest with an agent that does if the reading "
                        "is meant"),
    "spirit_waits": ("a spirit of another back converted with fights left, its back waiting until "
                     "the next turn (DD-17, new_spirit_applies: next_turn)",
                     "a loser of another back than the spirit must convert before the turn's last "
                     "fight"),
    "deck_short": ("an Unearth that found its deck short and looked at fewer cards (DD-19, "
                   "deck_empty: skip)",
                   "a deck must run low: Unearths and Digs must take most of one back's cards in "
                   "a game, which sets of the bundled size rarely do"),
    "active_unscored": ("an active line card that won no fight this turn and scored nothing "
                        "(DD-20, score_basis: won_this_turn)",
                        "a card must be active at Rewards without a win (flipped face up, "
                        "unearthed, a previous spirit entering active)"),
    "tie_broken": ("a game level on points decided by active fighters and power (DD-22, "
                   "tie_break: chain)", "games must end level on points"),
}


def items(game: DotdGame) -> list[tuple[str, str, str, bool]]:
    """(item, what it is, a hint to make it happen, whether this game can apply it) for every
    primitive of the vocabulary and every ability the engine counts."""
    out: list[tuple[str, str, str, bool]] = []
    users: dict[str, list[str]] = {}
    for c in game.characters:
        for step in c.effect:
            who = users.setdefault(step.op, [])
            if c.id not in who:
                who.append(c.id)
    for op in PRIMITIVES:
        cards = ", ".join(users.get(op, ()))
        out.append((f"primitive.{op}", f"the effect primitive `{op}` (on {cards or 'no card'})",
                    f"the agents must field {cards} and its `when:` must hold", op in users))
    backs = set(game.back)
    has_effects = any(game.has_effect)
    on = {
        "conversion": game.max_conv > 0,
        "double_use": 0 in backs and has_effects and game.double_uses > 1,
        "power_up_fight": 1 in backs and game.pu_bonus != 0,
        "spirit_unearth": 2 in backs,
        "unearth_retrigger": 2 in backs and game.retrigger,
        "newcomer_effect": (game.newcomer_uses or game.newcomer_pending)
        and bool({"unearth", "force_unearth"} & set(users)),
        # the switch readings away from the default
        "both_auto_lose_compared": not game.both_lose and "auto_lose" in users,
        "late_conversion": game.any_loser and game.max_conv > 0,
        "spirit_waits": not game.spirit_now and game.max_conv > 0,
        "deck_short": not game.reshuffle and (2 in backs or bool({"unearth", "force_unearth"} & set(users))),
        "active_unscored": game.score_won_only,
        "tie_broken": game.tie_chain,
    }
    for name, (what, hint) in _ABILITIES.items():
        out.append((f"ability.{name}", what, hint, on[name]))
    for c in game.characters:  # each printed effect: one that never runs is text that does nothing
        if c.effect:
            out.append((f"card.{c.id}", f"{c.name}'s effect (a use in which a step of it ran)",
                        f"the agents must field {c.name} where its `when:` holds and what it "
                        "acts on is there; an effect that never runs in these games is text "
                        "that does nothing (check its condition, its turn and whom it aims at)",
                        True))
    return out
