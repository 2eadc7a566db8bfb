"""Day of the Dead's compiled modules stand in all together or not at all."""

from __future__ import annotations

import sys

from boneyard.engine import dotd


def test_one_stale_twin_puts_every_source_back(monkeypatch):
    placed = []

    def fake_use_twin(package: str, source: str, twin: str) -> object | None:
        if source == "choices.py":  # built from another version of choices.py
            return None
        placed.append(source)
        monkeypatch.setitem(sys.modules, f"{package}.{source.removesuffix('.py')}", object())
        return object()

    monkeypatch.setattr(dotd, "use_twin", fake_use_twin)
    assert dotd._use_twins() is False
    assert placed == ["codes.py", "game.py", "interpreter.py"]  # the twins before the stale one ...
    for source in placed:  # ... no longer stand in: the sources will be imported
        assert f"{dotd.__name__}.{source.removesuffix('.py')}" not in sys.modules


def test_the_twins_are_the_modules_setup_compiles(root):
    text = (root / "setup.py").read_text(encoding="utf-8")
    for source, twin in dotd.TWINS:
        assert f'("engine/dotd/{source}", "boneyard/engine/dotd", "{twin}")' in text
    makefile = (root / "Makefile").read_text(encoding="utf-8")
    assert all(f"engine/dotd/{source}" in makefile for source, _ in dotd.TWINS)
