"""Proof that the gate works: broken fixture sets fail or are flagged, the bundled sets pass.

Fixture sets (tests/fixtures/sets/) are the bundled Day of the Dead set with one deliberate change
each and a small playtest section; they run with the real engine and the greedy agent.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from boneyard.pipeline.build import (
    FAILED_PLAYTEST,
    NOT_PLAYTESTED,
    build_set,
    config_for,
    render_permission,
)
from boneyard.pipeline.cli import cli
from boneyard.pipeline.gates import FAIL, PASS, UNDECIDED
from boneyard.pipeline.load import load_set
from boneyard.pipeline.playtest import playtest
from click.testing import CliRunner

from boneyard.errors import BoneyardError, GateError, RenderError

FIXTURES = Path(__file__).parent / "fixtures" / "sets"


def fixture(name: str):
    return load_set(FIXTURES / name)


def gate_status(record, metric: str) -> str:
    found = [g["status"] for g in record["gates"] if g["metric"] and g["metric"]["name"] == metric]
    assert found, f"no gate result for {metric}"
    return found[0]


class Recorder:
    """Stands in for the renderer: records what the build asked it to print."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str | None]] = []

    def __call__(self, card_set, out_dir, note, watermark):
        self.calls.append((note, watermark))
        return [out_dir / "cards.pdf"]


@pytest.fixture(scope="module")
def overpowered(tmp_path_factory):
    out = tmp_path_factory.mktemp("op")
    rec = Recorder()
    outcome = build_set(fixture("dotd-overpowered"), out=out, jobs=1, renderer=rec)
    return outcome, rec, out


def test_overpowered_character_fails_its_gate_and_nothing_is_rendered(overpowered):
    outcome, rec, _ = overpowered
    assert not outcome.passed
    assert gate_status(outcome.record, "card.oaf.sub_delta") == FAIL
    m = next(g["metric"] for g in outcome.record["gates"] if g["metric"] and g["metric"]["name"] == "card.oaf.sub_delta")
    assert m["low"] > 0.20  # the whole interval is above the bound
    assert rec.calls == []  # nothing rendered
    assert "card.oaf.sub_delta" in [r.metric.name for r in outcome.failed_gates() if r.metric]
    # the other characters are unaffected and pass
    assert gate_status(outcome.record, "first_priority_win_rate") == PASS


def test_failed_build_still_writes_the_record_and_the_report_with_failures_first(overpowered):
    outcome, _, out = overpowered
    folder = out / outcome.card_set.slug
    record = json.loads((folder / "playtest.json").read_text())
    assert record["content_hash"] == outcome.card_set.content_hash
    assert record["passed"] is False and record["seed"] == 1 and record["agents"] == "greedy"
    assert record["tool"].startswith("boneyard ")
    assert record["games"] == 500
    names = {m["name"] for m in record["runs"][0]["metrics"]}
    assert {"first_priority_win_rate", "card.oaf.sub_delta", "card.oaf.win_delta", "draw_rate"} <= names
    for m in record["runs"][0]["metrics"]:
        if m["value"] is not None:
            assert m["low"] - 1e-9 <= m["value"] <= m["high"] + 1e-9, m
    html = (folder / "report.html").read_text()
    md = (folder / "report.md").read_text()
    assert "FAILED" in html and "<svg" in html
    # self-contained: no external scripts, stylesheets or images (one inline script sorts tables)
    assert "<script src" not in html and "<link" not in html and "src=\"http" not in html \
        and "src='http" not in html and html.count("<script") == 1
    broken = md.index("## Broken or suspicious")
    assert md.index("card.oaf.sub_delta", broken) < md.index("## Run main")
    # the gate agent's reference figures, with what they are worth for this build
    ref = md[md.index("## The agent against its reference"):md.index("## Run main")]
    assert "win share vs mcts:50" in ref and "this build played greedy" in ref
    assert "not on this set's content" in ref and "The agent against its reference" in html


