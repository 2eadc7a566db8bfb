"""One game at the play table: a human in one seat, agents in the others, the rules enforcing.

The session holds the only full State; what leaves it (:meth:`Session.snapshot`) is built from
the human's observation through the game's table view (``GameSpec.table``, engine/table.py):
their table, their legal moves as indices with labels, and the transcript lines they may read.
Nothing else of the state reaches the page, not even the seed (it fixes every shuffle) until the
game is over.

A game is its seed and its actions, as in ``simulate --log``: taking a move back plays the game
again from the seed without the human's last move and what followed, and a saved game is a log
line ``boneyard replay`` checks and prints. Each new game loads the set again, so the table plays
what the designer's files say now; a validation problem is shown instead of a game, located.
"""

from __future__ import annotations

import json
import random
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import click
from boneyard.engine.agents import make_agent
from boneyard.engine.cards import CardSet
from boneyard.engine.core import Agent, Game, State
from boneyard.engine.games import spec_of
from boneyard.engine.sim.play import MAX_ACTIONS, make_record
from boneyard.engine.sim.replay import HUMAN
from boneyard.engine.sim.seeds import agent_seed
from boneyard.engine.spec import GameSpec
from boneyard.engine.table import TableView
from boneyard.pipeline.cmd_sim import apply_switches, check_players, chosen_options
from boneyard.pipeline.load import check_set

from boneyard.errors import BoneyardError, excerpt
from boneyard.files import write_atomic

from .reasons import choose_with_reason


class PlayError(BoneyardError):
    """A request the table cannot carry out (a move out of turn, nothing to take back)."""


@dataclass(frozen=True)
class Setup:
    """How games at this table are set up; the page's "new game" changes a copy of it."""

    set_ref: str  # a bundled set's name or a set folder
    players: int | None = None  # None: the game's default
    agents: tuple[str, ...] = ("greedy",)  # the other seats in order, the last one repeated
    seed: int | None = None  # None: a fresh seed each game
    seat: int = 0  # the human's seat
    options: Mapping[str, Any] = field(default_factory=dict)  # engine options (--rares)
    switches: tuple[str, ...] = ()  # NAME=VALUE over game.yaml's (--switch)
    log_path: str | None = None  # where saved games go (default output/<set>/play.log.jsonl)
    scenario: str | None = None  # a scenario file: the games start from its position


def check_setup(setup: Setup) -> None:
    """Refuse, as a usage error (exit 2), arguments no game at the table could be dealt with: a
    player count out of the game's range, another game's option or switch, a scenario that does
    not start on this set. They are said on the command line before the server starts, not as
    "the set does not load" in the page. A set that does not load is left to the page, which
    shows its problems and deals again once its files are fixed."""
    checked = check_set(setup.set_ref)
    if checked.card_set is None or not checked.ok:
        return
    card_set = apply_switches(checked.card_set, setup.switches)  # a wrong one: click.UsageError
    chosen_options(card_set, dict(setup.options))
    spec = spec_of(card_set.rules)
    check_players(card_set, setup.players)
    if setup.scenario and spec.table is not None:
        from .scenario import scenario_start

        try:
            scenario_start(setup.scenario, card_set, spec, spec.table())
        except BoneyardError as exc:
            lines = str(exc).splitlines() or [type(exc).__name__]
            raise click.UsageError(f"--scenario {setup.scenario}: not a position this table can "
                                   f"start from:\n  " + "\n  ".join(lines)) from None


@dataclass
class _Move:
    seat: int
    action: int
    reason: str | None = None  # an agent's, kept so a replay after a take-back shows it again


