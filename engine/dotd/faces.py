"""Day of the Dead's printed faces: each character on each back is its own front, because the
back's icon is printed in the corners; one back face per back."""

from __future__ import annotations

from boneyard.engine.cards import CardSet
from boneyard.engine.dotd.cards import BACKS, DeadCard
from boneyard.engine.faces import Deck, Face, PrintCard, RulesRuns, Runs, art_path, base_fields

from boneyard.errors import RenderError


def _default_rules_runs() -> RulesRuns:
    from boneyard.engine.dotd.text import rules_runs

    return rules_runs


def build_deck(card_set: CardSet, rules_runs: RulesRuns | None = None) -> Deck:
    """Fronts (character x back), the backs in use and every physical card in deck order."""
    rules_runs = rules_runs or _default_rules_runs()
    base = base_fields(card_set)
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
                        "art": art_path(card_set, dc.id, ch.art),
                        "back": dc.back, "back_name": back["back_name"],
                        "back_colour": back["back_colour"],
                        "vanilla": "yes" if ch.is_vanilla else ""})
        cards.append(PrintCard(face, back_faces[dc.back]))
    used_backs = [f for f in back_faces.values() if any(c.back is f for c in cards)]
    return Deck(card_set.name, card_set.slug, card_set.content_hash, tuple(fronts.values()),
                tuple(used_backs), tuple(cards))
