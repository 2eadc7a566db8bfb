"""Coverage gates (issue 13.6): what the playtest never saw happen was never tested.

Every effect primitive the set's cards use and every rules ability the set's rules leave on
(the game's ``GameSpec.coverage``: Day of the Dead's Dig, Unearth, conversion, Double and Power
Up spirits...; Grave Feast's steals, preacher chains, recycling, each rare's abilities, coin
flips...; and what a switch reading away from the default makes happen, asked for only under that
reading: Grave Feast's second eater under ``max_eaters_per_family: 4``...) must fire at least ``min`` times in each playtest run where it can happen, else the
build fails with ``never tested: <item> (fired 0 times in N games; how to fix)``. The counts are
the engines' metrics ``fired.<item>`` (exact counts); the gates made here are ordinary gates
(``min`` on those metrics, one per run), so the record judges them like any other and a saved
record re-judges them from its own metrics. game.yaml::

    playtest:
      coverage:
        min: 5                 # times each must fire in each run (default 1; 0: no coverage gates)
        why: ...
        exempt:                # not required: kept as a gate that always passes, with its reason
          explosion: the bots never ...            # under every agent
          dw_placed: {why: ..., agents: [greedy]}  # only when every seat plays one of these
      profiles:
        fast: {coverage: {min: 1}}

An ability the set's switches or params leave impossible (rares off, ``coin_p_heads: 1``) is
not asked for at all; a card kind the game's own deck has and the set lacks is the game's call
(Grave Feast asks for its first ability, so the missing kind is named). ``python -m boneyard.pipeline.coverage_counts SET``
prints the counts against the bounds.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Mapping
from typing import Any

from boneyard.engine.cards import CardSet
from boneyard.engine.games import make_game, spec_of
from boneyard.pipeline.gates import Gate
from boneyard.pipeline.playtest_config import PlaytestConfig
from boneyard.pipeline.sensitivity import section, sensitivity_gates

from boneyard.errors import GateError

DEFAULT_MIN = 1  # without a coverage section: each item must fire at least once
DEFAULT_WHY = ("a rule or effect the playtest never applies is untested: nothing the gates say "
               "covers it")
PREFIX = "fired."
TESTED = "coverage: "  # how a coverage gate's why begins (never_tested finds them by it)
EXEMPT = "coverage, exempt: "  # ... and an exempt item's (a gate that always passes)


@dataclasses.dataclass(frozen=True, slots=True)
class Item:
    """One thing a run must see happen."""

    name: str  # "primitive.dig", "ability.conversion"
    what: str
    hint: str
    on: bool  # the run's rules, deck and switches let it happen

    @property
    def short(self) -> str:
        return self.name.split(".", 1)[1]


def run_items(card_set: CardSet, cfg: PlaytestConfig) -> dict[str, list[Item]]:
    """Per run label, everything the game counts, each saying whether it can happen in that run
    (the game's own list; {} without one)."""
    spec = spec_of(card_set.rules)
    if spec.coverage is None:
        return {}
    out = {}
    for run in cfg.runs:
        game = make_game(card_set, run.players, **dict(run.options))
        out[run.label] = [Item(*x) for x in spec.coverage(game)]
    return out


def _agents(cfg: PlaytestConfig) -> set[str]:
    return {cfg.agents} if isinstance(cfg.agents, str) else set(cfg.agents)


def coverage_gates(card_set: CardSet, cfg: PlaytestConfig, where: str = "playtest") -> list[Gate]:
    """One ``min`` gate per run and required item; GateError for a bad ``coverage`` section
    (``where``: how messages name the playtest section, ``<set>/game.yaml: playtest``)."""
    where = f"{where}.coverage"
    raw = section(card_set, "coverage", cfg.profile)
    problems: list[str] = []
    unknown = set(raw) - {"min", "why", "exempt"}
    if unknown:
        problems.append(f"{where}: unknown key {', '.join(sorted(unknown))} (known: min, why, exempt)")
    n = raw.get("min", DEFAULT_MIN)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        problems.append(f"{where}.min: expected a whole number >= 0 (0: no coverage gates), got {n!r}")
    why = raw.get("why", DEFAULT_WHY)
    exempt = raw.get("exempt") or {}
    if not isinstance(exempt, Mapping):
        problems.append(f"{where}.exempt: expected 'item: reason' pairs")
        exempt = {}
    per_run = run_items(card_set, cfg)
    known = {i.name: i for items in per_run.values() for i in items}  # on or off: a name, not a typo
    short = {i.short: i.name for i in known.values()}
    agents = _agents(cfg)
    skip: dict[str, str] = {}
    for key, value in exempt.items():
        name = key if key in known else short.get(str(key))
        if name is None:
            choices = ", ".join(sorted(short)) or "none"
            near = difflib.get_close_matches(str(key), sorted(short), n=1, cutoff=0.6)
            meant = f"did you mean '{near[0]}'? " if near else ""
            problems.append(f"{where}.exempt.{key}: the game counts nothing of that name "
                            f"({meant}known: {choices})")
            continue
        reason, only = (value, None) if isinstance(value, str) else \
            (value.get("why"), value.get("agents")) if isinstance(value, Mapping) else (None, None)
        if not isinstance(reason, str) or not reason.strip():
            problems.append(f"{where}.exempt.{key}: give the reason it need not be tested "
                            "(a sentence, or {why: ..., agents: [...]})")
            continue
        if only is not None and not (isinstance(only, list) and all(isinstance(a, str) for a in only)):
            problems.append(f"{where}.exempt.{key}.agents: expected a list of agent specs")
            continue
        if only is None or agents <= set(only):
            skip[name] = reason.strip()
    if problems:
        raise GateError("\n".join(problems))
    if n == 0:
        return []
    gates = []
    for label, items in per_run.items():
        for item in items:
            if not item.on:
                continue
            if item.name in skip:  # shown, never failed: the report lists it with its reason
                gates.append(Gate(PREFIX + item.name, min=0.0, run=label, count=True,
                                  why=f"{EXEMPT}{item.what}: {skip[item.name]}"))
                continue
            gates.append(Gate(PREFIX + item.name, min=float(n), run=label, count=True,
                              why=f"{TESTED}{item.what} must happen at least {n} times: {why}; "
                                  f"to test it, {item.hint} (or exempt it under playtest.coverage.exempt "
                                  "with the reason)"))
    return gates


def with_checks(card_set: CardSet, cfg: PlaytestConfig, where: str = "playtest") -> PlaytestConfig:
    """``cfg`` with the coverage and sensitivity gates added (the build's one call)."""
    extra = coverage_gates(card_set, cfg, where) + sensitivity_gates(card_set, cfg, where)
    return dataclasses.replace(cfg, gates=tuple(cfg.gates) + tuple(extra),
                               derived_gates=cfg.derived_gates + len(extra)) if extra else cfg


def never_tested(record: Mapping[str, Any]) -> list[str]:
    """One line per failed coverage gate of a playtest record, as the build prints them."""
    games = {r["label"]: r["games"] for r in record.get("runs", [])}
    out = []
    for g in record.get("gates", []):
        gate, metric = g["gate"], g.get("metric") or {}
        if g["status"] not in ("fail", "missing") or not str(gate.get("why", "")).startswith(TESTED):
            continue
        item = gate["metric"][len(PREFIX):]
        fired = int(metric.get("value") or 0)
        hint = gate["why"].split("; to test it, ", 1)[-1]
        run = g["run"]
        out.append(f"never tested: {item} (fired {fired} times in {games.get(run, 0):,} games of run "
                   f"'{run}', fewer than {gate['min']:.0f}; to test it, {hint})")
    return out

