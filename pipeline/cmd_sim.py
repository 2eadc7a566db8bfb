"""``boneyard simulate`` and ``boneyard replay``: playtest a set by simulation, then look inside.

``simulate`` plays seeded games between AI players and prints every figure with its 95% interval
(wins per seat and per agent, draws, scores, and whatever the game's metrics measure per card);
``--log`` keeps each game's actions so ``replay`` can play one back through the engine, check it
ends the same way on the same card content, and print it turn by turn.
"""

from __future__ import annotations

import difflib
import functools
import json
import math
import re
import sys
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import click
import yaml
from boneyard.engine.agents import parse_spec
from boneyard.engine.cards import CardSet
from boneyard.engine.games import spec_of, specs
from boneyard.engine.sim import SimResult, default_jobs, scheduler_address, simulate, transcript
from boneyard.engine.sim.replay import ReplayError, record_problem
from boneyard.engine.spec import GameOption, GameSpec
from boneyard.engine.stats import Metric
from boneyard.pipeline.cli_types import WholeNumber
from boneyard.pipeline.console import Console
from boneyard.pipeline.files import refuse_set_file
from boneyard.pipeline.load import SetNotFoundError, load_set, resolve_set
from click.core import ParameterSource
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from boneyard.errors import BoneyardError, excerpt
from boneyard.files import unwritable, write_atomic


def _console() -> Console:
    # Created per call so CliRunner's captured stdout is used; no colours when piped. Piped to a
    # file or a pager, the tables take the width they need (the card table is about 170
    # columns) instead of a terminal's 80.
    probe = Console(file=sys.stdout)
    return Console(file=sys.stdout, highlight=False, soft_wrap=False,
                   width=max(100, probe.width) if probe.is_terminal else 200)


class Failed(click.ClickException):
    """A Boneyard error as a click error, so the exit code survives CliRunner and scripts alike."""

    def __init__(self, exc: BoneyardError) -> None:
        super().__init__(str(exc))
        self.exit_code = exc.exit_code  # type: ignore[misc]  # click reads it per instance

    def show(self, file: Any = None) -> None:
        click.echo(self.format_message(), err=True)


# --- option parsing --------------------------------------------------------------------------


def parse_agents(text: str) -> list[str]:
    specs = [s.strip().lower() for s in text.split(",")]
    if not any(specs):
        raise click.UsageError("--agents needs at least one agent, e.g. --agents greedy,random")
    if not all(specs):
        raise click.UsageError(f"--agents {text!r}: an empty agent between commas (remove the extra comma)")
    for s in specs:
        try:
            parse_spec(s)
        except BoneyardError as exc:
            raise click.UsageError(str(exc)) from None
    return specs


def apply_switches(card_set: CardSet, pairs: Iterable[str]) -> CardSet:
    """``NAME=VALUE`` rules switches on top of game.yaml's (values read as YAML scalars)."""
    changes: dict[str, Any] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            example = name if name in card_set.switches else next(iter(sorted(card_set.switches)), "NAME")
            now = _yaml_word(card_set.switches[example]) if example in card_set.switches else "VALUE"
            raise click.UsageError(f"--switch {pair!r}: write NAME=VALUE, e.g. --switch {example}={now}")
        if name not in card_set.switches:
            known = ", ".join(sorted(card_set.switches)) or "none"
            near = difflib.get_close_matches(name, list(card_set.switches), n=1)
            mean = f"did you mean {near[0]}? " if near else ""
            raise click.UsageError(f"--switch {name}: '{card_set.name}' has no such switch ({mean}known: {known})")
        if name in changes:
            raise click.UsageError(f"--switch {name} is given twice: give each switch once")
        try:
            value = yaml.safe_load(raw) if raw.strip() else ""
        except yaml.YAMLError:
            value = raw
        default = card_set.switches[name]
        choices = _switch_choices(card_set.rules, name)
        if choices is not None and value not in choices or (
            isinstance(default, bool) != isinstance(value, bool) or (
                isinstance(default, (int, float)) and not isinstance(value, (int, float)))
        ):
            allowed = " | ".join(_yaml_word(c) for c in choices) if choices else (
                "true | false" if isinstance(default, bool) else f"a value like {_yaml_word(default)}")
            raise click.UsageError(f"--switch {name}={raw}: expected {allowed} (see docs/rules/)")
        if _switch_schema(card_set.rules, name).get("type") == "integer" and isinstance(value, float):
            # else the engine's own check ends the run (exit 1) without naming --switch
            raise click.UsageError(f"--switch {name}={raw}: expected a whole number "
                                   "(see docs/rules/)")
        low, high = _switch_bounds(card_set.rules, name)
        if not isinstance(value, bool) and isinstance(value, (int, float)) and not (
                (low is None or value >= low) and (high is None or value <= high)):
            span = (f"from {_yaml_word(low)} to {_yaml_word(high)}" if low is not None and
                    high is not None else f"at least {_yaml_word(low)}" if low is not None
                    else f"at most {_yaml_word(high)}")
            raise click.UsageError(f"--switch {name}={raw}: expected a value {span} "
                                   "(see docs/rules/)")
        changes[name] = value
    return card_set.with_switches(**changes) if changes else card_set


