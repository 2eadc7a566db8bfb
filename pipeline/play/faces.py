"""Card faces for the play table: the set's printed faces as PNGs, painted on first request.

The faces are laid out by the renderer (pipeline/render) from the set's template, exactly as the
PDF and the card images are, at screen size, and kept in a folder per content hash, so an edited
set never shows a stale face. A face that cannot be laid out (text that does not fit while the
designer edits) is reported as missing and the page shows the card's name instead.
"""

from __future__ import annotations

import io
import os
import re
import tempfile
import threading
from pathlib import Path

from boneyard.engine.cards import CardSet
from boneyard.engine.faces import Face
from boneyard.engine.games import build_deck

from boneyard.errors import BoneyardError
from boneyard.files import atomic_path

from ..render.images import face_image, save_png
from ..render.layout import layout_elements
from ..render.template import Template, default_size, load_template
from ..render.units import CardSize, card_size

WIDTH = 250  # pixels: sharp at the page's card size on a high-density screen
_SAFE = re.compile(r"[^A-Za-z0-9_.@-]")


PNG_HEAD = b"\x89PNG\r\n\x1a\n"
PNG_TAIL = b"IEND\xaeB`\x82"  # the IEND chunk every whole PNG ends with


def cache_root() -> Path:
    """Where painted faces are kept between runs: the system's temporary folder, one folder a
    user (another user's folder takes no files of ours, and its faces are not to be shown)."""
    uid = os.getuid() if hasattr(os, "getuid") else 0
    return Path(tempfile.gettempdir()) / f"boneyard-play-{uid}"


def _cached(path: Path) -> bytes | None:
    """The face kept at ``path`` if it is a whole PNG, else None: a file cut short by a full
    disk, or anything else found under its name, is painted again rather than served."""
    try:
        data = path.read_bytes() if path.is_file() else b""
    except OSError:
        return None
    return data if data.startswith(PNG_HEAD) and data.endswith(PNG_TAIL) else None


class Faces:
    """The printed faces of one card set, by face id."""

    def __init__(self, card_set: CardSet, root: Path | None = None) -> None:
        from ..render.api import template_path

        self.lock = threading.Lock()
        self.deck = build_deck(card_set)
        self.by_id: dict[str, Face] = {f.id: f for f in self.deck.faces}
        self.folder = (root or cache_root()) / f"{card_set.slug}-{card_set.content_hash}"
        self.problem: str | None = None
        self.template: Template | None = None
        self.size: CardSize | None = None
        try:
            self.template = load_template(template_path(card_set))
            self.size = card_size(default_size(self.template))
        except BoneyardError as exc:
            self.problem = str(exc)

    def png(self, face_id: str) -> bytes | None:
        """The face's PNG, or None if the set has no such face or it cannot be laid out."""
        face = self.by_id.get(face_id)
        if face is None or self.template is None or self.size is None:
            return None
        path = self.folder / f"{_SAFE.sub('_', face_id)}.png"
        with self.lock:
            cached = _cached(path)
            if cached is not None:
                return cached
            try:
                elements = layout_elements(face, self.template, self.size)
            except BoneyardError:
                return None
            ops = tuple(op for _, group in elements for op in group)
            height = round(WIDTH * self.size.height / self.size.width)
            image = face_image(ops, self.size, WIDTH, height)
            try:
                self.folder.mkdir(parents=True, exist_ok=True)
                with atomic_path(path) as tmp:
                    save_png(image, tmp)
                return path.read_bytes()
            except OSError:  # a full disk, a folder in the way: shown now, painted again next time
                buf = io.BytesIO()
                image.save(buf, "PNG")
                return buf.getvalue()
