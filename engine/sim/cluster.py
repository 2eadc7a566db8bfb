"""Blocks as tasks on a Dask cluster (``--scheduler``); Dask is imported only here, when asked."""

from __future__ import annotations

import hashlib
import json
import os
from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.core import Game
from boneyard.engine.sim.play import RunSpec, Take, build_game, plain, play_block

from boneyard.errors import RulesError

# Cluster workers keep the games they built, keyed by card content, switches and options, so a
# run's many tasks build the engine once per worker.
_CLUSTER_GAMES: dict[str, Game] = {}


def cluster_block(source: CardSet | Game, spec: RunSpec, block: tuple[int, int, int]) -> tuple[int, dict[str, Any]]:
    """One block on a Dask worker: the card set arrives with the task (scattered once a run)."""
    if isinstance(source, CardSet):
        key = json.dumps([source.content_hash, plain(dict(source.switches)), spec.num_players,
                          spec.options], sort_keys=True)
        game = _CLUSTER_GAMES.get(key)
        if game is None:
            if len(_CLUSTER_GAMES) >= 16:  # a sweep of many variants: forget the oldest
                del _CLUSTER_GAMES[next(iter(_CLUSTER_GAMES))]
            game = _CLUSTER_GAMES[key] = build_game(source, spec.num_players, spec.options)
    else:
        game = source
    b, start, stop = block
    return b, play_block(game, spec, start, stop)


CONNECT_TIMEOUT = 15.0
"""Seconds to wait for a Dask scheduler before saying it cannot be reached."""


def scheduler_address(scheduler: str | None) -> str | None:
    """``--scheduler`` or else ``BONEYARD_SCHEDULER``; None runs on local processes."""
    address = scheduler if scheduler is not None else os.environ.get("BONEYARD_SCHEDULER")
    return address.strip() or None if address else None


def connect(address: str) -> Any:
    """A Dask client for ``address``, or one clear message saying why there is none."""
    try:
        from distributed import Client
    except ImportError:
        raise RulesError(
            f"--scheduler {address}: running on a cluster needs Dask "
            "(pip install 'boneyard[cluster]')"
        ) from None
    try:
        return Client(address, timeout=f"{CONNECT_TIMEOUT}s", set_as_default=False)  # type: ignore[no-untyped-call]
    except (OSError, TimeoutError, ValueError) as exc:
        raise RulesError(
            f"cannot reach the Dask scheduler at {address} ({exc}); start one with "
            f"`dask scheduler` and workers with `dask worker {address}`, or drop --scheduler"
        ) from None


def run_cluster(address: str, source: CardSet | Game, spec: RunSpec,
                 blocks: list[tuple[int, int, int]], take: Take) -> None:
    """The blocks as tasks on a Dask cluster; a task lost with its worker is rerun by Dask."""
    from distributed import as_completed

    client = connect(address)
    futures: list[Any] = []
    try:
        token = hashlib.sha256(os.urandom(16)).hexdigest()[:12]  # task names only, not results
        shared = client.scatter(source, broadcast=True, hash=False)
        futures = [client.submit(cluster_block, shared, spec, block, key=f"boneyard-{token}-{block[0]}",
                                 pure=False) for block in blocks]
        for fut in as_completed(futures, loop=client.loop):  # type: ignore[no-untyped-call]
            b, result = fut.result()
            fut.release()
            take(b, result)
    except BaseException:
        # closing the client releases the futures, and the scheduler drops their tasks; an
        # explicit cancel would only wait for the round trip
        futures.clear()
        raise
    finally:
        client.close(timeout=2)
