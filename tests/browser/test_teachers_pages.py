"""The pages ``dekbovinoj serve`` opens in the teacher's browser ask nothing of another
server: the app on the light page and on Voilà's own page (``--page voila``), and with
``--class`` the class's screen and the teacher's dashboard. Every request the page makes is
recorded (and one to another host refused, so nothing leaves this computer).

Before, the page ``serve`` opened first (Voilà's ``browser-open.html``, which sends the browser
on to the app) linked Font Awesome from cdn.jsdelivr.net.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from support.puzzles import PETER
from support.serve_command import hosts_outside, record_requests, serve_command
from support.servers import free_port

from dekbovinoj_edu.cli import main

from .conftest import FIRST_LOAD_MS, STEP_MS, _need_chromium

pytestmark = pytest.mark.slow  # real servers, one a test

HOST = "127.0.0.1"
READY_SECONDS = 240
"""How long the app's first kernel may take to warm up on a busy 2-core machine."""


@pytest.mark.parametrize("served", ["light", "voila"])
def test_the_app_serve_opens_asks_nothing_of_another_server(
    browser: object, tmp_path: Path, served: str
) -> None:
    from playwright.sync_api import Browser, expect

    _need_chromium()
    assert isinstance(browser, Browser)
    argv = [f"--host={HOST}", f"--port={free_port()}", f"--page={served}"]
    with serve_command(tmp_path, *argv) as serve:
        opened = serve.opened()
        serve.out.until("ready: 1 student", READY_SECONDS)  # as the teacher waits for it
        page = browser.new_page()
        try:
            asked = record_requests(page)
            page.goto(opened)
            expect(page.locator(".dkb-practice .dkb-submit")).to_be_visible(timeout=FIRST_LOAD_MS)
            page.wait_for_load_state("networkidle")  # late style sheets and fonts
        finally:
            page.close()
    assert opened.startswith("file://")  # Voilà's page that sends the browser on to the app
    assert any(url.startswith(f"http://{HOST}:") for url in asked)
    assert hosts_outside(asked) == [], asked


def test_the_class_screen_and_the_teachers_dashboard_ask_nothing_of_another_server(
    browser: object, tmp_path: Path
) -> None:
    from playwright.sync_api import Browser, expect

    _need_chromium()
    assert isinstance(browser, Browser)
    expect.set_options(timeout=STEP_MS)
    db = tmp_path / "classes.sqlite3"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["class", "new", "4a", "--codes", PETER.code, "--db", str(db)]) == 0
    argv = ["--class", "4a", "--db", str(db), f"--host={HOST}", f"--port={free_port()}"]
    with serve_command(tmp_path, *argv) as serve:
        opened = serve.opened()
        serve.out.until("ready: 1 student", READY_SECONDS)
        page = browser.new_page()
        try:
            asked = record_requests(page)
            page.goto(opened)
            screen = page.locator(".dkb-class-app")
            expect(screen).to_contain_text("Class 4a", timeout=FIRST_LOAD_MS)
            page.goto(serve.teacher())
            expect(page.locator(".dkb-board")).to_be_visible()
            page.wait_for_load_state("networkidle")
        finally:
            page.close()
    assert any("/teacher/" in url for url in asked)
    assert hosts_outside(asked) == [], asked
