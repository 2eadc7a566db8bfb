"""Issue 18, the faults that got through: a looping game, invariant checks, runs of any size,
cluster addresses and lost workers, tampered logs. Each test injects the fault it is about."""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import signal
import socket
import sys
import time
import types
from pathlib import Path
from typing import Any

import pytest
from boneyard.engine import games
from boneyard.engine.core import TERMINAL
from boneyard.engine.sim import (
    BrokenInvariant,
    ReplayError,
    block_count,
    blocks_of,
    iter_blocks,
    replay,
    simulate,
)
from boneyard.engine.sim import cluster as sim_cluster
from boneyard.engine.sim import play as sim_play
from boneyard.engine.sim.replay import record_problem
from boneyard.pipeline.cli import cli, main
from boneyard.pipeline.cmd_sim import read_record
from boneyard.pipeline.gates import FAIL, STUCK_METRIC, Gate, evaluate, stuck_metric
from boneyard.pipeline.load import load_set
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from toy.game import ToyState
from toy.spec import SPEC as TOY_SPEC

from boneyard.errors import BoneyardError, RulesError

TOY_SET = Path(__file__).parent / "toy" / "set"


# --- a game that loops for some seeds --------------------------------------------------------


class LoopSummary(dict):
    """A finished game's facts, read as a mapping or by attribute (either way the simulator asks)."""

    winner = property(lambda self: self["winner"])
    draw = property(lambda self: self["winner"] is None)
    scores = property(lambda self: ())
    first_player = property(lambda self: 0)
    turns = property(lambda self: self["turns"])
    played = property(lambda self: ((), ()))

    def to_json(self) -> dict[str, Any]:
        return dict(self)


class LoopObservation:
    def __init__(self, state: LoopState, player: int) -> None:
        self._legal = state.legal_actions() if state.current_player() == player else []

    def legal_actions(self) -> list[int]:
        return list(self._legal)


class LoopState:
    """Two players add 1 or 2 to a count; the game ends at 6, unless it loops (then 2 undoes 1)."""

    def __init__(self, game: LoopGame, loops: bool) -> None:
        self.game, self.loops, self.count, self.turn, self.player = game, loops, 0, 0, 0

    def current_player(self) -> int:
        return TERMINAL if self.is_terminal() else self.player

    def is_terminal(self) -> bool:
        return self.count >= 6

    def legal_actions(self) -> list[int]:
        return [] if self.is_terminal() else [1, 2]

    def apply_action(self, action: int) -> None:
        if action not in self.legal_actions():
            raise RulesError(f"illegal action {action}")
        self.turn += 1
        self.count = 0 if self.loops else self.count + action
        self.player = 1 - self.player

    def returns(self) -> list[float]:
        return [1.0, 0.0] if self.player == 1 else [0.0, 1.0]

    def observation(self, player: int) -> LoopObservation:
        return LoopObservation(self, player)

    def action_to_string(self, action: int) -> str:
        return f"add {action}"

    def summary(self) -> LoopSummary:
        return LoopSummary(turns=self.turn, winner=0 if self.player == 1 else 1)


class LoopGame:
    """Games whose seed is divisible by 3 never end: an engine fault, as the return-to-hand loop was."""

    num_players = 2

    def new_initial_state(self, seed: int) -> LoopState:
        return LoopState(self, seed % 3 == 0)


def test_a_stuck_game_is_recorded_and_the_run_goes_on(tmp_path):
    log = tmp_path / "games.jsonl"
    res = simulate(LoopGame(), ["random"], 60, 5, max_actions=50, log=log)
    assert res.stuck_count > 0 and res.n + res.stuck_count == 60 and not res.partial
    assert all(s["seed"] % 3 == 0 and s["actions"] == 50 for s in res.stuck)
    report = res.to_json()
    assert report["stuck"]["games"] == res.stuck_count
    assert [s["seed"] for s in report["stuck"]["listed"]] == [s["seed"] for s in res.stuck]
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(records) == 60
    stuck = [r for r in records if r.get("stuck")]
    assert len(stuck) == res.stuck_count
    state = replay(LoopGame(), stuck[0])  # replayable: the same actions, still running
    assert not state.is_terminal()
    fine = next(r for r in records if not r.get("stuck"))
    with pytest.raises(ReplayError, match="logged as stuck"):
        replay(LoopGame(), dict(fine, stuck=True))


