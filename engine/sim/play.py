"""One game, and one block of games: what runs wherever the block runs (in-process, a worker
process, a Dask worker). Everything a block returns is plain data."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from boneyard.engine.agents import make_agent, uniform_choice
from boneyard.engine.cards import CardSet
from boneyard.engine.core import Agent, Game, State
from boneyard.engine.sim.seeds import agent_streams, game_seed, seat_agents
from boneyard.engine.sim.tally import Facts, engine_metrics_module
from boneyard.engine.stats import Tally

from boneyard.errors import RulesError

MAX_ACTIONS = 1_000_000
"""A game longer than this is a broken engine, not a long game."""

Check = Callable[[State], list[str]]
"""A game's invariants (``GameSpec.invariants``): what is wrong with a state, nothing if sound."""

Take = Callable[[int, dict[str, Any]], None]
"""Where a runner hands each finished block: (block index, what :func:`play_block` returned)."""


class StuckGame(RulesError):
    """A game that hit the action cap: an engine fault (a loop), not a long game.

    It carries the actions so far, so a run can record the game (seed, replayable) and go on.
    """

    def __init__(self, seed: int, actions: list[int], cap: int) -> None:
        super().__init__(f"game from seed {seed} did not end after {cap} actions")
        self.seed, self.actions, self.cap = seed, actions, cap

    def __reduce__(self) -> tuple[Any, ...]:  # crosses process boundaries like any error
        return StuckGame, (self.seed, self.actions, self.cap)


class BrokenInvariant(RulesError):
    """``--check``: a state broke the game's invariants (or an agent chose an illegal action)."""


def generic_problems(state: State, num_players: int) -> list[str]:
    """What any game must keep: a seat to move while it runs, returns in 0..1 summing to at most
    1 once it is over."""
    if state.is_terminal():
        r = list(state.returns())
        if len(r) != num_players or any(not 0.0 <= x <= 1.0 for x in r) or sum(r) > 1.0 + 1e-9:
            return [f"returns {r} are not {num_players} shares of one win"]
        return []
    p = state.current_player()
    if not 0 <= p < num_players:
        return [f"player {p} to move in a {num_players}-player game"]
    return []


def play_game(
    game: Game, agents: Sequence[Agent], seed: int, texts: list[str] | None = None,
    check: Check | None = None, max_actions: int = MAX_ACTIONS,
) -> tuple[State, list[int]]:
    """Play one game from ``seed``; returns the final state and the actions taken.

    Each agent sees only ``state.observation(seat)`` and draws from its own seeded stream. When
    ``texts`` is given, the readable form of every action is appended to it. ``check`` (the
    game's invariants) runs on every state, and each chosen action is checked legal, raising
    :class:`BrokenInvariant` with the seed and the step. A game still running after
    ``max_actions`` raises :class:`StuckGame`.
    """
    if check is None and texts is None and all(getattr(a, "uniform", False) for a in agents):
        return play_uniform_game(game, seed, len(agents), max_actions)
    state = game.new_initial_state(seed)
    rngs = agent_streams(seed, len(agents))
    # an agent that reads only the legal actions (random) gets them without an observation
    # object per decision: the same choice, at a fraction of the cost
    legal_only = [getattr(a, "legal_only", False) for a in agents]
    actions: list[int] = []
    if check is not None:
        _checked(game, state, check, seed, actions)
    while not state.is_terminal():
        p = state.current_player()
        if legal_only[p]:
            action = agents[p].choose_legal(state.legal_actions(), rngs[p])  # type: ignore[attr-defined]
        else:
            action = agents[p].choose(state.observation(p), rngs[p])
        if check is not None and action not in state.legal_actions():
            raise BrokenInvariant(f"game from seed {seed}, step {len(actions) + 1}: player {p + 1} "
                                  f"chose action {action}, which is not legal here")
        if texts is not None:
            texts.append(state.action_to_string(action))
        state.apply_action(action)
        actions.append(action)
        if check is not None:
            _checked(game, state, check, seed, actions)
        if len(actions) >= max_actions and not state.is_terminal():
            raise StuckGame(seed, actions, max_actions)
    return state, actions


def play_uniform_game(game: Game, seed: int, seats: int,
                      max_actions: int = MAX_ACTIONS) -> tuple[State, list[int]]:
    """:func:`play_game` with a uniform random agent in every seat (no log, no check)."""
    state = game.new_initial_state(seed)
    return state, _play_uniform(state, agent_streams(seed, seats), seed, max_actions)


def _play_uniform(state: State, rngs: list[random.Random], seed: int, max_actions: int) -> list[int]:
    """Every seat a uniform random agent: their draws (:func:`uniform_choice`) made here, in one
    loop, so the same games cost the engine and little more (``simulate --agents random``).

    A game's state may play the loop in compiled code (``play_uniform(bits, cap)``, which must
    draw as :func:`uniform_choice` does); otherwise it runs here.
    """
    bits = [r.getrandbits for r in rngs]
    own = getattr(state, "play_uniform", None)
    if own is not None:
        actions: list[int] = own(bits, max_actions)
    else:
        actions = []
        take = actions.append
        while not state.is_terminal() and len(actions) < max_actions:
            a = uniform_choice(state.legal_actions(), bits[state.current_player()])
            state.apply_action(a)
            take(a)
    if not state.is_terminal():
        raise StuckGame(seed, actions, max_actions)
    return actions


def _checked(game: Game, state: State, check: Check, seed: int, actions: list[int]) -> None:
    problems = generic_problems(state, game.num_players) + check(state)
    if problems:
        where = f"after step {len(actions)} ({_last_move(game, seed, actions)})" if actions else "at the deal"
        raise BrokenInvariant(f"game from seed {seed}, {where}: " + "; ".join(problems))


