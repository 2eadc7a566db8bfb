"""``boneyard watch``: every save is validated, the changed cards re-rendered and playtested, and
bad input never stops the watcher. Driven on the toy game (a few cards: quick cycles), with a
cycle count and a timeout so that no test can hang."""

from __future__ import annotations

import json
import shutil
import threading
import urllib.request
from pathlib import Path

import pytest
from boneyard.engine import games
from boneyard.pipeline.cli import cli
from boneyard.pipeline.watch import Watcher
from boneyard.pipeline.watch_page import serve
from click.testing import CliRunner
from toy.spec import SPEC

SET = Path(__file__).parent / "toy" / "set"


@pytest.fixture(autouse=True)
def toy_registered():
    games.register(SPEC)
    yield
    games._SPECS.pop(SPEC.name, None)
    games.GAMES.pop(SPEC.name, None)


@pytest.fixture
def toy(tmp_path: Path) -> Path:
    folder = tmp_path / "toy-set"
    shutil.copytree(SET, folder)
    return folder


def _get(port: int, path: str) -> bytes:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as r:
        data: bytes = r.read()
        return data


def test_once_validates_renders_and_playtests(toy: Path, tmp_path: Path) -> None:
    res = CliRunner().invoke(cli, ["watch", str(toy), "--once", "--out", str(tmp_path / "out")])
    assert res.exit_code == 0, res.output
    assert "cycle 1: valid" in res.output and "playtest (fast) passed" in res.output
    watch = tmp_path / "out" / "toy-set" / "watch"
    assert (watch / "proof.png").is_file()
    assert len(list((watch / "png").glob("*.png"))) >= 9


def test_once_exits_1_with_every_problem_located(toy: Path, tmp_path: Path) -> None:
    text = (toy / "cards.yaml").read_text()
    (toy / "cards.yaml").write_text(text.replace("value: 9", "value: 99").replace("id: c2,", "id: c1,"))
    res = CliRunner().invoke(cli, ["watch", str(toy), "--once", "--no-playtest", "--out",
                                   str(tmp_path / "out")])
    assert res.exit_code == 1
    assert "cycle 1: 2 problems" in res.output
    assert "cards.yaml:10:33: card 'c9': value must be at most 20, got 99" in res.output
    res = CliRunner().invoke(cli, ["watch", str(toy), "--timeout", "0.5", "--no-page",
                                   "--no-playtest", "--out", str(tmp_path / "out")])
    assert res.exit_code == 1 and "cycle 1: 2 problems" in res.output  # it said 0


def test_an_output_folder_that_cannot_be_made_is_a_usage_error(toy: Path, tmp_path: Path) -> None:
    """It was an "internal error (OSError ...)" in every cycle."""
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "toy-set").write_text("a file in the way")
    res = CliRunner().invoke(cli, ["watch", str(toy), "--once", "--no-playtest", "--out",
                                   str(tmp_path / "out")])
    assert res.exit_code == 2 and "Traceback" not in res.output
    assert f"--out: cannot create {tmp_path / 'out' / 'toy-set' / 'watch'}: " in res.output
    assert "(choose another --out)" in res.output and "internal error" not in res.output


def test_saves_are_checked_and_bad_input_never_stops_the_watcher(toy: Path, tmp_path: Path) -> None:
    watcher = Watcher(toy, out=tmp_path / "out", echo=lambda _line: None)
    server = serve(watcher, 0)
    port = server.server_address[1]
    thread = threading.Thread(target=watcher.run,
                              kwargs={"max_cycles": 3, "timeout": 90, "debounce_ms": 100})
    thread.start()
    try:
        assert watcher.wait_for(1, 60)
        first = watcher.results[0]
        assert first.ok and len(first.rendered) >= 9 and first.playtest is not None
        assert json.loads(_get(port, "/state.json"))["cycle"] == 1

        cards = toy / "cards.yaml"
        good = cards.read_text()
        cards.write_text(good.replace("value: 9", "value: nine"))
        assert watcher.wait_for(2, 30), "the watcher did not see the save"
        bad = watcher.results[1]
        assert not bad.ok
        assert any("card 'c9': value must be a whole number, got 'nine'" in p for p in bad.problems)
        page = _get(port, "/").decode()
        assert "value must be a whole number, got &#x27;nine&#x27;" in page
        assert "/state.json" in page  # the page polls and reloads itself

        cards.write_text(good.replace("value: 9", "value: 10"))
        assert watcher.wait_for(3, 30), "the watcher stopped after bad input"
        fixed = watcher.results[2]
        assert fixed.ok and fixed.changed_cards == ["c9"]
        assert fixed.rendered and all("c9" in face for face in fixed.rendered)
        assert fixed.proof and fixed.playtest is not None and fixed.playtest["passed"]
        assert _get(port, "/proof.png").startswith(b"\x89PNG")
    finally:
        thread.join(timeout=60)
        server.shutdown()
        server.server_close()
    assert not thread.is_alive()


def test_a_warning_is_said_in_full_once_and_again_only_when_it_changes(toy: Path, tmp_path: Path) -> None:
    game = toy / "game.yaml"
    game.write_text(game.read_text() + "    - metric: completely_unknown_figure\n      min: 0\n"
                    "      why: a figure no playtest reports\n")
    said: list[str] = []
    watcher = Watcher(toy, out=tmp_path / "out", playtest=False, render=False, echo=said.append)
    watcher.cycle()
    full = [line for line in said if "warning: " in line and "completely_unknown_figure" in line]
    assert len(full) == 1 and "game.yaml:" in full[0]
    said.clear()
    watcher.cycle()  # a save that leaves the warning as it was: one line, not the whole text again
    assert not any("completely_unknown_figure" in line for line in said)
    assert "  1 warning as before (unchanged since they were shown)" in said
    said.clear()
    game.write_text(game.read_text().replace("completely_unknown_figure", "another_unknown_figure"))
    watcher.cycle()
    assert any("warning: " in line and "another_unknown_figure" in line for line in said)


