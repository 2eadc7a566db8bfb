"""Replaying a logged game: the check that it ends as logged, and its readable transcript."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.core import Game, State
from boneyard.engine.sim.play import plain, summary_json

from boneyard.errors import BoneyardError, excerpt


class ReplayError(BoneyardError):
    """A logged game that does not replay: other card content, or another outcome."""


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def record_problem(record: Any) -> str | None:
    """What makes ``record`` not a game record as ``simulate --log`` writes it (a tampered or
    hand-made line), None when its fields have the right types."""
    if not isinstance(record, Mapping):
        return f"a record is a JSON object, got {type(record).__name__}"
    need: list[tuple[str, Any, str]] = [
        ("seed", _is_int, "a whole number"),
        ("actions", lambda v: isinstance(v, list) and all(_is_int(a) for a in v),
         "a list of whole numbers"),
    ]
    optional: list[tuple[str, Any, str]] = [
        ("game", _is_int, "a whole number"),
        ("num_players", lambda v: v is None or _is_int(v), "a whole number"),
        ("switches", lambda v: isinstance(v, dict), "an object"),
        ("options", lambda v: isinstance(v, dict), "an object"),
        ("agents", lambda v: isinstance(v, list) and all(isinstance(a, str) for a in v),
         "a list of agent names"),
        ("returns", lambda v: v is None or (isinstance(v, list) and all(
            isinstance(x, (int, float)) and not isinstance(x, bool) for x in v)), "a list of numbers"),
        ("content_hash", lambda v: v is None or isinstance(v, str), "a string"),
        ("stuck", lambda v: isinstance(v, bool), "true or false"),
    ]
    for key, ok, what in need:
        if key not in record:
            return f"no '{key}'"
        if not ok(record[key]):
            return f"'{key}' must be {what}"
    for key, ok, what in optional:
        if key in record and not ok(record[key]):
            return f"'{key}' must be {what}"
    return None


def option_problem(card_set: CardSet, options: Mapping[str, Any]) -> str | None:
    """What is wrong with a log's engine ``options`` for ``card_set``'s game, in the words of
    the command-line flags that set them (``--rares``, ``--decks``): an option the game does
    not take, or a value the flag could not give; None when they are fine. Said before the
    engine sees them: a compiled engine's own words are about Python types ("bool or None object
    expected; got str"), and a plain one may take a wrong value and replay another game."""
    from boneyard.engine.games import spec_of

    spec = spec_of(card_set.rules)
    known = {o.name: o for o in spec.options}
    for name, value in options.items():
        opt = known.get(name)
        shown = excerpt(json.dumps(value, default=str))
        if opt is not None and value is None:  # the game's own default, as the engine takes it
            continue
        if opt is None:
            takes = f"its options are {', '.join(known)}" if known else "it takes none"
            return (f"the log's options name '{excerpt(name)}', which {spec.title} does not take "
                    f"({takes})")
        said = f"(as --{name} gives it)"
        if opt.flag and not isinstance(value, bool):
            return f"the log's options.{name} is {shown}, but it must be true or false {said}"
        if not opt.flag and not (_is_int(value) and opt.low <= value <= opt.high):
            values = range(opt.low, opt.high + 1)
            must = (" or ".join(map(str, values)) if len(values) <= 3
                    else f"a whole number from {opt.low} to {opt.high}")
            return f"the log's options.{name} is {shown}, but it must be {must} {said}"
    return None


def _replay_game(game: CardSet | Game, record: Mapping[str, Any]) -> Game:
    if not isinstance(game, CardSet):
        return game
    from boneyard.engine.games import make_game

    card_set = game
    switches = dict(record.get("switches", {}))
    unknown = sorted(set(switches) - set(card_set.switches))
    if unknown:
        raise ReplayError(f"game {record.get('game')}: the log names switch(es) {', '.join(unknown)}, which "
                          f"'{card_set.name}' does not have (known: {', '.join(sorted(card_set.switches))})")
    if dict(card_set.switches) != switches:
        card_set = card_set.with_switches(**switches)
    bad = option_problem(card_set, record.get("options", {}))
    if bad is not None:
        raise ReplayError(f"game {record.get('game')}: {bad}; the line was edited: use the line "
                          "as simulate --log wrote it")
    try:  # the log's switch values and engine options, as the engine checks them
        built = make_game(card_set, record.get("num_players"), **dict(record.get("options", {})))
    except (BoneyardError, TypeError) as exc:
        raise ReplayError(f"game {record.get('game')}: the log's switches or options do not make a "
                          f"game of '{card_set.name}': {exc}") from None
    if card_set.content_hash != record.get("content_hash"):
        raise ReplayError(
            f"game {record.get('game')}: logged on card set content {record.get('content_hash')}, "
            f"but '{card_set.name}' now hashes to {card_set.content_hash} "
            "(the cards or rules changed since; re-run the simulation)"
        )
    return built


