"""The play table (boneyard play) without a browser: whole games through its HTTP API, take-back,
saved games that replay, no peeking, a set being edited, agents' reasons, the command itself."""

from __future__ import annotations

import json
import random
import re
import shutil
import socket
from pathlib import Path

import pytest
from boneyard.engine.agents import make_agent
from boneyard.engine.sim.seeds import agent_seed
from boneyard.pipeline.cli import cli
from boneyard.pipeline.play.app import create_app
from boneyard.pipeline.play.reasons import choose_with_reason
from boneyard.pipeline.play.session import PlayError, Session, Setup
from click.testing import CliRunner
from play_helpers import hidden_cards, hidden_leaks, walk_game
from starlette.testclient import TestClient

from boneyard.paths import CARDS

GAMES = [
    pytest.param(Setup("day-of-the-dead", seed=11), id="dotd"),
    pytest.param(Setup("grave-feast", players=3, seed=12, agents=("greedy", "random")), id="gf-3"),
    pytest.param(Setup("grave-feast", players=4, seed=13, options={"rares": True}), id="gf-4-rares"),
]


def client_for(setup: Setup, tmp_path: Path) -> tuple[TestClient, Session]:
    session = Session(Setup(**{**setup.__dict__, "log_path": str(tmp_path / "play.log.jsonl")}))
    return TestClient(create_app(session, tmp_path / "faces")), session


@pytest.mark.parametrize("setup", GAMES)
def test_a_whole_game_through_the_api_shows_only_what_the_human_may_see(setup, tmp_path):
    client, session = client_for(setup, tmp_path)
    answers = walk_game(client, session, random.Random(1))
    last = answers[-1]
    assert last["over"] and last["status"].startswith("Game over")
    assert last["moves"] == [] and last["can_save"]
    assert len(answers) > 5
    # the human made every one of their moves through the API; the agents moved in between
    you = [line for line in last["transcript"] if "(you)" in line]
    assert len(you) == len(answers) - 1
    assert any(s["name"] != "You" for s in last["seats"])
    # only a player holding an instant is asked to respond: another player's pass would say so
    assert not [line for line in last["transcript"]
                if re.match(r"player \d+ \((?!you\))[^)]*\): pass\b", line)]
    # the hidden places were really there to protect (a check that protects nothing is no check)
    assert any(hidden_cards(session)[0] for _ in [0])


def test_the_no_peeking_check_catches_a_leak(tmp_path):
    client, session = client_for(Setup("day-of-the-dead", seed=3), tmp_path)
    answer = client.get("/api/state").json()
    assert hidden_leaks(session, answer, []) == []
    g = session.state.g
    opponent_card = session.state.hands[1][0]
    leaked = dict(answer, areas=answer["areas"] + [{"title": "x", "seat": None, "zones": [
        {"title": "x", "text": "", "cards": [{"face": g.card_ids[opponent_card], "card": opponent_card,
                                              "name": g.describe(opponent_card)}]}]}])
    assert hidden_leaks(session, leaked, [])
    assert hidden_leaks(session, answer, [f"player 2 digs {g.describe(opponent_card)}"]) or \
        g.describe(opponent_card) in {g.describe(c) for c in hidden_cards(session)[1]}


def test_simultaneous_choices_stay_hidden_until_both_are_made(tmp_path):
    # seat 2: the agent in seat 1 chooses first, and its choice must not show before ours
    client, session = client_for(Setup("day-of-the-dead", seed=4, seat=1), tmp_path)
    t = client.get("/api/state").json()
    assert t["status"].startswith("Choose your fighter")
    assert any("chooses a card" in line for line in t["transcript"])
    theirs = [c for z in t["areas"][0]["zones"] for c in z["cards"]]
    assert all("face" not in c for c in theirs), "the opponent's table shows only backs"
    t = client.post("/api/move", json={"i": 0, "at": t["at"]}).json()
    t = client.post("/api/move", json={"i": 0, "at": t["at"]}).json()
    assert any("player 1 reveals" in line for line in t["transcript"])


