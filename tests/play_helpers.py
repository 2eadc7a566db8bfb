"""What the play table's tests share: a client on a session, and the no-peeking check.

``hidden_leaks`` knows each bundled game's hidden places (a test may name games): the cards the
human cannot locate, whose names must not reach the page while they are hidden.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from boneyard.pipeline.play.session import Session


def hidden_cards(session: Session) -> tuple[set[int], set[int]]:
    """(cards hidden from the human now, cards the human can locate now)."""
    state: Any = session.state
    me = session.setup.seat
    rules = session.card_set.rules if session.card_set else ""
    if rules == "day-of-the-dead":
        from boneyard.engine.dotd.table import _seen

        seen = _seen(state.observation(me))
        return set(range(state.g.n)) - seen, seen
    from boneyard.engine.gf.table import _seen as gf_seen

    seen = gf_seen(state.observation(me))
    return set(range(state.g.size)) - seen, seen


def hidden_leaks(session: Session, answer: dict[str, Any], new_lines: list[str],
                 seen_before: frozenset[int] = frozenset()) -> list[str]:
    """Every way ``answer`` (the page's JSON, and the transcript lines new in it) names a card
    hidden from the human: its face id (unless a card the human sees has that face), its
    engine number, its printed name on its back (Day of the Dead) or its #number (Grave Feast).
    ``seen_before``: cards the human could locate before the action the lines tell of (a card
    a Devil Wife takes from the open discard pile is named as it goes into a hand)."""
    state: Any = session.state
    hidden, seen = hidden_cards(session)
    hidden -= seen_before
    seen |= seen_before
    body = {k: v for k, v in answer.items() if k != "transcript"}
    text = json.dumps(body)
    lines = "\n".join(new_lines)
    rules = session.card_set.rules if session.card_set else ""
    out = []
    numbers = set()

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            if isinstance(v.get("card"), int):
                numbers.add(v["card"])
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    walk(body)
    for c in sorted(hidden & numbers):
        out.append(f"card number {c} is sent while hidden")
    if rules == "day-of-the-dead":
        g = state.g
        seen_faces = {g.card_ids[c] for c in seen}
        seen_names = {g.describe(c) for c in seen}
        for c in hidden:
            if g.card_ids[c] not in seen_faces and f'"{g.card_ids[c]}"' in text:
                out.append(f"hidden face {g.card_ids[c]} in the table")
            name = g.describe(c)
            if name not in seen_names and (name in lines or name in text):
                out.append(f"hidden card {name} named")
    else:
        g = state.g
        for c in hidden:
            tag = re.compile(re.escape(f"{g.names[c]}#{c}") + r"(?!\d)")  # not #61 for #6
            if tag.search(text) or tag.search(lines):
                out.append(f"hidden card {g.names[c]}#{c} named")
    return out


def watch_lines(session: Session, leaks: list[str]) -> None:
    """Check every transcript line as it is written, against what the human can locate right
    before or right after the action that wrote it (a card seen then may be shuffled away by the
    next answer; one taken from an open pile is named as it leaves the human's sight)."""
    apply = session._apply

    def checked(seat: int, action: int, reason: str | None) -> None:
        n = len(session.lines)
        before = frozenset(hidden_cards(session)[1])
        apply(seat, action, reason)
        leaks.extend(hidden_leaks(session, {}, session.lines[n:], before))

    session._apply = checked  # type: ignore[method-assign]


def walk_game(client: Any, session: Session, rng: random.Random, check: bool = True,
              max_moves: int = 2000) -> list[dict[str, Any]]:
    """Play the human's seat with random legal moves through the API to the end; every answer
    (checked for hidden cards when ``check``: the table in every answer, and each transcript
    line when it is written) in order."""
    answers = []
    lines: list[str] = []
    line_leaks: list[str] = []
    if check:
        watch_lines(session, line_leaks)
    r = client.get("/api/state")
    for _ in range(max_moves):
        assert r.status_code == 200, r.json()
        t = r.json()
        answers.append(t)
        new = t["transcript"][len(lines):]
        lines = t["transcript"]
        if check:
            assert not t["over"] or t["seed"] is not None
            if not t["over"]:
                assert t["seed"] is None, "the seed fixes every shuffle: not sent during play"
                leaks = hidden_leaks(session, t, []) + line_leaks
                assert not leaks, (leaks, new)
        if t["over"]:
            return answers
        assert t["moves"], t["status"]
        r = client.post("/api/move", json={"i": rng.randrange(len(t["moves"])), "at": t["at"]})
    raise AssertionError(f"no end after {max_moves} moves")
