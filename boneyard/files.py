"""The one way Boneyard writes a file: to a temporary name beside it, renamed over it when whole.

A run that fails or is stopped halfway (an error, Ctrl-C, a full disk) never leaves half a
report, log or sheet over a good one: the target keeps its old content until the rename, and
the temporary file is deleted. Shared by the engine (simulation logs) and the pipeline (records,
reports, docs, PDFs and images), so it lives at the package root.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """A temporary path beside ``path`` for a writer that wants a file name (PDF, PNG): what
    it holds replaces ``path`` when the block ends normally, and is deleted otherwise."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; outputs are meant to be shared
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


@contextmanager
def atomic_open(path: str | Path) -> Iterator[IO[str]]:
    """A text file (UTF-8, "\\n" line ends) through :func:`atomic_path`, for content written
    piece by piece (a simulation log)."""
    with atomic_path(path) as tmp, open(tmp, "w", encoding="utf-8", newline="\n") as f:
        yield f


def write_atomic(path: str | Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8, or bytes) to ``path`` through :func:`atomic_path`."""
    if isinstance(data, bytes):
        with atomic_path(path) as tmp:
            tmp.write_bytes(data)
    else:
        with atomic_open(path) as f:
            f.write(data)
