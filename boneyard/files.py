"""The one way Boneyard writes a file: to a temporary name beside it, renamed over it when whole
(and, at the end, the file names a set may use so that it travels to Windows and print shops).

A run that fails or is stopped halfway (an error, Ctrl-C, a full disk) never leaves half a
report, log or sheet over a good one: the target keeps its old content until the rename, and
the temporary file is deleted. Shared by the engine (simulation logs) and the pipeline (records,
reports, docs, PDFs and images), so it lives at the package root.

A run killed outright (SIGKILL, a power cut) cannot delete its temporary files, so their names
carry the writer's process id and the next write beside them removes those whose process is
gone. Folders (card images, Tabletop Simulator sheets) are swapped in with one atomic exchange
where the system has it (Linux ``renameat2``), so the folder is the old or the new one at every
instant; elsewhere by two renames, and a folder lost between them is restored by the next run.
An old folder that could not be deleted whole (a read-only one) is refused before anything is
written, and kept as it was: deleted after the swap, it was left cut down and hidden.
Errors name the target file, not its temporary stand-in. A symbolic link is written through
(the link stays, the file it names is replaced); a device or a pipe (``--json /dev/stdout``, a
FIFO) is written in place, never replaced by a regular file.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import glob
import hashlib
import os
import shutil
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

STALE_SECONDS = 3600.0
"""A temporary file without a process id (older versions) is stale after this long."""


def alive(pid: int) -> bool:
    """Is process ``pid`` running (another user's counts)? What a killed writer left, named by
    its process id, is swept only once that process is gone."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return True


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path, ignore_errors=True)
    else:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


def _pid_in(name: str, prefix: str) -> int | None:
    head = name[len(prefix):].split(".", 1)[0]
    return int(head) if head.isdigit() else None


def sweep(target: Path) -> None:
    """Remove the temporary files beside ``target`` left by writers that were killed."""
    prefix = f".{target.name}."
    try:
        leftovers = glob.glob(glob.escape(str(target.parent / prefix)) + "*.tmp")
    except OSError:
        return
    for name in leftovers:
        path = Path(name)
        pid = _pid_in(path.name, prefix)
        try:
            stale = not alive(pid) if pid is not None else \
                time.time() - path.lstat().st_mtime > STALE_SECONDS
        except OSError:
            continue
        if stale:
            _remove(path)


def _named(exc: OSError, target: Path) -> OSError:
    """``exc`` naming ``target`` (a full disk says which file could not be written)."""
    if exc.filename not in (None, "") and Path(str(exc.filename)).name.startswith(f".{target.name}."):
        exc.filename = None  # the temporary name means nothing to the reader
    if exc.filename is None and exc.errno is not None:
        named = type(exc)(exc.errno, exc.strerror or os.strerror(exc.errno), str(target))
        return named
    return exc


_WHY = {errno.EACCES: "does not let you make files in it",
        errno.EPERM: "does not let you make files in it",
        errno.EROFS: "is on a read-only file system", errno.ENOSPC: "is on a full disk",
        errno.ENOENT: "takes no new files"}  # /proc, /sys: the folder exists, new files do not


def unwritable(path: str | Path) -> str | None:
    """Why :func:`atomic_path` could not write ``path``, or None: asked before the work that
    makes its content (a long simulation), so a bad name costs nothing. A temporary file is
    made and removed where the real one would be (the nearest existing folder, when the
    missing ones are to be made), so the answer is the file system's, not a guess."""
    target = Path(path)
    if target.exists() and not target.is_file() and not target.is_dir():
        return None  # a device or a pipe: written in place
    if target.is_symlink():
        target = target.resolve()
    if target.is_dir():
        return f"{target} is a folder"
    folder = target.parent
    while not os.path.lexists(folder) and folder != folder.parent:
        folder = folder.parent
    if not folder.is_dir():
        return f"{folder} is {'a file' if folder.exists() else 'a broken link'}, not a folder"
    try:
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp",
                                    dir=folder)
    except OSError as exc:
        why = _WHY.get(exc.errno or 0) or f"takes no new file ({exc.strerror or exc})"
        return f"the folder {folder} {why}"
    os.close(fd)
    os.unlink(name)
    return None


@contextmanager
def atomic_path(path: str | Path, *, through_links: bool = True) -> Iterator[Path]:
    """A temporary path beside ``path`` for a writer that wants a file name (PDF, PNG): what
    it holds replaces ``path`` when the block ends normally, and is deleted otherwise.
    ``through_links=False`` replaces a symbolic link at ``path`` itself (renamed over it, so the
    link or the new file is there at every instant) instead of what it names: an output that
    must never write into a file it did not make."""
    target = Path(path)
    if target.exists() and not target.is_file() and not target.is_dir():
        yield target  # a device or a pipe (/dev/stdout, a FIFO): written in place, as a shell redirect would
        return
    if target.is_symlink() and through_links:
        target = target.resolve()  # write through a link: the link stays, what it names is replaced
    target.parent.mkdir(parents=True, exist_ok=True)
    sweep(target)
    try:
        fd, name = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp",
                                    dir=target.parent)
    except OSError as exc:
        raise _named(exc, target) from None
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        os.chmod(tmp, 0o644)  # mkstemp makes 0600; outputs are meant to be shared
        os.replace(tmp, target)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        named = _named(exc, target)
        if named is exc:
            raise
        raise named from None
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


