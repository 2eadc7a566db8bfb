"""Blocks as tasks on a Dask cluster (``--scheduler``); Dask is imported only here, when asked."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gc
import hashlib
import itertools
import json
import os
import socket
import sys
import threading
import urllib.parse
from collections.abc import Iterable, Iterator
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


CONNECT_TIMEOUT = 4.0
"""Seconds to wait for a Dask scheduler before saying it cannot be reached (the whole attempt,
check and handshake, stays within 5 s)."""

RETRIES = 2
"""Times a block lost with its worker is resubmitted before the run ends partial without it."""

WINDOW = 256
"""Blocks submitted ahead of the finished ones: enough for a big cluster, memory flat in n."""


ENV = "BONEYARD_SCHEDULER"


class Address(str):
    """A scheduler address read from ``BONEYARD_SCHEDULER`` (a plain ``str`` is one given as
    ``--scheduler``), so a message names where the designer wrote it."""

    from_env = True


def scheduler_address(scheduler: str | None) -> str | None:
    """``--scheduler`` or else ``BONEYARD_SCHEDULER`` (then an :class:`Address`, so messages
    name the variable); None runs on local processes."""
    if scheduler is not None:
        return scheduler.strip() or None
    address = os.environ.get(ENV, "").strip()
    return Address(address) if address else None


def _from_env(address: str) -> bool:
    return getattr(address, "from_env", False) is True


def _unreachable(address: str, why: str) -> RulesError:
    if _from_env(address):
        at, off = f"that {ENV} names, at {address}", f"unset {ENV} to run on this machine"
    elif address == os.environ.get(ENV, "").strip():  # a command that passes the variable on
        at, off = f"at {address}", f"unset {ENV} (and drop --scheduler if given)"
    else:
        at, off = f"at {address}", "drop --scheduler"
    return RulesError(
        f"cannot reach the Dask scheduler {at} ({why}); start one with `dask scheduler` and "
        f"workers with `dask worker tcp://HOST:8786`, or {off}"
    )


def _bad(address: str, what: str, fix: str = "; write tcp://HOST:PORT",
         env_fix: str = "set it to tcp://HOST:PORT") -> RulesError:
    """An address that cannot be used, named where it was given: ``BONEYARD_SCHEDULER=...``
    with ``env_fix`` or unsetting the variable, else as the option (or the variable) with ``fix``."""
    if _from_env(address):
        return RulesError(f"{ENV}={address}: {what}; {env_fix}, or unset {ENV} to run on this "
                          "machine")
    return RulesError(f"--scheduler (or {ENV}) {address}: {what}{fix}")


def parse_address(address: str) -> tuple[str, int]:
    """(host, port) of a ``tcp://HOST:PORT`` (or ``HOST:PORT``) address; one clear message for
    anything else, before any network wait."""
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme != "tcp":
        raise _bad(address, f"only tcp://HOST:PORT addresses are supported (got scheme '{scheme}')",
                   fix="")
    try:
        parts = urllib.parse.urlsplit(f"tcp://{rest}")
        host, port = parts.hostname, parts.port
    except ValueError as exc:
        raise _bad(address, f"not an address ({exc})") from None
    if not host or parts.path not in ("", "/") or parts.query or parts.fragment:
        raise _bad(address, "not an address")
    return host, 8786 if port is None else port


def connect(address: str) -> Any:
    """A Dask client for ``address``, or one clear message saying why there is none (within
    :data:`CONNECT_TIMEOUT`: a refused port or a host that does not answer is told at once)."""
    host, port = parse_address(address)
    try:
        socket.create_connection((host, port), timeout=CONNECT_TIMEOUT).close()
    except OSError as exc:
        raise _unreachable(address, exc.strerror or str(exc) or type(exc).__name__) from None
    try:
        from distributed import Client
    except ImportError:
        raise _bad(address, "running on a cluster needs Dask", fix=" (pip install 'boneyard[cluster]')",
                   env_fix="install Dask (pip install 'boneyard[cluster]')") from None
    target = f"tcp://{host}:{port}" if "://" not in address else str(address)
    made: list[Any] = []
    failed: list[str] = []

    def make() -> None:
        try:
            made.append(Client(target, timeout=f"{CONNECT_TIMEOUT}s",  # type: ignore[no-untyped-call]
                               set_as_default=False))
        except (OSError, TimeoutError) as exc:
            failed.append(str(exc) or type(exc).__name__)
        except Exception:  # its bytes read as a frame length: a MemoryError, a ValueError
            failed.append("what answers there does not speak Dask's protocol: is another "
                          "program listening on that port?")

    # Dask's own timeout does not cover a listener that answers in another protocol (an HTTP
    # server): the handshake then waits for ever, so the attempt has a deadline of its own.
    with _quiet_unraisable():
        thread = threading.Thread(target=make, name="boneyard-dask-connect", daemon=True)
        thread.start()
        thread.join(2 * CONNECT_TIMEOUT)
        if thread.is_alive():
            raise _unreachable(address, f"no Dask scheduler answered within {2 * CONNECT_TIMEOUT:g} s: "
                                        "is another program listening on that port?")
        if failed:
            raise _unreachable(address, failed[0])
    return made[0]


@contextlib.contextmanager
def _quiet_unraisable() -> Iterator[None]:
    """A Client that failed half-way closes itself when collected, and its close raises inside
    ``__del__``: Python would print that as a traceback after our one message."""
    hook = sys.unraisablehook
    sys.unraisablehook = lambda _: None
    try:
        yield
    finally:
        gc.collect()
        sys.unraisablehook = hook


def lost_kinds() -> tuple[type[BaseException], ...]:
    """What a task raises when its worker, not its game, failed: rerun it elsewhere."""
    kinds: list[type[BaseException]] = [concurrent.futures.CancelledError, asyncio.CancelledError,
                                         OSError, TimeoutError]
    try:
        from distributed.scheduler import KilledWorker

        kinds.append(KilledWorker)
    except ImportError:
        pass
    return tuple(kinds)


def run_cluster(address: str, source: CardSet | Game, spec: RunSpec,
                blocks: Iterable[tuple[int, int, int]], take: Take) -> list[int]:
    """The blocks as tasks on a Dask cluster, a window of them at a time.

    A task lost with its worker (a worker without a nanny killed, a cancelled future) is
    resubmitted :data:`RETRIES` times; a block still lost then is given up and its index
    returned, so the run ends partial with every finished block kept.
    """
    from distributed import as_completed

    client = connect(address)
    lost: list[int] = []
    try:
        token = hashlib.sha256(os.urandom(16)).hexdigest()[:12]  # task names only, not results
        shared = client.scatter(source, broadcast=True, hash=False)
        todo = iter(blocks)
        tries: dict[int, int] = {}
        by_future: dict[Any, tuple[int, int, int]] = {}

        def submit(block: tuple[int, int, int]) -> Any:
            n = tries[block[0]] = tries.get(block[0], -1) + 1
            fut = client.submit(cluster_block, shared, spec, block, pure=False,
                                key=f"boneyard-{token}-{block[0]}-{n}")
            by_future[fut] = block
            return fut

        pending = as_completed([submit(b) for b in itertools.islice(todo, WINDOW)],
                               loop=client.loop)  # type: ignore[no-untyped-call]
        for fut in pending:
            block = by_future.pop(fut)
            try:
                b, result = fut.result()
            except lost_kinds():  # the worker or the task was lost, not the game
                if getattr(shared, "status", "finished") != "finished":  # the card set went too
                    shared = client.scatter(source, broadcast=True, hash=False)
                if tries[block[0]] < RETRIES:
                    pending.add(submit(block))  # type: ignore[no-untyped-call]
                else:
                    lost.append(block[0])
                continue
            finally:
                fut.release()
            take(b, result)
            tries.pop(b, None)
            for nxt in itertools.islice(todo, 1):
                pending.add(submit(nxt))  # type: ignore[no-untyped-call]
    finally:
        # closing the client releases the futures, and the scheduler drops their tasks; an
        # explicit cancel would only wait for the round trip
        client.close(timeout=2)
    return lost
