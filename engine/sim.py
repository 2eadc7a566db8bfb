"""Playtesting by simulation: many seeded games between agents, the same result on any machine.

Determinism is the contract. Game ``i`` of a run with seed ``s`` is dealt from
``game_seed(s, i)`` (a hash, so neighbouring seeds share nothing), each seat's agent draws from
its own stream ``agent_seed(game_seed, seat)``, and agents are rotated through the seats by game
index (seat ``k`` of game ``i`` is played by ``agents[(k + i) % players]``), so with unequal agents
every agent sits in every seat equally often; who holds priority / moves first is drawn by the
engine from the game seed. ``jobs > 1`` splits the games into chunks by index, plays them in worker
processes and merges them back in index order: exactly the same :class:`SimResult` as ``jobs=1``.

A game record (one JSON line of ``--log``) holds everything needed to replay it: the card set's
content hash and switches, engine options, player count, game seed, agent specs per seat and the
actions (ints, plus their text for people). :func:`replay` plays it back through the engine and
checks it ends the same way.

Metrics: the engine's own ``<engine>.metrics.game_metrics(summaries, num_players)`` plus figures
any game has (names are stable; gates refer to them):

    seat.<k>.win_rate        share of wins of seat k (1-based; a draw splits the point)
    agent.<spec>.win_rate    share of wins of an agent spec (only when the agents differ)
    draw_rate                games without a single winner
    first_player_win_rate    share of wins of the player moving first (summary "first_player",
                             or "first_priority": who held priority on turn 1)
    score_mean, score_sd, score_margin   from summary "scores" (margin: winner minus runner-up)
    turns_mean               from summary "turns"

(the generic ones are skipped when the engine's metrics already define a metric of that name;
the seat figures when the engine reports any metric in group "seat").
"""

from __future__ import annotations

import copyreg
import hashlib
import importlib
import json
import multiprocessing
import os
import random
import signal
import tempfile
import threading
import time
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boneyard.engine.agents import make_agent, parse_spec
from boneyard.engine.cards import CardSet, freeze
from boneyard.engine.core import Agent, Game, State
from boneyard.engine.stats import Metric, Tally

from boneyard.errors import BoneyardError, RulesError

__all__ = [
    "ReplayError",
    "RunSpec",
    "SimResult",
    "agent_seed",
    "block_size",
    "blocks_of",
    "cluster_block",
    "default_jobs",
    "game_metrics",
    "map_tasks",
    "game_seed",
    "make_record",
    "play_game",
    "replay",
    "seat_agents",
    "simulate",
    "tally_game",
    "tally_metrics",
    "transcript",
]

# Card sets hold read-only mappings; teach pickle to carry them to worker processes.
copyreg.pickle(types.MappingProxyType, lambda m: (freeze, (dict(m),)))

MAX_ACTIONS = 1_000_000
"""A game longer than this is a broken engine, not a long game."""


class ReplayError(BoneyardError):
    """A logged game that does not replay: other card content, or another outcome."""


# --- seeds and seats -------------------------------------------------------------------------


def _hash_seed(*parts: object) -> int:
    blob = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(blob).digest()[:8], "big") >> 1


def game_seed(seed: int, index: int) -> int:
    """The seed game ``index`` of a run with ``seed`` is dealt from."""
    return _hash_seed("game", seed, index)


def agent_seed(seed_of_game: int, seat: int) -> int:
    """The seed of the agent in ``seat`` (its own stream: no agent's draws shift another's)."""
    return _hash_seed("agent", seed_of_game, seat)


def seat_agents(agents: Sequence[str], num_players: int, index: int) -> list[str]:
    """Agent spec per seat in game ``index``: one spec fills every seat, else they rotate."""
    if len(agents) == 1:
        return [agents[0]] * num_players
    if len(agents) != num_players:
        raise RulesError(
            f"{len(agents)} agents given for {num_players} players "
            "(give one agent for every seat, or a single agent for all seats)"
        )
    return [agents[(k + index) % num_players] for k in range(num_players)]


# --- one game --------------------------------------------------------------------------------


