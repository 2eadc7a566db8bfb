"""From a card-set folder to a trusted :class:`~boneyard.engine.cards.CardSet`.

This is the one boundary where YAML becomes engine data. ``check_set`` reads every file of a set,
validates it (schema, then semantics) and collects *every* problem; only a set without problems is
converted into frozen objects, so the engines and renderers never see half-valid data.
``load_set`` is the same with the problems raised as one :class:`CardDataError`.
"""

from __future__ import annotations

import difflib
import hashlib
import itertools
import os
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from boneyard.engine.cards import CardSet, freeze
from boneyard.engine.games import GAMES, spec_of
from boneyard.engine.hashing import content_hash
from boneyard.engine.spec import GameSpec, SetFiles
from boneyard.pipeline import validate as v
from boneyard.pipeline.validate_yaml import YamlDoc, display_path, read_yaml

from boneyard.errors import CardDataError, Problem
from boneyard.paths import CARDS, bundled_sets

GAME_FILE = "game.yaml"


class SetNotFoundError(CardDataError):
    """The argument names no card set: a usage error (exit 2), not bad card data."""

    exit_code = 2

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__([])
        self.args = (message,)

    def __str__(self) -> str:
        return self.message


def resolve_set(path_or_name: str | Path) -> Path:
    """The folder of a set: a bare name is looked up under ``cards/``, anything else is a path.

    A path to a ``game.yaml``, or to any card file next to one, means that folder: a designer
    can validate "this file" straight from the editor, and the whole set is checked.
    """
    text = str(path_or_name)
    if isinstance(path_or_name, str) and "/" not in text and "\\" not in text \
            and (CARDS / text / GAME_FILE).is_file():
        return CARDS / text
    p = Path(path_or_name)
    if p.is_file() and (p.parent / GAME_FILE).is_file():
        return p.parent
    if p.is_dir() and (p / GAME_FILE).is_file():
        return p
    bundled = ", ".join(bundled_sets()) or "none"
    if p.is_dir() and os.path.lexists(p / GAME_FILE):  # a folder, a FIFO, a broken link
        raise SetNotFoundError(f"{display_path(p / GAME_FILE)}: not a regular file (a set's "
                               f"{GAME_FILE} is a YAML file)")
    if p.is_dir():
        raise SetNotFoundError(f"{display_path(p)}: not a card set, it has no {GAME_FILE} "
                               f"(bundled sets: {bundled})")
    raise SetNotFoundError(f"{text}: no such card set (bundled sets: {bundled}; "
                           "or give the path of a set folder)")


@dataclass
class SetCheck:
    """What ``check_set`` found: the set if it is valid, and every problem otherwise."""

    root: Path
    card_set: CardSet | None = None
    problems: list[Problem] = field(default_factory=list)
    rules: str | None = None
    name: str | None = None

    @property
    def ok(self) -> bool:
        return self.card_set is not None and not self.problems


def _named(doc: YamlDoc, problems: list[Problem], is_card_list: bool) -> list[Problem]:
    """The reader's problems named as the schema's are (``card 'oaf': power: ...``): the reader
    sees YAML nodes, not cards, so the card and key are found again from where it stopped."""
    paths = {mark: path for path, mark in doc.values.items()}
    card_of = v.CardOf(doc, is_card_list)
    out = []
    for p in problems:
        path = paths.get((p.line, p.column))
        if path is None or p.card:
            out.append(p)
            continue
        card, rel = card_of(path)
        label = v._label(rel)
        out.append(replace(p, card=card, message=f"{label}: {p.message}" if label else p.message))
    return out


def _read(path: Path, schema_name: str, *,
          is_card_list: bool) -> tuple[YamlDoc, list[Problem], bool]:
    """(document, problems, whether the reader took every value as written)."""
    doc, problems = read_yaml(path, kind="card files" if is_card_list else None)
    if problems and doc.data is None:
        return doc, problems, False
    if doc.data is None:
        what = "a list of cards" if is_card_list else "the set's settings"
        fix = ("add its cards, each starting with '- id: ...', or stop naming the file in "
               f"{GAME_FILE}") if is_card_list else f"a bundled set's {GAME_FILE} shows one"
        return doc, [Problem(doc.file, 1, 1, f"file is empty, expected {what}", hint=fix)], True
    if problems:  # values the reader refused (.nan, a tag, a merge key) are blanks now: the
        # schema checks the rest of the file, not those again (nor the keys a merge left out)
        at = {(p.line, p.column) for p in problems} | doc.incomplete
        problems = _named(doc, problems, is_card_list)
        schema = v.schema_problems(doc, schema_name, is_card_list=is_card_list)
        return doc, problems + [p for p in schema if (p.line, p.column) not in at], False
    return doc, v.schema_problems(doc, schema_name, is_card_list=is_card_list), True