def test_stuck_games_do_not_depend_on_jobs():
    one = simulate(LoopGame(), ["random"], 40, 2, jobs=1, max_actions=30)
    two = simulate(LoopGame(), ["random"], 40, 2, jobs=2, max_actions=30)
    assert one.to_json() == two.to_json() and one.stuck_count


def test_a_sound_run_reports_no_stuck_key():
    res = simulate(load_set("day-of-the-dead"), ["random"], 20, 1)
    assert res.stuck_count == 0 and "stuck" not in res.to_json()


def test_any_gate_fails_on_a_stuck_game():
    metrics = {"main": [stuck_metric(2, 100)], "p3": [stuck_metric(0, 100)]}
    results = evaluate([], metrics)
    assert [(r.run, r.status) for r in results] == [("main", FAIL)]
    gate = Gate(STUCK_METRIC, max=5)
    assert any(r.failed for r in evaluate([gate], metrics))  # a loosened gate does not hide it


@pytest.fixture
def toy_registered():
    games.register(TOY_SPEC)
    yield
    games._SPECS.pop(TOY_SPEC.name, None)
    games.GAMES.pop(TOY_SPEC.name, None)


def test_a_build_with_a_looping_game_fails_its_gates(toy_registered, tmp_path, monkeypatch):
    original = ToyState.apply_action

    def looping(self: ToyState, action: int) -> None:
        if self.round == 0 and self.prize == 9:  # the card goes back: the round never ends
            self.current = (self.current + 1) % self.game.num_players
            return
        original(self, action)

    monkeypatch.setattr(ToyState, "apply_action", looping)
    monkeypatch.setattr(sim_play, "MAX_ACTIONS", 200)
    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["build", str(TOY_SET), "--fast", "--jobs", "1", "--out", str(out)])
    assert res.exit_code != 0, res.output
    record = json.loads((out / "set" / "playtest.json").read_text())
    assert record["passed"] is False
    stuck = [g for g in record["gates"] if g["gate"]["metric"] == STUCK_METRIC]
    assert stuck and all(g["status"] == FAIL for g in stuck)
    run = record["runs"][0]
    assert run["stuck"]["games"] == stuck[0]["metric"]["value"] > 0
    assert all("seed" in s for s in run["stuck"]["listed"])


def test_a_position_the_rules_cannot_play_on_names_the_set_and_the_game(toy_registered, tmp_path,
                                                                       monkeypatch, capsys):
    """A rules error mid-playtest (cards and rules the validator let through into a dead end)
    is one message naming the set, the game and its seed, with exit 1 and no record written."""
    original = ToyState.apply_action

    def dead_end(self: ToyState, action: int) -> None:
        if self.round == 1 and self.prize == 9:
            raise RulesError("player 0 has no card to play")
        original(self, action)

    monkeypatch.setattr(ToyState, "apply_action", dead_end)
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as exit_:
        main(["build", str(TOY_SET), "--fast", "--jobs", "1", "--out", str(out)])
    assert exit_.value.code == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert re.fullmatch(r"Prize Duel, run '\w+': game \d+ \(game seed \d+, [^)]+\) stopped: player 0 "
                        r"has no card to play; the set's cards and rules lead to a position the "
                        r"rules engine cannot play on\n", err), err
    assert not (out / "set" / "playtest.json").exists()


# --- invariants ------------------------------------------------------------------------------


class BrokenState(LoopState):
    """Scores that go out of bounds at the third step."""

    def returns(self) -> list[float]:
        return [1.0, 1.0] if self.is_terminal() else [0.0, 0.0]


