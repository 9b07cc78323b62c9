"""An 8-year-old's fingers on a school tablet and a phone (issue 41), in Chromium with touch:

- every button, toggle, switch, tab, text box, menu and card of the app (its four tabs, the
  settings open, a message shown) and of the class screens (joining, a puzzle with its
  message and a greyed button's reason, the summary) is at least 44×44 CSS px, and 8 px from
  the next one, at 768×1024 and 390×844; so is every control of the teacher's dashboard;
- no text is cut off and nothing scrolls sideways at 320 and 390 px, with a long answer, its
  read-back and its mistake line on the screen;
- the goal ("Make 10") and the cards come first, the settings behind one button, and a
  tapped card says "used" until the answer is checked.

The sizes are :mod:`dekbovinoj_edu.widgets.look`'s; :mod:`support.touch` measures them.
"""

from __future__ import annotations

import contextlib
import io
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.puzzles import PETER
from support.serve_command import Served, serve_command
from support.servers import free_port
from support.shown import expect_shown, open_code, open_settings
from support.touch import (
    PHONE,
    SMALL_PHONE,
    TABLET,
    clipped,
    finger_faults,
    touch_context,
)

from dekbovinoj_edu.cli import main
from dekbovinoj_edu.i18n import gettext

from .conftest import FIRST_LOAD_MS, STEP_MS, _need_chromium

DEVICES = {"tablet": TABLET, "phone": PHONE}
NARROW = {"small phone": SMALL_PHONE, "phone": PHONE}
LONG_ANSWER = "13*2+3-9-3-7+(13*2+3-9-3-7)*(13*2+3-9-3-7+(13*2+3-9-3"
"""An answer longer than a phone is wide, with a bracket never closed: the read-back and the
mistake line are long too."""
FONT = "(element) => parseFloat(getComputedStyle(element).fontSize)"


def open_touch(browser: Any, url: str, viewport: dict[str, int], ready: str) -> Any:
    """A page of ``url`` in a touch context the size of ``viewport``, once ``ready`` shows."""
    from playwright.sync_api import expect

    expect.set_options(timeout=STEP_MS)
    page = touch_context(browser, viewport).new_page()
    page.goto(url)
    expect(page.locator(ready).first).to_be_visible(timeout=FIRST_LOAD_MS)
    return page


def close(page: Any) -> None:
    context = page.context
    page.close()
    context.close()


def mistake_on_screen(page: Any) -> None:
    """Peter's puzzle with the long answer checked: its read-back, its mistake line and the
    message on the screen."""
    from playwright.sync_api import expect

    open_code(page, PETER.code)
    expect_shown(page, PETER)
    page.locator(".dkb-expression input").fill(LONG_ANSWER)
    expect(page.locator(".dkb-problem")).to_be_visible()
    page.locator(".dkb-submit").tap()
    expect(page.locator(".dkb-feedback .dkb-kind-unreadable")).to_be_visible()


@pytest.mark.parametrize("device", DEVICES)
def test_every_target_of_the_app_fits_a_finger(
    browser: object, app_url: str, artifacts: Path, device: str
) -> None:
    from playwright.sync_api import expect

    page = open_touch(browser, app_url, DEVICES[device], ".dkb-practice .dkb-submit")
    try:
        found = {"practice": finger_faults(page)}
        mistake_on_screen(page)  # the settings open, a message shown
        found["practice, its settings open, a mistake shown"] = finger_faults(page)
        page.screenshot(path=str(artifacts / f"touch-app-{device}.png"), full_page=True)
        tabs = page.locator(".dkb-app > .lm-TabBar .lm-TabBar-tab")
        for index, ready in ((1, ".dkb-game-seed"), (2, ".dkb-how-to-play"), (3, ".kor-tab")):
            tabs.nth(index).tap()
            expect(page.locator(ready).first).to_be_visible()
            page.wait_for_timeout(300)  # the tab's widgets drawn whole
            found[tabs.nth(index).inner_text()] = finger_faults(page)
            page.screenshot(path=str(artifacts / f"touch-app-{device}-{index}.png"), full_page=True)
    finally:
        close(page)
    assert len(found) == 5
    assert found == {screen: [] for screen in found}