def play_game(
    game: Game, agents: Sequence[Agent], seed: int, texts: list[str] | None = None
) -> tuple[State, list[int]]:
    """Play one game from ``seed``; returns the final state and the actions taken.

    Each agent sees only ``state.observation(seat)`` and draws from its own seeded stream. When
    ``texts`` is given, the readable form of every action is appended to it.
    """
    state = game.new_initial_state(seed)
    rngs = [random.Random(agent_seed(seed, k)) for k in range(len(agents))]
    actions: list[int] = []
    while not state.is_terminal():
        p = state.current_player()
        action = agents[p].choose(state.observation(p), rngs[p])
        if texts is not None:
            texts.append(state.action_to_string(action))
        state.apply_action(action)
        actions.append(action)
        if len(actions) > MAX_ACTIONS:
            raise RulesError(f"game from seed {seed} did not end after {MAX_ACTIONS} actions")
    return state, actions


def _plain(value: Any) -> Any:
    """JSON-shaped copy (tuples become lists), so records compare equal after a round trip; a
    typed summary is stored as its ``to_json()``."""
    return json.loads(json.dumps(value, default=lambda typed: typed.to_json()))


def _card_set_of(game: Game) -> CardSet | None:
    return getattr(game, "card_set", None)


def make_record(
    game: Game, index: int, seed: int, seats: Sequence[str], state: State,
    actions: Sequence[int], texts: Sequence[str], options: Mapping[str, Any],
) -> dict[str, Any]:
    """The log line of one game (see the module docstring)."""
    cs = _card_set_of(game)
    return {
        "game": index,
        "set": cs.name if cs else None,
        "slug": cs.slug if cs else None,
        "root": cs.root if cs else None,
        "rules": cs.rules if cs else None,
        "content_hash": cs.content_hash if cs else None,
        "switches": _plain(dict(cs.switches)) if cs else {},
        "options": _plain(dict(options)),
        "num_players": game.num_players,
        "seed": seed,
        "agents": list(seats),
        "actions": list(actions),
        "moves": list(texts),
        "returns": list(state.returns()),
        "summary": _plain(state.summary()),
    }


# --- many games ------------------------------------------------------------------------------


@dataclass
class SimResult:
    """What a run measured; equal for equal inputs whatever ``jobs`` or ``scheduler`` was.

    ``n`` is the number of games played: fewer than ``requested`` only when the run was stopped
    (``partial``), in which case the figures cover the blocks that finished. The per-game lists
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
        }


def block_size(n: int) -> int:
    """Games per block: about 64 blocks a run (more for long runs), 1 to 1,000 games each.

    A function of ``n`` alone: the blocks, and so the order their tallies are merged in, never
    depend on ``jobs`` or the cluster, which keeps reports byte-identical everywhere. Each block
    costs the parent about a millisecond (its tally comes back and is merged), so a short run
    is not cut finer than 64; a long one keeps blocks of 1,000 games, enough tasks for a cluster.
    """
    return max(1, min(1000, -(-n // 64)))


def blocks_of(n: int) -> list[tuple[int, int, int]]:
    """(block index, first game, end) for a run of ``n`` games."""
    size = block_size(n)
    return [(b, a, min(n, a + size)) for b, a in enumerate(range(0, n, size))]


@dataclass(frozen=True)
class RunSpec:
    """What every block of a run shares (travels with each task, a few hundred bytes)."""

    agents: tuple[str, ...]
    seed: int
    num_players: int | None
    options: dict[str, Any]
    keep: int = 0
    log: bool = False
    keep_games: bool = False


def _build_game(spec: CardSet | Game, num_players: int | None, options: Mapping[str, Any]) -> Game:
    if isinstance(spec, CardSet):
        from boneyard.engine.games import make_game

        return make_game(spec, num_players, **options)
    return spec


def _engine_metrics_module(rules: str | None) -> Any:
    from boneyard.engine.games import ENGINES, engine_package

    if rules not in ENGINES:
        return None
    return importlib.import_module(engine_package(rules) + ".metrics")


def _tally_generic(t: Tally, seats: Sequence[str], returns: Sequence[float],
                   summary: Mapping[str, Any], players: int) -> None:
    """The figures any game has (module docstring), as counts and sums under ``sim.``."""
    if not isinstance(summary, Mapping):  # a typed summary (engine.core.Summary)
        summary = {"first_player": summary.first_player, "scores": summary.scores,
                   "turns": summary.turns}
    add = t.add
    for k in range(players):
        add(f"sim.seat.{k + 1}", returns[k])
        add(f"sim.agent.{seats[k]}", returns[k])
    add("sim.draw", 1 if max(returns) < 1.0 else 0)
    first = summary.get("first_player", summary.get("first_priority"))
    if isinstance(first, int) and not isinstance(first, bool):
        add("sim.first", returns[first])
    scores = summary.get("scores")
    if isinstance(scores, (list, tuple)) and len(scores) == players:
        for v in scores:
            add("sim.score", v)
        if players > 1:
            top = sorted(scores)
            add("sim.margin", top[-1] - top[-2])
    turns = summary.get("turns")
    if isinstance(turns, int) and not isinstance(turns, bool):
        add("sim.turns", turns)
    add("sim.games", 1)


def tally_game(t: Tally, engine: Any, seats: Sequence[str], returns: Sequence[float],
               summary: Mapping[str, Any], players: int) -> None:
    """Add one finished game to ``t``: the engine's own figures plus the generic ones."""
    if engine is not None:
        engine.tally(t, summary, players)
    _tally_generic(t, seats, returns, summary, players)