def test_coin_flips_are_in_the_transcript(tmp_path):
    client, session = client_for(Setup("day-of-the-dead", seed=5), tmp_path)
    assert "coin flip" in client.get("/api/state").json()["transcript"][0]
    client, session = client_for(Setup("grave-feast", players=2, seed=6, options={"rares": True}), tmp_path)
    answers = walk_game(client, session, random.Random(2), check=False)
    first = answers[0]["transcript"][0]
    assert "plays first" in first
    flips = [line for line in answers[-1]["transcript"] if "coin flip" in line]
    coins = [e for e in session.state.log if e[0] == "coin"]
    assert len(flips) == len(coins)


def test_take_back_returns_to_the_table_before_your_move(tmp_path):
    client, session = client_for(Setup("grave-feast", players=3, seed=21), tmp_path)
    t = client.get("/api/state").json()
    assert not t["can_take_back"]
    assert client.post("/api/undo").status_code == 409
    for _ in range(3):
        t = client.post("/api/move", json={"i": 0, "at": t["at"]}).json()
    before = t
    after = client.post("/api/move", json={"i": len(t["moves"]) - 1, "at": t["at"]}).json()
    assert after["at"] > before["at"]
    back = client.post("/api/undo").json()
    assert back == before
    # and the game goes on from there as from any position
    assert client.post("/api/move", json={"i": 0, "at": back["at"]}).status_code == 200


def test_a_stale_or_wrong_move_is_refused_and_changes_nothing(tmp_path):
    client, session = client_for(Setup("day-of-the-dead", seed=8), tmp_path)
    t = client.get("/api/state").json()
    for body in ({"i": 0, "at": t["at"] + 1}, {"i": 999, "at": t["at"]}, {"i": "x"}, {}):
        r = client.post("/api/move", json=body)
        assert r.status_code in (400, 409) and r.json()["error"]
        assert r.json()["at"] == t["at"]
    assert client.post("/api/save").status_code == 409  # not over yet


@pytest.mark.parametrize("setup", GAMES[:2])
def test_a_saved_game_replays_identically(setup, tmp_path):
    client, session = client_for(setup, tmp_path)
    last = walk_game(client, session, random.Random(3), check=False)[-1]
    saved = client.post("/api/save").json()
    assert saved["saved"].startswith("boneyard replay ")
    log = tmp_path / "play.log.jsonl"
    rec = json.loads(log.read_text().splitlines()[0])
    assert rec["seed"] == last["seed"] and rec["returns"] == session.state.returns()
    assert rec["agents"][session.setup.seat] == "human"
    res = CliRunner().invoke(cli, ["replay", str(log), "--game", "0"])
    assert res.exit_code == 0, res.output
    assert "replay ok: game 0" in res.output
    # a second game goes to the next line, replayable by its own index
    client.post("/api/new", json={"seed": 99})
    walk_game(client, session, random.Random(4), check=False)
    assert client.post("/api/save").json()["saved"].endswith("--game 1")
    res = CliRunner().invoke(cli, ["replay", str(log), "--game", "1"])
    assert res.exit_code == 0, res.output


def test_agent_seats_and_new_game_settings(tmp_path):
    client, session = client_for(Setup("grave-feast", players=3, seed=30), tmp_path)
    t = client.post("/api/new", json={"players": 5, "seed": 31, "agents": ["random", "greedy"],
                                      "options": {"rares": True}, "seat": 2}).json()
    assert [s["name"] for s in t["seats"]] == ["random", "greedy", "You", "greedy", "greedy"]
    assert session.game.rares and session.game.num_players == 5
    assert t["setup"]["options"][0]["name"] == "rares" and t["setup"]["options"][0]["value"]
    assert client.post("/api/new", json={"agents": ["wizard"]}).status_code == 400
    # a player count the game cannot seat is refused before the game is replaced
    r = client.post("/api/new", json={"players": 9})
    assert r.status_code == 400 and "from 2 to 8 in Grave Feast (got 9)" in r.json()["error"]
    assert session.game.num_players == 5 and "problems" not in r.json()
    # so is a seat it does not have, given or kept from the last game (seat 2 of 5, then 2 players)
    for body, said in (({"seat": 5}, "seat must be from 0 to 4 with 5 players (got 5)"),
                       ({"players": 2}, "seat must be from 0 to 1 with 2 players (got 2, the "
                                        "seat of the last game)")):
        r = client.post("/api/new", json=body)
        assert r.status_code == 400 and r.json()["error"] == said, r.json()
        assert session.state is not None and session.game.num_players == 5


