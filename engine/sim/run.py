"""A run: the games cut into blocks, played where asked, merged in block order into a SimResult."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import boneyard.engine.sim.play as play
from boneyard.engine.agents import parse_spec
from boneyard.engine.cards import CardSet
from boneyard.engine.core import Game
from boneyard.engine.sim.cluster import connect, run_cluster, scheduler_address
from boneyard.engine.sim.local import default_jobs, map_local, run_local
from boneyard.engine.sim.play import RunSpec, build_game, card_set_of, plain
from boneyard.engine.sim.seeds import block_count, iter_blocks, seat_agents
from boneyard.engine.sim.tally import tally_metrics
from boneyard.engine.stats import Metric, Tally

from boneyard.errors import RulesError
from boneyard.files import atomic_open


@dataclass
class SimResult:
    """What a run measured; equal for equal inputs whatever ``jobs`` or ``scheduler`` was.

    ``n`` is the number of games played to the end: fewer than ``requested`` when the run was
    stopped (``partial``), in which case the figures cover the blocks that finished, or when
    games hit the action cap: those are counted in ``stuck_count`` and listed (game, seed,
    seats; the first :data:`STUCK_LISTED`) in ``stuck``, outside every figure. The per-game lists
    (``seeds``, ``seats``, ``returns``, ``summaries``) are filled only with ``keep_games``.
    """

    set_name: str | None
    rules: str | None
    content_hash: str | None
    switches: dict[str, Any]
    options: dict[str, Any]
    num_players: int
    agents: list[str]
    seed: int
    n: int
    metrics: list[Metric]
    requested: int = 0
    partial: bool = False
    blocks: int = 0
    blocks_done: int = 0
    seeds: list[int] = field(default_factory=list)
    seats: list[list[str]] = field(default_factory=list)
    returns: list[list[float]] = field(default_factory=list)
    summaries: list[dict[str, Any]] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)
    stuck: list[dict[str, Any]] = field(default_factory=list)
    stuck_count: int = 0
    notes: list[str] = field(default_factory=list, compare=False)
    tally: Tally = field(default_factory=Tally, compare=False, repr=False)
    seconds: float = field(default=0.0, compare=False)
    cpu_seconds: float = field(default=0.0, compare=False)

    def metric(self, name: str) -> Metric:
        for m in self.metrics:
            if m.name == name:
                return m
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        """The report: no timings, no per-game data (``--log`` holds that), so the same seed
        gives the same bytes with any ``--jobs`` and on a cluster."""
        return {
            "set": self.set_name,
            "rules": self.rules,
            "content_hash": self.content_hash,
            "switches": self.switches,
            "options": self.options,
            "num_players": self.num_players,
            "agents": self.agents,
            "seed": self.seed,
            "games": self.n,
            "games_requested": self.requested,
            "partial": self.partial,
            "blocks": self.blocks,
            "blocks_done": self.blocks_done,
            "metrics": [m.to_json() for m in self.metrics],
            # only when it happened, so a sound run's report is byte-identical to before
            **({"stuck": {"games": self.stuck_count, "listed": self.stuck}} if self.stuck_count else {}),
        }


STUCK_LISTED = 100
"""How many stuck games a report lists by seed (all are counted)."""


class Collector:
    """Merges finished blocks in block order, whatever order they finish in.

    Only blocks that finished ahead of an unfinished one wait here, so memory stays flat with
    the number of games; records go straight to the log (one JSON line each).
    """

    def __init__(self, n: int, keep: int, progress: Callable[[int, int], None] | None) -> None:
        self.n, self.keep, self.progress = n, keep, progress
        self.log: IO[str] | None = None
        self.tally = Tally()
        self.pending: dict[int, dict[str, Any]] = {}
        self.next = 0
        self.done = 0
        self.blocks_done = 0
        self.cpu = 0.0
        self.records: list[dict[str, Any]] = []
        self.rows: list[dict[str, Any]] = []
        self.stuck: list[dict[str, Any]] = []
        self.stuck_count = 0
        self.busy = False  # folding a block: a Ctrl-C now waits until it is whole
        self.stop_pending = False

    def interrupt(self, signum: int, frame: Any) -> None:
        """SIGINT handler: stop at once, unless a block is half merged (then right after it)."""
        if self.busy:
            self.stop_pending = True
        else:
            raise KeyboardInterrupt

    def take(self, b: int, result: dict[str, Any]) -> None:
        if b < self.next or b in self.pending:  # a rerun of a block already in (cluster retries)
            return
        self.busy = True
        try:
            self.pending[b] = result
            self.done += result["games"] + len(result.get("stuck", ()))
            self.blocks_done += 1
            while self.next in self.pending:
                self._fold(self.pending.pop(self.next))
                self.next += 1
        finally:
            self.busy = False
        if self.stop_pending:
            raise KeyboardInterrupt
        if self.progress is not None:
            self.progress(self.done, self.n)

    def finish(self) -> None:
        """Fold the blocks still waiting (after a stop, some before them never finished)."""
        for b in sorted(self.pending):
            self._fold(self.pending.pop(b))

    def _fold(self, result: dict[str, Any]) -> None:
        self.tally.merge(Tally(result["tally"]))
        self.cpu += result["cpu"]
        self.rows.extend(result["rows"])
        stuck = result.get("stuck", [])
        self.stuck_count += len(stuck)
        self.stuck.extend(stuck[:max(0, STUCK_LISTED - len(self.stuck))])
        for rec in result["records"]:
            if self.log is not None:
                self.log.write(json.dumps(rec, separators=(",", ":")) + "\n")
            if rec["game"] < self.keep:
                self.records.append(rec)


def map_tasks(fn: Callable[[Any], Any], tasks: Sequence[Any], jobs: int = 1,
              scheduler: str | None = None, done: Callable[[Any], None] | None = None) -> list[Any]:
    """``[fn(t) for t in tasks]`` in-process, on ``jobs`` processes or on a Dask cluster.

    For playtest work that is not a block of games (substitution runs): ``fn`` must be a
    module-level function of plain data. Results come back, and ``done`` is called, in task
    order wherever they ran.
    """
    address = scheduler_address(scheduler)
    out: list[Any] = []

    def take(result: Any) -> None:
        out.append(result)
        if done is not None:
            done(result)

    if address is None and (jobs <= 1 or len(tasks) <= 1):
        for t in tasks:
            take(fn(t))
        return out
    if address is None:
        map_local(fn, tasks, jobs, take)
        return out
    client = connect(address)
    try:
        futures = client.map(fn, list(tasks), pure=False)
        for fut in futures:
            take(fut.result())
            fut.release()
    finally:
        client.close()
    return out


def simulate(
    game: CardSet | Game,
    agents: Sequence[str],
    n: int,
    seed: int,
    jobs: int | None = 1,
    num_players: int | None = None,
    options: Mapping[str, Any] | None = None,
    log: str | Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    keep: int = 0,
    keep_games: bool = False,
    scheduler: str | None = None,
    interruptible: bool = False,
    check: bool | None = None,
    max_actions: int | None = None,
) -> SimResult:
    """Play ``n`` games of ``game`` (a card set, or a ready Game) between ``agents``.

    The games are cut into blocks (:func:`blocks_of`) that run in-process, in ``jobs`` worker
    processes (None: all cores) or, with ``scheduler`` (a Dask address), on a cluster; their
    tallies merge in block order, so the result does not depend on where they ran.

    ``agents``: one spec for every seat, or one per seat (rotated by game index). ``options``:
    engine options (``rares``, ``decks``...), used when ``game`` is a card set. ``log``: write one
    JSON line per game there (atomically). ``progress(done, total)`` is called as blocks finish.
    ``keep``: keep the records of the first ``keep`` games in ``SimResult.records`` (for
    transcripts); ``keep_games``: keep every game's seed, seats, returns and summary.
    ``interruptible``: Ctrl-C returns the finished blocks as a partial result instead of raising.
    ``check``: the game's invariants on every state (raises ``BrokenInvariant`` naming the seed
    and the step); None: on when the environment sets ``BONEYARD_CHECK=1`` (the test suite and
    CI do). A game still running after ``max_actions`` is counted as stuck and the run
    goes on (see :class:`SimResult`); None: :data:`~boneyard.engine.sim.play.MAX_ACTIONS`.
    """
    if n < 1:
        raise RulesError(f"the number of games must be at least 1, got {n}")
    if jobs is None:
        jobs = default_jobs()
    if jobs < 1:
        raise RulesError(f"jobs must be at least 1, got {jobs}")
    specs = [s.strip().lower() for s in agents]
    if not specs:
        raise RulesError("no agents given")
    for s in specs:
        parse_spec(s)
    opts = plain(dict(options or {}))
    started = time.perf_counter()
    built = build_game(game, num_players, opts)
    players = built.num_players
    seat_agents(specs, players, 0)  # checks the agent count before any work
    if max_actions is None:
        max_actions = play.MAX_ACTIONS  # looked up now, so a test can lower it
    if max_actions < 1:
        raise RulesError(f"max_actions must be at least 1, got {max_actions}")
    if check is None:
        flag = os.environ.get("BONEYARD_CHECK", "").strip().lower()
        if flag not in ("", "0", "1", "true", "false", "yes", "no"):
            raise RulesError(f"BONEYARD_CHECK={flag!r}: write 1 to check every game's invariants, 0 or nothing not to")
        check = flag in ("1", "true", "yes")
    spec = RunSpec(tuple(specs), seed, num_players, opts, keep, log is not None, keep_games,
                   check, max_actions)
    blocks = iter_blocks(n)  # made as they are handed out: memory flat in n
    nblocks = block_count(n)
    address = scheduler_address(scheduler)
    collector = Collector(n, keep, progress)
    notes: list[str] = []
    partial = False
    guard = interruptible and threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, collector.interrupt) if guard else None
    try:
        # the log is complete when it appears: written under a temporary name, renamed at the end
        with atomic_open(log) if log is not None else nullcontext() as log_file:
            collector.log = log_file
            try:
                if address is not None:
                    lost = run_cluster(address, game, spec, blocks, collector.take)
                    if lost:
                        notes.append(f"{len(lost)} block(s) of games were lost with their workers "
                                     f"and given up after retries (blocks {', '.join(map(str, lost[:10]))})")
                else:
                    lost, deaths = run_local(game if jobs > 1 else built, built, spec, blocks,
                                             nblocks, jobs, collector.take)
                    if deaths:
                        notes.append(f"{deaths[0]}{f' (and {len(deaths) - 1} more)' if len(deaths) > 1 else ''}: "
                                     + (f"{len(lost)} block(s) of games were given up after retries "
                                        f"(blocks {', '.join(map(str, lost[:10]))})" if lost else
                                        "its blocks of games were played again by new workers, "
                                        "and the report is whole"))
            except KeyboardInterrupt:
                if not interruptible:
                    raise
                partial = True
            collector.finish()
    finally:
        if guard:
            signal.signal(signal.SIGINT, previous)

    cs = card_set_of(built)
    rows = collector.rows
    return SimResult(
        set_name=cs.name if cs else None,
        rules=cs.rules if cs else None,
        content_hash=cs.content_hash if cs else None,
        switches=plain(dict(cs.switches)) if cs else {},
        options=opts,
        num_players=players,
        agents=specs,
        seed=seed,
        n=collector.done - collector.stuck_count,
        requested=n,
        partial=partial or collector.done < n,
        blocks=nblocks,
        blocks_done=collector.blocks_done,
        metrics=tally_metrics(cs.rules if cs else None, collector.tally, players),
        seeds=[r["seed"] for r in rows],
        seats=[r["seats"] for r in rows],
        returns=[r["returns"] for r in rows],
        summaries=[r["summary"] for r in rows],
        records=collector.records,
        stuck=collector.stuck,
        stuck_count=collector.stuck_count,
        notes=notes,
        tally=collector.tally,
        seconds=time.perf_counter() - started,
        cpu_seconds=collector.cpu,
    )
