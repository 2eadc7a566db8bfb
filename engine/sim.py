"""Playtesting by simulation: many seeded games between agents, the same result on any machine.

Determinism is the contract. Game ``i`` of a run with seed ``s`` is dealt from
``game_seed(s, i)`` (a hash, so neighbouring seeds share nothing), each seat's agent draws from
its own stream ``agent_seed(game_seed, seat)``, and agents are rotated through the seats by game
index (seat ``k`` of game ``i`` is played by ``agents[(k + i) % players]``), so with unequal agents
every agent sits in every seat equally often; who holds priority / moves first is drawn by the
engine from the game seed. ``jobs > 1`` splits the games into chunks by index, plays them in worker
processes and merges them back in index order: exactly the same :class:`SimResult` as ``jobs=1``.

A game record (one JSON line of ``--log``) holds everything needed to replay it: the card set's
content hash and switches, engine options, player count, game seed, agent specs per seat and the
actions (ints, plus their text for people). :func:`replay` plays it back through the engine and
checks it ends the same way.

Metrics: the engine's own ``<engine>.metrics.game_metrics(summaries, num_players)`` plus figures
any game has (names are stable; gates refer to them):

    seat.<k>.win_rate        share of wins of seat k (1-based; a draw splits the point)
    agent.<spec>.win_rate    share of wins of an agent spec (only when the agents differ)
    draw_rate                games without a single winner
    first_player_win_rate    share of wins of the player moving first (summary "first_player",
                             or "first_priority": who held priority on turn 1)
    score_mean, score_sd, score_margin   from summary "scores" (margin: winner minus runner-up)
    turns_mean               from summary "turns"

(the generic ones are skipped when the engine's metrics already define a metric of that name;
the seat figures when the engine reports any metric in group "seat").
"""

from __future__ import annotations

import copyreg
import hashlib
import importlib
import json
import math
import multiprocessing
import os
import random
import tempfile
import threading
import time
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from boneyard.engine.agents import make_agent, parse_spec
from boneyard.engine.cards import CardSet, freeze
from boneyard.engine.core import Agent, Game, State
from boneyard.engine.stats import Metric, mean_metric, proportion_metric

from boneyard.errors import BoneyardError, RulesError

__all__ = [
    "ReplayError",
    "SimResult",
    "agent_seed",
    "game_seed",
    "make_record",
    "play_game",
    "replay",
    "seat_agents",
    "simulate",
    "transcript",
]

# Card sets hold read-only mappings; teach pickle to carry them to worker processes.
copyreg.pickle(types.MappingProxyType, lambda m: (freeze, (dict(m),)))

MAX_ACTIONS = 1_000_000
"""A game longer than this is a broken engine, not a long game."""


class ReplayError(BoneyardError):
    """A logged game that does not replay: other card content, or another outcome."""


# --- seeds and seats -------------------------------------------------------------------------


def _hash_seed(*parts: object) -> int:
    blob = ":".join(str(p) for p in parts).encode()
    return int.from_bytes(hashlib.sha256(blob).digest()[:8], "big") >> 1


def game_seed(seed: int, index: int) -> int:
    """The seed game ``index`` of a run with ``seed`` is dealt from."""
    return _hash_seed("game", seed, index)


def agent_seed(seed_of_game: int, seat: int) -> int:
    """The seed of the agent in ``seat`` (its own stream: no agent's draws shift another's)."""
    return _hash_seed("agent", seed_of_game, seat)


def seat_agents(agents: Sequence[str], num_players: int, index: int) -> list[str]:
    """Agent spec per seat in game ``index``: one spec fills every seat, else they rotate."""
    if len(agents) == 1:
        return [agents[0]] * num_players
    if len(agents) != num_players:
        raise RulesError(
            f"{len(agents)} agents given for {num_players} players "
            "(give one agent for every seat, or a single agent for all seats)"
        )
    return [agents[(k + index) % num_players] for k in range(num_players)]


# --- one game --------------------------------------------------------------------------------