class Session:
    """The table's one game; every public method is safe to call from several threads."""

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.lock = threading.RLock()
        self.problems: list[str] = []
        self.card_set: CardSet | None = None
        self.spec: GameSpec | None = None
        self.table: TableView | None = None
        self.game: Game | None = None
        self.state: State | None = None
        self.seed = 0
        self.moves: list[_Move] = []
        self.lines: list[str] = []
        self.reasons: dict[int, str] = {}  # transcript line -> the agent's reason, shown once over
        self.seen = 0  # moves the human saw made: the page's "at" (hidden passes not counted)
        self.deal = 0  # games dealt at this table: the page's "deal", so a page of an earlier
        # game cannot move in this one when its "at" happens to match
        self._published: dict[str, Any] | None = None  # the last snapshot, for while agents think
        self.saved: str | None = None
        self.start: State | None = None  # the scenario's position (None: a deal from the seed)
        self._seen_events = -1
        self._turn = ""
        self.new_game()

    # --- games ----------------------------------------------------------------------------------

    def new_game(self, **changes: Any) -> None:
        """Load the set as its files are now and deal a new game (``changes``: Setup fields)."""
        with self.lock:
            if changes:
                self.setup = replace(self.setup, **changes)
            self.problems = []
            self.state = None
            self.saved = None
            self.deal += 1
            try:
                self._load()
            except BoneyardError as exc:
                self.problems = str(exc).splitlines() or [type(exc).__name__]
                return
            seed = self.setup.seed
            self.seed = seed if seed is not None else random.SystemRandom().randrange(1 << 31)
            self._replay([])

    def _load(self) -> None:
        checked = check_set(self.setup.set_ref)
        if not checked.ok:
            self.problems = [str(p) for p in checked.problems]
            raise BoneyardError("\n".join(self.problems))
        assert checked.card_set is not None
        try:
            card_set = apply_switches(checked.card_set, self.setup.switches)
        except click.UsageError as exc:
            raise BoneyardError(exc.format_message()) from None
        spec = spec_of(card_set.rules)
        if spec.table is None:
            raise BoneyardError(f"{spec.title} has no play table (its GameSpec.table is not set)")
        own = {o.name for o in spec.options}
        options = {k: v for k, v in self.setup.options.items() if k in own and v is not None}
        table = spec.table()
        self.start = None
        if self.setup.scenario:
            from .scenario import scenario_start

            self.start = scenario_start(self.setup.scenario, card_set, spec, table)
            game = self._game_of(self.start)
        else:
            game = spec.make_game(card_set, self.setup.players, **options)
        if not 0 <= self.setup.seat < game.num_players:
            raise BoneyardError(f"seat {self.setup.seat + 1} is not one of the "
                                f"{game.num_players} seats")
        engine: Any = game  # record_events is an engine's own switch (replays set it too)
        if hasattr(engine, "record_events"):
            engine.record_events = True
        self.card_set, self.spec, self.table, self.game = card_set, spec, table, game
        self.options = options
        self.agents = [self._agent_spec(p) for p in range(game.num_players)]

    @staticmethod
    def _game_of(state: State) -> Game:
        """The Game a scenario's state was built on (the engines keep it as ``g``)."""
        game: Any = getattr(state, "g", None)
        if game is None or not hasattr(game, "num_players"):
            raise BoneyardError("this game's scenario positions cannot be played at the table")
        return game  # type: ignore[no-any-return]

    def _agent_spec(self, seat: int) -> str:
        if seat == self.setup.seat:
            return HUMAN
        others = [p for p in range(self.num_players) if p != self.setup.seat]
        k = others.index(seat)
        agents = self.setup.agents or ("greedy",)
        return agents[min(k, len(agents) - 1)]

    @property
    def num_players(self) -> int:
        assert self.game is not None
        return self.game.num_players

    def _replay(self, moves: Sequence[_Move]) -> None:
        """The game from its seed through ``moves``, then the agents to the human's turn."""
        assert self.game is not None and self.table is not None
        game = self.game
        self.moves = []
        self.lines = []
        self.reasons = {}
        self.seen = 0
        self._seen_events = -1
        if self.start is not None:
            self.state = self.start.clone()
            self.lines.append(f"from the scenario {self.setup.scenario}")
            self._seen_events = self.table.events(self.state.observation(self.setup.seat), 0)[1]
        else:
            self.state = game.new_initial_state(self.seed)
        self._turn = ""
        self._bots: dict[int, Agent] = {}
        self._rngs: dict[int, random.Random] = {}
        for p in range(game.num_players):
            if p != self.setup.seat:
                self._bots[p] = make_agent(self.agents[p], game)
                self._rngs[p] = random.Random(agent_seed(self.seed, p))
        self._note_events()
        for m in moves:
            self._apply(m.seat, m.action, m.reason)
        self._published = self._snapshot()
        self._advance()

    def _apply(self, seat: int, action: int, reason: str | None) -> None:
        assert self.state is not None and self.table is not None
        me = self.setup.seat
        before = self.state.clone()
        self.state.apply_action(action)
        self.moves.append(_Move(seat, action, reason))
        self._header(before)
        line = self.table.move_line(before.observation(me), self.state.observation(me), seat,
                                    action)
        if seat == me or line is not None:  # an agent's unseen pass would show it could act
            self.seen += 1
        if line is None:  # a move this seat does not see
            self._note_events()
            return
        who = "you" if seat == me else self.agents[seat]
        head = f"player {seat + 1}"
        if line.startswith(head):
            line = f"{head} ({who}){line[len(head):]}"
        if reason:  # read off the agent's own hand (how many moves it had, how sure it is)
            self.reasons[len(self.lines)] = reason
        self.lines.append(line)
        self._note_events()

    def _header(self, state: State) -> None:
        assert self.table is not None
        view = self.table.view(state.observation(self.setup.seat))
        turn = view.get("turn", "")
        if turn and turn != self._turn:
            scores = ", ".join(str(s) for s in view.get("scores", []))
            self.lines.append(f"-- {turn} (scores {scores}) --")
            self._turn = turn

    def _note_events(self) -> None:
        assert self.state is not None and self.table is not None
        new, self._seen_events = self.table.events(self.state.observation(self.setup.seat),
                                                   self._seen_events)
        self.lines.extend(f"      {e}" for e in new)

    def _advance(self) -> None:
        """Let the agents move until it is the human's turn or the game is over."""
        state = self.state
        assert state is not None
        me = self.setup.seat
        while not state.is_terminal() and state.current_player() != me:
            if len(self.moves) >= MAX_ACTIONS:
                raise PlayError(f"the game did not end after {MAX_ACTIONS} actions (an engine fault)")
            p = state.current_player()
            action, reason = choose_with_reason(self._bots[p], state.observation(p), self._rngs[p])
            self._apply(p, action, reason)

    # --- the human's requests -------------------------------------------------------------------

    def play(self, index: int, at: int | None = None, deal: int | None = None) -> None:
        """Make the human's legal move number ``index`` (as listed in the snapshot); ``at`` is
        the move count the page saw and ``deal`` its game, so a second click on a stale page
        (or the same move sent twice at once) does nothing."""
        with self.lock:
            state = self._playing()
            self._fresh(at, deal)
            if state.is_terminal():
                raise PlayError("the game is over: start a new game to play again")
            if state.current_player() != self.setup.seat:
                raise PlayError("it is not your turn")
            legal = state.observation(self.setup.seat).legal_actions()
            if not 0 <= index < len(legal):
                raise PlayError(f"there is no move {excerpt(index)} (choose 0..{len(legal) - 1})")
            self.saved = None
            self._apply(self.setup.seat, legal[index], None)
            self._published = self._snapshot()
            self._advance()

    def take_back(self, at: int | None = None, deal: int | None = None) -> None:
        """Undo the human's last move and every agent move after it (``at``, ``deal``: as for
        :meth:`play`, so a double click takes back one move, not two)."""
        with self.lock:
            self._playing()
            self._fresh(at, deal)
            mine = [k for k, m in enumerate(self.moves) if m.seat == self.setup.seat]
            if not mine:
                raise PlayError("you have made no move to take back")
            self.saved = None
            self._replay(self.moves[:mine[-1]])

    def _fresh(self, at: int | None, deal: int | None) -> None:
        """PlayError if the page that sent a request showed another table than this one."""
        if deal is not None and deal != self.deal:
            raise PlayError("that page shows an earlier game: look again")
        if at is not None and at != self.seen:
            raise PlayError("the table changed since that page was drawn: look again")

    def _playing(self) -> State:
        if self.state is None:
            raise PlayError("no game is being played: " + "; ".join(self.problems))
        return self.state

    def record(self) -> dict[str, Any]:
        """The game as one ``simulate --log`` line (``boneyard replay`` reads it)."""
        with self.lock:
            state = self._playing()
            if not state.is_terminal():
                raise PlayError("finish the game first: boneyard replay checks how it ended")
            if self.start is not None:
                raise PlayError("a game from a scenario cannot be saved for boneyard replay: "
                                "it starts from the scenario's position, not from a deal")
            assert self.game is not None
            texts = self._texts()
            return make_record(self.game, self._next_index(), self.seed, self.agents, state,
                               [m.action for m in self.moves], texts, self.options)

    def _texts(self) -> list[str]:
        """Every action's readable form, as simulate logs it (the full state's words: the log
        is written to a file, never sent to the page)."""
        assert self.game is not None
        s = self.game.new_initial_state(self.seed)
        out = []
        for m in self.moves:
            out.append(s.action_to_string(m.action))
            s.apply_action(m.action)
        return out

    def log_file(self) -> Path:
        if self.setup.log_path:
            return Path(self.setup.log_path)
        from boneyard.paths import OUTPUT

        assert self.card_set is not None
        return OUTPUT / self.card_set.slug / "play.log.jsonl"

    def _next_index(self) -> int:
        return sum(1 for line in self._old_log().splitlines() if line.strip())

    def _old_log(self) -> str:
        """The log file's text so far ("" if none); PlayError if it cannot be appended to."""
        path = self.log_file()
        if not path.is_file():
            return ""
        try:
            return path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise PlayError(f"{path}: the log file is not UTF-8 text, so the game is not added "
                            "to it (move it away, or choose another file with --log)") from None

    def save(self) -> str:
        """Append the finished game to the log file; returns what to type to replay it."""
        with self.lock:
            if self.saved is not None:  # a second click, or two pages: one line a game
                raise PlayError(f"this game is saved already: {self.saved}")
            rec = self.record()
            path = self.log_file()
            old = self._old_log()
            if old and not old.endswith("\n"):
                old += "\n"
            path.parent.mkdir(parents=True, exist_ok=True)
            write_atomic(path, old + json.dumps(rec) + "\n")
            self.saved = f"boneyard replay {path} --game {rec['game']}"
            return self.saved

    # --- what the page sees ---------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The human's view of the table, as the page draws it (see the module docstring).

        While an agent thinks (mcts with a big budget: seconds, minutes at a table of seven) it
        holds the lock, and the page's request for the table waited as long; it gets the table
        as it was when the agents began, which says who is choosing."""
        if not self.lock.acquire(blocking=False):
            published = self._published
            if published is not None:
                return published
            self.lock.acquire()
        try:
            self._published = self._snapshot()
            return self._published
        finally:
            self.lock.release()

    def _snapshot(self) -> dict[str, Any]:
        with self.lock:
            out: dict[str, Any] = {"setup": self._setup_json()}
            state = self.state
            if state is None or self.table is None or self.spec is None:
                out["problems"] = self.problems
                return out
            me = self.setup.seat
            obs = state.observation(me)
            view = self.table.view(obs)
            over = state.is_terminal()
            mover = -1 if over else state.current_player()
            moves = self.table.moves(obs) if mover == me else []
            for i, m in enumerate(moves):
                m["i"] = i
            # who is choosing, as the human may be told (None: a seat asked only if it can answer)
            shown = mover if mover in (-1, me) else self.table.mover(obs, mover)
            seats = []
            for p in range(self.num_players):
                seats.append({"seat": p, "name": "You" if p == me else self.agents[p],
                              "score": view["scores"][p], "marks": view["marks"][p],
                              "to_move": p == shown})
            if over:
                r = state.returns()
                best = max(r)
                won = [p for p in range(len(r)) if r[p] == best]
                who = " and ".join("you" if p == me else f"player {p + 1}" for p in won)
                if len(won) > 1:
                    status = f"Game over: a draw between {who}"
                else:
                    status = f"Game over: {who} {'win' if won == [me] else 'wins'}"
            elif mover == me:
                status = view["status"] or "Your move"
            elif shown is None:
                status = "The other players are choosing"
            else:
                status = f"Player {shown + 1} ({self.agents[shown]}) is choosing"
            out.update({
                "game": self.spec.title, "set": self.card_set.name if self.card_set else "",
                "seat": me, "seats": seats, "status": status, "turn": view["turn"],
                "areas": view["areas"], "panels": view["panels"], "moves": moves,
                "at": self.seen, "deal": self.deal, "transcript": self.transcript(over), "over": over,
                "can_take_back": any(m.seat == me for m in self.moves),
                "can_save": over and self.start is None, "saved": self.saved,
                "seed": self.seed if over else None,
            })
            return out

    def transcript(self, over: bool) -> list[str]:
        """The transcript lines; the agents' reasons only once the game is over. A reason comes
        from the agent's hidden hand (random's "one of 7 moves" says it holds a family start and
        a succubus; mcts's share of the win how good its cards are), so during the game it would
        tell the human what they may not see, as the seed would."""
        if not over:
            return list(self.lines)
        return [line + (f"  [{self.reasons[i]}]" if i in self.reasons else "")
                for i, line in enumerate(self.lines)]

    def _setup_json(self) -> dict[str, Any]:
        spec = self.spec
        options = []
        if spec is not None:
            for o in spec.options:
                default = self.card_set.params.get(o.name) if self.card_set else None
                options.append({"name": o.name, "help": o.help, "flag": o.flag,
                                "value": self.setup.options.get(o.name, default)})
        return {
            "set": self.setup.set_ref,
            "players": self.num_players if self.game is not None else self.setup.players,
            "min_players": spec.min_players if spec else 2,
            "max_players": spec.max_players if spec else 2,
            "agents": list(self.setup.agents), "seat": self.setup.seat,
            "fixed_seed": self.setup.seed, "options": options,
            "switches": dict(self.card_set.switches) if self.card_set else {},
        }
