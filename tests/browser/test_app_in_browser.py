"""The Voilà app in a real browser: Peter's turn tapped card by card, a colour mistake,
Esperanto, and the best answers, on the light page and on Voilà's own page."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.puzzles import PETER
from support.shown import expect_shown, open_code

from dekbovinoj_edu.checking.checker import check
from dekbovinoj_edu.i18n import gettext
from dekbovinoj_edu.sessions.practice import PracticeSession

PETERS_TAPS = ["K♣", "×", "2♣", "+", "3♠", "−", "9♦", "−", "3♥", "−", "7♥"]
OPS = {"+", "−", "×", "÷", "(", ")"}
FIRST_LOAD_MS = 90_000
"""How long a page opened without ``open_app`` may take to show the widget (as conftest's)."""


def expected_feedback(text: str, lang: str = "en") -> str:
    """What the app should answer, from the same model run here."""
    session = PracticeSession(puzzle=PETER, lang=lang)
    session.type(text)
    return session.submit().message


@pytest.mark.parametrize("served", ["light", "voila"])
def test_peters_turn_a_colour_mistake_esperanto_and_the_best_answers(
    open_app, artifacts: Path, served: str, request: pytest.FixtureRequest
) -> None:
    from playwright.sync_api import expect

    page = open_app(url=request.getfixturevalue("voila_page_url") if served == "voila" else None)
    shots = artifacts / served
    shots.mkdir(exist_ok=True)
    page.screenshot(path=str(shots / "01-app-loaded.png"), full_page=True)

    open_code(page, PETER.code)
    expect_shown(page, PETER)
    expect(page.locator(".dkb-barn .dkb-card")).to_have_text(["K♣", "2♣", "3♠"])

    for step in PETERS_TAPS:
        if step in OPS:
            page.locator(".dkb-op").filter(has_text=step).click()
        else:
            page.get_by_role("button", name=step, exact=True).click()
    expect(page.locator(".dkb-expression input")).to_have_value(" ".join(PETERS_TAPS))
    expect(page.locator(".dkb-card")).to_have_count(6)
    for card in page.locator(".dkb-card").all():
        expect(card).to_be_disabled()
    page.screenshot(path=str(shots / "02-peter-tapped.png"), full_page=True)

    page.locator(".dkb-submit").click()
    success = expected_feedback(" ".join(PETERS_TAPS))
    assert "6 cards" in success
    expect(page.locator(".dkb-feedback")).to_contain_text(success)
    page.screenshot(path=str(shots / "03-peter-success.png"), full_page=True)

    page.locator(".dkb-expression input").fill("13 + 9")
    page.locator(".dkb-expression input").press("Enter")
    mistake = check(PETER, "13 + 9").message.splitlines()[0]
    expect(page.locator(".dkb-feedback")).to_contain_text(mistake)
    page.screenshot(path=str(shots / "04-colour-mistake.png"), full_page=True)

    page.locator(".dkb-lang select").select_option(label="Esperanto")
    for css, msgid in [
        (".dkb-new", "New puzzle"),
        (".dkb-hint", "Hint"),
        (".dkb-best", "Show the best answers"),
        (".dkb-load", "Open"),
    ]:
        translated = gettext("eo", "ui", msgid)
        assert translated != msgid
        expect(page.locator(css)).to_have_text(translated)
    expect(page.locator(".dkb-app")).to_contain_text(gettext("eo", "ui", "Pasture"))
    page.screenshot(path=str(shots / "05-esperanto.png"), full_page=True)

    page.locator(".dkb-best").click()
    model = PracticeSession(puzzle=PETER, lang="eo")
    answers = page.locator(".dkb-answers .dkb-answer")
    expect(answers).to_have_count(len(model.best_answers))
    expect(answers.first).to_contain_text(model.best_answers[0].expression)
    expect(answers.first).to_contain_text(
        gettext("eo", "ui", "That is {target}: dek bovinoj!", target=10)
    )
    page.screenshot(path=str(shots / "06-best-answers.png"), full_page=True)

    expect(page.locator(".dkb-errors")).to_be_hidden()


@pytest.mark.parametrize("served", ["light", "voila"])
def test_the_apps_frame_is_drawn_whole(
    open_app, artifacts: Path, served: str, request: pytest.FixtureRequest
) -> None:
    """Before: on Voilà's page the frame was as wide as its output area plus the widgets'
    margin, so the output area cut off its right border."""
    page = open_app(url=request.getfixturevalue("voila_page_url") if served == "voila" else None)
    page.screenshot(path=str(artifacts / f"frame-{served}.png"))
    frame = page.locator(".dkb-app .widget-tab-contents").first.bounding_box()
    inside = page.evaluate(
        """() => { let e = document.querySelector('.dkb-app').parentElement;
                   while (e && getComputedStyle(e).overflowX === 'visible') e = e.parentElement;
                   return (e || document.documentElement).getBoundingClientRect().right; }"""
    )
    assert frame is not None and frame["x"] + frame["width"] <= inside, (frame, inside)


def test_the_app_fits_a_phone(open_app, artifacts: Path) -> None:
    from playwright.sync_api import expect

    page = open_app(width=375, height=812)
    page.locator(".dkb-submit").scroll_into_view_if_needed()
    expect(page.locator(".dkb-submit")).to_be_in_viewport()
    overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    page.screenshot(path=str(artifacts / "07-phone.png"), full_page=True)
    assert overflow <= 1, f"the page is {overflow}px wider than a phone screen"


def test_the_app_asks_nothing_of_another_server(browser, app_url: str) -> None:
    """A style sheet from a CDN that a school network drops would hold every student's app
    back, so the page asks only the server it came from: the page, the light page's script
    and its style sheet."""
    from urllib.parse import urlsplit

    from playwright.sync_api import expect

    page = browser.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    try:
        page.goto(app_url)
        expect(page.locator(".dkb-practice .dkb-submit")).to_be_visible(timeout=FIRST_LOAD_MS)
        expect(page.locator("#loading")).to_have_count(0)  # Voilà's spinner is gone
    finally:
        page.close()
    server = urlsplit(app_url).netloc
    outside = [
        url for url in asked if urlsplit(url).scheme != "data" and urlsplit(url).netloc != server
    ]
    fetched = [urlsplit(url) for url in asked[1:] if urlsplit(url).scheme != "data"]
    assert sorted(url.path.rsplit("/", 1)[-1] for url in fetched) == ["light.css", "light.js"]
    assert outside == []