def _switch_schema(rules: str, name: str) -> dict[str, Any]:
    """game.yaml's schema of switch ``name``: the values it allows."""
    from boneyard.pipeline.schemas import schema

    defs = schema("game").get("$defs", {}).get(f"{spec_of(rules).settings_defs}_switches", {})
    prop: dict[str, Any] = defs.get("properties", {}).get(name, {})
    return prop


def _switch_bounds(rules: str, name: str) -> tuple[float | None, float | None]:
    """The least and greatest number the schema allows for switch ``name`` (None: no bound)."""
    prop = _switch_schema(rules, name)
    return prop.get("minimum"), prop.get("maximum")


def _switch_choices(rules: str, name: str) -> list[Any] | None:
    """The values game.yaml's schema allows for switch ``name`` (None: not a list of choices)."""
    prop = _switch_schema(rules, name)
    if "enum" in prop:
        return list(prop["enum"])
    return [True, False] if prop.get("type") == "boolean" else None


def _yaml_word(value: Any) -> str:
    """A value as the designer writes it in YAML (true, not True)."""
    return "true" if value is True else "false" if value is False else "none" if value is None else str(value)


# --- printing --------------------------------------------------------------------------------


def fmt(m: Metric) -> str:
    """``52.3% [50.1 .. 54.5]``, ``3.21 [3.05 .. 3.37]`` or ``-10.7% [-20.8 .. -0.3]``: value
    with its 95% interval, bracketed as ``build`` and the report print it."""
    if m.value is None or (isinstance(m.value, float) and math.isnan(m.value)):
        return "-"
    if m.low == m.high == m.value:  # an exact figure (a count, coverage, turns in a fixed-length game)
        if m.unit == "%":
            return f"{100 * m.value:.1f}%"
        return f"{m.value:,.0f}" if float(m.value).is_integer() else f"{m.value:,.2f}"
    if m.unit == "%":
        low, high, value, digits, sign = 100 * m.low, 100 * m.high, 100 * m.value, 1, "%"
    else:
        low, high, value, digits, sign = m.low, m.high, m.value, 2, ""
    return f"{value:.{digits}f}{sign} [{low:.{digits}f} .. {high:.{digits}f}]"


def _column(m: Metric) -> str:
    """A pivot table's column for ``m``: its name without the subject (``card.hoard.win_delta``
    -> ``win_delta``, ``feast.blood.in_winning_feast_rate`` -> ``in_winning_feast_rate``,
    ``fired.ability.dig`` -> ``fired``), so a group's subjects share their columns."""
    parts = m.name.split(".")
    subject = (m.subject or "").split(".")
    for i in range(len(parts) - len(subject) + 1):
        if parts[i:i + len(subject)] == subject:
            after = parts[i + len(subject):]
            return ".".join(after or parts[:i]) or m.name
    return parts[-1]


