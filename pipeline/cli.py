"""The ``boneyard`` command line: one group, one module per command family.

Errors a designer can cause become one clear message each and a non-zero exit code (1 for bad
data or a failed gate, 2 for usage errors); no traceback ever reaches the terminal. Output piped
to a reader that stops early (``| head -1``) ends the command quietly with 141, as SIGPIPE would.
"""

from __future__ import annotations

import errno
import importlib
import io
import os
import re
import signal
import sys
import threading
from typing import Any

import click

from boneyard import __version__
from boneyard.errors import BoneyardError

# Each module defines click commands and a ``register(group)`` function that adds them.
COMMAND_MODULES: tuple[str, ...] = (
    "cmd_sim",
    "cmd_data",
    "cmd_scenario",
    "cmd_render",
    "cmd_build",
    "cmd_play",
    "cmd_sheets",
    "cmd_watch",
)


class PipeClosed(Exception):
    """Standard output was a pipe its reader closed (``boneyard simulate SET | head -1``).
    Raised in place of the ``BrokenPipeError`` so that it reaches ``main``: click would turn it
    into exit 1 in silence, which a script takes for a failure of the command itself."""


class _Group(click.Group):
    """The ``boneyard`` group: a closed pipe met by any command, or by its help, goes to ``main``."""

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except BrokenPipeError as exc:
            raise PipeClosed from exc

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError as exc:
            raise PipeClosed from exc


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="boneyard")
def cli() -> None:
    """Boneyard: validate card sets, playtest them by simulation, render them for print."""


try:
    for _name in COMMAND_MODULES:
        importlib.import_module(f"boneyard.pipeline.{_name}").register(cli)
except KeyboardInterrupt:  # Ctrl-C in the first second, before main() can say it: no traceback
    sys.stderr.write("Interrupted.\n")
    sys.exit(130)


class Terminated(BaseException):
    """SIGTERM (a CI timeout, ``kill``): raised so the work unwinds as after Ctrl-C, with
    temporary files removed and nothing half written, instead of the process just vanishing."""


def _terminated(signum: int, frame: Any) -> None:
    raise Terminated


class _ClosedStdout(io.TextIOBase):
    """Standard output when the process started with it closed (``>&-``): Python sets
    ``sys.stdout`` to None and click then drops every line in silence with exit 0, so a listing
    or a report would vanish; this makes the first write fail like any unwritable output."""

    def writable(self) -> bool:
        return True

    def write(self, s: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")


def main(argv: list[str] | None = None) -> None:
    """Entry point of the console script: run the CLI, turning Boneyard errors into messages."""
    if sys.stdout is None:
        sys.stdout = _ClosedStdout()
    on_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminated) if on_main else None
    try:
        _run(argv)
    finally:
        if on_main:
            signal.signal(signal.SIGTERM, previous)


_OS_FIXES = {
    errno.ENOSPC: "free some space, or write elsewhere",
    errno.EDQUOT: "free some space, or write elsewhere",
    errno.EMFILE: "raise the limit with `ulimit -n`, or use fewer --jobs",
    errno.EBADF: "run it with its output going to the terminal, a file or a pipe",
}
"""What to do about the OS errors whose fix is not in the path."""


def _run(argv: list[str] | None) -> None:
    try:
        cli.main(args=argv, prog_name="boneyard", standalone_mode=False)
        sys.stdout.flush()  # what is still buffered fails here, handled, rather than at exit
    except (PipeClosed, BrokenPipeError):  # `... | head`: the reader has what it wanted
        _quiet_stdout()
        sys.exit(128 + signal.SIGPIPE)  # what a shell reports of a program SIGPIPE stopped
    except click.exceptions.Abort:  # click's word for Ctrl-C (there are no prompts to abort)
        click.echo("Interrupted.", err=True)
        sys.exit(130)
    except click.ClickException as exc:  # usage errors: exit 2 (bad option, missing file)
        exc.show()
        sys.exit(exc.exit_code)
    except BoneyardError as exc:
        click.echo(str(exc), err=True)
        sys.exit(exc.exit_code)
    except OSError as exc:  # last line of defence: a path that cannot be read or written
        fix = _OS_FIXES.get(exc.errno or 0)
        if exc.filename is not None and exc.errno != errno.EMFILE:  # (EMFILE names any file)
            click.echo(f"{exc.filename}: {exc.strerror or exc} ({fix or 'check the path and its folder'})",
                       err=True)
        elif fix is not None:
            click.echo(f"{exc.strerror or exc} ({fix})", err=True)
        else:  # no file named: what was printed (a full disk, a pipe closed) could not be written
            click.echo(f"cannot write the output: {exc.strerror or exc} (standard output, or a "
                       "file it goes to)", err=True)
        sys.exit(1)
    except UnicodeDecodeError as exc:
        click.echo(f"a file given is not UTF-8 text ({exc.reason} at byte {exc.start})", err=True)
        sys.exit(1)
    except RuntimeError as exc:  # pathlib's resolve() of a path through links that loop
        looped = re.fullmatch(r"Symlink loop from '(.*)'", str(exc))
        if looped is None:
            raise
        click.echo(f"{looped[1]}: a symbolic link on this path leads back to itself (remove "
                   "the loop, or give another path)", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        click.echo("Interrupted.", err=True)
        _stopping(130)
    except Terminated:
        click.echo("Terminated.", err=True)
        _stopping(128 + signal.SIGTERM)
    sys.exit(0)


def _quiet_stdout() -> None:
    """Point standard output at the null device: the text still buffered for the closed pipe
    is dropped there, instead of failing again as Python flushes it at exit (which prints
    "Exception ignored ... BrokenPipeError" and exits 120)."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a file (a test's captured output)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


STOP_GRACE = 5.0
"""Seconds a stopped process may take to run its exit handlers before it leaves without them."""


def _stopping(code: int) -> None:
    """``sys.exit(code)`` after a stop, bounded: the work has unwound (temporary files gone,
    nothing half written), but an exit handler may still wait on a worker the same signal
    killed (a process pool's result pipe, left half written, is read for ever at exit), and a
    stop must stop."""
    sys.stderr.flush()
    timer = threading.Timer(STOP_GRACE, os._exit, (code,))
    timer.daemon = True
    timer.start()
    sys.exit(code)