def test_force_renders_marked_failed_playtest(overpowered):
    _, _, tmp_path = overpowered
    rec = Recorder()
    outcome = build_set(fixture("dotd-overpowered"), out=tmp_path, jobs=1, renderer=rec, force=True)
    assert not outcome.passed and outcome.reused  # same content and settings: the record stands
    assert rec.calls and rec.calls[0][1] == FAILED_PLAYTEST
    assert rec.calls[0][0].startswith(FAILED_PLAYTEST)
    # boneyard render (without a new build) refuses, and --force watermarks
    with pytest.raises(GateError, match="failed its gates"):
        render_permission(outcome.card_set, tmp_path)
    assert render_permission(outcome.card_set, tmp_path, force=True)[1] == FAILED_PLAYTEST


def test_useless_character_is_undecided_or_failed(tmp_path):
    out = tmp_path
    outcome = build_set(fixture("dotd-useless"), out=out, jobs=1, render=False)
    assert gate_status(outcome.record, "card.oaf.play_rate") in (UNDECIDED, FAIL)
    assert not outcome.passed  # undecided fails the build too
    md = (out / outcome.card_set.slug / "report.md").read_text()
    section = md[md.index("## Broken or suspicious"):md.index("## Run main")]
    assert "card.oaf.play_rate" in section


# The bundled sets pass the fast profile from scratch at seeds 1, 2 and 3: tests/test_mistakes.py
# (test_the_unmodified_sets_pass_from_scratch), whose change-aware builds start from those passes.


def small_passing_set():
    """The useless fixture with a quick playtest and only the priority gate: it passes."""
    from dataclasses import replace

    from boneyard.engine.cards import freeze

    section = {"agents": "greedy", "games": 200, "seed": 5, "substitution": {"games": 0},
               "strength": {"games": 0},
               "gates": [{"metric": "first_priority_win_rate", "min": 0.3, "max": 0.7}]}
    return replace(fixture("dotd-useless"), playtest=freeze(section))


def test_passing_record_is_reused_and_gates_render(tmp_path):
    cs = small_passing_set()
    rec = Recorder()
    first = build_set(cs, out=tmp_path, jobs=1, renderer=rec)
    assert first.passed and not first.reused
    note, mark = rec.calls[0]
    assert mark is None and note == "playtested: 200 games, gates passed"
    again = build_set(cs, out=tmp_path, jobs=1, renderer=rec)
    assert again.reused and again.record["content_hash"] == cs.content_hash
    assert rec.calls[1] == (note, None)
    assert render_permission(cs, tmp_path) == (note, None)
    # another content hash (a switch changed) has no passing record: refused, or NOT PLAYTESTED
    other = cs.with_switches(tie_break="chain")
    with pytest.raises(GateError, match="refusing to render"):
        render_permission(other, tmp_path)
    assert render_permission(other, tmp_path, force=True)[1] == NOT_PLAYTESTED
    # other settings (a seed) are playtested afresh, not reused
    assert not build_set(cs, out=tmp_path, jobs=1, seed=9, render=False).reused


def test_a_render_that_fails_after_the_playtest_says_the_playtest_is_kept(tmp_path):
    """A disk that filled while the PNGs were written gave only "png: cannot write": nothing said
    the playtest had passed, nor that its record was written and would be reused."""
    from boneyard.errors import RenderError

    cs = small_passing_set()

    def full_disk(card_set, out_dir, note, watermark):
        raise RenderError(f"{out_dir}/png: cannot write: No space left on device")

    with pytest.raises(RenderError) as err:
        build_set(cs, out=tmp_path, jobs=1, renderer=full_disk)
    first, then = str(err.value).splitlines()
    assert first.endswith("png: cannot write: No space left on device")
    assert then.startswith(f"{cs.name}: the playtest passed (200 games) and its record and report ")
    assert then.endswith("only rendering failed: mend the above and build again, which reuses "
                         "the record")
    assert build_set(cs, out=tmp_path, jobs=1, renderer=Recorder()).reused


