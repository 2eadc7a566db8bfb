"""What the shared code may know about a game: one :class:`GameSpec` per game folder.

The loader, the simulator, the playtest, the renderer and the CLI never test a game's name; they
ask the spec of the set's ``rules:`` (``boneyard.engine.games.spec_of``). A game is one folder
holding everything it owns (card model, checks, conversion, rules, observation, agents' settings,
metrics, faces, rules text, scenarios) and exposing it here, plus one line in the registry.

The spec is plain data and callables, so the engine side never imports the pipeline: a card
file reaches a game's checks as a :class:`LocatedDoc` (the pipeline's parsed YAML satisfies it)
and printed faces leave the game as :mod:`boneyard.engine.faces` values the renderer reads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from boneyard.errors import Problem

if TYPE_CHECKING:
    from boneyard.engine.agents.evaluators import SearchSettings
    from boneyard.engine.cards import CardSet
    from boneyard.engine.core import Agent, Game, State, Summary
    from boneyard.engine.faces import Deck, RulesRuns
    from boneyard.engine.sheet import SheetSpec
    from boneyard.engine.stats import Metric, Tally
    from boneyard.engine.table import TableView

JsonPath = tuple[str | int, ...]


class LocatedDoc(Protocol):
    """A parsed card file that knows where each value was written (file:line:column)."""

    file: str
    data: Any

    def where(self, path: JsonPath, *, key: bool = False) -> tuple[int, int]: ...

    def problem(self, path: JsonPath, message: str, *, card: str | None = None,
                hint: str | None = None, key: bool = False) -> Problem: ...


@dataclass(frozen=True)
class SetFiles:
    """One card set as read from its folder, schema-valid file by file, for a game's checks.

    ``extra`` holds the files named by the spec's ``extra_card_files`` keys (None when the key is
    absent or the file unreadable); ``complete`` is False when a card file could not be read, so
    that whole-deck counts are not reported on top of that file's own problem.
    """

    root: Path
    game: LocatedDoc
    docs: Sequence[LocatedDoc]
    extra: Mapping[str, LocatedDoc | None]
    complete: bool
    art_problem: Callable[[str], str | None]


@dataclass(frozen=True)
class Column:
    heading: str
    justify: str = "left"  # "left" | "right"
    no_wrap: bool = False


@dataclass(frozen=True)
class Table:
    """A listing as data (``boneyard validate``, ``boneyard cards``); the CLI draws it."""

    title: str
    columns: tuple[Column, ...]
    rows: tuple[tuple[str, ...], ...]
    total: tuple[str, ...] | None = None  # a last, bold row
    min_width: int | None = None


@dataclass(frozen=True)
class GameOption:
    """An engine option the CLI offers as ``--NAME`` (``--rares``), passed to ``make_game``."""

    name: str
    help: str
    flag: bool = False  # a switch without a value; else a whole number in ``low..high``
    low: int = 1
    high: int = 1


class Counter(Protocol):
    """A block's counts read straight from finished states, without a summary per game.

    Optional (``Metrics.counter``): its sums must be exactly those ``Metrics.tally`` gives over
    each game's summary; a game offers one when building the summary costs a good share of a
    game (a run that keeps no games needs only the counts).
    """

    def add(self, state: Any) -> tuple[int, Sequence[int], int]:
        """Count one finished game; (turn-1 first player, final scores, turns) for the shared
        figures."""
        ...

    def into(self, sums: dict[str, list[float]]) -> None:
        """Add the block's counts to a tally's sums."""
        ...


@dataclass(frozen=True)
class Metrics:
    """A game's own statistics: a per-game tally that merges exactly, read out as metrics."""

    tally: Callable[[Tally, Any, int], None]  # (tally, summary, players)
    metrics: Callable[[Tally, int], list[Metric]]  # (merged tally, players)
    counter: Callable[[Any], Counter] | None = None  # (game) -> a block's counter; see Counter
    # shared figures (engine/sim/tally.py) the game reports under its own name, so not twice
    replaces: tuple[str, ...] = ()


