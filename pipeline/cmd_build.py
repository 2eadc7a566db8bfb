"""``boneyard build`` and ``boneyard diff``: the commands that gate printing on a playtest."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click
from boneyard.engine.cards import CardSet
from boneyard.pipeline.build import (
    BuildOutcome,
    build_set,
    check_focus,
    check_out_dir,
    out_dir_for,
    refuse_build_outputs,
)
from boneyard.pipeline.cli_types import Number, WholeNumber
from boneyard.pipeline.cmd_render import OUT_HELP, out_folder
from boneyard.pipeline.cmd_sim import JOBS, capped_jobs
from boneyard.pipeline.console import Console
from boneyard.pipeline.coverage import never_tested
from boneyard.pipeline.files import refuse_set_folder
from boneyard.pipeline.gates import UNDECIDED, GateResult
from boneyard.pipeline.report import show
from boneyard.pipeline.set_checks import set_problems
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
)
from rich.table import Table
from rich.text import Text

from boneyard.errors import BoneyardError, GateError
from boneyard.paths import bundled_sets


def _console() -> Console:
    return Console(stderr=False, highlight=False, soft_wrap=True, width=max(110, Console().width))


def failed_table(outcome: BuildOutcome) -> Table:
    """The failed gates: metric, value with its 95% interval, bound, and why the gate exists."""
    table = Table(title=Text(f"{outcome.card_set.name}: failed gates (proven failures first, then undecided)"),
                  title_style="bold red", show_lines=False)
    for col in ("status", "run", "metric", "value [95% interval]", "bound", "why"):
        table.add_column(col, overflow="fold")
    for r in sorted(outcome.failed_gates(), key=lambda r: r.status == UNDECIDED):
        cells = (r.status, *_row(r, outcome.record))
        table.add_row(*(Text(cell) for cell in cells))  # a set's words, not markup
    return table


def _row(r: GateResult, record: dict) -> tuple[str, str, str, str, str]:
    if r.metric is None:
        from boneyard.pipeline.report import missing

        return r.run, r.gate.metric, missing(r, record), _bound(r), r.gate.why
    return r.run, r.metric.name, show(r.metric), _bound(r), r.gate.why


def _bound(r: GateResult) -> str:
    from boneyard.pipeline.report import _bound as bound

    return bound(r)


def _progress(console: Console) -> Progress:
    return Progress(TextColumn("{task.description}", markup=False), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), console=console, transient=True,
                    disable=not console.is_terminal)


def games_said(rec: dict, reused: bool) -> str:
    """How the build's games are described on its summary line: a reused record and a build
    whose games are the last pass's own (only printed text or art changed) played none."""
    if reused:
        return "reused record"
    if (rec.get("change") or {}).get("same_games"):
        return f"no game played: the last pass's {rec['games']} games stand"
    return f"{rec['games']} games"


@click.command("build")
@click.argument("sets", nargs=-1)
@click.option("--out", type=click.Path(file_okay=False), callback=out_folder, default=None,
              help=f"{OUT_HELP}; each set goes to <out>/<set>/.")
@click.option("--force", is_flag=True, help="Render even if the gates fail, marked FAILED PLAYTEST.")
@click.option("--fast", is_flag=True, help="The set's fast playtest profile (CI): fewer games, same gates.")
@click.option("--precision", type=Number(0.001, 1.0), default=None,
              help="Simulate until every gated interval is at most this wide (e.g. 0.02), up to the cap.")
@click.option("--seed", type=WholeNumber(0), default=None,
              help="Seed of the whole playtest (default: the set's playtest.seed).")
@click.option("--jobs", type=JOBS, default=None,
              help="Worker processes [default: all cores]; the record does not depend on it.")
@click.option("--scheduler", envvar="BONEYARD_SCHEDULER", default=None, metavar="tcp://HOST:PORT",
              help="Playtest on a Dask cluster (env BONEYARD_SCHEDULER); same record as local.")
