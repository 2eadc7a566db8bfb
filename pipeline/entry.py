"""The console script's first code: Ctrl-C and SIGTERM answered from the first moment.

Importing the CLI (click, rich, every command's module) takes a few tenths of a second. A
Ctrl-C in that time printed a ``KeyboardInterrupt`` traceback from whichever import it hit, and
a SIGTERM killed the process without a word, where every command promises "Interrupted." and
130, "Terminated." and 143. So the script enters here: this module imports nothing heavy,
answers both signals at once while the CLI loads (nothing has been read or written yet, so
there is nothing to unwind), then hands them to the CLI, which handles them from then on.
"""

from __future__ import annotations

import os
import signal
from typing import Any

_SAID: dict[int, tuple[bytes, int]] = {signal.SIGINT: (b"Interrupted.\n", 130),
                                      signal.SIGTERM: (b"Terminated.\n", 143)}


def _stop_now(signum: int, frame: Any) -> None:
    text, code = _SAID[signum]
    os.write(2, text)
    os._exit(code)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``boneyard`` console script."""
    before = {s: signal.getsignal(s) for s in _SAID}
    for s, handler in before.items():
        if handler is not signal.SIG_IGN:  # a signal the caller ignores (nohup, &) stays so
            signal.signal(s, _stop_now)
    from boneyard.pipeline import cli

    for s, handler in before.items():  # the CLI's own handling from here (pipeline/cli.py)
        signal.signal(s, handler if handler is not None else signal.SIG_DFL)
    cli.main(argv)