@dataclass(frozen=True)
class GameSpec:
    """Everything the shared layers need from one game (see the module docstring)."""

    name: str  # the ``rules:`` value in game.yaml
    title: str  # as printed ("Grave Feast")
    min_players: int
    max_players: int
    card_schema: str  # stem of <schema_dir>/<card_schema>.schema.json, for every card file
    settings_defs: str  # game.schema.json $defs "<x>_params" and "<x>_switches" hold the defaults
    game_schema: Path  # this game's part of game.yaml's schema (pipeline/schemas.py composes it)
    check: Callable[[SetFiles], list[Problem]]  # what a schema cannot say
    build: Callable[[SetFiles, dict[str, Any]], CardSet]  # valid files -> card model (no hash)
    make_game: Callable[..., Game]  # (card_set, num_players=None, **options)
    greedy: Callable[[Game], Agent]
    search: SearchSettings
    metrics: Callable[[], Metrics]  # imported on first use: listing a set never pays for it
    deck: Callable[[CardSet, RulesRuns | None], Deck]  # printed faces, in print order
    rules_text: Callable[[CardSet], dict[str, str]]  # card id -> printed rules text
    set_tables: Callable[[CardSet], list[Table]]  # what ``validate`` prints of a valid set
    cards_table: Callable[[CardSet, str | None], Table]  # ``cards [--back B]``
    cards_json: Callable[[CardSet, str | None], dict[str, Any]]  # ``cards --json`` entries
    card_groups: Callable[[CardSet], tuple[str, ...]] = lambda cs: ()  # ``--back`` values
    extra_card_files: tuple[str, ...] = ()  # game.yaml keys naming one more card file each
    schema_dir: Path | None = None  # where the card schema lives (None: the project's schema/)
    options: tuple[GameOption, ...] = ()
    bundled_set: str = ""  # the bundled set: default template and scenario cards of this game
    scenario_cards_key: str = ""  # scenario files invent cards of card_schema under this key
    scenario: Callable[[Mapping[str, Any], CardSet | None, str], ScenarioResult] | None = None
    scenario_help: str = ""  # where the scenario format and the rulings are documented
    units: Callable[[CardSet], list[tuple[str, str]]] = lambda cs: []  # (id, name) gated one by one
    stand_in: Callable[[CardSet, str, Mapping[str, Any]], CardSet] | None = None
    # change-aware builds: each unit's content by id (compared to find the changed cards), and
    # the set with one unit put back as another version of the set has it (None: not paired)
    unit_content: Callable[[CardSet], Mapping[str, Any]] = lambda cs: {}
    swap_unit: Callable[[CardSet, str, CardSet], CardSet] | None = None
    docs: Callable[[CardSet], dict[str, str]] | None = None  # docs/ files about a set
    effect_words: tuple[str, ...] = ()  # effect primitives, named in validation hints
    summary_from_json: Callable[[Mapping[str, Any]], Summary] | None = None  # a logged summary
    gate: Callable[[Game], Agent] | None = None  # the fast skilled player ``gate`` (None: greedy)
    gate_fast: Callable[[Game], Agent] | None = None  # ``gate:fast``, a cheaper gate (None: ``gate``)
    # the gate agent's figures against a strong reference, as the benches measured them on the
    # bundled set (a JSON in the game's folder, written by their --save; pipeline/reference.py)
    agent_reference: Path | None = None
    # ``simulate --check``: what is wrong with a state (cards conserved, scores in bounds...),
    # [] when sound; run on every state of every game, so it reads public fields only
    invariants: Callable[[State], list[str]] | None = None
    # ``boneyard play``: the web table's view of a seat (engine/table.py), imported on first use;
    # None: the game cannot be played by hand
    table: Callable[[], TableView] | None = None
    # ``boneyard export``/``import``: the set's cards as spreadsheet columns (None: not offered)
    sheet: Callable[[], SheetSpec] | None = None
    # coverage gates (docs/playtest.md): everything the game counts, as (item, what it is, a hint
    # to make it happen, whether this game made by make_game can apply it), item
    # "primitive.<name>" or "ability.<name>"; the playtest counts each in the metric
    # "fired.<item>". None: the game has no coverage gates
    coverage: Callable[[Game], list[tuple[str, str, str, bool]]] | None = None
    # sensitivity gates (docs/playtest.md): the set with one copy more or fewer of each card kind,
    # as (key, what changed, the varied set); None: the game has no per-kind sensitivity
    variants: Callable[[CardSet], list[tuple[str, str, CardSet]]] | None = None


ScenarioResult = tuple[dict[str, Any], list[str]]
"""The position reached as JSON, and the expectations that failed (``file: expect ...``)."""