class BrokenGame(LoopGame):
    def new_initial_state(self, seed: int) -> LoopState:
        return BrokenState(self, False)


def test_check_names_the_seed_and_the_step():
    with pytest.raises(BrokenInvariant, match=r"game from seed \d+, after step \d+ \(action \d: add \d\): returns"):
        simulate(BrokenGame(), ["random"], 5, 1, check=True)
    simulate(BrokenGame(), ["random"], 5, 1, check=False)  # unchecked, it plays on


class CheatingAgent:
    def choose(self, obs: Any, rng: random.Random) -> int:
        return 7


def test_check_refuses_an_illegal_choice():
    game = LoopGame()
    with pytest.raises(BrokenInvariant, match="not legal"):
        sim_play.play_game(game, [CheatingAgent(), CheatingAgent()], 1, check=lambda s: [])


@pytest.mark.parametrize("name, players, options", [
    ("day-of-the-dead", 2, {}), ("grave-feast", 4, {}), ("grave-feast", 3, {"rares": True})])
def test_the_shipped_games_keep_their_invariants(name, players, options):
    cs = load_set(name)
    checked = simulate(cs, ["random"], 40, 3, num_players=players, options=options, check=True)
    plain = simulate(cs, ["random"], 40, 3, num_players=players, options=options, check=False)
    assert checked.to_json() == plain.to_json()


def test_the_game_invariants_see_a_lost_card():
    for name, players in (("day-of-the-dead", 2), ("grave-feast", 3)):
        cs = load_set(name)
        spec = games.spec_of(cs.rules)
        state = games.make_game(cs, players).new_initial_state(4)
        assert spec.invariants is not None and spec.invariants(state) == []
        hand = state.hands[0]
        hand.append(hand[0])  # one card in two places
        assert any("zone" in p for p in spec.invariants(state)), name


def test_simulate_check_flag_runs_the_checks():
    res = CliRunner().invoke(cli, ["simulate", "day-of-the-dead", "-n", "20", "--jobs", "1",
                                   "--check", "-q"])
    assert res.exit_code == 0, res.output


# --- runs of any size ------------------------------------------------------------------------


@given(st.integers(min_value=1, max_value=10**7))
@settings(max_examples=60, deadline=None)
def test_lazy_blocks_cover_every_game_once(n):
    blocks = iter_blocks(n)
    assert not isinstance(blocks, list)
    first = next(blocks)
    count = block_count(n)
    assert first[:2] == (0, 0)
    if n <= 200_000:
        all_blocks = blocks_of(n)
        assert len(all_blocks) == count and all_blocks[-1][2] == n
        assert all(a[2] == b[1] for a, b in zip(all_blocks, all_blocks[1:], strict=False))


def test_a_huge_run_starts_at_once_and_stops_partial(monkeypatch):
    import threading

    cs = load_set("day-of-the-dead")
    timer = threading.Timer(5, lambda: signal.raise_signal(signal.SIGINT))
    started = time.perf_counter()
    timer.start()
    try:
        res = simulate(cs, ["random"], 10**12, 1, jobs=2, interruptible=True)
    finally:
        timer.cancel()
    assert time.perf_counter() - started < 20
    assert res.partial and 0 < res.n < 10**12 and res.blocks == block_count(10**12)


# --- cluster addresses and lost workers ------------------------------------------------------


def _refused_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


@pytest.mark.parametrize("address", ["garbage", "tcp://", "tls://10.0.0.1:8786", "inproc://x",
                                     "tcp://[::1", "REFUSED"])
def test_a_bad_scheduler_address_fails_fast_with_one_message(address):
    if address == "REFUSED":
        address = f"tcp://127.0.0.1:{_refused_port()}"
    started = time.perf_counter()
    res = CliRunner().invoke(cli, ["simulate", "day-of-the-dead", "-n", "10", "-q",
                                   "--scheduler", address])
    assert time.perf_counter() - started < 5
    assert res.exit_code == 1, res.output
    assert "Traceback" not in res.output and not isinstance(res.exception, Exception) or \
        isinstance(res.exception, SystemExit)
    lines = [line for line in res.output.splitlines() if line.strip()]
    assert len(lines) == 1 and address in lines[0], res.output