def test_a_last_pass_that_cannot_be_kept_is_a_warning_not_a_lost_build(tmp_path, monkeypatch):
    """A disk that filled while the last pass was copied stopped the build at a hidden temporary
    folder's name, before the reports were written."""
    from boneyard.pipeline import lastpass

    def full(*_args, **_kwargs):
        raise OSError(28, "No space left on device", str(tmp_path / ".last-pass-x" / "set"))

    monkeypatch.setattr(lastpass.shutil, "copytree", full)
    outcome = build_set(small_passing_set(), out=tmp_path, jobs=1, renderer=Recorder())
    assert outcome.passed and (outcome.out_dir / "report.html").is_file()
    assert outcome.warnings == ["the last pass could not be kept (No space left on device): the "
                                "next build of this set plays it from scratch"]
    assert not [p for p in outcome.out_dir.iterdir() if p.name.startswith(".")]


def test_a_disk_full_for_the_last_pass_and_the_prints_says_both(tmp_path, monkeypatch):
    """The render's failure was said and the lost last pass was not: the next build played
    from scratch, unannounced."""
    from boneyard.pipeline import lastpass

    from boneyard.errors import RenderError

    def full(*_args, **_kwargs):
        raise OSError(28, "No space left on device", str(tmp_path / ".last-pass-x" / "set"))

    def full_disk(card_set, out_dir, note, watermark):
        raise RenderError(f"{out_dir}/png: cannot write: No space left on device")

    monkeypatch.setattr(lastpass.shutil, "copytree", full)
    with pytest.raises(RenderError) as err:
        build_set(small_passing_set(), out=tmp_path, jobs=1, renderer=full_disk)
    assert str(err.value).splitlines()[-1] == (
        "warning: the last pass could not be kept (No space left on device): the next build of "
        "this set plays it from scratch")


def test_a_set_changed_during_its_build_is_not_rendered(tmp_path, monkeypatch):
    """The template and art are read when rendering: after an edit made during the playtest the
    prints would mix the content played with the content now, under the played one's record."""
    from boneyard.pipeline import lastpass

    said = f"{lastpass.CHANGED} (content now 0123; played: 4567): ..."
    monkeypatch.setattr(lastpass, "save", lambda *_args: said)
    rec = Recorder()
    outcome = build_set(small_passing_set(), out=tmp_path, jobs=1, renderer=rec)
    assert outcome.passed and outcome.warnings == [said]
    assert rec.calls == [] and outcome.rendered == [] and outcome.stale
    # and the command says so with its exit code: a CI step took exit 0 for prints made
    from boneyard.pipeline import cmd_build

    monkeypatch.setattr(cmd_build, "build_set", lambda cs, **_kw: outcome)
    res = CliRunner().invoke(cli, ["build", str(FIXTURES / "dotd-useless"), "--out", str(tmp_path)])
    assert res.exit_code == 1, res.output
    assert "changed while it was built, so nothing of it was rendered or kept: build again" \
        in str(res.exception or "") + res.output


def _own_copy(tmp_path: Path):
    """small_passing_set in a folder of its own, with its own template.yaml to edit."""
    import shutil
    from dataclasses import replace

    src = tmp_path / "set"
    shutil.copytree(FIXTURES / "dotd-useless", src)
    shutil.copy(Path(__file__).parents[1] / "cards" / "day-of-the-dead" / "template.yaml", src)
    return src, replace(load_set(src), playtest=small_passing_set().playtest)


def test_a_template_saved_after_the_set_was_read_is_not_printed_under_its_record(tmp_path,
                                                                              monkeypatch):
    """A reused record plays no game, so nothing looked again: a template saved after the set
    was read was printed (it is read from disk when rendering) under a record of the content
    before it, exit 0. Saved while rendering, the prints may mix both: exit 1 too."""
    from dataclasses import replace

    src, cs = _own_copy(tmp_path)
    out = tmp_path / "out"
    assert build_set(cs, out=out, jobs=1, render=False).passed
    template = src / "template.yaml"
    template.write_text(template.read_text() + "# saved again\n")
    rec = Recorder()
    outcome = build_set(cs, out=out, jobs=1, renderer=rec)
    assert outcome.reused and outcome.stale and rec.calls == [] and outcome.rendered == []
    assert outcome.warnings == ["the set's files changed while it was built (template.yaml): "
                                "nothing was rendered; build again for the edits"]

    def saving(card_set, out_dir, note, watermark):
        template.write_text(template.read_text() + "# and again\n")
        return [out_dir / "cards.pdf"]

    now = replace(load_set(src), playtest=cs.playtest)  # read as it is now, saved as it renders
    outcome = build_set(now, out=out, jobs=1, renderer=saving)
    assert outcome.stale and outcome.rendered and "while it was rendered" in outcome.warnings[-1]
    from boneyard.pipeline import cmd_build

    monkeypatch.setattr(cmd_build, "build_set", lambda cs, **_kw: outcome)
    res = CliRunner().invoke(cli, ["build", str(src), "--out", str(out)])
    assert res.exit_code == 1, res.output
    assert "changed while it was rendered, so its prints may mix the old and the new content" \
        in str(res.exception)