def check_set(path_or_name: str | Path, *, counts: bool = True) -> SetCheck:
    """Validate a card set completely; build the CardSet only if nothing is wrong.

    ``counts=False`` leaves out what counts the whole deck (cards per back, a deal): for a
    caller that knows cards are missing because of a problem it has already said (an import's
    row refused whole), so that one mistake stays one message.
    Raises :class:`SetNotFoundError` only when there is no set to check at all.
    """
    root = resolve_set(path_or_name)
    result = SetCheck(root)
    # the settings file is as untrusted as the card files: a link out of the folder is refused
    _, why = v.inside_set(root, GAME_FILE)
    if why is not None:
        result.problems.append(Problem(display_path(root / GAME_FILE), 1, 1, f"{GAME_FILE} {why}",
                                       hint=f"make {GAME_FILE} a file inside the set folder, "
                                            "not a link to one elsewhere"))
        return result
    game, problems, whole = _read(root / GAME_FILE, "game", is_card_list=False)
    result.problems += problems
    g = game.data if isinstance(game.data, dict) else None
    if g is None:
        if not problems:
            result.problems.append(Problem(game.file, 1, 1, "expected the set's settings "
                                           "(name:, rules:, card_files:, ...)"))
        return result
    rules = g.get("rules")
    result.rules = rules if isinstance(rules, str) and rules in GAMES else None
    result.name = g.get("name") if isinstance(g.get("name"), str) else None
    if result.rules is None:
        return result  # the schema error says which rules exist; nothing else can be checked
    _check_cards(root, game, g, spec_of(result.rules), counts, result)
    if result.problems:
        _wrong_rules(root, game, g, counts, result, [] if whole else problems)
    return result


def _wrong_rules(root: Path, game: YamlDoc, g: dict[str, Any], counts: bool, result: SetCheck,
                 read: list[Problem]) -> None:
    """A set whose cards and settings fit other rules than the ones named is one mistake, the
    ``rules:`` line: said there once, not as every card's missing and unknown keys. ``read``
    holds game.yaml's problems when the reader refused a value there (none when it read it
    whole): those stay whatever the rules."""
    declared = len(result.problems)
    if declared < 5:
        return  # a few problems are the set's own: another game's schema could not fit it
    own = v.schema_problems(game, "game", is_card_list=False) if read else []
    read_problems = sum(p not in own for p in read)
    best: tuple[int, str] | None = None
    for other in sorted(GAMES):
        if other == result.rules:
            continue
        trial = SetCheck(root)
        doc = replace(game, data={**g, "rules": other})
        trial.problems += v.schema_problems(doc, "game", is_card_list=False)
        _check_cards(root, doc, doc.data, spec_of(other), counts, trial)
        count = len(trial.problems) + read_problems
        if best is None or count < best[0]:
            best = (count, other)
    if best is None or best[0] * 5 > declared:
        return
    count, other = best
    still = f"; then {count} more to fix" if count else ""
    result.problems = [game.problem(
        ("rules",), f"rules: says {result.rules!r} but the cards and settings are written for "
        f"{other!r} ({declared} problems under {result.rules!r}, {count} under {other!r}{still})",
        hint=f"write rules: {other}")]


def _check_cards(root: Path, game: YamlDoc, g: dict[str, Any], spec: GameSpec, counts: bool,
                 result: SetCheck) -> None:
    """Everything after game.yaml's own schema: card files, extra files, the game's checks."""
    docs: list[YamlDoc] = []
    listed = g.get("card_files")
    files: list[Any] = listed if isinstance(listed, list) else []
    complete = counts and bool(files)
    seen: dict[Path, tuple[Any, ...]] = {}
    extras = {_resolved(root, g.get(key)): key for key in spec.extra_card_files}
    extras.pop(None, None)
    for i, rel in enumerate(files):
        where = _resolved(root, rel)
        also = extras.get(where) if where is not None else None
        if also is not None:  # the rares file listed as a deck file: its cards are no deck,
            # and what the deck's checks would say of them follows from this one slip
            line, col = game.where((also,))
            result.problems.append(game.problem(
                ("card_files", i), f"card file {rel!r} is the file {also} names (at "
                f"{line}:{col}); a file is one or the other",
                hint=f"list the deck's own card files here, or name another file in {also}"))
            complete = False
            continue
        doc, whole = _open_card_file(root, game, ("card_files", i), rel, spec, result, seen)
        if doc is not None:
            docs.append(doc)
        # a file not read, or read with values blanked, would make every count over the deck
        # a follow-on of its own problem ("back 'double' has 0 cards"): counts wait for it
        complete = complete and whole and doc is not None and isinstance(doc.data, list)
    extra: dict[str, YamlDoc | None] = {}
    for key in spec.extra_card_files:
        extra[key] = (_open_card_file(root, game, (key,), g[key], spec, result, seen)[0]
                      if isinstance(g.get(key), str) else None)

    set_files = SetFiles(root, game, docs, extra, complete, lambda rel: v.art_problem(root, rel))
    result.problems += spec.check(set_files)
    result.problems += _run_players(game, g, spec, result.problems)
    result.problems.sort(key=lambda p: (p.file, p.line, p.column))
    if not result.problems:
        result.card_set = _build(root, g, spec, set_files)