# --- folders -------------------------------------------------------------------------------

_AT_FDCWD = -100
_RENAME_EXCHANGE = 2


def exchange(a: Path, b: Path) -> bool:
    """Swap two paths in one atomic step (Linux ``renameat2``); False where it is not offered."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        fn = libc.renameat2
    except (OSError, AttributeError):
        return False
    if fn(_AT_FDCWD, os.fsencode(str(a)), _AT_FDCWD, os.fsencode(str(b)), _RENAME_EXCHANGE) == 0:
        return True
    err = ctypes.get_errno()
    if err in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP, errno.ENOTSUP):
        return False  # the file system cannot: two renames instead
    raise OSError(err, os.strerror(err), str(b))


def _dir_leftovers(target: Path) -> dict[str, dict[int, Path]]:
    found: dict[str, dict[int, Path]] = {"tmp": {}, "old": {}}
    for kind in found:
        prefix = f".{target.name}.{kind}-"
        for name in glob.glob(glob.escape(str(target.parent / prefix)) + "*"):
            pid = _pid_in(Path(name).name, prefix)
            if pid is not None:
                found[kind][pid] = Path(name)
    return found


def recover_dir(target: Path) -> None:
    """Undo what a killed folder swap left: a target lost between the two renames comes back
    from its old copy, and the temporary and old folders of dead writers are removed."""
    left = _dir_leftovers(target)
    for pid, old in sorted(left["old"].items()):
        if alive(pid):
            continue
        if not os.path.lexists(target):
            os.replace(old, target)
        else:
            _remove(old)
    for pid, tmp in left["tmp"].items():
        if not alive(pid):
            _remove(tmp)


def _named_in(exc: OSError, tmp: Path, target: Path) -> OSError:
    """``exc`` naming the file of ``target`` it was about, not its place in the temporary
    folder ``tmp`` (``tts/deck.json``, not ``.tts.tmp-4242/deck.json``); the folder itself when
    it names no file (a full disk while an image is encoded)."""
    if exc.errno is None:
        return exc
    if exc.filename in (None, ""):
        where = target
    else:
        try:
            rel = Path(str(exc.filename)).relative_to(tmp)
        except ValueError:
            return exc
        where = target / rel
    return type(exc)(exc.errno, exc.strerror or os.strerror(exc.errno), str(where))


def _undeletable(folder: Path) -> Path | None:
    """The first folder of ``folder`` (itself included) whose files cannot be deleted, or None.
    Deleting stops at such a folder (a read-only ``png-tgc``, or one inside it), and a swap
    made before that was known left the old folder, cut down, hidden beside the new one."""
    if folder.is_symlink() or not folder.is_dir():
        return None  # a link or a file: one unlink in its parent
    todo = [folder]
    while todo:
        here = todo.pop()
        if not os.access(here, os.R_OK | os.W_OK | os.X_OK):
            return here
        try:
            with os.scandir(here) as entries:
                todo.extend(Path(e.path) for e in entries if e.is_dir(follow_symlinks=False))
        except FileNotFoundError:
            continue  # gone meanwhile
        except OSError:
            return here
    return None


def _check_replaceable(target: Path) -> None:
    """Raise an OSError naming ``target`` if its old folder could not be deleted whole once
    replaced: said before the new one is written, and again just before the swap."""
    stuck = _undeletable(target)
    if stuck is None:
        return
    who = "the folder" if stuck == target else f"its folder {stuck.relative_to(target)}"
    try:
        read_only = bool(os.statvfs(stuck).f_flag & os.ST_RDONLY)
    except OSError:
        read_only = False
    if read_only:  # no chmod helps: the disk itself refuses writes
        raise OSError(errno.EROFS, f"{who} is on a read-only file system, so the old content "
                                   "cannot be replaced (it is left as it was: write elsewhere "
                                   "with --out, or mount it read-write)", str(target))
    raise OSError(errno.EACCES, f"{who} does not let its files be deleted, so the old content "
                                f"cannot be replaced (it is left as it was: make it writable, "
                                f"e.g. chmod -R u+w {target}, or chattr -i if it is marked "
                                "immutable)", str(target))


def _remove_old(old: Path) -> None:
    """Delete the replaced folder; a stop (Ctrl-C, SIGTERM) while it is deleted finishes the
    deletion first: the new folder is in place, and the old one must not be left beside it."""
    try:
        _remove(old)
    except BaseException:
        _remove(old)
        raise


@contextmanager
def atomic_dir(path: str | Path) -> Iterator[Path]:
    """A temporary folder next to ``path`` that replaces it only when fully written; at no
    instant is there neither the old nor the new folder (see the module docstring). An old
    folder that cannot be deleted whole is refused (OSError) and kept, with nothing left
    beside it."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    recover_dir(target)
    _check_replaceable(target)
    tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}")
    _remove(tmp)
    try:
        tmp.mkdir(parents=True)
    except OSError as exc:
        raise _named_in(exc, tmp, target) from None
    try:
        yield tmp
    except OSError as exc:
        _remove(tmp)
        named = _named_in(exc, tmp, target)
        if named is exc:
            raise
        raise named from None
    except BaseException:
        _remove(tmp)
        raise
    if os.path.lexists(target):
        try:
            _check_replaceable(target)  # (made read-only while the new one was written)
        except OSError:
            _remove(tmp)
            raise
        if exchange(tmp, target):
            _remove_old(tmp)  # now the old folder
            return
        old = target.with_name(f".{target.name}.old-{os.getpid()}")
        _remove(old)
        os.replace(target, old)
        os.replace(tmp, target)
        _remove_old(old)
    else:
        os.replace(tmp, target)