class FakeFuture:
    def __init__(self, fn, args, fail: bool) -> None:
        self.fn, self.args, self.fail = fn, args, fail

    def result(self):
        if self.fail:
            raise sim_cluster.concurrent.futures.CancelledError("worker lost")
        return self.fn(*self.args)

    def release(self) -> None:
        pass


class FakeClient:
    """A cluster whose workers die: the first try of every block in ``lose`` is lost, and the
    blocks in ``lose_always`` are lost every time."""

    def __init__(self, lose: set[int], lose_always: set[int]) -> None:
        self.lose, self.lose_always, self.loop = lose, lose_always, None
        self.submitted: list[str] = []

    def scatter(self, value, **kw):
        return value

    def submit(self, fn, *args, key: str, pure: bool):
        b = args[2][0]
        self.submitted.append(key)
        first = not any(k.rsplit("-", 2)[1] == str(b) for k in self.submitted[:-1])
        return FakeFuture(fn, args, b in self.lose_always or (first and b in self.lose))

    def close(self, timeout=None):
        pass


class FakeAsCompleted:
    def __init__(self, futures, loop=None):
        self.queue = list(futures)

    def add(self, fut):
        self.queue.append(fut)

    def __iter__(self):
        while self.queue:
            yield self.queue.pop(0)


def _fake_cluster(monkeypatch, lose: set[int], lose_always: set[int]) -> FakeClient:
    client = FakeClient(lose, lose_always)
    monkeypatch.setitem(sys.modules, "distributed", types.SimpleNamespace(as_completed=FakeAsCompleted))
    monkeypatch.setattr(sim_cluster, "connect", lambda address: client)
    return client


def test_blocks_lost_with_a_worker_are_rerun_elsewhere(monkeypatch):
    cs = load_set("day-of-the-dead")
    local = simulate(cs, ["random"], 300, 4, jobs=1)
    client = _fake_cluster(monkeypatch, lose={0, 3, 7}, lose_always=set())
    remote = simulate(cs, ["random"], 300, 4, scheduler="tcp://fake:1")
    assert remote.to_json() == local.to_json() and not remote.partial
    assert len(client.submitted) == local.blocks + 3


def test_a_block_lost_every_time_ends_the_run_partial_with_the_rest_kept(monkeypatch):
    cs = load_set("day-of-the-dead")
    _fake_cluster(monkeypatch, lose=set(), lose_always={5})
    res = simulate(cs, ["random"], 300, 4, scheduler="tcp://fake:1")
    assert res.partial and res.blocks_done == res.blocks - 1 and res.n < 300
    assert res.notes and "given up" in res.notes[0]


# --- tampered logs ---------------------------------------------------------------------------


def _log(tmp_path: Path) -> Path:
    log = tmp_path / "g.jsonl"
    simulate(load_set("day-of-the-dead"), ["random"], 3, 1, log=log)
    return log


@pytest.mark.parametrize("change", [
    {"seed": "12"}, {"seed": True}, {"actions": [1, "x"]}, {"actions": {"a": 1}},
    {"switches": [1]}, {"options": 3}, {"agents": [1]}, {"returns": "win"}, {"game": 1.5}])
def test_a_tampered_log_line_is_one_message(tmp_path, change):
    log = _log(tmp_path)
    lines = log.read_text().splitlines()
    rec = json.loads(lines[0])
    rec.update(change)
    lines[0] = json.dumps(rec)
    log.write_text("\n".join(lines) + "\n")
    with pytest.raises(BoneyardError, match=r"g\.jsonl:1:1: not a game record \("):
        read_record(log, 0)
    assert record_problem(rec) is not None
    res = CliRunner().invoke(cli, ["replay", str(log), "--game", "0"])
    assert res.exit_code == 1 and "Traceback" not in res.output, res.output


