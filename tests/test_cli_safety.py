"""The CLI's last line of defence: file-system and decoding errors from any command become one
message and exit 1, never a traceback (commands should still report them in their own words)."""

from __future__ import annotations

import pytest
from boneyard.pipeline import cli


@pytest.fixture
def failing_command(monkeypatch):
    """A throwaway command that raises what a careless write or read would."""
    import click

    def add(exc: BaseException) -> None:
        @click.command("qa-fail")
        def fail() -> None:
            raise exc

        monkeypatch.setitem(cli.cli.commands, "qa-fail", fail)

    return add


@pytest.mark.parametrize("exc, message", [
    (FileNotFoundError(2, "No such file or directory", "/nowhere/report.json"),
     "/nowhere/report.json: No such file or directory (check the path and its folder)"),
    (NotADirectoryError(20, "Not a directory", "a-file/sub"), "a-file/sub: Not a directory"),
    (OSError(5, "Input/output error"),  # printing to a broken terminal: no file is named
     "cannot write the output: Input/output error (standard output, or a file it goes to)"),
    (OSError(28, "No space left on device"),
     "No space left on device (free some space, or write elsewhere)"),
    (OSError(28, "No space left on device", "out/cards.pdf"),
     "out/cards.pdf: No space left on device (free some space, or write elsewhere)"),
    (OSError(24, "Too many open files", "/usr/lib/python3/multiprocessing/synchronize.py"),
     "Too many open files (raise the limit with `ulimit -n`, or use fewer --jobs)"),
    (UnicodeDecodeError("utf-8", b"\xac", 0, 1, "invalid start byte"),
     "a file given is not UTF-8 text (invalid start byte at byte 0)"),
])
def test_os_and_decoding_errors_are_messages_not_tracebacks(failing_command, capsys, exc, message):
    failing_command(exc)
    with pytest.raises(SystemExit) as done:
        cli.main(["qa-fail"])
    err = capsys.readouterr().err
    assert done.value.code == 1
    assert message in err and "Traceback" not in err


def test_closed_standard_output_is_an_error_not_a_silent_success(tmp_path):
    """``boneyard cards SET >&-`` printed nothing and exited 0: a script that closed its output
    by mistake took the empty listing for a success."""
    import os
    import subprocess
    import sys

    script = "import sys; from boneyard.pipeline import cli; cli.main(sys.argv[1:])"
    proc = subprocess.run([sys.executable, "-c", script, "cards", "day-of-the-dead"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                          preexec_fn=lambda: os.close(1))
    assert proc.returncode == 1
    assert proc.stderr.strip() == ("standard output is closed (run it with its output going to the "
                                   "terminal, a file or a pipe)")
