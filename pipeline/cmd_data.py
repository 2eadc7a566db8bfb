"""``boneyard validate`` and ``boneyard cards``: a designer's first look at a card set.

``validate`` reports every problem of every set at once (exit 1) or prints what each set contains,
so a designer can see at a glance that the decks add up. ``cards`` lists a set as a table or as
JSON for other tools. A SET is a name under ``cards/`` or the path of a set folder.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

import click
from boneyard.engine.cards import CardSet
from boneyard.engine.games import spec_of
from boneyard.engine.spec import Table as SpecTable
from boneyard.pipeline.console import Console
from boneyard.pipeline.load import SetCheck, SetNotFoundError, check_set, resolve_set
from boneyard.pipeline.set_checks import set_problems
from rich.table import Table
from rich.text import Text

from boneyard.errors import Problem
from boneyard.paths import bundled_sets


def _console() -> Console:
    # Created per call so CliRunner's captured stdout is used; no colours when piped.
    return Console(file=sys.stdout, highlight=False, soft_wrap=False)


def _resolve_all(sets: tuple[str, ...]) -> list[str]:
    names = list(sets) or bundled_sets()
    for s in names:
        try:
            resolve_set(s)
        except SetNotFoundError as exc:
            raise click.UsageError(str(exc)) from None
    return names


def _found(sets: tuple[str, ...], as_json: bool = False) -> tuple[list[str], list[str]]:
    """The sets that exist, and why each other name is none: one missing name does not keep
    ``validate`` from checking the rest (unless every name is missing: a usage error, or with
    ``as_json`` the JSON report a script asked for, holding why, as with some names missing)."""
    names, missing = [], []
    for s in list(sets) or bundled_sets():
        try:
            resolve_set(s)
            names.append(s)
        except SetNotFoundError as exc:
            missing.append(str(exc))
    if missing and not names and not as_json:
        raise click.UsageError("\n".join(missing))
    return names, missing


def _report_problems(check: SetCheck) -> None:
    label = check.name or check.root.name
    n = len(check.problems)
    click.echo(f"{label}: {n} problem{'s' if n != 1 else ''}", err=True)
    for p in check.problems:
        click.echo(str(p), err=True)


def draw(t: SpecTable) -> Table:
    """A game's listing (:class:`boneyard.engine.spec.Table`) as a rich table."""
    table = Table(title=Text(t.title), min_width=t.min_width)  # names are the set's, not markup
    for col in t.columns:
        table.add_column(col.heading, justify="right" if col.justify == "right" else "left",
                         no_wrap=col.no_wrap)
    for row in t.rows:
        table.add_row(*(Text(cell) for cell in row))
    if t.total is not None:
        table.add_row(*(Text(cell) for cell in t.total), style="bold")
    return table


_LOCATED = re.compile(r"^(?P<file>.+?):(?P<line>\d+):(?P<column>\d+): (?P<message>.*)$")


def _problem_json(problem: Problem | str) -> dict[str, Any]:
    """A problem as data for editors and CI; a message without a location keeps its whole text."""
    if isinstance(problem, Problem):
        return {"file": problem.file, "line": problem.line, "column": problem.column,
                "card": problem.card, "message": problem.message, "hint": problem.hint}
    m = _LOCATED.match(problem)
    if m is None:
        return {"file": None, "line": None, "column": None, "card": None, "message": problem, "hint": None}
    return {"file": m["file"], "line": int(m["line"]), "column": int(m["column"]), "card": None,
            "message": m["message"], "hint": None}


@click.command("validate")
@click.argument("sets", nargs=-1, metavar="[SET]...")
@click.option("--json", "as_json", is_flag=True,
              help="Print one JSON report (every set, every problem with file, line and column).")