def test_a_log_cut_short_keeps_its_whole_games_replayable_and_says_so_for_the_cut_one(tmp_path):
    """A run killed mid-write leaves its last line cut; a cut line stopped every replay of the
    file with json's own words, cut off too: "not a JSON game record (Invalid control character
    at)"."""
    log = _log(tmp_path)
    lines = log.read_text().splitlines()
    log.write_text("\n".join([lines[0][:-40], *lines[1:]]) + "\n")
    assert read_record(log, 1)["game"] == 1 and read_record(log, 2)["game"] == 2
    with pytest.raises(BoneyardError) as cut:
        read_record(log, 0)
    assert re.fullmatch(r".*g\.jsonl:1:\d+: not a whole game record: the line is cut off \(the "
                        r"run was stopped while it wrote the log, or the file was copied short; "
                        r"replay another game, or run the simulation again\)", str(cut.value))
    log.write_text("\n".join(["{x" + lines[0][1:], *lines[1:]]) + "\n")
    with pytest.raises(BoneyardError, match=r"g\.jsonl:1:2: not a JSON game record \(expecting "
                       r"property name enclosed in double quotes; use the line as simulate --log "
                       r"wrote it\)$"):
        read_record(log, 0)


def test_a_deeply_nested_log_line_is_one_message(tmp_path):
    log = tmp_path / "deep.jsonl"
    log.write_text("[" * 100_000 + "]" * 100_000 + "\n")
    res = CliRunner().invoke(cli, ["replay", str(log)])
    assert res.exit_code == 1 and "nested too deeply" in res.output, res.output


@given(st.dictionaries(st.sampled_from(["seed", "actions", "game", "switches", "options",
                                        "agents", "returns", "num_players", "stuck"]),
                       st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=3),
                                    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=2), c, max_size=2),
                                    max_leaves=6)))
@settings(max_examples=150, deadline=None)
def test_replay_of_any_record_is_a_replay_error_or_a_replay(rec):
    with contextlib.suppress(ReplayError, RulesError):  # anything else is a traceback
        replay(load_set_cached(), rec)


_CACHE: dict[str, Any] = {}


def load_set_cached():
    if "dotd" not in _CACHE:
        _CACHE["dotd"] = load_set("day-of-the-dead")
    return _CACHE["dotd"]


def test_a_worker_lost_without_a_nanny_has_its_blocks_rerun(tmp_path):
    """Two `dask worker --no-nanny` processes; one is killed mid-run (SIGKILL): its blocks run
    on the other and the report is the local one."""
    import os
    import subprocess

    import dask
    from distributed import Client, LocalCluster

    cs = load_set("day-of-the-dead")
    local = simulate(cs, ["random"], 600, 4, jobs=1)
    with LocalCluster(n_workers=0, processes=True, dashboard_address=None) as lc:
        workers = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker",
                                     lc.scheduler_address, "--no-nanny", "--nthreads", "1",
                                     "--no-dashboard"], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL) for _ in range(2)]
        try:
            with Client(lc.scheduler_address) as client:
                client.wait_for_workers(2, timeout=60)
            killed: list[int] = []

            def kill_one(done: int, total: int) -> None:
                if not killed and done < total:
                    os.kill(workers[0].pid, signal.SIGKILL)
                    killed.append(done)

            with dask.config.set({"distributed.comm.timeouts.connect": "3s"}):
                remote = simulate(cs, ["random"], 600, 4, scheduler=lc.scheduler_address,
                                  progress=kill_one)
        finally:
            for w in workers:
                w.kill()
                w.wait()
    assert killed and killed[0] < 600
    assert not remote.partial and remote.to_json() == local.to_json()


