"""Shared set-up for the Grave Feast engine tests: the bundled 54-card set (plus rares)."""

from __future__ import annotations

from boneyard.engine.cards import CardSet, FeastCard, freeze


def feast_set(**switches: object) -> CardSet:
    """The bundled set if the loader can read it, else the 54-card deck of rulings §6.1."""
    try:
        from boneyard.pipeline.load import load_set

        cs = load_set("grave-feast")
        return cs.with_switches(**switches) if switches else cs
    except Exception:  # the loader is not there yet, or the set does not load: use the proposal
        pass
    cards = []
    for food in ("blood", "brains"):
        for n in range(1, 10):
            cards.append(FeastCard(f"{food}-{n}", food.title(), "human", food, n, copies=2))
    cards += [
        FeastCard("vampire", "Vampire", "vampire", copies=4),
        FeastCard("zombie", "Zombie", "zombie", copies=4),
        FeastCard("succubus", "Succubus", "succubus", copies=4),
        FeastCard("preacher", "Preacher", "preacher", copies=6),
    ]
    rares = (
        FeastCard("devil-wife", "Devil Wife", "devil_wife", rare=True),
        FeastCard("exorcist", "Exorcist", "exorcist", rare=True),
    )
    return CardSet(
        name="Grave Feast",
        slug="grave-feast",
        rules="grave-feast",
        params=freeze({}),
        switches=freeze(switches),
        content_hash="test",
        feast_cards=tuple(cards),
        rares=rares,
    )


def test_support_deck_has_54_regular_cards():
    from boneyard.engine.gf import FeastGame

    game = FeastGame(feast_set(), num_players=2)
    assert game.size == 54
    assert FeastGame(feast_set(), num_players=6).size == 108
    assert FeastGame(feast_set(), num_players=6, rares=True).size == 110