def test_the_table_plays_the_sets_current_files_and_shows_their_problems(tmp_path):
    folder = tmp_path / "dotd"
    shutil.copytree(CARDS / "day-of-the-dead", folder)
    chars = folder / "characters.yaml"
    text = chars.read_text()
    client, session = client_for(Setup(str(folder), seed=40), tmp_path)
    assert "problems" not in client.get("/api/state").json()
    # a typo while editing: the next game shows it, located, instead of a table
    chars.write_text(text.replace("power: 7", "power: seven", 1))
    t = client.post("/api/new", json={}).json()
    assert t["problems"], t
    assert any(p.startswith(f"{chars}:") or "characters.yaml:" in p for p in t["problems"])
    line = next(p for p in t["problems"] if "characters.yaml:" in p)
    assert line.split("characters.yaml:")[1].split(":")[0].isdigit()
    # fixed: the new game plays the edited card
    chars.write_text(text.replace("power: 7", "power: 1", 1))
    t = client.post("/api/new", json={}).json()
    assert "problems" not in t
    assert session.card_set.content_hash != Session(Setup("day-of-the-dead")).card_set.content_hash


def test_a_damaged_face_in_the_cache_is_painted_again_not_served(tmp_path):
    """A face kept cut short (a full disk) was served as it was, a broken card on every page
    until the cache was cleared; a folder under its name was an internal server error."""
    client, _ = client_for(Setup("grave-feast", players=2, seed=50), tmp_path)
    good = client.get("/card/back.png").content
    kept = next((tmp_path / "faces").rglob("back.png"))
    kept.write_bytes(good[:100])
    assert client.get("/card/back.png").content == good
    kept.unlink()
    kept.mkdir()
    r = client.get("/card/back.png")
    assert r.status_code == 200 and r.content.startswith(b"\x89PNG\r\n\x1a\n")


def test_card_faces_are_the_sets_printed_faces(tmp_path):
    client, session = client_for(Setup("grave-feast", players=2, seed=50), tmp_path)
    t = client.get("/api/state").json()
    mine = next(a for a in t["areas"] if a["seat"] == 0)["zones"][0]["cards"]
    r = client.get(f"/card/{mine[0]['face']}.png")
    assert r.status_code == 200 and r.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert client.get("/card/back.png").status_code == 200
    assert client.get("/card/no-such-card.png").status_code == 404
    import io

    from boneyard.pipeline.render.api import prepare
    from boneyard.pipeline.render.images import face_image
    from PIL import Image

    prep = prepare(session.card_set)
    im = Image.open(io.BytesIO(r.content))
    want = face_image(prep.layouts[mine[0]["face"]], prep.size, im.width, im.height)
    assert im.convert("RGB").tobytes() == want.tobytes()


@pytest.mark.parametrize("rules,players", [("day-of-the-dead", 2), ("grave-feast", 3)])
def test_mcts_reasons_come_with_the_same_choice_as_the_agent(rules, players):
    session = Session(Setup(rules, players=players, seed=60))
    game = session.game
    state = game.new_initial_state(61)
    rng = random.Random(0)
    checked = 0
    while not state.is_terminal() and checked < 6:
        p = state.current_player()
        obs = state.observation(p)
        if len(obs.legal_actions()) > 1:
            agent = make_agent("mcts:6", game)
            seed = agent_seed(61, checked)
            action, reason = choose_with_reason(agent, obs, random.Random(seed))
            assert action == agent.choose(state.observation(p), random.Random(seed))
            assert reason and reason.startswith("mcts:6")
            checked += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert checked == 6


