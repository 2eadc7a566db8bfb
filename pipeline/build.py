"""``boneyard build``: nothing goes to print untested.

validate -> playtest -> gates -> render. The playtest record (``output/<set>/playtest.json``)
vouches for one content hash (cards + rules switches) under one set of playtest settings; the
balance report is written whether the gates pass or not (a failing build is when a designer needs
it most), but cards are rendered only when every gate passes, or with ``--force`` under a
"FAILED PLAYTEST" watermark. ``boneyard render`` asks :func:`render_permission` the same question.
"""

from __future__ import annotations

import dataclasses
import difflib
import json
import math
import os
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.games import make_game
from boneyard.pipeline import lastpass, reference
from boneyard.pipeline import record as rec
from boneyard.pipeline.coverage import with_checks
from boneyard.pipeline.files import refuse_links_in
from boneyard.pipeline.gates import Gate, GateResult, failed, nearest_metric
from boneyard.pipeline.lastgames import GAMES, Played
from boneyard.pipeline.playtest import Progress, config_hash, declared_hash, default_jobs, playtest
from boneyard.pipeline.playtest_config import PlaytestConfig, resolve
from boneyard.pipeline.report import write_reports

from boneyard import __version__
from boneyard.errors import BoneyardError, GateError, RenderError
from boneyard.files import folder_lock, unwritable
from boneyard.paths import OUTPUT

NOT_PLAYTESTED = "NOT PLAYTESTED"
FAILED_PLAYTEST = "FAILED PLAYTEST"
RECORD_NAME = "playtest.json"


def out_dir_for(card_set: CardSet, out: str | Path | None = None) -> Path:
    return Path(out or OUTPUT) / card_set.slug


