"""Seeds and seats: what makes a run the same on any machine (see boneyard.engine.sim).

One hash turns any labelled parts into a seed, so neighbouring seeds share nothing; the pipeline
seeds its batches with it too. Blocks depend on the number of games alone, never on ``jobs`` or
the cluster, which keeps the order tallies merge in, and so the reports, the same everywhere.
"""

from __future__ import annotations

import _random
import hashlib
import random
from collections.abc import Iterator, Sequence

from boneyard.errors import RulesError


def hash_seed(*parts: object) -> int:
    """A 63-bit seed from ``parts`` (their text joined by ":"; SHA-256, so stable everywhere)."""
    return _seed_of(":".join(str(p) for p in parts))


def _seed_of(text: str) -> int:
    return int.from_bytes(_sha256(text.encode()).digest()[:8], "big") >> 1


_sha256 = hashlib.sha256


def game_seed(seed: int, index: int) -> int:
    """The seed game ``index`` of a run with ``seed`` is dealt from (``hash_seed("game", seed,
    index)``, its text written out: three of these a game are a few per cent of a random one)."""
    return _seed_of(f"game:{seed}:{index}")


def agent_seed(seed_of_game: int, seat: int) -> int:
    """The seed of the agent in ``seat`` (its own stream: no agent's draws shift another's);
    ``hash_seed("agent", seed_of_game, seat)``."""
    return _seed_of(f"agent:{seed_of_game}:{seat}")


_C_SEED = _random.Random.seed


def agent_streams(seed_of_game: int, seats: int) -> list[random.Random]:
    """Every seat's stream of a game: ``random.Random(agent_seed(seed_of_game, k))`` for each
    seat ``k``, the same generators, made in one call without Random's Python-level ``__init__``
    and ``seed`` (a random game makes two: with the seeds they were a tenth of its time)."""
    out = []
    for k in range(seats):
        rng = random.Random.__new__(random.Random)
        _C_SEED(rng, _seed_of(f"agent:{seed_of_game}:{k}"))  # agent_seed's text
        rng.gauss_next = None  # type: ignore[attr-defined]
        out.append(rng)
    return out


def seat_agents(agents: Sequence[str], num_players: int, index: int) -> list[str]:
    """Agent spec per seat in game ``index``: one spec fills every seat, else they rotate."""
    if len(agents) == 1:
        return [agents[0]] * num_players
    if len(agents) != num_players:
        raise RulesError(
            f"{len(agents)} agents given for {num_players} players "
            "(give one agent for every seat, or a single agent for all seats)"
        )
    return [agents[(k + index) % num_players] for k in range(num_players)]


def block_size(n: int) -> int:
    """Games per block: about 64 blocks a run (more for long runs), 1 to 1,000 games each.

    A function of ``n`` alone: the blocks, and so the order their tallies are merged in, never
    depend on ``jobs`` or the cluster, which keeps reports byte-identical everywhere. Each block
    costs the parent about a millisecond (its tally comes back and is merged), so a short run
    is not cut finer than 64; a long one keeps blocks of 1,000 games, enough tasks for a cluster.
    """
    return max(1, min(1000, -(-n // 64)))


def block_count(n: int) -> int:
    """How many blocks :func:`blocks_of` yields for ``n`` games."""
    return -(-n // block_size(n)) if n > 0 else 0


def iter_blocks(n: int) -> Iterator[tuple[int, int, int]]:
    """(block index, first game, end) for a run of ``n`` games, made as they are asked for: a
    run of 10**12 games holds one block at a time, not a billion."""
    size = block_size(n)
    for b, a in enumerate(range(0, n, size)):
        yield b, a, min(n, a + size)


def blocks_of(n: int) -> list[tuple[int, int, int]]:
    """:func:`iter_blocks` as a list (for short runs and tests)."""
    return list(iter_blocks(n))