@pytest.mark.parametrize("rules,agent,reason", [
    ("grave-feast", "random", r"\[random: one of \d+ moves\]"),
    ("day-of-the-dead", "mcts:4", r"\[mcts:4: \d+ of 4 simulations chose it"),
])
def test_agent_moves_come_with_their_reasons_once_the_game_is_over(rules, agent, reason):
    """A reason is read off the agent's hidden hand: random's "one of 7 moves" told the human it
    held a family start and a succubus. So the page gets the reasons only when the game is over."""
    session = Session(Setup(rules, players=2, seed=70, agents=(agent,)))
    while not session.state.is_terminal():
        assert not any(re.search(r"  \[(random|mcts)", x) for x in session.snapshot()["transcript"])
        session.play(0)
    shown = session.snapshot()["transcript"]
    assert any(re.search(rf"\({re.escape(agent)}\).*{reason}", x) for x in shown)
    assert [x.split("  [")[0] for x in shown] == session.lines
    # greedy gives none: its moves stand alone
    session = Session(Setup(rules, players=2, seed=70, agents=("greedy",)))
    while not session.state.is_terminal():
        session.play(0)
    assert not any("(greedy)" in x and "[" in x for x in session.snapshot()["transcript"])


def test_the_command_serves_on_localhost_and_says_where(monkeypatch):
    from boneyard.pipeline import cmd_play

    seen = {}
    monkeypatch.setattr(cmd_play, "serve", lambda app, **kw: seen.update(kw))
    res = CliRunner().invoke(cli, ["play", "day-of-the-dead", "--no-open", "--port", "0", "--seed", "1"])
    assert res.exit_code == 0, res.output
    assert seen["host"] == "127.0.0.1"
    assert f"http://127.0.0.1:{seen['port']}/" in res.output


def test_without_a_browser_the_address_is_printed(monkeypatch, capsys):
    import webbrowser

    from boneyard.pipeline.cmd_play import open_page

    monkeypatch.setattr(webbrowser, "open", lambda url: False)
    assert open_page("http://127.0.0.1:1/") is False
    assert "http://127.0.0.1:1/" in capsys.readouterr().err


def test_the_command_refuses_bad_options():
    runner = CliRunner()
    res = runner.invoke(cli, ["play", "no-such-set", "--no-open"])
    assert res.exit_code == 2 and "no such card set" in res.output
    res = runner.invoke(cli, ["play", "day-of-the-dead", "--vs", "wizard", "--no-open"])
    assert res.exit_code == 2 and "unknown agent" in res.output
    res = runner.invoke(cli, ["play", "day-of-the-dead", "--rares", "--no-open"])
    assert res.exit_code == 2 and "Grave Feast option" in res.output
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        res = runner.invoke(cli, ["play", "day-of-the-dead", "--no-open", "--port", str(port)])
    assert res.exit_code == 2 and f"--port {port}" in res.output


@pytest.mark.parametrize(("args", "said"), [
    (["day-of-the-dead", "--players", "5"],
     "--players 5: Day of the Dead is a 2-player game (give --players 2,"),
    (["grave-feast", "--players", "9"],
     "--players 9: Grave Feast is for 2 to 8 players (give --players 2 to 8,"),
    (["day-of-the-dead", "--scenario", str(CARDS.parent / "tests" / "scenarios" / "gf-deal.yaml")],
     "the scenario plays Grave Feast, but the table plays Day of the Dead"),
])
def test_arguments_no_game_can_be_dealt_with_are_refused_before_the_server_starts(
        monkeypatch, args, said):
    from boneyard.pipeline import cmd_play

    started = []
    monkeypatch.setattr(cmd_play, "serve", lambda app, **kw: started.append(kw))
    res = CliRunner().invoke(cli, ["play", *args, "--no-open", "--port", "0"])
    assert res.exit_code == 2 and not started, res.output
    assert said in " ".join(res.output.split()) and "does not load" not in res.output, res.output