@pytest.mark.parametrize("width", NARROW)
def test_nothing_of_the_app_is_cut_off_on_a_phone(
    browser: object, app_url: str, artifacts: Path, width: str
) -> None:
    page = open_touch(browser, app_url, NARROW[width], ".dkb-practice .dkb-submit")
    try:
        found = {"practice": clipped(page)}
        mistake_on_screen(page)
        found["a long answer and its mistake"] = clipped(page)
        page.locator(".dkb-lang select").select_option(label="Esperanto")  # the longest words
        page.locator(".dkb-best").tap()
        page.locator(".dkb-answers .dkb-answer").first.wait_for()
        found["the best answers, in Esperanto"] = clipped(page)
        page.screenshot(path=str(artifacts / f"clipped-app-{width}.png"), full_page=True)
    finally:
        close(page)
    assert found == {screen: [] for screen in found}


def test_the_goal_and_the_cards_come_first_and_a_tapped_card_says_used(
    browser: object, app_url: str
) -> None:
    from playwright.sync_api import expect

    page = open_touch(browser, app_url, PHONE, ".dkb-practice .dkb-submit")
    try:
        goal = page.locator(".dkb-goal")
        expect(goal).to_contain_text(gettext("en", "ui", "Make {target}", target=10))
        expect(page.locator(".dkb-level select")).to_be_hidden()  # behind "Settings"
        expect(page.locator(".dkb-code input")).to_be_hidden()
        first_card = page.locator(".dkb-pasture .dkb-card-box").first
        assert goal.bounding_box()["y"] < first_card.bounding_box()["y"]  # type: ignore[index]
        assert first_card.bounding_box()["y"] < PHONE["height"]  # type: ignore[index]
        open_settings(page)
        expect(page.locator(".dkb-level select")).to_be_visible()
        open_code(page, PETER.code)
        expect_shown(page, PETER)
        king = page.locator(".dkb-barn .dkb-card-box").first
        king.tap()
        expect(page.locator(".dkb-expression input")).to_have_value("K♣")
        expect(king.locator("svg text").last).to_have_text(gettext("en", "ui", "used"))
        assert king.locator("svg path").count() == 0  # no tick before the answer is checked
        page.locator(".dkb-lang select").select_option(label="Svenska")
        expect(goal).to_contain_text(gettext("sv", "ui", "Make {target}", target=10))
        expect(king.locator("svg text").last).to_have_text(gettext("sv", "ui", "used"))
    finally:
        close(page)


def test_large_makes_every_control_and_word_bigger(browser: object, app_url: str) -> None:
    from playwright.sync_api import expect

    page = open_touch(browser, app_url, TABLET, ".dkb-practice .dkb-submit")
    try:
        parts = [".dkb-submit", ".dkb-new", ".dkb-lang select", ".dkb-expression input"]

        def sizes() -> list[tuple[float, float]]:
            """Each part's height and its type's size, in CSS px."""
            found = []
            for part in parts:
                shown = page.locator(part).first
                box = shown.bounding_box()
                assert box is not None
                found.append((box["height"], float(shown.evaluate(FONT))))
            return found

        before = sizes()
        open_settings(page)
        page.locator(".dkb-large").tap()
        expect(page.locator(".dkb-practice")).to_have_class(re.compile(r"\bdkb-large-view\b"))
        after = sizes()
        pairs = zip(before, after, strict=True)
        grew = [big[0] > small[0] and big[1] > small[1] for small, big in pairs]
        assert grew == [True] * len(parts), (before, after)
    finally:
        close(page)