def metric_tables(metrics: list[Metric], title_prefix: str = "") -> list[Table]:
    """One table per metric group; groups about subjects (seats, cards) are pivoted."""
    groups: dict[str, list[Metric]] = {}
    for m in metrics:
        groups.setdefault(m.group, []).append(m)
    first = ("game", "seat", "agent")
    order = [g for g in first if g in groups] + [g for g in groups if g not in first]
    tables = []
    for group in order:
        ms = groups[group]
        loose = [m for m in ms if m.subject is None]
        if loose and len(loose) < len(ms):  # a pivot table plus the group's overall figures
            groups.setdefault(f"{group} overall", []).extend(loose)
            order.insert(order.index(group) + 1, f"{group} overall")
            ms = [m for m in ms if m.subject is not None]
        if all(m.subject is None for m in ms):
            t = Table(title=f"{title_prefix}{group} (95% intervals)")
            t.add_column("figure", overflow="fold")
            t.add_column("value (95% interval)", justify="right", overflow="fold")
            t.add_column("n", justify="right")
            for m in ms:
                t.add_row(Text(m.name), Text(fmt(m)), str(m.n))
        else:
            cols: list[str] = []
            rows: dict[str, dict[str, Metric]] = {}
            for m in ms:
                c = _column(m)
                if c not in cols:
                    cols.append(c)
                rows.setdefault(m.subject or "-", {})[c] = m
            t = Table(title=f"{title_prefix}{group} (95% intervals)")
            t.add_column(group, overflow="fold")
            for c in cols:  # folded, not cut: a narrow terminal or a file still shows every figure whole
                t.add_column(c, justify="right", overflow="fold")
            for subject, cells in rows.items():
                t.add_row(Text(subject), *(Text(fmt(cells[c])) if c in cells else Text("-")
                                           for c in cols))
        tables.append(t)
    return tables


def print_result(res: SimResult, console: Console) -> None:
    head = (f"{res.set_name} (content {res.content_hash}): {res.n} games, {res.num_players} players, "
            f"agents {','.join(res.agents)}, seed {res.seed}")
    if res.options:
        head += ", options " + ", ".join(f"{k}={v}" for k, v in sorted(res.options.items()))
    console.print(Text(head, style="bold"))
    if res.partial:
        console.print(Text(f"PARTIAL: stopped after {res.n} of {res.requested} games "
                           f"({res.blocks_done} of {res.blocks} blocks)", style="bold red"))
    if res.stuck_count:
        seeds = ", ".join(f"game {s['game']} seed {s['seed']}" for s in res.stuck[:10])
        more = f" and {res.stuck_count - 10} more" if res.stuck_count > 10 else ""
        console.print(Text(f"STUCK: {res.stuck_count} game(s) hit the action cap and are left out "
                           f"of every figure (an engine fault): {seeds}{more}", style="bold red"))
    for note in res.notes:
        console.print(Text(f"note: {note}", style="bold red"))
    for t in metric_tables(res.metrics):
        console.print(t)


class GamesPerSecond(ProgressColumn):
    """Games/s over the last few updates (rich's own speed columns count bytes)."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        return Text(f"{speed:,.0f} games/s" if speed else "- games/s")


def progress_bar(console: Console) -> Progress:
    """Games done, games/s and time left, on the terminal only."""
    return Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), GamesPerSecond(),
                    TimeRemainingColumn(), console=console, transient=True)


# --- the games' own options ----------------------------------------------------------------


def output_targets(**paths: str | None) -> None:
    """Refuse output paths that are empty, the same file twice, not a regular file (a
    device, a FIFO, a folder or a symlink would be replaced by, or block on, the write), or
    that cannot be written (checked before the run, whose result would be lost)."""
    seen: dict[str, str] = {}
    for option, given in paths.items():
        if given is None:
            continue
        flag = f"--{option}"
        if not given.strip():
            raise click.UsageError(f"{flag}: give a file name")
        target = Path(given)
        if target.is_symlink() or (target.exists() and not target.is_file()):
            raise click.UsageError(f"{flag} {given}: not a regular file (choose a new file name)")
        key = str(target.resolve())
        if key in seen:
            raise click.UsageError(f"{flag} {given}: the same file as {seen[key]}; give each its own")
        seen[key] = flag
        why = unwritable(target)  # before any game: not after an hour of them
        if why:
            raise click.UsageError(f"{flag} {given}: cannot be written, {why} (choose a file in "
                                   "a folder you can write to)")


JOBS = WholeNumber(1, 1024)
"""``--jobs`` of every command that plays games (simulate, build, diff, watch): one range, and
more than the cores here is capped with a note (``capped_jobs``)."""


def capped_jobs(jobs: int | None, scheduler: str | None = None) -> int | None:
    """``--jobs`` at most the cores this process may use (more only queue up and cost memory);
    a note says so. A cluster's size is its own business."""
    cores = default_jobs()
    if jobs is not None and jobs > cores and not scheduler:
        click.echo(f"note: --jobs {jobs} is more than the {cores} cores here; using {cores}",
                   err=True)
        return cores
    return jobs


