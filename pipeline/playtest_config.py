"""The ``playtest:`` section of a set's game.yaml, resolved into one plain settings object.

The section says how a build playtests the set: which agents, how many games, which player
counts (runs), the seed, the precision target and cap, paired-seed substitution and agent-strength
sample sizes, named profiles (``fast`` for CI) that override any of these, and the gates. The JSON
Schema checks the shape; this module checks what a schema cannot (a profile that exists, a run
label used by a gate) and merges profile and command-line overrides in one place.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from boneyard.pipeline.gates import Gate, parse_gates

from boneyard.errors import GateError

DEFAULTS: dict[str, Any] = {
    "agents": "greedy",
    "games": 2000,
    "seed": 1,
    "cap": 20000,
    "precision": None,
    "alpha": 0.05,
    "jobs": 1,
    "substitution": {"games": 150, "stand_in": {}},
    "change": {"games": 400},
    "strength": {"games": 200},
}


@dataclass(frozen=True, slots=True)
class Run:
    """One configuration to simulate: a player count and engine options."""

    label: str
    players: int | None
    options: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"label": self.label, "players": self.players, "options": dict(self.options)}


@dataclass(frozen=True, slots=True)
class PlaytestConfig:
    """Everything a build needs to playtest a set, after profile and overrides."""

    agents: tuple[str, ...] | str
    games: int
    seed: int
    cap: int
    precision: float | None
    runs: tuple[Run, ...]
    gates: tuple[Gate, ...]
    substitution_games: int
    stand_in: Mapping[str, Any]
    substitution_cards: tuple[str, ...] | None
    strength_games: int
    profile: str
    jobs: int = 1
    scheduler: str | None = None  # a Dask cluster's address; like jobs, never changes the record
    strength_rivals: tuple[str, ...] = ()
    strength_rival_games: int = 0
    alpha: float = 0.05
    substitution_cap: int = 0  # most paired games per card (0: the first look only)
    change_games: int = 400  # main games at the first look of a change-aware build
    # the last gates, derived from the set's content by pipeline/coverage.py (coverage and
    # sensitivity): the settings a last pass must share leave them out (declared_hash)
    derived_gates: int = 0

    def main_looks(self, change: bool = False) -> list[int]:
        """Cumulative main games at each planned look (from scratch, or change-aware)."""
        from boneyard.pipeline.gates import look_sizes

        first = min(self.change_games, self.cap) if change else self.games
        return look_sizes(first, self.cap)

    def sub_looks(self) -> list[int]:
        """Cumulative paired games per card at each planned look."""
        from boneyard.pipeline.gates import look_sizes

        return look_sizes(self.substitution_games, max(self.substitution_cap, self.substitution_games))

    def looks(self, change: bool = False) -> int:
        """The planned looks every interval is corrected for (the longest schedule)."""
        return max(len(self.main_looks(change)), len(self.sub_looks()))

    def agent_specs(self, players: int) -> list[str]:
        if isinstance(self.agents, str):
            return [self.agents] * players
        if len(self.agents) != players:
            return [self.agents[i % len(self.agents)] for i in range(players)]
        return list(self.agents)

    def to_json(self) -> dict[str, Any]:
        return {
            "profile": self.profile,
            "agents": self.agents if isinstance(self.agents, str) else list(self.agents),
            "games": self.games,
            "seed": self.seed,
            "cap": self.cap,
            "precision": self.precision,
            "runs": [r.to_json() for r in self.runs],
            "alpha": self.alpha,
            "substitution": {"games": self.substitution_games, "stand_in": dict(self.stand_in),
                             **({"cap": self.substitution_cap} if self.substitution_cap else {}),
                             **({"cards": list(self.substitution_cards)} if self.substitution_cards else {})},
            "change": {"games": self.change_games},
            "strength": {"games": self.strength_games,
                         **({"rivals": list(self.strength_rivals), "rival_games": self.strength_rival_games}
                            if self.strength_rivals else {})},
            "gates": [g.to_json() for g in self.gates],
        }


def _merge(base: dict[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(base)
    for k, v in over.items():
        if isinstance(v, Mapping) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = copy.deepcopy(v)
    return out


def _plain(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def resolve(
    section: Mapping[str, Any] | None,
    *,
    default_players: int | None,
    profile: str = "default",
    overrides: Mapping[str, Any] | None = None,
    where: str = "game.yaml: playtest",
) -> PlaytestConfig:
    """The playtest settings for ``profile`` (``default`` or a name under ``profiles:``)."""
    raw = _plain(section or {})
    profiles = raw.pop("profiles", {}) or {}
    cfg = _merge(DEFAULTS, raw)
    if profile != "default":
        if profile not in profiles:
            known = ", ".join(sorted(profiles)) or "none"
            hint = ", or build without --fast" if profile == "fast" else ""
            raise GateError(f"{where}: no profile '{profile}' (profiles: {known}); add it under "
                            f"playtest.profiles{hint}")
        cfg = _merge(cfg, profiles[profile])
    problems: list[str] = []
    written = {**raw, **(profiles.get(profile) or {} if profile != "default" else {})}
    if "cap" in written and all(isinstance(cfg.get(k), int) and not isinstance(cfg.get(k), bool)
                                for k in ("cap", "games")) and cfg["cap"] < cfg["games"]:
        own = profile != "default" and "cap" in (profiles.get(profile) or {})
        at = f"{where}.profiles.{profile}.cap" if own else f"{where}.cap"  # the line _located finds
        problems.append(f"{at}: {cfg['cap']} is below games ({cfg['games']})"
                        f"{'' if profile == 'default' else ' in profile ' + repr(profile)}, the first look; "
                        "the cap is the last look's size (raise it to at least games)")
    if overrides:
        cfg = _merge(cfg, {k: v for k, v in overrides.items() if v is not None})

    for key in ("games", "cap", "seed"):
        if not isinstance(cfg.get(key), int) or isinstance(cfg.get(key), bool) or cfg[key] < 0:
            problems.append(f"{where}.{key}: expected a whole number >= 0, got {cfg.get(key)!r}")
    if not problems and cfg["games"] < 1:
        problems.append(f"{where}.games: at least 1 game is needed")
    prec = cfg.get("precision")
    if prec is not None and (not isinstance(prec, (int, float)) or not 0 < prec < 2):
        problems.append(f"{where}.precision: expected an interval width like 0.02, got {prec!r}")
    agents = cfg.get("agents")
    if not (isinstance(agents, str) or (isinstance(agents, list) and agents and all(isinstance(a, str) for a in agents))):
        problems.append(f"{where}.agents: expected an agent spec ('greedy', 'mcts:200') or a list of them")

    runs_raw = cfg.get("runs")
    runs: list[Run] = []
    if runs_raw is None:
        players = cfg.get("players", default_players)
        runs.append(Run("main", players, dict(cfg.get("options") or {})))
    elif isinstance(runs_raw, list) and runs_raw:
        for i, r in enumerate(runs_raw):
            # players None (the engine's default) only comes from a saved record's settings
            if not isinstance(r, Mapping) or not (
                isinstance(r.get("players"), int) or ("players" in r and r["players"] is None and r.get("label"))
            ):
                problems.append(f"{where}.runs[{i}]: a run needs 'players: <number>'")
                continue
            label = str(r.get("label") or f"p{r['players']}")
            if any(x.label == label for x in runs):
                problems.append(f"{where}.runs[{i}]: label '{label}' is used twice")
            runs.append(Run(label, r["players"], dict(r.get("options") or {})))
    else:
        problems.append(f"{where}.runs: expected a non-empty list of runs")

    sub = cfg.get("substitution") or {}
    cards = sub.get("cards")
    if cards is not None and not (isinstance(cards, list) and all(isinstance(c, str) for c in cards)):
        problems.append(f"{where}.substitution.cards: expected a list of character ids")
    strength = cfg.get("strength") or {}
    for key, val in (("substitution.games", sub.get("games")), ("strength.games", strength.get("games"))):
        if not isinstance(val, int) or isinstance(val, bool) or val < 0:
            problems.append(f"{where}.{key}: expected a whole number >= 0, got {val!r}")
    alpha = cfg.get("alpha")
    if not isinstance(alpha, (int, float)) or isinstance(alpha, bool) or not 0 < alpha < 0.5:
        problems.append(f"{where}.alpha: expected an error rate like 0.05, got {alpha!r}")
    change = cfg.get("change") or {}
    for key, val in (("substitution.cap", sub.get("cap", 0)), ("change.games", change.get("games"))):
        if not isinstance(val, int) or isinstance(val, bool) or val < 0:
            problems.append(f"{where}.{key}: expected a whole number >= 0, got {val!r}")
    rivals = strength.get("rivals")
    if rivals is not None and not (isinstance(rivals, list) and all(isinstance(r, str) for r in rivals)):
        problems.append(f"{where}.strength.rivals: expected a list of agent specs, e.g. [mcts:50]")
    try:
        gates = parse_gates(cfg.get("gates"), f"{where}.gates")
    except GateError as exc:
        problems.append(str(exc))
        gates = []
    labels = {r.label for r in runs}
    for i, g in enumerate(gates):
        if g.run is not None and g.run not in labels:
            problems.append(
                f"{where}.gates[{i}]: run '{g.run}' is not a playtest run (runs: {', '.join(sorted(labels))})"
            )
    if problems:
        raise GateError("\n".join(problems))
    return PlaytestConfig(
        agents=agents if isinstance(agents, str) else tuple(agents or ()),  # checked above
        games=cfg["games"],
        seed=cfg["seed"],
        cap=max(cfg["cap"], cfg["games"]),
        precision=None if prec is None else float(prec),
        runs=tuple(runs),
        gates=tuple(gates),
        substitution_games=sub["games"],
        stand_in=dict(sub.get("stand_in") or {}),
        substitution_cards=tuple(sub["cards"]) if sub.get("cards") else None,
        strength_games=strength["games"],
        strength_rivals=tuple(strength.get("rivals") or ()),
        strength_rival_games=int(strength.get("rival_games") or 0),
        profile=profile,
        jobs=int(cfg.get("jobs") or 1),
        alpha=float(alpha if isinstance(alpha, (int, float)) else 0.05),  # checked above
        substitution_cap=int(sub.get("cap") or 0),
        change_games=max(1, int(change.get("games") or 1)),
    )
