"""The editor's view of a characters file: yaml-language-server (the server VS Code's YAML
extension runs) reads schema/characters.schema.json through the file's modeline, and must
complete the values of every primitive, name a misspelt key, and work inside flow mappings.

Needs node: the server is installed with npm into ~/.cache/boneyard/yaml-ls (outside the
repository) on first use; without node, npm or the package the test is skipped, saying why."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from lsp_support import LspClient, ensure_server

SCHEMA = Path(__file__).resolve().parent.parent / "schema" / "characters.schema.json"


@pytest.fixture(scope="module")
def lsp(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LspClient, Path]]:
    why = ensure_server()
    if why is not None:
        pytest.skip(f"yaml-language-server unavailable: {why}")
    folder = tmp_path_factory.mktemp("editor")
    client = LspClient(folder)
    try:
        yield client, folder
    finally:
        client.close()


def _open(lsp: tuple[LspClient, Path], name: str, body: str) -> tuple[LspClient, str, list[str]]:
    client, folder = lsp
    text = f"# yaml-language-server: $schema={SCHEMA.as_uri()}\n" + body
    return client, client.open(folder / name, text), text.splitlines()


def _at(lines: list[str], needle: str) -> tuple[int, int]:
    """The position just after ``needle`` (its first occurrence)."""
    for n, line in enumerate(lines):
        if needle in line:
            return n, line.index(needle) + len(needle)
    raise AssertionError(needle)


BODY = "".join(line + "\n" for line in [  # a value being typed: "auto_win: " and the cursor
    "- id: probe",
    "  name: Probe",
    "  power: 3",
    "  effect:",
    "    - auto_win: ",
    "    - force_unearth: ",
    "    - copy_effect: ",
    "    - {flip: }",
    "    - power: 2",
    "      when: {own_spirit: }",
    "    - power: {amount: 2, per: }",
])


@pytest.mark.parametrize(("needle", "values"), [
    ("auto_win: ", {"self", "opponent"}),
    ("force_unearth: ", {"opposing"}),
    ("copy_effect: ", {"opposing", "adjacent", "own_active"}),
    ("{flip: ", {"own_fallen", "opponent_fought"}),  # inside a flow mapping
    ("{own_spirit: ", {"double", "power_up", "unearth", "none"}),
    ("per: ", {"own_fallen", "own_active", "opponent_active"}),
])
def test_values_complete_to_what_the_primitive_allows(lsp, needle: str, values: set[str]) -> None:
    client, uri, lines = _open(lsp, "complete.yaml", BODY)
    line, col = _at(lines, needle)
    labels = set(client.completion_labels(uri, line, col))
    assert values <= labels, labels


def test_a_misspelt_primitive_is_named_not_a_missing_one(lsp) -> None:
    client, uri, _ = _open(lsp, "typo.yaml", BODY.split("    - auto_win")[0]
                           + "    - auto_wn: self\n")
    messages = client.diagnostics(uri)
    assert any("auto_wn" in m and "not allowed" in m for m in messages), messages
    assert not any("Missing property" in m for m in messages), messages
