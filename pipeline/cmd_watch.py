"""``boneyard watch SET``: the designer's live loop (pipeline/watch.py, pipeline/watch_page.py)."""

from __future__ import annotations

from pathlib import Path

import click
from boneyard.pipeline.cli_types import Number, WholeNumber
from boneyard.pipeline.cmd_render import OUT_HELP, out_folder
from boneyard.pipeline.cmd_sim import JOBS, capped_jobs


@click.command("watch")
@click.argument("set_name", metavar="SET")
@click.option("--port", type=WholeNumber(0, 65535), default=8765, show_default=True,
              help="The local page's port on 127.0.0.1 (0: any free port).")
@click.option("--no-page", is_flag=True, help="Terminal only, no local page.")
@click.option("--no-playtest", is_flag=True, help="Validate and render only.")
@click.option("--no-render", is_flag=True, help="Validate (and playtest) only.")
@click.option("--debounce", type=WholeNumber(50, 10000), default=300, show_default=True,
              metavar="MS", help="Wait this long after a save for more saves before a cycle.")
@click.option("--jobs", type=JOBS, default=1, show_default=True,
              help="Worker processes for the playtest; the result does not depend on it.")
@click.option("--out", type=click.Path(file_okay=False), callback=out_folder, default=None,
              help=f"{OUT_HELP}; previews go to <out>/<set>/watch/.")
@click.option("--dpi", type=WholeNumber(30, 600), default=150, show_default=True,
              help="Card previews' resolution (the print images are 300).")
@click.option("--once", is_flag=True, help="One cycle, then exit (1 if the set has problems).")
@click.option("--timeout", type=Number(0.1), default=None, metavar="SECONDS",
              help="Stop watching after this long (exit 1 if the last cycle found problems).")
def watch_cmd(set_name: str, port: int, no_page: bool, no_playtest: bool, no_render: bool,
              debounce: int, jobs: int, dpi: int, out: Path | None, once: bool,
              timeout: float | None) -> None:
    """Validate SET on every save; re-render the changed cards and the proof sheet; run the
    fast playtest for what changed. Results in the terminal and on a local page that reloads
    itself. Bad input is reported and the watcher goes on; Ctrl-C stops it.
    """
    from boneyard.pipeline.watch import Watcher

    watcher = Watcher(set_name, out=out, playtest=not no_playtest, render=not no_render,
                      jobs=capped_jobs(jobs) or 1, dpi=dpi, echo=click.echo)
    if not (no_render and no_playtest):  # what it writes goes there: say so once, up front
        try:
            watcher.out.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise click.UsageError(f"--out: cannot create {watcher.out}: {exc.strerror or exc} "
                                   "(choose another --out)") from None
    server = None
    if not no_page and not once:
        from boneyard.pipeline.watch_page import serve

        try:
            server = serve(watcher, port)
        except OSError as exc:
            raise click.UsageError(f"--port {port}: cannot listen on 127.0.0.1:{port} "
                                   f"({exc.strerror or exc}); choose another port, or 0") from None
        click.echo(f"page: http://127.0.0.1:{server.server_address[1]}/")
    click.echo(f"watching {watcher.root} (Ctrl-C to stop)" if not once else
               f"checking {watcher.root} once")
    try:
        watcher.run(max_cycles=1 if once else None, timeout=timeout, debounce_ms=debounce)
    finally:
        if server is not None:
            server.shutdown()
            server.server_close()
    if (once or timeout is not None) and not watcher.results[-1].ok:
        raise SystemExit(1)  # a script that watched for a while asks how the set was left


def register(group: click.Group) -> None:
    group.add_command(watch_cmd)
