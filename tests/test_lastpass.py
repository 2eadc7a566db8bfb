"""Change-aware builds: the last pass is kept, believed only after its checks, and the next build
tests what changed on paired games (pipeline/lastpass.py, pipeline/paired.py)."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest
import yaml
from boneyard.engine.hashing import play_hash
from boneyard.pipeline import record as rec
from boneyard.pipeline.build import build_set
from boneyard.pipeline.gates import UNDECIDED
from boneyard.pipeline.lastpass import LAST_PASS, base_for, folder
from boneyard.pipeline.load import load_set

from boneyard.paths import CARDS

SECTION = {
    "agents": "greedy", "games": 200, "cap": 400, "seed": 3,
    "substitution": {"games": 30, "stand_in": {"power": 5}}, "change": {"games": 200},
    "strength": {"games": 0},
    # greedy in 200 games fields Hoard in no fight, so its effect would be "never tested": these
    # tests are about the last pass, not coverage (tests/test_coverage.py)
    "coverage": {"min": 0},
    "gates": [{"metric": "first_priority_win_rate", "min": 0.3, "max": 0.7},
              {"metric": "card.*.sub_delta", "min": -0.6, "max": 0.6}],
}


def make_set(where: Path, section: dict = SECTION) -> Path:
    """The bundled Day of the Dead cards with a quick playtest section, as ``where/dotd``."""
    root = where / "dotd"
    shutil.copytree(CARDS / "day-of-the-dead", root)
    game = yaml.safe_load((root / "game.yaml").read_text())
    game["playtest"] = section
    (root / "game.yaml").write_text(yaml.safe_dump(game, sort_keys=False))
    return root


def edit(root: Path, old: str, new: str, file: str = "characters.yaml") -> None:
    text = (root / file).read_text()
    assert text.count(old) == 1
    (root / file).write_text(text.replace(old, new))


def metric(record: dict, name: str) -> dict:
    return next(m for m in record["runs"][0]["metrics"] if m["name"] == name)


def test_a_changed_card_is_tested_on_paired_games_and_the_rest_is_carried(tmp_path):
    root = make_set(tmp_path)
    out = tmp_path / "out"
    first = build_set(load_set(root), out=out, jobs=1, render=False)
    assert first.passed and first.record["change"] is None
    assert (out / "dotd" / LAST_PASS / "playtest.json").is_file()
    edit(root, "    - gain_vp: 3\n", "    - gain_vp: 4\n")  # Hoard
    second = build_set(load_set(root), out=out, jobs=1, render=False)
    change = second.record["change"]
    assert change["changed"] == ["hoard"] and change["against"] == first.record["content_hash"]
    assert second.record["declared"] and all(n.startswith("card.hoard.") for n in second.record["declared"])
    run = second.record["runs"][0]
    # the last pass measured Hoard on a first look's deals: a fresh first look against the
    # stand-in is as narrow, without the change's error on top of the old one's
    assert run["substitution"]["against"] == {"hoard": "stand-in"}
    assert "oaf" in run["substitution"]["carried"]
    assert metric(second.record, "card.oaf.sub_delta") == metric(first.record, "card.oaf.sub_delta")
    # the set metrics are the last pass's value plus a paired change; they are listed as paired
    assert "first_priority_win_rate" in run["paired_with_last_pass"]
    assert run["last_pass_values"]["first_priority_win_rate"] == metric(first.record, "first_priority_win_rate")["value"]
    assert not rec.problems(json.loads((out / "dotd" / "playtest.json").read_text()))


def test_a_change_nothing_plays_differently_moves_nothing(tmp_path):
    root = make_set(tmp_path)
    out = tmp_path / "out"
    first = build_set(load_set(root), out=out, jobs=1, render=False)
    edit(root, "  name: Gravedigger\n", "  name: Grave Digger\n")  # a name: no game changes
    second = build_set(load_set(root), out=out, jobs=1, render=False)
    assert second.record["change"]["changed"] == ["gravedigger"]
    m = metric(second.record, "card.gravedigger.sub_delta")
    old = metric(first.record, "card.gravedigger.sub_delta")
    # exactly zero change, and the last pass's own sampling error kept (not a zero-width interval)
    assert (m["value"], m["low"], m["high"]) == (old["value"], old["low"], old["high"])
    rate, was = metric(second.record, "first_priority_win_rate"), metric(first.record, "first_priority_win_rate")
    assert rate["value"] == was["value"] and rate["high"] - rate["low"] >= was["high"] - was["low"] - 1e-12
    # only what is printed changes: every game is the last pass's, nothing is played
    edit(root, "stroke: frame, stroke_width: 1.2}", "stroke: frame, stroke_width: 2.0}", "template.yaml")
    third = build_set(load_set(root), out=out, jobs=1, render=False)
    assert third.record["change"].get("same_games") and third.passed
    assert all(r.get("same_games_as_last_pass") for r in third.record["runs"])
    # nothing moved since the last pass: no comparison with the pass before it is carried along
    assert not any("last_pass_values" in r or "paired_with_last_pass" in r for r in third.record["runs"])


def test_a_focus_on_unchanged_content_says_nothing_changed(tmp_path):
    """`build --focus oaf` on the last pass's own content said "no card or rule (only what is
    printed)", as if the template had changed."""
    from boneyard.pipeline.cli import cli
    from click.testing import CliRunner

    root = make_set(tmp_path)
    out = tmp_path / "out"
    assert build_set(load_set(root), out=out, jobs=1, render=False).passed
    res = CliRunner().invoke(cli, ["build", str(root), "--out", str(out), "--no-render", "--jobs", "1",
                                   "--focus", "oaf"])
    assert res.exit_code == 0, res.output
    assert "nothing: the content is the last pass's" in res.output and "only what is printed" not in res.output
    assert "Nothing changed: the content is the last pass's." in (out / "dotd" / "report.md").read_text()


