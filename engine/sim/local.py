"""Blocks on local worker processes (``--jobs``): each worker builds the game once."""

from __future__ import annotations

import itertools
import multiprocessing
import os
import queue
import signal
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.core import Game
from boneyard.engine.sim.play import RunSpec, Take, build_game, play_block

from boneyard.errors import BoneyardError

# Worker-process state: the game is built once per process (set by _init_worker).
_WORKER: dict[str, Any] = {}


def _init_worker(source: CardSet | Game, spec: RunSpec, quiet_interrupt: bool) -> None:
    if quiet_interrupt:  # Ctrl-C reaches the whole process group: the parent alone handles it
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    quiet_orphan()
    _WORKER.update(game=build_game(source, spec.num_players, spec.options), spec=spec)


def quiet_worker() -> None:
    """A pool initializer for other playtest work (substitution runs): the parent alone handles
    Ctrl-C, and a worker whose parent was killed (SIGTERM) ends without a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    quiet_orphan()


def _run_block(block: tuple[int, int, int]) -> tuple[int, dict[str, Any]]:
    b, start, stop = block
    return b, play_block(_WORKER["game"], _WORKER["spec"], start, stop)


def quiet_orphan() -> None:
    """In a worker: when the parent dies (killed), leave quietly. Python ignores SIGPIPE, so a
    worker writing its result to the dead parent's pipe would print a BrokenPipeError traceback;
    with the default action it just ends, and a watchdog ends a worker orphaned mid-block."""
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    # a forked worker inherits the CLI's SIGTERM handler, which unwinds the parent's work:
    # the pool's own SIGTERM (terminate) must just end the worker
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # blocked by new_pool until the default is back
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="boneyard-orphan-watch", daemon=True).start()


def new_pool(ctx: Any, processes: int, initializer: Any, initargs: tuple[Any, ...] = ()) -> Any:
    """``ctx.Pool``, with SIGTERM blocked while its workers start (each worker's initializer
    unblocks it, via ``quiet_orphan``). A pool that fails to start its second worker (too many
    open files) ends the first with SIGTERM at once; Python drops a signal that arrives while a
    forked child runs its after-fork hooks, so that worker lived on and the pool waited for it
    for ever. Blocked, the signal waits for the worker to restore the default action, and ends it.
    """
    if not hasattr(signal, "pthread_sigmask"):
        return ctx.Pool(processes, initializer, initargs)
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    pool = None
    try:
        pool = ctx.Pool(processes, initializer, initargs)
    finally:
        try:
            signal.pthread_sigmask(signal.SIG_SETMASK, old)  # a SIGTERM that waited lands here
        except BaseException:
            if pool is not None:  # stopped as it started: end it, or it outlives the run
                stop_pool(pool)
            raise
    return pool


STOP_WAIT = 3.0
"""Seconds :func:`stop_pool` waits for a pool's own shutdown before leaving it behind."""


def stop_pool(pool: Any) -> None:
    """End a pool at once, without waiting for ever. ``Pool.terminate`` joins the thread that
    reads results, and a worker killed while it wrote one (SIGTERM to the whole process group,
    as `timeout` and CI send; the out-of-memory killer) leaves that pipe half written, so the
    thread, and the join, waited for ever. The workers are killed first, and the pool's
    shutdown is given a few seconds in a thread of its own; its threads are daemons, so a
    shutdown still stuck then does not keep the process alive. When a killed worker held a
    lock of the pool's pipes (it was reading a block or writing a result: likely when Ctrl-C
    stops a busy run) the shutdown can never end, and the stop does not wait for it."""
    killed = [w for w in list(getattr(pool, "_pool", [])) if w.exitcode is None]
    for w in killed:
        w.kill()
    for w in killed:
        w.join(STOP_WAIT)
    stuck = pipe_held(pool)
    # terminate even so: it marks the pool finished, or the exit would wait on it for ever
    stopper = threading.Thread(target=pool.terminate, name="boneyard-pool-stop", daemon=True)
    stopper.start()
    # the pool starts new workers in place of the killed ones until its shutdown stops that
    handler = getattr(pool, "_worker_handler", None)
    if handler is not None:
        handler.join(STOP_WAIT)
    for w in list(getattr(pool, "_pool", [])):
        if w.exitcode is None:
            w.kill()
            w.join(STOP_WAIT)
    if not stuck:
        stopper.join(STOP_WAIT)