def play_block(game: Game, spec: RunSpec, start: int, stop: int) -> dict[str, Any]:
    """Play games ``start..stop-1`` of a run: the block's tally, plus records where wanted.

    Everything returned is plain data (it crosses process and network boundaries).
    """
    cpu = time.process_time()
    engine = _engine_metrics_module(getattr(_card_set_of(game), "rules", None))
    players = game.num_players
    t = Tally()
    records: list[dict[str, Any]] = []
    rows: list[dict[str, Any]] = []
    for i in range(start, stop):
        seed = game_seed(spec.seed, i)
        seats = seat_agents(spec.agents, players, i)
        agents = [make_agent(s, game) for s in seats]
        want_record = spec.log or i < spec.keep
        texts: list[str] | None = [] if want_record else None
        state, actions = play_game(game, agents, seed, texts)
        returns = list(state.returns())
        summary = state.summary()
        tally_game(t, engine, seats, returns, summary, players)
        if spec.keep_games:
            rows.append({"seed": seed, "seats": seats, "returns": returns, "summary": _plain(summary)})
        if want_record:
            records.append(make_record(game, i, seed, seats, state, actions, texts or [], spec.options))
    return {"start": start, "games": stop - start, "tally": t.sums, "records": records,
            "rows": rows, "cpu": time.process_time() - cpu}


# Worker-process state: the game is built once per process (set by _init_worker).
_WORKER: dict[str, Any] = {}


def _init_worker(source: CardSet | Game, spec: RunSpec, quiet_interrupt: bool) -> None:
    if quiet_interrupt:  # Ctrl-C reaches the whole process group: the parent alone handles it
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER.update(game=_build_game(source, spec.num_players, spec.options), spec=spec)


def _run_block(block: tuple[int, int, int]) -> tuple[int, dict[str, Any]]:
    b, start, stop = block
    return b, play_block(_WORKER["game"], _WORKER["spec"], start, stop)


# Cluster workers keep the games they built, keyed by card content, switches and options, so a
# run's many tasks build the engine once per worker.
_CLUSTER_GAMES: dict[str, Game] = {}


def cluster_block(source: CardSet | Game, spec: RunSpec, block: tuple[int, int, int]) -> tuple[int, dict[str, Any]]:
    """One block on a Dask worker: the card set arrives with the task (scattered once a run)."""
    if isinstance(source, CardSet):
        key = json.dumps([source.content_hash, _plain(dict(source.switches)), spec.num_players,
                          spec.options], sort_keys=True)
        game = _CLUSTER_GAMES.get(key)
        if game is None:
            if len(_CLUSTER_GAMES) >= 16:  # a sweep of many variants: forget the oldest
                del _CLUSTER_GAMES[next(iter(_CLUSTER_GAMES))]
            game = _CLUSTER_GAMES[key] = _build_game(source, spec.num_players, spec.options)
    else:
        game = source
    b, start, stop = block
    return b, play_block(game, spec, start, stop)


def _mp_context() -> Any:
    """fork when it is safe (no other threads; it does not re-run the main script), else spawn.

    The result does not depend on the choice: workers only need the pickled game and seeds.
    """
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


