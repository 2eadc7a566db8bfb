"""What is known of the gate agent against its reference, for the build report.

A build measures its agent's strength on the set it builds (pipeline/playtest.py), but how far the
agent's verdicts agree with a strong reference (per-character rank correlation with mcts) takes
thousands of search games: too slow for a build. So the benches that measure it
(``bench/agreement.py --save``, ``bench/strength.py --save``) write their figures into the game's
reference file (``GameSpec.agent_reference``, a JSON in the game's folder), and the report quotes
them with what they are worth today:

- measured on the bundled set: a designer's edited or invented set may be played differently;
- with the agent as it was then: the file keeps a fingerprint of the agent's play (the actions of a
  few seeded games on the bundled set), and the report plays those games again; when they differ,
  the agent has changed since and the figures are marked out of date (re-run the command).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from boneyard.engine.agents import make_agent
from boneyard.engine.cards import CardSet
from boneyard.engine.games import make_game, spec_of
from boneyard.engine.hashing import play_hash
from boneyard.engine.sim.play import play_game
from boneyard.engine.sim.seeds import game_seed, seat_agents

from boneyard.files import write_atomic

FINGERPRINT_GAMES = 6
"""Seeded games whose actions fingerprint the agent's play (a fraction of a second)."""


@dataclass(frozen=True)
class Figure:
    """One measured figure: what, its value and 95% interval, its target, how to measure it."""

    name: str
    value: float | None
    low: float | None
    high: float | None
    target: str
    command: str
    note: str = ""
    unit: str = ""  # "%": a share, shown as a percentage; "": a correlation; else a rate's unit

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "value": self.value, "low": self.low, "high": self.high,
                "target": self.target, "command": self.command, "note": self.note, "unit": self.unit}

    def shown(self) -> str:
        """The value and its interval as the report prints them."""
        if self.value is None:
            return "not established" + (f" ({self.note})" if self.note else "")

        def fmt(v: float) -> str:
            if self.unit == "%":
                return f"{v * 100:.1f}%"
            return f"{v:,.0f} {self.unit}" if self.unit else f"{v:+.2f}"

        band = f" [{fmt(self.low)} .. {fmt(self.high)}]" if self.low is not None and self.high is not None else ""
        return fmt(self.value) + band + (f" ({self.note})" if self.note else "")

    def verdict(self) -> str:
        """"met" or "missed" against a target the benches write (">= 300", ">= 75%",
        ">= 50%, low end >= 45%", ">= 0.8 (Spearman)"); "" when there is no value or no such
        target. Why: a figure shown beside its target without a word left the reader to compare
        them, and a missed target read as a claim."""
        if self.value is None or not self.target:
            return ""
        checks: list[tuple[float, float]] = []
        for part in self.target.split(","):
            found = re.fullmatch(r"\s*(low end )?>=\s*([-+]?[0-9.]+)(%?)\s*(\(.*\))?\s*", part)
            if found is None:
                return ""
            bound = float(found.group(2)) / (100 if found.group(3) else 1)
            if found.group(1):
                if self.low is None:
                    return ""
                checks.append((self.low, bound))
            else:
                checks.append((self.value, bound))
        return "met" if all(v >= b for v, b in checks) else "missed"

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Figure:
        def num(key: str) -> float | None:
            v = data.get(key)
            return None if v is None else float(v)

        return cls(str(data.get("name", "")), num("value"), num("low"), num("high"),
                   str(data.get("target", "")), str(data.get("command", "")), str(data.get("note", "")),
                   str(data.get("unit", "")))


def fingerprint(rules: str, agent: str, players: int | None = None) -> str:
    """A hash of the actions ``agent`` takes in every seat of a few seeded games of the game's
    bundled set: equal fingerprints, the same play."""
    spec = spec_of(rules)
    from boneyard.pipeline.load import load_set

    game = make_game(load_set(spec.bundled_set), players)
    h = hashlib.sha256()
    for i in range(FINGERPRINT_GAMES):
        seed = game_seed(0, i)
        seats = seat_agents([agent], game.num_players, i)
        _, actions = play_game(game, [make_agent(s, game) for s in seats], seed)
        h.update(json.dumps(actions).encode())
    return h.hexdigest()[:16]