def pipe_held(pool: Any) -> bool:
    """Whether one of the pool's pipe locks is held: a worker reads blocks holding the lock of
    the pipe in and writes results holding the lock of the pipe out, and the pool's shutdown
    takes both. With the workers dead, a held one is never released."""
    for pipe, name in ((getattr(pool, "_inqueue", None), "_rlock"),
                       (getattr(pool, "_outqueue", None), "_wlock")):
        lock = getattr(pipe, name, None)
        if lock is None:
            continue
        if not lock.acquire(False):
            return True
        lock.release()
    return False


class WorkerLost(BoneyardError):
    """A worker process ended while it held work that cannot be given to another."""


POLL = 0.5
"""Seconds between checks that every worker is still alive while results are awaited."""

RETRIES = 2
"""Times the blocks in flight when a local worker dies are handed out again (as on a cluster,
``engine/sim/cluster.py``) before the run ends partial without them."""

STOPPED_WAIT = 15.0
"""Seconds of the parent's waiting for results during which a worker may stay stopped (SIGSTOP,
a debugger's stop) before it is treated as lost: ended, and its blocks handed out again."""


def is_stopped(pid: int) -> bool:
    """Whether process ``pid`` is stopped by a signal (state ``T`` in ``/proc/<pid>/stat``;
    False where there is no ``/proc``). Why: a stopped worker holds its blocks for ever and
    the run waited with it, without a word."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return False
    end = stat.rfind(b")")  # the command name, in parentheses, may hold spaces and ')'
    return stat[end + 2:end + 3] == b"T"


def finish_pool(pool: Any) -> None:
    """``close`` and ``join`` a pool whose results are all in, except that a worker stopped
    (SIGSTOP) while it waited for work kept the join waiting for ever: it never reads the
    pool's word to end. One found stopped at every look for :data:`STOPPED_WAIT` seconds ends
    the pool at once (:func:`stop_pool`; an idle worker may hold the pipe's lock, so the others
    could not end either), which loses nothing: every result is in."""
    pool.close()
    joiner = threading.Thread(target=pool.join, name="boneyard-pool-join", daemon=True)
    joiner.start()
    looks = max(1, round(STOPPED_WAIT / POLL))
    seen: dict[int, int] = {}
    while joiner.is_alive():
        joiner.join(POLL)
        for w in list(getattr(pool, "_pool", [])):
            if w.exitcode is None and w.pid is not None and is_stopped(w.pid):
                seen[w.pid] = seen.get(w.pid, 0) + 1
                if seen[w.pid] >= looks:
                    stop_pool(pool)
                    return
            else:
                seen.pop(w.pid, None)


class Watch:
    """The pool's live workers, to notice one that ends mid-run. ``multiprocessing.Pool`` starts
    a new worker in place of one that was killed (the system's out-of-memory killer sends
    SIGKILL), but the work the dead one held is lost and its result never comes: the run hung
    for ever. The pool keeps its workers in ``_pool``, the one place they can be read from."""

    def __init__(self, pool: Any) -> None:
        self.pool = pool
        self.workers = list(getattr(pool, "_pool", []))
        self.stopped: dict[int, int] = {}  # pid -> looks in a row that found it stopped

    def dead(self) -> str | None:
        """How a worker ended since the last look (and look at the new ones from now), or None.
        A worker found stopped at every look for :data:`STOPPED_WAIT` seconds is ended here and
        counts as dead. The looks, not the clock, measure it: when the whole run is stopped
        (Ctrl-Z) and continued, the parent did not look meanwhile and the workers run again."""
        how = self._ended()
        if how is not None:
            return how
        looks = max(1, round(STOPPED_WAIT / POLL))
        for w in self.workers:
            if w.pid is None or not is_stopped(w.pid):
                self.stopped.pop(w.pid, None)
                continue
            self.stopped[w.pid] = self.stopped.get(w.pid, 0) + 1
            if self.stopped[w.pid] >= looks:
                w.kill()  # SIGKILL ends a stopped process too
                w.join(STOP_WAIT)
                self.workers = [x for x in getattr(self.pool, "_pool", []) if x.exitcode is None]
                self.stopped.clear()
                return (f"a worker process (pid {w.pid}) stayed stopped (SIGSTOP) for "
                        f"{STOPPED_WAIT:.0f} s and was ended")
        return None

    def _ended(self) -> str | None:
        for w in self.workers:
            code = w.exitcode
            if code is None:
                continue
            self.workers = [x for x in getattr(self.pool, "_pool", []) if x.exitcode is None]
            if code >= 0:
                return f"a worker process (pid {w.pid}) ended with exit code {code}"
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            why = " (the system sends it when memory runs out)" if name == "SIGKILL" else ""
            return f"a worker process (pid {w.pid}) was killed by {name}{why}"
        return None


def mp_context() -> Any:
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


WINDOW = 4
"""Blocks in flight per worker: enough to keep each busy, few enough that memory stays flat."""


def run_local(source: CardSet | Game, built: Game, spec: RunSpec,
              blocks: Iterable[tuple[int, int, int]], nblocks: int, jobs: int,
              take: Take) -> tuple[list[int], list[str]]:
    """The blocks in-process or on ``jobs`` worker processes, handed out a few at a time (a
    pool's own imap would queue every block of a 10**12-game run up front).

    When a worker dies (killed), the pool is replaced: a worker killed while it read a block
    from the pool's shared pipe leaves the pipe half read, and every other worker then waits on
    it for ever. Which of the blocks in flight the dead one held is unknown, so all of them are
    handed to the new pool (a result that comes twice is taken once), at most :data:`RETRIES`
    times each; a block still missing then is given up. Returns the blocks given up and how the
    workers died, so the run ends partial with every finished block kept.
    """
    if jobs == 1 or nblocks == 1:
        for b, start, stop in blocks:
            take(b, play_block(built, spec, start, stop))
        return [], []
    ctx = mp_context()
    workers = min(jobs, nblocks)
    pool = new_pool(ctx, workers, _init_worker, (source, spec, True))
    done: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
    todo = iter(blocks)
    in_flight: dict[int, tuple[int, int, int]] = {}
    tries: dict[int, int] = {}
    lost: list[int] = []
    deaths: list[str] = []

    def send(block: tuple[int, int, int]) -> None:
        in_flight[block[0]] = block
        pool.apply_async(_run_block, (block,), callback=lambda r: done.put((True, r)),
                         error_callback=lambda e: done.put((False, e)))

    try:
        watch = Watch(pool)
        for block in itertools.islice(todo, workers * WINDOW):
            send(block)
        while in_flight:
            try:
                ok, value = done.get(timeout=POLL)
            except queue.Empty:
                how = watch.dead()
                if how is not None:
                    deaths.append(how)
                    stop_pool(pool)
                    pool = new_pool(ctx, workers, _init_worker, (source, spec, True))
                    watch = Watch(pool)
                    for b, block in list(in_flight.items()):
                        tries[b] = tries.get(b, 0) + 1
                        if tries[b] > RETRIES:
                            del in_flight[b]
                            lost.append(b)
                        else:
                            send(block)
                continue
            if not ok:
                raise value
            b = value[0]
            if b not in in_flight and b not in lost:
                continue  # handed out twice after a death, and already taken
            if b in lost:
                lost.remove(b)
            else:
                del in_flight[b]
            take(*value)
            for block in itertools.islice(todo, 1):
                send(block)
        finish_pool(pool)
    except BaseException:
        stop_pool(pool)  # at once: a stop must not wait for blocks in flight
        raise
    return lost, deaths


def map_local(fn: Callable[[Any], Any], tasks: Sequence[Any], jobs: int,
              take: Callable[[Any], None]) -> None:
    """``take(fn(t))`` for every task, in task order, on ``jobs`` worker processes; a worker
    that dies has the pool replaced and the tasks not yet back handed out again, as in
    :func:`run_local` (:class:`WorkerLost` when one is still missing after :data:`RETRIES`)."""
    ctx = mp_context()
    workers = min(jobs, len(tasks))
    done: queue.SimpleQueue[tuple[bool, int, Any]] = queue.SimpleQueue()
    results: dict[int, Any] = {}
    tries = 0
    pool = new_pool(ctx, workers, quiet_worker)

    def send(i: int) -> None:
        pool.apply_async(fn, (tasks[i],), callback=lambda r: done.put((True, i, r)),
                         error_callback=lambda e: done.put((False, i, e)))

    try:
        watch = Watch(pool)
        for i in range(len(tasks)):
            send(i)
        nxt = 0
        while nxt < len(tasks):
            try:
                ok, i, value = done.get(timeout=POLL)
            except queue.Empty:
                how = watch.dead()
                if how is not None:
                    tries += 1
                    if tries > RETRIES:
                        raise WorkerLost(f"{how} before it finished its work, {tries} times; "
                                         "the run is stopped (run it again, with fewer --jobs "
                                         "if memory ran out)") from None
                    stop_pool(pool)
                    pool = new_pool(ctx, workers, quiet_worker)
                    watch = Watch(pool)
                    for k in range(nxt, len(tasks)):
                        if k not in results:
                            send(k)
                continue
            if not ok:
                raise value
            if i >= nxt:  # a task handed out twice after a death is taken once
                results.setdefault(i, value)
            while nxt in results:
                take(results.pop(nxt))
                nxt += 1
        finish_pool(pool)
    except BaseException:
        stop_pool(pool)
        raise