def _resolved(root: Path, rel: Any) -> Path | None:
    """Where a card file name inside the set leads, or None (refused elsewhere)."""
    if not isinstance(rel, str):
        return None
    target, _ = v.inside_set(root, rel)
    return target.resolve() if target is not None else None


def _player_range(g: dict[str, Any], spec: GameSpec) -> tuple[int, int, bool] | None:
    """(fewest, most, whether game.yaml's ``players:`` set them) the set is played by; None
    when ``players:`` is a value the schema refuses (said there once)."""
    lo, hi = spec.min_players, spec.max_players
    players = g.get("players")
    if players is None:
        return lo, hi, False
    least, most = (players.get("min"), players.get("max")) if isinstance(players, dict) \
        else (players, players)
    if not (isinstance(least, int) and isinstance(most, int)) or isinstance(least, bool) \
            or isinstance(most, bool) or not lo <= least <= most <= hi:
        return None
    return least, most, True


def _run_players(game: YamlDoc, g: dict[str, Any], spec: GameSpec,
                 said: list[Problem]) -> list[Problem]:
    """Each playtest run (of the section and of its profiles) whose player count the set does
    not allow: the engine would refuse it in the first game of a build, one run at a time and
    with no line to fix; said here, at each run's ``players:``."""
    span = _player_range(g, spec)
    playtest = g.get("playtest")
    if span is None or not isinstance(playtest, dict):
        return []
    lo, hi, own = span
    sections: list[tuple[tuple[Any, ...], Any]] = [(("playtest",), playtest)]
    profiles = playtest.get("profiles")
    if isinstance(profiles, dict):
        sections += [(("playtest", "profiles", name), p) for name, p in profiles.items()]
    spots = {(p.file, p.line, p.column) for p in said}
    own = own and (lo, hi) != (spec.min_players, spec.max_players)  # else the game's limit
    allowed = (f"players allows {lo}-{hi}" if lo < hi else f"players is {lo}") if own else \
        f"{spec.title} is for {lo}-{hi} players" if lo < hi else \
        f"{spec.title} is for exactly {lo} players"
    fix = "change the run's players" + ((" or players: min/max" if isinstance(
        g.get("players"), dict) else " or players:") if own else "")
    out = []
    for at, section in sections:
        if not isinstance(section, dict):
            continue
        runs = section.get("runs")
        counted = [((*at, "runs", i), run) for i, run in enumerate(runs)
                   if isinstance(run, dict)] if isinstance(runs, list) else \
            [(at, section)] if "players" in section else []  # one run: the section's own
        for where, run in counted:
            n = run.get("players")
            if not isinstance(n, int) or isinstance(n, bool) or lo <= n <= hi:
                continue
            path = (*where, "players")
            if (game.file, *game.where(path)) in spots:
                continue  # the schema refused the count: said once, there
            label = run.get("label") if isinstance(run.get("label"), str) else f"p{n}"
            what = f"{v._label(where)} ({label})" if isinstance(where[-1], int) else \
                v._label(path)
            out.append(game.problem(path, f"{what}: {n} players, but {allowed}", hint=fix))
    return out


def _near_file(target: Path, rel: str) -> str | None:
    """The YAML file beside ``target`` whose name is closest to its (``Characters.yaml``,
    ``characters.yml``), written as ``rel`` would be; None if there is none."""
    try:
        names = [p.name for p in itertools.islice(target.parent.iterdir(), 500)
                 if p.suffix.lower() in (".yaml", ".yml") and p.name != GAME_FILE]
    except OSError:
        return None
    lower = {n.lower(): n for n in names}
    near = difflib.get_close_matches(target.name.lower(), list(lower), n=1, cutoff=0.75)
    return posixpath.join(posixpath.dirname(rel.replace("\\", "/")), lower[near[0]]) if near else None