def test_an_edited_last_pass_is_not_believed(tmp_path):
    root = make_set(tmp_path)
    out = tmp_path / "out"
    build_set(load_set(root), out=out, jobs=1, render=False)
    kept = out / "dotd" / LAST_PASS / "playtest.json"
    data = json.loads(kept.read_text())
    data["runs"][0]["metrics"][0]["value"] = 0.123
    kept.write_text(json.dumps(data))
    edit(root, "    - gain_vp: 3\n", "    - gain_vp: 4\n")
    again = build_set(load_set(root), out=out, jobs=1, render=False)
    assert again.record["change"] is None
    assert "signature" in again.record["from_scratch"]
    # other settings (a seed) are never paired with a last pass made under others
    other = build_set(load_set(root), out=out, jobs=1, render=False, seed=9)
    assert other.record["change"] is None and "settings" in other.record["from_scratch"]


def test_a_damaged_last_pass_is_said_to_be_damaged(tmp_path):
    """A last pass cut short or edited by hand: the build starts from scratch and says why,
    not "no last passing record"."""
    root = make_set(tmp_path)
    out = tmp_path / "out"
    build_set(load_set(root), out=out, jobs=1, render=False)
    kept = out / "dotd" / LAST_PASS / "playtest.json"
    kept.write_text(kept.read_text()[:200])
    edit(root, "    - gain_vp: 3\n", "    - gain_vp: 4\n")
    again = build_set(load_set(root), out=out, jobs=1, render=False)
    assert again.record["change"] is None
    assert again.record["from_scratch"].startswith(f"the last passing record {kept} is damaged (")


def test_focus_and_accept_undecided(tmp_path):
    tight = dict(SECTION, gates=[{"metric": "first_priority_win_rate", "min": 0.499, "max": 0.501}])
    root = make_set(tmp_path, tight)
    out = tmp_path / "out"
    refused = build_set(load_set(root), out=out, jobs=1, render=False)
    statuses = {g["status"] for g in refused.record["gates"]}
    assert UNDECIDED in statuses and not refused.passed  # a bound no sample can settle
    accepted = build_set(load_set(root), out=out, jobs=1, render=False, accept_undecided=True)
    assert accepted.passed and accepted.record["accept_undecided"]
    assert not rec.problems(json.loads((out / "dotd" / "playtest.json").read_text()))
    focused = build_set(load_set(make_set(tmp_path / "f")), out=tmp_path / "fo", jobs=1, render=False,
                        focus=("oaf",))
    assert "card.oaf.sub_delta" in focused.record["declared"]


