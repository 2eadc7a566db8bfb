"""``boneyard new NAME --like SET``: a new card set folder, copied from a bundled (or any) set.

The copy is the whole folder (card files, game.yaml, template, art) with ``name:`` in game.yaml
set to NAME and every ``# yaml-language-server: $schema=...`` line pointing at the same schema
from the new folder, so the editor keeps completing and checking. It is made beside its final
name and renamed into place; an existing NAME is never touched.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

from boneyard.pipeline.load import GAME_FILE, resolve_set
from boneyard.pipeline.validate_yaml import display_path

from boneyard.errors import BoneyardError
from boneyard.files import atomic_dir

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$")
_SCHEMA_LINE = re.compile(r"^(# yaml-language-server: \$schema=)(\S+)(.*)$")
_NAME_LINE = re.compile(r"^name:[ \t].*$", re.M)


class NewSetError(BoneyardError):
    exit_code = 2


def display_name(folder: str) -> str:
    """``spooky-dead`` -> ``Spooky Dead``: what game.yaml's ``name:`` says of a new set."""
    words = re.split(r"[-_ ]+", folder.strip())
    return " ".join(w[:1].upper() + w[1:] for w in words if w) or folder


def _repoint(text: str, old_dir: Path, new_dir: Path) -> str:
    """The file's schema line (its first lines), relative to the new folder."""
    lines = text.split("\n")
    for i, line in enumerate(lines[:3]):
        m = _SCHEMA_LINE.match(line)
        if not m or "://" in m.group(2):
            continue
        target = (old_dir / m.group(2)).resolve()
        if target.is_file():
            rel = Path(os.path.relpath(target, new_dir.resolve())).as_posix()
            lines[i] = f"{m.group(1)}{rel}{m.group(3)}"
    return "\n".join(lines)


def new_set(name: str, like: str | Path, parent: Path) -> Path:
    """Make ``parent/name`` from the set ``like``; the new folder."""
    if not _NAME.match(name) or name in (".", ".."):
        raise NewSetError(f"{name!r}: a set's name is its folder's name: letters, digits, "
                          "spaces, '-', '_' and '.', starting with a letter or digit")
    source = resolve_set(like)
    target = parent / name
    if os.path.lexists(target):
        raise NewSetError(f"{display_path(target)} already exists; boneyard new never "
                          "overwrites (choose another name or remove it)")
    if not parent.is_dir():
        raise NewSetError(f"{display_path(parent)}: no such folder")
    with atomic_dir(target) as tmp:
        shutil.copytree(source, tmp, symlinks=True, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns(".*", "__pycache__"))
        for path in sorted(tmp.rglob("*.yaml")):
            if path.is_symlink() or not path.is_file():
                continue
            text = path.read_text(encoding="utf-8")
            new = _repoint(text, source / path.parent.relative_to(tmp),
                           target / path.parent.relative_to(tmp))
            if path == tmp / GAME_FILE:
                new = _NAME_LINE.sub(lambda _m: f"name: {json.dumps(display_name(name))}",
                                     new, count=1)
            if new != text:
                path.write_text(new, encoding="utf-8", newline="")
    return target