def test_a_build_stopped_while_rendering_says_which_prints_are_new(tmp_path, monkeypatch, capsys):
    """Each output is replaced whole, so Ctrl-C after the PDF left the last build's card images
    (of other content) beside it, and the build said only "Interrupted."."""
    import boneyard.pipeline.build as build

    cs = small_passing_set()
    build_set(cs, out=tmp_path, jobs=1, render=False)

    def stopped(card_set, out_dir, note, watermark, written):
        written.append(("pdf", out_dir / "cards.pdf"))
        raise KeyboardInterrupt

    monkeypatch.setattr(build, "default_renderer", stopped)
    with pytest.raises(KeyboardInterrupt):
        build_set(cs, out=tmp_path, jobs=1)
    err = capsys.readouterr().err
    assert err.startswith("rendering stopped: wrote pdf; not rendered: png, tts, proof (any such "
                          f"output in {tmp_path / cs.slug} is from an earlier build")

    def full(card_set, out_dir, note, watermark, written):
        written.append(("pdf", out_dir / "cards.pdf"))
        raise RenderError(f"{out_dir}/png-tgc: cannot write: No space left on device")

    monkeypatch.setattr(build, "default_renderer", full)
    with pytest.raises(RenderError) as said:
        build_set(cs, out=tmp_path, jobs=1)
    assert str(said.value).splitlines()[-1].startswith("rendering stopped: wrote pdf; not rendered: png")


def test_a_damaged_record_is_said_to_be_damaged_not_missing(tmp_path):
    """A build cut short or a record edited by hand: the refusal says what is wrong with it."""
    cs = small_passing_set()
    build_set(cs, out=tmp_path, jobs=1, renderer=Recorder())
    path = next(tmp_path.rglob("playtest.json"))
    path.write_text(path.read_text()[:300])
    with pytest.raises(GateError, match=r"its playtest record is damaged \(not JSON: "):
        render_permission(cs, tmp_path)
    path.unlink()
    with pytest.raises(GateError, match="there is no playtest record"):
        render_permission(cs, tmp_path)


def test_precision_simulates_until_gated_intervals_are_narrow(tmp_path):
    cs = fixture("dotd-useless")
    section = {"agents": "greedy", "games": 150, "seed": 4, "cap": 1200, "precision": 0.1,
               "substitution": {"games": 0}, "strength": {"games": 0},
               "gates": [{"metric": "first_priority_win_rate", "min": 0.3, "max": 0.7}]}
    from dataclasses import replace

    from boneyard.engine.cards import freeze

    cs = replace(cs, playtest=freeze(section))
    record = playtest(cs, config_for(cs, jobs=1))
    m = next(x for x in record["runs"][0]["metrics"] if x["name"] == "first_priority_win_rate")
    assert record["games"] > 150  # 150 games give a width of about 0.16: more batches were needed
    assert m["high"] - m["low"] <= 0.1 or record["games"] >= 1200
    assert record["runs"][0]["batches"] >= 2


def test_substitution_is_paired_and_independent_of_jobs():
    cs = fixture("dotd-overpowered")
    cfg = config_for(cs, games=120, jobs=1)
    from dataclasses import replace

    cfg = replace(cfg, strength_games=0, substitution_games=15)
    one = playtest(cs, cfg)
    two = playtest(cs, replace(cfg, jobs=2))
    pick = lambda r: next(m for m in r["runs"][0]["metrics"] if m["name"] == "card.oaf.sub_delta")  # noqa: E731
    assert pick(one) == pick(two)
    assert pick(one)["n"] == 15