@pytest.mark.parametrize(("game", "file", "old", "new"), [
    ("day-of-the-dead", "characters.yaml", "  flavor: Nobody knows how it wins. Nobody is brave enough to ask.\n",
     "  flavor: Nobody knows how it wins.\n  art: nemesis.png\n"),
    ("grave-feast", "deck.yaml", "  flavor: Eats only blood families. Insists on a tablecloth.\n",
     "  flavor: Eats only blood families.\n  art: vampire.png\n"),
])
def test_flavor_text_and_art_replay_no_game(game, file, old, new, tmp_path, fast_builds):
    """Only the printer reads flavor text and art: the next build plays nothing and carries every
    figure (in seconds, not a rebuild), while the record vouches for the new content."""
    from PIL import Image

    src = tmp_path / "src" / game
    shutil.copytree(fast_builds.get(game)[0], src)
    out = fast_builds.copy_out(game, tmp_path / "out")
    before = json.loads((out / game / "playtest.json").read_text())
    edit(src, old, new, file)
    Image.new("RGB", (300, 300), "red").save(src / new.split("art: ")[1].strip())
    after = build_set(load_set(src), out=out, fast=True, seed=1, jobs=2, render=False)
    assert after.passed
    change = after.record["change"]
    assert change.get("same_games") and change["changed"] == [] and change["params"] == []
    assert all(r.get("same_games_as_last_pass") for r in after.record["runs"])
    assert after.record["content_hash"] != before["content_hash"]
    # an edit of play beside it is not taken for one of print
    if game == "grave-feast":
        edit(src, "  copies: 4\n  flavor: Eats only blood", "  copies: 5\n  flavor: Eats only blood", file)
    else:
        edit(src, "  power: 0\n  effect:\n    - auto_win: self\n", "  power: 1\n  effect:\n    - auto_win: self\n", file)
    last = folder(out / game)
    base = base_for(load_set(src), load_set(last / "set"), json.loads((last / "playtest.json").read_text()))
    assert not base.same_play
    assert base.changed == (("vampire",) if game == "grave-feast" else ("nemesis",))


@pytest.mark.parametrize("edit", ["power", "delete"])
def test_a_set_saved_while_it_was_built_is_not_kept_as_its_last_pass(tmp_path, edit):
    """The last pass was copied from the folder at the end of the build, so a file saved (or
    deleted) meanwhile was kept under a record that never played it."""
    from boneyard.pipeline import lastpass
    from boneyard.pipeline.load import load_set

    work = tmp_path / "spooky"
    shutil.copytree(Path(__file__).parents[1] / "cards" / "day-of-the-dead", work)
    played = load_set(work)
    cards = work / "characters.yaml"
    if edit == "delete":
        cards.unlink()
    else:
        cards.write_text(cards.read_text().replace("power: 7", "power: 6", 1))
    why = lastpass.save(played, {"passed": True}, tmp_path / "out")
    assert why is not None and "the set's files changed while it was built" in why
    assert f"played: {played.content_hash}" in why
    assert not folder(tmp_path / "out").exists()
    assert [p.name for p in (tmp_path / "out").iterdir()] == []  # no temporary copy left


def test_the_build_names_the_grave_feast_cards_an_edit_changed(tmp_path, fast_builds):
    """A deck edit is named where the build says what it tested against the last pass (it said
    "no card or rule" for every Grave Feast edit), and a derived gate added by the edit (the
    flubs a phrase error rate makes possible) does not turn the build into one from scratch."""
    from boneyard.pipeline.cli import cli
    from click.testing import CliRunner

    game = "grave-feast"
    src = tmp_path / "src" / game
    shutil.copytree(fast_builds.get(game)[0], src)
    out = fast_builds.copy_out(game, tmp_path / "out")
    edit(src, "  kind: succubus\n  copies: 4\n", "  kind: succubus\n  copies: 5\n", "deck.yaml")
    edit(src, "phrase_error_rate: 0.0 ", "phrase_error_rate: 0.1 ", "game.yaml")
    result = CliRunner().invoke(cli, ["build", "--fast", "--no-render", "--jobs", "2", "--out", str(out), str(src)])
    assert "tested what changed since the last pass" in result.output, result.output
    line = next(x for x in result.output.splitlines() if "tested what changed" in x)
    assert line.endswith(": succubus, switches.phrase_error_rate"), line


def _runs(record: dict) -> list[dict]:
    """A record's runs without their timings (what the games measured)."""
    return [{k: v for k, v in r.items() if k not in ("seconds", "stage_seconds")} for r in record["runs"]]


