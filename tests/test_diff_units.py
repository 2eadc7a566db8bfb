"""`boneyard diff`'s comparison of two records, without playing a game."""

from __future__ import annotations

from boneyard.pipeline.diff import compare, games_said, moved


def _rec(games: int, seed: int = 1, rate: float = 0.5) -> dict:
    count = {"name": "games", "value": float(games), "low": float(games), "high": float(games),
             "n": games, "group": "game", "subject": None, "unit": ""}
    draw = {"name": "draw_rate", "value": rate, "low": rate - 0.02, "high": rate + 0.02,
            "n": games, "group": "game", "subject": None, "unit": "%"}
    return {"games": games, "seed": seed, "runs": [{"label": "main", "metrics": [count, draw], "strength": []}]}


def test_the_number_of_games_played_is_not_listed_as_a_metric_that_moved():
    # a saved 1,600-game record against a quick --games 40 look: 'games 1600 -> 40' is the
    # setting, not a measurement beyond its interval
    moves = compare(_rec(1600), _rec(40))
    assert [m.name for m in moves] == ["draw_rate"]
    assert not moved(moves)


def test_the_header_says_each_version_s_games_when_they_differ():
    assert games_said(_rec(200), _rec(200)) == "200 games each, seed 1"
    said = games_said(_rec(1600), _rec(40))
    assert "1600" in said and "40" in said and "each" not in said
