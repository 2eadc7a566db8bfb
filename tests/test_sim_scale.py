"""Simulation at scale: blocks merge exactly, so the report is the same bytes with one process,
several, or a Dask cluster (even one that loses a worker mid-run); Ctrl-C keeps finished blocks."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import dask
import pytest
from boneyard.engine import sim
from boneyard.engine.sim import blocks_of, simulate
from boneyard.engine.stats import Tally
from boneyard.pipeline.cli import cli
from boneyard.pipeline.load import load_set
from click.testing import CliRunner
from distributed import Client, LocalCluster

from boneyard.errors import RulesError

AGENTS = ["random", "greedy"]


@pytest.fixture(scope="module")
def dotd():
    return load_set("day-of-the-dead")


@pytest.fixture(scope="module")
def cluster():
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=None) as c:
        yield c


def report(res: sim.SimResult) -> str:
    return json.dumps(res.to_json(), indent=2)


def test_blocks_cover_every_game_once_and_do_not_depend_on_jobs():
    for n in (1, 7, 255, 256, 257, 10_000, 1_000_000):
        blocks = blocks_of(n)
        assert blocks[0][1] == 0 and blocks[-1][2] == n
        assert all(a[2] == b[1] for a, b in zip(blocks, blocks[1:], strict=False))
        assert [b for b, _, _ in blocks] == list(range(len(blocks)))
    assert len(blocks_of(1_000_000)) == 1000  # big runs: 1,000 games a block


def test_tallies_merge_to_the_same_figures_as_one_pass():
    whole, left, right = Tally(), Tally(), Tally()
    values = [3, 0, 7, 1, 1, 12, 5, 0.5, 0, 1]
    for k, v in enumerate(values):
        whole.add("x", v)
        (left if k < 4 else right).add("x", v)
    left.merge(right)
    assert left.sums == whole.sums
    m, lo, hi = whole.mean_ci("x")
    mean = sum(values) / len(values)
    sd = (sum((v - mean) ** 2 for v in values) / (len(values) - 1)) ** 0.5
    assert m == pytest.approx(mean) and hi - m == pytest.approx(1.959963984540054 * sd / len(values) ** 0.5)
    assert whole.mean_ci("never", over=4)[0] == 0.0  # an event no game saw averages 0


def test_report_is_identical_with_one_or_two_processes(dotd, tmp_path):
    one = simulate(dotd, AGENTS, 300, 5, jobs=1, log=tmp_path / "a.jsonl")
    two = simulate(dotd, AGENTS, 300, 5, jobs=2, log=tmp_path / "b.jsonl")
    assert report(one) == report(two)
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert one.n == 300 and not one.partial and one.metric("games").value == 300


def test_streaming_keeps_no_per_game_data_unless_asked(dotd):
    res = simulate(dotd, AGENTS, 40, 5)
    assert res.summaries == [] and res.returns == [] and res.records == []
    kept = simulate(dotd, AGENTS, 40, 5, keep_games=True)
    assert len(kept.summaries) == 40 and report(kept) == report(res)
    # the streamed figures are the figures of the kept games
    wins = sum(r[k] for r, seats in zip(kept.returns, kept.seats, strict=True)
               for k, s in enumerate(seats) if s == "greedy")
    assert res.metric("agent.greedy.win_rate").value == pytest.approx(wins / 40)


def test_cluster_report_equals_the_local_one(dotd, cluster, tmp_path):
    local = simulate(dotd, AGENTS, 400, 9, jobs=1, log=tmp_path / "local.jsonl")
    remote = simulate(dotd, AGENTS, 400, 9, scheduler=cluster.scheduler_address,
                      log=tmp_path / "cluster.jsonl")
    assert report(remote) == report(local)
    assert (tmp_path / "local.jsonl").read_bytes() == (tmp_path / "cluster.jsonl").read_bytes()


def test_cluster_reruns_the_blocks_of_a_worker_that_dies(dotd, cluster):
    local = simulate(dotd, AGENTS, 900, 4, jobs=1)
    with Client(cluster) as client:
        pids = list(client.run(os.getpid).values())
    killed: list[int] = []

    def kill_one(done: int, total: int) -> None:
        if not killed and done < total:
            os.kill(pids[0], signal.SIGKILL)
            killed.append(done)

    # a result still held by the dead worker is fetched until a connect timeout (30 s by
    # default) before Dask reruns its block; a short one keeps the test quick
    with dask.config.set({"distributed.comm.timeouts.connect": "3s"}):
        remote = simulate(dotd, AGENTS, 900, 4, scheduler=cluster.scheduler_address, progress=kill_one)
    assert killed and killed[0] < 900  # it died with blocks still to run
    assert not remote.partial and remote.n == 900
    assert report(remote) == report(local)


def test_cli_scheduler_option_and_environment_give_the_local_report(cluster, tmp_path):
    runner = CliRunner()
    outputs = []
    for extra, env in ((["--jobs", "1"], {}), (["--scheduler", cluster.scheduler_address], {}),
                       ([], {"BONEYARD_SCHEDULER": cluster.scheduler_address})):
        path = tmp_path / f"r{len(outputs)}.json"
        args = ["simulate", "grave-feast", "-n", "60", "--players", "3", "--agents", "random",
                "--json", str(path), "--quiet", *extra]
        r = runner.invoke(cli, args, env=env)
        assert r.exit_code == 0, r.output
        outputs.append((path.read_bytes(), r.stdout))
    assert outputs[0] == outputs[1] == outputs[2]  # the JSON report and the printed tables


def test_unreachable_scheduler_is_one_clear_message(dotd, monkeypatch):
    monkeypatch.setattr(sim.cluster, "CONNECT_TIMEOUT", 1.0)  # read where it connects
    with pytest.raises(RulesError, match="cannot reach the Dask scheduler at tcp://127.0.0.1:9 .*dask scheduler"):
        simulate(dotd, AGENTS, 10, 1, scheduler="tcp://127.0.0.1:9")
    r = CliRunner().invoke(cli, ["simulate", "day-of-the-dead", "-n", "5", "--scheduler", "tcp://127.0.0.1:9"])
    assert r.exit_code == 1 and "cannot reach the Dask scheduler" in r.output and "Traceback" not in r.output


@pytest.mark.parametrize("answer", [b"", bytes([0x31] * 8) + bytes(200)])
def test_a_scheduler_port_where_another_program_listens_is_one_message_not_a_hang(
        dotd, monkeypatch, answer):
    """An HTTP server on the port made Dask's handshake wait for ever (no word, no timeout);
    bytes read as a frame length gave "Unable to allocate 3.07 EiB" and a traceback at exit."""
    import socket
    import threading

    server = socket.create_server(("127.0.0.1", 0))
    held: list[socket.socket] = []

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            held.append(conn)
            conn.sendall(answer)  # and then nothing: a program that is not a scheduler

    threading.Thread(target=serve, daemon=True).start()
    monkeypatch.setattr(sim.cluster, "CONNECT_TIMEOUT", 1.0)
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    started = time.monotonic()
    try:
        with pytest.raises(RulesError) as err:
            simulate(dotd, AGENTS, 10, 1, scheduler=address)
    finally:
        server.close()
        for conn in held:
            conn.close()
    assert time.monotonic() - started < 10
    assert f"cannot reach the Dask scheduler at {address} (" in str(err.value)
    assert "is another program listening on that port?" in str(err.value)


def test_ctrl_c_stops_quickly_and_writes_a_partial_report(tmp_path):
    out, log = tmp_path / "report.json", tmp_path / "games.jsonl"
    cmd = [str(Path(sys.executable).parent / "boneyard"), "simulate", "day-of-the-dead", "-n",
           "1000000", "--agents", "random", "--jobs", "2", "--json", str(out), "--log", str(log)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not any(p.stat().st_size for p in tmp_path.glob(".games.jsonl.*")):
        time.sleep(0.1)  # until the first block of 1,000 games is in the log
    os.killpg(proc.pid, signal.SIGINT)
    sent = time.monotonic()
    stdout, stderr = proc.communicate(timeout=30)
    assert time.monotonic() - sent < 2.5, "Ctrl-C took too long"
    assert proc.returncode == 130, stderr.decode()
    data = json.loads(out.read_text())
    assert data["partial"] is True and 0 < data["games"] < 1_000_000
    assert data["games"] == data["blocks_done"] * 1000  # whole blocks only
    assert len(log.read_text().splitlines()) == data["games"]
    assert b"PARTIAL" in stdout and b"Traceback" not in stderr
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_stop_does_not_wait_on_a_pipe_a_killed_worker_held(monkeypatch):
    """Ctrl-C kills the workers; one killed while it wrote a result holds the pipe's lock for
    ever, and the pool's own shutdown, which takes it, never ends: the stop must not wait."""
    from boneyard.engine.sim import local

    monkeypatch.setattr(local, "STOP_WAIT", 60.0)
    pool = local.new_pool(local.mp_context(), 2, local.quiet_worker)
    lock = pool._outqueue._wlock
    assert lock.acquire(False)  # as the killed worker left it: taken, never to be released
    try:
        started = time.monotonic()
        local.stop_pool(pool)
        assert time.monotonic() - started < 30
        assert all(w.exitcode is not None for w in pool._pool)
    finally:
        lock.release()  # the shutdown left waiting in its thread can end now


