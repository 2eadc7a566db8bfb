"""The one atomic writer (boneyard.files): a target is either its old content or the new, whole."""

from __future__ import annotations

import pytest

from boneyard.files import atomic_dir, atomic_open, atomic_path, write_atomic


def test_write_atomic_writes_text_and_bytes_whole(tmp_path):
    write_atomic(tmp_path / "deep" / "a.md", "één\nline\n")
    assert (tmp_path / "deep" / "a.md").read_bytes() == "één\nline\n".encode()
    write_atomic(tmp_path / "b.bin", b"\x00\x01")
    assert (tmp_path / "b.bin").read_bytes() == b"\x00\x01"
    assert (tmp_path / "b.bin").stat().st_mode & 0o777 == 0o644  # shared outputs, not mkstemp's 0600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.bin", "deep"]  # no temporary left


def test_a_failed_write_keeps_the_old_file_and_leaves_no_temporary(tmp_path):
    target = tmp_path / "games.jsonl"
    target.write_text("old\n")
    with pytest.raises(KeyboardInterrupt), atomic_open(target) as f:
        f.write("half a log")
        assert target.read_text() == "old\n"  # nothing visible while it is written
        raise KeyboardInterrupt
    assert target.read_text() == "old\n"
    with pytest.raises(OSError), atomic_path(tmp_path / "sheet.pdf") as tmp:
        tmp.write_bytes(b"%PDF-")
        raise OSError("disk full")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["games.jsonl"]


def test_a_symlinked_output_is_written_through(tmp_path):
    real = tmp_path / "real.json"
    real.write_text("old", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    write_atomic(link, "new")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "new"


def test_a_pipe_is_written_in_place_not_replaced(tmp_path):
    import os
    import threading

    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    write_atomic(fifo, "through the pipe")
    reader.join(timeout=10)
    assert got == [b"through the pipe"]
    assert fifo.is_fifo()  # still a pipe, not a regular file put in its place


def test_a_full_device_is_an_error_naming_it():
    import errno
    from pathlib import Path

    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    with pytest.raises(OSError) as err:
        write_atomic("/dev/full", "x" * 100_000)
    assert err.value.errno == errno.ENOSPC
    assert Path("/dev/full").is_char_device()


def test_a_folder_write_that_fails_names_the_folder_not_its_temporary_stand_in(tmp_path):
    """A full disk while the Tabletop Simulator sheets are written says tts/deck.json (or tts
    itself when the error names no file), never .tts.tmp-PID/deck.json."""
    import errno

    target = tmp_path / "tts"
    with pytest.raises(OSError) as err, atomic_dir(target) as tmp:
        raise OSError(errno.ENOSPC, "No space left on device", str(tmp / "deck.json"))
    assert err.value.filename == str(target / "deck.json") and err.value.errno == errno.ENOSPC
    with pytest.raises(OSError) as err, atomic_dir(target):
        raise OSError(errno.ENOSPC, "No space left on device")  # Pillow names no file
    assert err.value.filename == str(target)
    assert list(tmp_path.iterdir()) == []  # nothing half-written is left


def test_a_stop_while_the_old_folder_is_deleted_leaves_no_copy_of_it(tmp_path, monkeypatch):
    """SIGTERM while the replaced folder was deleted left ``.png.tmp-<pid>/`` with the old
    images beside the new folder."""
    from boneyard import files

    target = tmp_path / "png"
    target.mkdir()
    (target / "old.png").write_bytes(b"old")
    real = files._remove
    stops = []

    def stopped_once(path):
        if not stops and path.name.startswith(".png.") and (path / "old.png").exists():
            stops.append(path)
            raise KeyboardInterrupt
        real(path)

    monkeypatch.setattr(files, "_remove", stopped_once)
    with pytest.raises(KeyboardInterrupt), atomic_dir(target) as tmp:
        (tmp / "new.png").write_bytes(b"new")
    assert stops, "the old folder was never deleted"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["png"]
    assert [p.name for p in target.iterdir()] == ["new.png"]


def test_a_file_where_the_locks_go_does_not_stop_the_work(tmp_path, monkeypatch):
    """A file at ``$TMPDIR/boneyard-locks-<uid>`` failed every render with "File exists",
    though the output folder was writable: the lock only orders two runs."""
    import os
    import tempfile

    from boneyard.files import folder_lock

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    (tmp_path / f"boneyard-locks-{os.getuid()}").write_text("not a folder")
    ran = []
    with folder_lock(tmp_path / "out"):
        ran.append(True)
    assert ran == [True]