def test_cli_build_failure_prints_the_failed_gates_and_exits_1(overpowered):
    _, _, out = overpowered  # the record made there is reused: same content, same settings
    res = CliRunner().invoke(cli, ["build", str(FIXTURES / "dotd-overpowered"), "--out", str(out)])
    assert res.exit_code == 1
    assert "failed gates" in res.output and "card.oaf.sub_delta" in res.output
    assert "reused record" in res.output and "nothing rendered" in res.output
    assert not list((out / "dotd-overpowered").glob("*.pdf"))
    assert isinstance(res.exception, GateError)  # main() turns it into a message and exit code 1
    assert "gates failed for: DotD fixture overpowered" in str(res.exception)
    assert "are an earlier build's" not in res.output  # nothing was printed there before


def test_cli_build_failure_says_the_prints_in_the_folder_are_an_earlier_builds(overpowered):
    _, _, out = overpowered
    folder = out / "dotd-overpowered"
    (folder / "dotd-overpowered-poker-letter.pdf").write_bytes(b"%PDF- of the last passing content")
    try:
        res = CliRunner().invoke(cli, ["build", str(FIXTURES / "dotd-overpowered"), "--out", str(out)])
    finally:
        (folder / "dotd-overpowered-poker-letter.pdf").unlink()
    assert res.exit_code == 1
    assert "(dotd-overpowered-poker-letter.pdf) are an earlier build's, not of these files" \
        in " ".join(res.output.split())


def test_bad_playtest_section_is_a_clear_error(tmp_path):
    cs = fixture("dotd-useless")
    from dataclasses import replace

    from boneyard.engine.cards import freeze

    bad = replace(cs, playtest=freeze({"gates": [{"metric": "draw_rate"}], "profiles": {}}))
    with pytest.raises(GateError, match="needs 'min', 'max' or both"):
        config_for(bad)
    with pytest.raises(GateError, match="no profile 'fast'"):
        config_for(cs, fast=True)
    with pytest.raises(GateError, match="has no balance gates"):
        config_for(replace(cs, playtest=freeze({"games": 10})))


def test_gate_problems_point_at_their_line(tmp_path):
    import shutil

    folder = tmp_path / "bad"
    shutil.copytree(FIXTURES / "dotd-useless", folder)
    game = folder / "game.yaml"
    text = game.read_text().replace("      min: 0.40\n      max: 0.60", "      min: 0.60\n      max: 0.40")
    game.write_text(text)
    line = text.splitlines().index("    - metric: first_priority_win_rate") + 1
    res = CliRunner().invoke(cli, ["build", str(folder), "--out", str(tmp_path / "out")])
    assert isinstance(res.exception, GateError)
    assert f"game.yaml:{line}:7: playtest.gates[0]: min 0.6 is above max 0.4 (swap them)" in str(res.exception)
    assert not (tmp_path / "out").exists()  # nothing simulated, nothing written


def test_rules_change_handing_the_first_player_an_edge_fails_the_priority_gate(tmp_path):
    cs = fixture("dotd-first-player-edge")
    assert cs.params["first_player_power"] == 1  # the only change from the bundled set
    outcome = build_set(cs, out=tmp_path, jobs=1, render=False)
    assert gate_status(outcome.record, "first_priority_win_rate") == FAIL
    m = next(g["metric"] for g in outcome.record["gates"]
             if g["metric"] and g["metric"]["name"] == "first_priority_win_rate")
    assert m["low"] > 0.60  # (the same cards under the rulebook's rules pass: see the bundled test)



def test_cli_build_refuses_a_misspelt_gate_before_playing(tmp_path):
    import shutil

    src = tmp_path / "dotd-useless"
    shutil.copytree(FIXTURES / "dotd-useless", src)
    game = src / "game.yaml"
    game.write_text(game.read_text().replace("- metric: card.*.play_rate", "- metric: card.*.play_rat", 1))
    res = CliRunner().invoke(cli, ["build", str(src), "--out", str(tmp_path / "out"), "--no-render"])
    said = str(res.exception)  # a BoneyardError: main() prints it and exits 1
    assert res.exit_code == 1 and isinstance(res.exception, BoneyardError), res.output
    assert "'card.*.play_rat' names no metric" in said and "did you mean 'card.*.play_rate'?" in said
    assert "not built" in said
    assert not (tmp_path / "out").exists()  # refused before any game: nothing played or kept


