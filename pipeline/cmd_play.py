"""``boneyard play``: play the set by hand against the agents, at a local web table.

The server (uvicorn) listens on 127.0.0.1 unless ``--host`` says otherwise and serves one table;
the browser opens on it (``--no-open``, or a machine without a browser: the address is printed
and the table is served all the same). See docs/play.md.
"""

from __future__ import annotations

import errno
import ipaddress
import socket
import threading
import webbrowser
from typing import Any

import click
from boneyard.pipeline.cli_types import WholeNumber
from boneyard.pipeline.cmd_sim import (
    Failed,
    game_options,
    output_targets,
    parse_agents,
)
from boneyard.pipeline.files import refuse_set_file
from boneyard.pipeline.load import resolve_set

from boneyard.errors import BoneyardError


def _free_port(host: str, port: int) -> int:
    """``port`` if it can be bound on ``host`` (0: any free one); a usage error if taken."""
    try:
        with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as s:
            s.bind((host, port))
            return int(s.getsockname()[1])
    except socket.gaierror:
        raise click.UsageError(f"--host {host}: not an address or a name this computer knows "
                               "(give an address such as 127.0.0.1, or leave --host out)") from None
    except OSError as exc:
        if exc.errno == errno.EADDRNOTAVAIL:  # a real address, but not one of this computer's
            raise click.UsageError(f"--host {host}: not an address of this computer (give one "
                                   "of its own, such as 127.0.0.1 or 0.0.0.0)") from None
        raise click.UsageError(f"--port {port} on {host}: {exc.strerror or exc} "
                               "(choose another with --port, or 0 for any free port)") from None


def _loopback(host: str) -> bool:
    """Whether ``host`` is reachable only from this computer (127.0.0.1, ::1, localhost)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def open_page(url: str) -> bool:
    """Open ``url`` in the web browser; on a machine without one, say where the table is."""
    try:
        opened = webbrowser.open(url)
    except webbrowser.Error:
        opened = False
    if not opened:
        click.echo(f"no web browser found here: open {url} in one (the table is served)", err=True)
    return opened


@click.command("play")
@click.argument("set_name", metavar="SET")
@click.option("--players", type=WholeNumber(min=2), default=None,
              help="Number of players (default: the game's).")
@click.option("--vs", "agents", multiple=True, metavar="AGENT",
              help="The agent in the next other seat (repeatable; the last one fills the rest): "
                   "random, greedy, gate, mcts, mcts:N [default: greedy].")
@click.option("--seed", type=WholeNumber(0), default=None,
              help="Seed of every game at the table (default: a fresh one each game, shown when "
                   "it ends and saved with it).")
@click.option("--port", type=WholeNumber(0, 65535), default=8765, show_default=True,
              help="Port to serve on (0: any free port).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on (0.0.0.0 lets other computers join: anyone who reaches "
                   "it can play your seat).")
@click.option("--open/--no-open", "open_browser", default=True, show_default=True,
              help="Open the table in the web browser.")
@click.option("--scenario", type=click.Path(exists=True, dir_okay=False), default=None,
              help="Start every game from a scenario file's position (boneyard scenario's "
                   "format), its steps played; such games cannot be saved for replay.")
@click.option("--log", "log_path", type=click.Path(dir_okay=False), default=None,
              help="Where 'Save' appends finished games as replay lines "
                   "(default: output/<set>/play.log.jsonl).")
@game_options
@click.option("--switch", "switches", multiple=True, metavar="NAME=VALUE",
              help="Override a rules switch of game.yaml (repeatable).")
def play_cmd(set_name: str, players: int | None, agents: tuple[str, ...], seed: int | None,
             port: int, host: str, open_browser: bool, scenario: str | None, log_path: str | None,
             switches: tuple[str, ...], **engine_options: Any) -> None:
    """Play SET against the agents at a local web table that enforces the rules."""
    try:
        _play(set_name, players, agents, seed, port, host, open_browser, scenario, log_path,
              switches, engine_options)
    except BoneyardError as exc:
        raise Failed(exc) from None


def _play(set_name: str, players: int | None, agents: tuple[str, ...], seed: int | None,
          port: int, host: str, open_browser: bool, scenario: str | None, log_path: str | None,
          switches: tuple[str, ...], engine_options: dict[str, Any]) -> None:
    from boneyard.pipeline.play.app import create_app
    from boneyard.pipeline.play.session import Session, Setup, check_setup

    specs = parse_agents(",".join(agents)) if agents else ["greedy"]
    output_targets(log=log_path)
    root = resolve_set(set_name)  # a set that is not there is a usage error; a broken one is shown
    refuse_set_file(root, "--log", log_path, "the log", "play.log.jsonl")  # 'Save' would replace it
    options = {k: v for k, v in engine_options.items() if v is not None and v is not False}
    setup = Setup(set_name, players, tuple(specs), seed, 0, options, switches, log_path, scenario)
    check_setup(setup)  # --players 5 for a 2-player game: a usage error, before any server
    session = Session(setup)
    if not host.strip():  # an unset shell variable: it meant every interface, IPv4 and IPv6
        raise click.UsageError("--host is empty: give an address such as 127.0.0.1 (the "
                               "default: leave --host out), or 0.0.0.0 to be seen by others")
    port = _free_port(host, port)
    url = f"http://{'[' + host + ']' if ':' in host else host}:{port}/"
    click.echo(f"Boneyard table for {set_name}: {url}  (Ctrl-C to stop)")
    if not _loopback(host):
        click.echo(f"warning: --host {host} serves the table beyond this computer: anyone who "
                   "reaches it can see your hand and play your seat (the default, 127.0.0.1, "
                   "serves only this computer)", err=True)
    for line in session.problems:
        click.echo(f"  the set does not load: {line}", err=True)
    if open_browser:  # once the server listens; without a browser the address is all we have
        threading.Timer(0.5, open_page, (url,)).start()
    hosts = {"127.0.0.1", "localhost", "::1", host} if _loopback(host) else None  # no DNS rebinding
    serve(create_app(session, hosts=hosts), host=host, port=port)


def serve(app: Any, *, host: str, port: int) -> None:
    """Serve the table until Ctrl-C or SIGTERM. uvicorn.Server, not uvicorn.run: run() swallows
    the Ctrl-C it passes on after shutting down, so the table exited 0; the CLI says
    "Interrupted." and exits 130, as watch does."""
    import uvicorn

    server = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning"))
    server.run()
    if not server.started:
        raise BoneyardError(f"the table could not start on {host} port {port} (see above; give "
                            "another --port, or --port 0 for any free one)")


def register(group: click.Group) -> None:
    group.add_command(play_cmd)
