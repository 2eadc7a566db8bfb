"""The play table in a real browser: headless Chromium (Debian's chromium and chromium-driver)
driven by Selenium plays a whole game of each bundled game by clicking the page.

Without the browser (or without selenium) these tests are skipped and say why; .ci/run installs
the browser first. The server runs in a thread on a free port of 127.0.0.1.
"""

from __future__ import annotations

import os
import random
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from boneyard.pipeline.play.app import create_app
from boneyard.pipeline.play.session import Session, Setup

from boneyard.paths import CARDS, DOCS

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run",
         "--window-size=1400,1000")

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="browser tests skipped: no chromium/chromedriver on PATH "
           "(apt-get install chromium chromium-driver; .ci/run does)")


class Server:
    """uvicorn serving one session in a thread, on a free port of 127.0.0.1."""

    def __init__(self, session: Session, faces: Path) -> None:
        import uvicorn

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        config = uvicorn.Config(create_app(session, faces), host="127.0.0.1", port=self.port,
                                log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the play server did not start")
            time.sleep(0.02)
        self.url = f"http://127.0.0.1:{self.port}/"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(5)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    webdriver = pytest.importorskip("selenium.webdriver", reason="browser tests skipped: no selenium")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(20)
    yield driver
    driver.quit()


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Any]:
    servers: list[Server] = []

    def serve(setup: Setup) -> tuple[Server, Session]:
        session = Session(setup)
        server = Server(session, tmp_path / "faces")
        servers.append(server)
        return server, session

    yield serve
    for s in servers:
        s.stop()


def wait_for(driver: Any, what: Any, timeout: float = 10.0) -> Any:
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(what)


def at(driver: Any) -> int:
    return int(driver.find_element("tag name", "body").get_attribute("data-at"))


def moved(before: int) -> Any:
    """A wait condition: the page shows a table after more (or fewer) moves than ``before``."""
    return lambda d: at(d) != before


def click_through(driver: Any, rng: random.Random, max_moves: int = 400) -> int:
    """Click legal moves (buttons, or a playable card) until the game is over; the clicks."""
    from selenium.webdriver.common.by import By

    wait_for(driver, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-at") != "-1")
    clicks = 0
    for _ in range(max_moves):
        body = driver.find_element(By.TAG_NAME, "body")
        if body.get_attribute("data-over") == "1":
            return clicks
        before = at(driver)
        cards = driver.find_elements(By.CSS_SELECTOR, "figure.card.playable")
        buttons = driver.find_elements(By.CSS_SELECTOR, "button.move")
        assert buttons, driver.find_element(By.ID, "status").text
        if cards and rng.random() < 0.3:  # a card on the table is a way to move too
            rng.choice(cards).click()
            wait_for(driver, lambda d, b=before: at(d) != b
                     or d.find_elements(By.CSS_SELECTOR, "button.move.hint"))
            if at(driver) == before:  # the card has several moves: they are highlighted
                rng.choice(driver.find_elements(By.CSS_SELECTOR, "button.move.hint")).click()
        else:
            rng.choice(buttons).click()
        wait_for(driver, moved(before))
        clicks += 1  # noqa: SIM113  (the loop's bound is max_moves, the count is the clicks)
    raise AssertionError(f"no end after {max_moves} clicks")


@pytest.mark.parametrize("setup", [
    pytest.param(Setup("day-of-the-dead", seed=7), id="dotd"),
    pytest.param(Setup("grave-feast", players=3, seed=8, options={"rares": True}), id="gf-3-rares"),
])
def test_a_whole_game_by_clicking_the_page(browser, table, setup, tmp_path):
    from selenium.webdriver.common.by import By

    server, session = table(Setup(**{**setup.__dict__, "log_path": str(tmp_path / "log.jsonl")}))
    browser.get(server.url)
    clicks = click_through(browser, random.Random(5))
    assert clicks > 3
    assert session.state.is_terminal()
    assert browser.find_element(By.ID, "status").text.startswith("Game over")
    # the card faces are the set's rendered PNGs, and they loaded
    loaded = browser.execute_script(
        "return [...document.querySelectorAll('figure.card img')].filter(i => i.complete && i.naturalWidth > 0).length")
    assert loaded > 0
    transcript = browser.find_element(By.ID, "transcript").text
    assert "(you)" in transcript and "Game over" not in transcript.splitlines()[0]
    # save: the page says how to replay it
    browser.find_element(By.ID, "save").click()
    wait_for(browser, lambda d: "boneyard replay" in d.find_element(By.ID, "saved").text)
    assert (tmp_path / "log.jsonl").read_text().count("\n") == 1


def test_take_back_new_game_and_a_broken_set_in_the_page(browser, table, tmp_path):
    from selenium.webdriver.common.by import By

    folder = tmp_path / "gf"
    shutil.copytree(CARDS / "grave-feast", folder)
    server, session = table(Setup(str(folder), players=2, seed=9))
    browser.get(server.url)
    wait_for(browser, lambda d: at(d) >= 0)
    undo = browser.find_element(By.ID, "undo")
    assert not undo.is_enabled()
    status = browser.find_element(By.ID, "status").text
    before = at(browser)
    browser.find_elements(By.CSS_SELECTOR, "button.move")[0].click()
    wait_for(browser, moved(before))
    browser.find_element(By.ID, "undo").click()
    wait_for(browser, lambda d: at(d) == before)
    assert browser.find_element(By.ID, "status").text == status
    # the designer breaks a file; the next game shows where
    deck = folder / "deck.yaml"
    deck.write_text(deck.read_text().replace("  copies: 2", "  copies: lots", 1))
    browser.find_element(By.ID, "new").click()
    browser.find_element(By.ID, "deal").click()
    wait_for(browser, lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-problems") == "1")
    problems = browser.find_element(By.ID, "problem-list").text
    assert "deck.yaml:" in problems and problems.split("deck.yaml:")[1].split(":")[0].isdigit()


@pytest.mark.parametrize("setup,moves,name", [
    (Setup("day-of-the-dead", seed=3, agents=("gate",)), 7, "play-day-of-the-dead.png"),
    (Setup("grave-feast", players=3, seed=4, options={"rares": True}), 14, "play-grave-feast.png"),
])
def test_screenshot_for_the_docs(browser, table, tmp_path, setup, moves, name):
    """A mid-game screenshot; BONEYARD_DOC_SHOTS=1 writes it as docs/images/play-*.png."""
    from selenium.webdriver.common.by import By

    server, session = table(setup)
    browser.get(server.url)
    wait_for(browser, lambda d: at(d) >= 0)
    for _ in range(moves):  # into the game: a board, fights or families, and a transcript
        if browser.find_element(By.TAG_NAME, "body").get_attribute("data-over") == "1":
            break
        before = at(browser)
        browser.find_elements(By.CSS_SELECTOR, "button.move")[0].click()
        wait_for(browser, moved(before))
    wait_for(browser, lambda d: d.execute_script(
        "return [...document.images].every(i => i.complete)"))
    png = browser.get_screenshot_as_png()
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    shown = browser.execute_script(
        "return [...document.querySelectorAll('figure.card img')].filter(i => i.naturalWidth > 0).length")
    assert shown >= 6  # hands and board drawn from the set's faces
    out = (DOCS / "images" if os.environ.get("BONEYARD_DOC_SHOTS") else tmp_path) / name
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(png)
