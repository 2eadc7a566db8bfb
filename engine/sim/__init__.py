"""Playtesting by simulation: many seeded games between agents, the same result on any machine.

The modules: ``seeds`` (seeds, seats, blocks), ``play`` (one game, one block), ``tally`` (counts
and metrics), ``local`` (worker processes), ``cluster`` (Dask), ``run`` (:func:`simulate`, the
merge in block order, the log), ``replay`` (replays and transcripts). Import from here.

Determinism is the contract. Game ``i`` of a run with seed ``s`` is dealt from
``game_seed(s, i)`` (a hash, so neighbouring seeds share nothing), each seat's agent draws from
its own stream ``agent_seed(game_seed, seat)``, and agents are rotated through the seats by game
index (seat ``k`` of game ``i`` is played by ``agents[(k + i) % players]``), so with unequal agents
every agent sits in every seat equally often; who holds priority / moves first is drawn by the
engine from the game seed. ``jobs > 1`` splits the games into chunks by index, plays them in worker
processes and merges them back in index order: exactly the same :class:`SimResult` as ``jobs=1``.

A game record (one JSON line of ``--log``) holds everything needed to replay it: the card set's
content hash and switches, engine options, player count, game seed, agent specs per seat and the
actions (ints, plus their text for people). :func:`replay` plays it back through the engine and
checks it ends the same way.

Metrics: the engine's own ``<engine>.metrics.game_metrics(summaries, num_players)`` plus figures
any game has (names are stable; gates refer to them):

    seat.<k>.win_rate        share of wins of seat k (1-based; a draw splits the point)
    agent.<spec>.win_rate    share of wins of an agent spec (only when the agents differ)
    draw_rate                games without a single winner
    first_player_win_rate    share of wins of the player moving first (summary "first_player",
                             or "first_priority": who held priority on turn 1)
    score_mean, score_sd, score_margin   from summary "scores" (margin: winner minus runner-up)
    turns_mean               from summary "turns"

(the generic ones are skipped when the engine's metrics already define a metric of that name;
the seat figures when the engine reports any metric in group "seat").
"""

from __future__ import annotations

import copyreg
import types
from collections.abc import Callable
from typing import Any

from boneyard.engine.cards import freeze
from boneyard.engine.sim.cluster import CONNECT_TIMEOUT, cluster_block, scheduler_address
from boneyard.engine.sim.local import default_jobs
from boneyard.engine.sim.play import (
    MAX_ACTIONS,
    BrokenInvariant,
    RunSpec,
    StuckGame,
    make_record,
    play_block,
    play_game,
)
from boneyard.engine.sim.replay import ReplayError, replay, transcript
from boneyard.engine.sim.run import STUCK_LISTED, SimResult, map_tasks, simulate
from boneyard.engine.sim.seeds import (
    agent_seed,
    block_count,
    block_size,
    blocks_of,
    game_seed,
    hash_seed,
    iter_blocks,
    seat_agents,
)
from boneyard.engine.sim.tally import game_metrics, tally_game, tally_metrics

__all__ = [
    "CONNECT_TIMEOUT",
    "MAX_ACTIONS",
    "STUCK_LISTED",
    "BrokenInvariant",
    "StuckGame",
    "block_count",
    "iter_blocks",
    "ReplayError",
    "RunSpec",
    "SimResult",
    "agent_seed",
    "block_size",
    "blocks_of",
    "cluster_block",
    "default_jobs",
    "game_metrics",
    "game_seed",
    "hash_seed",
    "make_record",
    "map_tasks",
    "play_block",
    "play_game",
    "replay",
    "scheduler_address",
    "seat_agents",
    "simulate",
    "tally_game",
    "tally_metrics",
    "transcript",
]


def _pickle_mapping(m: types.MappingProxyType[str, Any]) -> tuple[Callable[..., Any], tuple[dict[str, Any]]]:
    return freeze, (dict(m),)


# Card sets hold read-only mappings; teach pickle to carry them to worker processes.
copyreg.pickle(types.MappingProxyType, _pickle_mapping)
