"""The docs Day of the Dead's folder writes about a set: the character list (docs/characters.md)
with the generated rules text, so the list can never drift from the card data."""

from __future__ import annotations

from boneyard.engine.cards import CardSet

from .cards import BACKS
from .text import back_label, rules_text


def set_docs(card_set: CardSet) -> dict[str, str]:
    """docs/ file name -> its text, for ``python -m boneyard.pipeline.text``."""
    return {"characters.md": characters_table_markdown(card_set)}


def _cell(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|").replace("\n", " ")


def characters_table_markdown(card_set: CardSet) -> str:
    """docs/characters.md: every character with power, generated effect text and flavor.

    Generated, never hand-written, so the list cannot drift from the card data; a test compares
    the committed file with this output.
    """
    chars = card_set.characters
    lines = [
        f"# {card_set.name}: the {len(chars)} characters",
        "",
        "Generated from `cards/"
        + card_set.slug
        + "/characters.yaml` by `boneyard.engine.dotd.docs.characters_table_markdown`;"
        " do not edit by hand. Regenerate with `.venv/bin/python -m boneyard.pipeline.text`.",
        "The effect text is exactly what is printed on the cards.",
        "",
    ]
    if chars:
        mean = sum(c.power for c in chars) / len(chars)
        spread = ", ".join(
            f"{p}: {sum(1 for c in chars if c.power == p)}"
            for p in sorted({c.power for c in chars})
        )
        lines += [f"Printed powers (characters per power): {spread}; mean {mean:.2f}.", ""]
    lines += ["| # | Name | Power | Effect | Flavor |", "|---:|---|---:|---|---|"]
    every_back = tuple(b.id for b in card_set.backs) or BACKS
    for n, ch in enumerate(chars, 1):
        effect = rules_text(ch, card_set) or "—"
        extras = []
        if tuple(ch.backs) != every_back:
            extras.append("backs: " + ", ".join(back_label(b, card_set) for b in ch.backs))
        if ch.copies != 1:
            extras.append(f"{ch.copies} copies per back")
        name = ch.name + (f" ({'; '.join(extras)})" if extras else "")
        lines.append(
            f"| {n} | {_cell(name)} | {ch.power} | {_cell(effect)} | {_cell(ch.flavor or '')} |"
        )
    return "\n".join(lines) + "\n"