def test_a_set_that_does_not_load_is_still_served_with_its_problems(monkeypatch, tmp_path):
    from boneyard.pipeline import cmd_play

    root = tmp_path / "set"
    shutil.copytree(CARDS / "day-of-the-dead", root)
    (root / "characters.yaml").write_text("- id: 1\n")
    started = []
    monkeypatch.setattr(cmd_play, "serve", lambda app, **kw: started.append(kw))
    res = CliRunner().invoke(cli, ["play", str(root), "--players", "5", "--no-open", "--port", "0"])
    assert res.exit_code == 0 and started and "the set does not load" in res.output, res.output


@pytest.mark.parametrize(("host", "said"), [
    ("999.1.1.1", "not an address or a name this computer knows"),
    ("name.invalid", "not an address or a name this computer knows"),
    ("192.0.2.1", "not an address of this computer"),  # TEST-NET: never this computer's
])
def test_an_unusable_host_blames_host_not_port(host, said):
    res = CliRunner().invoke(cli, ["play", "day-of-the-dead", "--no-open", "--port", "0",
                                   "--host", host])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert f"Error: --host {host}: {said}" in res.output and "--port" not in res.output


@pytest.mark.parametrize("host", ["", "  "])
def test_an_empty_host_is_refused_not_every_interface(host):
    """`--host "$HOST"` with HOST unset listened on every interface, IPv4 and IPv6."""
    res = CliRunner().invoke(cli, ["play", "day-of-the-dead", "--no-open", "--port", "0",
                                   "--host", host])
    assert res.exit_code == 2 and "Error: --host is empty: give an address" in res.output


def test_session_refuses_moves_out_of_turn():
    session = Session(Setup("day-of-the-dead", seed=80))
    while not session.state.is_terminal():
        session.play(0)
    with pytest.raises(PlayError, match="the game is over: start a new game"):
        session.play(0)


def _dotd_final_turn(folder: Path) -> Path:
    """A Day of the Dead scenario at the start of the last turn: five slots, a spirit and one
    card in hand each (the bundled set's cards)."""
    import yaml
    from boneyard.pipeline.load import load_set

    ids = [dc.id for dc in load_set("day-of-the-dead").cards]
    picks = iter(ids[::5])
    players = [{"line": [next(picks) for _ in range(5)], "spirit": next(picks),
                "hand": [next(picks)]} for _ in range(2)]
    path = folder / "final-turn.yaml"
    path.write_text(yaml.safe_dump({"turn": 6, "phase": "start", "priority": 1,
                                    "scores": [20, 18], "players": players}))
    return path


def test_a_game_from_a_scenario_goes_on_from_its_position(tmp_path):
    path = _dotd_final_turn(tmp_path)
    client = TestClient(create_app(Session(Setup("day-of-the-dead", scenario=str(path))),
                                   tmp_path / "faces"))
    t = client.get("/api/state").json()
    assert t["turn"] == "Turn 6 of 6" and [s["score"] for s in t["seats"]] == [20, 18]
    assert t["transcript"][0] == f"from the scenario {path}"
    mine = next(a for a in t["areas"] if a["seat"] == 0)
    # the five slots written, and the spirit that opened the sixth at the start of the turn
    assert len(next(z for z in mine["zones"] if z["title"].startswith("Line"))["cards"]) == 6
    answers = [t]
    while not t["over"]:
        t = client.post("/api/move", json={"i": 0, "at": t["at"]}).json()
        answers.append(t)
    assert not t["can_save"]
    assert "scenario" in client.post("/api/save").json()["error"]
    back = client.post("/api/undo").json()
    assert back["turn"] == "Turn 6 of 6" and not back["over"]