def play_game(
    game: Game, agents: Sequence[Agent], seed: int, texts: list[str] | None = None
) -> tuple[State, list[int]]:
    """Play one game from ``seed``; returns the final state and the actions taken.

    Each agent sees only ``state.observation(seat)`` and draws from its own seeded stream. When
    ``texts`` is given, the readable form of every action is appended to it.
    """
    state = game.new_initial_state(seed)
    rngs = [random.Random(agent_seed(seed, k)) for k in range(len(agents))]
    actions: list[int] = []
    while not state.is_terminal():
        p = state.current_player()
        action = agents[p].choose(state.observation(p), rngs[p])
        if texts is not None:
            texts.append(state.action_to_string(action))
        state.apply_action(action)
        actions.append(action)
        if len(actions) > MAX_ACTIONS:
            raise RulesError(f"game from seed {seed} did not end after {MAX_ACTIONS} actions")
    return state, actions


def _plain(value: Any) -> Any:
    """JSON-shaped copy (tuples become lists), so records compare equal after a round trip."""
    return json.loads(json.dumps(value))


def _card_set_of(game: Game) -> CardSet | None:
    return getattr(game, "card_set", None)


def make_record(
    game: Game, index: int, seed: int, seats: Sequence[str], state: State,
    actions: Sequence[int], texts: Sequence[str], options: Mapping[str, Any],
) -> dict[str, Any]:
    """The log line of one game (see the module docstring)."""
    cs = _card_set_of(game)
    return {
        "game": index,
        "set": cs.name if cs else None,
        "slug": cs.slug if cs else None,
        "root": cs.root if cs else None,
        "rules": cs.rules if cs else None,
        "content_hash": cs.content_hash if cs else None,
        "switches": _plain(dict(cs.switches)) if cs else {},
        "options": _plain(dict(options)),
        "num_players": game.num_players,
        "seed": seed,
        "agents": list(seats),
        "actions": list(actions),
        "moves": list(texts),
        "returns": list(state.returns()),
        "summary": _plain(state.summary()),
    }


# --- many games ------------------------------------------------------------------------------


@dataclass
class SimResult:
    """What a run measured; equal for equal inputs whatever ``jobs`` was."""

    set_name: str | None
    rules: str | None
    content_hash: str | None
    switches: dict[str, Any]
    options: dict[str, Any]
    num_players: int
    agents: list[str]
    seed: int
    n: int
    seeds: list[int]
    seats: list[list[str]]
    returns: list[list[float]]
    summaries: list[dict[str, Any]]
    metrics: list[Metric]
    records: list[dict[str, Any]] = field(default_factory=list)
    seconds: float = field(default=0.0, compare=False)

    def metric(self, name: str) -> Metric:
        for m in self.metrics:
            if m.name == name:
                return m
        raise KeyError(name)

    def to_json(self) -> dict[str, Any]:
        """The report: everything but the per-game data (which ``--log`` holds)."""
        return {
            "set": self.set_name,
            "rules": self.rules,
            "content_hash": self.content_hash,
            "switches": self.switches,
            "options": self.options,
            "num_players": self.num_players,
            "agents": self.agents,
            "seed": self.seed,
            "games": self.n,
            "seconds": round(self.seconds, 3),
            "metrics": [m.to_json() for m in self.metrics],
        }


# Worker-process state: the game is built once per process (set by _init_worker).
_WORKER: dict[str, Any] = {}


def _build_game(spec: CardSet | Game, num_players: int | None, options: Mapping[str, Any]) -> Game:
    if isinstance(spec, CardSet):
        from boneyard.engine.games import make_game

        return make_game(spec, num_players, **options)
    return spec


def _init_worker(spec: CardSet | Game, num_players: int | None, options: dict[str, Any],
                 agents: list[str], seed: int, keep: int, log: bool) -> None:
    _WORKER.update(game=_build_game(spec, num_players, options), options=options, agents=agents,
                   seed=seed, keep=keep, log=log)


