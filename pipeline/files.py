"""Output paths checked against the set a command reads, by every command that writes one.

``simulate --log S/game.yaml`` replaced the set's settings with a JSON log and exited 0: an
output option names any file, and one of the set's own is the easiest to mistype (tab
completion in the set's folder). So each command asks here, before its work, whether an output
file is one of the files the set reads (game.yaml, its card files, its template and the fonts
and images that names, the art its cards name), or whether an output folder holds any of them.
Files are matched by identity (device and inode), so ``S/../S/game.yaml``, a symbolic link or a
hard link to it is caught too. The set need not load: a broken set's files are kept all the same
(``play`` serves a broken set, to show its problems).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from boneyard.engine.games import GAMES, spec_of, specs
from boneyard.pipeline.load import GAME_FILE
from boneyard.pipeline.validate import inside_set
from boneyard.pipeline.validate_yaml import display_path, read_yaml

from boneyard.errors import BoneyardError
from boneyard.paths import CARDS, OUTPUT

TEMPLATE_FILE = "template.yaml"

_Own = dict[tuple[int, int], tuple[Path, str]]
"""The set's files by (device, inode): where each is and what it is to the set."""


class SetFileClash(BoneyardError):
    """An output path that would overwrite a file the set reads: a usage error (exit 2), said
    before anything is played or written."""

    exit_code = 2


def _strings(data: Any) -> Iterator[str]:
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for value in data.values():
            yield from _strings(value)
    elif isinstance(data, list):
        for value in data:
            yield from _strings(value)


def _data(path: Path) -> Any:
    """The YAML in ``path`` as the loader reads it, or None (unreadable: said by validation)."""
    doc, _ = read_yaml(path)
    return doc.data


def _named_files(folder: Path, data: Any) -> Iterator[tuple[Path, str]]:
    """The files inside ``folder`` that strings of ``data`` name (art, fonts, images)."""
    for text in _strings(data):
        if not text or len(text) > 1024 or "\0" in text or "\n" in text:
            continue  # rules text, not a file name
        target, _ = inside_set(folder, text)
        if target is not None:
            yield target, text


def own_files(root: Path) -> _Own:
    """Every regular file the set in ``root`` reads, by identity, with what it is to the set."""
    found: _Own = {}

    def add(path: Path, role: str) -> None:
        try:
            st = path.stat()
        except (OSError, ValueError):
            return
        if os.path.isfile(path):
            found.setdefault((st.st_dev, st.st_ino), (path, role))

    add(root / GAME_FILE, f"its {GAME_FILE}")
    game = _data(root / GAME_FILE)
    if not isinstance(game, dict):  # which files it lists is unknown: every YAML file beside it
        try:
            beside = sorted(itertools.islice(root.iterdir(), 1000))
        except OSError:
            beside = []
        for path in beside:
            if path.suffix.lower() in (".yaml", ".yml"):
                add(path, f"its file {path.name}")
        game = {}
    listed = game.get("card_files")
    names = [n for n in listed if isinstance(n, str)] if isinstance(listed, list) else []
    names += [game[k] for spec in specs() for k in spec.extra_card_files
              if isinstance(game.get(k), str)]
    for name in names:
        target, _ = inside_set(root, name) if name else (None, None)
        if target is None:
            continue
        add(target, f"its card file {name}")
        for path, text in _named_files(root, _data(target)) if target.is_file() else ():
            add(path, f"{text}, which its cards name")
    template = root / TEMPLATE_FILE
    role = f"its {TEMPLATE_FILE}"
    rules = game.get("rules")
    if not template.is_file() and isinstance(rules, str) and rules in GAMES:
        bundled = spec_of(rules).bundled_set
        template = CARDS / bundled / TEMPLATE_FILE if bundled else template
        role = f"the template it prints with, {display_path(template)}"
    if template.is_file():
        add(template, role)
        for path, text in _named_files(template.parent, _data(template)):
            add(path, f"{text}, which its template names")
    return found


def _homes(root: Path) -> list[Path]:
    """The folders every file of the set lies in: its own and the bundled sets' (a template it
    borrows and what that names). Outside them the set reads nothing, so most outputs (a report
    written again under output/) are cleared without reading the set's files."""
    return [root.resolve(), *((CARDS / s.bundled_set).resolve() for s in specs()
                              if s.bundled_set)]


def _example(root: Path, name: str) -> str:
    """``output/<set>/<name>``, as the designer would type it: where an output belongs."""
    return display_path(OUTPUT / root.resolve().name / name)


def refuse_set_file(root: Path, option: str, given: str | None, what: str, name: str) -> None:
    """Refuse (:class:`SetFileClash`) the output file ``given`` of ``option`` when it is one of
    the files the set in ``root`` reads: ``what`` is what the option writes ("the log"), ``name``
    the file name to suggest under ``output/<set>/``."""
    if not given or given == "-":
        return
    try:
        st, real = os.stat(given), Path(given).resolve()
    except (OSError, ValueError, RuntimeError):
        return  # a new file: none of the set's
    if st.st_nlink == 1 and not any(home in real.parents for home in _homes(root)):
        return
    hit = own_files(root).get((st.st_dev, st.st_ino))
    if hit is not None:
        raise SetFileClash(f"{option} {given}: that is one of the set's own files ({hit[1]}); "
                           f"write {what} elsewhere (e.g. {_example(root, name)})")


def refuse_set_folder(root: Path, option: str, given: str | Path | None, target: Path,
                      what: str) -> None:
    """Refuse (:class:`SetFileClash`) an output folder ``target`` (``given`` by ``option``, or
    the default when None) that is the set's own folder or holds any file the set reads: the
    outputs written there (whole folders of images replaced at once) would mix with, or replace,
    the set's files."""
    if not target.is_dir():
        return
    where = target.resolve()
    if not any(where == home or where in home.parents for home in _homes(root)):
        return
    for path, role in own_files(root).values():
        try:
            inside = where in path.resolve().parents
        except (OSError, RuntimeError):
            continue
        if not inside:
            continue
        said = f"{option} {given}" if given is not None else "the default output folder"
        default = OUTPUT / root.resolve().name
        fix = (f"leave out {option} for {display_path(default)}" if given is not None
               and default.resolve() != where else f"give another folder with {option}")
        held = ("the set's own folder" if where == root.resolve() else
                f"which holds the set's own files ({role})")
        raise SetFileClash(f"{said}: {what} would go to {display_path(target)}, {held}; write "
                           f"them elsewhere ({fix})")