def test_a_scenario_of_another_game_or_with_a_mistake_is_shown_located(tmp_path):
    gf = CARDS.parent / "tests" / "scenarios" / "gf-example-game-flow.yaml"
    session = Session(Setup("day-of-the-dead", scenario=str(gf)))
    assert session.state is None and "plays Grave Feast" in session.problems[0]
    bad = tmp_path / "bad.yaml"
    bad.write_text("turn: 6\nphase: start\nplayers:\n  - hand: [no_such@double]\n  - {}\n")
    session = Session(Setup("day-of-the-dead", scenario=str(bad)))
    assert session.state is None
    assert any(p.startswith(f"{bad}:") and "no_such@double" in p for p in session.problems), \
        session.problems
    session = Session(Setup("grave-feast", scenario=str(gf)))
    assert session.state is not None and session.num_players == 3


def test_a_game_without_a_table_view_says_so_in_the_page():
    from boneyard.engine import games
    from toy.spec import SPEC

    games.register(SPEC)
    try:
        session = Session(Setup(str(CARDS.parent / "tests" / "toy" / "set")))
        t = session.snapshot()
        assert session.state is None and "has no play table" in t["problems"][0]
    finally:
        games._SPECS.pop(SPEC.name, None)
        games.GAMES.pop(SPEC.name, None)


def test_bad_request_bodies_are_refused_and_leave_the_game_as_it_was(tmp_path):
    client, session = client_for(Setup("grave-feast", players=3, seed=60), tmp_path)
    t = client.get("/api/state").json()
    deep = "[" * 20000 + "]" * 20000  # within the size limit, too deep for the JSON reader
    for path, raw, status, said in [
        ("/api/new", "{players: 3", 400, "not JSON"),
        ("/api/new", deep, 400, "nested too deeply"),
        ("/api/move", deep, 400, "nested too deeply"),
        ("/api/new", "[1, 2]", 400, "a JSON object"),
        ("/api/new", '{"pad": "' + "x" * 70000 + '"}', 413, "over the limit"),
        ("/api/move", '{"i": 0, "pad": "' + "x" * 70000 + '"}', 413, "over the limit"),
    ]:
        r = client.post(path, content=raw, headers={"Content-Type": "application/json"})
        assert r.status_code == status and said in r.json()["error"], (path, r.json()["error"])
        assert r.json()["at"] == t["at"] and r.json()["transcript"] == t["transcript"]
    assert session.seed == 60 and session.state is not None  # no new game was dealt


