"""No peeking at the play table, end to end: whole games of both bundled games (Day of the Dead
in either seat; Grave Feast from 2 to 8 players, with and without the rares) played through the
HTTP API by a seeded agent in the human's seat, every answer of every endpoint checked.

The hidden cards are worked out here from the engine's full state by the rules (the opponents'
hands, the decks, face-down cards never seen face up, another player's Unearth look), not by the
table's own ``_seen``: a place the table forgot to hide would otherwise be forgotten by the check
too. On every answer: no hidden card's engine number, face id, printed name (Day of the Dead) or
``name#number`` (Grave Feast) appears; every face sent is the face of a card number the human
may see; the seed is kept back (unless the human gave it) and so are the agents' reasons, until
the game is over. While an agent thinks, the table the page gets does not say which player a
Grave Feast window, chain or attack is asking (only one who can answer is asked). Along the way
every kind of refused request is sent and must leave the game exactly as it was.
"""

from __future__ import annotations

import json
import random
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from boneyard.engine.agents import make_agent
from boneyard.engine.dotd.codes import D_UE_PICK
from boneyard.engine.gf.constants import ATTACK, CHAIN, DW_STEAL, WINDOW
from boneyard.pipeline.play import session as session_module
from boneyard.pipeline.play.app import create_app
from boneyard.pipeline.play.session import Session, Setup
from starlette.testclient import TestClient

PNG = b"\x89PNG\r\n\x1a\n"


# --- what the human may not see, from the full state ---------------------------------------------


def hidden_now(session: Session) -> set[int]:
    """The engine numbers of the cards hidden from the human's seat now, by the rules."""
    st: Any = session.state
    me = session.setup.seat
    if session.card_set.rules == "day-of-the-dead":
        opp = 1 - me
        out = set(st.hands[opp])  # the opponent's hand, chosen cards included (DD-03)
        for deck in st.decks:  # every deck, and so its order
            out.update(deck)
        for c, up in zip(st.lines[opp], st.up[opp], strict=True):
            if not up and not st.pub[c]:  # face down and never seen face up (DD-24: remembered)
                out.add(c)
        s = st.spirit[opp]
        if s >= 0 and not st.pub[s]:
            out.add(s)
        if st.dk == D_UE_PICK and st.dp == opp:  # the opponent's Unearth look
            out.update(st.dc[2])
        return out
    out = set(st.draw)  # the draw pile, and so its order
    if not (st.phase == DW_STEAL and st.actor == me):  # GF-25: her player looks through hands
        for q in range(st.n):
            if q != me:
                out.update(st.hands[q])
    return out


def every_card(session: Session) -> set[int]:
    g: Any = session.state.g
    return set(range(g.n if session.card_set.rules == "day-of-the-dead" else g.size))


def face_of(session: Session, c: int) -> str:
    g: Any = session.state.g
    if session.card_set.rules == "day-of-the-dead":
        return str(g.card_ids[c])
    return str(g.faces[g.face[c]].id)


def named(session: Session, cards: set[int], text: str) -> list[str]:
    """The cards of ``cards`` that ``text`` names (their id, printed name or name#number)."""
    g: Any = session.state.g
    out = []
    if session.card_set.rules == "day-of-the-dead":
        for c in cards:  # each of the 108 faces is one card: its id and its name are unique
            if f'"{g.card_ids[c]}"' in text or g.card_ids[c] + ".png" in text or g.describe(c) in text:
                out.append(g.describe(c))
    else:
        for c in cards:
            if re.search(re.escape(f"{g.names[c]}#{c}") + r"(?!\d)", text):
                out.append(f"{g.names[c]}#{c}")
    return out


