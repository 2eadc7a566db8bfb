"""AI players, made from a short spec string: ``random``, ``greedy``, ``gate``, ``gate:fast``, ``mcts`` or ``mcts:N``.

The simulator, the CLI and the strength bench name agents by these strings (they go into logs and
reports), so one registry turns a spec into an :class:`~boneyard.engine.core.Agent` for a game.
``greedy`` and ``gate`` (greedy's ratings with each choice played out on a few sampled deals or
tuned by play: skilled play at a build's speed; ``gate:fast`` a cheaper gate for CI builds, the gate
itself where a game has none) are game-specific (the game's spec makes them); ``random`` and ``mcts`` work on any game
through the shared core interface, ``mcts`` with the spec's search settings.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from boneyard.engine.agents.mcts import DEFAULT_BUDGET, MctsAgent
from boneyard.engine.core import Agent, Observation

from boneyard.errors import BoneyardError, excerpt

__all__ = ["AGENT_KINDS", "AgentSpecError", "MctsAgent", "RandomAgent", "make_agent", "parse_spec",
           "uniform_choice"]

AGENT_KINDS: tuple[str, ...] = ("random", "greedy", "gate", "mcts")
MAX_BUDGET = 99_999
"""Most simulations per decision a spec may ask for (game.yaml's schema says the same)."""


class AgentSpecError(BoneyardError, ValueError):
    """An agent spec that names no agent (a usage error)."""

    exit_code = 2


class RandomAgent:
    """Uniform over the legal actions: the floor every other agent must beat."""

    __slots__ = ("name",)

    legal_only = True
    """It needs no more than the legal actions: the simulator skips building an observation."""

    def __init__(self, name: str = "random") -> None:
        self.name = name

    def choose(self, obs: Observation, rng: random.Random) -> int:
        return self.choose_legal(obs.legal_actions(), rng)

    uniform = True
    """Its choice is :func:`uniform_choice`: the simulator may make the same draws itself, in a
    loop without an agent call per decision (``engine/sim/play.py``)."""

    def choose_legal(self, acts: list[int], rng: random.Random) -> int:
        """The same choice as :meth:`choose`, from the mover's legal actions alone."""
        return uniform_choice(acts, rng.getrandbits)


def uniform_choice(acts: list[int], bits: Callable[[int], int]) -> int:
    """One of ``acts`` uniformly from the stream ``bits`` (a ``Random.getrandbits``), no draw
    when there is no choice.

    Why its own function: it is the one definition of a random agent's move, shared by the agent
    and the simulator's loop so the two cannot drift. It draws as ``Random.randrange`` does
    (the bit length of the count, again while at or above it), so the games random agents have
    always played are unchanged.
    """
    n = len(acts)
    if n < 2:
        return acts[0]
    k = n.bit_length()
    r = bits(k)
    while r >= n:
        r = bits(k)
    return acts[r]


def parse_spec(spec: str) -> tuple[str, int | None]:
    """``"mcts:400"`` -> ``("mcts", 400)``; ``"greedy"`` -> ``("greedy", None)``."""
    text = spec.strip().lower()
    kind, _, arg = text.partition(":")
    if kind not in AGENT_KINDS:
        raise AgentSpecError(
            f"unknown agent '{excerpt(spec)}' (use one of: random, greedy, gate, gate:fast, mcts, mcts:N with N simulations)"
        )
    if ":" in text and not arg:  # 'mcts:' or 'greedy:': a budget left out is a typo, not a default
        raise AgentSpecError(f"agent '{excerpt(spec)}': nothing after the ':' (write '{kind}' "
                             f"alone, or what follows, as in mcts:{DEFAULT_BUDGET} or gate:fast)")
    if not arg or (kind, arg) == ("gate", "fast"):
        return kind, None
    if kind == "gate":
        raise AgentSpecError(f"agent '{excerpt(spec)}': the gate's only variant is gate:fast "
                             "(write 'gate' or 'gate:fast')")
    if kind != "mcts":
        raise AgentSpecError(f"agent '{excerpt(spec)}': only mcts takes a budget (write '{kind}')")
    if not arg.isdigit() or len(arg) > 9 or not 1 <= int(arg) <= MAX_BUDGET:
        raise AgentSpecError(  # (a 5000-digit budget is no number int() will read)
            f"agent '{excerpt(spec)}': the mcts budget must be a whole number of simulations from 1 to "
            f"{MAX_BUDGET}, e.g. mcts:{DEFAULT_BUDGET}"
        )
    return kind, int(arg)


def _spec(game: Any) -> Any:
    from boneyard.engine.games import GAMES, spec_of

    rules = getattr(getattr(game, "card_set", None), "rules", None)
    return spec_of(rules) if rules in GAMES else None


def _greedy(game: Any) -> Agent:
    spec = _spec(game)
    if spec is not None:
        return spec.greedy(game)  # type: ignore[no-any-return]
    if hasattr(game, "make_greedy"):  # games outside the registry (test games) bring their own
        return game.make_greedy()  # type: ignore[no-any-return]
    rules = getattr(getattr(game, "card_set", None), "rules", None)
    raise AgentSpecError(f"no greedy agent for rules '{rules}'")


def _gate(game: Any, fast: bool = False) -> Agent:
    spec = _spec(game)
    if fast and spec is not None and spec.gate_fast is not None:
        return spec.gate_fast(game)  # type: ignore[no-any-return]
    if spec is not None and spec.gate is not None:
        return spec.gate(game)  # type: ignore[no-any-return]
    if spec is None and hasattr(game, "make_gate"):
        return game.make_gate()  # type: ignore[no-any-return]
    rules = getattr(getattr(game, "card_set", None), "rules", None)
    raise AgentSpecError(f"no gate agent for rules '{rules}' (use greedy or mcts)")


def make_agent(spec: str, game: Any) -> Agent:
    """A fresh agent for ``game`` from its spec; agents hold no per-game state beyond settings."""
    kind, budget = parse_spec(spec)
    if kind == "random":
        return RandomAgent()
    if kind == "greedy":
        return _greedy(game)
    if kind == "gate":
        return _gate(game, fast=spec.strip().lower() == "gate:fast")
    from boneyard.engine.agents.evaluators import SearchSettings, greedy_playout

    game_spec = _spec(game)
    cfg = game_spec.search if game_spec is not None else SearchSettings()
    budget = budget or cfg.default_budget
    prior_visits = round(cfg.prior_share * budget)
    prior = _greedy(game) if prior_visits or cfg.paired else None
    playout = None
    if cfg.greedy_playout is not None:
        playout = greedy_playout(_greedy(game), cfg.greedy_playout)
    return MctsAgent(budget, name=spec.strip().lower(), horizon=cfg.horizon, evaluate=cfg.evaluate,
                     prior=prior, prior_visits=prior_visits, playout=playout, paired=cfg.paired,
                     margin=cfg.margin)
