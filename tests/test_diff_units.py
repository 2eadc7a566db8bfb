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


def test_a_paired_change_keeps_its_own_interval_not_the_old_level_s_error():
    # after = before's value plus a paired change: the new figure's interval holds the old
    # level's sampling error too, but the change itself is known to its paired interval
    before, after = _rec(2000, rate=0.50), _rec(2000, rate=0.53)
    after["runs"][0]["paired_changes"] = {"draw_rate": [0.03, 0.025, 0.035]}
    move = next(m for m in compare(before, after) if m.name == "draw_rate")
    assert (round(move.low, 6), round(move.high, 6)) == (0.025, 0.035)
    assert moved([move])  # +3 points +-0.5: moved, where +-2.8 from the two levels would say so too
    after["runs"][0]["paired_changes"] = {"draw_rate": [0.01, -0.005, 0.025]}
    after["runs"][0]["metrics"][1].update(value=0.51, low=0.49, high=0.53)
    assert not moved(compare(before, after))
