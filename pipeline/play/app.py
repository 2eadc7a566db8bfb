"""The play table's web app (Starlette): the page, its JSON API and the card faces.

    GET  /                 the page (static/index.html, play.js, play.css)
    GET  /api/state        the human's table (Session.snapshot)
    POST /api/move         {"i": move index, "at": the count of moves the page saw made,
                            "deal": the game the page showed (optional)}
    POST /api/undo         take back your last move ({"at", "deal"} optional, as for a move)
    POST /api/new          {"players", "seed", "seat", "agents", "options"}: a new game
    POST /api/save         append the finished game to the log file
    GET  /card/{face}.png  a printed face of the set (backs included)

Every answer of the API is the snapshot (with ``error`` when a request was refused), so the page
always draws what the session says and never keeps a state of its own.
"""

from __future__ import annotations

import json
from collections.abc import Collection
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from boneyard.engine.agents import parse_spec
from boneyard.engine.spec import GameSpec
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from boneyard.errors import BoneyardError, excerpt

from .faces import Faces
from .session import PlayError, Session

STATIC = Path(__file__).with_name("static")


def create_app(session: Session, faces_root: Path | None = None,
               hosts: Collection[str] | None = None) -> Starlette:
    """The app serving ``session``; faces are painted into ``faces_root`` (default: temp).
    ``hosts``: the only names a request may address the server by (None: any), so a web page
    whose own name resolves to this computer (DNS rebinding) is refused."""
    faces: dict[str, Faces] = {}

    def current_faces() -> Faces | None:
        cs = session.card_set
        if cs is None:
            return None
        key = cs.content_hash
        if key not in faces:
            faces.clear()
            faces[key] = Faces(cs, faces_root)
        return faces[key]

    async def answer(error: str | None = None, status: int = 200) -> JSONResponse:
        # the session's work (agents thinking, faces painted) runs in threads, off the event loop
        body = await run_in_threadpool(session.snapshot)
        if error:
            body["error"] = error
        return JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})

    async def body_of(request: Request) -> dict[str, Any]:
        """The request's JSON object ({} for no body); _BadBody for one too big or not JSON."""
        size = request.headers.get("content-length", "")
        if size.isdigit() and int(size) > MAX_BODY:
            raise _BadBody(f"the request is {size} bytes, over the limit of {MAX_BODY}", 413)
        raw = b""
        try:
            async for chunk in request.stream():
                raw += chunk
                if len(raw) > MAX_BODY:
                    raise _BadBody(f"the request is over the limit of {MAX_BODY} bytes", 413)
        except ClientDisconnect:  # the page went away mid-request: nothing to do, no traceback
            raise _BadBody("the request was cut short", 400) from None
        if not raw.strip():
            return {}
        try:
            data = json.loads(raw)
        except RecursionError:
            raise _BadBody("the request's JSON is nested too deeply", 400) from None
        except ValueError:  # (UnicodeDecodeError is a ValueError)
            raise _BadBody("the request is not JSON", 400) from None
        if not isinstance(data, dict):
            raise _BadBody("the request must be a JSON object", 400)
        return data

    async def index(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-store"})

    async def state(request: Request) -> Response:
        return await answer()

    async def move(request: Request) -> Response:
        try:
            data = await body_of(request)
        except _BadBody as exc:
            return await answer(str(exc), exc.status)
        # "at" is required: without it two copies of one click (a double click, two pages, a
        # retry) would both be played, and a page of another position would move in this one
        i, at, deal = data.get("i"), data.get("at"), data.get("deal")
        if not _whole(i) or not _whole(at) or (deal is not None and not _whole(deal)):
            return await answer('a move is {"i": its index, "at": the table\'s "at", '
                                '"deal": the table\'s "deal"}, all whole numbers', 400)
        assert isinstance(i, int) and isinstance(at, int)  # (for mypy: _whole said so)
        try:
            await run_in_threadpool(session.play, i, at, deal)
        except PlayError as exc:
            return await answer(str(exc), 409)
        return await answer()

    async def undo(request: Request) -> Response:
        try:
            data = await body_of(request)
        except _BadBody as exc:
            return await answer(str(exc), exc.status)
        at, deal = data.get("at"), data.get("deal")
        if any(v is not None and not _whole(v) for v in (at, deal)):
            return await answer('a take-back is {"at": the table\'s "at", "deal": the table\'s '
                                '"deal"} (both optional), whole numbers', 400)
        try:
            await run_in_threadpool(session.take_back, at, deal)
        except PlayError as exc:
            return await answer(str(exc), 409)
        return await answer()

    async def new(request: Request) -> Response:
        try:
            data = await body_of(request)
        except _BadBody as exc:
            return await answer(str(exc), exc.status)
        changes: dict[str, Any] = {}
        problem = _new_game_changes(data, changes, session.spec)
        if problem is None:  # before the game in progress is thrown away
            players = changes.get("players", session.setup.players)
            if players is None and session.game is not None:
                players = session.num_players
            seat = changes.get("seat", session.setup.seat)
            if players is not None and seat >= players:
                problem = (f"seat must be from 0 to {players - 1} with {players} players (got "
                           f"{excerpt(seat)}"
                           f"{'' if 'seat' in changes else ', the seat of the last game'})")
        if problem:
            return await answer(problem, 400)
        if "options" in changes:  # the page sends the flags it shows; the rest stay as set
            changes["options"] = {**session.setup.options, **changes["options"]}
        await run_in_threadpool(lambda: session.new_game(**changes))
        return await answer()

    async def save(request: Request) -> Response:
        try:
            await run_in_threadpool(session.save)
        except (PlayError, OSError) as exc:
            return await answer(str(exc), 409)
        return await answer()

    async def card(request: Request) -> Response:
        f = current_faces()
        png = await run_in_threadpool(f.png, request.path_params["face"]) if f is not None else None
        if png is None:
            return Response("no such face", status_code=404, media_type="text/plain")
        return Response(png, media_type="image/png", headers={"Cache-Control": "max-age=3600"})

    routes = [
        Route("/", index),
        Route("/api/state", state),
        Route("/api/move", move, methods=["POST"]),
        Route("/api/undo", undo, methods=["POST"]),
        Route("/api/new", new, methods=["POST"]),
        Route("/api/save", save, methods=["POST"]),
        Route("/card/{face:str}.png", card),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    return Starlette(routes=routes, middleware=[Middleware(_SameSite, hosts=hosts)])


class _SameSite:
    """Refuses what another web site's page asks of the table: any page the player visits may
    POST here (a form or a text/plain fetch needs no permission), and would play, deal or
    append to the log file; and, with ``hosts``, a request by a name the server does not have."""

    def __init__(self, app: ASGIApp, hosts: Collection[str] | None = None) -> None:
        self.app = app
        self.hosts = None if hosts is None else {h.strip("[]").lower() for h in hosts}

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            problem = refusal(scope["method"], Headers(scope=scope), self.hosts)
            if problem:
                await Response(problem, status_code=403, media_type="text/plain")(scope, receive, send)
                return
        await self.app(scope, receive, send)


def refusal(method: str, headers: Headers, hosts: Collection[str] | None) -> str | None:
    """Why a request is refused as coming from another site (None: it is the table's own)."""
    host = headers.get("host", "")
    if hosts is not None and _hostname(f"//{host}") not in hosts:
        return f"this table is served as {', '.join(sorted(hosts))}, not '{excerpt(host)}'"
    if method in ("GET", "HEAD"):
        return None
    origin = headers.get("origin")
    if origin is not None:
        same = origin.lower() in (f"http://{host.lower()}", f"https://{host.lower()}")
    else:  # no Origin: trust the browser's own word where it gives one
        same = headers.get("sec-fetch-site", "same-origin") in ("same-origin", "none")
    return None if same else "refused: the request came from another web site's page"


def _hostname(url: str) -> str:
    try:
        return urlsplit(url).hostname or ""
    except ValueError:  # "[bad": not a name at all
        return ""


MAX_SEED = 2**53 - 1
"""The largest seed a new game takes from the page: its numbers are exact up to here, so the seed
it shows and sends back is the seed the game was dealt from (simulate's --seed starts at 0 too)."""

MAX_BODY = 64 * 1024
"""Bytes a request body may have: the page sends a few small fields, and a body is read whole."""


class _BadBody(Exception):
    """A request body the API refuses (too big, not a JSON object), with its HTTP status."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.status = status


_NEW_KEYS = ("players", "seed", "seat", "agents", "options")


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _new_game_changes(data: dict[str, Any], changes: dict[str, Any],
                      spec: GameSpec | None = None) -> str | None:
    """Fill ``changes`` (Setup fields) from a new-game request; the problem, if any (options are
    checked against ``spec``'s, the game the table plays, so a wrong one is not passed on)."""
    unknown = [k for k in data if k not in _NEW_KEYS]
    if unknown:
        return f"unknown key '{excerpt(unknown[0])}' in a new game (known: {', '.join(_NEW_KEYS)})"
    if data.get("players") is not None:
        if not _whole(data["players"]):
            return "players must be a whole number"
        if spec is not None and not spec.min_players <= data["players"] <= spec.max_players:
            return (f"players must be {spec.min_players}" if spec.min_players == spec.max_players
                    else f"players must be from {spec.min_players} to {spec.max_players}") \
                + f" in {spec.title} (got {excerpt(data['players'])})"
        changes["players"] = data["players"]
    if "seed" in data:
        seed = data["seed"]
        if seed is not None and not (_whole(seed) and 0 <= seed <= MAX_SEED):
            return (f"seed must be a whole number from 0 to {MAX_SEED} (or null for a fresh one), "
                    f"got {excerpt(json.dumps(seed))}")
        changes["seed"] = data["seed"]
    if data.get("seat") is not None:
        if not _whole(data["seat"]) or data["seat"] < 0:
            return "seat must be a seat number from 0"
        changes["seat"] = data["seat"]
    if data.get("agents") is not None:
        agents = data["agents"]
        if not isinstance(agents, list) or not agents or not all(isinstance(a, str) for a in agents):
            return "agents must be a list of agent names"
        try:
            for a in agents:
                parse_spec(a)
        except BoneyardError as exc:
            return str(exc)
        changes["agents"] = tuple(a.strip().lower() for a in agents)
    if data.get("options") is not None:
        if not isinstance(data["options"], dict):
            return "options must be an object"
        problem = _option_problem(data["options"], spec)
        if problem:
            return problem
        changes["options"] = dict(data["options"])
    return None


def _option_problem(options: dict[str, Any], spec: GameSpec | None) -> str | None:
    """What is wrong with a new game's engine options: a name the game does not have, a flag
    that is not true or false, a number out of its range (None keeps the set's own value)."""
    if spec is None:
        return None  # the set does not load: its problems are shown, the options not used
    own = {o.name: o for o in spec.options}
    for name, value in options.items():
        o = own.get(name)
        if o is None:
            known = ", ".join(own) or "none"
            return f"{spec.title} has no option '{excerpt(name)}' (its options: {known})"
        if value is None:
            continue
        if o.flag and not isinstance(value, bool):
            return f"option '{name}' must be true or false, got {excerpt(json.dumps(value))}"
        if not o.flag and not (_whole(value) and o.low <= value <= o.high):
            return (f"option '{name}' must be a whole number in {o.low}..{o.high}, got "
                    f"{excerpt(json.dumps(value))}")
    return None