@click.option("--agents", default=None, metavar="SPEC", callback=lambda _c, _p, v: _one_agent(v),
              help="Override the playtest agent for every seat (gate, gate:fast, greedy, random, mcts:N).")
@click.option("--fresh", is_flag=True, help="Playtest again even if a record for this content and these settings exists.")
@click.option("--no-render", is_flag=True, help="Playtest, gate and report only (the template is still checked, as validate does).")
@click.option("--focus", "focus", multiple=True, metavar="CARD",
              help="Test this character again as a pre-declared hypothesis at the full alpha (repeatable).")
@click.option("--accept-undecided", is_flag=True,
              help="Metrics still undecided at the cap do not fail the build (the record and report say so).")
def build_cmd(sets: tuple[str, ...], out: Path | None, force: bool, fast: bool, precision: float | None,
              seed: int | None, jobs: int | None, scheduler: str | None, agents: str | None, fresh: bool,
              no_render: bool, focus: tuple[str, ...], accept_undecided: bool) -> None:
    """Validate, playtest, gate and render SETS (default: every bundled set).

    Any problem `boneyard validate` reports stops the build of every set before its first
    game, with or without --no-render: the same lines, exit code 1, nothing written.

    Nothing is rendered when a gate fails: the failed gates are listed and the exit code is 1.
    The playtest record and the balance report (report.html, report.md) are written either way.
    A set whose files change while it is built is neither rendered nor kept as the last pass:
    exit code 1, build again.
    """
    from boneyard.pipeline.load import load_set

    console = _console()
    names = list(sets) or bundled_sets()
    card_sets = [load_set(n) for n in names]  # validate everything before simulating anything
    for cs in card_sets:
        check_focus(cs, focus)
    for cs in card_sets:  # and a file where a folder goes is said before the first game too
        if cs.root:  # --out the set's parent folder: the prints would land among its files
            refuse_set_folder(Path(cs.root), "--out", out, out_dir_for(cs, out), "the build's outputs")
        refuse_build_outputs(cs, out_dir_for(cs, out), out, not no_render)  # a link into the set
        check_out_dir(out_dir_for(cs, out))
    refuse_invalid(card_sets)  # all validate says (template, gates), render or not: no game yet
    jobs = capped_jobs(jobs, scheduler)
    failures = []
    stale: list[str] = []
    stale_prints: list[str] = []  # edited while rendered: prints were made, of either content
    for cs in card_sets:
        started = time.perf_counter()
        with _progress(console) as bar:
            tasks: dict[str, TaskID] = {}

            def tick(stage: str, done: int, total: int, cs_name: str = cs.name,
                     bar: Progress = bar, tasks: dict[str, TaskID] = tasks) -> None:
                if stage not in tasks:
                    tasks[stage] = bar.add_task(f"{cs_name}: {stage}", total=total)
                bar.update(tasks[stage], completed=done, total=total)

            outcome = build_set(cs, out=out, force=force, fast=fast, precision=precision, seed=seed,
                                jobs=jobs, scheduler=scheduler, agents=agents, fresh=fresh,
                                render=not no_render, focus=focus,
                                accept_undecided=accept_undecided, progress=tick)
        rec = outcome.record
        took = time.perf_counter() - started
        how = games_said(rec, outcome.reused)
        flags = sum(1 for g in rec["gates"] if g["status"] == UNDECIDED)
        status = "[green]passed[/]" if outcome.passed else "[bold red]FAILED[/]"
        console.print(
            f"{escape(cs.name)}: playtest {status} ({how}, {rec['gates_passed']}/{rec['gates_total']} gates"
            + (f", {flags} undecided" + (" (accepted)" if rec.get("accept_undecided") else "") if flags else "")
            + f", content {cs.content_hash}) in {took:.1f} s"
        )
        change = rec.get("change")
        if change and not outcome.reused:
            what = ", ".join(change["changed"] + [f"{c} (removed)" for c in change.get("removed", [])]
                             + change["params"]) or (
                "nothing: the content is the last pass's" if change["against"] == rec.get("content_hash")
                else "no card or rule (only what is printed)" if change.get("same_games")
                else "no card or rule")
            console.print(f"  tested what changed since the last pass ({change['against']}): {what}", markup=False)
        elif rec.get("from_scratch") and not outcome.reused:
            console.print(f"  built from scratch: {rec['from_scratch']}", markup=False)
        console.print(f"  report: {outcome.out_dir / 'report.html'}", markup=False)
        for line in outcome.warnings:
            click.echo(f"warning: {cs.name}: {line}", err=True)
        if outcome.stale:
            (stale_prints if outcome.rendered else stale).append(cs.name)
        if not outcome.passed:
            console.print(failed_table(outcome))
            for line in never_tested(outcome.record):  # issue 13.6 (pipeline/coverage.py)
                console.print(line, markup=False)
            failures.append(cs.name)
        if outcome.rendered:
            mark = f" marked {outcome.watermark}" if outcome.watermark else ""
            console.print(f"  rendered {len(outcome.rendered)} files{mark} to {outcome.out_dir}", markup=False)
        elif not outcome.passed and not no_render:
            console.print("  nothing rendered (use --force to render marked FAILED PLAYTEST)")
            older = _older_prints(outcome.out_dir)
            if older:  # so nobody takes them for prints of the edited set
                console.print(f"  the prints already in {outcome.out_dir} ({', '.join(older)}) are an "
                              "earlier build's, not of these files", markup=False)
    if failures:
        sys.stdout.flush()
        raise GateError(f"playtest gates failed for: {', '.join(failures)}")
    if stale or stale_prints:  # a CI step reading exit 0 would take the prints for made
        sys.stdout.flush()
        said = [f"the files of {', '.join(stale)} changed while it was built, so nothing of it "
                "was rendered or kept: build again"] if stale else []
        said += [f"the files of {', '.join(stale_prints)} changed while it was rendered, so its "
                 "prints may mix the old and the new content: build again"] if stale_prints else []
        raise BoneyardError("\n".join(said))


