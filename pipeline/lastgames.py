"""The last pass's main games, kept so a change-aware build plays only the new content.

Why: a change-aware build judges every set metric as the last pass's value plus the paired
change, so it played each main game twice, once on the old content and once on the new. The old
half is the last pass's own games again: the same content, code, settings and seeds give the
same games on any machine and any number of processes. So a passing build keeps its main games
(``last-pass/games.json.gz``) and the next build takes the old side from there instead of
playing it; a batch it does not hold (a further look) is played as before.

The file is believed only if it names the content, code and settings it was played on (play hash,
code hash, playtest settings, tool), those are the last pass's, and its HMAC (this
installation's record key, pipeline/record.py) matches: an edited file would otherwise feed the
verdict games that were never played. Anything else and the old side is played again.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from boneyard.pipeline import record as rec

GAMES = "games.json.gz"
MAX_BYTES = 256 * 2**20
"""Most bytes read, decompressed: a damaged or planted file is ignored, not read into memory."""

Games = tuple[list[dict[str, Any]], list[list[float]], list[list[str]]]
"""One batch's (summaries, returns, seats), in game order."""


def _key(label: str, seed: int) -> str:
    return f"{label}|{seed}"


class Played:
    """Main games by run and batch seed: those a build played (to keep), or those the last pass
    played (to take instead of playing them again)."""

    def __init__(self, identity: Mapping[str, Any] | None = None,
                 batches: Mapping[str, Any] | None = None) -> None:
        self.identity: dict[str, Any] = dict(identity or {})
        self.batches: dict[str, dict[str, Any]] = dict(batches or {})

    def __bool__(self) -> bool:
        return bool(self.batches)

    def add(self, label: str, seed: int, agents: Sequence[str], players: int | None,
            options: Mapping[str, Any], games: Games) -> None:
        """Keep batch ``seed`` of run ``label`` (game 0 on, no game missing)."""
        self.batches[_key(label, seed)] = {
            "agents": list(agents), "players": players, "options": dict(options),
            "summaries": games[0], "returns": games[1], "seats": games[2]}

    def take(self, label: str, seed: int, agents: Sequence[str], players: int | None,
             options: Mapping[str, Any], n: int) -> Games | None:
        """Games 0..n-1 of batch ``seed`` of run ``label`` as these agents played them, or None
        when they were not kept."""
        b = self.batches.get(_key(label, seed))
        if b is None or b["agents"] != list(agents) or b["players"] != players \
                or b["options"] != dict(options) or len(b["returns"]) < n:
            return None
        return b["summaries"][:n], b["returns"][:n], b["seats"][:n]


def identity(record: Mapping[str, Any], play_hash: str) -> dict[str, Any]:
    """What a record's games depend on: its tool, code, playtest settings and content's play."""
    return {"tool": record.get("tool"), "code_hash": record.get("code_hash"),
            "declared_hash": record.get("declared_hash"), "play_hash": play_hash}


def _body(played: Played) -> bytes:
    return json.dumps({"identity": played.identity, "batches": played.batches},
                      sort_keys=True, separators=(",", ":")).encode()


def write(played: Played, folder: Path) -> None:
    """Write ``played`` into ``folder`` (a last pass being assembled), with its HMAC."""
    body = _body(played)
    data = json.dumps({"mac": rec.mac(body)}).encode() + b"\n" + body
    (folder / GAMES).write_bytes(gzip.compress(data, compresslevel=5))


def read(folder: Path, want: Mapping[str, Any]) -> Played | None:
    """The games kept in ``folder`` if they are believed for ``want`` (an :func:`identity`),
    else None (the old side is played again)."""
    path = folder / GAMES
    if not path.is_file():  # nothing kept; or a FIFO, on which gzip would wait for ever
        return None
    try:
        with gzip.open(path, "rb") as fh:
            data = fh.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            return None
        head, _, body = data.partition(b"\n")
        mac = json.loads(head)["mac"]
        if not isinstance(mac, str) or not rec.mac_matches(body, mac):
            return None
        doc = json.loads(body)
    except (OSError, EOFError, ValueError, KeyError, TypeError, zlib.error, RecursionError):
        return None
    if not isinstance(doc, dict) or doc.get("identity") != dict(want) \
            or not isinstance(doc.get("batches"), dict):
        return None
    return Played(doc["identity"], doc["batches"])