TINY_PLAYTEST = """playtest:
  agents: random
  games: 20
  seed: 1
  substitution: {games: 1, cards: [oaf], stand_in: {power: 5}}
  strength: {games: 0}
  gates:
    - metric: draw_rate
      max: 0.0001
      why: "[/i] a [bold]why[/bold] with rich markup"
"""


def tiny_set(tmp_path: Path, name: str, playtest_text: str = TINY_PLAYTEST) -> Path:
    """dotd-useless named ``name`` with a playtest of seconds (its one gate stays undecided)."""
    import shutil

    src = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "dotd-useless", src)
    game = src / "game.yaml"
    text = game.read_text().replace("name: DotD fixture useless", f"name: {json.dumps(name)}", 1)
    game.write_text(text[:text.index("playtest:")] + playtest_text)
    return src


def test_cli_build_prints_a_set_name_and_a_gate_why_with_brackets_as_written(tmp_path):
    src = tiny_set(tmp_path, "X [/b] [red]y")
    res = CliRunner().invoke(cli, ["build", str(src), "--out", str(tmp_path / "out"), "--no-render",
                                   "--jobs", "1"])
    assert isinstance(res.exception, GateError), res.exception  # the gate failed, nothing broke
    assert "X [/b] [red]y: playtest FAILED" in res.output
    assert "X [/b] [red]y: failed gates" in res.output
    assert "[/i] a [bold]why[/bold]" in res.output


def test_a_misspelt_gate_is_named_with_the_nearest_metric_in_the_failed_gates_tables(tmp_path):
    """The build's last word on a misspelt gate was "no metric of that name (misspelt?)" and the
    report's "no such metric", though the record holds the name it meant."""
    import html
    import io

    from boneyard.pipeline.cmd_build import failed_table
    from rich.console import Console

    src = tiny_set(tmp_path, "Tiny", TINY_PLAYTEST.replace("- metric: draw_rate", "- metric: draw_rat"))
    outcome = build_set(load_set(src), out=tmp_path / "out", jobs=1, render=False)
    said = "no metric of that name: did you mean 'draw_rate'?"
    shown = io.StringIO()
    Console(file=shown, width=300).print(failed_table(outcome))
    assert f"│ draw_rat │ {said} │" in shown.getvalue()
    assert f"| MISSING | \\* | draw_rat | {said} |" in (outcome.out_dir / "report.md").read_text()
    assert f"<td>{html.escape(said)}</td>" in (outcome.out_dir / "report.html").read_text()


def test_focus_and_substitution_cards_naming_no_character_are_refused_before_any_game(tmp_path):
    src = tiny_set(tmp_path, "Tiny")
    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["build", str(src), "--out", str(out), "--focus", "oaff", "--focus", "oaf"])
    assert isinstance(res.exception, GateError)
    assert str(res.exception) == ("--focus: no character 'oaff' in 'Tiny' (did you mean 'oaf'? "
                                  "`boneyard cards SET` lists the ids)")
    assert not out.exists()  # nothing played, nothing written
    # Grave Feast pairs no characters: a --focus there used to be ignored without a word
    with pytest.raises(GateError, match="'Grave Feast' has no characters to pair"):
        build_set(load_set("grave-feast"), out=out, focus=("anger",), render=False)
    assert not out.exists()
    game = src / "game.yaml"
    game.write_text(game.read_text().replace("cards: [oaf]", "cards: [oaf, nosuch]"))
    line = game.read_text().splitlines().index(
        "  substitution: {games: 1, cards: [oaf, nosuch], stand_in: {power: 5}}") + 1
    res = CliRunner().invoke(cli, ["validate", str(src)])
    assert res.exit_code == 1
    assert (f"game.yaml:{line}:35: playtest.substitution.cards: no character 'nosuch' in 'Tiny' "
            "(`boneyard cards SET` lists the ids)") in res.output


