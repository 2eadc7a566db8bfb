"""Where the bundled card sets, schemas and outputs live, found from the source tree."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CARDS = ROOT / "cards"
SCHEMA = ROOT / "schema"
OUTPUT = ROOT / "output"
DOCS = ROOT / "docs"


def bundled_sets() -> list[str]:
    """Names of the card sets under ``cards/`` (a folder with a ``game.yaml``)."""
    return sorted(p.parent.name for p in CARDS.glob("*/game.yaml"))
