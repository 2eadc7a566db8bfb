"""``boneyard diff SET --against REF``: what a change to the cards did to the balance.

REF is a git revision (the set's files at that revision are checked out into a temporary folder
and loaded like any set), another copy of the set's folder, or a saved ``playtest.json``. Both versions are playtested with the same
settings and seed, so game ``i`` is dealt from the same seed on both sides and every agent draws
from the same stream (common random numbers): what differs is what the change caused. Against a
revision the new version is played *paired* with the old one (pipeline/paired.py), so each change
has the interval of a paired difference; against a saved record it cannot be (the old cards are
not at hand) and the two runs are compared as independent. A metric
has *moved* when the interval of its change excludes zero; moves are listed largest first, in
units of their own uncertainty, in words a designer reads: "Anger: win-rate change +3% -> +11%".
"""

from __future__ import annotations

import contextlib
import json
import math
import subprocess
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import click
from boneyard.engine.cards import CardSet
from boneyard.engine.games import GAMES, spec_of, specs
from boneyard.engine.stats import Metric
from boneyard.pipeline.build import _nan_back, config_for, read_record
from boneyard.pipeline.cli_types import WholeNumber
from boneyard.pipeline.cmd_sim import JOBS, capped_jobs
from boneyard.pipeline.paired import recorded_change
from boneyard.pipeline.playtest import default_jobs, playtest
from boneyard.pipeline.playtest_config import PlaytestConfig, resolve

from boneyard.errors import BoneyardError, CardDataError, Problem

KIND_WORDS = {
    "sub_delta": "win-rate change vs stand-in",
    "win_delta": "win-rate delta (played vs not)",
    "play_rate": "play rate",
}


@dataclass(frozen=True, slots=True)
class Move:
    """One metric in both versions and the change between them."""

    run: str
    name: str
    before: Metric
    after: Metric
    change: float
    low: float
    high: float

    @property
    def moved(self) -> bool:
        return self.low > 0 or self.high < 0

    @property
    def strength(self) -> float:
        """The change in units of its own half-width (how sure and how big at once)."""
        half = (self.high - self.low) / 2
        return abs(self.change) / half if half > 0 else math.inf