def _open_card_file(root: Path, game: YamlDoc, at: tuple[Any, ...], rel: Any, spec: GameSpec,
                    result: SetCheck, seen: dict[Path, tuple[Any, ...]]
                    ) -> tuple[YamlDoc | None, bool]:
    """The card file named at ``at`` in game.yaml, read and schema-checked, and whether it was
    read whole (no value refused); (None, False) when it cannot be opened, said once."""
    if not isinstance(rel, str) or not rel:
        return None, False  # reported by the schema
    line, col = game.where(at)
    if any(p.file == game.file and (p.line, p.column) == (line, col) for p in result.problems):
        return None, False  # the schema refused the name ('../x', '/etc/x'): said once there
    target, why = v.inside_set(root, rel)
    if target is None:
        result.problems.append(game.problem(at, f"card file {rel!r} {why}"))
        return None, False
    if not target.is_file():
        if target.exists():  # a folder, a FIFO, a device: reading it could block or mislead
            result.problems.append(game.problem(at, f"card file {rel!r} is not a regular file",
                                                hint="name a .yaml file"))
        else:
            near = _near_file(target, rel)
            result.problems.append(game.problem(at, f"card file {rel!r} does not exist",
                                                hint=(f"did you mean {near!r}? " if near else "")
                                                + f"create it next to {GAME_FILE} or fix the name"))
        return None, False
    # a file read twice would make every card in it a duplicate of itself
    key = target.resolve()
    if key == (root / GAME_FILE).resolve():
        result.problems.append(game.problem(at, f"{rel!r} is the set's settings file, not a "
                                            "card file", hint="list the files that hold cards"))
        return None, False
    if key in seen:
        first = seen[key]
        # the same name twice in card_files: the schema says so already
        if not (first[0] == at[0] == "card_files" and _value_at(game.data, first) == rel):
            line, col = game.where(first)
            result.problems.append(game.problem(at, f"card file {rel!r} is the file already "
                                                f"listed at {line}:{col}",
                                                hint="list each card file once"))
        return None, False
    seen[key] = at
    doc, problems, whole = _read(target, spec.card_schema, is_card_list=True)
    result.problems += problems
    return (doc, whole) if doc.data is not None else (None, False)


def _value_at(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        data = data[step]
    return data


def load_set(path_or_name: str | Path) -> CardSet:
    """The validated CardSet of a bundled set name or a set folder; raises CardDataError."""
    result = check_set(path_or_name)
    if not result.ok:
        raise CardDataError(result.problems)
    assert result.card_set is not None
    return result.card_set


# --- conversion (only ever runs on data without problems) --------------------------------------


def _filled(given: Mapping[str, Any] | None, defs_name: str) -> dict[str, Any]:
    out = v.schema_defaults(defs_name)
    out.update(given or {})
    return out


def _build(root: Path, g: dict[str, Any], spec: GameSpec, files: SetFiles) -> CardSet:
    params = _filled(g.get("params"), f"{spec.settings_defs}_params")
    for key in ("players", "version"):
        if key in g:
            params.setdefault(key, g[key])
    switches = _filled(g.get("switches"), f"{spec.settings_defs}_switches")
    base = dict(
        name=g["name"],
        slug=root.resolve().name,
        rules=spec.name,
        params=freeze(params),
        switches=freeze(switches),
        content_hash="",
        root=str(root),
        playtest=freeze(g.get("playtest")),
    )
    card_set = spec.build(files, base)
    card_set = replace(card_set, files=printed_files(root, spec, files))
    return replace(card_set, content_hash=content_hash(card_set))


def _digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _strings(data: Any) -> list[str]:
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [s for v in data.values() for s in _strings(v)]
    if isinstance(data, list):
        return [s for v in data for s in _strings(v)]
    return []


def printed_files(root: Path, spec: GameSpec, files: SetFiles) -> tuple[tuple[str, str], ...]:
    """(name, sha256) of every file that changes what is printed: the template the set prints
    with (its own, else its game's bundled one), each file the template names beside it (images,
    fonts), and each card's art. A changed byte in any of them changes the content hash."""
    found: dict[str, str] = {}
    template = root / "template.yaml"
    label = "template.yaml"
    if not template.is_file() and spec.bundled_set:
        template, label = CARDS / spec.bundled_set / "template.yaml", f"{spec.bundled_set}/template.yaml"
    if template.is_file():
        found[label] = _digest(template)
        doc, problems = read_yaml(template)
        for text in _strings(doc.data) if not problems else []:
            target, _ = v.inside_set(template.parent, text) if text else (None, None)
            if target is not None and target.is_file():
                found[f"{label}:{text}"] = _digest(target)
    for card_doc in [*files.docs, *(d for d in files.extra.values() if d is not None)]:
        for card in card_doc.data if isinstance(card_doc.data, list) else []:
            art = card.get("art") if isinstance(card, dict) else None
            target, _ = v.inside_set(root, art) if isinstance(art, str) and art else (None, None)
            if target is not None and target.is_file():
                found[f"art:{art}"] = _digest(target)
    return tuple(sorted(found.items()))