def refuse_invalid(card_sets: list[CardSet]) -> None:
    """Raise, before any game is played or anything written, when ``boneyard validate`` finds a
    problem in any of ``card_sets`` (its playtest section, its template, a misspelt gate): the
    same located lines, every set's, whatever ``--no-render`` says (a template validate rejects
    would otherwise pass a ``--no-render`` build and be kept as its last pass). Validate's
    warnings are said here too. A GateError, as the playtest section's problems always were: the
    build's gate before the games."""
    said: list[str] = []
    refused: list[str] = []
    for cs in card_sets:
        problems, warnings = set_problems(cs)
        for line in warnings:
            click.echo(f"warning: {line}", err=True)
        if problems:
            n = len(problems)
            said += [f"{cs.name}: {n} problem{'s' if n != 1 else ''} (playtest section or card "
                     "template)", *problems]
            refused.append(cs.name)
    if refused:
        said.append(f"not built: {', '.join(refused)}: fix the problems above first (`boneyard "
                    "validate` lists the same), then build again")
        raise GateError("\n".join(said))


def _one_agent(value: str | None) -> str | None:
    """``--agents`` seats one agent everywhere; a list is game.yaml's to give (``simulate``
    takes one, where a run's seats are its own)."""
    if value is not None and "," in value:
        raise click.BadParameter(f"{value!r}: build seats one agent in every seat; to seat "
                                 "different agents, list them under playtest.agents in game.yaml",
                                 param_hint="--agents")
    return value


def _older_prints(out_dir: Path) -> list[str]:
    """What an earlier render left in ``out_dir`` (PDFs, the proof sheet, image folders)."""
    try:
        found = sorted(p.name + ("/" if p.is_dir() else "") for p in out_dir.iterdir()
                       if p.suffix == ".pdf" or p.name in ("proof.png", "tts") or p.name.startswith("png-"))
    except OSError:
        return []
    return found


def register(group: click.Group) -> None:
    group.add_command(build_cmd)
    from boneyard.pipeline.diff import diff_cmd

    group.add_command(diff_cmd)