def test_build_playtest_on_the_cluster_gives_the_local_figures(cluster):
    from dataclasses import replace

    from boneyard.pipeline.build import config_for
    from boneyard.pipeline.playtest import playtest

    cs = load_set(Path(__file__).parent / "fixtures" / "sets" / "dotd-overpowered")
    cfg = replace(config_for(cs, games=120, jobs=1), strength_games=40, substitution_games=12)
    local = playtest(cs, cfg)
    remote = playtest(cs, replace(cfg, scheduler=cluster.scheduler_address))
    figures = lambda rec: [r["metrics"] for r in rec["runs"]]  # noqa: E731
    assert figures(remote) == figures(local)
    assert any(m["name"] == "card.oaf.sub_delta" for m in figures(local)[0])  # substitution ran there too


def test_stdout_is_the_report_alone_and_quiet_silences_stderr(tmp_path):
    runner = CliRunner()
    args = ["simulate", "day-of-the-dead", "-n", "30", "--agents", "random", "--json", str(tmp_path / "r.json")]
    loud = runner.invoke(cli, args)
    quiet = runner.invoke(cli, [*args, "--quiet"])
    assert loud.exit_code == quiet.exit_code == 0
    assert "games/s" in loud.stderr and "report written" in loud.stderr
    assert quiet.stderr == "" and loud.stdout == quiet.stdout  # timings never reach the report
    assert "games/s" not in loud.stdout


def test_progress_bar_shows_games_rate_and_time_left():
    import io

    from boneyard.pipeline.cmd_sim import progress_bar
    from rich.console import Console

    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=120)
    with progress_bar(console) as bar:
        task = bar.add_task("games", total=1000)
        bar.update(task, completed=250)
        time.sleep(0.05)
        bar.update(task, completed=500)
        bar.refresh()
    text = out.getvalue()
    assert "500/1000" in text and "simulating" in text
    assert re.search(r"\d[\d,]* games/s", text)  # a measured rate, not the "-" placeholder
    assert re.search(r"\d+:\d\d:\d\d", text)  # time left