def test_an_output_folder_blocked_by_a_file_is_refused_before_any_game(tmp_path, monkeypatch):
    import boneyard.pipeline.build as build_mod

    src = tiny_set(tmp_path, "Tiny")
    (tmp_path / "afile").write_text("keep me")
    played = []
    monkeypatch.setattr(build_mod, "playtest", lambda *a, **k: played.append(1))
    for out in (tmp_path / "afile", tmp_path / "afile" / "sub"):
        res = CliRunner().invoke(cli, ["build", str(src), "--out", str(out), "--no-render"])
        assert res.exit_code != 0 and played == [], res.output
        if out.name == "sub":
            assert str(res.exception) == (f"{tmp_path / 'afile'}: is a file, where the build writes the "
                                          f"folder {out / 'tiny'} (move the file away, or choose another --out)")
    assert (tmp_path / "afile").read_text() == "keep me"


def test_an_output_folder_that_takes_no_files_is_refused_before_any_game(tmp_path, monkeypatch):
    """A read-only disk, a full one or a system folder: said at once, not after the playtest."""
    import boneyard.pipeline.build as build_mod

    src = tiny_set(tmp_path, "Tiny")
    played = []
    monkeypatch.setattr(build_mod, "playtest", lambda *a, **k: played.append(1))
    res = CliRunner().invoke(cli, ["build", str(src), "--out", "/proc/boneyard-out", "--no-render"])
    assert res.exit_code != 0 and played == [], res.output
    assert str(res.exception) == ("/proc/boneyard-out/tiny: the build cannot write its record "
                                  "there: the folder /proc takes no new files (choose another --out)")


def test_a_pipe_where_the_report_goes_is_refused_before_any_game(tmp_path, monkeypatch):
    """The reports are written through a pipe or a device (meant for /dev/stdout): a FIFO left
    at report.md made the build wait for a reader for ever, after its playtest; one at the last
    pass's games, before it."""
    import os

    import boneyard.pipeline.build as build_mod

    src = tiny_set(tmp_path, "Tiny")
    played = []
    monkeypatch.setattr(build_mod, "playtest", lambda *a, **k: played.append(1))
    folder = tmp_path / "out" / "tiny"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "report.md")
    res = CliRunner().invoke(cli, ["build", str(src), "--out", str(tmp_path / "out"), "--no-render"])
    assert res.exit_code != 0 and played == [], res.output
    assert str(res.exception) == (f"{folder / 'report.md'}: not a regular file, where the build "
                                  "writes its report (remove it, or choose another --out)")
    (folder / "report.md").unlink()  # and the last pass's games, read through gzip
    (folder / "last-pass").mkdir()
    os.mkfifo(folder / "last-pass" / "games.json.gz")
    res = CliRunner().invoke(cli, ["build", str(src), "--out", str(tmp_path / "out"), "--no-render"])
    assert res.exit_code != 0 and played == [], res.output
    assert str(res.exception).endswith("games.json.gz: not a regular file, where the build keeps "
                                       "the last pass's games (remove it, or choose another --out)")


def test_report_shows_a_sets_markup_as_text_in_html_and_markdown(tmp_path):
    """A set's words reach report.html (escaped) and report.md, whose viewers render raw HTML
    and Markdown: a name with stars, brackets or backticks reads as written."""
    from markdown_it import MarkdownIt

    evil = "<img src=x onerror=alert(1)>"
    marked = "*B* [x](y.c) `x` &copy; \\ b"
    src = tiny_set(tmp_path, f"Set {evil} {marked}", TINY_PLAYTEST.replace(
        '"[/i] a [bold]why[/bold] with rich markup"', json.dumps(f"why </style><script>x</script> {evil}")))
    outcome = build_set(load_set(src), out=tmp_path / "out", jobs=1, render=False)
    folder = tmp_path / "out" / outcome.card_set.slug
    page = (folder / "report.html").read_text()
    assert "<img" not in page and "</style><script>" not in page and page.count("<script") == 1
    assert "&lt;img src=x onerror=alert(1)&gt;" in page
    shown = MarkdownIt("commonmark").enable("table").render((folder / "report.md").read_text())
    assert "<img" not in shown and "<script" not in shown, shown
    assert "why &lt;/style&gt;&lt;script&gt;x&lt;/script&gt; &lt;img src=x onerror=alert(1)&gt;" in shown
    assert "<h1>Balance report: Set &lt;img src=x onerror=alert(1)&gt; " \
           "*B* [x](y.c) `x` &amp;copy; \\ b</h1>" in shown, shown