HUMAN = "human"
"""The seat name of a player at ``boneyard play``'s table in the games it saves."""


def _check_agents(index: Any, seats: list[str], players: int) -> None:
    """The log's agent names label the transcript's seats: a name this version cannot play, or a
    count that is not the game's, means the line was edited or comes from elsewhere."""
    from boneyard.engine.agents import AgentSpecError, parse_spec

    if seats and len(seats) != players:
        raise ReplayError(f"game {index}: the log names {len(seats)} agent(s) for a "
                          f"{players}-player game (the log was edited: use the lines simulate --log wrote)")
    for name in seats:
        if name == HUMAN:
            continue
        try:
            parse_spec(name)
        except AgentSpecError as exc:
            raise ReplayError(f"game {index}: the log's agents: {exc}") from None


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
    problem = record_problem(record)
    if problem is not None:
        raise ReplayError(f"not a game record ({problem})")
    g = _replay_game(game, record)
    index = record.get("game")
    # An engine that logs events only on request (record_events, off for speed) logs them here.
    engine: Any = g  # record_events is an engine's own switch, not part of Game
    was_recording = getattr(g, "record_events", None)
    if lines is not None and was_recording is not None:
        engine.record_events = True
    try:
        state = g.new_initial_state(int(record["seed"]))
        actions = [int(a) for a in record["actions"]]
    except (KeyError, TypeError, ValueError) as exc:
        raise ReplayError(f"game {index}: not a game record ({exc})") from None
    finally:
        if was_recording is not None:
            engine.record_events = was_recording
    seats = record.get("agents") or []
    _check_agents(index, seats, g.num_players)
    logged_moves = record.get("moves")
    moves: list[Any] = logged_moves if isinstance(logged_moves, list) else []
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
            why = (" (the deal from the logged seed is not the one these actions were chosen "
                   "in: was the seed edited, or the log written by another version of the set "
                   "or its rules?)" if step < 3 else "")
            raise ReplayError(f"game {index}: action #{step + 1} ({action}) is not legal "
                              f"here{why}")
        if step < len(moves) and moves[step] != state.action_to_string(action):
            raise ReplayError(f"game {index}: move #{step + 1} is logged as {moves[step]!r}, "
                              f"but its action ({action}) is {state.action_to_string(action)!r} "
                              "here (the log was edited: use the lines simulate --log wrote)")
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
            new = [f"      {e}" for e in ev[seen:]]
            seen = len(ev)
            head = None if state.is_terminal() else _turn_header(state)
            if head is not None and head.split(" (")[0] != last_turn:
                # the action ended a turn: its last events belong under the next turn's header
                turn = head.split(" (")[0].removeprefix("-- ").removesuffix(" --")
                at = next((k for k, e in enumerate(new) if e.strip().startswith(turn + ":")), len(new))
                new[at:at] = [head]
                last_turn = head.split(" (")[0]
            lines.extend(new)
    if record.get("stuck"):  # logged as stuck at the action cap: the same actions, still running
        if state.is_terminal():
            raise ReplayError(f"game {index}: logged as stuck, but it ends after its {len(actions)} actions")
        if lines is not None:
            lines.append(f"stuck: still running after {len(actions)} actions (the action cap), as logged")
        return state
    if not state.is_terminal():
        raise ReplayError(f"game {index}: the logged actions end before the game does")
    if list(state.returns()) != list(record.get("returns", [])):
        raise ReplayError(
            f"game {index}: replay ends with returns {state.returns()}, the log says {record.get('returns')}"
        )
    logged = record.get("summary", {})
    now = plain(summary_json(state))
    if not isinstance(logged, dict):
        raise ReplayError(f"game {index}: the log's 'summary' must be an object, got {type(logged).__name__}")
    differ = [k for k, v in logged.items() if now.get(k) != v]
    if differ:
        shown = "; ".join(f"{k}: replay {_short(now.get(k))}, log {_short(logged[k])}" for k in differ[:3])
        more = f" (and {len(differ) - 3} more)" if len(differ) > 3 else ""
        raise ReplayError(f"game {index}: replay ends with another summary than the log: {shown}{more}")
    if lines is not None:
        result = ", ".join(f"player {k + 1}: {r:g}" for k, r in enumerate(state.returns()))
        lines.append(f"result: {result}")
    return state


def _short(value: Any, width: int = 60) -> str:
    text = json.dumps(value, separators=(",", ":"), sort_keys=True, default=str)
    return text if len(text) <= width else text[:width - 3] + "..."


def transcript(game: CardSet | Game, record: Mapping[str, Any]) -> list[str]:
    """A checked, readable turn-by-turn account of a logged game."""
    head = [
        f"game {record.get('game')} of '{record.get('set')}' (content {record.get('content_hash')}), "
        f"seed {record.get('seed')}, agents {', '.join(record.get('agents', []))}"
    ]
    lines: list[str] = []
    replay(game, record, lines)
    return head + lines
