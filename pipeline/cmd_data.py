"""``boneyard validate`` and ``boneyard cards``: a designer's first look at a card set.

``validate`` reports every problem of every set at once (exit 1) or prints what each set contains,
so a designer can see at a glance that the decks add up. ``cards`` lists a set as a table or as
JSON for other tools. A SET is a name under ``cards/`` or the path of a set folder.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import click
from boneyard.engine.cards import GF_KINDS, CardSet
from boneyard.engine.dotd.cards import Step
from boneyard.pipeline.load import SetCheck, SetNotFoundError, check_set, resolve_set
from rich.console import Console
from rich.table import Table

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


def _report_problems(check: SetCheck) -> None:
    label = check.name or check.root.name
    n = len(check.problems)
    click.echo(f"{label}: {n} problem{'s' if n != 1 else ''}", err=True)
    for p in check.problems:
        click.echo(str(p), err=True)


def summary_table(card_set: CardSet) -> Table:
    """What a valid set contains: per back (Day of the Dead) or per kind (Grave Feast)."""
    title = f"{card_set.name} ({card_set.slug}, content {card_set.content_hash})"
    if card_set.rules == "day-of-the-dead":
        table = Table(title=title, min_width=len(title))
        for col in ("back", "colour", "cards", "characters", "mean power"):
            table.add_column(col, justify="right" if col in ("cards", "characters",
                                                             "mean power") else "left")
        for back in card_set.backs:
            cards = [c for c in card_set.cards if c.back == back.id]
            chars = {c.character.id for c in cards}
            mean = sum(c.character.power for c in cards) / len(cards) if cards else 0.0
            table.add_row(back.name, back.colour_name or back.colour, str(len(cards)),
                          str(len(chars)), f"{mean:.2f}")
        table.add_row("total", "", str(len(card_set.cards)), str(len(card_set.characters)),
                      "", style="bold")
        return table
    table = Table(title=title, min_width=len(title))
    for col in ("kind", "faces", "cards per deck", "rares"):
        table.add_column(col, justify="left" if col == "kind" else "right")
    for kind in GF_KINDS:
        faces = [f for f in card_set.feast_cards if f.kind == kind]
        rares = [f for f in card_set.rares if f.kind == kind]
        if not faces and not rares:
            continue
        table.add_row(kind.replace("_", " "), str(len(faces) + len(rares)),
                      str(sum(f.copies for f in faces)), str(sum(f.copies for f in rares)))
    table.add_row("total", str(len(card_set.feast_cards) + len(card_set.rares)),
                  str(sum(f.copies for f in card_set.feast_cards)),
                  str(sum(f.copies for f in card_set.rares)), style="bold")
    return table


def _backs_text(ch: Any, names: dict[str, str]) -> str:
    """"all" for the usual character (once on every back), else each back with its copies."""
    if ch.copies == 1 and set(ch.backs) == set(names):
        return "all"
    return ", ".join(names[b] + (f" x{ch.copies}" if ch.copies > 1 else "") for b in ch.backs)


def power_table(card_set: CardSet) -> Table:
    """How many characters print each power 0-9: the spread a designer balances."""
    table = Table(title="characters per printed power")
    powers = [ch.power for ch in card_set.characters]
    table.add_column("power")
    for p in range(10):
        table.add_column(str(p), justify="right")
    table.add_column("no effect", justify="right")
    vanilla = sum(1 for ch in card_set.characters if ch.is_vanilla)
    table.add_row("characters", *(str(powers.count(p)) for p in range(10)), str(vanilla))
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
    names = _resolve_all(sets)
    console = _console()
    bad = 0
    report: list[dict[str, Any]] = []
    for name in names:
        check = check_set(name)
        playtest = _playtest_problems(check.card_set) if check.ok and check.card_set else []
        if check.ok and check.card_set and not playtest:
            playtest = _template_problems(check.card_set)
        ok = check.ok and not playtest
        bad += not ok
        if as_json:
            cs = check.card_set
            problems: list[Problem | str] = list(check.problems) if not check.ok else list(playtest)
            report.append({"set": cs.name if cs else (check.name or check.root.name),
                           "root": str(check.root), "ok": ok,
                           "content_hash": cs.content_hash if cs and ok else None,
                           "problems": [_problem_json(p) for p in problems]})
        elif ok:
            assert check.card_set is not None
            console.print(summary_table(check.card_set))
            if check.card_set.characters:
                console.print(power_table(check.card_set))
            console.print(f"ok: {check.card_set.name} is valid")
        elif playtest:
            assert check.card_set is not None
            n = len(playtest)
            click.echo(f"{check.card_set.name}: {n} problem{'s' if n != 1 else ''} (playtest "
                       "section or card template)", err=True)
            for line in playtest:
                click.echo(line, err=True)
        else:
            _report_problems(check)
    if as_json:
        click.echo(json.dumps({"ok": not bad, "sets": report}, indent=2))
    if bad:
        if not as_json:
            click.echo(f"{bad} of {len(names)} set{'s' if len(names) != 1 else ''} invalid", err=True)
        raise SystemExit(1)


def _playtest_problems(card_set: CardSet) -> list[str]:
    """What ``boneyard build`` would refuse in the ``playtest:`` section (gate bounds, profiles,
    runs), found now rather than after validate said "ok"; a set without the section has none."""
    if not card_set.playtest:
        return []
    from boneyard.pipeline.build import config_for

    from boneyard.errors import GateError

    profiles = card_set.playtest.get("profiles") or {}
    out: list[str] = []
    for fast in (False, True) if "fast" in profiles else (False,):
        try:
            config_for(card_set, fast=fast, jobs=1)
        except GateError as exc:
            out += [line for line in str(exc).splitlines() if line not in out]
    return out


def _template_problems(card_set: CardSet) -> list[str]:
    """The set's own template.yaml, laid out for every card (nothing written, about a second):
    a broken template, text that does not fit or a character the font cannot draw is found by
    validate, not by the render at the end of a build."""
    if not card_set.root or not (Path(card_set.root) / "template.yaml").is_file():
        return []
    from boneyard.pipeline.render.api import RenderOptions, prepare

    from boneyard.errors import RenderError

    try:
        prepare(card_set, RenderOptions())
    except RenderError as exc:
        return str(exc).splitlines()
    return []


def _step_json(step: Step) -> dict[str, Any]:
    out: dict[str, Any] = {"op": step.op}
    for name in ("amount", "who", "per", "target"):
        out[name] = getattr(step, name)
    out["when"] = [{"test": c.test, "op": c.op, "value": c.value, "subject": c.subject}
                   for c in step.when]
    return out


def _rules_text(card_set: CardSet) -> dict[str, str]:
    try:
        from boneyard.engine.dotd.text import rules_text
    except ImportError:  # the text generator is optional for listing
        return {c.id: "; ".join(s.op for s in c.effect) for c in card_set.characters}
    return {c.id: rules_text(c, card_set) for c in card_set.characters}


def cards_json(card_set: CardSet, back: str | None = None) -> dict[str, Any]:
    """The set as plain JSON: physical cards (Day of the Dead) or card faces (Grave Feast)."""
    out: dict[str, Any] = {"set": card_set.slug, "name": card_set.name, "rules": card_set.rules,
                           "content_hash": card_set.content_hash}
    if card_set.rules == "day-of-the-dead":
        text = _rules_text(card_set)
        out["cards"] = [
            {"index": c.index, "id": c.id, "character": c.character.id,
             "name": c.character.name, "back": c.back, "power": c.character.power,
             "text": text[c.character.id], "effect": [_step_json(s) for s in c.character.effect],
             "flavor": c.character.flavor, "art": c.character.art}
            for c in card_set.cards if back is None or c.back == back
        ]
        return out

    def face(f: Any) -> dict[str, Any]:
        return {"id": f.id, "name": f.name, "kind": f.kind, "food": f.food, "number": f.number,
                "copies": f.copies, "rare": f.rare, "flavor": f.flavor, "art": f.art}

    out["cards"] = [face(f) for f in card_set.feast_cards]
    out["rares"] = [face(f) for f in card_set.rares]
    return out


@click.command("cards")
@click.argument("set_name", metavar="SET")
@click.option("--back", "back", metavar="B", help="Only the cards with this back (Day of the Dead).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON instead of a table.")
def cards_command(set_name: str, back: str | None, as_json: bool) -> None:
    """List the cards of a set, as a table or as JSON.

    SET is a name under cards/, a set folder or a file in one.
    """
    _resolve_all((set_name,))
    check = check_set(set_name)
    if not check.ok:
        _report_problems(check)
        raise SystemExit(1)
    card_set = check.card_set
    assert card_set is not None
    if back is not None:
        ids = [b.id for b in card_set.backs]
        if not ids:
            raise click.UsageError(f"--back: {card_set.name} cards have no backs")
        if back not in ids:
            raise click.UsageError(f"--back: no back '{back}' in {card_set.name} "
                                   f"(backs: {', '.join(ids)})")
    if as_json:
        click.echo(json.dumps(cards_json(card_set, back), indent=2))
        return
    console = _console()
    table = Table(title=f"{card_set.name} ({card_set.content_hash})")
    if card_set.rules == "day-of-the-dead":
        text = _rules_text(card_set)
        names = {b.id: b.name for b in card_set.backs}
        table.add_column("id", no_wrap=True)
        table.add_column("name")
        table.add_column("power", justify="right")
        table.add_column("back" if back else "backs")
        table.add_column("text")
        if back:
            rows = [(c.character, names[c.back]) for c in card_set.cards if c.back == back]
        else:
            rows = [(ch, _backs_text(ch, names)) for ch in card_set.characters]
        for ch, backs in rows:
            table.add_row(ch.id, ch.name, str(ch.power), backs, text[ch.id] or "-")
    else:
        for col in ("id", "name", "kind", "food", "number", "copies", "rare"):
            table.add_column(col, justify="right" if col in ("number", "copies") else "left")
        for f in (*card_set.feast_cards, *card_set.rares):
            table.add_row(f.id, f.name, f.kind.replace("_", " "), f.food or "-", str(f.number or "-"),
                          str(f.copies), "yes" if f.rare else "")
    console.print(table)


def register(group: click.Group) -> None:
    """Add ``validate`` and ``cards`` to the boneyard command group."""
    group.add_command(validate_command)
    group.add_command(cards_command)
