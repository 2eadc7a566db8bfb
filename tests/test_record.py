"""A record can't lie (issue 18): a hand-made, edited, copied or stale playtest.json is refused
by render and never reused by build, and the content hash moves with everything printed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from boneyard.pipeline import record as rec
from boneyard.pipeline.build import RECORD_NAME, build_set, record_doubts, render_permission
from boneyard.pipeline.load import load_set

from boneyard.errors import BoneyardError, GateError

SLUG = "grave-feast"


@pytest.fixture(scope="module")
def made(tmp_path_factory, fast_builds):
    """A Grave Feast set in its own folder with a real, passing fast-profile record (the session's
    from-scratch build; the output is this module's copy, so its edits stay here)."""
    folder = fast_builds.get(SLUG)[0]
    return folder, fast_builds.copy_out(SLUG, tmp_path_factory.mktemp("made"))


def _record(made) -> tuple[Path, dict]:
    folder, out = made
    path = out / SLUG / RECORD_NAME
    return path, json.loads(path.read_text())


def _refusal(made, record: dict | None = None) -> str:
    folder, out = made
    path, original = _record(made)
    if record is not None:
        path.write_text(json.dumps(record))
    try:
        with pytest.raises(GateError) as err:
            render_permission(load_set(folder), out)
        return str(err.value)
    finally:
        path.write_text(json.dumps(original))


def test_the_record_build_wrote_is_believed(made):
    folder, out = made
    note, mark = render_permission(load_set(folder), out)
    assert "gates passed" in note and mark is None


def test_a_hand_written_record_is_refused(made):
    cs = load_set(made[0])
    fake = {"content_hash": cs.content_hash, "passed": True, "games": 1}
    assert "not a playtest record this tool wrote" in _refusal(made, fake)


def test_passed_flipped_on_a_failing_record_is_refused(made):
    _, real = _record(made)
    edited = dict(real, passed=False, gates_passed=real["gates_total"] - 1)
    said = _refusal(made, edited)
    assert "signature does not match the key it is checked with (" in said
    assert "or signed with another key (another machine, HOME or BONEYARD_RECORD_KEY)" in said
    assert said.count("boneyard build") == 1, said  # one way out, not the record's and render's
    # even signed (a bug, or a stolen key), a verdict that its own gates contradict is refused
    resigned = rec.sign({k: v for k, v in edited.items() if k != "signature"})
    assert "verdict does not follow from its own metrics" in _refusal(made, resigned)


def test_passed_no_and_records_of_another_tool_are_refused(made):
    _, real = _record(made)
    assert "not a playtest record" in _refusal(made, dict(real, passed="no"))
    other = rec.sign({k: v for k, v in dict(real, tool="boneyard 0.0.1").items() if k != "signature"})
    assert "made by boneyard 0.0.1" in _refusal(made, other)


@pytest.mark.parametrize("edit", ["template", "art", "name", "playtest"])
def test_what_is_printed_or_gated_moves_the_content_hash(made, tmp_path, edit):
    folder = tmp_path / SLUG
    shutil.copytree(made[0], folder)
    before = load_set(folder).content_hash
    if edit == "template":
        text = (folder / "template.yaml").read_text()
        (folder / "template.yaml").write_text(text.replace("#b3121f", "#b3121e", 1))
    elif edit == "art":
        from PIL import Image

        Image.new("RGB", (8, 8), "red").save(folder / "blood.png")
        deck = (folder / "deck.yaml").read_text()
        (folder / "deck.yaml").write_text(deck.replace("kind: human", "kind: human\n  art: blood.png", 1))
        before = load_set(folder).content_hash
        Image.new("RGB", (8, 8), "blue").save(folder / "blood.png")
    elif edit == "name":
        game = (folder / "game.yaml").read_text()
        (folder / "game.yaml").write_text(game.replace("name: Grave Feast", "name: Grave Feast II"))
    else:
        game = (folder / "game.yaml").read_text()
        (folder / "game.yaml").write_text(game.replace("max: 0.12", "max: 0.5"))
    after = load_set(folder)
    assert after.content_hash != before
    shutil.copytree(made[1] / SLUG, tmp_path / "out" / SLUG)
    doubt = record_doubts(json.loads((tmp_path / "out" / SLUG / RECORD_NAME).read_text()), after)
    assert doubt is not None and "the playtest record is for content" in doubt


def test_build_does_not_reuse_an_edited_record(made, tmp_path):
    folder, out = made
    shutil.copytree(out / SLUG, tmp_path / SLUG)
    path = tmp_path / SLUG / RECORD_NAME
    record = json.loads(path.read_text())
    record["seconds"] = 0.0  # any edit at all
    path.write_text(json.dumps(record))
    outcome = build_set(load_set(folder), out=tmp_path, fast=True, render=False, jobs=2)
    assert not outcome.reused and outcome.passed


@pytest.mark.parametrize("body", ['{"format": 1, "runs": 5}', '{"runs": [1]}', '{"gates": "abc"}',
                                  '{"runs": [{"metrics": [1]}]}', '{"runs": null}'])
def test_a_record_of_the_wrong_shape_is_no_record_not_a_traceback(made, tmp_path, body):
    """build read such a file into a TypeError before any check (``'int' object is not
    iterable``); now it is no record: build plays again, render says why it refuses."""
    from boneyard.pipeline.build import load_record

    path = tmp_path / RECORD_NAME
    path.write_text(body)
    assert load_record(path) is None
    assert "not a playtest record this tool wrote" in _refusal(made, json.loads(body))


def test_a_screen_judged_again_stays_a_screen(made):
    """A sensitivity variant's figure that straddles its bound is flagged, not undecided (its
    sample is fixed): a record judged again must judge it the same way, or no default Grave
    Feast record (which has them) would be believed, nor any build against it be change-aware."""
    _, real = _record(made)
    run = real["runs"][0]
    m = next(x for x in run["metrics"] if x["name"] == "mean_rounds")
    screen = {"metric": "mean_rounds", "run": run["label"], "max": (m["low"] + m["high"]) / 2,
              "why": "a straddling screen", "screen": True}
    config = dict(real["config"], gates=[*real["config"]["gates"], screen])
    edited = dict(real, config=config, gates_total=real["gates_total"] + 1,
                  gates_passed=real["gates_passed"] + 1)
    signed = rec.sign({k: v for k, v in edited.items() if k != "signature"})
    assert rec.problems(signed) == []
    as_sequential = dict(screen, screen=False)
    config = dict(real["config"], gates=[*real["config"]["gates"], as_sequential])
    signed = rec.sign({k: v for k, v in dict(edited, config=config).items() if k != "signature"})
    assert "verdict does not follow" in rec.problems(signed)[0]


def test_a_signing_key_cut_short_is_replaced_not_used(tmp_path, monkeypatch):
    """A disk that filled while the key was first written left an empty key file, and every
    record was then signed with b"" - a signature anyone can make, so a forged record rendered
    as playtested."""
    path = tmp_path / "record.key"
    path.write_bytes(b"")
    monkeypatch.setenv(rec.KEY_ENV, str(path))
    rec._key.cache_clear()
    try:
        key = rec._key()
        assert len(key) == 32 and path.read_bytes() == key
        assert rec._key() == key
        rec._key.cache_clear()
        assert rec._key() == key  # read back, not made again
        assert [p.name for p in tmp_path.iterdir()] == ["record.key"]  # no temporary left
    finally:
        rec._key.cache_clear()


def test_a_short_file_the_key_variable_names_is_refused_not_overwritten(tmp_path, monkeypatch):
    """BONEYARD_RECORD_KEY pointed at a designer's notes (9 bytes) replaced them with a key,
    in silence. Only an empty file there (a fresh ``mktemp``) is filled."""
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    monkeypatch.setenv(rec.KEY_ENV, str(notes))
    rec._key.cache_clear()
    try:
        with pytest.raises(BoneyardError, match=r"notes\.txt: a file of 9 bytes, too short to be "
                                                r"a key .* BONEYARD_RECORD_KEY names the key"):
            rec.check_key()
        assert notes.read_text() == "my notes\n"
    finally:
        rec._key.cache_clear()