def read_record(path: Path) -> dict[str, Any] | None:
    """A saved playtest record as written, or None when there is none (or it is unreadable).

    Nothing read here is trusted yet: :func:`record_doubts` says whether it can vouch for a set.
    """
    try:
        data = json.loads(rec.record_text(path))
    except (OSError, ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None



def _unreadable(path: Path) -> str:
    """Why a record file that exists is no record (a build cut short, an edit by hand)."""
    try:
        data = json.loads(rec.record_text(path))
    except OSError as exc:
        return exc.strerror or type(exc).__name__
    except (ValueError, RecursionError) as exc:
        return f"not JSON: {exc}"[:120]
    return f"a JSON {type(data).__name__}, not a record"


def footer_note(record: Mapping[str, Any]) -> str:
    """What every printed page says about its playtest."""
    if record.get("passed"):
        return f"playtested: {record['games']} games, gates passed"
    bad = record.get("gates_total", 0) - record.get("gates_passed", 0)
    return f"{FAILED_PLAYTEST}: {bad} of {record.get('gates_total', 0)} gates failed ({record['games']} games)"


def _profile_hashes(card_set: CardSet) -> dict[str, str]:
    """The settings hash of each playtest profile of the set (what a record may be made with)."""
    out = {}
    profiles = (card_set.playtest or {}).get("profiles") or {}
    for fast in (False, True) if "fast" in profiles else (False,):
        try:
            out["fast" if fast else "default"] = config_hash(config_for(card_set, fast=fast, jobs=1))
        except GateError:
            continue
    return out


def record_doubts(record: Mapping[str, Any] | None, card_set: CardSet) -> str | None:
    """Why ``record`` cannot vouch for ``card_set`` now (None when it can)."""
    if record is None:
        return "there is no playtest record"
    why = rec.problems(record)
    theirs = (record.get("rules"), record.get("set"))
    if not why and isinstance(theirs[0], str) and theirs[0] != card_set.rules:
        return (f"the record is of another game ({theirs[0]}, set '{theirs[1]}'), not of this "
                f"{card_set.name} set (was another set's output folder copied here?)")
    if not why:
        why = rec.mismatches(record, content_hash=card_set.content_hash,
                             tool=f"boneyard {__version__}", code_hash=code_hash(),
                             config_hashes=_profile_hashes(card_set))
    return "; ".join(why) or None


def render_permission(card_set: CardSet, out: str | Path | None = None,
                      force: bool = False) -> tuple[str, str | None]:
    """(footer note, watermark or None) for rendering ``card_set`` now.

    Raises GateError unless ``output/<set>/playtest.json`` is a record this tool made and signed,
    whose gates pass when judged again, on exactly this content, settings and code; with
    ``force`` the render goes ahead under a watermark instead.
    """
    path = out_dir_for(card_set, out) / RECORD_NAME
    record = read_record(path)
    doubt = record_doubts(record, card_set) if record is not None or not path.exists() \
        else f"its playtest record is damaged ({_unreadable(path)})"
    if doubt is None and record is not None:
        if record.get("passed"):
            return footer_note(record), None
        if force:
            return footer_note(record), FAILED_PLAYTEST
        raise GateError(
            f"{path}: the playtest of '{card_set.name}' (content {card_set.content_hash}) failed its "
            "gates; fix the cards and run `boneyard build`, or render anyway with --force "
            f"(every page and image is then marked {FAILED_PLAYTEST})"
        )
    if force:
        return f"{NOT_PLAYTESTED} (content {card_set.content_hash})", NOT_PLAYTESTED
    raise GateError(
        f"{path}: refusing to render '{card_set.name}': {doubt} (run `boneyard build {_set_arg(card_set)}"
        f"{'' if out is None else f' --out {out}'}` "
        f"to playtest it first, or render anyway with --force, marked {NOT_PLAYTESTED})"
    )


def _set_arg(card_set: CardSet) -> str:
    """How to name the set on the command line: its bundled name, else its folder."""
    from boneyard.paths import CARDS

    root = Path(card_set.root) if card_set.root else None
    if root is None or root.resolve().parent == CARDS.resolve():
        return card_set.slug
    return str(root)


@dataclass
class BuildOutcome:
    """What one set's build did, for the CLI to print."""

    card_set: CardSet
    record: dict[str, Any]
    out_dir: Path
    rendered: list[Path] = field(default_factory=list)
    reused: bool = False
    watermark: str | None = None
    warnings: list[str] = field(default_factory=list)  # said after the verdict
    stale: bool = False  # the set's files changed while it was built: nothing kept or rendered
    # (or, saved while it was rendered: prints that may mix both contents)

    @property
    def passed(self) -> bool:
        return bool(self.record.get("passed"))

    def failed_gates(self) -> list[GateResult]:
        return failed((GateResult.from_json(g) for g in self.record["gates"]),
                      bool(self.record.get("accept_undecided")))


def _check_seats(card_set: CardSet, cfg: PlaytestConfig, where: str) -> None:
    """A list of agents longer than a run's seats: the last would never play, yet the record
    and the report would name them."""
    agents = cfg.agents
    for run in cfg.runs:
        seats = run.players if run.players is not None else \
            make_game(card_set, None, **dict(run.options)).num_players
        if len(agents) > seats:
            extra = len(agents) - seats
            raise GateError(_located(
                f"{where}.agents: {len(agents)} agents are listed but run '{run.label}' has "
                f"{seats} players, so the last {extra} would never play (list at most {seats}; "
                "they take the seats in turn)", card_set))


def config_for(card_set: CardSet, *, fast: bool = False, precision: float | None = None,
               seed: int | None = None, games: int | None = None, jobs: int | None = None,
               scheduler: str | None = None,
               agents: str | None = None) -> PlaytestConfig:
    """The playtest settings of ``card_set`` (profile ``fast`` with ``fast``), plus overrides."""
    overrides: dict[str, Any] = {"precision": precision, "seed": seed, "games": games, "agents": agents}
    overrides["jobs"] = jobs or default_jobs()
    where = f"{Path(card_set.root or card_set.slug) / 'game.yaml'}: playtest"
    try:
        cfg = resolve(card_set.playtest, default_players=None, profile="fast" if fast else "default",
                      overrides=overrides, where=where)
    except GateError as exc:
        raise GateError(_located(str(exc), card_set)) from None
    if scheduler:
        cfg = dataclasses.replace(cfg, scheduler=scheduler)
    if not isinstance(cfg.agents, str):
        _check_seats(card_set, cfg, where)
    if not cfg.gates:
        raise GateError(
            f"{where}.gates: '{card_set.name}' has no balance gates, so a playtest would prove nothing "
            "(add gates to the playtest section; see docs/playtest.md)"
        )
    if cfg.substitution_cards is not None:
        unknown = unknown_characters(card_set, cfg.substitution_cards)
        if unknown:
            raise GateError(_located("\n".join(f"{where}.substitution.cards: {line}" for line in unknown),
                                     card_set))
    try:  # issue 13.6/13.7: the coverage and sensitivity gates (pipeline/coverage.py)
        cfg = with_checks(card_set, cfg, where)
    except GateError as exc:
        raise GateError(_located(str(exc), card_set)) from None
    return cfg


def unknown_characters(card_set: CardSet, ids: Sequence[str]) -> list[str]:
    """One line per id in ``ids`` that names no character of ``card_set`` (with the nearest
    id), so substitution.cards or ``--focus`` is refused before any game rather than ignored
    (a game without characters, Grave Feast) or refused after a first run's games."""
    import difflib

    from boneyard.engine.games import spec_of

    units = [cid for cid, _ in spec_of(card_set.rules).units(card_set)]
    if not units:
        return [f"'{card_set.name}' has no characters to pair with a stand-in, so no card can be "
                f"named here ({', '.join(repr(i) for i in ids)}; remove it)"] if ids else []
    out = []
    for cid in dict.fromkeys(ids):
        if cid not in units:
            near = difflib.get_close_matches(cid.lower(), units, n=1, cutoff=0.6)
            out.append(f"no character '{cid}' in '{card_set.name}' ("
                       + (f"did you mean '{near[0]}'? " if near else "")
                       + "`boneyard cards SET` lists the ids)")
    return out


def check_out_dir(out_dir: Path) -> None:
    """Raise when a file stands where ``out_dir`` or a folder above it would be, it cannot be
    written, or the record's signing key cannot be read: said before any game, not after
    minutes of playtesting."""
    for p in (out_dir, *out_dir.parents):
        if os.path.lexists(p):
            if p.is_symlink() and not p.exists():
                raise BoneyardError(f"{p}: is a link to {os.readlink(p)}, which does not exist, "
                                    f"where the build writes the folder {out_dir} (remove the "
                                    "link, or make what it names; or choose another --out)")
            if not p.is_dir():
                raise BoneyardError(f"{p}: is a file, where the build writes the folder {out_dir} "
                                    "(move the file away, or choose another --out)")
            break
    record = out_dir / RECORD_NAME
    if record.exists() and not record.is_file():  # a FIFO would take the record for ever
        raise BoneyardError(f"{record}: not a regular file, where the build keeps its playtest "
                            "record (remove it, or choose another --out)")
    for name in REPORT_NAMES:  # and the report, written in place, waited for a reader for ever
        report = out_dir / name
        if report.exists() and not report.is_file():
            raise BoneyardError(f"{report}: not a regular file, where the build writes its "
                                "report (remove it, or choose another --out)")
    games = lastpass.folder(out_dir) / GAMES  # read through gzip, which waits on a FIFO too
    if games.exists() and not games.is_file():
        raise BoneyardError(f"{games}: not a regular file, where the build keeps the last "
                            "pass's games (remove it, or choose another --out)")
    why = unwritable(record)  # a read-only or full disk: before the games too
    if why is not None:
        raise BoneyardError(f"{out_dir}: the build cannot write its record there: {why} "
                            "(choose another --out)")
    rec.check_key()  # a FIFO where the key is kept waited for a writer for ever, after the games


def check_focus(card_set: CardSet, focus: Sequence[str]) -> None:
    """Raise GateError (one line per problem) when ``--focus`` names a card the set has not."""
    problems = unknown_characters(card_set, focus)
    if problems:
        raise GateError("\n".join(f"--focus: {line}" for line in problems))


TRIAL_GAMES = 8
"""Random games a run in :func:`unmatched_gates`' trial playtest (well under a second)."""


TYPO = 0.85
"""How alike (difflib's ratio) a gate's name and a reported metric's must be for the gate to
count as that metric misspelt: ``draw_rte`` and ``draw_rate`` 0.94, ``mean_round`` and
``mean_rounds`` 0.95; two different figures of one family (``coin_flips`` and
``coin_heads_rate``) stay well below."""


def unmatched_gates(card_set: CardSet) -> tuple[list[str], list[str]]:
    """The set's own gates (``playtest.gates``) that name no metric a short trial playtest
    reports, each located with the nearest names, as (problems, warnings): a misspelt metric is
    found by ``validate`` and ``build`` at once rather than as "missing" at the end of a build.

    The trial plays random agents, ``TRIAL_GAMES`` games a run and one paired game a card, so a
    figure that needs a rare event may be absent by chance: such a gate is a warning. One a
    reported metric's name is a typo away from (``TYPO``) is a problem: the build would count
    it missing and fail; so is a bound no share can reach (:func:`_share_bound`).

    The answer is kept (:data:`_TRIALS`) for the same played content, playtest section and
    game.yaml text (where its lines point), so ``watch`` replays no trial on a save that changes
    only what is printed (flavor text, art, the template)."""
    if not card_set.playtest:
        return [], []
    key = _trial_key(card_set)
    if key is not None and key in _TRIALS:
        problems, warnings = _TRIALS[key]
        return list(problems), list(warnings)
    found = _unmatched_gates(card_set)
    if key is not None:
        _TRIALS[key] = (list(found[0]), list(found[1]))
        while len(_TRIALS) > 8:  # a watch of one set needs the last; a few sets at most
            del _TRIALS[next(iter(_TRIALS))]
    return found


_TRIALS: dict[tuple[str, ...], tuple[list[str], list[str]]] = {}
""":func:`unmatched_gates`' answers by :func:`_trial_key`, oldest first."""


def _trial_key(card_set: CardSet) -> tuple[str, ...] | None:
    """What :func:`unmatched_gates`' answer depends on: the folder, the played content (the
    trial's games; print-only fields never change them), the playtest section and game.yaml's
    bytes (its messages' line:column). None when game.yaml cannot be read: not kept."""
    import hashlib

    from boneyard.engine.hashing import play_content, play_hash

    try:
        game = (Path(card_set.root) / "game.yaml").read_bytes() if card_set.root else b""
    except OSError:
        return None
    section = json.dumps(play_content(card_set.playtest), sort_keys=True, default=str)
    return (card_set.root, card_set.slug, play_hash(card_set), section,
            hashlib.sha256(game).hexdigest())


def _unmatched_gates(card_set: CardSet) -> tuple[list[str], list[str]]:
    """:func:`unmatched_gates`, played."""
    try:
        cfg = config_for(card_set, jobs=1)
    except GateError:
        return [], []  # validate reports the section's problems
    own = len(card_set.playtest.get("gates") or [])
    def missing(trial_set: CardSet, games: int, among: Sequence[int]) -> tuple[list[int], list[str]]:
        trial = dataclasses.replace(cfg, agents="random", games=games, cap=games, precision=None,
                                    substitution_games=1, substitution_cap=1, strength_games=1,
                                    strength_rival_games=0, change_games=1, jobs=1, scheduler=None)
        record = playtest(trial_set, trial)
        gone = {(g["gate"]["metric"], g["gate"].get("run")) for g in record["gates"] if g["status"] == "missing"}
        for r in record["runs"]:
            for m in r["metrics"]:
                units.setdefault(m["name"], m.get("unit") or "")
        return ([i for i in among if (cfg.gates[i].metric, cfg.gates[i].run) in gone],
                sorted({m["name"] for r in record["runs"] for m in r["metrics"]}))

    units: dict[str, str] = {}
    try:
        unmatched, names = missing(card_set, TRIAL_GAMES, range(own))
        if unmatched:  # a figure of a rare event (coin flips) may be absent from a few games:
            # look again in more, without the sensitivity variants (a gate of theirs was found)
            quiet = {**card_set.playtest, "sensitivity": {**(card_set.playtest.get("sensitivity") or {}),
                                                          "games": 0}}
            unmatched, more = missing(dataclasses.replace(card_set, playtest=quiet), 8 * TRIAL_GAMES, unmatched)
            names = sorted({*names, *more})
    except BoneyardError:  # the build itself reports whatever stops its games, in its own words
        return [], []
    where = f"{Path(card_set.root or card_set.slug) / 'game.yaml'}: playtest"
    problems: list[str] = []
    warnings: list[str] = []
    for i in unmatched:
        gate = cfg.gates[i]
        near = nearest_metric(gate.metric, names)
        if near == gate.metric:  # a figure of another run, or of an event the trial never saw
            warnings.append(f"{where}.gates[{i}].metric: '{gate.metric}' was not measured in "
                            f"{'the run ' + repr(gate.run) if gate.run else 'every run'} of a "
                            "short trial playtest (a figure of an event that never happened in "
                            "it); a build counts such a gate as missing, which fails it")
            continue
        typo = near is not None and difflib.SequenceMatcher(None, gate.metric, near).ratio() >= TYPO
        (problems if typo else warnings).append(
            f"{where}.gates[{i}].metric: '{gate.metric}' names no metric the playtest reports"
            + (f" (did you mean '{near}'?)" if near else "")
            + ("; fix the name: a build counts such a gate as missing, which fails it" if typo else
               "; a build counts such a gate as missing, which fails it"))

    for i in range(own):
        if i not in unmatched:
            problems += _share_bound(f"{where}.gates[{i}]", cfg.gates[i], units)

    def located(lines: list[str]) -> list[str]:
        return _located("\n".join(lines), card_set).splitlines() if lines else []

    return located(problems), located(warnings)


def build_outputs(card_set: CardSet, out_dir: Path, render: bool) -> list[Path]:
    """What ``boneyard build`` writes in the set's output folder ``out_dir``: the folder, the
    playtest record, the reports, the last pass (its folder, its record and its games), and with
    ``render`` the prints of a render with the default options."""
    last = lastpass.folder(out_dir)
    paths = [out_dir, out_dir / RECORD_NAME, *(out_dir / n for n in REPORT_NAMES), last,
             last / RECORD_NAME, last / GAMES]
    if render:
        from boneyard.pipeline.render.api import RenderOptions, output_files

        paths += output_files(card_set, out_dir, RenderOptions())
    return paths


def refuse_build_outputs(card_set: CardSet, out_dir: Path, given: str | Path | None,
                         render: bool) -> None:
    """Refuse (:class:`SetFileClash`), before any game, a build whose output in ``out_dir`` is a
    link into the set (:func:`build_outputs`): the record was written through one, over
    game.yaml or a card file. Links elsewhere are replaced when written (pipeline/files.py ``output_path``)."""
    if card_set.root:
        refuse_links_in(Path(card_set.root), build_outputs(card_set, out_dir, render),
                        "the build's outputs", out_dir, given)


def _share_bound(where: str, gate: Gate, units: Mapping[str, str]) -> list[str]:
    """A bound on a share (unit ``%``: 0 to 1, a difference of two -1 to 1) that lies outside
    what the share can be: ``max: 8`` written for 8% always passes, ``min: 45`` never does."""
    matched = {u for name, u in units.items() if gate.matches(name)}
    if matched != {"%"}:
        return []
    delta = "delta" in gate.metric
    lo, hi = (-1.0, 1.0) if delta else (0.0, 1.0)
    what = "a difference of two shares, from -1 to 1" if delta else "a share, from 0 to 1"
    out = []
    for key, bound in (("min", gate.min), ("max", gate.max)):
        if bound is None or lo <= bound <= hi:
            continue
        passes = (key == "max") == (bound > hi)  # max above the top, min below the bottom
        fate = "always passes" if passes else "can never pass"
        fix = f" (for {bound:g}% write {bound / 100:g})" if hi < abs(bound) <= 100 else \
            f" (remove {key}, or give one from {lo:g} to {hi:g})"
        out.append(f"{where}.{key}: {gate.metric} is {what}, so {key} {bound:g} {fate}{fix}")
    return out


_PROBLEM = re.compile(r"^(?P<file>.*?): (?P<path>playtest(?:\.[A-Za-z_]+|\[\d+\])*): (?P<msg>.*)$")


def _located(text: str, card_set: CardSet) -> str:
    """Rewrite ``game.yaml: playtest.gates[2]: ...`` as ``game.yaml:41:7: playtest.gates[2]: ...``
    using the positions the YAML reader recorded, so each problem points at its line."""
    game = Path(card_set.root) / "game.yaml" if card_set.root else None
    if game is None or not game.is_file():
        return text
    from boneyard.pipeline.validate_yaml import read_yaml

    doc, _ = read_yaml(game)
    out = []
    for line in text.splitlines():
        m = _PROBLEM.match(line)
        if not m:
            out.append(line)
            continue
        path: list[str | int] = []
        for part in re.findall(r"[A-Za-z_]+|\[\d+\]", m["path"]):
            path.append(int(part[1:-1]) if part.startswith("[") else part)
        row, col = doc.where(tuple(path))
        out.append(f"{doc.file}:{row}:{col}: {m['path']}: {m['msg']}")
    return "\n".join(out)


def code_hash() -> str:
    """Hash of the code that decides what a playtest measures (rules engines, agents, simulator,
    the playtest and gate modules): a record made by other code is not reused."""
    import hashlib

    import boneyard.engine as engine_pkg

    engine_dir = Path(engine_pkg.__file__).parent
    here = Path(__file__).parent
    h = hashlib.sha256()
    files = sorted(engine_dir.rglob("*.py")) + [here / n for n in ("playtest.py", "playtest_config.py", "gates.py",
                                                                   "paired.py", "lastpass.py", "lastgames.py",
                                                                   "coverage.py", "sensitivity.py")]
    for f in files:
        if f.is_file():
            h.update(f.name.encode())
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


def _reusable(record: Mapping[str, Any] | None, card_set: CardSet, cfg: PlaytestConfig) -> bool:
    return (
        record is not None
        and not rec.problems(record)
        and not rec.mismatches(record, content_hash=card_set.content_hash,
                               tool=f"boneyard {__version__}", code_hash=code_hash(),
                               config_hashes={"now": config_hash(cfg)})
    )


REPORT_NAMES = ("report.html", "report.md")


def _drop_reports(out_dir: Path) -> None:
    """Remove the last build's reports before a new record replaces theirs.

    Why: the record is written first and the reports from it; a build stopped between the two
    (Ctrl-C, a killed job) would otherwise leave a report that contradicts the record beside it.
    The next build finds the record reusable and writes its reports."""
    for name in REPORT_NAMES:
        (out_dir / name).unlink(missing_ok=True)


def write_record(record: Mapping[str, Any], out_dir: Path) -> Path:
    """Sign and write the record (see pipeline/record.py)."""
    return rec.write(record, out_dir / RECORD_NAME)


def _nan_back(record: dict[str, Any]) -> dict[str, Any]:
    """Undo :func:`_finite` for metric values read back from a record."""
    def fix(m: dict[str, Any]) -> dict[str, Any]:
        return {k: (math.nan if k in ("value", "low", "high") and v is None else v) for k, v in m.items()}

    for run in record.get("runs", []):
        run["metrics"] = [fix(m) for m in run.get("metrics", [])]
        run["strength"] = [fix(m) for m in run.get("strength", [])]
    for g in record.get("gates", []):
        if g.get("metric"):
            g["metric"] = fix(g["metric"])
    return record


def load_record(path: Path) -> dict[str, Any] | None:
    """The record at ``path`` with its metrics' NaNs back, or None when there is none or it has
    not a record's shape (a file edited by hand is played again, not read into a traceback)."""
    raw = read_record(path)
    return None if raw is None or rec.shape_problem(raw) is not None else _nan_back(raw)


Renderer = Callable[[CardSet, Path, str, str | None], list[Path]]


def default_renderer(card_set: CardSet, out_dir: Path, note: str, watermark: str | None,
                     written: list[tuple[str, Path]] | None = None) -> list[Path]:
    """Render through H-render's pipeline with the playtest note in every footer; ``written``
    gets (format, path) as each output is in place (see :func:`_render_stopped`)."""
    from boneyard.pipeline.render import render_set

    return list(render_set(card_set, out_dir, footer_note=note, watermark=watermark,
                           written=written))


def _render_stopped(written: Sequence[tuple[str, Path]], out_dir: Path) -> str:
    """What a render stopped half way left in ``out_dir``: each output is replaced whole, so the
    new ones sit beside the last build's, which may be of other content; say which is which, or
    the folder is taken for one render of the content the record vouches for."""
    from boneyard.pipeline.render.api import RenderOptions

    done = [f for f, _ in written]
    left = [f for f in RenderOptions().formats if f not in done]
    new = f"wrote {', '.join(done)}; " if done else "wrote nothing; "
    return (f"rendering stopped: {new}not rendered: {', '.join(left)} (any such output in "
            f"{out_dir} is from an earlier build, maybe of other content: build again)")


def changed_since_read(card_set: CardSet) -> str | None:
    """Which of the files the set prints with (its template, the fonts and images that names,
    the art) are no longer what they were when the set was read ("now invalid" when it does not
    load), or None.

    The renderer reads those files again from disk: one saved after the set was read would be
    printed under a record that vouches for the content before it. A reused record plays no
    game, so nothing else looks (lastpass.save does, after a playtest)."""
    from boneyard.pipeline.load import check_set

    if not card_set.root:
        return None
    try:
        now = check_set(card_set.root).card_set
    except (BoneyardError, OSError):
        now = None
    if now is None:
        return "now invalid"
    moved = sorted({name for name, _ in set(now.files) ^ set(card_set.files)})
    return ", ".join(moved) or None


def build_set(
    card_set: CardSet,
    *,
    out: str | Path | None = None,
    force: bool = False,
    fast: bool = False,
    precision: float | None = None,
    seed: int | None = None,
    jobs: int | None = None,
    scheduler: str | None = None,
    agents: str | None = None,
    fresh: bool = False,
    render: bool = True,
    renderer: Renderer | None = None,
    progress: Progress | None = None,
    focus: tuple[str, ...] = (),
    accept_undecided: bool = False,
) -> BuildOutcome:
    """Playtest ``card_set`` (reusing a record made on the same content and settings unless
    ``fresh``), write the record and the reports, render if the gates pass (or ``force``).

    With a believed last pass in ``<out>/<set>/last-pass/`` (and not ``fresh``) the playtest is
    change-aware: the new content is played against the last pass on paired games and only
    what changed is tested again (pipeline/lastpass.py). ``focus``: characters tested as
    pre-declared hypotheses at the full alpha; ``accept_undecided``: metrics still open at the
    cap do not fail the build."""
    cfg = config_for(card_set, fast=fast, precision=precision, seed=seed, jobs=jobs, agents=agents,
                     scheduler=scheduler)
    check_focus(card_set, focus)
    out_dir = out_dir_for(card_set, out)
    refuse_build_outputs(card_set, out_dir, out, render)  # a link into the set: before any game
    check_out_dir(out_dir)
    with folder_lock(out_dir, lambda note: print(f"note: {note}", file=sys.stderr, flush=True)):
        return _build_locked(card_set, cfg, out_dir, fresh=fresh, focus=focus,
                             accept_undecided=accept_undecided, progress=progress,
                             render=render, renderer=renderer, force=force)


def _build_locked(card_set: CardSet, cfg: PlaytestConfig, out_dir: Path, *, fresh: bool,
                  focus: tuple[str, ...], accept_undecided: bool, progress: Progress | None,
                  render: bool, renderer: Renderer | None, force: bool) -> BuildOutcome:
    """:func:`build_set` once it holds the output folder (one writer at a time)."""
    old = load_record(out_dir / RECORD_NAME)
    kept: str | None = None  # why no last pass was kept
    if not fresh and not focus and old is not None and _reusable(old, card_set, cfg) \
            and bool(old.get("accept_undecided")) == accept_undecided:
        record, reused = old, True
    else:
        tool = f"boneyard {__version__}"
        base, why = (None, "--fresh") if fresh else lastpass.find(
            card_set, out_dir, declared_hash=declared_hash(cfg), code_hash=code_hash(), tool=tool)
        played = Played()
        record, reused = playtest(card_set, cfg, progress, base=base, focus=focus,
                                  accept_undecided=accept_undecided, played=played), False
        record["code_hash"] = code_hash()
        record["agent_reference"] = reference.for_report(card_set, record.get("agents") or [])
        if base is None:
            record["from_scratch"] = why
        _drop_reports(out_dir)  # a stop before the new ones are written leaves none, not stale ones
        write_record(record, out_dir)
        record = load_record(out_dir / RECORD_NAME) or record
        try:
            kept = lastpass.save(card_set, record, out_dir, played) if record.get("passed") else None
        except OSError as exc:  # a full disk: the record and the verdict still stand
            kept = (f"the last pass could not be kept ({exc.strerror or exc}): the next build "
                    "of this set plays it from scratch")
    write_reports(record, out_dir)
    outcome = BuildOutcome(card_set, record, out_dir, reused=reused)
    if kept is not None:
        outcome.warnings.append(kept)
    outcome.stale = (kept or "").startswith(lastpass.CHANGED)
    if not render or outcome.stale:  # the prints would mix contents
        return outcome
    if outcome.passed or force:
        moved = changed_since_read(card_set)
        if moved is not None:  # before any print: the template and art are read from disk now
            outcome.warnings.append(f"{lastpass.CHANGED} ({moved}): nothing was rendered; build "
                                    "again for the edits")
            outcome.stale = True
            return outcome
        outcome.watermark = None if outcome.passed else FAILED_PLAYTEST
        written: list[tuple[str, Path]] = []
        render_with = renderer or (lambda cs, od, note, mark: default_renderer(cs, od, note, mark, written))
        try:
            outcome.rendered = render_with(card_set, out_dir, footer_note(record), outcome.watermark)
        except RenderError as exc:  # a full disk, a file in the way: the playtest is not lost
            verdict = "passed" if outcome.passed else "failed its gates"
            raise RenderError(f"{exc}\n{card_set.name}: the playtest {verdict} "
                              f"({record['games']} games) and its record and report are in "
                              f"{out_dir}; only rendering failed: mend the above and build "
                              "again, which reuses the record"
                              + (f"\n{_render_stopped(written, out_dir)}" if written else "")
                              + "".join(f"\nwarning: {w}" for w in outcome.warnings)) from None
        except BaseException:  # Ctrl-C, SIGTERM: say what is new before the stop is said
            print(_render_stopped(written, out_dir), file=sys.stderr, flush=True)
            raise
        write_reports(record, out_dir, images=True)  # again, with the images just rendered
        moved = changed_since_read(card_set)
        if moved is not None:  # saved while it rendered: the prints may be of either content
            outcome.warnings.append(f"{lastpass.CHANGED} ({moved}), while it was rendered: the "
                                    f"prints in {out_dir} may mix both; build again")
            outcome.stale = True
    return outcome
