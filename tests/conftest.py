"""Shared fixtures: the repository root and the bundled card sets."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Every simulated game in the suite runs with the engines' invariant checks (simulate --check):
# cards conserved, legal moves, scores in bounds, at every step. Workers inherit it.
os.environ.setdefault("BONEYARD_CHECK", "1")


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT
