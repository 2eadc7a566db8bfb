"""From a card set to card faces: what each printed side shows, and which faces pair up.

A *face* is one distinct printed side (Day of the Dead: each character on each back has its own
front, because the back's icon is printed in the corners; Grave Feast: one front per card kind
and number). A *print card* is one physical card: a front face and a back face. Sheets print
every physical card; images are made once per face.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boneyard.engine.cards import CardSet, FeastCard
from boneyard.engine.dotd.cards import BACKS, Character

from boneyard.errors import RenderError

Runs = tuple[tuple[str, str], ...]
RulesRuns = Callable[[Character], list[tuple[str, str]]]

_KIND_NAMES = {
    "human": "Human",
    "vampire": "Vampire",
    "zombie": "Zombie",
    "succubus": "Succubus",
    "preacher": "Preacher",
    "devil_wife": "Devil Wife",
    "exorcist": "Exorcist",
}


@dataclass(frozen=True, slots=True)
class Face:
    """One printed side. ``layouts``: candidate layout names, most specific first."""

    id: str
    side: str  # "front" | "back"
    layouts: tuple[str, ...]
    fields: Mapping[str, Any]
    rules: Runs = ()
    group: str = ""  # the back type this face belongs to (Tabletop Simulator sheet, file names)


@dataclass(frozen=True, slots=True)
class PrintCard:
    front: Face
    back: Face


@dataclass(frozen=True, slots=True)
class Deck:
    """Everything a renderer needs from a card set, in print order."""

    set_name: str
    slug: str
    content_hash: str
    fronts: tuple[Face, ...]
    backs: tuple[Face, ...]
    cards: tuple[PrintCard, ...] = field(default=())

    @property
    def faces(self) -> tuple[Face, ...]:
        return self.fronts + self.backs


def _art_path(card_set: CardSet, card_id: str, art: str | None) -> str:
    """The art file's absolute path ('' for none); a missing or escaping file is an error."""
    if not art:
        return ""
    root = Path(card_set.root or ".").resolve()
    path = (root / art).resolve()
    if not path.is_relative_to(root):
        raise RenderError(f"card '{card_id}': art {art!r} lies outside the set folder {root} "
                          "(keep art files inside the set's folder)")
    if not path.is_file():
        raise RenderError(f"card '{card_id}': art file {art!r} not found in {root} "
                          "(add the image or remove the card's 'art:' line)")
    return str(path)


def _default_rules_runs() -> RulesRuns:
    from boneyard.engine.dotd.text import rules_runs

    return rules_runs


def build_deck(card_set: CardSet, rules_runs: RulesRuns | None = None) -> Deck:
    """Faces and physical cards of a set, in the set's own deck order."""
    base = {"set_name": card_set.name, "content_hash": card_set.content_hash}
    if card_set.rules == "day-of-the-dead":
        return _dotd_deck(card_set, base, rules_runs or _default_rules_runs())
    if card_set.rules == "grave-feast":
        return _feast_deck(card_set, base)
    raise RenderError(f"set {card_set.name!r}: no renderer for rules {card_set.rules!r}")


def _dotd_deck(card_set: CardSet, base: dict[str, Any], rules_runs: RulesRuns) -> Deck:
    backdefs = {b.id: b for b in card_set.backs}
    back_faces: dict[str, Face] = {}
    for bid in BACKS:
        if bid in backdefs or not backdefs:
            b = backdefs.get(bid)
            name = b.name if b else bid.replace("_", " ").title()
            back_faces[bid] = Face(
                id=f"back-{bid}", side="back", layouts=(f"back-{bid}", "back"), group=bid,
                fields={**base, "name": name, "back": bid, "back_name": name,
                        "back_colour": b.colour if b else "#777777",
                        "back_colour_name": b.colour_name if b else ""})
    physical = card_set.cards
    if not physical:  # a set built in code: characters x backs x copies
        from boneyard.engine.dotd.cards import DeadCard

        physical = tuple(
            DeadCard(0, ch, bid) for bid in BACKS for ch in card_set.characters
            if bid in ch.backs for _ in range(ch.copies))
    fronts: dict[str, Face] = {}
    cards = []
    runs_cache: dict[str, Runs] = {}
    for dc in physical:
        ch = dc.character
        if dc.back not in back_faces:
            raise RenderError(f"card '{dc.id}': back {dc.back!r} is not one of the set's backs")
        face = fronts.get(dc.id)
        if face is None:
            if ch.id not in runs_cache:
                runs_cache[ch.id] = tuple((t, s) for t, s in rules_runs(ch))
            back = back_faces[dc.back].fields
            face = fronts[dc.id] = Face(
                id=dc.id, side="front", layouts=(f"front-{dc.back}", "front"),
                rules=runs_cache[ch.id], group=dc.back,
                fields={**base, "id": dc.id, "character": ch.id, "name": ch.name,
                        "power": str(ch.power), "flavor": ch.flavor or "",
                        "art": _art_path(card_set, dc.id, ch.art),
                        "back": dc.back, "back_name": back["back_name"],
                        "back_colour": back["back_colour"],
                        "vanilla": "yes" if ch.is_vanilla else ""})
        cards.append(PrintCard(face, back_faces[dc.back]))
    used_backs = [f for bid, f in back_faces.items() if any(c.back is f for c in cards)]
    return Deck(card_set.name, card_set.slug, card_set.content_hash, tuple(fronts.values()),
                tuple(used_backs), tuple(cards))


def _feast_face(card: FeastCard, card_set: CardSet, base: dict[str, Any]) -> Face:
    layouts = []
    if card.food:
        layouts.append(f"front-{card.kind}-{card.food}")
    layouts.append(f"front-{card.kind}")
    if card.rare:
        layouts.append("front-rare")
    layouts.append("front")
    kind_name = _KIND_NAMES.get(card.kind, card.kind.replace("_", " ").title())
    return Face(
        id=card.id, side="front", layouts=tuple(layouts), group="deck",
        fields={**base, "id": card.id, "name": card.name, "kind": card.kind,
                "kind_name": kind_name, "food": card.food or "",
                "food_name": (card.food or "").title(),
                "number": "" if card.number is None else str(card.number),
                "rare": "yes" if card.rare else "", "flavor": card.flavor or "",
                "art": _art_path(card_set, card.id, card.art)})


def _feast_deck(card_set: CardSet, base: dict[str, Any]) -> Deck:
    back = Face(id="back", side="back", layouts=("back",), group="deck",
                fields={**base, "name": card_set.name})
    fronts = []
    cards = []
    # rares are printed after the regular deck: a print-and-play copy should hold every card
    for card in (*card_set.feast_cards, *card_set.rares):
        face = _feast_face(card, card_set, base)
        fronts.append(face)
        cards.extend(PrintCard(face, back) for _ in range(card.copies))
    return Deck(card_set.name, card_set.slug, card_set.content_hash, tuple(fronts), (back,),
                tuple(cards))
