"""What ``boneyard validate`` and ``boneyard cards`` show of a Day of the Dead set: cards per back,
the spread of printed powers, and one row per character (or per card of one back)."""

from __future__ import annotations

from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.dotd.cards import Character, Step
from boneyard.engine.spec import Column, Table


def set_tables(card_set: CardSet) -> list[Table]:
    """Per back: cards, characters and mean power; then characters per printed power 0-9."""
    title = f"{card_set.name} ({card_set.slug}, content {card_set.content_hash})"
    rows = []
    for back in card_set.backs:
        cards = [c for c in card_set.cards if c.back == back.id]
        chars = {c.character.id for c in cards}
        mean = sum(c.character.power for c in cards) / len(cards) if cards else 0.0
        rows.append((back.name, back.colour_name or back.colour, str(len(cards)),
                     str(len(chars)), f"{mean:.2f}"))
    summary = Table(
        title, (Column("back"), Column("colour"), Column("cards", "right"),
                Column("characters", "right"), Column("mean power", "right")), tuple(rows),
        total=("total", "", str(len(card_set.cards)), str(len(card_set.characters)), ""),
        min_width=len(title))
    powers = [ch.power for ch in card_set.characters]
    vanilla = sum(1 for ch in card_set.characters if ch.is_vanilla)
    spread = Table(
        "characters per printed power",
        (Column("power"), *(Column(str(p), "right") for p in range(10)),
         Column("no effect", "right")),
        (("characters", *(str(powers.count(p)) for p in range(10)), str(vanilla)),))
    return [summary, spread] if card_set.characters else [summary]


def card_groups(card_set: CardSet) -> tuple[str, ...]:
    """The values ``boneyard cards --back`` accepts."""
    return tuple(b.id for b in card_set.backs)


def _backs_text(ch: Character, names: dict[str, str]) -> str:
    """"all" for the usual character (once on every back), else each back with its copies."""
    if ch.copies == 1 and set(ch.backs) == set(names):
        return "all"
    return ", ".join(names[b] + (f" x{ch.copies}" if ch.copies > 1 else "") for b in ch.backs)


def rules_texts(card_set: CardSet) -> dict[str, str]:
    """Each character's printed rules text, by id."""
    from boneyard.engine.dotd.text import rules_text

    return {c.id: rules_text(c, card_set) for c in card_set.characters}


def cards_table(card_set: CardSet, back: str | None) -> Table:
    """One row per character, or per card of ``back``, with its printed rules text."""
    text = rules_texts(card_set)
    names = {b.id: b.name for b in card_set.backs}
    if back:
        rows = [(c.character, names[c.back]) for c in card_set.cards if c.back == back]
    else:
        rows = [(ch, _backs_text(ch, names)) for ch in card_set.characters]
    return Table(
        f"{card_set.name} ({card_set.content_hash})",
        (Column("id", no_wrap=True), Column("name"), Column("power", "right"),
         Column("back" if back else "backs"), Column("text")),
        tuple((ch.id, ch.name, str(ch.power), backs, text[ch.id] or "-") for ch, backs in rows))


def _step_json(step: Step) -> dict[str, Any]:
    out: dict[str, Any] = {"op": step.op}
    for name in ("amount", "who", "per", "target"):
        out[name] = getattr(step, name)
    out["when"] = [{"test": c.test, "op": c.op, "value": c.value, "subject": c.subject}
                   for c in step.when]
    return out


def cards_json(card_set: CardSet, back: str | None) -> dict[str, Any]:
    """The physical cards as plain data (``boneyard cards --json``)."""
    text = rules_texts(card_set)
    return {"cards": [
        {"index": c.index, "id": c.id, "character": c.character.id,
         "name": c.character.name, "back": c.back, "power": c.character.power,
         "text": text[c.character.id], "effect": [_step_json(s) for s in c.character.effect],
         "flavor": c.character.flavor, "art": c.character.art}
        for c in card_set.cards if back is None or c.back == back
    ]}
