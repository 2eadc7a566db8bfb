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
from boneyard.files import WINDOWS_DEVICES, atomic_dir

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


def split_target(name: str, parent: Path | None) -> tuple[str, Path]:
    """(name, parent folder) from NAME and --dir: NAME may be a path (``new ../sets/spooky``),
    as ``mkdir`` takes one, unless --dir already says where."""
    if "/" not in name and os.sep not in name:
        return name, parent if parent is not None else Path.cwd()
    if parent is not None:
        raise NewSetError(f"{name!r}: give NAME as a plain name with --dir, or a path without "
                          "--dir (not both)")
    path = Path(name)
    return path.name, path.parent


def new_set(name: str, like: str | Path, parent: Path | None = None) -> Path:
    """Make ``parent/name`` from the set ``like`` (``name`` may be a path when ``parent`` is
    None); the new folder."""
    name, parent = split_target(name, parent)
    if len(name) > 64:
        raise NewSetError(f"{name[:20]!r}...: a set's name is at most 64 characters, got "
                          f"{len(name)} (shorten it)")
    if not _NAME.match(name) or name in (".", ".."):
        raise NewSetError(f"{name!r}: a set's name is its folder's name: plain letters a-z "
                          "and A-Z (no accents, which file systems and print shops spell "
                          "differently), digits, spaces, '-', '_' and '.', starting with a "
                          "letter or digit")
    if name != name.rstrip(" ."):  # Windows drops them: "my set " and "my set" are one folder
        raise NewSetError(f"{name!r}: a set's name cannot end in a space or a '.', which Windows "
                          f"drops from folder names (write {name.rstrip(' .')!r})")
    if name.split(".")[0].rstrip(" ").upper() in WINDOWS_DEVICES:
        raise NewSetError(f"{name!r}: Windows reserves this name for a device, so the folder "
                          "could not be copied there or zipped for a print shop (choose another "
                          "name)")
    source = resolve_set(like)
    target = parent / name
    if target.resolve() == source.resolve() or source.resolve() in target.resolve().parents:
        raise NewSetError(f"{display_path(target)} is inside the set it copies "
                          f"({display_path(source)}): the copy would then be part of that set "
                          "(make it beside the set, not in it)")
    if os.path.lexists(target):
        raise NewSetError(f"{display_path(target)} already exists; boneyard new never "
                          "overwrites (choose another name or remove it)")
    if not parent.is_dir():
        raise NewSetError(f"{display_path(parent)}: no such folder")
    try:
        _copy(source, target)
    except (OSError, _CopyFailed) as exc:  # a read-only or full disk, a folder we may not write in
        cause = exc.error if isinstance(exc, _CopyFailed) else exc
        why = cause.strerror or (f"{len(cause.args[0])} files could not be copied"
                                 if isinstance(cause, shutil.Error) else str(cause))
        raise NewSetError(f"{display_path(target)}: cannot make the set folder: {why} "
                          "(choose another folder; nothing was made)") from None
    return target


class _CopyFailed(Exception):
    """A file the copy could not write: stops the copy at once (``copytree`` would go on and
    gather one error per file, however full the disk)."""

    def __init__(self, error: OSError) -> None:
        super().__init__(str(error))
        self.error = error


def _copy_file(src: str, dst: str) -> object:
    try:
        return shutil.copy2(src, dst)
    except OSError as exc:
        raise _CopyFailed(exc) from None


def _copy(source: Path, target: Path) -> None:
    """The copy, made beside ``target`` and renamed into place when whole."""
    with atomic_dir(target) as tmp:
        shutil.copytree(source, tmp, symlinks=True, dirs_exist_ok=True,
                        ignore=shutil.ignore_patterns(".*", "__pycache__"),
                        copy_function=_copy_file)
        for path in sorted(tmp.rglob("*.yaml")):
            if path.is_symlink() or not path.is_file():
                continue
            text = path.read_text(encoding="utf-8")
            new = _repoint(text, source / path.parent.relative_to(tmp),
                           target / path.parent.relative_to(tmp))
            if path == tmp / GAME_FILE:
                new = _NAME_LINE.sub(lambda _m: f"name: {json.dumps(display_name(target.name))}",
                                     new, count=1)
            if new != text:
                path.write_text(new, encoding="utf-8", newline="")