def _play_chunk(indices: range) -> list[dict[str, Any]]:
    """Play games ``indices``; one small dict per game, full records only where needed."""
    w = _WORKER
    game: Game = w["game"]
    out = []
    for i in indices:
        seed = game_seed(w["seed"], i)
        seats = seat_agents(w["agents"], game.num_players, i)
        agents = [make_agent(s, game) for s in seats]
        want_record = w["log"] or i < w["keep"]
        texts: list[str] | None = [] if want_record else None
        state, actions = play_game(game, agents, seed, texts)
        row: dict[str, Any] = {
            "seed": seed,
            "seats": seats,
            "returns": list(state.returns()),
            "summary": _plain(state.summary()),
        }
        if want_record:
            row["record"] = make_record(game, i, seed, seats, state, actions, texts or [], w["options"])
        out.append(row)
    return out


def _mp_context() -> Any:
    """fork when it is safe (no other threads; it does not re-run the main script), else spawn.

    The result does not depend on the choice: workers only need the pickled game and seeds.
    """
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


class _AtomicLines:
    """A JSON-lines file written to a temporary name and renamed into place when complete."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent)
        self.tmp = Path(tmp)
        self.file = os.fdopen(fd, "w", encoding="utf-8")

    def write(self, record: dict[str, Any]) -> None:
        self.file.write(json.dumps(record, separators=(",", ":")) + "\n")

    def commit(self) -> None:
        self.file.close()
        os.replace(self.tmp, self.path)

    def abort(self) -> None:
        self.file.close()
        self.tmp.unlink(missing_ok=True)


def simulate(
    game: CardSet | Game,
    agents: Sequence[str],
    n: int,
    seed: int,
    jobs: int = 1,
    num_players: int | None = None,
    options: Mapping[str, Any] | None = None,
    log: str | Path | None = None,
    progress: Callable[[int, int], None] | None = None,
    keep: int = 0,
) -> SimResult:
    """Play ``n`` games of ``game`` (a card set, or a ready Game) between ``agents``.

    ``agents``: one spec for every seat, or one per seat (rotated by game index). ``options``:
    engine options (``rares``, ``decks``...), used when ``game`` is a card set. ``log``: write one
    JSON line per game there (atomically). ``progress(done, total)`` is called as games finish.
    ``keep``: keep the records of the first ``keep`` games in ``SimResult.records`` (for
    transcripts). ``jobs``: worker processes; the result does not depend on it.
    """
    if n < 1:
        raise RulesError(f"the number of games must be at least 1, got {n}")
    if jobs < 1:
        raise RulesError(f"jobs must be at least 1, got {jobs}")
    specs = [s.strip().lower() for s in agents]
    if not specs:
        raise RulesError("no agents given")
    for s in specs:
        parse_spec(s)
    opts = _plain(dict(options or {}))
    started = time.perf_counter()
    built = _build_game(game, num_players, opts)
    players = built.num_players
    seat_agents(specs, players, 0)  # checks the agent count before any work
    chunk = max(1, min(100, math.ceil(n / (jobs * 8))))
    chunks = [range(a, min(n, a + chunk)) for a in range(0, n, chunk)]
    init_args = (game if jobs > 1 else built, num_players, opts, specs, seed, keep, log is not None)

    seeds: list[int] = []
    seats: list[list[str]] = []
    returns: list[list[float]] = []
    summaries: list[dict[str, Any]] = []
    records: list[dict[str, Any]] = []
    writer = _AtomicLines(log) if log is not None else None
    done = 0

    def take(rows: list[dict[str, Any]]) -> None:
        nonlocal done
        for row in rows:
            seeds.append(row["seed"])
            seats.append(row["seats"])
            returns.append(row["returns"])
            summaries.append(row["summary"])
            rec = row.get("record")
            if rec is not None:
                if writer is not None:
                    writer.write(rec)
                if rec["game"] < keep:
                    records.append(rec)
        done += len(rows)
        if progress is not None:
            progress(done, n)

    try:
        if jobs == 1 or len(chunks) == 1:
            _init_worker(*init_args)
            try:
                for r in chunks:
                    take(_play_chunk(r))
            finally:
                _WORKER.clear()
        else:
            ctx = _mp_context()
            with ctx.Pool(min(jobs, len(chunks)), _init_worker, init_args) as pool:
                for rows in pool.imap(_play_chunk, chunks):  # imap keeps index order
                    take(rows)
        if writer is not None:
            writer.commit()
    except BaseException:
        if writer is not None:
            writer.abort()
        raise

    cs = _card_set_of(built)
    return SimResult(
        set_name=cs.name if cs else None,
        rules=cs.rules if cs else None,
        content_hash=cs.content_hash if cs else None,
        switches=_plain(dict(cs.switches)) if cs else {},
        options=opts,
        num_players=players,
        agents=specs,
        seed=seed,
        n=n,
        seeds=seeds,
        seats=seats,
        returns=returns,
        summaries=summaries,
        metrics=game_metrics(cs.rules if cs else None, summaries, returns, seats, players),
        records=records,
        seconds=time.perf_counter() - started,
    )


# --- metrics ---------------------------------------------------------------------------------


def _engine_metrics(rules: str | None, summaries: list[dict[str, Any]], players: int) -> list[Metric]:
    from boneyard.engine.games import ENGINES, engine_package

    if rules not in ENGINES:
        return []
    name = engine_package(rules) + ".metrics"
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:
        if exc.name == name:  # engine without metrics yet: the generic figures still stand
            return []
        raise
    return list(module.game_metrics(summaries, players))


def game_metrics(
    rules: str | None, summaries: list[dict[str, Any]], returns: list[list[float]],
    seats: list[list[str]], players: int,
) -> list[Metric]:
    """Engine metrics plus the generic seat/agent/draw/score figures (see the module docstring)."""
    own = _engine_metrics(rules, summaries, players)
    have = {m.name for m in own}
    n = len(returns)
    out: list[Metric] = []

    def add(m: Metric) -> None:
        if m.name not in have:
            out.append(m)
            have.add(m.name)

    engine_seats = any(m.group == "seat" for m in own)  # the engine's own seat table wins
    for k in range(0 if engine_seats else players):
        add(proportion_metric(f"seat.{k + 1}.win_rate", sum(r[k] for r in returns), n,
                              group="seat", subject=f"seat {k + 1}"))
    specs = sorted({s for row in seats for s in row})
    if len(specs) > 1:
        for spec in specs:
            wins = 0.0
            sat = 0
            for row, r in zip(seats, returns, strict=True):
                for k, s in enumerate(row):
                    if s == spec:
                        wins += r[k]
                        sat += 1
            add(proportion_metric(f"agent.{spec}.win_rate", wins, sat, group="agent", subject=spec))
    add(proportion_metric("draw_rate", sum(1 for r in returns if max(r) < 1.0), n))
    firsts = [(s.get("first_player", s.get("first_priority")), r)
              for s, r in zip(summaries, returns, strict=True)]
    if firsts and all(isinstance(f, int) for f, _ in firsts):
        add(proportion_metric("first_player_win_rate", sum(r[f] for f, r in firsts), n))
    scores = [s.get("scores") for s in summaries]
    if scores and all(isinstance(sc, list) and len(sc) == players for sc in scores):
        flat = [float(v) for sc in scores for v in sc]
        add(mean_metric("score_mean", flat, unit="points"))
        m = sum(flat) / len(flat)
        sd = math.sqrt(sum((v - m) ** 2 for v in flat) / max(1, len(flat) - 1))
        se = sd / math.sqrt(2 * max(1, len(flat) - 1))  # normal approximation for a s.d.
        add(Metric("score_sd", sd, max(0.0, sd - 1.959963984540054 * se),
                   sd + 1.959963984540054 * se, len(flat), "game", None, "points"))
        margins = [float(sorted(sc)[-1] - sorted(sc)[-2]) for sc in scores] if players > 1 else []
        if margins:
            add(mean_metric("score_margin", margins, unit="points"))
    turns = [s.get("turns") for s in summaries]
    if turns and all(isinstance(t, int) for t in turns) and not any("turns" in m.name for m in own):
        add(mean_metric("turns_mean", [float(t) for t in turns], unit="turns"))
    return out + own


# --- replay ----------------------------------------------------------------------------------


def _replay_game(game: CardSet | Game, record: Mapping[str, Any]) -> Game:
    if not isinstance(game, CardSet):
        return game
    card_set = game
    if dict(card_set.switches) != record.get("switches", {}):
        card_set = card_set.with_switches(**record.get("switches", {}))
    if card_set.content_hash != record.get("content_hash"):
        raise ReplayError(
            f"game {record.get('game')}: logged on card set content {record.get('content_hash')}, "
            f"but '{card_set.name}' now hashes to {card_set.content_hash} "
            "(the cards or rules changed since; re-run the simulation)"
        )
    from boneyard.engine.games import make_game

    return make_game(card_set, record.get("num_players"), **dict(record.get("options", {})))


def _events(state: State) -> list[str] | None:
    events = getattr(state, "events", None)
    return events if isinstance(events, list) else None


def _turn_header(state: State) -> str | None:
    """``-- turn 3 (scores 12, 8) --`` from the public turn number and scores, if the state has them."""
    turn = getattr(state, "turn", getattr(state, "turn_no", None))
    if not isinstance(turn, int) or isinstance(turn, bool):
        return None
    scores = getattr(state, "scores", getattr(state, "score", None))
    if isinstance(scores, list) and all(isinstance(v, int) for v in scores):
        return f"-- turn {turn} (scores {', '.join(str(v) for v in scores)}) --"
    return f"-- turn {turn} --"


def replay(
    game: CardSet | Game, record: Mapping[str, Any], lines: list[str] | None = None
) -> State:
    """Replay a logged game and check it ends as logged; raises ReplayError if it does not.

    When ``lines`` is given, a readable transcript is appended to it: each action with the
    player who chose it, followed by the events the state logged meanwhile (if it keeps any).
    """
    g = _replay_game(game, record)
    index = record.get("game")
    # An engine that logs events only on request (record_events, off for speed) logs them here.
    was_recording = getattr(g, "record_events", None)
    if lines is not None and was_recording is not None:
        g.record_events = True
    try:
        state = g.new_initial_state(int(record["seed"]))
        actions = [int(a) for a in record["actions"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayError(f"game {index}: not a game record ({exc})") from None
    finally:
        if was_recording is not None:
            g.record_events = was_recording
    seats = record.get("agents") or []
    seen = 0
    last_turn: str | None = None
    if lines is not None:
        ev = _events(state) or []
        lines.extend(f"      {e}" for e in ev)
        seen = len(ev)
    for step, action in enumerate(actions):
        if state.is_terminal():
            raise ReplayError(f"game {index}: the game ended after {step} of {len(actions)} actions")
        if action not in state.legal_actions():
            raise ReplayError(f"game {index}: action #{step + 1} ({action}) is not legal here")
        p = state.current_player()
        if lines is not None:
            head = _turn_header(state)
            if head is not None and head.split(" (")[0] != last_turn:
                lines.append(head)
                last_turn = head.split(" (")[0]
            who = f" ({seats[p]})" if p < len(seats) else ""
            lines.append(f"{step + 1:4d}  player {p + 1}{who}: {state.action_to_string(action)}")
        state.apply_action(action)
        if lines is not None:
            ev = _events(state) or []
            lines.extend(f"      {e}" for e in ev[seen:])
            seen = len(ev)
    if not state.is_terminal():
        raise ReplayError(f"game {index}: the logged actions end before the game does")
    if list(state.returns()) != list(record.get("returns", [])):
        raise ReplayError(
            f"game {index}: replay ends with returns {state.returns()}, the log says {record.get('returns')}"
        )
    if "summary" in record and _plain(state.summary()) != record["summary"]:
        raise ReplayError(f"game {index}: replay ends with another summary than the log")
    if lines is not None:
        result = ", ".join(f"player {k + 1}: {r:g}" for k, r in enumerate(state.returns()))
        lines.append(f"result: {result}")
    return state


def transcript(game: CardSet | Game, record: Mapping[str, Any]) -> list[str]:
    """A checked, readable turn-by-turn account of a logged game."""
    head = [
        f"game {record.get('game')} of '{record.get('set')}' (content {record.get('content_hash')}), "
        f"seed {record.get('seed')}, agents {', '.join(record.get('agents', []))}"
    ]
    lines: list[str] = []
    replay(game, record, lines)
    return head + lines
