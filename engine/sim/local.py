"""Blocks on local worker processes (``--jobs``): each worker builds the game once."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.core import Game
from boneyard.engine.sim.play import RunSpec, Take, build_game, play_block

# Worker-process state: the game is built once per process (set by _init_worker).
_WORKER: dict[str, Any] = {}


def _init_worker(source: CardSet | Game, spec: RunSpec, quiet_interrupt: bool) -> None:
    if quiet_interrupt:  # Ctrl-C reaches the whole process group: the parent alone handles it
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER.update(game=build_game(source, spec.num_players, spec.options), spec=spec)


def _run_block(block: tuple[int, int, int]) -> tuple[int, dict[str, Any]]:
    b, start, stop = block
    return b, play_block(_WORKER["game"], _WORKER["spec"], start, stop)


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


def run_local(source: CardSet | Game, built: Game, spec: RunSpec, blocks: list[tuple[int, int, int]],
               jobs: int, take: Take) -> None:
    if jobs == 1 or len(blocks) == 1:
        for b, start, stop in blocks:
            take(b, play_block(built, spec, start, stop))
        return
    ctx = mp_context()
    pool = ctx.Pool(min(jobs, len(blocks)), _init_worker, (source, spec, True))
    try:
        for b, result in pool.imap_unordered(_run_block, blocks):
            take(b, result)
        pool.close()
    except BaseException:
        pool.terminate()  # at once: a stop must not wait for blocks in flight
        raise
    finally:
        pool.join()
