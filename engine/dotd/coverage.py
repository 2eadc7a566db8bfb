"""What a Day of the Dead playtest must see happen (the coverage gates, docs/playtest.md).

Derived from the set and the rules, never from a card table: every effect primitive some
character's effect uses, and every rules ability the set's backs, params and switches leave
switched on. The playtest's counts of them are the metrics ``fired.<item>`` (metrics.py), made
by the engine's counters (``Position.fired``: the interpreter and the turn loop bump them).
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
    }
    for name, (what, hint) in _ABILITIES.items():
        out.append((f"ability.{name}", what, hint, on[name]))
    return out
