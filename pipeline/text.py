"""docs/characters.md: the bundled characters with their generated rules text.

The rules text itself is Day of the Dead's and lives in its folder
(``boneyard.engine.dotd.text``); this module only writes the character list for the docs.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from boneyard.engine.cards import CardSet
from boneyard.engine.dotd.cards import BACKS
from boneyard.engine.dotd.text import back_label, rules_text

# --- the character list in the docs ----------------------------------------------------------


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
        + (card_set.slug or "day-of-the-dead")
        + "/characters.yaml` by `boneyard.pipeline.text.characters_table_markdown`;"
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


def write_characters_doc(card_set: CardSet, path: str | Path) -> None:
    """Write the character list atomically (temp file + rename: never a half-written doc)."""
    path = Path(path)
    text = characters_table_markdown(card_set)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as fh:
            fh.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def main(argv: Sequence[str] | None = None) -> int:
    """Regenerate docs/characters.md from the bundled Day of the Dead set."""
    from boneyard.pipeline.load import load_set

    from boneyard.paths import DOCS

    args = list(sys.argv[1:] if argv is None else argv)
    target = Path(args[0]) if args else DOCS / "characters.md"
    write_characters_doc(load_set("day-of-the-dead"), target)
    print(f"wrote {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
