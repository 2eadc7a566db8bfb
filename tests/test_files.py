"""The one atomic writer (boneyard.files): a target is either its old content or the new, whole."""

from __future__ import annotations

import pytest

from boneyard.files import atomic_open, atomic_path, write_atomic


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
