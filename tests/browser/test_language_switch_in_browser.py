"""Switching the language in the Voilà app translates what is on screen: the message about the
last answer and the best answers stay, in the new language."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from support.puzzles import PETER
from support.shown import expect_shown, open_code

from dekbovinoj_edu.i18n import LANGUAGE_NAMES
from dekbovinoj_edu.sessions.practice import PracticeSession

PETERS_ANSWER = "13*2+3-9-3-7"


def test_the_feedback_and_the_best_answers_are_translated_not_cleared(
    open_app: Any, artifacts: Path
) -> None:
    from playwright.sync_api import expect

    page = open_app()
    open_code(page, PETER.code)
    expect_shown(page, PETER)
    page.locator(".dkb-expression input").fill(PETERS_ANSWER)
    page.locator(".dkb-expression input").press("Enter")
    model = PracticeSession(puzzle=PETER)
    model.type(PETERS_ANSWER)
    expect(page.locator(".dkb-feedback")).to_contain_text(model.submit().message)
    page.locator(".dkb-best").click()
    expect(page.locator(".dkb-answers .dkb-answer").first).to_be_visible()

    page.locator(".dkb-lang select").select_option(label=LANGUAGE_NAMES["sv"])
    model.set_lang("sv")
    told = model.retell()
    assert told is not None and "kort" in told.message
    expect(page.locator(".dkb-feedback")).to_contain_text(told.message)
    title = f"{len(model.best_answers)} olika"
    expect(page.locator(".dkb-answers")).to_contain_text(title)
    expect(page.locator(".dkb-answers .dkb-answer").first).to_contain_text(
        model.best_answers[0].steps[-1]
    )
    page.screenshot(path=str(artifacts / "language-switch-kept.png"), full_page=True)
    expect(page.locator(".dkb-errors")).to_be_hidden()
