"""Issue 18, files and templates: a folder swap killed at any instant, temporaries of killed runs,
a full disk, template values that passed validate but broke render, odd files where a template
or a card file should be. Each test injects its fault."""

from __future__ import annotations

import errno
import io
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest
from boneyard.pipeline import record as rec
from boneyard.pipeline.cli import cli, main
from boneyard.pipeline.render.template import MAX_EXTENDS, load_template
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from boneyard import files
from boneyard.errors import RenderError
from boneyard.files import atomic_dir, atomic_path, recover_dir, sweep, write_atomic
from boneyard.paths import CARDS

DEAD_PID = 2**22 + 12345  # above the default pid_max: no process has it


# --- the folder swap -------------------------------------------------------------------------


def _fill(folder: Path, label: str) -> None:
    for i in range(3):
        (folder / f"card-{i}.png").write_text(f"{label} {i}")


def _content(folder: Path) -> set[str]:
    return {p.read_text() for p in folder.iterdir()}


def test_a_folder_swap_replaces_the_folder_whole(tmp_path):
    target = tmp_path / "tts"
    with atomic_dir(target) as tmp:
        _fill(tmp, "old")
    with atomic_dir(target) as tmp:
        _fill(tmp, "new")
        assert _content(target) == {"old 0", "old 1", "old 2"}  # nothing visible while written
    assert _content(target) == {"new 0", "new 1", "new 2"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tts"]
    with pytest.raises(KeyboardInterrupt), atomic_dir(target) as tmp:
        _fill(tmp, "half")
        raise KeyboardInterrupt
    assert _content(target) == {"new 0", "new 1", "new 2"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tts"]


@pytest.mark.parametrize("exchange", [True, False])
@pytest.mark.parametrize("instant", range(4))
def test_a_swap_killed_at_any_instant_leaves_the_old_or_the_new_folder(tmp_path, monkeypatch,
                                                                        exchange, instant):
    """Kill the writer after its ``instant``-th file system step of the swap (fault injection),
    as SIGKILL would: nothing after it runs. Then a next run recovers."""
    target = tmp_path / "tts"
    target.mkdir()
    _fill(target, "old")
    steps: list[str] = []

    class Killed(BaseException):
        pass

    def step(name: str, real):
        def run(*args, **kw):
            if len(steps) == instant:
                raise Killed
            steps.append(name)
            return real(*args, **kw)
        return run

    if not exchange:
        monkeypatch.setattr(files, "exchange", lambda a, b: False)
    else:
        monkeypatch.setattr(files, "exchange", step("exchange", files.exchange))
    monkeypatch.setattr(files.os, "replace", step("replace", os.replace))
    monkeypatch.setattr(files, "_remove", step("remove", files._remove))
    monkeypatch.setattr(files.os, "getpid", lambda: DEAD_PID)  # the writer's pid, "dead" after
    try:
        with atomic_dir(target) as tmp:
            _fill(tmp, "new")
    except Killed:
        pass
    monkeypatch.undo()
    seen = _content(target) if target.exists() else None
    if exchange:  # one atomic step: the folder is there at every instant
        assert seen in ({"old 0", "old 1", "old 2"}, {"new 0", "new 1", "new 2"})
    recover_dir(target)  # the next run's first step
    assert _content(target) in ({"old 0", "old 1", "old 2"}, {"new 0", "new 1", "new 2"})
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tts"]


def test_a_real_kill_mid_swap_loop_never_loses_the_folder(tmp_path):
    """A child process swaps a folder in over and over; SIGKILL at a random moment, 8 times."""
    target = tmp_path / "png"
    script = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        from boneyard.files import atomic_dir
        target = Path({str(target)!r})
        n = 0
        while True:
            n += 1
            with atomic_dir(target) as tmp:
                for i in range(20):
                    (tmp / f"{{i}}.png").write_text(str(n))
            if n == 1:
                print("ready", flush=True)
    """)
    for k in range(8):
        proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE)
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"ready"
        time.sleep(0.01 * (k + 1))
        proc.kill()
        proc.wait()
        proc.stdout.close()
        assert target.is_dir() and len(list(target.iterdir())) == 20
        recover_dir(target)
        assert [p.name for p in tmp_path.iterdir()] == ["png"]


def _permissions_hold() -> bool:
    """Does a read-only folder stop this process? Not as root, who may write anywhere."""
    with tempfile.TemporaryDirectory() as folder:
        os.chmod(folder, 0o555)
        try:
            return not os.access(folder, os.W_OK)
        finally:
            os.chmod(folder, 0o755)


@pytest.fixture
def read_only(tmp_path):
    """Make folders read-only for one test; every folder of tmp_path is writable again after
    it (wherever a swap moved them), so tmp_path can be deleted."""
    yield lambda folder: os.chmod(folder, 0o555)
    for here, _, _ in os.walk(tmp_path):
        os.chmod(here, 0o755)


def _files(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): p.read_text() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.skipif(not _permissions_hold(), reason="permissions do not stop root")
@pytest.mark.parametrize("where", ["png-tgc", "png-tgc/backs", "while written"])
def test_an_old_folder_that_cannot_be_deleted_is_kept_whole_with_nothing_beside_it(
        tmp_path, read_only, where):
    """A read-only png-tgc (or a folder in it) was swapped out all the same, deleted as far as
    it would go, and left cut down and hidden beside the new one (.png-tgc.tmp-<pid>)."""
    target = tmp_path / "png-tgc"
    with atomic_dir(target) as tmp:
        _fill(tmp, "old")
        (tmp / "backs").mkdir()
        _fill(tmp / "backs", "old back")
    old = _files(target)
    if where != "while written":
        read_only(tmp_path / where)
    with pytest.raises(OSError) as err, atomic_dir(target) as tmp:
        _fill(tmp, "new")
        if where == "while written":
            read_only(target / "backs")  # said just before the swap
    who = "its folder backs" if where != "png-tgc" else "the folder"
    assert err.value.filename == str(target) and err.value.strerror == (
        f"{who} does not let its files be deleted, so the old content cannot be replaced (it is "
        f"left as it was: make it writable, e.g. chmod -R u+w {target}, or chattr -i if it is "
        "marked immutable)"), err.value
    assert _files(target) == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["png-tgc"]


# --- temporaries of killed runs, full disks --------------------------------------------------


def test_temporaries_of_killed_writers_are_cleaned_by_the_next_write(tmp_path):
    target = tmp_path / "report.json"
    dead = tmp_path / f".report.json.{DEAD_PID}.abc123.tmp"
    alive = tmp_path / f".report.json.{os.getppid()}.def456.tmp"  # a live writer's: kept
    dead_dir = tmp_path / f".tts.tmp-{DEAD_PID}"
    for p in (dead, alive):
        p.write_text("half")
    dead_dir.mkdir()
    write_atomic(target, "{}")
    assert not dead.exists() and alive.exists()
    with atomic_dir(tmp_path / "tts") as tmp:
        (tmp / "a").write_text("x")
    assert not dead_dir.exists()
    sweep(target)  # harmless when there is nothing to clean
    assert sorted(p.name for p in tmp_path.iterdir()) == [alive.name, "report.json", "tts"]


def test_a_full_disk_names_the_file(tmp_path):
    def full(*args, **kw):
        raise OSError(errno.ENOSPC, "No space left on device")

    target = tmp_path / "out" / "playtest.json"
    with pytest.raises(OSError) as err, atomic_path(target) as tmp:
        tmp.write_bytes(b"{")
        full()
    assert err.value.errno == errno.ENOSPC and err.value.filename == str(target)
    assert str(target) in str(err.value)
    assert list(target.parent.iterdir()) == []


def test_a_full_disk_names_the_target_not_its_temporary(tmp_path, monkeypatch):
    target = tmp_path / "games.jsonl"

    class Full(io.StringIO):
        def write(self, s):
            raise OSError(errno.ENOSPC, "No space left on device", str(tmp_path / ".games.jsonl.1.x.tmp"))

    with pytest.raises(OSError) as err, atomic_path(target):
        Full().write("x")
    assert err.value.filename == str(target)


# --- templates -------------------------------------------------------------------------------


BASE = """layouts:
  front:
    elements:
      - {name: bg, type: rect, box: bleed, fill: "#000000"}
"""


def _template(tmp_path: Path, element: str) -> Path:
    p = tmp_path / "template.yaml"
    p.write_text(BASE + f"      - {element}\n")
    return p


@pytest.mark.parametrize("element, said", [
    ("{name: t, type: text, x: 1, y: 1, w: 50, h: 20, text: x, size: .nan}", "not a number"),
    ("{name: t, type: text, x: 1, y: 1, w: 50, h: 20, text: x, size: .inf}", "not a number"),
    ("{name: r, type: rect, x: 1.0e+30, y: 1, w: 50, h: 20}", "x 1e+30 pt is out of range"),
    ("{name: r, type: rect, x: 1, y: 1, w: -5, h: 20}", "w -5 pt is out of range"),
    ("{name: r, type: rect, x: 1, y: 1, w: 50, h: 20, radius: -3}", "radius -3 pt is out of range"),
    ("{name: r, type: rect, x: 1, y: 1, w: 50, h: 20, stroke: '#ffffff', stroke_width: 1000000}",
     "stroke_width 1e+06 pt is out of range"),
    ("{name: r, type: rect, x: 1, y: 1, w: 1000000%, h: 20}", "w 1e+06% is out of range"),
    ("{name: t, type: text, x: 1, y: 1, w: 50, h: 20, text: '{power:>3000000}'}",
     "a width or precision of 3000000 is too large"),
    ("{name: t, type: text, x: 1, y: 1, w: 50, h: 20, text: '{power:.{n}f}'}", "inside a format spec"),
    ("{name: t, type: text, x: 1, y: 1, w: 50, h: 20, text: 'a {power'}", "bad braces"),
    ("{name: t, type: text, x: 1, y: 1, w: 50, h: 20, paragraphs: [{text: '{name:^999}'}]}",
     "paragraph 1: {name:^999}"),
])
def test_template_values_that_would_break_render_are_located_errors(tmp_path, element, said):
    path = _template(tmp_path, element)
    started = time.perf_counter()
    with pytest.raises(RenderError) as err:
        load_template(path)
    assert time.perf_counter() - started < 2
    msg = str(err.value)
    assert said in msg and f"{path}:5:" in msg, msg


def test_a_deep_extends_chain_is_one_located_error(tmp_path):
    lines = ["layouts:", "  l0:", "    elements:", "      - {name: bg, type: rect, box: bleed}"]
    for i in range(1, 3000):
        lines += [f"  l{i}:", f"    extends: l{i - 1}"]
    path = tmp_path / "template.yaml"
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(RenderError) as err:
        load_template(path)
    msg = str(err.value)
    assert f"more than {MAX_EXTENDS} layouts" in msg and f"{path}:" in msg
    assert "Recursion" not in msg


def test_a_chain_within_the_limit_resolves(tmp_path):
    lines = ["layouts:", "  l0:", "    elements:", "      - {name: bg, type: rect, box: bleed}"]
    for i in range(1, MAX_EXTENDS):
        lines += [f"  l{i}:", f"    extends: l{i - 1}"]
    path = tmp_path / "template.yaml"
    path.write_text("\n".join(lines) + "\n")
    assert load_template(path).layouts[f"l{MAX_EXTENDS - 1}"][0]["name"] == "bg"


@given(st.text(alphabet="{}:>.<^0123456789powerxn!s", max_size=24))
@settings(max_examples=200, deadline=None)
def test_any_text_either_loads_or_is_a_located_error(text):
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "template.yaml"
        path.write_text(BASE + "      - {name: t, type: text, x: 1, y: 1, w: 50, h: 20, text: "
                        + repr(text).replace("\\\\", "\\") + "}\n")
        try:
            load_template(path)
        except RenderError as exc:
            assert f"{path}:" in str(exc)


def _image_template(tmp_path: Path, picture: bytes) -> Path:
    (tmp_path / "logo.jpg").write_bytes(picture)
    return _template(tmp_path, "{name: logo, type: image, x: 1, y: 1, w: 50, h: 20, art: logo.jpg}")


def test_a_truncated_or_fake_template_image_is_refused_by_name(tmp_path):
    buf = io.BytesIO()
    Image.new("RGB", (400, 300), "red").save(buf, "JPEG")
    whole = buf.getvalue()
    load_template(_image_template(tmp_path, whole))  # a good one loads
    for picture in (whole[: len(whole) // 2], b"this is not a picture"):
        with pytest.raises(RenderError) as err:
            load_template(_image_template(tmp_path, picture))
        assert "'logo.jpg'" in str(err.value) and ":5:" in str(err.value), str(err.value)


@pytest.mark.parametrize("kind", ["fifo", "dir"])
def test_a_template_that_is_not_a_file_is_refused_not_replaced(tmp_path, kind, capsys):
    folder = tmp_path / "set"
    shutil.copytree(CARDS / "day-of-the-dead", folder)
    (folder / "template.yaml").unlink()
    if kind == "fifo":
        os.mkfifo(folder / "template.yaml")
    else:
        (folder / "template.yaml").mkdir()
    res = CliRunner().invoke(cli, ["validate", str(folder)])
    assert res.exit_code == 1 and "template.yaml: not a regular file" in res.output, res.output
    assert (folder / "template.yaml").exists()
    code, err = _main(["render", str(folder), "--format", "png", "--force", "--out",
                       str(tmp_path / "out")], capsys)
    assert code == 1 and "template.yaml: not a regular file" in err and "Traceback" not in err


def _main(args: list[str], capsys) -> tuple[int, str]:
    """The console script as a designer runs it: (exit code, stderr)."""
    with pytest.raises(SystemExit) as ex:
        main(args)
    return int(ex.value.code or 0), capsys.readouterr().err


@pytest.mark.parametrize("command", ["build", "render"])
def test_ctrl_c_in_build_and_render_exits_130(command, monkeypatch, capsys, tmp_path):
    from boneyard.pipeline import cmd_build, cmd_render

    def interrupted(*args, **kw):
        raise KeyboardInterrupt

    monkeypatch.setattr(cmd_build if command == "build" else cmd_render, "load_set", interrupted,
                        raising=False)
    import boneyard.pipeline.load as load

    monkeypatch.setattr(load, "load_set", interrupted)
    code, err = _main([command, "day-of-the-dead", "--out", str(tmp_path)], capsys)
    assert code == 130 and "Interrupted." in err


def test_a_full_disk_in_a_command_names_the_file(monkeypatch, capsys, tmp_path):
    real = os.replace

    def full(src, dst, *a, **kw):
        if str(dst).endswith("r.json"):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(src, dst, *a, **kw)

    monkeypatch.setattr(files.os, "replace", full)
    out = tmp_path / "r.json"
    code, err = _main(["simulate", "day-of-the-dead", "-n", "10", "--jobs", "1", "-q",
                       "--json", str(out)], capsys)
    assert code == 1 and f"{out}: No space left on device" in err, err
    assert list(tmp_path.iterdir()) == []


# --- odd inputs: NUL bytes, long paths, FIFOs, scenarios -------------------------------------

SCENARIO = Path(__file__).parent / "scenarios" / "rulebook-fight.yaml"


def test_a_nul_byte_in_a_card_file_is_located(tmp_path, capsys):
    folder = tmp_path / "set"
    shutil.copytree(CARDS / "day-of-the-dead", folder)
    raw = (folder / "characters.yaml").read_bytes()
    cut = raw.index(b"\n", 100) + 3
    (folder / "characters.yaml").write_bytes(raw[:cut] + b"\x00" + raw[cut:])
    line = raw[:cut].count(b"\n") + 1
    code, err = _main(["validate", str(folder)], capsys)
    assert code == 1 and "Traceback" not in err
    res = CliRunner().invoke(cli, ["validate", str(folder)])
    assert f"characters.yaml:{line}:3: character 0x0000 is not allowed" in res.output, res.output


@pytest.mark.parametrize("command", ["validate", "simulate", "render", "build"])
def test_a_5000_character_path_is_one_message(command, capsys, tmp_path):
    long = str(tmp_path / ("a" * 5000))
    code, err = _main([command, long], capsys)
    assert code in (1, 2) and "Traceback" not in err
    assert len([line for line in err.splitlines() if line.strip()]) == 1, err


def test_a_fifo_card_file_or_scenario_does_not_hang(tmp_path):
    fifo = tmp_path / "scenario.yaml"
    os.mkfifo(fifo)
    started = time.perf_counter()
    res = CliRunner().invoke(cli, ["scenario", str(fifo)])
    assert time.perf_counter() - started < 5
    assert res.exit_code == 1 and "scenario.yaml:1:1: not a regular file" in str(res.exception)
    folder = tmp_path / "set"
    shutil.copytree(CARDS / "day-of-the-dead", folder)
    (folder / "characters.yaml").unlink()
    os.mkfifo(folder / "characters.yaml")
    started = time.perf_counter()
    res = CliRunner().invoke(cli, ["validate", str(folder)])
    assert time.perf_counter() - started < 5
    assert res.exit_code == 1 and "card file 'characters.yaml'" in res.output, res.output


def _scenario(tmp_path: Path, old: str, new: str) -> tuple[Path, str]:
    text = SCENARIO.read_text()
    assert old in text
    path = tmp_path / "s.yaml"
    path.write_text(text.replace(old, new, 1))
    res = CliRunner().invoke(cli, ["scenario", str(path)])
    assert res.exit_code == 1
    return path, str(res.exception)


def test_scenario_errors_for_unknown_switches_and_cards_have_line_and_column(tmp_path):
    path, msg = _scenario(tmp_path, "turn: 1\n", "switches: {no_such: 3}\nturn: 1\n")
    line = path.read_text().splitlines().index("switches: {no_such: 3}") + 1
    assert msg.startswith(f"{path}:{line}:12: unknown switch 'no_such'"), msg
    path, msg = _scenario(tmp_path, "line: [oaf@double]", "line: [ogre@double]")
    line = next(i for i, t in enumerate(path.read_text().splitlines(), 1) if "ogre@double" in t)
    assert msg.startswith(f"{path}:{line}:12: ") and "no card 'ogre@double'" in msg, msg


def test_duplicate_invented_ids_in_a_scenario_are_reported(tmp_path):
    path, msg = _scenario(tmp_path, "{id: nemesis, name: Nemesis", "{id: oaf, name: Nemesis")
    assert msg == (f"{path}:10:10: invented card id 'oaf' is used twice (first at line 8); "
                   "give each card its own id"), msg


@pytest.mark.parametrize("element, said", [
    ("{name: t, type: text, x: 1, y: 1, w: 50, h: 20, text: '" + "x" * 5000 + "'}",
     "text is too long (5000 characters, at most 4000)"),
    ("{name: t, type: text, x: 1, y: 1, w: 50, h: 20, paragraphs: [" + "{text: a}, " * 60 + "]}",
     "paragraphs must list at most 50 items, got 60 (remove 10)"),
])
def test_template_sizes_have_schema_limits(tmp_path, element, said):
    with pytest.raises(RenderError) as err:
        load_template(_template(tmp_path, element))
    assert f"{tmp_path / 'template.yaml'}:5:" in str(err.value) and said in str(err.value)


def _cli_run(args: list[str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """The CLI in a process of its own, so that a hang fails the test instead of the run."""
    return subprocess.run([sys.executable, "-c", "from boneyard.pipeline.cli import main; main()",
                           *args], capture_output=True, text=True, timeout=timeout)


@pytest.mark.parametrize("kind", ["fifo", "zero"])
def test_a_playtest_record_that_is_no_file_is_refused_not_read_for_ever(tmp_path, kind):
    """The output folder may come from elsewhere (a synced folder, a CI artifact): a FIFO named
    playtest.json hung render and build, and a link to /dev/zero filled memory."""
    record = tmp_path / "out" / "day-of-the-dead" / "playtest.json"
    record.parent.mkdir(parents=True)
    if kind == "fifo":
        os.mkfifo(record)
    else:
        record.symlink_to("/dev/zero")
    res = _cli_run(["render", "day-of-the-dead", "--format", "pdf", "--out", str(tmp_path / "out")])
    assert res.returncode == 1 and "Traceback" not in res.stderr, res.stderr
    assert "its playtest record is damaged (not a regular file" in res.stderr, res.stderr
    res = _cli_run(["build", "day-of-the-dead", "--fast", "--no-render", "--out",
                    str(tmp_path / "out")])  # it played every game, then waited on the FIFO
    assert res.returncode == 1 and res.stderr == (
        f"{record}: not a regular file, where the build keeps its playtest record (remove it, "
        "or choose another --out)\n"), res.stderr


@pytest.mark.parametrize("kind", ["FIFO", "folder", "device"])
def test_a_record_key_that_is_no_file_is_refused_at_once(tmp_path, monkeypatch, kind):
    """BONEYARD_RECORD_KEY naming a FIFO waited for a writer for ever, once every game was
    played; a folder was passed over for another key in silence (records signed with it no
    longer matched), and a device was read as an empty key and replaced."""
    key = tmp_path / "record.key"
    if kind == "FIFO":
        os.mkfifo(key)
    elif kind == "folder":
        key.mkdir()
    else:
        key.symlink_to(os.devnull)
    monkeypatch.setenv(rec.KEY_ENV, str(key))
    res = _cli_run(["build", "day-of-the-dead", "--fast", "--no-render", "--out",
                    str(tmp_path / "out")], timeout=20)
    assert res.returncode == 1 and res.stderr == (
        f"{key}: a {kind}, where BONEYARD_RECORD_KEY names the key that signs playtest records "
        "(point it at a file, or at a free path for a new key)\n"), res.stderr
    assert not (tmp_path / "out").exists()  # said before any game
    assert {"FIFO": key.is_fifo, "folder": key.is_dir, "device": key.is_symlink}[kind]()


@pytest.mark.parametrize("kind", ["fifo", "zero", "huge"])
def test_an_icc_profile_that_is_no_profile_file_is_one_line(tmp_path, kind):
    """--icc read any path whole: /dev/zero was killed for memory, a FIFO waited for ever."""
    icc = tmp_path / "press.icc"
    if kind == "fifo":
        os.mkfifo(icc)
    elif kind == "zero":
        icc = Path("/dev/zero")
    else:
        with icc.open("wb") as f:
            f.truncate(40 * 1024 * 1024)  # sparse: 40 MiB on paper, nothing on disk
    res = _cli_run(["render", "day-of-the-dead", "--force", "--format", "shop", "--cmyk",
                    "--icc", str(icc), "--out", str(tmp_path / "out")])
    assert res.returncode == 1 and "Traceback" not in res.stderr, res.stderr
    said = "40 MiB, larger than any ICC profile" if kind == "huge" else "not a regular file"
    assert f"{icc}: not a readable ICC profile ({said}" in res.stderr, res.stderr


def test_a_second_run_writing_the_same_output_folder_waits_for_the_first(tmp_path):
    """Two renders of one set at once (a build while another renders, two CI jobs sharing the
    folder) left the PDF of one content beside the images of the other, both exit 0."""
    folder = tmp_path / "out" / "day-of-the-dead"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time; from boneyard.files import folder_lock\n"
         f"with folder_lock({str(folder)!r}):\n    print('held', flush=True); time.sleep(2)\n"],
        stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
    began = time.monotonic()
    notes: list[str] = []
    with files.folder_lock(folder, notes.append):
        assert time.monotonic() - began > 1.5  # it went on only once the other let go
    holder.communicate()
    assert notes == [f"waiting for the other boneyard run (pid {holder.pid}) writing "
                     f"{folder.resolve()}"]
    with files.folder_lock(folder, notes.append), files.folder_lock(folder, notes.append):
        pass  # a build renders inside its own lock: no wait on itself
    assert len(notes) == 1 and not folder.exists()


@pytest.mark.parametrize("args", [
    ["simulate", "day-of-the-dead", "-n", "4", "--jobs", "1", "-q", "--json", "{loop}/x.json"],
    ["render", "day-of-the-dead", "--force", "--format", "proof", "--out", "{loop}"],
])
def test_an_output_path_through_a_link_loop_is_one_message(args, tmp_path, capsys):
    """pathlib's "RuntimeError: Symlink loop from ..." reached the designer as a traceback."""
    (tmp_path / "b").symlink_to("a")
    (tmp_path / "a").symlink_to("b")
    code, err = _main([a.format(loop=tmp_path / "a") for a in args], capsys)
    assert code == 1 and "Traceback" not in err
    assert err.strip().endswith(": a symbolic link on this path leads back to itself (remove "
                                "the loop, or give another path)"), err
    assert str(tmp_path / "a") in err


def test_a_terminal_a_few_columns_wide_still_gets_its_tables(monkeypatch):
    """rich cannot lay a table out in 6 columns ("AssertionError: Sum of ratios must be > 0")."""
    monkeypatch.setenv("COLUMNS", "6")
    result = CliRunner().invoke(cli, ["validate", "day-of-the-dead"])
    assert result.exit_code == 0, result.output
    assert "ok: Day of the Dead is valid" in result.output


@pytest.mark.parametrize("signame, code, said", [("SIGINT", 130, "Interrupted."),
                                                 ("SIGTERM", 143, "Terminated.")])
def test_a_signal_while_the_command_line_tool_starts_is_answered_in_its_words(signame, code, said):
    """Ctrl-C while the CLI's modules loaded printed a KeyboardInterrupt traceback from an
    import, and SIGTERM then killed the process without a word. The console script itself,
    signalled at several moments of its first second (run as the console script runs it: the
    entry pyproject.toml names)."""
    import signal

    script = [sys.executable, "-c", "import sys; from boneyard.pipeline.entry import main; "
              "sys.exit(main())"]
    whole = subprocess.run([*script, "cards", "day-of-the-dead"], capture_output=True, text=True,
                           timeout=60).stdout
    signum = getattr(signal, signame)
    for delay in (0.12, 0.2, 0.3, 0.45):  # (before 0.1 s the interpreter itself may be starting)
        proc = subprocess.Popen([*script, "cards", "day-of-the-dead"], stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True,
                                preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        time.sleep(delay)
        proc.send_signal(signum)
        out, err = proc.communicate(timeout=60)
        assert "Traceback" not in err, (delay, err)
        if out == whole and proc.returncode in (0, -signum):
            continue  # the listing was done: the signal came as Python shut down, which it obeys
        assert proc.returncode == code and err.strip().endswith(said), (delay, proc.returncode, err)


@pytest.mark.parametrize("command", ["render", "build"])
def test_a_dangling_link_for_the_output_folder_is_named_as_one(command, tmp_path, capsys):
    """It was "is a file" (build) and "cannot create the output folder: File exists" (render)."""
    (tmp_path / "day-of-the-dead").symlink_to(tmp_path / "gone" / "place")
    args = ["--force", "--format", "proof"] if command == "render" else ["--fast"]
    code, err = _main([command, "day-of-the-dead", *args, "--out", str(tmp_path)], capsys)
    assert code == 1 and "Traceback" not in err
    assert f"{tmp_path}/day-of-the-dead: is a link to {tmp_path}/gone/place, which does not " \
        "exist" in err, err
    assert "(remove the link, or make what it names; or choose another --out)" in err