@pytest.fixture(scope="module")
def class_served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """``serve --class 4a``: a test of Peter's puzzle twice (help locked until the end)."""
    _need_chromium()
    folder = tmp_path_factory.mktemp("class-touch")
    db = folder / "classes.sqlite3"
    codes = f"{PETER.code},{PETER.code}"
    with contextlib.redirect_stdout(io.StringIO()):
        made = main(["class", "new", "4a", "--codes", codes, "--mode", "test", "--db", str(db)])
    assert made == 0
    argv = ["--class", "4a", "--db", str(db), "--host=127.0.0.1", f"--port={free_port()}"]
    with serve_command(folder, *argv, browser=False) as served:
        served.address()
        served.out.until("ready: 1 student", 240)  # the first kernel, on a busy machine
        yield served


def join(page: Any, nickname: str) -> None:
    from playwright.sync_api import expect

    page.locator(".dkb-nickname input").fill(nickname)
    page.locator(".dkb-join").tap()
    expect(page.locator(".dkb-pasture .dkb-card")).to_have_text(["9♦", "3♥", "7♥"])


@pytest.mark.slow  # a real serve --class
@pytest.mark.parametrize("device", DEVICES)
def test_every_target_of_the_class_screens_fits_a_finger(
    browser: object, class_served: Served, artifacts: Path, device: str
) -> None:
    from playwright.sync_api import expect

    page = open_touch(browser, class_served.address(), DEVICES[device], ".dkb-nickname input")
    try:
        found = {"join": finger_faults(page)}
        join(page, f"Ana {device}")
        page.locator(".dkb-expression input").fill(LONG_ANSWER)
        page.locator(".dkb-expression input").press("Enter")
        expect(page.locator(".dkb-feedback")).not_to_be_empty()
        expect(page.locator(".dkb-reasons")).to_contain_text(gettext("en", "ui", "Hint"))
        found["a puzzle, its message, a greyed button's reason"] = finger_faults(page)
        page.screenshot(path=str(artifacts / f"touch-class-{device}.png"), full_page=True)
        for _ in range(2):
            page.locator(".dkb-mu").tap()
            page.locator(".dkb-next").tap()
        expect(page.locator(".dkb-summary")).to_be_visible()
        found["the summary"] = finger_faults(page)
        page.screenshot(path=str(artifacts / f"touch-class-{device}-end.png"), full_page=True)
    finally:
        close(page)
    assert found == {screen: [] for screen in found}


@pytest.mark.slow  # a real serve --class
@pytest.mark.parametrize("device", DEVICES)
def test_every_target_of_the_teachers_dashboard_fits_a_finger(
    browser: object, class_served: Served, artifacts: Path, device: str
) -> None:
    student = open_touch(browser, class_served.address(), DEVICES[device], ".dkb-nickname input")
    try:
        join(student, f"Cy {device}")  # a seat: the seats' buttons are on the dashboard
        page = open_touch(browser, class_served.teacher(), DEVICES[device], ".dkb-seats button")
        try:
            found = finger_faults(page)
            page.screenshot(path=str(artifacts / f"touch-dashboard-{device}.png"), full_page=True)
        finally:
            close(page)
    finally:
        close(student)
    assert found == [], "\n".join(found)


@pytest.mark.slow  # a real serve --class
@pytest.mark.parametrize("width", NARROW)
def test_nothing_of_the_class_screens_is_cut_off_on_a_phone(
    browser: object, class_served: Served, artifacts: Path, width: str
) -> None:
    from playwright.sync_api import expect

    page = open_touch(browser, class_served.address(), NARROW[width], ".dkb-nickname input")
    try:
        found = {"join": clipped(page)}
        join(page, f"Bo {width}")
        page.locator(".dkb-expression input").fill(LONG_ANSWER)
        page.locator(".dkb-expression input").press("Enter")
        expect(page.locator(".dkb-feedback")).not_to_be_empty()
        found["a long answer, its mistake and the reasons"] = clipped(page)
        page.screenshot(path=str(artifacts / f"clipped-class-{width}.png"), full_page=True)
    finally:
        close(page)
    assert found == {screen: [] for screen in found}