# --- names that travel ------------------------------------------------------------------------

WINDOWS_DEVICES = frozenset({"CON", "PRN", "AUX", "NUL", *(f"COM{i}" for i in range(1, 10)),
                             *(f"LPT{i}" for i in range(1, 10))})
"""Device names Windows reserves, with or without an extension (``con``, ``nul.txt``)."""

_WINDOWS_FORBIDDEN = frozenset('<>:"|?*')


def windows_trouble(name: str) -> str | None:
    """Why a file or folder called ``name`` cannot exist on Windows, or None. A set is shared,
    zipped for a print shop and checked out on other machines: a name Linux allows but Windows
    refuses breaks the set there, far from the designer who chose it."""
    if name.split(".")[0].rstrip(" ").upper() in WINDOWS_DEVICES:
        return "Windows reserves it for a device"
    bad = sorted({c for c in name if c in _WINDOWS_FORBIDDEN or ord(c) < 32})
    if bad:
        return f"Windows does not allow {' '.join(repr(c) for c in bad)} in a file name"
    if name != name.rstrip(" ."):
        return "Windows drops a trailing space or '.' from a file name"
    return None


# --- reading what came from elsewhere ----------------------------------------------------------


def read_bounded(path: str | Path, limit: int, what: str) -> bytes:
    """The bytes of the regular file ``path``, at most ``limit`` of them; OSError naming the
    file otherwise. An output folder or an option may point anywhere (a synced folder, a CI
    artifact, a typo): a FIFO there blocked the reader for ever, and /dev/zero filled memory."""
    p = Path(path)
    st = p.stat()  # follows a symbolic link: what it names is what is read
    if not stat.S_ISREG(st.st_mode):
        raise OSError(errno.EINVAL, f"not a regular file (give the {what} itself)", str(p))
    if st.st_size > limit:
        raise OSError(errno.EFBIG, f"{st.st_size // (1024 * 1024)} MiB, larger than any {what} "
                                   f"({limit // (1024 * 1024)} MiB at most)", str(p))
    with p.open("rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:  # it grew while read
        raise OSError(errno.EFBIG, f"larger than any {what}", str(p))
    return data


# --- one writer a folder ------------------------------------------------------------------------

_HELD: dict[str, int] = {}
"""The folders this process holds the lock of, and how deep (a build renders inside its own)."""


@contextmanager
def folder_lock(folder: str | Path, on_wait: Callable[[str], None] | None = None) -> Iterator[None]:
    """Hold the one lock on writing ``folder`` (a set's output folder). Each file is written
    whole, but two runs writing one folder at once (a build while another renders, two CI jobs
    sharing it) left the PDF of one content beside the images of the other, both exit 0. The
    second run waits for the first (``on_wait`` is told once); the lock is the system's (flock),
    so a run that dies lets go of it. It lives in the temporary folder, not in the output."""
    try:
        import fcntl
    except ImportError:  # not on a POSIX system: no lock
        yield
        return
    key = str(Path(folder).resolve())
    if key in _HELD:
        _HELD[key] += 1
        try:
            yield
        finally:
            _HELD[key] -= 1
        return
    locks = Path(tempfile.gettempdir()) / f"boneyard-locks-{os.getuid()}"
    name = hashlib.sha256(key.encode()).hexdigest()[:24] + ".lock"
    try:
        locks.mkdir(mode=0o700, exist_ok=True)
        fd = os.open(locks / name, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:  # a file where the locks' folder goes, a temporary folder not writable:
        yield        # the lock only orders two runs, so the work goes on without it
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if on_wait is not None:
                other = os.pread(fd, 32, 0).decode(errors="replace").strip()
                on_wait(f"waiting for the other boneyard run (pid {other or '?'}) writing {key}")
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.ftruncate(fd, 0)
        os.pwrite(fd, str(os.getpid()).encode(), 0)
        _HELD[key] = 1
        try:
            yield
        finally:
            del _HELD[key]
            fcntl.flock(fd, fcntl.LOCK_UN)
    finally:
        os.close(fd)
