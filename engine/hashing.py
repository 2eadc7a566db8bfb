"""Content hash of a card set: what a playtest record and a printed footer vouch for.

The hash covers every card, every rules parameter and every switch, but not the art pixels or
the file layout, so renaming a file leaves it alone while any change that can alter play moves it.
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
    """Short sha256 (16 hex digits) of the set's play-relevant content."""
    data = {
        "rules": card_set.rules,
        "params": _plain(card_set.params),
        "switches": _plain(card_set.switches),
        "characters": _plain(card_set.characters),
        "cards": [c.id for c in card_set.cards],
        "feast_cards": _plain(card_set.feast_cards),
        "rares": _plain(card_set.rares),
    }
    blob = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(blob.encode()).hexdigest()[:16]
