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


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def content_hash(card_set: Any) -> str:
    """Short sha256 (16 hex digits) of the set's play-relevant content.

    Every field of the card set's dataclass counts, whichever game it belongs to, except those
    declared ``field(metadata={"content": False})`` (its folder and the hash itself), so a game's
    new card field can never be left out by accident. ``HASH_AS_EMPTY`` names fields a set's
    class no longer has but its recorded hashes counted (as empty lists): they count still.
    """
    data = {f.name: _plain(getattr(card_set, f.name)) for f in dataclasses.fields(card_set)
            if f.metadata.get("content", True)}
    for name in getattr(card_set, "HASH_AS_EMPTY", ()):  # card fields the set once had, empty
        data.setdefault(name, [])
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]