def load(rules: str) -> dict[str, Any] | None:
    """The game's reference file as saved, or None when it has none (yet)."""
    path = spec_of(rules).agent_reference
    if path is None or not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    return data if isinstance(data, dict) else None


def save(rules: str, agent: str, figures: Sequence[Figure], measured: str,
         players: int | None = None) -> Path:
    """Merge ``figures`` (by name) into the game's reference file, with the agent's fingerprint
    and the bundled set's play hash as of now; the benches call it with ``--save``."""
    spec = spec_of(rules)
    if spec.agent_reference is None:
        raise ValueError(f"{rules} keeps no agent reference file (GameSpec.agent_reference)")
    from boneyard.pipeline.load import load_set

    old = load(rules) or {}
    keep = {f["name"]: f for f in old.get("figures", []) if old.get("agent") == agent}
    if players is None and old.get("agent") == agent:
        players = old.get("players")
    for f in figures:
        keep[f.name] = {**f.to_json(), "measured": measured}
    data = {
        "agent": agent,
        "set": spec.bundled_set,
        "play_hash": play_hash(load_set(spec.bundled_set)),
        "fingerprint": fingerprint(rules, agent, players),
        "players": players,
        "figures": list(keep.values()),
    }
    write_atomic(spec.agent_reference, json.dumps(data, indent=2) + "\n")
    return spec.agent_reference


def for_report(card_set: CardSet, agents: str | Sequence[str]) -> dict[str, Any] | None:
    """What the report says of the build's agent against its reference: the saved figures,
    whether they were measured on this set's content and for this agent, and whether that agent
    still plays as it did then (None: the game keeps no figures)."""
    data = load(card_set.rules)
    if data is None:
        return None
    played = sorted({agents} if isinstance(agents, str) else set(agents))
    current = fingerprint(card_set.rules, data["agent"], data.get("players")) == data.get("fingerprint")
    return {
        "agent": data["agent"],
        "played": ",".join(played),
        "set": data.get("set"),
        "same_set": _same_play(data, card_set),
        "current": current,
        "figures": [{**Figure.from_json(f).to_json(), "measured": f.get("measured", "")}
                    for f in data.get("figures", [])],
    }


def _same_play(data: Mapping[str, Any], card_set: CardSet) -> bool:
    """Were the figures measured on what this set plays? The play hash leaves out the playtest
    section, the template and the print-only fields, which no bench reads: a gate's bound or
    its why, or a flavor text, edited since leaves the figures the set's own."""
    return bool(data.get("play_hash") == play_hash(card_set))


HEAD = ("figure", "measured [95%]", "target", "verdict", "how to measure it")


def report_rows(ref: Mapping[str, Any] | None) -> tuple[str, list[tuple[str, str, str, str, str]]]:
    """The report's sentence on the agent's reference figures and their table rows ("" and no
    rows when the game keeps none)."""
    if not ref:
        return "", []
    caveats = []
    if ref.get("played") and ref.get("played") != ref.get("agent"):
        caveats.append(f"this build played {ref.get('played')}")
    if not ref.get("same_set"):
        caveats.append(f"measured on the bundled set ({ref.get('set')}), not on this set's content")
    if not ref.get("current"):
        caveats.append("OUT OF DATE: the agent plays differently now than when they were measured "
                       "(re-run the commands)")
    dates = sorted({str(f.get("measured", "")) for f in ref.get("figures", []) if f.get("measured")})
    when = f" on {', '.join(dates)}" if dates else ""
    text = (f"The {ref.get('agent')} agent against a strong reference, as the benches measured it{when}"
            + ("; " + "; ".join(caveats) if caveats else "") + ".")

    rows = []
    for f in ref.get("figures", []):
        fig = Figure.from_json(f)
        rows.append((fig.name, fig.shown(), fig.target, fig.verdict(), fig.command))
    met, missed = (sum(1 for r in rows if r[3] == word) for word in ("met", "missed"))
    if missed:
        text += f" Of their targets {met} {'is' if met == 1 else 'are'} met and {missed} missed."
    return text, rows