def game_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add every registered game's engine options (``GameSpec.options``) to a command, once
    each; the help names the games that take it."""
    seen: dict[str, tuple[GameOption, list[str]]] = {}
    for spec in specs():
        for opt in spec.options:
            seen.setdefault(opt.name, (opt, []))[1].append(spec.title)
    for name, (opt, titles) in reversed(seen.items()):
        help_text = f"{' and '.join(titles)}: {opt.help}"
        if opt.flag:
            command = click.option(f"--{name}", is_flag=True, default=None, help=help_text)(command)
        else:
            command = click.option(f"--{name}", type=WholeNumber(opt.low, opt.high),
                                   default=None, help=help_text)(command)
    return command


def chosen_options(card_set: CardSet, given: dict[str, Any]) -> dict[str, Any]:
    """The engine options the designer gave (flags set, values given) for ``card_set``'s game;
    an option of another game is a usage error."""
    chosen = {k: v for k, v in given.items() if v is not None and v is not False}
    own = {o.name for o in spec_of(card_set.rules).options}
    foreign = [k for k in chosen if k not in own]
    if foreign:
        owners = sorted({s.title for s in specs() for o in s.options if o.name in foreign})
        flags = " and ".join(f"--{k}" for k in foreign)
        raise click.UsageError(f"{flags} {'is a' if len(foreign) == 1 else 'are'} "
                               f"{' and '.join(owners)} option{'s' if len(foreign) > 1 else ''}, "
                               f"not for {spec_of(card_set.rules).title}")
    return chosen


# --- commands --------------------------------------------------------------------------------


@click.command("simulate")
@click.argument("set_name", metavar="SET")
@click.option("-n", "--games", "n", type=WholeNumber(min=1), default=1000, show_default=True,
              help="Number of games.")
@click.option("--agents", default="greedy", show_default=True,
              help="Comma-separated agents, one per seat (rotated every game) or one for all seats: "
                   "random, greedy, gate (the skilled player the builds use), gate:fast (a cheaper, weaker gate), "
                   "mcts, mcts:N (N simulations per decision).")
@click.option("--seed", type=WholeNumber(0), default=1, show_default=True, help="Seed of the whole run.")
@click.option("--players", type=WholeNumber(min=2), default=None,
              help="Number of players (default: the game's).")
@click.option("--jobs", type=JOBS, default=None,
              help="Worker processes [default: all cores]; the result does not depend on it.")
@click.option("--scheduler", envvar="BONEYARD_SCHEDULER", default=None, metavar="tcp://HOST:PORT",
              help="Run the games on a Dask cluster (env BONEYARD_SCHEDULER); same result as local.")
@click.option("--json", "json_path", type=click.Path(dir_okay=False),
              help="Write the report as JSON ('-': to standard output, instead of the tables).")
@click.option("--log", "log_path", type=click.Path(dir_okay=False),
              help="Write each game's actions as one JSON line (for boneyard replay).")
@click.option("--show", type=WholeNumber(min=0), default=0, help="Print the first K games turn by turn.")
@game_options
@click.option("--switch", "switches", multiple=True, metavar="NAME=VALUE",
              help="Override a rules switch of game.yaml (repeatable).")
@click.option("-q", "--quiet", is_flag=True, help="No progress bar or timing lines on stderr.")
@click.option("--check", is_flag=True, default=None,
              help="Check the game's invariants (cards conserved, legal moves, scores in bounds) "
                   "at every step; a break names the seed and the step [default: on when "
                   "BONEYARD_CHECK=1].")
def simulate_cmd(set_name: str, n: int, agents: str, seed: int, players: int | None,
                 jobs: int | None, scheduler: str | None, json_path: str | None,
                 log_path: str | None, show: int, switches: tuple[str, ...], quiet: bool,
                 check: bool | None, **engine_options: Any) -> None:
    """Playtest SET by simulating games between AI players.

    Ctrl-C stops within a second: the finished blocks of games are kept and the report (and
    --json, --log) are written, marked partial; the exit code is then 130.
    """
    if _from_env("scheduler"):
        scheduler = None  # the engine reads BONEYARD_SCHEDULER itself, and its messages name it
    try:
        partial = _simulate(set_name, n, agents, seed, players, jobs, scheduler, json_path,
                            log_path, show, switches, quiet, engine_options, check)
    except BoneyardError as exc:
        raise Failed(exc) from None
    if partial:
        sys.exit(130)


def _from_env(param: str) -> bool:
    """Whether the running command's option ``param`` took its value from its environment
    variable (``--scheduler`` from BONEYARD_SCHEDULER), not from the command line."""
    ctx = click.get_current_context(silent=True)
    return ctx is not None and ctx.get_parameter_source(param) == ParameterSource.ENVIRONMENT


def player_range(card_set: CardSet, spec: GameSpec) -> tuple[int, int]:
    """The player counts ``card_set`` can be dealt for: its game's range, narrowed by the set's
    own ``players: {min, max}`` in game.yaml."""
    low, high = spec.min_players, spec.max_players
    limits = card_set.params.get("players")
    if isinstance(limits, Mapping):
        low, high = max(low, limits.get("min", low)), min(high, limits.get("max", high))
    return low, high


def check_players(card_set: CardSet, players: int | None) -> None:
    """A ``--players`` the set cannot be dealt for is a usage error (exit 2) naming the range,
    said before any game is played."""
    if players is None:
        return
    spec = spec_of(card_set.rules)
    low, high = player_range(card_set, spec)
    if not low <= players <= high:
        allowed = (f"{spec.title} is a {low}-player game" if low == high
                   else f"{card_set.name} is for {low} to {high} players")
        give = f"--players {low}" if low == high else f"--players {low} to {high}"
        raise click.UsageError(f"--players {players}: {allowed} (give {give}, or leave "
                               "--players out for the game's own count)")


def seats_of(card_set: CardSet, specs: list[str], players: int | None) -> int | None:
    """The table size: ``--players``, else one seat for each of several ``--agents`` (a
    designer who names three agents means a three-player game), else the game's own count.
    A count the set cannot be dealt for, or agents that do not fill the seats, is a usage error
    (exit 2) said before any game."""
    if players is None:
        if len(specs) == 1:
            return None
        low, high = player_range(card_set, spec_of(card_set.rules))
        if not low <= len(specs) <= high:
            seats = f"{low}" if low == high else f"{low} to {high}"
            raise click.UsageError(
                f"--agents {','.join(specs)}: {len(specs)} agents, one for each seat, but "
                f"{card_set.name} is played by {seats} players (give {seats} agents, or one "
                "agent for every seat)")
        return len(specs)
    check_players(card_set, players)
    if len(specs) not in (1, players):
        raise click.UsageError(
            f"--agents {','.join(specs)}: {len(specs)} agents for --players {players} (give "
            f"{players} agents, one for each seat, or a single agent for every seat)")
    return players


def _simulate(set_name: str, n: int, agents: str, seed: int, players: int | None,
              jobs: int | None, scheduler: str | None, json_path: str | None,
              log_path: str | None, show: int, switches: tuple[str, ...], quiet: bool,
              engine_options: dict[str, Any], check: bool | None = None) -> bool:
    specs = parse_agents(agents)
    to_stdout = json_path == "-"  # for a pipe (| jq): stdout then holds the JSON alone
    if log_path == "-":  # it wrote a file named '-' where --json - means standard output
        raise click.BadParameter("the log is a file (boneyard replay reads it back): give a "
                                 "name, e.g. --log games.jsonl", param_hint="'--log'")
    output_targets(json=None if to_stdout else json_path, log=log_path)
    root = resolve_set(set_name)  # before any game: the set's own files are never written over
    refuse_set_file(root, "--json", None if to_stdout else json_path, "the report", "report.json")
    refuse_set_file(root, "--log", log_path, "the log", "games.jsonl")
    card_set = apply_switches(load_set(root), switches)
    players = seats_of(card_set, specs, players)
    options = chosen_options(card_set, engine_options)
    jobs = capped_jobs(jobs, scheduler_address(scheduler))
    err = Console(stderr=True)
    run = functools.partial(simulate, card_set, specs, n, seed, jobs=jobs, num_players=players,
                            options=options, log=log_path, keep=show, scheduler=scheduler,
                            interruptible=True, check=check)
    if err.is_terminal and not quiet:
        with progress_bar(err) as bar:
            task = bar.add_task("games", total=n)
            res = run(progress=lambda done, total: bar.update(task, completed=done))
    else:
        res = run()
    if not quiet:
        address = scheduler_address(scheduler)
        where = f"cluster {address}" if address else f"{jobs or default_jobs()} process(es)"
        click.echo(f"{res.n / max(res.seconds, 1e-9):,.0f} games/s on {where} ({res.seconds:.1f} s, "
                   f"{res.cpu_seconds:.1f} s of CPU in the games)", err=True)
    if to_stdout:
        click.echo(json.dumps(res.to_json(), indent=2))
    elif json_path:  # before the table: a reader that closes stdout early (| head) costs no file
        write_atomic(json_path, json.dumps(res.to_json(), indent=2) + "\n")
        if not quiet:
            click.echo(f"report written to {json_path}", err=True)
    if not to_stdout:
        print_result(res, _console())
        for rec in res.records[:show]:
            if rec.get("stuck"):
                continue
            click.echo("")
            for line in transcript(card_set, rec):
                click.echo(line)
    if log_path and not quiet:
        click.echo(f"{res.n} games logged to {log_path}", err=True)
    if res.partial:
        click.echo(f"stopped: the report covers {res.n} of {res.requested} games and is marked partial",
                   err=True)
    return res.partial


def read_record(path: str | Path, index: int) -> dict[str, Any]:
    """The record of game ``index`` in a ``--log`` file (errors name the file and line)."""
    return find_record(path, index)[0]


def find_record(path: str | Path, index: int) -> tuple[dict[str, Any], int]:
    """The record of game ``index`` in a ``--log`` file and its line number.

    A line that is not JSON (a log cut short when a run was killed mid-write, or copied short)
    keeps no game from being found on the lines that are whole; it is the error only when the
    game asked for is on no whole line."""
    seen: list[int] = []
    damaged: str | None = None
    if not Path(path).is_file():
        raise BoneyardError(f"{path}: not a regular file (give the file simulate --log wrote)")
    with open(path, encoding="utf-8", errors="replace") as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                if damaged is None:
                    damaged = f"{path}:{lineno}:{exc.colno}: {_json_damage(line, exc)}"
                continue
            except RecursionError:
                raise BoneyardError(f"{path}:{lineno}:1: not a game record (nested too deeply)") from None
            if not isinstance(rec, dict) or "actions" not in rec or "seed" not in rec:
                raise BoneyardError(f"{path}:{lineno}:1: not a game record (written by boneyard simulate --log?)")
            problem = record_problem(rec)
            if problem is not None:
                raise BoneyardError(f"{path}:{lineno}:1: not a game record ({problem})")
            if "game" not in rec:
                continue  # not a numbered game: never the one asked for
            if rec["game"] < 0:  # simulate numbers games from 0: the line was edited
                col = line.find('"game"') + 1 or 1
                raise BoneyardError(f"{path}:{lineno}:{col}: a damaged game record: 'game' is "
                                    f"{rec['game']}, but the games of a run are numbered from 0 "
                                    "(use the line as simulate --log wrote it, or run the "
                                    "simulation again)")
            if rec["game"] == index:
                _only_one(f, path, index, line, lineno)
                return rec, lineno
            seen.append(rec["game"])
    if damaged is not None:
        raise BoneyardError(damaged)
    if not seen:
        raise BoneyardError(f"{path}: holds no numbered games (give the file simulate --log "
                            "wrote)")
    raise click.UsageError(f"{path}: no game {index} (it holds games {min(seen)}..{max(seen)})")


def _only_one(rest: Iterable[str], path: str | Path, index: int, found: str, lineno: int) -> None:
    """Refuse a log holding two different games numbered ``index`` (two runs' logs joined into
    one file): replaying the first one silently could be the wrong game. Lines are matched by
    the prefix simulate writes, so the rest of a large log is read, not parsed (a game number written first, as simulate
    writes it)."""
    numbered = re.compile(rf'\{{\s*"game"\s*:\s*{index}\s*[,}}]')
    for other, line in enumerate(rest, lineno + 1):
        if numbered.match(line) and line.strip() != found.strip():
            raise BoneyardError(f"{path}:{other}:1: a second, different game {index} (the first "
                                f"is on line {lineno}): the file holds more than one run's log "
                                "(replay from the log of one run: keep each run's --log in its "
                                "own file)")


def _json_damage(line: str, exc: json.JSONDecodeError) -> str:
    """What is wrong with a log line that is not JSON, in words (json's own messages end in
    "at", the position it gives apart)."""
    if exc.pos >= len(line.rstrip("\r\n")) - 1:
        return ("not a whole game record: the line is cut off (the run was stopped while it wrote "
                "the log, or the file was copied short; replay another game, or run the "
                "simulation again)")
    what = exc.msg.removesuffix(" at").lower()
    return f"not a JSON game record ({what}; use the line as simulate --log wrote it)"


@click.command("replay")
@click.argument("log_file", type=click.Path(exists=True, dir_okay=False))
@click.option("--game", "index", type=WholeNumber(min=0), default=0, show_default=True,
              help="Which game of the log (its index in the run).")
@click.option("--set", "set_name", default=None,
              help="Card set to replay on (default: the set named in the log).")
def replay_cmd(log_file: str, index: int, set_name: str | None) -> None:
    """Replay a game logged by `simulate --log`, check its result, print it turn by turn."""
    try:
        _replay(log_file, index, set_name)
    except BoneyardError as exc:
        raise Failed(exc) from None


def _replay(log_file: str, index: int, set_name: str | None) -> None:
    rec, lineno = find_record(log_file, index)
    logged = rec.get("rules")
    known = {s.name: s.title for s in specs()}
    if "rules" in rec and not (isinstance(logged, str) and logged in known):  # not "a nope set"
        games = ", ".join(f"{name} ({title})" for name, title in sorted(known.items()))
        raise ReplayError(f"{log_file}:{lineno}: game {index} names an unknown game, rules: "
                          f"{excerpt(json.dumps(logged))} (known games: {games}); the line was "
                          "edited or written by another version of Boneyard: use the line as "
                          "simulate --log wrote it, or simulate the set again")
    where = set_name or rec.get("slug") or rec.get("root")
    if not where:
        raise click.UsageError("the log names no card set; give one with --set")
    try:
        try:
            card_set = load_set(where)
        except BoneyardError:
            if set_name or not rec.get("root"):
                raise
            card_set = load_set(rec["root"])
    except SetNotFoundError as exc:
        if set_name:
            raise
        # the log names a set that is not here: bad data in the log, said at its line
        raise ReplayError(f"{log_file}:{lineno}: the log's set is not here: {exc} (give the "
                          "set with --set)") from None
    if isinstance(logged, str) and logged != card_set.rules:  # before the engine trips on it
        theirs = known[logged]
        ours = spec_of(card_set.rules).title
        if set_name:
            raise ReplayError(f"{log_file}:{lineno}: game {index} is a game of {theirs} (set "
                              f"{rec.get('slug') or rec.get('set')}), but --set {set_name} "
                              f"plays {ours}: replay it on a {theirs} set, or leave out --set "
                              "to use the one the log names")
        raise ReplayError(f"{log_file}:{lineno}: game {index} is a game of {theirs}, but the "
                          f"set {where} now plays {ours} (its game.yaml says rules: "
                          f"{card_set.rules}; the log was written when it said {logged}): "
                          f"replay it on a {theirs} set with --set, or simulate the set again")
    try:
        lines = transcript(card_set, rec)
    except ReplayError as exc:  # said at the log line the game came from
        raise ReplayError(f"{log_file}:{lineno}: {exc}") from None
    for line in lines:
        click.echo(line)
    click.echo(f"replay ok: game {index} reaches the logged result on content {rec.get('content_hash')}")


def register(group: click.Group) -> None:
    group.add_command(simulate_cmd)
    group.add_command(replay_cmd)
