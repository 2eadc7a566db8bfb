"""The last passing playtest of a set, kept so the next build tests only what changed.

When a build passes, its signed record and a copy of the set's folder are kept in
``output/<set>/last-pass/`` (``playtest.json`` and ``set/``). The next build of changed content
finds them, believes them only after the same checks a render makes (shape, signature, verdict
judged again; the same tool, code and playtest settings; the copy's content hash equal to the
record's), and then plays the new content against the old on paired games
(pipeline/playtest.py, pipeline/paired.py). Anything that does not check out means a build from
scratch, and the record says why.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.games import spec_of
from boneyard.engine.hashing import play_content, play_hash
from boneyard.engine.stats import Metric
from boneyard.pipeline import lastgames
from boneyard.pipeline import record as rec
from boneyard.pipeline.lastgames import Played

from boneyard.errors import BoneyardError
from boneyard.files import alive

LAST_PASS = "last-pass"


def _metric(m: Mapping[str, Any]) -> Metric:
    return Metric.from_json({k: (math.nan if k in ("value", "low", "high") and v is None else v)
                             for k, v in m.items()})


@dataclass
class Base:
    """A believed last pass: its record, its content, and what differs from the content now."""

    card_set: CardSet
    record: Mapping[str, Any]
    changed: tuple[str, ...] = ()  # unit ids whose content differs (added ones included)
    removed: tuple[str, ...] = ()
    params: tuple[str, ...] = ()  # game.yaml params and switches that differ
    units: frozenset[str] = field(default_factory=frozenset)
    same_code: bool = True
    same_play: bool = False  # only what is printed changed (template, art): every game is the same
    games: Played | None = None  # its main games, kept (pipeline/lastgames.py): not played again

    def run_metrics(self, label: str) -> dict[str, Metric]:
        for run in self.record["runs"]:
            if run["label"] == label:
                return {m["name"]: _metric(m) for m in run["metrics"]}
        return {}

    def metric(self, name: str) -> Metric | None:
        for run in self.record["runs"]:
            for m in run["metrics"]:
                if m["name"] == name:
                    return _metric(m)
        return None

    def strength(self, label: str) -> tuple[list[Metric], list[str]]:
        for run in self.record["runs"]:
            if run["label"] == label:
                return [_metric(m) for m in run.get("strength", [])], list(run.get("strength_notes", []))
        return [], []

    def describe(self) -> dict[str, Any]:
        return {"against": self.record["content_hash"], "changed": list(self.changed),
                "removed": list(self.removed), "params": list(self.params),
                **({"same_games": True} if self.same_play else {})}


def folder(out_dir: Path) -> Path:
    return out_dir / LAST_PASS


CHANGED = "the set's files changed while it was built"
"""How :func:`save` begins its answer when the folder is no longer the content played."""


def save(card_set: CardSet, record: Mapping[str, Any], out_dir: Path,
         played: Played | None = None) -> str | None:
    """Keep ``record`` (passed), a copy of the set's folder and the main games ``played`` as the
    last pass, atomically: the new copy is made beside the old one and swapped in by renames.
    The copy is kept only if it is the content that was played: a file saved while the build ran
    would otherwise be kept under a record that never played it. A build that played no main
    game (only what is printed changed) keeps the last pass's games, which are its own. Returns
    why nothing was kept, or None."""
    from boneyard.pipeline.load import check_set

    if not record.get("passed") or not card_set.root:
        return None
    dest = folder(out_dir)
    dest.parent.mkdir(parents=True, exist_ok=True)
    _sweep(dest.parent)
    tmp = Path(tempfile.mkdtemp(prefix=f".{LAST_PASS}-{os.getpid()}-", dir=dest.parent))
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o777 & ~umask)  # mkdtemp's 0700 would keep the last pass from the others
    try:
        shutil.copytree(card_set.root, tmp / "set", ignore=_not_the_set(Path(card_set.root), out_dir))
        copy = check_set(tmp / "set").card_set
        now = None if copy is None else copy.content_hash
        if now != card_set.content_hash:
            now_is = "now invalid" if now is None else f"content now {now}"
            return (f"{CHANGED} ({now_is}; played: {card_set.content_hash}): the record is of "
                    "the content as it was read, and it is neither kept as the last pass nor "
                    "rendered; build again for the edits")
        rec.write(record, tmp / "playtest.json")
        want = lastgames.identity(record, play_hash(card_set))
        games = played if played else lastgames.read(dest, want)
        if games:  # (under this record's identity: the games are what this content plays)
            lastgames.write(Played(want, games.batches), tmp)
        old = None
        if os.path.lexists(dest):  # a link is moved aside and removed, never followed
            old = dest.with_name(f".{LAST_PASS}-old-{os.getpid()}")
            os.replace(dest, old)
        os.replace(tmp, dest)
        if old is not None:
            _remove(old)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return None


def _not_the_set(root: Path, out_dir: Path) -> Any:
    """``copytree``'s ignore: hidden files, caches, and the output folder when it lies inside the
    set's folder (``--out cards/x/output``: the whole ``output``), which each pass would
    otherwise copy into the next, a level deeper every build."""
    base = root.resolve()
    out = out_dir.resolve()
    top = base / out.relative_to(base).parts[0] if out.is_relative_to(base) and out != base else None
    hidden = shutil.ignore_patterns(".*", "__pycache__")

    def ignore(where: str, names: list[str]) -> set[str]:
        skip = set(hidden(where, names))
        if top is not None and Path(where).resolve() == base and top.name in names:
            skip.add(top.name)
        return skip

    return ignore


def _sweep(parent: Path) -> None:
    """Remove what a killed build left of a save beside the last pass (``.last-pass-<pid>-*``, a
    copy being made, and ``.last-pass-old-<pid>``, the one replaced), each a whole copy of the
    set, once its process is gone."""
    for entry in parent.glob(f".{LAST_PASS}-*"):
        pid = entry.name.removeprefix(f".{LAST_PASS}-").removeprefix("old-").split("-", 1)[0]
        if pid.isdigit() and not alive(int(pid)):
            _remove(entry)


def _remove(path: Path) -> None:
    """Remove a last pass set aside: a folder with all it holds, a link (to a folder elsewhere,
    which is left as it was) by itself."""
    if path.is_symlink() or not path.is_dir():
        with contextlib.suppress(OSError):
            path.unlink()
    else:
        shutil.rmtree(path, ignore_errors=True)


def find(card_set: CardSet, out_dir: Path, *, declared_hash: str, code_hash: str,
         tool: str) -> tuple[Base | None, str]:
    """The believed last pass of ``card_set`` under ``out_dir`` and what changed since, or
    (None, why a build from scratch)."""
    from boneyard.pipeline.load import load_set

    where = folder(out_dir)
    path = where / "playtest.json"
    if not path.exists():
        return None, "no last passing record"
    try:
        record = json.loads(rec.record_text(path))
    except (OSError, ValueError, RecursionError) as exc:
        return None, f"the last passing record {path} is damaged ({exc})"[:200]
    if not isinstance(record, dict):
        return None, f"the last passing record {path} is damaged (not a record)"
    why = rec.problems(record)
    if why:
        return None, f"the last passing record is not believed: {why[0]}"
    if not record.get("passed"):
        return None, "the last record kept did not pass"
    if record["tool"] != tool or record.get("code_hash") != code_hash:
        return None, "the last pass was made by other code"
    if record.get("declared_hash") != declared_hash:
        return None, "the last pass used other playtest settings (profile, seed, agents or gates)"
    try:
        old = load_set(where / "set")
    except (BoneyardError, OSError) as exc:
        return None, f"the last pass's copy of the set does not load ({str(exc).splitlines()[0]})"
    if old.content_hash != record["content_hash"]:
        return None, "the last pass's copy of the set is not the content it vouched for"
    if old.rules != card_set.rules:
        return None, "the last pass is of another game"
    base = base_for(card_set, old, record)
    base.games = lastgames.read(where, lastgames.identity(record, play_hash(old)))
    return base, ""


def base_for(card_set: CardSet, old: CardSet, record: Mapping[str, Any]) -> Base:
    """``old`` (with its passing ``record``) as the base ``card_set`` is judged against: which
    units, params and switches differ."""
    spec = spec_of(card_set.rules)
    new_units, old_units = spec.unit_content(card_set), spec.unit_content(old)
    changed = tuple(cid for cid in new_units
                    if cid not in old_units or play_content(old_units[cid]) != play_content(new_units[cid]))
    removed = tuple(cid for cid in old_units if cid not in new_units)
    params = tuple(sorted(
        [f"params.{k}" for k in set(card_set.params) | set(old.params)
         if card_set.params.get(k) != old.params.get(k)]
        + [f"switches.{k}" for k in set(card_set.switches) | set(old.switches)
           if card_set.switches.get(k) != old.switches.get(k)]))
    return Base(old, record, changed, removed, params, frozenset(old_units),
                same_play=play_hash(card_set) == play_hash(old))


