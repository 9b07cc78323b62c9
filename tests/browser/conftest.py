"""A real Voilà server on a free localhost port, and headless Chromium driven by Playwright.

The server runs the app notebook exactly as ``dekbovinoj serve`` does, on the light page
(``serve``'s default); ``voila_page_url`` serves it on Voilà's own page (``serve --page
voila``), and ``open_app(url=...)`` opens that one. The
browser is Debian's Chromium (``.ci/run`` installs it with apt); without it
these tests skip with the reason. Screenshots and logs go to ``test-artifacts/``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.servers import free_port, start_in_background, stop, wait_until_up

from dekbovinoj_edu.serving.notebooks import find_notebook
from dekbovinoj_edu.serving.options import ServeOptions

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
FIRST_LOAD_MS = 90_000
"""How long a page may take to show the widget (a cold kernel on a busy machine)."""
STEP_MS = 20_000
"""How long one step may take to show its result (generous: CI machines are busy)."""
HERE = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)  # before ``-m`` deselects
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test in this folder drives Chromium: it is marked ``browser``."""
    for item in items:
        if HERE in item.path.resolve().parents:
            item.add_marker(pytest.mark.browser)


def _need_chromium() -> None:
    if not CHROMIUM.exists():
        pytest.skip(f"browser tests need Chromium at {CHROMIUM} (.ci/run installs it with apt)")


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The static site with its class page (``build-site --class``), built once a test session
    for every test of it (downloads come from the cache when they can)."""
    _need_chromium()
    from dekbovinoj_edu.site.build import build_site

    return build_site(tmp_path_factory.mktemp("site") / "site", classroom=True)


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


def _served_app(page: str, log: Path) -> Iterator[str]:
    """The app on ``page`` (``serve --page``), served by Voilà on a free port until closed,
    with room for the pages a test session opens one after another: two students, and a
    closed page's kernel culled within seconds (the server's cap counts it until then)."""
    _need_chromium()
    port = free_port()
    options = ServeOptions(
        find_notebook(), class_size=2, cull_idle_seconds=6, cull_interval_seconds=2, page=page
    )
    server = start_in_background(port, log=log, options=options)
    try:
        wait_until_up(port, timeout=120, process=server)
        yield f"http://localhost:{port}/"
    finally:
        stop(server)


@pytest.fixture(scope="session")
def app_url(artifacts: Path) -> Iterator[str]:
    """The URL of the app, served by Voilà on a free port for the whole test session."""
    yield from _served_app("light", artifacts / "voila.log")


@pytest.fixture(scope="session")
def voila_page_url(artifacts: Path) -> Iterator[str]:
    """The URL of the app on Voilà's own page (``serve --page voila``), for the whole session."""
    yield from _served_app("voila", artifacts / "voila-page.log")


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    _need_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def open_app(browser: object, app_url: str, artifacts: Path, request: pytest.FixtureRequest):
    """``open_app(width, height, url=None)`` opens the app (``app_url`` unless ``url``) in a new
    page and waits for the widget."""
    from playwright.sync_api import Browser, Page, expect

    assert isinstance(browser, Browser)
    expect.set_options(timeout=STEP_MS)
    pages: list[Page] = []
    console: list[str] = []

    def opener(width: int = 1100, height: int = 1000, url: str | None = None) -> Page:
        page = browser.new_page(viewport={"width": width, "height": height})
        page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
        page.on("pageerror", lambda error: console.append(f"page error: {error}"))
        pages.append(page)
        page.goto(url or app_url)
        expect(page.locator(".dkb-practice .dkb-submit")).to_be_visible(timeout=FIRST_LOAD_MS)
        return page

    yield opener
    name = request.node.name
    (artifacts / f"{name}.console.log").write_text("\n".join(console) + "\n", "utf-8")
    for page in pages:
        page.close()


@pytest.fixture
def third_party_blocked(browser: Any, tmp_path: Path) -> Iterator[Any]:
    """A Chromium whose profile blocks third-party cookies (and so third-party storage): a
    context of its own, from the session's Playwright."""
    profile = tmp_path / "profile"
    (profile / "Default").mkdir(parents=True)
    preferences = {"profile": {"block_third_party_cookies": True, "cookie_controls_mode": 1}}
    (profile / "Default" / "Preferences").write_text(json.dumps(preferences))
    context = browser.browser_type.launch_persistent_context(
        str(profile),
        executable_path=str(CHROMIUM),
        args=CHROMIUM_ARGS,
        headless=True,
        viewport={"width": 1000, "height": 900},
    )
    try:
        yield context
    finally:
        context.close()
