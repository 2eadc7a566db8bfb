"""``boneyard watch SET``: validate, re-render and playtest on every save.

One *cycle* checks the whole set as ``validate`` does (every problem, located: the card data,
then :func:`boneyard.pipeline.set_checks.set_problems`, whatever the watch skips), and when it
is valid re-renders the card images whose layout changed and the proof sheet (into
``output/<set>/watch/``), then runs the set's fast (CI) playtest profile with the per-card
substitution games for the cards that changed since the last valid cycle. The results go to the
terminal and to a local page (``watch_page``) that reloads itself when a cycle ends.

Saves are debounced by watchfiles (one cycle for an editor's burst of writes). A cycle that
meets bad input reports it and waits for the next save: nothing a designer types stops the
watcher. ``max_cycles`` and ``timeout`` bound a run (``--once``; tests).
"""

from __future__ import annotations

import dataclasses
import itertools
import os
import threading
import time
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.games import spec_of
from boneyard.pipeline.files import output_path, refuse_links_in, refuse_set_folder
from boneyard.pipeline.load import GAME_FILE, check_set, resolve_set
from boneyard.pipeline.validate_yaml import display_path, read_yaml

from boneyard.errors import BoneyardError
from boneyard.paths import OUTPUT

Echo = Callable[[str], None]

PREVIEW_DPI = 150
"""Card previews at half the print images' 300 dpi: a quarter of the pixels, drawn four times
as fast, sharp enough on a screen (``--dpi 300`` for the print size)."""


@dataclass
class CycleResult:
    """What one cycle found, for the terminal and the page."""

    number: int
    started: float
    seconds: float = 0.0
    ok: bool = False
    problems: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)  # validate's (a gate no trial measured)
    content_hash: str = ""
    changed_cards: list[str] = field(default_factory=list)
    rendered: list[str] = field(default_factory=list)  # face ids re-rendered
    proof: bool = False
    watermark: str | None = None
    playtest: dict[str, Any] | None = None  # games, passed, gates
    playtest_note: str = ""
    saved: list[str] = field(default_factory=list)  # the files whose save started the cycle


def card_entries(root: Path, rules: str) -> dict[str, Any]:
    """Every card entry of the set's card files by id, as written (to tell what changed)."""
    game, problems = read_yaml(root / GAME_FILE)
    if problems or not isinstance(game.data, dict):
        return {}
    rels = [r for r in game.data.get("card_files") or [] if isinstance(r, str)]
    rels += [game.data[k] for k in spec_of(rules).extra_card_files
             if isinstance(game.data.get(k), str)]
    out: dict[str, Any] = {}
    for rel in rels:
        doc, bad = read_yaml(root / rel)
        for card in doc.data if not bad and isinstance(doc.data, list) else []:
            if isinstance(card, dict) and isinstance(card.get("id"), str):
                out[card["id"]] = card
    return out


