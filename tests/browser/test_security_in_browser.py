"""A class's cap in a real browser: past it a student reads the busy page in their language,
and a closed tab gives its kernel back at once, so the busy page turns into the app by itself.

Before issue 30 every page started a kernel (no cap, no busy page); and Voilà's page asked the
server to shut its kernel down when its tab closed, but the server refused (no ``_xsrf``
cookie on the page), so the kernel stayed until the culler took it.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.servers import free_port, voila_serving

from dekbovinoj_edu.i18n import gettext
from dekbovinoj_edu.serving.notebooks import find_notebook
from dekbovinoj_edu.serving.options import ServeOptions

from .conftest import FIRST_LOAD_MS, _need_chromium

BUSY = "The server is busy, the app is starting…"
CULL_IDLE = 600
"""The culler waits longer than the test: only a closed tab's own shutdown frees a kernel."""


@pytest.fixture
def one_student(artifacts: Path) -> Iterator[str]:
    """Voilà's page for one student (a cap of two kernels), the culler out of the way."""
    _need_chromium()
    port = free_port()
    options = ServeOptions(
        find_notebook(),
        port=port,
        class_size=1,
        open_browser=False,
        page="voila",
        cull_idle_seconds=CULL_IDLE,
    )
    with voila_serving(options, artifacts / "voila-security.log") as url:
        yield url


def test_past_the_cap_the_busy_page_waits_and_turns_into_the_app(
    browser: object, one_student: str
) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    context = browser.new_context(locale="sv-SE")
    try:
        first, second, third = (context.new_page() for _ in range(3))
        for page in (first, second):
            page.goto(one_student)
            submit = page.locator(".dkb-practice .dkb-submit")
            expect(submit).to_be_visible(timeout=FIRST_LOAD_MS)
        third.goto(one_student)
        expect(third.locator("#dkb-busy")).to_have_text(gettext("sv", "ui", BUSY))
        assert third.locator(".dkb-practice").count() == 0
        first.close(run_before_unload=True)  # the tab's own shutdown call frees its kernel
        expect(third.locator(".dkb-practice .dkb-submit")).to_be_visible(timeout=FIRST_LOAD_MS)
    finally:
        context.close()
