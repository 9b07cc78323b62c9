""" "At my level" on the static site: the learner state is kept in the browser beside the score,
and a student who closes the tab finds their level, their difficulty and their switches again.

The site is the conftest's ``site`` (built once a test session), served and opened as
``test_site_in_browser.py`` does: its fixtures are used here as they are.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from support.shown import open_settings

pytestmark = pytest.mark.network  # the site's build takes Pyodide and wheels (from the cache)

_SITE_TESTS = Path(__file__).with_name("test_site_in_browser.py")
_spec = importlib.util.spec_from_file_location("dekbovinoj_site_tests", _SITE_TESTS)
assert _spec is not None and _spec.loader is not None
_site_tests = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_site_tests)
site_server = _site_tests.site_server
open_site = _site_tests.open_site

_at_level = importlib.util.spec_from_file_location(
    "dekbovinoj_at_level_tests", Path(__file__).with_name("test_at_my_level_in_browser.py")
)
assert _at_level is not None and _at_level.loader is not None
_at_level_tests = importlib.util.module_from_spec(_at_level)
_at_level.loader.exec_module(_at_level_tests)
answer_right = _at_level_tests.answer_right
new_puzzle = _at_level_tests.new_puzzle

KEY = "dekbovinoj-progress:/"
"""The site's storage key when it is served at its origin's root (``widgets/progress.py``)."""


def kept(page: Any) -> dict[str, Any]:
    """What the page keeps in local storage."""
    return json.loads(page.evaluate(f"localStorage.getItem('{KEY}') || '{{}}'"))


def test_the_learner_state_survives_closing_the_tab(open_site: Any, artifacts: Path) -> None:
    from playwright.sync_api import expect

    page = open_site()
    expect(page.locator(".dkb-level-bar")).to_have_attribute("data-answers", "0")
    for number in (1, 2):
        answer_right(page)
        expect(page.locator(".dkb-level-bar")).to_have_attribute("data-answers", str(number))
        new_puzzle(page)  # before: the next answer was read off the puzzle just solved
    open_settings(page)  # the difficulty and the switches wait behind "Settings"
    page.locator(".dkb-difficulty select").select_option(label="challenge")
    page.locator(".dkb-jokers input").uncheck()
    page.wait_for_function(
        f"() => (localStorage.getItem('{KEY}') || '').includes('\"difficulty\": \"challenge\"')"
        f" && (localStorage.getItem('{KEY}') || '').includes('\"jokers\": false')"
    )
    saved = kept(page)
    level = saved["level"]
    assert saved["learner"]["abilities"][level]["answers"] == 2
    page.screenshot(path=str(artifacts / "site-at-my-level-before.png"), full_page=True)
    page.close()

    again = open_site()
    expect(again.locator(".dkb-level-bar")).to_have_attribute("data-answers", "2")
    expect(again.locator(".dkb-level-bar")).to_have_attribute("data-level", level)
    open_settings(again)
    expect(again.locator(".dkb-difficulty select")).to_have_value("challenge")
    expect(again.locator(".dkb-jokers input")).not_to_be_checked()
    again.screenshot(path=str(artifacts / "site-at-my-level-after.png"), full_page=True)
    expect(again.locator(".dkb-errors")).to_be_hidden()
    assert open_site.outside == []