def _last_move(game: Game, seed: int, actions: list[int]) -> str:
    """The readable form of the last action, found by playing the game again up to it (only
    when a check failed: naming every action of a checked run would cost more than the check)."""
    try:
        state = game.new_initial_state(seed)
        for a in actions[:-1]:
            state.apply_action(a)
        return f"action {actions[-1]}: {state.action_to_string(actions[-1])}"
    except Exception:
        return f"action {actions[-1]}"


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
    return {**_record_head(game, index, seed, seats, actions, options),
            "moves": list(texts), "returns": list(state.returns()),
            "summary": plain(summary_json(state))}


def _record_head(game: Game, index: int, seed: int, seats: Sequence[str],
                 actions: Sequence[int], options: Mapping[str, Any]) -> dict[str, Any]:
    """What every log line starts with: which game of which set, and how it was played."""
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
    check: bool = False  # the game's invariants on every state (``simulate --check``)
    max_actions: int = MAX_ACTIONS


def invariants_of(game: Game) -> Check:
    """The game's own invariants (its spec's), or none beyond the generic ones."""
    from boneyard.engine.games import GAMES, spec_of

    rules = getattr(card_set_of(game), "rules", None)
    own = spec_of(rules).invariants if rules in GAMES else None
    return own if own is not None else (lambda state: [])


def build_game(spec: CardSet | Game, num_players: int | None, options: Mapping[str, Any]) -> Game:
    if isinstance(spec, CardSet):
        from boneyard.engine.games import make_game

        return make_game(spec, num_players, **options)
    return spec


def play_block(game: Game, spec: RunSpec, start: int, stop: int) -> dict[str, Any]:
    """Play games ``start..stop-1`` of a run: the block's tally, plus records where wanted.

    Everything returned is plain data (it crosses process and network boundaries). A game that
    hits the action cap is left out of the tally and listed under ``stuck`` (index, seed, seats;
    its record, actions so far and ``"stuck": true``, goes to the log), and the block goes on.
    """
    cpu = time.process_time()
    engine = engine_metrics_module(getattr(card_set_of(game), "rules", None))
    players = game.num_players
    t = Tally()
    records: list[dict[str, Any]] = []
    rows: list[dict[str, Any]] = []
    stuck: list[dict[str, Any]] = []
    check = invariants_of(game) if spec.check else None
    # the game's own counter reads finished states without a summary each (engine/spec.py)
    counter = engine.counter(game) if engine is not None and engine.counter is not None else None
    facts = Facts(players)
    made: dict[str, Agent] = {}  # random agents hold nothing at all: one for the block
    # every seat uniform, nothing to check: the games need no agent objects (play_game's own path)
    uniform = check is None and all(getattr(_agent(s, game, made), "uniform", False)
                                    for s in set(spec.agents))
    one = [spec.agents[0]] * players if len(spec.agents) == 1 else None
    for i in range(start, stop):
        seed = game_seed(spec.seed, i)
        seats = one if one is not None else seat_agents(spec.agents, players, i)
        want_record = spec.log or i < spec.keep
        texts: list[str] | None = [] if want_record else None
        try:
            if uniform and texts is None:
                state, actions = play_uniform_game(game, seed, players, spec.max_actions)
            else:
                agents = [_agent(s, game, made) for s in seats]
                state, actions = play_game(game, agents, seed, texts, check, spec.max_actions)
        except StuckGame as exc:
            stuck.append({"game": i, "seed": seed, "seats": seats, "actions": len(exc.actions)})
            if spec.log:
                records.append(stuck_record(game, i, seed, seats, exc.actions, spec.options))
            continue
        except BrokenInvariant:
            raise  # it names its seed and step already
        except RulesError as exc:  # a position the rules cannot go on from: say which game
            raise RulesError(f"game {i} (game seed {seed}, {' / '.join(seats)}) "
                             f"stopped: {exc}; the set's cards and rules lead to a position the "
                             "rules engine cannot play on") from exc
        returns = list(state.returns())
        if counter is not None:
            first, scores, turns = counter.add(state)
        else:
            summary = state.summary()
            if engine is not None:
                engine.tally(t, summary, players)
            first, scores, turns = summary.first_player, summary.scores, summary.turns
        facts.add(seats, returns, first, scores, turns)
        if spec.keep_games:
            rows.append({"seed": seed, "seats": seats, "returns": returns,
                         "summary": plain(summary_json(state))})
        if want_record:
            records.append(make_record(game, i, seed, seats, state, actions, texts or [], spec.options))
    facts.into(t)
    if counter is not None:
        counter.into(t.sums)
    return {"start": start, "games": stop - start - len(stuck), "tally": t.sums, "records": records,
            "rows": rows, "stuck": stuck, "cpu": time.process_time() - cpu}


def _agent(spec: str, game: Game, made: dict[str, Agent]) -> Agent:
    """A fresh agent for a game; a uniform random one is shared by the block's games (it holds
    no state, and making one a game cost as much as the tally of its figures)."""
    agent = made.get(spec)
    if agent is None:
        agent = make_agent(spec, game)
        if getattr(agent, "uniform", False):
            made[spec] = agent
    return agent


def stuck_record(game: Game, index: int, seed: int, seats: Sequence[str], actions: Sequence[int],
                 options: Mapping[str, Any]) -> dict[str, Any]:
    """The log line of a game that hit the action cap: replaying it re-plays the actions and
    checks the game is still running (``replay`` says it is stuck, as logged)."""
    return {**_record_head(game, index, seed, seats, actions, options), "moves": [], "stuck": True}