def validate_command(sets: tuple[str, ...], as_json: bool) -> None:
    """Check card sets against the schema and the game's rules; list every problem.

    SET is a name under cards/, a set folder or a file in one; with none, every bundled set is
    checked. Exit code 1 if any set has a problem, each printed as file:line:column.
    """
    names, missing = _found(sets, as_json)
    console = _console()
    bad = 0
    report: list[dict[str, Any]] = []
    for name in names:
        check = check_set(name)
        playtest, warnings = set_problems(check.card_set) if check.ok and check.card_set else ([], [])
        ok = check.ok and not playtest
        bad += not ok
        if as_json:
            cs = check.card_set
            problems: list[Problem | str] = list(check.problems) if not check.ok else list(playtest)
            # "set" names the folder, as cards --json does and as a command takes it; "name"
            # is the set's own name from game.yaml (None when the set could not be read)
            report.append({"set": cs.slug if cs else check.root.name,
                           "name": cs.name if cs else check.name,
                           "root": str(check.root), "ok": ok,
                           "content_hash": cs.content_hash if cs and ok else None,
                           "problems": [_problem_json(p) for p in problems],
                           "warnings": [_problem_json(w) for w in warnings]})
        elif ok:
            assert check.card_set is not None
            for line in warnings:
                click.echo(f"warning: {line}", err=True)
            for t in spec_of(check.card_set.rules).set_tables(check.card_set):
                console.print(draw(t))
            console.print(f"ok: {check.card_set.name} is valid", markup=False)
        elif playtest:
            assert check.card_set is not None
            for line in warnings:
                click.echo(f"warning: {line}", err=True)
            n = len(playtest)
            click.echo(f"{check.card_set.name}: {n} problem{'s' if n != 1 else ''} (playtest "
                       "section or card template)", err=True)
            for line in playtest:
                click.echo(line, err=True)
        else:
            _report_problems(check)
    for why in missing:
        if as_json:
            report.append({"set": None, "name": None, "root": None, "ok": False, "content_hash": None,
                           "problems": [_problem_json(why)], "warnings": []})
        else:
            click.echo(f"Error: {why}", err=True)
    if as_json:
        click.echo(json.dumps({"ok": not bad and not missing, "sets": report}, indent=2))
    if bad and not as_json:
        click.echo(f"{bad} of {len(names)} set{'s' if len(names) != 1 else ''} invalid", err=True)
    if missing:
        raise SystemExit(2)  # a name that is no set: a usage error, after the sets that are
    if bad:
        raise SystemExit(1)


def cards_json(card_set: CardSet, back: str | None = None) -> dict[str, Any]:
    """The set as plain JSON: its game's card entries under the set's name and content hash."""
    out: dict[str, Any] = {"set": card_set.slug, "name": card_set.name, "rules": card_set.rules,
                           "content_hash": card_set.content_hash}
    out.update(spec_of(card_set.rules).cards_json(card_set, back))
    return out


@click.command("cards")
@click.argument("set_name", metavar="SET")
@click.option("--back", "back", metavar="B", help="Only the cards with this back (games whose cards have backs).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def cards_command(set_name: str, back: str | None, as_json: bool) -> None:
    """List the cards of a set, as a table or as JSON.

    SET is a name under cards/, a set folder or a file in one.
    """
    _resolve_all((set_name,))
    check = check_set(set_name)
    if not check.ok:
        if as_json:  # a script asked for JSON: it gets JSON, the problems as validate --json has them
            click.echo(json.dumps({"ok": False, "problems": [_problem_json(p) for p in check.problems]},
                                  indent=2))
        else:
            _report_problems(check)
        raise SystemExit(1)
    card_set = check.card_set
    assert card_set is not None
    spec = spec_of(card_set.rules)
    if back is not None:
        ids = list(spec.card_groups(card_set))
        if not ids:
            raise click.UsageError(f"--back: {card_set.name} cards have no backs")
        if back not in ids:
            raise click.UsageError(f"--back: no back '{back}' in {card_set.name} "
                                   f"(backs: {', '.join(ids)})")
    if as_json:
        click.echo(json.dumps(cards_json(card_set, back), indent=2))
        return
    _console().print(draw(spec.cards_table(card_set, back)))


def register(group: click.Group) -> None:
    """Add ``validate`` and ``cards`` to the boneyard command group."""
    group.add_command(validate_command)
    group.add_command(cards_command)