def compare(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[Move]:
    """Every metric present in both records, with the interval of its change.

    When ``after`` was played paired with ``before`` (its run lists ``paired_changes``: the
    same games on both versions, each such metric the before value plus the paired change), the
    change's interval is the paired one. Otherwise the two runs are treated as independent
    (half-widths add in quadrature), which overstates the interval under common random numbers.
    """
    moves = []
    old_runs = {r["label"]: r for r in before["runs"]}
    for run in after["runs"]:
        old = old_runs.get(run["label"])
        if old is None:
            continue
        olds = {m["name"]: Metric.from_json(m) for m in old["metrics"] + old.get("strength", [])}
        paired = set(run.get("paired_with_last_pass") or ())
        for raw in run["metrics"] + run.get("strength", []):
            new = Metric.from_json(raw)
            prev = olds.get(new.name)
            if prev is None or any(math.isnan(v) for v in (new.value, prev.value, new.width, prev.width)):
                continue
            if new.group == "coverage":  # issue 13.6: exact counts for the coverage gates, no estimate
                continue
            if new.name == "games":  # how many games were played (a setting), not what they measured
                continue
            d = new.value - prev.value
            kept = recorded_change(run, new.name)
            if kept is not None:
                # the paired change itself (the new value's interval also holds the old one's error)
                change, low, high = kept
                moves.append(Move(run["label"], new.name, prev, new, d, low + d - change, high + d - change))
                continue
            if new.name in paired:
                moves.append(Move(run["label"], new.name, prev, new, d, new.low - prev.value,
                                  new.high - prev.value))
                continue
            half = math.hypot((new.high - new.low) / 2, (prev.high - prev.low) / 2)
            moves.append(Move(run["label"], new.name, prev, new, d, d - half, d + half))
    return moves


def moved(moves: Sequence[Move]) -> list[Move]:
    return sorted((m for m in moves if m.moved), key=lambda m: (-m.strength, m.name))


def describe(move: Move, names: Mapping[str, str]) -> str:
    """'Anger: win-rate change vs stand-in +3.0% -> +11.0%'."""
    from boneyard.pipeline.report import show

    def val(m: Metric) -> str:
        return show(m).split(" [")[0]

    name = move.name
    if name.startswith("card.") and name.count(".") >= 2:
        cid, kind = name[5:].rsplit(".", 1)
        label = f"{names.get(cid, cid)}: {KIND_WORDS.get(kind, kind)}"
    else:
        label = name
    where = "" if move.run == "main" else f" [{move.run}]"
    return f"{label}{where} {val(move.before)} -> {val(move.after)}"


def games_said(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """'2000 games each, seed 1', or each version's count and seed when they differ (a saved
    record played at its own size against a run bounded by --games)."""
    if before["games"] == after["games"] and before["seed"] == after["seed"]:
        return f"{after['games']} games each, seed {after['seed']}"
    return (f"{before['games']} games (seed {before['seed']}) before, "
            f"{after['games']} games (seed {after['seed']}) after")


def gate_changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """Gates whose verdict changed: 'gate card.*.sub_delta on card.oaf.sub_delta: pass -> fail'."""
    def key(g: Mapping[str, Any]) -> tuple[str, str, str]:
        name = g["metric"]["name"] if g.get("metric") else g["gate"]["metric"]
        return g["run"], g["gate"]["metric"], name

    old = {key(g): g["status"] for g in before["gates"]}
    out = []
    for g in after["gates"]:
        k = key(g)
        if k in old and old[k] != g["status"]:
            where = "" if k[0] in ("main", "*") else f" [{k[0]}]"
            out.append(f"gate {k[1]} on {k[2]}{where}: {old[k]} -> {g['status']}")
    return out


# --- the other version -----------------------------------------------------------------------


def _git(args: Sequence[str], cwd: Path) -> bytes:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False, timeout=60)
    except FileNotFoundError:
        raise BoneyardError("--against: comparing with a git revision needs git, which is not "
                            "installed (install git, or pass --against a saved playtest.json)") from None
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise BoneyardError(f"git {' '.join(args)}: {exc}") from None
    if done.returncode != 0:
        msg = done.stderr.decode(errors="replace").strip().splitlines()
        raise BoneyardError(f"git {' '.join(args)}: {msg[-1] if msg else 'failed'}")
    return done.stdout


NOT_A_REF = "not a git revision, a set folder nor a playtest.json file"


@dataclass(frozen=True, slots=True)
class OldVersion:
    """The set's folder at a git revision: where it was written, and what to call it in messages."""

    ref: str
    rel: str  # the set's folder inside the repository ("." at its top)
    dest: Path  # the temporary copy

    def name(self, file: str) -> str:
        """``HEAD:cards/mine/characters.yaml`` for a file of the temporary copy (else ``file``)."""
        try:
            inner = Path(file).resolve().relative_to(self.dest.resolve()).as_posix()
        except ValueError:
            return file
        return f"{self.ref}:{inner if self.rel == '.' else f'{self.rel}/{inner}'}"

    def rename(self, text: str) -> str:
        """``text`` with every path of the temporary copy written as the revision's path."""
        inside = f"{self.ref}:" + ("" if self.rel == "." else f"{self.rel}/")
        folder = f"{self.ref}:{self.rel}" if self.rel != "." else f"{self.ref}:"
        for root in sorted({str(self.dest.resolve()), str(self.dest)}, key=len, reverse=True):
            text = text.replace(root + "/", inside).replace(root, folder)
        return text


def set_at_revision(card_set: CardSet, ref: str, into: Path) -> OldVersion:
    """Write the set's folder as it was at git revision ``ref`` under ``into``."""
    root = Path(card_set.root)
    try:
        top = Path(_git(["rev-parse", "--show-toplevel"], root).decode().strip())
    except BoneyardError as exc:
        if "not a git repository" not in str(exc):
            raise
        raise BoneyardError(
            f"--against {ref}: the set's folder {root} is not in a git repository, so it has no "
            f"revision {ref} to compare with; pass --against another copy of the set's folder, or "
            "the playtest.json a `boneyard build` saved (output/<set>/playtest.json), or put the "
            "folder under git first "
            "(git init; git add .; git commit -m 'cards') and compare against that commit"
        ) from None
    rel = root.resolve().relative_to(top.resolve()).as_posix()
    try:
        _git(["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], top)
    except BoneyardError:
        try:
            _git(["rev-parse", "--verify", "--quiet", "HEAD"], top)
            hint = "name a commit, branch or tag such as HEAD or HEAD~1; `git log --oneline` lists them"
        except BoneyardError:
            hint = "the repository has no commits yet: commit the set first (git add; git commit)"
        raise BoneyardError(f"--against {ref}: {NOT_A_REF} (no revision '{ref}' in the git "
                            f"repository {top}; {hint})") from None
    names = _git(["ls-tree", "-r", "--name-only", ref, "--", rel], top).decode().splitlines()
    if not names:
        raise BoneyardError(
            f"--against {ref}: the set's folder {rel}/ is not in revision {ref} (not committed yet, or added "
            "or moved later; `git log --oneline -- <folder>` lists the revisions that have it)")
    dest = into / root.name
    for name in names:
        target = dest / (Path(name).relative_to(rel) if rel != "." else Path(name))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(_git(["show", f"{ref}:{name}"], top))
    return OldVersion(ref, rel, dest)


def _is_revision(card_set: CardSet, ref: str) -> bool:
    """Whether ``ref`` names a commit of the git repository the set's folder is in (False when
    it is in none, or git is not installed)."""
    try:
        _git(["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], Path(card_set.root))
    except BoneyardError:
        return False
    return True


def _not_a_set(card_set: CardSet, against: str, folder: Path) -> str:
    """The message for ``--against`` an existing folder that is no card set (no game.yaml, no
    playtest.json): naming the sets of the same game inside it, when it holds some (a folder of
    sets), the one of the set's own folder name first (the set itself left out: it is not
    another version)."""
    own = Path(card_set.root).resolve() if card_set.root else None
    inside = []
    with contextlib.suppress(OSError):  # a folder we may not list: no set is named
        for p in sorted(folder.iterdir()):
            try:
                if (p / "game.yaml").is_file() and p.resolve() != own and _rules_of(p) == card_set.rules:
                    inside.append(p.name)
            except OSError:  # a folder we may not read
                continue
    if own is not None and own.name in inside:
        inside.remove(own.name)
        inside.insert(0, own.name)
    if inside:
        shown = ", ".join(inside[:5]) + (f" and {len(inside) - 5} more" if len(inside) > 5 else "")
        fix = (f"it holds the set{'s' if len(inside) > 1 else ''} {shown}: give one, e.g. "
               f"--against {folder / inside[0]}")
    else:
        fix = ("give another copy of the set's folder (the one with its game.yaml), a saved "
               "playtest.json or a git revision")
    return f"--against {against}: {against} is not a card set (the folder has no game.yaml); {fix}"


def _rules_of(folder: Path) -> Any:
    """The ``rules:`` of the set in ``folder`` as its game.yaml says (None if it says none)."""
    from boneyard.pipeline.validate_yaml import read_yaml

    doc, _ = read_yaml(folder / "game.yaml")
    return doc.data.get("rules") if isinstance(doc.data, dict) else None


def _same_game(card_set: CardSet, folder: Path, said: str) -> None:
    """Refuse an old version written for another game, from its game.yaml's ``rules:`` alone:
    loaded, its cards were fine, but the new set's playtest settings were applied to it and
    failed with "'p2' is not a playtest run", which named neither side. ``said`` is how the
    message starts ("--against ../gf is"). Unknown rules are left to the loader, which locates
    them."""
    from boneyard.pipeline.validate_yaml import display_path, read_yaml

    doc, _ = read_yaml(folder / "game.yaml")
    rules = doc.data.get("rules") if isinstance(doc.data, dict) else None
    if not isinstance(rules, str) or rules == card_set.rules or rules not in GAMES:
        return
    theirs, ours = spec_of(rules).title, spec_of(card_set.rules).title
    here = display_path(card_set.root) if card_set.root else card_set.name
    raise BoneyardError(f"{said} a {theirs} set; {here} is {ours}: compare versions of the same "
                        f"game (another copy of {here}, a git revision where it is {ours}, or "
                        "its saved playtest.json)")


def _load_old(old: OldVersion) -> CardSet:
    """The set at the old revision; its problems named by the revision's paths, not the copy's."""
    from boneyard.pipeline.load import load_set

    try:
        return load_set(old.dest)
    except CardDataError as exc:
        raise OldVersionError(old, exc.problems) from None


class OldVersionError(CardDataError):
    """The old version's card data is invalid: each problem at its path in the revision."""

    def __init__(self, old: OldVersion, problems: Sequence[Problem]) -> None:
        super().__init__([replace(p, file=old.name(p.file), message=old.rename(p.message)) for p in problems])
        count = "a problem" if len(self.problems) == 1 else f"{len(self.problems)} problems"
        head = (f"--against {old.ref}: the old version of the set (revision {old.ref}) has {count}, so "
                f"there is nothing to compare with; compare against a revision where it loads "
                f"(e.g. {old.ref}~1) or commit a fix first:")
        self.args = ("\n".join([head, *(str(p) for p in self.problems)]),)


def bounded(cfg: PlaytestConfig, games: int | None) -> PlaytestConfig:
    """``cfg`` with ``--games N``: N main games per run and at most N games for every other part
    (paired games per card, agent-strength games per matchup), so N bounds the whole run."""
    if games:
        cfg = replace(cfg, games=games, substitution_games=min(cfg.substitution_games, games),
                      strength_games=min(cfg.strength_games, games),
                      strength_rival_games=min(cfg.strength_rival_games, games))
    # one look of the same size on both sides: a diff compares, it does not gate
    return replace(cfg, cap=cfg.games, change_games=cfg.games, substitution_cap=0)


def plan(cfg: PlaytestConfig, card_set: CardSet) -> str:
    """What each version plays: '400 games per run (1 run), 100 paired games per card, ...'."""
    runs = len(cfg.runs)
    parts = [f"{cfg.games} games per run ({runs} run{'s' if runs != 1 else ''})"]
    spec = spec_of(card_set.rules)
    cards = [cid for cid, _ in spec.units(card_set)
             if cfg.substitution_cards is None or cid in cfg.substitution_cards]
    if cfg.substitution_games > 0 and spec.stand_in is not None and cards:
        parts.append(f"{cfg.substitution_games} paired games for each of {len(cards)} "
                     f"card{'s' if len(cards) != 1 else ''}")
    if cfg.strength_games > 0:
        parts.append(f"{cfg.strength_games} agent-strength games per matchup")
    if cfg.strength_games > 0 and cfg.strength_rivals and cfg.strength_rival_games > 0:
        parts[-1] += f" ({cfg.strength_rival_games} against each rival)"
    return "each version plays " + ", ".join(parts)


def config_from_record(record: Mapping[str, Any], jobs: int,
                       where: str = "playtest.json") -> PlaytestConfig:
    """The settings a saved record was made with (so the new run uses the same seeds); ``where``
    names the record in messages."""
    cfg = dict(record["config"])
    profile = cfg.pop("profile", "default")
    cfg.pop("precision", None)
    cfg["jobs"] = jobs
    resolved = resolve(cfg, default_players=None, where=f"{where}: config")
    from dataclasses import replace

    return replace(resolved, profile=profile)


def saved_record(path: Path, card_set: CardSet) -> dict[str, Any]:
    """The record at ``path`` to diff ``card_set`` against; a damaged file, or a record of
    another game, is one message saying so (never a traceback halfway through the run). Only
    what a diff reads is checked: a record made on another machine is fine to compare with."""
    from boneyard.pipeline.build import _unreadable

    fix = "diff against a playtest.json that `boneyard build` wrote, or a git revision"
    record = read_record(path)
    if record is None:
        raise BoneyardError(f"{path}: not a playtest record ({_unreadable(path)}); {fix}")
    missing = [k for k in ("config", "content_hash", "runs", "gates", "gates_passed",
                           "gates_total", "games", "seed") if k not in record]
    if missing:
        raise BoneyardError(f"{path}: not a playtest record (it has no "
                            f"{', '.join(repr(k) for k in missing)}); {fix}")
    try:
        if not isinstance(record["config"], dict):
            raise TypeError("'config' is not an object")
        if not record["runs"]:  # nothing to compare with: every metric would read "unmoved"
            raise ValueError("it holds no runs")
        record = _nan_back(record)
        compare(record, record)
        gate_changes(record, record)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise BoneyardError(f"{path}: a damaged playtest record (its runs or gates cannot be "
                            f"read: {type(exc).__name__} {exc}); {fix}") from None
    rules = record.get("rules")
    if isinstance(rules, str) and rules != card_set.rules:
        theirs = next((s.title for s in specs() if s.name == rules), rules)
        raise BoneyardError(f"{path}: a playtest record of {theirs} (set '{record.get('set')}'), "
                            f"not of {spec_of(card_set.rules).title}: diff '{card_set.slug}' "
                            f"against a record of its own game (output/{card_set.slug}/"
                            "playtest.json, or a git revision)")
    return record


def _paired_after(card_set: CardSet, old_set: CardSet, before: dict[str, Any],
                  cfg: PlaytestConfig) -> dict[str, Any]:
    """The new version's record, played paired with the old one's games where both are of one
    game (the same games on both versions: every interval of a change is paired)."""
    if old_set.rules != card_set.rules:
        return playtest(card_set, cfg)
    from boneyard.pipeline.lastpass import base_for
    from boneyard.pipeline.record import finite

    was = _nan_back(json.loads(json.dumps(finite(before))))
    return playtest(card_set, cfg, base=base_for(card_set, old_set, was))


def diff(card_set: CardSet, against: str, *, fast: bool = False, jobs: int | None = None,
         games: int | None = None, announce: Callable[[str], None] | None = None,
         ) -> tuple[dict[str, Any], dict[str, Any], list[Move]]:
    """(before record, after record, every compared metric). ``games`` bounds every part of the
    run (see :func:`bounded`); ``announce`` is told what each version plays before it starts."""
    jobs = jobs or default_jobs()
    path = Path(against)
    if path.suffix == ".json" and not path.is_file():
        raise BoneyardError(f"--against {against}: no such file (a saved playtest.json, or a git revision)")
    if path.is_dir() and (path / "playtest.json").is_file():
        raise BoneyardError(f"--against {against}: a folder; give the record in it, "
                            f"--against {path / 'playtest.json'}")
    if path.suffix == ".json" or path.is_file():
        before = saved_record(path, card_set)
        cfg = bounded(config_from_record(before, jobs, str(path)), games)
        if announce:
            announce(plan(cfg, card_set) + " (the new version only: the old one is the saved record)")
        after = playtest(card_set, cfg)
    elif path.is_dir() and (path / "game.yaml").is_file():  # another copy of the set's folder
        from boneyard.pipeline.load import load_set

        cfg = bounded(config_for(card_set, fast=fast, jobs=jobs, games=games), games)
        _same_game(card_set, path, f"--against {against} is")
        old_set = load_set(path)  # its problems are located in its own files
        if Path(old_set.root).resolve() == Path(card_set.root).resolve():
            raise BoneyardError(f"--against {against}: the set's own folder; give another copy "
                                "of it, a git revision or a saved playtest.json")
        if announce:
            announce(plan(cfg, card_set))
        try:
            before = playtest(old_set, cfg)
        except BoneyardError as exc:
            raise BoneyardError(f"--against {against}: the old version: {exc}") from None
        after = _paired_after(card_set, old_set, before, cfg)
    else:
        if path.is_dir() and not _is_revision(card_set, against):
            raise BoneyardError(_not_a_set(card_set, against, path))
        cfg = bounded(config_for(card_set, fast=fast, jobs=jobs, games=games), games)
        with tempfile.TemporaryDirectory(prefix="boneyard-diff-") as tmp:
            old = set_at_revision(card_set, against, Path(tmp))
            _same_game(card_set, old.dest, f"--against {against}: at that revision the set was")
            old_set = _load_old(old)
            if announce:
                announce(plan(cfg, card_set))
            try:
                before = playtest(old_set, cfg)
            except CardDataError as exc:
                raise OldVersionError(old, exc.problems) from None
            except BoneyardError as exc:
                if str(old.dest) not in str(exc) and str(old.dest.resolve()) not in str(exc):
                    raise
                raise BoneyardError(f"--against {against}: the old version: {old.rename(str(exc))}") from None
            after = _paired_after(card_set, old_set, before, cfg)
    from boneyard.pipeline.record import finite as _finite

    before = _nan_back(json.loads(json.dumps(_finite(before))))
    after = _nan_back(json.loads(json.dumps(_finite(after))))
    return before, after, compare(before, after)


@click.command("diff")
@click.argument("set_name", metavar="SET")
@click.option("--against", "against", required=True, metavar="REF",
              help="A git revision of the card files (HEAD~1, a tag...), another copy of the set's "
                   "folder, or a saved playtest.json.")
@click.option("--fast", is_flag=True, help="The set's fast playtest profile (CI): fewer games, same gates.")
@click.option("--games", type=WholeNumber(1), default=None, metavar="N",
              help="Bound the whole run: N games per run and at most N paired games per card and N "
                   "agent-strength games per matchup, for each version (default: the profile's "
                   "sizes). --games 20 is a quick look; its intervals are wide.")
@click.option("--jobs", type=JOBS, default=None,
              help="Worker processes [default: all cores]; the result does not depend on it.")
@click.option("--all", "show_all", is_flag=True, help="Also list the metrics that did not move.")
def diff_cmd(set_name: str, against: str, fast: bool, games: int | None, jobs: int | None, show_all: bool) -> None:
    """Playtest SET and the version REF on the same deals and seeds; list what moved.

    Each version plays the set's playtest profile (--fast: its fast profile) once, at its first
    look: the main games of every run, the paired games of every card and the agent-strength
    games. What it plays is printed first; --games N bounds all of it.
    """
    from boneyard.pipeline.load import load_set

    if not against.strip():
        raise click.BadParameter("give a git revision (HEAD~1, a tag), a copy of the set's folder or a playtest.json file",
                                 param_hint="'--against'")
    card_set = load_set(set_name)
    before, after, moves = diff(card_set, against, fast=fast, jobs=capped_jobs(jobs), games=games,
                                announce=lambda line: click.echo(f"{card_set.name}: {line}", err=True))
    names = {c.id: c.name for c in getattr(card_set, "characters", ())}  # a game's units, if any
    click.echo(f"{card_set.name}: {against} (content {before['content_hash']}) -> working copy "
               f"(content {after['content_hash']}), {games_said(before, after)}")
    for label, rec in (("before", before), ("after", after)):
        click.echo(f"  gates {label}: {rec['gates_passed']}/{rec['gates_total']} passed")
    for line in gate_changes(before, after):
        click.echo(f"  {line}")
    shown = moved(moves)
    if not shown:
        click.echo("No metric moved beyond its interval.")
    else:
        click.echo(f"{len(shown)} metrics moved beyond their intervals (most moved first):")
        for m in shown:
            click.echo(f"  {describe(m, names)}")
    if show_all:
        rest = [m for m in moves if not m.moved]
        click.echo(f"{len(rest)} metrics did not move:")
        for m in rest:
            click.echo(f"  {describe(m, names)}")