def test_a_request_cut_short_is_refused_without_a_traceback(tmp_path, caplog):
    """A page closed in the middle of sending a move raised starlette's ClientDisconnect into a
    server traceback ("Exception in ASGI application")."""
    import asyncio

    client, session = client_for(Setup("grave-feast", players=3, seed=61), tmp_path)
    at = len(session.moves)
    app = client.app
    incoming = [{"type": "http.request", "body": b'{"i"', "more_body": True},
                {"type": "http.disconnect"}]
    sent: list[dict] = []

    async def receive() -> dict:
        return incoming.pop(0) if incoming else {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        sent.append(message)

    scope = {"type": "http", "method": "POST", "path": "/api/move", "raw_path": b"/api/move",
             "query_string": b"", "headers": [(b"host", b"testserver"),
                                               (b"content-type", b"application/json")],
             "scheme": "http", "server": ("testserver", 80), "client": ("127.0.0.1", 1),
             "http_version": "1.1", "root_path": "", "app": app}
    asyncio.run(app(scope, receive, send))
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 400
    assert b"the request was cut short" in b"".join(m.get("body", b"") for m in sent[1:])
    assert len(session.moves) == at


@pytest.mark.parametrize("body, said", [
    ({"options": {"rares": "yes"}}, "option 'rares' must be true or false, got \"yes\""),
    ({"options": {"decks": 7}}, "option 'decks' must be a whole number in 1..2, got 7"),
    ({"options": {"wild": True}}, "Grave Feast has no option 'wild' (its options: rares, decks)"),
    ({"player": 4}, "unknown key 'player' in a new game (known: players, seed, seat, agents"),
])
def test_new_game_options_the_game_does_not_have_are_refused(tmp_path, body, said):
    client, session = client_for(Setup("grave-feast", players=3, seed=61), tmp_path)
    r = client.post("/api/new", json=body)
    assert r.status_code == 400 and said in r.json()["error"], r.json()["error"]
    assert session.setup.options == {} and session.state is not None and session.seed == 61


def test_a_log_file_that_is_not_text_is_not_overwritten(tmp_path):
    client, session = client_for(Setup("day-of-the-dead", seed=62), tmp_path)
    log = tmp_path / "play.log.jsonl"
    log.write_bytes(b"\xff\xfe not a log \x00")
    walk_game(client, session, random.Random(5), check=False)
    r = client.post("/api/save")
    assert r.status_code == 409 and "not UTF-8 text" in r.json()["error"]
    assert log.read_bytes() == b"\xff\xfe not a log \x00"


def test_serving_beyond_localhost_warns_that_anyone_can_see_your_hand(monkeypatch):
    from boneyard.pipeline import cmd_play

    monkeypatch.setattr(cmd_play, "serve", lambda app, **kw: None)
    runner = CliRunner()
    res = runner.invoke(cli, ["play", "day-of-the-dead", "--no-open", "--port", "0",
                              "--host", "0.0.0.0"])
    assert res.exit_code == 0, res.output
    assert "warning: --host 0.0.0.0 serves the table beyond this computer" in res.stderr
    res = runner.invoke(cli, ["play", "day-of-the-dead", "--no-open", "--port", "0"])
    assert "warning" not in res.stderr


def test_text_the_table_echoes_in_a_message_is_cut_to_a_line(tmp_path):
    """A pasted page in a request or a scenario's move is quoted, not sent back whole."""
    client, _ = client_for(GAMES[0].values[0], tmp_path)
    long = "x" * 60_000
    for body in ({long: 1}, {"agents": [long]}, {"options": {long: True}},
                 {"agents": ["mcts:" + "9" * 5000]}):
        r = client.post("/api/new", json=body)
        assert r.status_code == 400, r.text
        error = r.json()["error"]
        assert len(error) < 300 and ("xxx..." in error or "999..." in error), error
    scenario = _dotd_final_turn(tmp_path)
    scenario.write_text(scenario.read_text() + f"actions: ['play {'z' * 500_000}']\n")
    session = Session(Setup("day-of-the-dead", scenario=str(scenario)))
    assert session.state is None and len(session.problems) == 1, session.problems
    assert "choice 'play zzz" in session.problems[0] and "zzz...' is not legal" in session.problems[0]
    assert len(session.problems[0]) < 2000, len(session.problems[0])


def test_another_web_sites_page_cannot_play_deal_or_save_at_the_table(tmp_path):
    """A page the player visits may POST to 127.0.0.1 (a form, a text/plain fetch: no
    permission asked); the browser names its origin, and the table refuses it."""
    client, session = client_for(Setup("grave-feast", players=3, seed=61), tmp_path)
    t = client.get("/api/state").json()
    for headers in ({"Origin": "http://evil.example"}, {"Origin": "null"},
                    {"Sec-Fetch-Site": "cross-site"}):
        for path, body in (("/api/new", '{"seed": 5}'), ("/api/move", '{"i": 0}'),
                           ("/api/undo", ""), ("/api/save", "")):
            r = client.post(path, content=body, headers={"Content-Type": "text/plain", **headers})
            assert r.status_code == 403 and "another web site" in r.text, (path, headers, r.text)
    assert session.seed == 61 and client.get("/api/state").json()["transcript"] == t["transcript"]
    # the table's own page (same origin) is served as before
    r = client.post("/api/new", json={"seed": 7}, headers={"Origin": "http://testserver"})
    assert r.status_code == 200 and session.seed == 7


def test_a_page_reaching_the_table_by_another_name_is_refused(tmp_path):
    """DNS rebinding: a site whose name resolves to 127.0.0.1 would be its own origin."""
    session = Session(Setup("day-of-the-dead", seed=3, log_path=str(tmp_path / "log.jsonl")))
    app = create_app(session, tmp_path / "faces", hosts={"127.0.0.1", "localhost", "::1"})
    for base in ("http://127.0.0.1:8765", "http://localhost:8765", "http://[::1]:8765"):
        assert TestClient(app, base_url=base).get("/api/state").status_code == 200
    for base in ("http://evil.example:8765", "http://127.0.0.1.evil.example"):
        r = TestClient(app, base_url=base).get("/api/state")
        assert r.status_code == 403 and "served as" in r.text
    r = TestClient(app, base_url="http://127.0.0.1:8765").get("/", headers={"Host": "[bad"})
    assert r.status_code == 403


def test_the_move_count_the_page_gets_skips_the_moves_it_cannot_see():
    """In a response window an agent's pass is not shown, but "at" counted it: a jump larger
    than the new lines told the human the rival held an instant (a preacher or a succubus)."""
    session = Session(Setup("grave-feast", players=2, seed=1, agents=("greedy",)))
    rng = random.Random(1)
    while not session.state.is_terminal():
        before = session.snapshot()
        session.play(rng.randrange(len(before["moves"])), at=before["at"])
        after = session.snapshot()
        shown = len(after["transcript"]) - len(before["transcript"])
        moves = sum(1 for x in after["transcript"][len(before["transcript"]):]
                    if x.startswith("player "))
        assert after["at"] - before["at"] == moves <= shown
    assert session.seen < len(session.moves)  # the game had unseen passes, uncounted


def test_the_table_answers_while_an_agent_thinks(monkeypatch):
    """An mcts agent with a big budget held the session for its whole move, and the page's
    request for the table waited as long: it now gets the table as the agents began."""
    import threading
    import time

    import boneyard.pipeline.play.session as session_module

    thinking, go_on = threading.Event(), threading.Event()
    real = session_module.choose_with_reason

    def slow(agent, obs, rng):
        thinking.set()
        go_on.wait(30)
        return real(agent, obs, rng)

    session = Session(Setup("day-of-the-dead", seed=80, agents=("greedy",)))
    monkeypatch.setattr(session_module, "choose_with_reason", slow)
    def play_on() -> None:
        while not thinking.is_set() and not session.state.is_terminal():
            session.play(0)

    mover = threading.Thread(target=play_on)
    mover.start()
    try:
        assert thinking.wait(30)
        started = time.perf_counter()
        seen = session.snapshot()
        assert time.perf_counter() - started < 1.0
        assert seen["status"] == "Player 2 (greedy) is choosing" and seen["moves"] == []
    finally:
        go_on.set()
        mover.join(30)
    assert session.snapshot()["at"] > seen["at"]


@pytest.mark.parametrize("signame, code, said", [("SIGINT", 130, "Interrupted."),
                                                 ("SIGTERM", 143, "Terminated.")])
def test_stopping_the_table_exits_as_the_other_commands_do(signame, code, said):
    """uvicorn.run swallowed the Ctrl-C it passes on after its shutdown: the table exited 0."""
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen([sys.executable, "-c", "from boneyard.pipeline.cli import main; main()",
                             "play", "day-of-the-dead", "--port", "0", "--no-open"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    assert proc.stdout is not None
    first = proc.stdout.readline()  # the address: the server is about to listen
    time.sleep(2)
    proc.send_signal(getattr(signal, signame))
    out, err = proc.communicate(timeout=30)
    assert "Boneyard table" in first and proc.returncode == code, (first, out, err)
    assert err.strip().endswith(said) and "Traceback" not in err, err
