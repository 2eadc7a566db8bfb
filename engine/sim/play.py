"""One game, and one block of games: what runs wherever the block runs (in-process, a worker
process, a Dask worker). Everything a block returns is plain data."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boneyard.engine.agents import make_agent
from boneyard.engine.cards import CardSet
from boneyard.engine.core import Agent, Game, State
from boneyard.engine.sim.seeds import agent_seed, game_seed, seat_agents
from boneyard.engine.sim.tally import engine_metrics_module, tally_game
from boneyard.engine.stats import Tally

from boneyard.errors import RulesError

MAX_ACTIONS = 1_000_000
"""A game longer than this is a broken engine, not a long game."""

Take = Callable[[int, dict[str, Any]], None]
"""Where a runner hands each finished block: (block index, what :func:`play_block` returned)."""


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


def plain(value: Any) -> Any:
    """JSON-shaped copy (tuples become lists), so records compare equal after a round trip."""
    return json.loads(json.dumps(value))


def card_set_of(game: Game) -> CardSet | None:
    return getattr(game, "card_set", None)


def make_record(
    game: Game, index: int, seed: int, seats: Sequence[str], state: State,
    actions: Sequence[int], texts: Sequence[str], options: Mapping[str, Any],
) -> dict[str, Any]:
    """The log line of one game (see the module docstring)."""
    cs = card_set_of(game)
    return {
        "game": index,
        "set": cs.name if cs else None,
        "slug": cs.slug if cs else None,
        "root": cs.root if cs else None,
        "rules": cs.rules if cs else None,
        "content_hash": cs.content_hash if cs else None,
        "switches": plain(dict(cs.switches)) if cs else {},
        "options": plain(dict(options)),
        "num_players": game.num_players,
        "seed": seed,
        "agents": list(seats),
        "actions": list(actions),
        "moves": list(texts),
        "returns": list(state.returns()),
        "summary": plain(summary_json(state)),
    }


def summary_json(state: State) -> dict[str, Any]:
    """A finished game's summary as plain data (logs, records, rows)."""
    return state.summary().to_json()


@dataclass(frozen=True)
class RunSpec:
    """What every block of a run shares (travels with each task, a few hundred bytes)."""

    agents: tuple[str, ...]
    seed: int
    num_players: int | None
    options: dict[str, Any]
    keep: int = 0
    log: bool = False
    keep_games: bool = False


def build_game(spec: CardSet | Game, num_players: int | None, options: Mapping[str, Any]) -> Game:
    if isinstance(spec, CardSet):
        from boneyard.engine.games import make_game

        return make_game(spec, num_players, **options)
    return spec


def play_block(game: Game, spec: RunSpec, start: int, stop: int) -> dict[str, Any]:
    """Play games ``start..stop-1`` of a run: the block's tally, plus records where wanted.

    Everything returned is plain data (it crosses process and network boundaries).
    """
    cpu = time.process_time()
    engine = engine_metrics_module(getattr(card_set_of(game), "rules", None))
    players = game.num_players
    t = Tally()
    records: list[dict[str, Any]] = []
    rows: list[dict[str, Any]] = []
    for i in range(start, stop):
        seed = game_seed(spec.seed, i)
        seats = seat_agents(spec.agents, players, i)
        agents = [make_agent(s, game) for s in seats]
        want_record = spec.log or i < spec.keep
        texts: list[str] | None = [] if want_record else None
        state, actions = play_game(game, agents, seed, texts)
        returns = list(state.returns())
        summary = state.summary()
        tally_game(t, engine, seats, returns, summary, players)
        if spec.keep_games:
            rows.append({"seed": seed, "seats": seats, "returns": returns,
                         "summary": plain(summary.to_json())})
        if want_record:
            records.append(make_record(game, i, seed, seats, state, actions, texts or [], spec.options))
    return {"start": start, "games": stop - start, "tally": t.sums, "records": records,
            "rows": rows, "cpu": time.process_time() - cpu}
