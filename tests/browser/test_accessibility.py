"""Every screen passes the WCAG 2.2 AA audit of axe-core in Chromium, target size included:
the app's four tabs (on a computer's screen and on a tablet),
the teacher's dashboard, a printed worksheet, the class screens of ``serve --class`` (joining,
a puzzle with its feedback, the dashboard it prints) and the static site (the app, a lesson,
the class page)."""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.axe import violations
from support.puzzles import PETER
from support.serve_command import Served, serve_command
from support.servers import SiteServer, free_port, serve_site
from support.shown import open_code
from support.touch import TABLET, touch_context

from dekbovinoj_edu import worksheet
from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.attempts import Attempt
from dekbovinoj_edu.classroom.store import open_store
from dekbovinoj_edu.cli import main
from dekbovinoj_edu.serving.class_process import ClassService, start_class_service
from dekbovinoj_edu.site.pages import APP_PAGE, CLASS_PAGE

from .conftest import FIRST_LOAD_MS, STEP_MS, _need_chromium

pytestmark = pytest.mark.network  # axe-core comes from npm the first time
SITE_FIRST_LOAD_MS = 240_000
"""How long the site may take to show the app: Pyodide and its packages, on a busy machine."""
LESSON = "01-positive-and-negative"


TAB_CONTENTS = [".dkb-practice .dkb-submit", ".dkb-game-seed", ".dkb-how-to-play", ".kor-tab"]
"""What each tab of the app shows once it is drawn (the game's and Korova's are built when
first opened)."""


@pytest.mark.parametrize("served", ["light", "voila"])
def test_every_tab_of_the_app_passes(open_app, served: str, request: pytest.FixtureRequest) -> None:
    from playwright.sync_api import expect

    page = open_app(url=request.getfixturevalue("voila_page_url") if served == "voila" else None)
    open_code(page, PETER.code)
    expect(page.locator(".dkb-pasture .dkb-card")).to_have_count(3)
    found = {}
    tabs = page.locator(".lm-TabBar-tab")
    for index in range(tabs.count()):
        tabs.nth(index).click()
        expect(tabs.nth(index)).to_have_class(re.compile(r"\blm-mod-current\b"))
        expect(page.locator(TAB_CONTENTS[index]).first).to_be_visible()  # the tab is drawn
        found[tabs.nth(index).inner_text()] = violations(page)
    assert len(found) == 4
    assert found == {tab: [] for tab in found}


def test_the_practice_tab_on_a_tablet_passes(browser: object, app_url: str) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    context = touch_context(browser, TABLET)
    try:
        page = context.new_page()
        page.goto(app_url)
        expect(page.locator(".dkb-practice .dkb-submit")).to_be_visible(timeout=FIRST_LOAD_MS)
        open_code(page, PETER.code)  # the settings open too
        expect(page.locator(".dkb-pasture .dkb-card")).to_have_count(3)
        assert violations(page) == []
    finally:
        context.close()


def test_the_audit_measures_targets(browser: object) -> None:
    """Two 10 px buttons side by side fail WCAG 2.2's target size: the audit runs that rule."""
    from playwright.sync_api import Browser

    assert isinstance(browser, Browser)
    page = browser.new_page()
    try:
        small = "<button style='width:10px;height:10px;padding:0;margin:0'>{}</button>"
        page.set_content(
            f"<html lang='en'><title>Two buttons</title><main>{small.format('a')}"
            f"{small.format('b')}</main></html>"
        )
        assert [found.split()[0] for found in violations(page)] == ["target-size"]
    finally:
        page.close()


def test_a_worksheet_passes(browser: object) -> None:
    from playwright.sync_api import Browser

    assert isinstance(browser, Browser)
    page = browser.new_page()
    try:
        page.set_content(worksheet(level=1, count=4, seed="audit", jokers=False).html())
        assert violations(page) == []
    finally:
        page.close()


@pytest.fixture
def dashboard(tmp_path: Path) -> Iterator[ClassService]:
    db = tmp_path / "classes.sqlite3"
    store = open_store(db)
    store.add_class(codes_assignment("4a", f"{PETER.code},{PETER.code}"))
    for number, nickname in enumerate(["Ana", "Bo"]):
        store.join("4a", nickname, f"token-{nickname}", now=1.0)
        verdict, cards = ("ok", 6) if number == 0 else ("colour", 0)
        tried = Attempt("4a", nickname, 1, PETER.code, "9♦+3♥", verdict, cards, 6, 0, 4.0, "T")
        store.record("4a", f"token-{nickname}", f"a-{nickname}", tried, now=2.0)
    store.close()
    service = start_class_service("4a", db=str(db))
    try:
        yield service
    finally:
        service.stop()