class Watcher:
    """The watch loop over one set folder; ``cycle`` is one validate-render-playtest pass."""

    def __init__(self, set_arg: str | Path, *, out: Path | None = None, playtest: bool = True,
                 render: bool = True, jobs: int = 1, dpi: int = PREVIEW_DPI,
                 echo: Echo = print) -> None:
        self.root = resolve_set(set_arg)
        self.given = out
        self.out = (out or OUTPUT) / self.root.resolve().name / "watch"
        self.playtest = playtest
        self.render = render
        self.jobs = jobs
        self.dpi = dpi
        self.echo = echo
        self.results: list[CycleResult] = []
        self.changed = threading.Condition()
        self._layouts: dict[str, Any] = {}
        self._cards: dict[str, Any] | None = None
        self._played: str | None = None
        self._warned: list[str] | None = None  # the warnings last printed in full
        if render:  # before the first cycle: nothing is written, and the command exits 2
            refuse_set_folder(self.root, "--out", out, self.out.parent, "the previews")
            self.refuse_links()

    def outputs(self) -> list[Path]:
        """What the watcher writes: its folders, the proof sheet and the card images already
        there (the next cycle writes each again: a new one is no link)."""
        png = self.out / "png"
        try:
            images = sorted(itertools.islice(png.iterdir(), 10_000)) \
                if png.is_dir() and not png.is_symlink() else []
        except OSError:
            images = []
        return [self.out.parent, self.out, png, self.out / "proof.png", *images]

    def refuse_links(self) -> None:
        """SetFileClash when an output of the watcher (:meth:`outputs`) is a link into the set:
        the proof sheet or a card image was written through it, over game.yaml or a card file.
        Asked before the watch starts and again before each cycle's images (a link made since
        is that cycle's problem); any other link is replaced (pipeline/files.py)."""
        refuse_links_in(self.root, self.outputs(), "the previews", self.out.parent, self.given)

    # --- one cycle ---------------------------------------------------------------------------

    def cycle(self, saved: Iterable[str] = ()) -> CycleResult:
        """Validate, render and playtest once; never raises for anything in the set."""
        result = CycleResult(len(self.results) + 1, time.time(),
                             saved=sorted({display_path(p) for p in saved}))
        t0 = time.perf_counter()
        try:
            self._run(result)
        except BoneyardError as exc:
            result.ok = False
            result.problems += str(exc).splitlines()
        except OSError as exc:  # a full disk, a folder made read-only while watching
            result.ok = False
            where = display_path(exc.filename) if exc.filename else "a file"
            result.problems.append(f"{where}: cannot be read or written ({exc.strerror or exc}); "
                                   "the watcher goes on")
        except Exception as exc:  # a bug must not stop the designer's loop either
            result.ok = False
            result.problems.append(f"internal error ({type(exc).__name__}: {exc}); the "
                                   "watcher goes on")
        result.seconds = time.perf_counter() - t0
        self._report(result)
        with self.changed:
            self.results.append(result)
            self.changed.notify_all()
        return result

    def _run(self, result: CycleResult) -> None:
        from boneyard.pipeline.set_checks import set_problems

        if not self.root.is_dir():
            result.problems = [f"{display_path(self.root)}: the set folder is gone (deleted or "
                               "renamed); the watcher checks it again when it is back"]
            return
        check = check_set(self.root)
        if not check.ok or check.card_set is None:
            result.problems = [str(p) for p in check.problems]
            if not result.problems:
                result.problems = [f"{display_path(self.root / GAME_FILE)}: not a valid set"]
            return
        card_set = check.card_set
        # and the rest of what validate checks, whatever this watch skips: its playtest
        # section, the template laid out for every card at every print size, misspelt gates
        problems, result.warnings = set_problems(card_set)
        if problems:
            result.problems = problems
            return
        result.content_hash = card_set.content_hash
        cards = card_entries(self.root, card_set.rules)
        if self._cards is not None:
            result.changed_cards = sorted(
                cid for cid in set(cards) | set(self._cards)
                if cards.get(cid) != self._cards.get(cid) and cid in cards)
        if self.render:
            self._render(card_set, result)
            if result.problems:
                return
        result.ok = True
        first = self._cards is None
        self._cards = cards
        if self.playtest:
            self._playtest(card_set, result, first)

    def _render(self, card_set: CardSet, result: CycleResult) -> None:
        from boneyard.pipeline.build import render_permission
        from boneyard.pipeline.render.api import RenderOptions, _prepare
        from boneyard.pipeline.render.images import (
            IMAGE_DPI,
            PT_PER_IN,
            face_image,
            file_name,
            image_pixels,
            proof_sheet,
            save_png,
        )
        from boneyard.pipeline.render.units import PROFILES

        prep, errors, _warnings = _prepare(card_set, RenderOptions(formats=("png",)), None, None)
        if prep is None:
            result.problems += errors
            return
        _note, watermark = render_permission(card_set, self.out.parent.parent, True)
        result.watermark = watermark
        self.refuse_links()  # one made since the last cycle: said, and nothing written
        png = self.out / "png"
        if png.is_symlink():  # to a folder elsewhere: replaced, as render replaces its folders
            png.unlink()
        png.mkdir(parents=True, exist_ok=True)
        full_w, full_h = image_pixels(prep.size, PROFILES["tgc"])
        w, h = round(full_w * self.dpi / IMAGE_DPI), round(full_h * self.dpi / IMAGE_DPI)
        # the bytes of the art and fonts drawn (a file saved over keeps its name, so the
        # layouts alone would call every image current)
        marked = {fid: (ops, watermark, card_set.files) for fid, ops in prep.layouts.items()}
        for face in prep.deck.faces:
            if self._layouts.get(face.id) == marked[face.id] and _written(png / file_name(face)):
                continue
            with output_path(png / file_name(face)) as tmp:  # a link is replaced, not followed
                save_png(face_image(prep.layouts[face.id], prep.size, w, h, watermark,
                                    self.dpi / PT_PER_IN), tmp, self.dpi)
            result.rendered.append(face.id)
        if result.rendered or not _written(self.out / "proof.png"):
            sheet = proof_sheet(prep.deck, prep.layouts, prep.size, watermark)
            with output_path(self.out / "proof.png") as tmp:
                save_png(sheet, tmp)
            result.proof = True
        self._layouts = marked

    def _playtest(self, card_set: CardSet, result: CycleResult, first: bool) -> None:
        from boneyard.engine.hashing import content_hash
        from boneyard.pipeline.build import config_for
        from boneyard.pipeline.playtest import playtest

        if not card_set.playtest:
            result.playtest_note = "no playtest section in game.yaml"
            return
        rules_hash = content_hash(dataclasses.replace(card_set, files=()))
        if rules_hash == self._played:
            result.playtest_note = "cards unchanged since the last playtest (art or layout only)"
            return
        cfg = config_for(card_set, fast=True, jobs=self.jobs)
        units = {uid for uid, _ in spec_of(card_set.rules).units(card_set)}
        subs = tuple(c for c in result.changed_cards if c in units)
        cfg = dataclasses.replace(cfg, substitution_cards=subs)
        record = playtest(card_set, cfg)
        self._played = rules_hash
        result.playtest = {
            "games": record["games"],
            # a gate on the substitution games is not measured on a cycle that played none
            "passed": not any(g["status"] == "fail" for g in record["gates"]),
            "gates_passed": record["gates_passed"], "gates_total": record["gates_total"],
            "seconds": record["seconds"], "profile": record["profile"],
            "substituted": list(subs),
            "failed": [_gate_line(g) for g in record["gates"] if g["status"] == "fail"],
            "unmeasured": sorted({g["gate"]["metric"] for g in record["gates"]
                                  if g["status"] == "missing"}),
        }
        if first:
            result.playtest_note = ("first run: the set-wide gates; the per-card gates run for "
                                    "each card you change")

    # --- reporting ---------------------------------------------------------------------------

    def _report(self, r: CycleResult) -> None:
        stamp = time.strftime("%H:%M:%S", time.localtime(r.started))
        saved = f" ({', '.join(r.saved)})" if r.saved else ""
        if not r.ok:
            n = len(r.problems)
            self.echo(f"[{stamp}] cycle {r.number}{saved}: {n} problem{'s' if n != 1 else ''}")
            for line in r.problems:
                self.echo(f"  {line}")
            return
        parts = [f"valid, content {r.content_hash}"]
        if r.changed_cards:
            parts.append(f"changed: {', '.join(r.changed_cards)}")
        if self.render:
            parts.append(f"{len(r.rendered)} image{'s' if len(r.rendered) != 1 else ''} "
                         f"re-rendered" + (", proof sheet" if r.proof else ""))
        self.echo(f"[{stamp}] cycle {r.number}{saved}: {'; '.join(parts)}")
        if r.warnings and r.warnings == self._warned:  # said in full already: a save that
            n = len(r.warnings)                          # did not touch them need not repeat them
            self.echo(f"  {n} warning{'s' if n != 1 else ''} as before (unchanged since "
                      "they were shown)")
        else:
            for line in r.warnings:
                self.echo(f"  warning: {line}")
        self._warned = list(r.warnings)
        if r.playtest:
            p = r.playtest
            status = "passed" if p["passed"] else "FAILED"
            subs = f", substitution: {', '.join(p['substituted'])}" if p["substituted"] else ""
            self.echo(f"  playtest ({p['profile']}) {status}: {p['gates_passed']}/"
                      f"{p['gates_total']} gates, {p['games']} games{subs}, {p['seconds']:.1f} s")
            for line in p["failed"]:
                self.echo(f"    failed: {line}")
            if p["unmeasured"]:
                self.echo(f"    not measured this cycle: {', '.join(p['unmeasured'])}")
        if r.playtest_note:
            self.echo(f"  playtest: {r.playtest_note}")

    # --- the loop ----------------------------------------------------------------------------

    def run(self, *, max_cycles: int | None = None, timeout: float | None = None,
            debounce_ms: int = 300, stop: threading.Event | None = None) -> None:
        """The first cycle, then one per debounced batch of saves, until ``max_cycles`` cycles
        ran, ``timeout`` seconds passed, ``stop`` is set or Ctrl-C."""
        import watchfiles

        deadline = None if timeout is None else time.monotonic() + timeout
        stop = stop or threading.Event()
        out = self.out.resolve()

        def relevant(_change: Any, path: str) -> bool:
            p = Path(path)
            if p.name.startswith(".") or p.name.endswith((".tmp", "~", ".swp")):
                return False
            return out not in p.resolve().parents

        def watch() -> Generator[set[tuple[Any, str]], None, None]:
            return watchfiles.watch(self.root, watch_filter=relevant, debounce=debounce_ms,
                                    step=50, stop_event=stop, rust_timeout=200,
                                    yield_on_timeout=True, raise_interrupt=True)

        batches = watch()
        if max_cycles is None or max_cycles > 1:
            next(batches, None)  # watching starts before the first cycle: no save is missed
        self.cycle()
        gone = False
        while max_cycles is None or len(self.results) < max_cycles:
            for batch in batches:
                if stop.is_set() or (deadline is not None and time.monotonic() > deadline):
                    return
                if not self.root.is_dir():
                    gone = True  # deleted or renamed: the watch on it sees nothing more
                elif gone:
                    break  # back (restored, checked out again): watch the folder now there
                if not batch:
                    continue
                self.cycle(_saved(batch))
                if max_cycles is not None and len(self.results) >= max_cycles:
                    return
            else:
                return
            gone = False
            batches.close()
            batches = watch()
            next(batches, None)
            self.cycle([str(self.root)])

    def wait_for(self, cycles: int, timeout: float) -> bool:
        """Block until ``cycles`` cycles have run (tests, the page); False on timeout."""
        with self.changed:
            return self.changed.wait_for(lambda: len(self.results) >= cycles, timeout)


def _saved(batch: Iterable[tuple[Any, str]]) -> list[str]:
    """The files a batch of changes saved or removed, for the cycle's line: not an editor's
    temporary file, made and renamed away in the same batch (``sed -i``'s ``sedkIIrIA``)."""
    import watchfiles

    made = {path for change, path in batch if change == watchfiles.Change.added}
    return sorted({path for _change, path in batch if os.path.lexists(path) or path not in made})


def _written(path: Path) -> bool:
    """Whether the watcher's own file is at ``path``: a link there (made since, to a file
    elsewhere) is not, and is replaced by the next image rather than shown."""
    return path.is_file() and not path.is_symlink()


def _gate_line(g: dict[str, Any]) -> str:
    gate, metric = g.get("gate", {}), g.get("metric") or {}
    bound = " ".join(f"{k} {gate[k]}" for k in ("min", "max") if k in gate)
    if not metric:
        return f"{gate.get('metric')}: no metric of that name ({bound})"
    return (f"{metric.get('name')} = {metric.get('value', 0):.3f} [{metric.get('low', 0):.3f}, "
            f"{metric.get('high', 0):.3f}], bound {bound}: {gate.get('why', '')}")