def cards_sent(v: Any, out: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every card the answer draws (a dict with "face", "back" or "card")."""
    if isinstance(v, dict):
        if "face" in v or "back" in v or isinstance(v.get("card"), int):
            out.append(v)
        for x in v.values():
            cards_sent(x, out)
    elif isinstance(v, list):
        for x in v:
            cards_sent(x, out)
    return out


def leaks(session: Session, answer: dict[str, Any], hidden: set[int], *,
          fresh_seed: bool) -> list[str]:
    """How ``answer`` (one JSON body the server sent) shows what the human may not see."""
    out = []
    over = bool(answer.get("over"))
    body = {k: v for k, v in answer.items() if k != "transcript"}
    text = json.dumps(body)
    for card in cards_sent(body, []):
        c = card.get("card")
        if "face" in card and not isinstance(c, int):
            out.append(f"face {card['face']} sent without the card it is")
        if isinstance(c, int):
            if c in hidden:
                out.append(f"card number {c} ({card.get('name')}) sent while hidden")
            elif "face" in card and card["face"] != face_of(session, c):
                out.append(f"card {c} drawn with another card's face {card['face']}")
            if "back" in card:
                out.append(f"a back drawn with its card number {c}")
    out += [f"{x} named in the table" for x in named(session, hidden, text)]
    if not over:
        if answer.get("seed") is not None:
            out.append("the seed is sent before the game is over")
        if fresh_seed and re.search(rf"(?<!\d){session.seed}(?!\d)", json.dumps(answer)):
            out.append(f"the seed {session.seed} appears before the game is over")
        if "transcript" in answer and answer["transcript"] != session.lines:
            out.append("the agents' reasons (or other lines) are sent before the game is over")
    return out


# --- the whole-game walk ------------------------------------------------------------------------


@dataclass
class Walk:
    session: Session
    client: TestClient
    fresh_seed: bool
    problems: list[str] = field(default_factory=list)
    answers: int = 0
    published: int = 0
    private_windows: int = 0
    faces: set[str] = field(default_factory=set)
    refusals: dict[str, int] = field(default_factory=dict)

    def check(self, answer: dict[str, Any], where: str) -> None:
        self.answers += 1
        found = leaks(self.session, answer, hidden_now(self.session), fresh_seed=self.fresh_seed)
        self.problems += [f"{where}: {x}" for x in found]
        for card in cards_sent(answer, []):  # (a move has a card number, not a face)
            if card.get("face") or card.get("back"):
                self.faces.add(card.get("face") or card.get("back"))


def watch_lines(walk: Walk) -> None:
    """Check each transcript line as it is written: a line may name a card only if the human
    could see it before the move or after it (a card seen then may be shuffled away later)."""
    session = walk.session
    apply = session._apply

    def checked(seat: int, action: int, reason: str | None) -> None:
        before = hidden_now(session)
        n = len(session.lines)
        apply(seat, action, reason)
        both = before & hidden_now(session)
        for line in session.lines[n:]:
            walk.problems += [f"transcript line {line!r}: {x} named while hidden"
                              for x in named(session, both, line)]
            if str(session.seed) in re.findall(r"\d+", line) and walk.fresh_seed:
                walk.problems.append(f"transcript line {line!r} has the seed")

    session._apply = checked  # type: ignore[method-assign]


def watch_thinking(walk: Walk, monkeypatch: pytest.MonkeyPatch) -> None:
    """While an agent thinks, fetch the table as a reloaded page would (from another thread: it
    gets the table published when the agents began) and check it at that very position."""
    session = walk.session
    real = session_module.choose_with_reason
    last: list[Any] = [None]

    def thinking(agent: Any, obs: Any, rng: random.Random) -> Any:
        if session._published is not last[0]:  # the first agent move since it was published
            last[0] = session._published
            got: list[Any] = []
            t = threading.Thread(target=lambda: got.append(walk.client.get("/api/state")))
            t.start()
            t.join(60)
            answer = got[0].json()
            assert answer == session._published, "the page waited for the agents"
            walk.published += 1
            walk.check(answer, "the table while an agent thinks")
            st: Any = session.state
            mover = st.current_player()
            if session.card_set.rules == "grave-feast" and st.phase in (WINDOW, CHAIN, ATTACK):
                walk.private_windows += 1
                said = json.dumps(answer)
                if (f"Player {mover + 1} (" in answer["status"]
                        or answer["seats"][mover]["to_move"]
                        or f"player {mover + 1} to answer" in said):
                    walk.problems.append(f"the table names player {mover + 1}, asked in a "
                                         f"window only a player who can answer is asked in")
        return real(agent, obs, rng)

    monkeypatch.setattr(session_module, "choose_with_reason", thinking)


def state_of(session: Session) -> tuple[Any, ...]:
    return (tuple((m.seat, m.action) for m in session.moves), session.seen, session.deal,
            session.seed, session.saved, len(session.lines))


def refused(walk: Walk, kind: str, method: str, path: str, *, status: tuple[int, ...],
            **kw: Any) -> None:
    """Send a request the table must refuse: a 4xx with a short message, no traceback, and the
    game exactly as it was (the table it then answers with is checked for peeking too)."""
    session, client = walk.session, walk.client
    before, table = state_of(session), client.get("/api/state").json()
    r = client.request(method, path, **kw)
    assert r.status_code in status, (kind, r.status_code, r.text[:300])
    assert "Traceback" not in r.text and "File \"" not in r.text, (kind, r.text[:300])
    if r.headers.get("content-type", "").startswith("application/json"):
        answer = r.json()
        assert answer["error"] and len(answer["error"]) < 300, (kind, answer.get("error"))
        walk.check(answer, f"refused {kind}")
        assert {k: v for k, v in answer.items() if k != "error"} == table, kind
    else:
        assert len(r.text) < 300, (kind, r.text[:300])
    assert state_of(session) == before, f"refused {kind} changed the game"
    assert client.get("/api/state").json() == table, kind
    walk.refusals[kind] = walk.refusals.get(kind, 0) + 1


def refusals(walk: Walk, t: dict[str, Any], rng: random.Random) -> None:
    """A few of the requests from outside the page the table must refuse, chosen at random."""
    at, deal, n = t["at"], t["deal"], len(t["moves"])
    json_ = {"Content-Type": "application/json"}
    cases: list[tuple[str, str, str, tuple[int, ...], dict[str, Any]]] = [
        ("stale move", "POST", "/api/move", (409,), {"json": {"i": 0, "at": at - 1, "deal": deal}}),
        ("move from the future", "POST", "/api/move", (409,), {"json": {"i": 0, "at": at + 1}}),
        ("move of another deal", "POST", "/api/move", (409,),
         {"json": {"i": 0, "at": at, "deal": deal - 1}}),
        ("move without at", "POST", "/api/move", (400,), {"json": {"i": 0}}),
        ("move out of range", "POST", "/api/move", (409,), {"json": {"i": n, "at": at}}),
        ("negative move", "POST", "/api/move", (409,), {"json": {"i": -1, "at": at}}),
        ("huge move", "POST", "/api/move", (409,), {"json": {"i": 10**400, "at": at}}),
        ("move as text", "POST", "/api/move", (400,), {"json": {"i": "0", "at": at}}),
        ("move as a flag", "POST", "/api/move", (400,), {"json": {"i": True, "at": at}}),
        ("at as a flag", "POST", "/api/move", (400,), {"json": {"i": 0, "at": True}}),
        ("not JSON", "POST", "/api/move", (400,), {"content": b"{i: 0", "headers": json_}),
        ("not UTF-8", "POST", "/api/move", (400,), {"content": b"\xff\xfe", "headers": json_}),
        ("a JSON list", "POST", "/api/move", (400,), {"content": b"[0]", "headers": json_}),
        ("huge body", "POST", "/api/move", (413,),
         {"content": b'{"i": 0, "x": "' + b"x" * 100_000 + b'"}', "headers": json_}),
        ("stale take-back", "POST", "/api/undo", (409,), {"json": {"at": at + 1}}),
        ("take-back of another deal", "POST", "/api/undo", (409,), {"json": {"deal": deal + 1}}),
        ("save mid-game", "POST", "/api/save", (409,), {}),
        ("new game with a typo", "POST", "/api/new", (400,), {"json": {"player": 3}}),
        ("new game with a bad seed", "POST", "/api/new", (400,), {"json": {"seed": -1}}),
        ("GET a move", "GET", "/api/move", (405,), {}),
        ("PUT a move", "PUT", "/api/move", (405,), {"json": {"i": 0, "at": at}}),
        ("DELETE the table", "DELETE", "/api/state", (405,), {}),
        ("POST the page", "POST", "/", (405,), {}),
        ("static ../", "GET", "/static/../app.py", (404,), {}),
        ("static %2e%2e", "GET", "/static/%2e%2e/session.py", (404,), {}),
        ("static ..%2f", "GET", "/static/..%2f..%2fsession.py", (404,), {}),
        ("card ../", "GET", "/card/..%2f..%2fstatic%2findex.png", (404,), {}),
        ("card by number", "GET", "/card/0.png", (404,), {}),
        ("unknown path", "GET", "/api/deck", (404,), {}),
        ("another site's page", "POST", "/api/move", (403,),
         {"json": {"i": 0, "at": at}, "headers": {"Origin": "http://evil.example"}}),
    ]
    for kind, method, path, status, kw in rng.sample(cases, 3):
        refused(walk, kind, method, path, status=status, **kw)


def walk_game(walk: Walk, human: str, rng: random.Random, take_backs: int = 2) -> dict[str, Any]:
    """Play the human's seat with agent ``human`` (seeded) through the API to the end."""
    session, client = walk.session, walk.client
    t = client.get("/api/state").json()
    walk.check(t, "the first table")
    agent = None
    for _ in range(3000):
        if t["over"]:
            return t
        assert t["moves"] and t["status"] and not t.get("error"), t.get("error") or t["status"]
        again = client.get("/api/state").json()
        assert again == t
        if rng.random() < 0.15:
            refusals(walk, t, rng)
        if take_backs and t["can_take_back"] and rng.random() < 0.03:
            take_backs -= 1
            r = client.post("/api/undo", json={"at": t["at"], "deal": t["deal"]})
            assert r.status_code == 200, r.text
            t = r.json()
            walk.check(t, "a take-back")
            continue
        if agent is None or agent[0] is not session.game:
            agent = (session.game, make_agent(human, session.game))
        me = session.setup.seat
        legal = session.state.observation(me).legal_actions()
        assert len(legal) == len(t["moves"])
        i = legal.index(agent[1].choose(session.state.observation(me), rng))
        r = client.post("/api/move", json={"i": i, "at": t["at"], "deal": t["deal"]})
        assert r.status_code == 200, r.text
        t = r.json()
        walk.check(t, f"after move {i}")
    raise AssertionError("no end after 3000 moves")


GAMES = [
    pytest.param(Setup("day-of-the-dead", agents=("greedy",)), "random", id="dotd-seat1-fresh"),
    pytest.param(Setup("day-of-the-dead", seat=1, seed=918_273_645, agents=("random",)), "greedy",
                 id="dotd-seat2"),
    pytest.param(Setup("day-of-the-dead", seed=4242, agents=("mcts:3",)), "random",
                 id="dotd-mcts"),
    pytest.param(Setup("grave-feast", players=2, agents=("random",), seat=1), "greedy",
                 id="gf-2-fresh"),
    pytest.param(Setup("grave-feast", players=2, seed=77, options={"rares": True}), "random",
                 id="gf-2-rares"),
    pytest.param(Setup("grave-feast", players=3, options={"rares": True},
                       agents=("random", "greedy")), "random", id="gf-3-rares-fresh"),
    pytest.param(Setup("grave-feast", players=5, seat=3, seed=505, agents=("gate", "random")),
                 "greedy", id="gf-5"),
    pytest.param(Setup("grave-feast", players=8, seat=7, options={"rares": True},
                       agents=("greedy", "random", "mcts:2")), "random", id="gf-8-rares-fresh"),
]


@pytest.fixture(scope="module")
def faces_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("faces")  # faces painted once for every game of the module


@pytest.mark.parametrize(("setup", "human"), GAMES)
def test_no_answer_of_the_table_shows_a_hidden_card(setup, human, tmp_path, faces_root,
                                                    monkeypatch):
    fresh = setup.seed is None
    if fresh:  # the table's fresh seed, itself seeded here so the test is the same every run
        draws = random.Random(setup.players or 2)
        monkeypatch.setattr(session_module.random, "SystemRandom", lambda: draws)
    log = tmp_path / "play.log.jsonl"
    session = Session(Setup(**{**setup.__dict__, "log_path": str(log)}))
    client = TestClient(create_app(session, faces_root))
    walk = Walk(session, client, fresh)
    watch_lines(walk)
    watch_thinking(walk, monkeypatch)
    rng = random.Random(f"{setup.set_ref}/{setup.players}/{setup.seat}")

    last = walk_game(walk, human, rng)
    assert not walk.problems, walk.problems[:20]

    # the end: the seed and the reasons are the human's now
    assert last["over"] and last["seed"] == session.seed and last["moves"] == []
    assert last["transcript"] == session.transcript(True)
    assert walk.answers > 10 and walk.published > 0 and walk.refusals
    # save once; a second save (a double click, a second page) is refused, the log unchanged
    r = client.post("/api/save")
    assert r.status_code == 200 and r.json()["saved"]
    saved = log.read_text()
    refused(walk, "a second save", "POST", "/api/save", status=(409,))
    assert log.read_text() == saved and len(saved.splitlines()) == 1
    refused(walk, "a move after the end", "POST", "/api/move", status=(409,),
            json={"i": 0, "at": last["at"], "deal": last["deal"]})

    # every face the page was sent is served, a PNG; a path out of the faces is not
    for face in sorted(walk.faces):
        r = client.get(f"/card/{face}.png")
        assert r.status_code == 200 and r.content.startswith(PNG), face
    for page in ("/", "/static/play.js", "/static/play.css"):
        r = client.get(page)
        assert r.status_code == 200
        assert not named(session, every_card(session), r.text), page

    # a new game: the stale page of the old one cannot move in it, even at the same "at"
    t = client.post("/api/new", json={}).json()
    walk.check(t, "a new game")
    assert t["deal"] == last["deal"] + 1 and not t["over"] and t["moves"]
    refused(walk, "a move of the last game", "POST", "/api/move", status=(409,),
            json={"i": 0, "at": t["at"], "deal": last["deal"]})
    assert not walk.problems, walk.problems[:20]


def test_the_oracle_sees_hidden_cards_and_catches_a_leak(tmp_path):
    """The check above is no check if it finds nothing to hide or misses a planted card."""
    for setup in (Setup("day-of-the-dead", seed=3), Setup("grave-feast", players=4, seed=3,
                                                          options={"rares": True})):
        session = Session(setup)
        client = TestClient(create_app(session, tmp_path / "faces"))
        t = client.get("/api/state").json()
        hidden = hidden_now(session)
        assert len(hidden) > 20 and leaks(session, t, hidden, fresh_seed=False) == []
        st: Any = session.state
        theirs = st.hands[1][0]
        g: Any = st.g
        label = g.describe(theirs) if setup.set_ref == "day-of-the-dead" else f"{g.names[theirs]}#{theirs}"
        for planted in (
            {**t, "areas": t["areas"] + [{"title": "x", "seat": None, "zones": [{"title": "x",
                "text": "", "cards": [{"face": face_of(session, theirs), "card": theirs,
                                       "name": "x"}]}]}]},
            {**t, "areas": t["areas"] + [{"title": "x", "seat": None, "zones": [{"title": "x",
                "text": "", "cards": [{"face": face_of(session, theirs), "name": "x"}]}]}]},
            {**t, "status": f"player 2 holds {label}"},
            {**t, "seed": session.seed},
            {**t, "transcript": t["transcript"] + ["player 2 (greedy)  [random: one of 7 moves]"]},
        ):
            assert leaks(session, planted, hidden, fresh_seed=False), planted.get("status")
        assert leaks(session, {**t, "note": f"dealt from {session.seed}"}, hidden,
                     fresh_seed=True)


def test_the_same_move_sent_twice_at_once_is_played_once(tmp_path):
    """Two copies of one click (a double click, two pages, a retry) race for the session: one
    is played, the other refused as stale; a take-back sent twice takes back one move."""
    session = Session(Setup("grave-feast", players=3, seed=90,
                            log_path=str(tmp_path / "log.jsonl")))
    client = TestClient(create_app(session, tmp_path / "faces"))
    t = client.get("/api/state").json()
    for path, body in (("/api/move", {"i": 0, "at": t["at"], "deal": t["deal"]}),
                       ("/api/move", None), ("/api/undo", None)):
        if body is None:
            t = client.get("/api/state").json()
            body = {"i": 0, "at": t["at"], "deal": t["deal"]} if path == "/api/move" \
                else {"at": t["at"], "deal": t["deal"]}
        mine = sum(1 for m in session.moves if m.seat == 0)
        go = threading.Barrier(4)
        got: list[Any] = []

        def send(path: str = path, body: dict[str, Any] = body, go: threading.Barrier = go,
                 got: list[Any] = got) -> None:
            go.wait(10)
            got.append(client.post(path, json=body))

        threads = [threading.Thread(target=send) for _ in range(4)]
        for x in threads:
            x.start()
        for x in threads:
            x.join(60)
        codes = sorted(r.status_code for r in got)
        assert codes == [200, 409, 409, 409], [(r.status_code, r.json().get("error")) for r in got]
        assert all("look again" in r.json()["error"] for r in got if r.status_code == 409)
        now = sum(1 for m in session.moves if m.seat == 0)
        assert now == mine + (1 if path == "/api/move" else -1), path


def test_who_a_grave_feast_window_asks_is_not_told(tmp_path):
    """Only a player who can answer is asked in a window (an instant in hand): "Player 3 is
    choosing" while it thinks, or "player 3 to answer", told the human what player 3 held."""
    from boneyard.engine.gf.table import TABLE

    session = Session(Setup("grave-feast", players=4, seed=5))
    st: Any = session.state
    rng = random.Random(5)
    found = 0
    while not st.is_terminal() and found < 5:
        mover = st.current_player()
        if st.phase in (WINDOW, CHAIN, ATTACK):
            for p in range(st.n):
                view = json.dumps(TABLE.view(st.observation(p)))
                if p != mover:
                    found += 1
                    assert f"player {mover + 1} to answer" not in view
                    assert TABLE.mover(st.observation(p), mover) is None
                else:
                    assert "(you to answer)" in view
        st.apply_action(rng.choice(st.legal_actions()))
    assert found