def test_a_change_aware_build_takes_the_old_side_from_the_games_the_last_pass_kept(tmp_path, monkeypatch):
    """The last pass keeps its main games, so the next build plays only the new content: the
    same record as playing the old side again, without playing it; a kept file that was edited,
    or that belongs to other content, is not used (the old side is played again)."""
    from boneyard.pipeline import lastgames
    from boneyard.pipeline import playtest as pt

    root = make_set(tmp_path)
    out = tmp_path / "out"
    first = build_set(load_set(root), out=out, jobs=1, render=False)
    kept = out / "dotd" / LAST_PASS / lastgames.GAMES
    assert kept.is_file()
    replay = tmp_path / "replay"
    shutil.copytree(out, replay)
    (replay / "dotd" / LAST_PASS / lastgames.GAMES).unlink()
    edit(root, "    - gain_vp: 3\n", "    - gain_vp: 4\n")  # Hoard
    played_on: list[str] = []
    real = pt.simulate

    def counting(card_set, *args, **kwargs):
        played_on.append(card_set.content_hash)
        return real(card_set, *args, **kwargs)

    monkeypatch.setattr(pt, "simulate", counting)
    taken = build_set(load_set(root), out=out, jobs=1, render=False)
    assert taken.record["change"]["changed"] == ["hoard"]
    assert first.record["content_hash"] not in played_on  # the old side was not played
    played_on.clear()
    again = build_set(load_set(root), out=replay, jobs=1, render=False)
    assert first.record["content_hash"] in played_on  # (without the file it is)
    assert _runs(taken.record) == _runs(again.record)
    # the new last pass keeps the games it played; they are believed for its content only
    old = load_set(out / "dotd" / LAST_PASS / "set")
    want = lastgames.identity(taken.record, play_hash(old))
    games = lastgames.read(out / "dotd" / LAST_PASS, want)
    b = games.batches["main|3"] if games else {}  # batch 0 of run "main" has the build's seed
    assert len(b["returns"]) == 200 and b["agents"] == ["greedy"]
    assert games.take("main", 3, ["greedy"], b["players"], b["options"], 200) is not None
    assert games.take("main", 3, ["gate"], b["players"], b["options"], 200) is None
    assert lastgames.read(out / "dotd" / LAST_PASS, dict(want, play_hash="0" * 16)) is None
    # an edited file (one game's result turned round) is not believed
    played = lastgames.Played(games.identity, games.batches)
    batch = next(iter(played.batches.values()))
    batch["returns"][0] = batch["returns"][0][::-1]
    body = lastgames._body(played)
    head = json.dumps({"mac": json.loads(gzip.decompress(kept.read_bytes()).partition(b"\n")[0])["mac"]})
    kept.write_bytes(gzip.compress(head.encode() + b"\n" + body))
    assert lastgames.read(kept.parent, want) is None


def test_what_a_killed_save_left_is_swept_and_the_last_pass_is_readable(tmp_path):
    import os
    import stat
    import subprocess
    import sys

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    dead = int(gone.stdout)  # a process that has ended: what it left is nobody's
    root = make_set(tmp_path)
    out = tmp_path / "out"
    where = out / "dotd"
    for name in (f".{LAST_PASS}-{dead}-x1y2", f".{LAST_PASS}-old-{dead}"):
        (where / name / "set").mkdir(parents=True)  # a whole copy of the set, once
    mine = where / f".{LAST_PASS}-{os.getpid()}-busy"  # a live process's: left alone
    mine.mkdir()
    assert build_set(load_set(root), out=out, jobs=1, render=False).passed
    left = sorted(p.name for p in where.iterdir() if p.name.startswith(f".{LAST_PASS}"))
    assert left == [mine.name]
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE((where / LAST_PASS).stat().st_mode) == 0o777 & ~umask


def test_an_output_folder_inside_the_set_is_not_copied_into_its_last_pass(tmp_path):
    root = make_set(tmp_path)
    out = root / "output"
    for _ in range(2):
        assert build_set(load_set(root), out=out, jobs=1, render=False).passed
    kept = folder(out / "dotd") / "set"
    assert (kept / "characters.yaml").is_file()
    assert not (kept / "output").exists()