def test_the_teachers_dashboard_passes(browser: object, dashboard: ClassService) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    page = browser.new_page()
    try:
        page.goto(dashboard.teacher)
        expect(page.locator(".dkb-board")).to_be_visible(timeout=30_000)
        expect(page.locator(".dkb-board tbody tr")).to_have_count(2)  # Ana and Bo on the board
        assert violations(page) == []
    finally:
        page.close()


@pytest.fixture(scope="module")
def class_served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """``serve --class 4a`` (practice mode, Peter's puzzle twice) on 127.0.0.1."""
    _need_chromium()
    folder = tmp_path_factory.mktemp("class-audit")
    db = folder / "classes.sqlite3"
    codes = f"{PETER.code},{PETER.code}"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["class", "new", "4a", "--codes", codes, "--db", str(db)]) == 0
    argv = ["--class", "4a", "--db", str(db), "--host=127.0.0.1", f"--port={free_port()}"]
    with serve_command(folder, *argv, browser=False) as served:
        served.address()
        served.out.until("ready: 1 student", 240)  # the first kernel, on a busy machine
        yield served


def class_screens(browser: Any, served: Served) -> dict[str, list[str]]:
    """The audit of each class screen, in the order a student and the teacher see them."""
    from playwright.sync_api import expect

    expect.set_options(timeout=STEP_MS)
    found: dict[str, list[str]] = {}
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    try:
        page.goto(served.address())
        expect(page.locator(".dkb-nickname input")).to_be_visible(timeout=FIRST_LOAD_MS)
        found["class: join"] = violations(page)
        page.locator(".dkb-nickname input").fill("Ana")
        page.locator(".dkb-join").click()
        expect(page.locator(".dkb-pasture .dkb-card")).to_have_text(["9♦", "3♥", "7♥"])
        found["class: puzzle"] = violations(page)
        page.locator(".dkb-expression input").fill("13 + 9")
        page.locator(".dkb-expression input").press("Enter")
        expect(page.locator(".dkb-feedback")).not_to_be_empty()
        found["class: feedback"] = violations(page)
        page.goto(served.teacher())
        expect(page.locator(".dkb-board tbody tr")).to_have_count(1)  # Ana on the board
        found["class: dashboard"] = violations(page)
    finally:
        page.close()
    return found


@pytest.fixture(scope="module")
def class_audit(browser: object, class_served: Served) -> dict[str, list[str]]:
    return class_screens(browser, class_served)


@pytest.mark.slow  # a real serve --class
def test_the_class_screens_of_serve_class_pass(class_audit: dict[str, list[str]]) -> None:
    """A puzzle, its feedback and the dashboard (the join screen: the next test)."""
    screens = {screen: found for screen, found in class_audit.items() if screen != "class: join"}
    assert len(screens) == 3
    assert screens == {screen: [] for screen in screens}


@pytest.mark.slow  # a real serve --class
def test_the_class_join_screen_passes(class_audit: dict[str, list[str]]) -> None:
    """The "Join" button is ipywidgets' primary blue (white on #2196f3, 3.1:1) until the
    screen carries :data:`~dekbovinoj_edu.widgets.parts.CONTRAST_CSS`, as the puzzle
    screen does (through its answer view)."""
    assert class_audit["class: join"] == []


@pytest.fixture(scope="module")
def site_server(site: Path) -> Iterator[SiteServer]:
    with serve_site(site) as server:
        yield server


def site_page(browser: Any, url: str, ready: str) -> Any:
    """A page of the site at ``url``, once ``ready`` (a selector) is on the screen."""
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1100, "height": 1000})
    page.goto(url)
    expect(page.locator(ready).first).to_be_visible(timeout=SITE_FIRST_LOAD_MS)
    return page


@pytest.mark.slow  # the site's Python starts in the browser
def test_the_sites_app_page_passes(browser: object, site_server: SiteServer) -> None:
    page = site_page(browser, site_server.url + APP_PAGE, ".dkb-practice .dkb-submit")
    try:
        assert violations(page) == []
    finally:
        page.close()


@pytest.mark.slow  # the site's Python runs the lesson in the browser
def test_a_lesson_page_of_the_site_passes(browser: object, site_server: SiteServer) -> None:
    url = f"{site_server.url}voici/render/lessons/{LESSON}.html"
    page = site_page(browser, url, ".dkb-practice .dkb-submit")
    try:
        assert violations(page) == []
    finally:
        page.close()


@pytest.mark.slow  # the site's Python starts in the browser, with the class service
def test_the_sites_class_page_passes(browser: object, site: Path, tmp_path: Path) -> None:
    db = tmp_path / "classes.sqlite3"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["class", "new", "4a", "--codes", PETER.code, "--db", str(db)]) == 0
    service = start_class_service("4a", db=str(db), site=site)
    try:
        page = site_page(browser, service.url + "/", ".dkb-nickname input")
        try:
            assert page.url.endswith(f"{CLASS_PAGE}?class=4a")
            assert violations(page) == []
        finally:
            page.close()
    finally:
        service.stop()
