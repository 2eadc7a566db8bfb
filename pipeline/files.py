"""Output paths checked against the set a command reads, by every command that writes one.

``simulate --log S/game.yaml`` replaced the set's settings with a JSON log and exited 0: an
output option names any file, and one of the set's own is the easiest to mistype (tab
completion in the set's folder). So each command asks here, before its work, whether an output
file is one of the files the set reads (game.yaml, its card files, its template and the fonts
and images that names, the art its cards name), or whether an output folder holds any of them.
Files are matched by identity (device and inode), so ``S/../S/game.yaml``, a symbolic link or a
hard link to it is caught too. The set need not load: a broken set's files are kept all the same
(``play`` serves a broken set, to show its problems).

``render`` and ``export`` write files whose names are fixed (``output/<set>/proof.png``) or
given (``export --out``): each such file that is a symbolic link into the set (to one of its
files, or anywhere in its folder) is refused before any work (:func:`refuse_set_outputs`); a
render wrote its PDF over template.yaml through one. Any other link at an output's name is
replaced by the new file, as ``build`` replaces its reports and the image folders: the file it
named is left as it was (:func:`output_path`).

``build`` and ``watch`` write theirs the same way: the record, the reports, the last pass and
the prints of a build (:func:`refuse_build_outputs`), the previews and the proof sheet of a
watch (pipeline/watch.py); one that is a link into the set is refused before the first game or
image, and any other link is replaced, never written through.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from boneyard.engine.games import GAMES, spec_of, specs
from boneyard.pipeline.load import GAME_FILE
from boneyard.pipeline.validate import inside_set
from boneyard.pipeline.validate_yaml import display_path, read_yaml

from boneyard.errors import BoneyardError
from boneyard.files import atomic_path
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


def refuse_set_outputs(root: Path, outputs: Iterable[tuple[str, Path]], what: str,
                       fix: str) -> None:
    """Refuse (:class:`SetFileClash`), before any work, an output that would land on the set in
    ``root``: one of the files it reads (through a symbolic link, a hard link or another name,
    as :func:`refuse_set_file`), or, for a symbolic link, anywhere in the set's folder.
    ``outputs`` are (how the output is said, its path): ``("--out cards.csv", path)``;
    ``what`` is what is written there ("the sheet"), ``fix`` where else it could go
    ("e.g. output/S/cards.csv")."""
    home = root.resolve()
    own: _Own | None = None
    for said, path in outputs:
        try:
            link = path.is_symlink()
            real = path.resolve()
        except (OSError, RuntimeError, ValueError):
            continue  # a link loop: replaced, never followed
        role = None
        try:
            st = os.stat(path)
        except (OSError, ValueError):
            st = None  # nothing there (a new file, a broken link)
        if st is not None and (link or st.st_nlink > 1 or
                               any(h == real or h in real.parents for h in _homes(root))):
            own = own_files(root) if own is None else own
            hit = own.get((st.st_dev, st.st_ino))
            role = f"one of the set's own files ({hit[1]})" if hit is not None else None
        if role is None and link and (real == home or home in real.parents):
            role = "the set's own folder" if real == home else \
                f"in the set's folder {display_path(home)}"
        if role is None:
            continue
        how = f"a link to {display_path(real)}, {role}" if link else f"that is {role}"
        undo = "remove the link, or " if link else ""
        raise SetFileClash(f"{said}: {how}; nothing was written: {undo}write {what} "
                           f"elsewhere ({fix})")


@contextmanager
def output_path(path: str | Path) -> Iterator[Path]:
    """:func:`boneyard.files.atomic_path` for an output of ``render`` or ``export``, except
    that a symbolic link at ``path`` is replaced by the new file (renamed over the link, so
    the link or the new file is there at every instant), never written through: the file it
    named is left as it was. A link into the set is refused before (:func:`refuse_set_outputs`);
    this keeps any other one, made meanwhile or not, from being written through."""
    with atomic_path(path, through_links=False) as tmp:
        yield tmp


def write_output(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through :func:`output_path`."""
    with output_path(path) as tmp:
        tmp.write_bytes(data)


def refuse_links_in(root: Path, outputs: Iterable[Path], what: str, folder: Path,
                    given: str | Path | None, option: str = "--out") -> None:
    """:func:`refuse_set_outputs` for outputs a command writes in the set's output folder
    ``folder`` (``<out>/<set>``; ``given`` by ``option``, or None for the default), each said by
    its path, with the fix ``render`` gives: leave out ``--out`` for the default folder, or give
    another one."""
    default = OUTPUT / root.resolve().name
    try:
        same = default.resolve() == folder.resolve()
    except (OSError, RuntimeError):
        same = False
    fix = (f"leave out {option} for {display_path(default)}" if given is not None and not same
           else f"give another folder with {option}")
    refuse_set_outputs(root, [(display_path(p), p) for p in outputs], what, fix)
