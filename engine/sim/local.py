"""Blocks on local worker processes (``--jobs``): each worker builds the game once."""

from __future__ import annotations

import itertools
import multiprocessing
import os
import queue
import signal
import threading
import time
from collections.abc import Iterable
from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.core import Game
from boneyard.engine.sim.play import RunSpec, Take, build_game, play_block

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
    try:
        return ctx.Pool(processes, initializer, initargs)
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


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
              blocks: Iterable[tuple[int, int, int]], nblocks: int, jobs: int, take: Take) -> None:
    """The blocks in-process or on ``jobs`` worker processes, handed out a few at a time (a
    pool's own imap would queue every block of a 10**12-game run up front)."""
    if jobs == 1 or nblocks == 1:
        for b, start, stop in blocks:
            take(b, play_block(built, spec, start, stop))
        return
    ctx = mp_context()
    workers = min(jobs, nblocks)
    pool = new_pool(ctx, workers, _init_worker, (source, spec, True))
    done: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
    todo = iter(blocks)
    in_flight = 0

    def submit(count: int) -> int:
        sent = 0
        for block in itertools.islice(todo, count):
            pool.apply_async(_run_block, (block,), callback=lambda r: done.put((True, r)),
                             error_callback=lambda e: done.put((False, e)))
            sent += 1
        return sent

    try:
        in_flight = submit(workers * WINDOW)
        while in_flight:
            ok, value = done.get()
            in_flight -= 1
            if not ok:
                raise value
            take(*value)
            in_flight += submit(1)
        pool.close()
    except BaseException:
        pool.terminate()  # at once: a stop must not wait for blocks in flight
        raise
    finally:
        pool.join()