def default_jobs() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class _AtomicLines:
    """A JSON-lines file written to a temporary name and renamed into place when complete."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent)
        self.tmp = Path(tmp)
        self.file = os.fdopen(fd, "w", encoding="utf-8")

    def write(self, record: dict[str, Any]) -> None:
        self.file.write(json.dumps(record, separators=(",", ":")) + "\n")

    def commit(self) -> None:
        self.file.close()
        os.replace(self.tmp, self.path)

    def abort(self) -> None:
        self.file.close()
        self.tmp.unlink(missing_ok=True)


class _Collector:
    """Merges finished blocks in block order, whatever order they finish in.

    Only blocks that finished ahead of an unfinished one wait here, so memory stays flat with
    the number of games; records go straight to the log.
    """

    def __init__(self, n: int, keep: int, writer: _AtomicLines | None,
                 progress: Callable[[int, int], None] | None) -> None:
        self.n, self.keep, self.writer, self.progress = n, keep, writer, progress
        self.tally = Tally()
        self.pending: dict[int, dict[str, Any]] = {}
        self.next = 0
        self.done = 0
        self.blocks_done = 0
        self.cpu = 0.0
        self.records: list[dict[str, Any]] = []
        self.rows: list[dict[str, Any]] = []
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
            self.done += result["games"]
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
        for rec in result["records"]:
            if self.writer is not None:
                self.writer.write(rec)
            if rec["game"] < self.keep:
                self.records.append(rec)


def _run_local(source: CardSet | Game, built: Game, spec: RunSpec, blocks: list[tuple[int, int, int]],
               jobs: int, collector: _Collector) -> None:
    if jobs == 1 or len(blocks) == 1:
        for b, start, stop in blocks:
            collector.take(b, play_block(built, spec, start, stop))
        return
    ctx = _mp_context()
    pool = ctx.Pool(min(jobs, len(blocks)), _init_worker, (source, spec, True))
    try:
        for b, result in pool.imap_unordered(_run_block, blocks):
            collector.take(b, result)
        pool.close()
    except BaseException:
        pool.terminate()  # at once: a stop must not wait for blocks in flight
        raise
    finally:
        pool.join()


CONNECT_TIMEOUT = 15.0
"""Seconds to wait for a Dask scheduler before saying it cannot be reached."""


def scheduler_address(scheduler: str | None) -> str | None:
    """``--scheduler`` or else ``BONEYARD_SCHEDULER``; None runs on local processes."""
    address = scheduler if scheduler is not None else os.environ.get("BONEYARD_SCHEDULER")
    return address.strip() or None if address else None


def _connect(address: str) -> Any:
    """A Dask client for ``address``, or one clear message saying why there is none."""
    try:
        from distributed import Client
    except ImportError:
        raise RulesError(
            f"--scheduler {address}: running on a cluster needs Dask "
            "(pip install 'boneyard[cluster]')"
        ) from None
    try:
        return Client(address, timeout=f"{CONNECT_TIMEOUT}s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise RulesError(
            f"cannot reach the Dask scheduler at {address} ({exc}); start one with "
            f"`dask scheduler` and workers with `dask worker {address}`, or drop --scheduler"
        ) from None


def _run_cluster(address: str, source: CardSet | Game, spec: RunSpec,
                 blocks: list[tuple[int, int, int]], collector: _Collector) -> None:
    """The blocks as tasks on a Dask cluster; a task lost with its worker is rerun by Dask."""
    from distributed import as_completed

    client = _connect(address)
    futures: list[Any] = []
    try:
        token = hashlib.sha256(os.urandom(16)).hexdigest()[:12]  # task names only, not results
        shared = client.scatter(source, broadcast=True, hash=False)
        futures = [client.submit(cluster_block, shared, spec, block, key=f"boneyard-{token}-{block[0]}",
                                 pure=False) for block in blocks]
        for fut in as_completed(futures, loop=client.loop):
            b, result = fut.result()
            fut.release()
            collector.take(b, result)
    except BaseException:
        # closing the client releases the futures, and the scheduler drops their tasks; an
        # explicit cancel would only wait for the round trip
        futures.clear()
        raise
    finally:
        client.close(timeout=2)


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
        ctx = _mp_context()
        with ctx.Pool(min(jobs, len(tasks))) as pool:
            for result in pool.imap(fn, tasks):
                take(result)
        return out
    client = _connect(address)
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
    opts = _plain(dict(options or {}))
    started = time.perf_counter()
    built = _build_game(game, num_players, opts)
    players = built.num_players
    seat_agents(specs, players, 0)  # checks the agent count before any work
    spec = RunSpec(tuple(specs), seed, num_players, opts, keep, log is not None, keep_games)
    blocks = blocks_of(n)
    address = scheduler_address(scheduler)
    writer = _AtomicLines(log) if log is not None else None
    collector = _Collector(n, keep, writer, progress)
    partial = False
    guard = interruptible and threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, collector.interrupt) if guard else None
    try:
        try:
            if address is not None:
                _run_cluster(address, game, spec, blocks, collector)
            else:
                _run_local(game if jobs > 1 else built, built, spec, blocks, jobs, collector)
        except KeyboardInterrupt:
            if not interruptible:
                raise
            partial = True
        collector.finish()
        if writer is not None:
            writer.commit()
    except BaseException:
        if writer is not None:
            writer.abort()
        raise
    finally:
        if guard:
            signal.signal(signal.SIGINT, previous)

    cs = _card_set_of(built)
    rows = collector.rows
    return SimResult(
        set_name=cs.name if cs else None,
        rules=cs.rules if cs else None,
        content_hash=cs.content_hash if cs else None,
        switches=_plain(dict(cs.switches)) if cs else {},
        options=opts,
        num_players=players,
        agents=specs,
        seed=seed,
        n=collector.done,
        requested=n,
        partial=partial or collector.done < n,
        blocks=len(blocks),
        blocks_done=collector.blocks_done,
        metrics=tally_metrics(cs.rules if cs else None, collector.tally, players),
        seeds=[r["seed"] for r in rows],
        seats=[r["seats"] for r in rows],
        returns=[r["returns"] for r in rows],
        summaries=[r["summary"] for r in rows],
        records=collector.records,
        tally=collector.tally,
        seconds=time.perf_counter() - started,
        cpu_seconds=collector.cpu,
    )


# --- metrics ---------------------------------------------------------------------------------


def tally_metrics(rules: str | None, t: Tally, players: int) -> list[Metric]:
    """Engine metrics plus the generic seat/agent/draw/score figures (module docstring)."""
    engine = _engine_metrics_module(rules)
    own = list(engine.metrics(t, players)) if engine is not None else []
    have = {m.name for m in own}
    n = t.n("sim.games")
    out: list[Metric] = []

    def add(m: Metric) -> None:
        if m.name not in have:
            out.append(m)
            have.add(m.name)

    if n == 0:
        return out + own
    engine_seats = any(m.group == "seat" for m in own)  # the engine's own seat table wins
    for k in range(0 if engine_seats else players):
        add(t.proportion_metric(f"seat.{k + 1}.win_rate", f"sim.seat.{k + 1}", group="seat",
                                subject=f"seat {k + 1}"))
    specs = [name[len("sim.agent."):] for name in t.names("sim.agent.")]
    if len(specs) > 1:
        for spec in specs:
            add(t.proportion_metric(f"agent.{spec}.win_rate", f"sim.agent.{spec}", group="agent",
                                    subject=spec))
    add(t.proportion_metric("draw_rate", "sim.draw"))
    if t.n("sim.first") == n:
        add(t.proportion_metric("first_player_win_rate", "sim.first"))
    if t.n("sim.score") == n * players:
        add(t.mean_metric("score_mean", "sim.score", unit="points"))
        add(t.sd_metric("score_sd", "sim.score", unit="points"))
        if players > 1:
            add(t.mean_metric("score_margin", "sim.margin", unit="points"))
    if t.n("sim.turns") == n and not any("turns" in m.name for m in own):
        add(t.mean_metric("turns_mean", "sim.turns", unit="turns"))
    return out + own


def game_metrics(
    rules: str | None, summaries: list[dict[str, Any]], returns: list[list[float]],
    seats: list[list[str]], players: int,
) -> list[Metric]:
    """:func:`tally_metrics` over games held in memory."""
    engine = _engine_metrics_module(rules)
    t = Tally()
    for s, r, row in zip(summaries, returns, seats, strict=True):
        tally_game(t, engine, row, r, s, players)
    return tally_metrics(rules, t, players)


# --- replay ----------------------------------------------------------------------------------


def _replay_game(game: CardSet | Game, record: Mapping[str, Any]) -> Game:
    if not isinstance(game, CardSet):
        return game
    card_set = game
    if dict(card_set.switches) != record.get("switches", {}):
        card_set = card_set.with_switches(**record.get("switches", {}))
    if card_set.content_hash != record.get("content_hash"):
        raise ReplayError(
            f"game {record.get('game')}: logged on card set content {record.get('content_hash')}, "
            f"but '{card_set.name}' now hashes to {card_set.content_hash} "
            "(the cards or rules changed since; re-run the simulation)"
        )
    from boneyard.engine.games import make_game

    return make_game(card_set, record.get("num_players"), **dict(record.get("options", {})))


def _events(state: State) -> list[str] | None:
    events = getattr(state, "events", None)
    return events if isinstance(events, list) else None


def _turn_header(state: State) -> str | None:
    """``-- turn 3 (scores 12, 8) --`` from the public turn number and scores, if the state has them."""
    turn = getattr(state, "turn", getattr(state, "turn_no", None))
    if not isinstance(turn, int) or isinstance(turn, bool):
        return None
    scores = getattr(state, "scores", getattr(state, "score", None))
    if isinstance(scores, list) and all(isinstance(v, int) for v in scores):
        return f"-- turn {turn} (scores {', '.join(str(v) for v in scores)}) --"
    return f"-- turn {turn} --"


def replay(
    game: CardSet | Game, record: Mapping[str, Any], lines: list[str] | None = None
) -> State:
    """Replay a logged game and check it ends as logged; raises ReplayError if it does not.

    When ``lines`` is given, a readable transcript is appended to it: each action with the
    player who chose it, followed by the events the state logged meanwhile (if it keeps any).
    """
    g = _replay_game(game, record)
    index = record.get("game")
    # An engine that logs events only on request (record_events, off for speed) logs them here.
    was_recording = getattr(g, "record_events", None)
    if lines is not None and was_recording is not None:
        g.record_events = True
    try:
        state = g.new_initial_state(int(record["seed"]))
        actions = [int(a) for a in record["actions"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayError(f"game {index}: not a game record ({exc})") from None
    finally:
        if was_recording is not None:
            g.record_events = was_recording
    seats = record.get("agents") or []
    seen = 0
    last_turn: str | None = None
    if lines is not None:
        ev = _events(state) or []
        lines.extend(f"      {e}" for e in ev)
        seen = len(ev)
    for step, action in enumerate(actions):
        if state.is_terminal():
            raise ReplayError(f"game {index}: the game ended after {step} of {len(actions)} actions")
        if action not in state.legal_actions():
            raise ReplayError(f"game {index}: action #{step + 1} ({action}) is not legal here")
        p = state.current_player()
        if lines is not None:
            head = _turn_header(state)
            if head is not None and head.split(" (")[0] != last_turn:
                lines.append(head)
                last_turn = head.split(" (")[0]
            who = f" ({seats[p]})" if p < len(seats) else ""
            lines.append(f"{step + 1:4d}  player {p + 1}{who}: {state.action_to_string(action)}")
        state.apply_action(action)
        if lines is not None:
            ev = _events(state) or []
            new = [f"      {e}" for e in ev[seen:]]
            seen = len(ev)
            head = None if state.is_terminal() else _turn_header(state)
            if head is not None and head.split(" (")[0] != last_turn:
                # the action ended a turn: its last events belong under the next turn's header
                turn = head.split(" (")[0].removeprefix("-- ").removesuffix(" --")
                at = next((k for k, e in enumerate(new) if e.strip().startswith(turn + ":")), len(new))
                new[at:at] = [head]
                last_turn = head.split(" (")[0]
            lines.extend(new)
    if not state.is_terminal():
        raise ReplayError(f"game {index}: the logged actions end before the game does")
    if list(state.returns()) != list(record.get("returns", [])):
        raise ReplayError(
            f"game {index}: replay ends with returns {state.returns()}, the log says {record.get('returns')}"
        )
    if "summary" in record and _plain(state.summary()) != record["summary"]:
        raise ReplayError(f"game {index}: replay ends with another summary than the log")
    if lines is not None:
        result = ", ".join(f"player {k + 1}: {r:g}" for k, r in enumerate(state.returns()))
        lines.append(f"result: {result}")
    return state


def transcript(game: CardSet | Game, record: Mapping[str, Any]) -> list[str]:
    """A checked, readable turn-by-turn account of a logged game."""
    head = [
        f"game {record.get('game')} of '{record.get('set')}' (content {record.get('content_hash')}), "
        f"seed {record.get('seed')}, agents {', '.join(record.get('agents', []))}"
    ]
    lines: list[str] = []
    replay(game, record, lines)
    return head + lines
