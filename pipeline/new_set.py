"""``boneyard new NAME --like SET``: a new card set folder, copied from a bundled (or any) set.

The copy is the whole folder (card files, game.yaml, template, art) with ``name:`` in game.yaml
set to NAME and every ``# yaml-language-server: $schema=...`` line pointing at the same schema
from the new folder, so the editor keeps completing and checking. The comments heading game.yaml
and the card files describe the set copied ("The 36 characters of Day of the Dead", its year,
its tuning figures), not the designer's: they are rewritten to say what the file is in the new
set and where it started; the template's keeps its layout notes, under the new name. It is made
beside its final name and renamed into place; an existing NAME is never touched.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from boneyard.engine.games import spec_of
from boneyard.pipeline.load import GAME_FILE, resolve_set
from boneyard.pipeline.validate_yaml import display_path, read_yaml

from boneyard.errors import BoneyardError, RulesError
from boneyard.files import WINDOWS_DEVICES, atomic_dir
from boneyard.paths import DOCS

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$")
_SCHEMA_LINE = re.compile(r"^(# yaml-language-server: \$schema=)(\S+)(.*)$")
_NAME_LINE = re.compile(r"^name:[ \t].*$", re.M)


class NewSetError(BoneyardError):
    exit_code = 2


_SMALL_WORDS = frozenset({"a", "an", "and", "as", "at", "but", "by", "for", "in", "nor", "of",
                          "on", "or", "the", "to", "vs"})
"""Words a title keeps in lower case after its first: ``day-of-the-dead`` is "Day of the Dead"."""


def display_name(folder: str) -> str:
    """``spooky-dead`` -> ``Spooky Dead``: what game.yaml's ``name:`` says of a new set."""
    words = [w for w in re.split(r"[-_ ]+", folder.strip()) if w]
    return " ".join(w if i and w in _SMALL_WORDS else w[:1].upper() + w[1:]
                    for i, w in enumerate(words)) or folder


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


def _header_at(lines: list[str]) -> tuple[int, int]:
    """Where a file's heading comment lies: the comment lines after its schema line, up to the
    first line that is not a comment (the sections' comments below stay as they are)."""
    start = 1 if lines and _SCHEMA_LINE.match(lines[0].rstrip("\r")) else 0
    end = start
    while end < len(lines) and lines[end].startswith("#"):
        end += 1
    return start, end


def _rehead(text: str, heading: str | None, old_name: str, new_name: str) -> str:
    """``text`` with its heading comment replaced by ``heading`` (wrapped, one paragraph), or,
    when None, kept with the copied set's name replaced by the new one."""
    lines = text.split("\n")
    start, end = _header_at(lines)
    if start == end:
        return text
    cr = "\r" if lines[start].endswith("\r") else ""
    if heading is None:
        new = [line.replace(old_name, new_name) for line in lines[start:end]] if old_name else lines[start:end]
    else:
        new = [f"{line}{cr}" for line in textwrap.wrap(heading, 98, initial_indent="# ",
                                                       subsequent_indent="# ", break_on_hyphens=False)]
    return "\n".join([*lines[:start], *new, *lines[end:]])


def _headings(game: Mapping[str, Any], source: str, new: str) -> dict[str, str | None]:
    """The new heading of each file of the copy that has one to rewrite, by its path in the set
    (None: keep it, renamed): game.yaml, each card file, the template."""
    rules = _text(game.get("rules"))
    try:
        spec = spec_of(rules) if rules else None
    except RulesError:
        spec = None
    rules_of = f" played under the {spec.title if spec else rules} rules" if rules else ""
    started = f"started from {source} with `boneyard new`" if source else "started with `boneyard new`"
    out: dict[str, str | None] = {"template.yaml": None}
    doc = DOCS / "rules" / f"{rules}.md"
    out[GAME_FILE] = (f"{new}: a card set{rules_of}, {started}."
                      + (f" Every rules switch below is documented, with the rulebook's words, in "
                         f"docs/rules/{rules}.md." if rules and doc.is_file() else ""))
    listed = game.get("card_files")
    files: list[Any] = [*(listed if isinstance(listed, list) else []),
                        *(game.get(key) for key in (spec.extra_card_files if spec else ()))]
    effects = (" Effect language: docs/effects.md; the printed rules text is generated from the "
               "effect data." if spec and spec.effect_words and (DOCS / "effects.md").is_file() else "")
    for f in files:
        if isinstance(f, str):
            out[Path(f).as_posix()] = (f"The cards of {new} in {Path(f).name} ({started}). "
                                       f"`boneyard cards` lists the set.{effects}")
    return out


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _source_game(source: Path) -> Mapping[str, Any]:
    """The copied set's game.yaml as plain data ({} if it cannot be read: the copy is made
    anyway, and ``validate`` says what is wrong with it)."""
    data = read_yaml(source / GAME_FILE)[0].data  # as every card file is read: never raises
    return data if isinstance(data, Mapping) else {}


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
    # an existing NAME first: that is what stops the copy, whatever else is wrong with it
    if os.path.lexists(target):
        if target.resolve() == source.resolve():
            raise NewSetError(f"{display_path(target)} already exists: it is the set --like "
                              "copies; boneyard new never overwrites (give the copy another "
                              "name)")
        raise NewSetError(f"{display_path(target)} already exists; boneyard new never "
                          "overwrites (choose another name or remove it)")
    if source.resolve() in target.resolve().parents:
        raise NewSetError(f"{display_path(target)} is inside the set it copies "
                          f"({display_path(source)}): the copy would then be part of that set "
                          "(make it beside the set, not in it)")
    if os.path.lexists(parent) and not parent.is_dir():
        raise NewSetError(f"{display_path(parent)}: not a folder (a file or a broken link is "
                          "in the way; choose another --dir)")
    made: list[Path] = []  # the folders of --dir made here, removed again if the copy fails
    try:
        for folder in reversed([parent, *parent.parents]):
            if not os.path.lexists(folder):  # as `mkdir -p`: `--dir sets/` need not exist yet
                folder.mkdir()
                made.append(folder)
        _copy(source, target)
    except (OSError, _CopyFailed) as exc:  # a read-only or full disk, a folder we may not write in
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()
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
    game = _source_game(source)
    old_name = _text(game.get("name"))
    headings = _headings(game, old_name, display_name(target.name))
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
            rel = path.relative_to(tmp).as_posix()
            if rel in headings:
                new = _rehead(new, headings[rel], old_name, display_name(target.name))
            if path == tmp / GAME_FILE:
                new = _NAME_LINE.sub(lambda _m: f"name: {json.dumps(display_name(target.name))}",
                                     new, count=1)
            if new != text:
                path.write_text(new, encoding="utf-8", newline="")