def test_a_font_saved_over_redraws_the_previews_and_a_broken_one_is_a_problem(
        toy: Path, tmp_path: Path) -> None:
    """A font (or art) file saved over keeps its name: the previews stayed as they were, and a
    font cut short was called valid (the font was read once, by its path)."""
    import reportlab

    fonts_dir = Path(reportlab.__file__).parent / "fonts"
    (toy / "display.ttf").write_bytes((fonts_dir / "Vera.ttf").read_bytes())
    template = toy / "template.yaml"
    template.write_text(template.read_text().replace("size: poker\n", "size: poker\nfonts: "
                        "{display: display.ttf}\n", 1).replace("font: sans-bold, size: 40",
                                                               "font: display, size: 40"))
    watcher = Watcher(toy, out=tmp_path / "out", playtest=False, echo=lambda _line: None)
    first = watcher.cycle()
    assert first.ok and first.rendered
    assert not watcher.cycle().rendered  # nothing saved: nothing drawn again
    (toy / "display.ttf").write_bytes((fonts_dir / "VeraBd.ttf").read_bytes())
    bold = watcher.cycle()
    assert bold.ok and sorted(bold.rendered) == sorted(first.rendered)
    (toy / "display.ttf").write_bytes((fonts_dir / "Vera.ttf").read_bytes()[:20_000])
    cut = watcher.cycle()
    assert not cut.ok and any("display.ttf is not a usable TrueType font" in p
                              for p in cut.problems), cut.problems


def test_a_set_folder_deleted_and_restored_is_watched_again(toy: Path, tmp_path: Path) -> None:
    watcher = Watcher(toy, out=tmp_path / "out", playtest=False, render=False,
                      echo=lambda _line: None)
    stop = threading.Event()
    thread = threading.Thread(target=watcher.run, kwargs={"max_cycles": 4, "timeout": 90,
                                                          "debounce_ms": 100, "stop": stop})
    thread.start()
    try:
        assert watcher.wait_for(1, 60) and watcher.results[0].ok
        shutil.rmtree(toy)
        assert watcher.wait_for(2, 30), "the watcher did not see the folder go"
        assert watcher.results[1].problems == [
            f"{toy}: the set folder is gone (deleted or renamed); the watcher checks it again "
            "when it is back"]
        shutil.copytree(SET, toy)  # a checkout brings it back: a new folder, a new watch
        assert watcher.wait_for(3, 30), "the watcher stopped watching the restored folder"
        assert watcher.results[2].ok
        cards = toy / "cards.yaml"
        cards.write_text(cards.read_text().replace("value: 9", "value: nine"))
        assert watcher.wait_for(4, 30), "a save in the restored folder was not seen"
        assert not watcher.results[3].ok
    finally:
        stop.set()
        thread.join(timeout=60)
    assert not thread.is_alive()


def test_the_page_refuses_a_request_by_another_host_name(toy: Path, tmp_path: Path) -> None:
    """DNS rebinding: a site whose name resolves to 127.0.0.1 must not read the page."""
    import http.client

    server = serve(Watcher(toy, out=tmp_path / "out", echo=lambda _line: None), 0)
    port = server.server_address[1]
    try:
        for host, status in ((f"127.0.0.1:{port}", 200), (f"localhost:{port}", 200),
                             (f"evil.example:{port}", 403), ("[bad", 403)):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", "/state.json", headers={"Host": host})
            assert conn.getresponse().status == status, host
            conn.close()
    finally:
        server.shutdown()
        server.server_close()


def test_ctrl_c_on_an_idle_watch_says_interrupted_and_exits_130(tmp_path):
    """Idle, it printed the watch library's "KeyboardInterrupt caught, stopping watch" and exited
    0; during a cycle, "Interrupted." and 130. Now both are the CLI's own."""
    import signal
    import subprocess
    import sys
    import time

    folder = tmp_path / "dotd"
    shutil.copytree(Path(__file__).resolve().parent.parent / "cards" / "day-of-the-dead", folder)
    proc = subprocess.Popen([sys.executable, "-c", "from boneyard.pipeline.cli import main; main()",
                             "watch", str(folder), "--no-page", "--no-playtest", "--no-render",
                             "--out", str(tmp_path / "out")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    first = proc.stdout.readline()  # the first cycle has begun: the watch is set up
    time.sleep(3)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert first and proc.returncode == 130, (first, out, err)
    assert err.strip().endswith("Interrupted.") and "KeyboardInterrupt" not in err, err


def test_a_cycle_names_the_files_saved_not_an_editors_temporary_file(tmp_path: Path) -> None:
    """`sed -i` writes a temporary file and renames it over the card file: the cycle's line
    read "cycle 2 (characters.yaml, sedkIIrIA, sedkIIrIA)"."""
    import watchfiles
    from boneyard.pipeline.watch import _saved

    card = tmp_path / "characters.yaml"
    card.write_text("x", encoding="utf-8")
    temp = str(tmp_path / "sedkIIrIA")
    removed = str(tmp_path / "rares.yaml")  # there before the batch, removed in it: said
    batch = {(watchfiles.Change.added, temp), (watchfiles.Change.deleted, temp),
             (watchfiles.Change.added, str(card)), (watchfiles.Change.deleted, removed)}
    assert _saved(batch) == sorted([str(card), removed])