def test_more_agents_than_seats_is_refused_before_any_game(tmp_path):
    """A third agent for a two-player game would never play, yet the record would name it."""
    src = tiny_set(tmp_path, "Tiny", TINY_PLAYTEST.replace("agents: random", "agents: [random, greedy, gate]"))
    line = (src / "game.yaml").read_text().splitlines().index("  agents: [random, greedy, gate]") + 1
    res = CliRunner().invoke(cli, ["validate", str(src)])
    assert res.exit_code == 1
    assert (f"game.yaml:{line}:11: playtest.agents: 3 agents are listed but run 'main' has 2 players, so "
            "the last 1 would never play (list at most 2; they take the seats in turn)") in res.output
    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["build", str(src), "--out", str(out)])
    assert isinstance(res.exception, GateError) and not out.exists()
    (src / "game.yaml").write_text((src / "game.yaml").read_text().replace(
        "agents: [random, greedy, gate]", "agents: [random, greedy]"))
    assert CliRunner().invoke(cli, ["validate", str(src)]).exit_code == 0


def test_a_build_stopped_after_its_record_leaves_no_stale_report(tmp_path, monkeypatch):
    """Ctrl-C between the record and its reports: the last build's report, which would contradict
    the new record, is gone; the next build reuses the record and writes the reports."""
    import boneyard.pipeline.build as build

    cs = small_passing_set()
    build_set(cs, out=tmp_path, jobs=1, render=False)
    report = next(tmp_path.rglob("report.md"))
    old = report.read_text()

    def stop(*_a, **_k):
        raise KeyboardInterrupt

    monkeypatch.setattr(build, "write_reports", stop)
    with pytest.raises(KeyboardInterrupt):
        build_set(cs, out=tmp_path, jobs=1, seed=9, render=False)
    assert not report.exists() and not report.with_suffix(".html").exists()
    assert json.loads(next(tmp_path.rglob("playtest.json")).read_text())["seed"] == 9
    monkeypatch.undo()
    again = build_set(cs, out=tmp_path, jobs=1, seed=9, render=False)
    assert again.reused and report.exists() and report.read_text() != old


def test_a_record_of_another_game_is_refused_as_such(monkeypatch):
    """A Grave Feast record copied into a Day of the Dead folder was refused for "other playtest
    settings (profile, seed, agents or gates)": true, but it sent the designer to game.yaml."""
    from boneyard.pipeline import build
    from boneyard.pipeline import record as rec

    monkeypatch.setattr(rec, "problems", lambda record: [])  # a whole, signed record
    said = build.record_doubts({"rules": "grave-feast", "set": "gf"}, load_set("day-of-the-dead"))
    assert said == ("the record is of another game (grave-feast, set 'gf'), not of this Day of "
                    "the Dead set (was another set's output folder copied here?)")


def test_the_report_shows_card_images_only_from_the_render_it_follows(overpowered, tmp_path):
    """A build that renders nothing (failed, or --no-render) must not put the images an earlier
    render left in the folder, maybe of other content, beside the cards of this record."""
    from boneyard.pipeline.report import write_reports

    outcome, _, _ = overpowered
    folder = tmp_path / "dotd-overpowered"
    (folder / "png-tgc").mkdir(parents=True)
    (folder / "png-tgc" / "oaf.png").write_bytes(b"an earlier render's image")
    write_reports(outcome.record, folder)
    assert "<img class='card'" not in (folder / "report.html").read_text()
    write_reports(outcome.record, folder, images=True)
    assert "<img class='card' src='png-tgc/oaf.png'" in (folder / "report.html").read_text()


def test_build_agents_takes_one_agent_and_says_where_a_list_goes(tmp_path):
    res = CliRunner().invoke(cli, ["build", "day-of-the-dead", "--agents", "greedy,gate", "--out",
                                   str(tmp_path)])
    assert res.exit_code == 2
    assert "build seats one agent in every seat" in res.output and "playtest.agents" in res.output
    assert not any(tmp_path.iterdir())  # refused before anything was played or written