def _stopped(args: list[str], sig: int = signal.SIGKILL) -> tuple[int, str]:
    """Run ``python args``, let it work for a few seconds, send ``sig``; (exit code, what it
    and its workers printed to stderr), read until every worker holding the pipe has gone."""
    import subprocess

    proc = subprocess.Popen([sys.executable, *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    time.sleep(4)
    assert proc.poll() is None  # still working
    proc.send_signal(sig)
    proc.wait()
    started = time.perf_counter()
    err = proc.stderr.read().decode()  # EOF once every worker holding the pipe has gone
    proc.stderr.close()
    assert time.perf_counter() - started < 15
    assert "Traceback" not in err and "BrokenPipe" not in err, err
    return proc.returncode, err


CLI = ["-c", "from boneyard.pipeline.cli import main; main()"]


def test_killing_the_main_simulate_process_leaves_workers_quiet():
    """SIGKILL the parent of two workers mid-run: they leave within seconds, without a
    BrokenPipeError traceback (they share its stderr, so anything they print is seen here)."""
    _stopped([*CLI, "simulate", "day-of-the-dead", "-n", "1000000", "--jobs", "2", "-q"])


def test_killing_a_build_in_its_substitution_runs_leaves_their_workers_quiet():
    """The same for the pool of a build's other work (``map_tasks``: the substitution runs):
    a build stopped by SIGTERM or SIGKILL prints no worker traceback."""
    code = ("import time; from boneyard.engine.sim.run import map_tasks; "
            "map_tasks(time.sleep, [0.01] * 100000, jobs=2)")
    for sig in (signal.SIGKILL, signal.SIGTERM):
        _stopped(["-c", code], sig)


def test_sigterm_stops_a_run_like_ctrl_c_and_says_so(tmp_path):
    """SIGTERM (a CI timeout, kill) made the process vanish: exit 143, not a word, its
    temporary log left behind. It unwinds now: "Terminated.", no log, no temporary."""
    log = tmp_path / "games.jsonl"
    code, err = _stopped([*CLI, "simulate", "day-of-the-dead", "-n", "1000000", "--jobs", "2",
                          "-q", "--log", str(log)], signal.SIGTERM)
    assert (code, err.strip()) == (143, "Terminated.")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("after", [0.5, 2.0, 4.0])
def test_sigterm_to_the_whole_process_group_stops_a_run_at_once(tmp_path, after):
    """`timeout` and CI send SIGTERM to the process group: the workers died writing a result,
    the pool's reader waited on the half-written pipe for ever, and so did the run (until a
    SIGKILL, 4 times in 5). It ends now, with exit 143 and nothing left behind."""
    import os
    import subprocess

    log = tmp_path / "games.jsonl"
    proc = subprocess.Popen([sys.executable, *CLI, "simulate", "day-of-the-dead", "-n",
                             "1000000", "--jobs", "2", "-q", "--log", str(log)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)
    time.sleep(after)
    os.killpg(proc.pid, signal.SIGTERM)
    try:
        _, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise AssertionError("SIGTERM to the group did not end the run in 20 s") from None
    assert proc.returncode in (143, -signal.SIGTERM), err  # -15: stopped before it set up
    assert "Traceback" not in err.decode()
    assert list(tmp_path.iterdir()) == []


def test_too_few_file_descriptors_for_the_workers_is_one_message_not_a_hang(tmp_path):
    """Just below the descriptors two workers need (``ulimit -n 14`` here) the pool opens the
    first worker and then ends it with SIGTERM at once; a signal landing in the worker's
    after-fork hooks was dropped, so it lived on and ``simulate --jobs 2`` waited for ever
    (half the runs at 14 and 15). Every limit now ends: a run, or one message and no log."""
    import resource
    import subprocess

    log = tmp_path / "games.jsonl"
    for limit in range(10, 18):
        def low_limit(limit: int = limit) -> None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (limit, limit))

        proc = subprocess.run([sys.executable, *CLI, "simulate", "day-of-the-dead", "-n", "200",
                               "--jobs", "2", "--log", str(log)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              preexec_fn=low_limit, timeout=60)
        if proc.returncode == 0:
            assert len(log.read_text().splitlines()) >= 200
            log.unlink()
        else:
            assert (proc.returncode, proc.stderr.strip()) == (
                1, "Too many open files (raise the limit with `ulimit -n`, or use fewer --jobs)")
            assert list(tmp_path.iterdir()) == []


def test_the_fast_profile_checks_invariants_and_the_default_one_does_not(tmp_path, monkeypatch):
    import dataclasses

    spec = dataclasses.replace(TOY_SPEC, invariants=lambda state: ["a planted fault"])
    games.register(spec)
    monkeypatch.delenv("BONEYARD_CHECK", raising=False)
    try:
        fast = CliRunner().invoke(cli, ["build", str(TOY_SET), "--fast", "--jobs", "1",
                                        "--out", str(tmp_path / "a")])
        assert isinstance(fast.exception, BrokenInvariant), fast.output
        assert "at the deal: a planted fault" in str(fast.exception)
        default = CliRunner().invoke(cli, ["build", str(TOY_SET), "--jobs", "1", "--out",
                                           str(tmp_path / "b")])
        assert default.exit_code == 0, default.output
    finally:
        games._SPECS.pop(spec.name, None)
        games.GAMES.pop(spec.name, None)


def test_simulate_prints_the_stuck_games_with_their_seeds():
    from boneyard.pipeline.cmd_sim import print_result
    from rich.console import Console

    res = simulate(LoopGame(), ["random"], 30, 5, max_actions=20)
    console = Console(file=io.StringIO(), width=200)
    print_result(res, console)
    out = console.file.getvalue()
    assert f"STUCK: {res.stuck_count} game(s) hit the action cap" in out
    assert f"seed {res.stuck[0]['seed']}" in out


def test_a_local_worker_killed_mid_run_has_its_blocks_played_again():
    """SIGKILL (the out-of-memory killer) on one of two workers: the pool put a new worker in
    its place, but the blocks the dead one held never came back and the run waited for ever.
    The pool is replaced, the blocks in flight are played again, and the report is the local
    one, with a note saying what happened."""
    import faulthandler
    import multiprocessing
    import os

    cs = load_set("day-of-the-dead")
    alone = simulate(cs, ["random"], 3000, 4, jobs=1)
    killed: list[int] = []

    def kill_one(done: int, total: int) -> None:
        workers = multiprocessing.active_children()
        if not killed and workers and done < total:
            os.kill(workers[0].pid, signal.SIGKILL)
            killed.append(done)

    faulthandler.dump_traceback_later(120, exit=True)  # a hang fails the run, not CI's clock
    try:
        res = simulate(cs, ["random"], 3000, 4, jobs=2, progress=kill_one)
    finally:
        faulthandler.cancel_dump_traceback_later()
    assert killed and killed[0] < 3000
    assert not res.partial and res.to_json() == alone.to_json()
    # a worker killed between two blocks lost none (the new one takes the queued blocks): then
    # nothing needs saying; a lost block is played again and said
    assert all("was killed by SIGKILL" in n and "played again by new workers" in n
               for n in res.notes), res.notes


def test_a_local_worker_stopped_mid_run_is_ended_and_its_blocks_played_again(monkeypatch):
    """SIGSTOP on one of two workers (a debugger, a stray `kill -STOP`): it held its block for
    ever and the run waited without a word. After STOPPED_WAIT seconds of waiting it is ended,
    its blocks are played again, and the report is the one a single process gives."""
    import faulthandler
    import multiprocessing
    import os

    from boneyard.engine.sim import local

    monkeypatch.setattr(local, "STOPPED_WAIT", 1.0)
    cs = load_set("day-of-the-dead")
    alone = simulate(cs, ["random"], 3000, 4, jobs=1)
    stopped: list[int] = []
    before = {p.pid for p in multiprocessing.active_children()}  # another test's, left running

    def stop_one(done: int, total: int) -> None:
        workers = [p for p in multiprocessing.active_children()
                   if p.pid not in before and "PoolWorker" in p.name]  # this run's pool only
        if not stopped and workers and done < total:
            os.kill(workers[0].pid, signal.SIGSTOP)
            stopped.append(workers[0].pid)

    faulthandler.dump_traceback_later(120, exit=True)
    try:
        res = simulate(cs, ["random"], 3000, 4, jobs=2, progress=stop_one)
        left_stopped = bool(stopped) and local.is_stopped(stopped[0])
    finally:
        faulthandler.cancel_dump_traceback_later()
        for pid in stopped:  # never leave a stopped process behind, whatever happened
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
    assert stopped and not left_stopped
    assert not res.partial and res.to_json() == alone.to_json()
    # stopped holding a block: ended, its blocks played again, and said; stopped while it waited
    # for work, the other worker played every block and nothing was lost, so nothing is said
    assert all(f"(pid {stopped[0]}) stayed stopped (SIGSTOP)" in n for n in res.notes), res.notes


def test_a_worker_stopped_while_it_waits_for_work_does_not_hold_the_end_of_the_run(monkeypatch):
    """Every result in, one worker stopped while idle: the pool's join waited for it for ever
    (it never reads the word to end). The pool is ended, and nothing stopped is left behind."""
    import faulthandler
    import multiprocessing
    import os

    from boneyard.engine.sim import local

    monkeypatch.setattr(local, "STOPPED_WAIT", 1.0)
    pool = local.new_pool(local.mp_context(), 2, local.quiet_worker)
    workers = list(pool._pool)
    assert pool.map(abs, [-1, -2, -3, -4]) == [1, 2, 3, 4]
    os.kill(workers[0].pid, signal.SIGSTOP)
    faulthandler.dump_traceback_later(60, exit=True)
    try:
        local.finish_pool(pool)
    finally:
        faulthandler.cancel_dump_traceback_later()
        for w in workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(w.pid, signal.SIGKILL)
    for w in workers:
        w.join(5)
        assert w.exitcode is not None
    assert not [p for p in multiprocessing.active_children() if p.pid in {w.pid for w in workers}]


def test_a_stopped_pid_is_told_from_a_running_one():
    import os
    import subprocess

    from boneyard.engine.sim.local import is_stopped

    child = subprocess.Popen(["sleep", "30"])
    try:
        assert not is_stopped(child.pid)
        os.kill(child.pid, signal.SIGSTOP)
        deadline = time.monotonic() + 5
        while not is_stopped(child.pid) and time.monotonic() < deadline:
            time.sleep(0.01)
        assert is_stopped(child.pid)
    finally:
        child.kill()
        child.wait()
    assert not is_stopped(child.pid)  # gone: not stopped


def test_a_worker_killed_in_a_builds_other_work_has_its_tasks_done_again():
    """The same for ``map_tasks`` (a build's substitution runs): the results, in task order."""
    import faulthandler
    import multiprocessing
    import os

    from boneyard.engine.sim.run import map_tasks

    killed: list[int] = []

    def kill_one(result: float) -> None:
        workers = multiprocessing.active_children()
        if not killed and workers:
            os.kill(workers[0].pid, signal.SIGKILL)
            killed.append(1)

    faulthandler.dump_traceback_later(120, exit=True)
    try:
        out = map_tasks(time.sleep, [0.005] * 600, jobs=2, done=kill_one)
    finally:
        faulthandler.cancel_dump_traceback_later()
    assert killed and out == [None] * 600


def test_ctrl_c_while_the_commands_load_says_interrupted_without_a_traceback():
    """The first half second of any command imports every command module; a Ctrl-C then printed
    a 20-55 line traceback through the imports, before main() could catch it."""
    import subprocess

    code = ("import importlib\n"
            "real = importlib.import_module\n"
            "def slow(name, *a):\n"
            "    if name.endswith('cmd_watch'):\n"
            "        raise KeyboardInterrupt\n"
            "    return real(name, *a)\n"
            "importlib.import_module = slow\n"
            "import boneyard.pipeline.cli\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert (res.returncode, res.stderr) == (130, "Interrupted.\n"), res.stderr
