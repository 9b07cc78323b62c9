"""Every screen passes the WCAG 2.1 AA audit of axe-core in Chromium: the app's four tabs,
the teacher's dashboard and a printed worksheet."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.axe import violations
from support.puzzles import PETER

from dekbovinoj_edu import worksheet
from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.attempts import Attempt
from dekbovinoj_edu.classroom.store import open_store
from dekbovinoj_edu.serving.class_service import ClassService, start_class_service

pytestmark = pytest.mark.network  # axe-core comes from npm the first time


def test_every_tab_of_the_app_passes(open_app) -> None:
    from playwright.sync_api import expect

    page = open_app()
    page.locator(".dkb-code input").fill(PETER.code)
    page.locator(".dkb-code input").press("Enter")
    expect(page.locator(".dkb-pasture .dkb-card")).to_have_count(3)
    found = {}
    tabs = page.locator(".lm-TabBar-tab")
    for index in range(tabs.count()):
        tabs.nth(index).click()
        page.wait_for_timeout(300)
        found[tabs.nth(index).inner_text()] = violations(page)
    assert len(found) == 4
    assert found == {tab: [] for tab in found}


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
