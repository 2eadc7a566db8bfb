"""Content hash of a card set: what a playtest record and a printed footer vouch for.

The hash covers everything that changes what is played or printed: every card, the set's name,
every rules parameter and switch, the playtest section, and the bytes of the template, of what
it pulls in and of the art (``CardSet.files``), but not the folder the set lives in. It is
computed from the validated card model alone, generically for every game.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from collections.abc import Mapping
from typing import Any


def _plain(value: Any, play: bool = False) -> Any:
    """``value`` as plain data; ``play``: without the fields only the printer reads."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name), play) for f in dataclasses.fields(value)
                if not play or f.metadata.get("play", True)}
    if isinstance(value, Mapping):
        return {str(k): _plain(v, play) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [_plain(v, play) for v in value]
    return value


def play_content(value: Any) -> Any:
    """A card (or any part of a set) as the engine reads it: without the fields declared
    ``PRINT_ONLY`` (flavor text, art paths), so two values equal here play the same games."""
    return _plain(value, play=True)


def content_hash(card_set: Any) -> str:
    """Short sha256 (16 hex digits) of the set's play-relevant content.

    Every field of the card set's dataclass counts, whichever game it belongs to, except those
    declared ``field(metadata={"content": False})`` (its folder and the hash itself), so a game's
    new card field can never be left out by accident. ``HASH_AS_EMPTY`` names fields a set's
    class no longer has but its recorded hashes counted (as empty lists): they count still.
    """
    data = {f.name: _plain(getattr(card_set, f.name)) for f in dataclasses.fields(card_set)
            if f.metadata.get("content", True)}
    return _digest(card_set, data)


def play_hash(card_set: Any) -> str:
    """The content hash of what the engine reads: without the template and art files, the
    playtest section (its settings are compared by the config hash) and the print-only card
    fields. Equal play hashes, same games: an edit of the flavor text replays nothing."""
    data = {f.name: play_content(getattr(card_set, f.name)) for f in dataclasses.fields(card_set)
            if f.metadata.get("content", True) and f.name not in ("files", "playtest")}
    return _digest(card_set, data)


def _digest(card_set: Any, data: dict[str, Any]) -> str:
    for name in getattr(card_set, "HASH_AS_EMPTY", ()):  # card fields the set once had, empty
        data.setdefault(name, [])
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]
