"""The playtest record (``output/<set>/playtest.json``) and why it can be believed.

A record is what lets ``render`` print "gates passed" in every footer, so it must never be taken
on its word. Before a record is used it is checked, and refused with a message saying what differs:

- its shape (``pipeline/record.schema.json``): a hand-made ``{"passed": true}`` is not a record;
- its signature: an HMAC-SHA256 of the record with this installation's own key (a random file
  made on first use, outside ``output/``), so an edited record, or one copied from another
  machine, is told apart from one this tool made here. Chosen over a bare checksum because a
  checksum can be recomputed by whoever edits the file; the price is that a record travels
  with neither its key nor its trust, and another machine playtests again;
- its verdict: the gates are judged again from the record's own metrics, and a record whose
  gates fail is never "passed";
- its ties to now: the set's content hash (cards, rules, playtest section, template, art), the
  playtest settings, the tool version and the code hash (engines, agents, simulator, gates).
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import hmac
import json
import math
import os
import stat
import tempfile
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
from boneyard.engine.stats import Metric
from boneyard.pipeline.files import write_output
from boneyard.pipeline.gates import ALPHA, evaluate, parse_gates
from boneyard.pipeline.gates import failed as failed_results

from boneyard.errors import BoneyardError
from boneyard.files import read_bounded

SCHEMA = Path(__file__).with_name("record.schema.json")
KEY_ENV = "BONEYARD_RECORD_KEY"  # a file holding the signing key (tests, shared CI runners)


def _key_path() -> Path:
    given = os.environ.get(KEY_ENV)
    if given:
        return Path(given)
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "boneyard" / "record.key"


MIN_KEY_BYTES = 16
"""A key file shorter than this is damaged (a disk that filled while it was first written)."""
MAX_KEY_BYTES = 1024 * 1024
"""A key file larger than this is some other file named by mistake: refused, not read whole."""


_USED: list[Path] = []
"""Where the key :func:`_key` returned is kept (none: made from the user and machine names)."""


@cache
def _key() -> bytes:
    """This installation's signing key, made on first use (a temp folder if home is read-only);
    BoneyardError if what is at its path is no key file (a FIFO, a folder, a device)."""
    _USED.clear()
    for path in (_key_path(), Path(tempfile.gettempdir()) / f"boneyard-{os.getuid()}" / "record.key"):
        key = _read_key(path)
        if key is not None:
            _USED.append(path)
            return key
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            made = _make_key(path)
        except OSError:
            continue
        _USED.append(path)
        return made
    return hashlib.sha256(f"boneyard-{os.getuid()}-{os.uname().nodename}".encode()).digest()


def display_key() -> str:
    """Where the signing key in use is kept, for a message."""
    _key()
    return str(_USED[0]) if _USED else "no key file could be written: one made from this user and machine"


def check_key() -> None:
    """Raise BoneyardError if the signing key cannot be had (see :func:`_read_key`): a build
    asks before its games, not when it signs their record minutes later."""
    _key()


_KINDS = ((stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a device"),
          (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket"))


def _read_key(path: Path) -> bytes | None:
    """The key kept at ``path``; None when there is none yet, it cannot be read or it is cut
    short (then it is made, here or in the temporary folder). Anything but a regular file
    there is refused (BoneyardError), never read: a FIFO waited for a writer for ever, a device
    never ended, and a folder was passed over for another key in silence, so records signed
    before no longer matched."""
    try:
        mode = path.stat().st_mode  # follows a link: what it names is what is read
    except OSError:
        return None
    if not stat.S_ISREG(mode):
        raise _not_a_key(path, next((k for test, k in _KINDS if test(mode)), "not a regular file"))
    try:
        data = read_bounded(path, MAX_KEY_BYTES, "key file")
    except OSError as exc:
        if exc.errno in (errno.EINVAL, errno.EFBIG):
            raise _not_a_key(path, exc.strerror or str(exc)) from None
        return None
    if 0 < len(data) < MIN_KEY_BYTES and os.environ.get(KEY_ENV) and path == _key_path():
        # a file the designer named, too short to be a key: theirs, not ours to replace
        raise _not_a_key(path, f"a file of {len(data)} bytes, too short to be a key (one is "
                               f"{MIN_KEY_BYTES} bytes or more)")
    return data if len(data) >= MIN_KEY_BYTES else None


def _not_a_key(path: Path, kind: str) -> BoneyardError:
    if os.environ.get(KEY_ENV) and path == _key_path():
        return BoneyardError(f"{path}: {kind}, where {KEY_ENV} names the key that signs playtest "
                             "records (point it at a file, or at a free path for a new key)")
    return BoneyardError(f"{path}: {kind}, where boneyard keeps the key that signs playtest "
                         "records (remove it: a new key is then made, and builds playtest again)")


def _make_key(path: Path) -> bytes:
    """A new key, written whole beside ``path`` and then linked in: never a half-written key
    (an empty one would sign with b"", which anyone can reproduce). Of two processes making it
    at once, the first link wins and both use it; a damaged key file is replaced."""
    key = os.urandom(32)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".record.key-")  # (mode 0600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(key)
            fh.flush()
            os.fsync(fh.fileno())
        try:
            os.link(tmp, path)
        except FileExistsError:
            other = _read_key(path)
            if other is not None:
                return other
            os.replace(tmp, path)
        return key
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _canonical(record: Mapping[str, Any]) -> bytes:
    body = {k: v for k, v in record.items() if k != "signature"}
    return json.dumps(finite(body), sort_keys=True, separators=(",", ":")).encode()


def mac(data: bytes) -> str:
    """This installation's HMAC-SHA256 of ``data``: a record's signature, and that of the other
    files a build keeps beside one (pipeline/lastgames.py)."""
    return hmac.new(_key(), data, hashlib.sha256).hexdigest()


def mac_matches(data: bytes, claimed: str) -> bool:
    return hmac.compare_digest(mac(data), claimed)


def sign(record: Mapping[str, Any]) -> dict[str, Any]:
    """The record with its signature (over everything but the signature)."""
    out = dict(record)
    out["signature"] = mac(_canonical(record))
    return out


def finite(value: Any) -> Any:
    """NaN is not JSON: store unmeasured figures as null."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, Mapping):
        return {k: finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def write(record: Mapping[str, Any], path: Path) -> Path:
    """Sign and write a record atomically; a symbolic link at ``path`` is replaced by the
    record, never written through (a link into the set is refused before the build plays:
    pipeline/files.py)."""
    write_output(path, (json.dumps(finite(sign(record)), indent=1) + "\n").encode("utf-8"))
    return path


@cache
def _validator() -> jsonschema.Draft202012Validator:
    with SCHEMA.open(encoding="utf-8") as fh:
        return jsonschema.Draft202012Validator(json.load(fh))


def _metric(m: Mapping[str, Any]) -> Metric:
    return Metric.from_json({k: (math.nan if k in ("value", "low", "high") and v is None else v)
                             for k, v in m.items()})


def shape_problem(record: Any) -> str | None:
    """Why ``record`` does not have a record's shape (a hand-made or cut-down file), None if it has."""
    if not isinstance(record, dict):
        return "it is not a playtest record (expected a JSON object)"
    shape = sorted(_validator().iter_errors(record), key=lambda e: list(e.absolute_path))
    if shape:
        e = shape[0]
        where = ".".join(str(p) for p in e.absolute_path) or "the record"
        return f"it is not a playtest record this tool wrote ({where}: {e.message})"
    return None


def problems(record: Any) -> list[str]:
    """What makes ``record`` unbelievable on its own (shape, signature, verdict); [] if none."""
    shape = shape_problem(record)
    if shape is not None:
        return [shape]
    if not mac_matches(_canonical(record), str(record["signature"])):
        return [f"its signature does not match the key it is checked with ({display_key()}): "
                "it was edited, or signed with another key (another machine, HOME or "
                f"{KEY_ENV})"]
    try:
        gates = parse_gates(record["config"].get("gates"), "record config.gates", kinds=True)
        gates += parse_gates(record.get("extra_gates") or [], "record extra_gates", kinds=True)
        runs = {r["label"]: [_metric(m) for m in r["metrics"]] for r in record["runs"]}
        looks = planned_looks(record["config"])
        alpha = float(record["config"].get("alpha", ALPHA))
    except Exception as exc:  # a signed record of ours always parses; say so plainly if not
        return [f"its gates or metrics cannot be read ({exc})"]
    results = evaluate(gates, runs, alpha=alpha, looks=looks, declared=record.get("declared") or ())
    failed = len(failed_results(results, bool(record.get("accept_undecided"))))
    if record["passed"] != (failed == 0) or record["gates_total"] != len(results) \
            or record["gates_passed"] != len(results) - failed:
        return [f"its verdict does not follow from its own metrics: judged again, {failed} of "
                f"{len(results)} gates fail, the record says passed={record['passed']} "
                f"({record['gates_passed']} of {record['gates_total']})"]
    return []


def planned_looks(config: Mapping[str, Any]) -> int:
    """The looks a record's settings planned (what its intervals were corrected for)."""
    from boneyard.pipeline.playtest_config import resolve

    section = {k: v for k, v in config.items() if k not in ("profile", "precision")}
    return resolve(section, default_players=None, where="record config").looks()


def mismatches(record: Mapping[str, Any], *, content_hash: str, tool: str, code_hash: str,
               config_hashes: Mapping[str, str]) -> list[str]:
    """How a believable record differs from what would be playtested now; [] if it matches.

    ``config_hashes``: the playtest settings hash per profile a record may have been made with.
    """
    out = []
    if record["content_hash"] != content_hash:
        out.append(f"the playtest record is for content {record['content_hash']}, the cards are "
                   f"now {content_hash}")
    if record["tool"] != tool:
        out.append(f"it was made by {record['tool']}, this is {tool}")
    if record.get("code_hash") != code_hash:
        out.append("it was made by other engine, agent or gate code (code "
                   f"{record.get('code_hash')}, now {code_hash})")
    if record["config_hash"] not in config_hashes.values():
        out.append(f"its playtest settings ({record.get('profile')}, config "
                   f"{record['config_hash']}) are not the set's own")
    return out


MAX_RECORD_BYTES = 64 * 1024 * 1024
"""A playtest record is a few MB at most; what is larger is not one (and is not read whole)."""


def record_text(path: Path) -> str:
    """A record file's text: a regular file of at most :data:`MAX_RECORD_BYTES` (OSError, naming
    it, else: the output folder may come from elsewhere)."""
    return read_bounded(path, MAX_RECORD_BYTES, "playtest record").decode("utf-8")
