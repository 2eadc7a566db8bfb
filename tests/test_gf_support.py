"""Shared set-up for the Grave Feast engine tests: the bundled set, as the loader reads it."""

from __future__ import annotations

from boneyard.engine.cards import CardSet
from boneyard.pipeline.load import load_set


def feast_set(**switches: object) -> CardSet:
    """cards/grave-feast (54 regular cards, two rares), optionally under other switches."""
    cs = load_set("grave-feast")
    return cs.with_switches(**switches) if switches else cs


def test_bundled_deck_sizes():
    from boneyard.engine.gf import FeastGame

    game = FeastGame(feast_set(), num_players=2)
    assert game.size == 54
    assert sorted(set(game.names)) == sorted(
        [f"{food} {n}" for food in ("blood", "brains") for n in range(1, 10)]
        + ["preacher", "succubus", "vampire", "zombie"]
    )
    assert FeastGame(feast_set(), num_players=6).size == 108
    assert FeastGame(feast_set(), num_players=6, rares=True).size == 110


def test_game_yaml_switches_match_the_engine_and_the_rulings_doc(root):
    """Every switch in game.yaml is one the engine honours, with the engine's default, and is
    documented in docs/rules/grave-feast.md."""
    import yaml
    from boneyard.engine.gf.game import SWITCHES

    data = yaml.safe_load((root / "cards" / "grave-feast" / "game.yaml").read_text())
    assert data["switches"] == {k: d for k, (d, _) in SWITCHES.items()}
    doc = (root / "docs" / "rules" / "grave-feast.md").read_text()
    for name in SWITCHES:
        assert f"`{name}`" in doc, name


def test_inlined_shuffle_draws_exactly_like_random_shuffle():
    """The deal and recycling use a faster shuffle; seeded games must stay the games that
    ``random.Random.shuffle`` would deal (and a Random subclass keeps its own shuffle)."""
    import random

    from boneyard.engine.gf.board import shuffle

    class Loaded(random.Random):
        def shuffle(self, x):  # type: ignore[override]
            x.reverse()

    for seed in range(50):
        for n in (0, 1, 2, 7, 54, 110):
            a, b = list(range(n)), list(range(n))
            r1, r2 = random.Random(seed), random.Random(seed)
            r1.shuffle(a)
            shuffle(r2, b)
            assert a == b and r1.random() == r2.random()
    c = list(range(5))
    shuffle(Loaded(1), c)
    assert c == [4, 3, 2, 1, 0]


def test_the_engine_modules_import_one_another_without_a_circle(root):
    """Run-time imports inside engine/gf form no circle (imports for types only, under
    TYPE_CHECKING, do not count: nothing runs them)."""
    import ast

    graph: dict[str, set[str]] = {}
    for path in sorted((root / "engine" / "gf").glob("*.py")):
        deps: set[str] = set()

        def visit(nodes: list[ast.stmt], deps: set[str] = deps) -> None:
            for node in nodes:
                if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                    continue
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("boneyard.engine.gf"):
                    sub = node.module.removeprefix("boneyard.engine.gf").lstrip(".")
                    deps.update([sub] if sub else [a.name for a in node.names])
                for field in ("body", "orelse", "finalbody", "handlers"):
                    visit([n for n in getattr(node, field, []) if isinstance(n, ast.stmt)])

        visit(ast.parse(path.read_text()).body)
        graph[path.stem] = deps - {"__init__"}
    assert graph["state"] and "state" not in graph["rares"] and "rares" in graph["effects"]
    done: set[str] = set()

    def walk(name: str, trail: tuple[str, ...]) -> None:
        assert name not in trail, " -> ".join((*trail, name))
        if name in done:
            return
        for dep in graph.get(name, ()):
            walk(dep, (*trail, name))
        done.add(name)

    for name in graph:
        walk(name, ())
