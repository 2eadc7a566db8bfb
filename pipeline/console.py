"""The rich console every command prints its tables with.

rich meets a closed pipe (``boneyard cards SET | head -1``) by exiting 1 in silence, deciding
for the whole CLI; its console here raises the ``BrokenPipeError`` instead, for the CLI's top
level to handle as it handles it from any other write (``pipeline/cli.py``).
"""

from __future__ import annotations

import errno
import os
from typing import Any

from rich import console

MIN_WIDTH = 40
"""Columns below which tables are laid out as if the terminal were this wide (rich cannot lay
a table out in 6 columns: it fails, rather than wrapping)."""


class Console(console.Console):
    """``rich.console.Console`` that lets a closed pipe reach the CLI's top level, and never
    lays out narrower than :data:`MIN_WIDTH` (``COLUMNS=6``, a split pane)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.width < MIN_WIDTH:
            self.width = MIN_WIDTH

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError(errno.EPIPE, os.strerror(errno.EPIPE))
