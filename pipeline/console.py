"""The rich console every command prints its tables with.

rich meets a closed pipe (``boneyard cards SET | head -1``) by exiting 1 in silence, deciding
for the whole CLI; its console here raises the ``BrokenPipeError`` instead, for the CLI's top
level to handle as it handles it from any other write (``pipeline/cli.py``).
"""

from __future__ import annotations

import errno
import os

from rich import console


class Console(console.Console):
    """``rich.console.Console`` that lets a closed pipe reach the CLI's top level."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))
