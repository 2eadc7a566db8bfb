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


def test_a_broken_pipe_from_any_command_exits_quietly_with_sigpipes_status(failing_command, capsys):
    failing_command(BrokenPipeError(32, "Broken pipe"))
    with pytest.raises(SystemExit) as done:
        cli.main(["qa-fail"])
    assert done.value.code == 141  # 128 + SIGPIPE, as a shell reports `seq 1000000 | head -1`
    assert capsys.readouterr().err == ""


def _piped(args: list[str], cwd, lines: int = 0) -> tuple[int, str]:
    """Run the CLI with its output piped to a reader that takes ``lines`` lines and closes the
    pipe, like ``| head -1``; (exit code, standard error)."""
    import subprocess
    import sys

    script = "import sys; from boneyard.pipeline import cli; cli.main(sys.argv[1:])"
    proc = subprocess.Popen([sys.executable, "-c", script, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=cwd)
    for _ in range(lines):
        assert proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    proc.stderr.close()
    return proc.wait(timeout=60), err


@pytest.mark.parametrize("args", [
    ["simulate", "day-of-the-dead", "-n", "20", "--jobs", "1", "-q"],
    ["simulate", "day-of-the-dead", "-n", "20", "--jobs", "1", "-q", "--json", "-"],
    ["cards", "day-of-the-dead"],
    ["cards", "grave-feast", "--json"],
    ["validate", "--json", "day-of-the-dead"],
    ["replay", "games.jsonl"],
    ["simulate", "--help"],
])
def test_output_piped_to_a_reader_that_stops_early_ends_quietly(tmp_path, args):
    """``boneyard simulate SET | head -1`` exited 1 without a word (click's and rich's own
    handling of the closed pipe), as if the command had failed."""
    from boneyard.pipeline.cli import cli as group
    from click.testing import CliRunner

    if args[0] == "replay":
        log = tmp_path / "games.jsonl"
        made = CliRunner().invoke(group, ["simulate", "day-of-the-dead", "-n", "1", "--jobs", "1",
                                          "-q", "--log", str(log)])
        assert made.exit_code == 0, made.output
    assert _piped(args, tmp_path) == (141, "")


def test_a_reader_that_takes_the_first_line_stops_a_run_quietly(tmp_path):
    # the run's first line is printed before its games, the rest after them: into a closed pipe
    assert _piped(["simulate", "day-of-the-dead", "-n", "50", "--jobs", "1", "-q"], tmp_path,
                  lines=1) == (141, "")
