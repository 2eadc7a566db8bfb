"""Small card sets for the renderer tests, built from the card model (no YAML, no text.py).

The golden transcripts must change only when the layout changes, not when a designer rewords a
character, so these sets carry their own characters and a fixed rules-text function.
"""

from __future__ import annotations

import dataclasses

from boneyard.engine.cards import BackDef, CardSet, FeastCard, freeze
from boneyard.engine.dotd.cards import Character, Step
from boneyard.engine.hashing import content_hash

BACKS = (
    BackDef("double", "Double", "#161616", "black"),
    BackDef("power_up", "Power Up", "#8c8c8c", "gray"),
    BackDef("unearth", "Unearth", "#f2f0ea", "white"),
)

CHARACTERS = (
    Character("oaf", "Oaf", 7, flavor="He has no effect because he's, well, an oaf."),
    Character("anger", "Anger", 3, (Step("power", 5),), flavor="Never count to ten."),
    Character("gravedigger", "Gravedigger", 4, (Step("dig", 1), Step("power", 2)),
              flavor="Six feet is a suggestion."),
    Character("skeleton_butler", "Skeleton Butler", 8, (Step("give_priority"),)),
)

RULES = {
    "oaf": [],
    "anger": [("+5 power this fight.", "plain")],
    "gravedigger": [("Dig", "keyword"), (". +2 power this fight.", "plain")],
    "skeleton_butler": [("Give the Priority counter to your opponent.", "plain")],
}


def rules_runs(character: Character) -> list[tuple[str, str]]:
    return RULES.get(character.id, [])


def dotd_set(characters: tuple[Character, ...] = CHARACTERS, root: str = "") -> CardSet:
    cs = CardSet(name="Day of the Dead", slug="day-of-the-dead", rules="day-of-the-dead",
                 params=freeze({}), switches=freeze({}), content_hash="", root=root,
                 backs=BACKS, characters=characters)
    return dataclasses.replace(cs, content_hash=content_hash(cs))


FEAST = (
    FeastCard("blood-3", "Blood 3", "human", food="blood", number=3, copies=2,
              flavor="Rich, warm and type O."),
    FeastCard("brains-4", "Brains 4", "human", food="brains", number=4, copies=2),
    FeastCard("vampire", "Vampire", "vampire", copies=2),
    FeastCard("preacher", "Preacher", "preacher", copies=2),
)
RARES = (FeastCard("exorcist", "Exorcist", "exorcist", rare=True),)


def feast_set(root: str = "") -> CardSet:
    cs = CardSet(name="Grave Feast", slug="grave-feast", rules="grave-feast", params=freeze({}),
                 switches=freeze({}), content_hash="", root=root, feast_cards=FEAST, rares=RARES)
    return dataclasses.replace(cs, content_hash=content_hash(cs))