def test_kept_games_that_are_not_a_file_are_not_read(tmp_path):
    import os

    from boneyard.pipeline import lastgames

    os.mkfifo(tmp_path / lastgames.GAMES)  # gzip would wait for a writer for ever
    assert lastgames.read(tmp_path, {"any": "identity"}) is None


def test_a_changed_card_is_paired_with_its_last_pass_self_only_where_that_was_measured_longer():
    """Against its last-pass self a changed card's value is the old value plus the paired
    change, both errors counted: worth it only where the last pass measured the card on more
    deals than a first look plays (a card near its bound, sampled look after look)."""
    from boneyard.engine.stats import Metric
    from boneyard.pipeline.build import config_for
    from boneyard.pipeline.lastpass import Base
    from boneyard.pipeline.playtest import card_pairings

    card_set = load_set(CARDS / "day-of-the-dead")
    cfg = config_for(card_set, jobs=1)
    first = cfg.sub_looks()[0]
    ids = frozenset(c.id for c in card_set.characters)

    def against(deals: int) -> dict[str, str]:
        old = Metric("card.hoard.sub_delta", 0.02, -0.04, 0.08, deals, "card", "hoard", "%")
        base = Base(card_set, {"runs": [{"label": "main", "metrics": [old.to_json()]}]},
                    changed=("hoard",), units=ids)
        pairings, _, _ = card_pairings(card_set, cfg, base, ())
        return {p.cid: p.kind for p in pairings if p.cid == "hoard"}

    assert against(first) == {"hoard": "stand-in"}
    assert against(4 * first) == {"hoard": "last pass"}


def test_a_changed_card_its_last_pass_cannot_settle_is_measured_again_against_the_stand_in():
    """Against its last-pass self a card's value carries the last pass's error, which no number
    of paired games narrows: when that leaves it undecided at the cap, the stand-in measures it
    afresh and that verdict stands (a harmless edit of a card near its bound is not refused
    for the old sample's noise)."""
    from dataclasses import replace

    from boneyard.engine.games import spec_of
    from boneyard.engine.stats import Metric
    from boneyard.pipeline.build import config_for
    from boneyard.pipeline.gates import Gate
    from boneyard.pipeline.paired import LAST_PASS_KIND, UNSETTLED_KIND, Pairing
    from boneyard.pipeline.playtest import _pair
    from boneyard.pipeline.playtest_config import Run

    card_set = load_set(CARDS / "day-of-the-dead")
    cfg = replace(config_for(card_set, jobs=1, agents="greedy"), substitution_games=20, substitution_cap=40)
    gates = [Gate("card.*.sub_delta", min=-0.6, max=0.18)]
    # an old value just under the bound with a wide interval: anchored, it straddles the bound
    # whatever the change
    old = Metric("card.hoard.sub_delta", 0.17, -0.2, 0.54, 800, "card", "hoard", "%")
    spec = spec_of(card_set.rules)
    anchored = Pairing("hoard", "card.hoard.sub_delta", spec.swap_unit(card_set, "hoard", card_set),
                       anchor=old, declared=True, kind=LAST_PASS_KIND)
    run = Run("main", None)
    specs = ["greedy"]
    [got] = _pair(card_set, run, cfg, [anchored], specs, [], {}, 1, gates, cfg.looks(), 1, None)
    assert anchored.status == UNDECIDED and anchored.kind == UNSETTLED_KIND
    assert len(anchored.diffs) == 40 and all(d == 0 for d in anchored.diffs)  # no change: 0 each
    fresh = Pairing("hoard", "card.hoard.sub_delta", spec.stand_in(card_set, "hoard", cfg.stand_in), declared=True)
    [alone] = _pair(card_set, run, cfg, [fresh], specs, [], {}, 1, gates, cfg.looks(), 1, None)
    assert got == alone and got.value != old.value  # the stand-in's measurement, not the anchored one
    # the first look only (a build already refused) keeps the anchored figure
    again = Pairing("hoard", "card.hoard.sub_delta", spec.swap_unit(card_set, "hoard", card_set),
                    anchor=old, declared=True, kind=LAST_PASS_KIND)
    [first] = _pair(card_set, run, cfg, [again], specs, [], {}, 1, gates, cfg.looks(), 1, None, first_only=True)
    assert again.kind == LAST_PASS_KIND and first.value == old.value
