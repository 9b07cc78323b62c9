""" "At my level" in the Voilà app: the choice in the difficulty menu, the switches, and the level
bar that moves as the student solves puzzles."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from support.shown import open_settings

from dekbovinoj_edu.i18n import gettext
from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.sessions.learning import PLACEMENT
from dekbovinoj_edu.solving.solver import solve


def shown_puzzle(page: Any) -> Puzzle:
    """The puzzle the page shows, read from its code ("This puzzle: …")."""
    return Puzzle.from_code(page.locator(".dkb-current-code code").inner_text().strip())


def answer_right(page: Any) -> None:
    """Answer the puzzle on the page as the solver would: its best answer, or "mu!"."""
    from playwright.sync_api import expect

    puzzle = shown_puzzle(page)
    best = solve(puzzle)
    if best is None:
        page.locator(".dkb-mu").click()
        expect(page.locator(".dkb-feedback .dkb-kind-mu-right")).to_be_visible()
        return
    if best.joker:
        page.locator(".dkb-joker").click()
    page.locator(".dkb-expression input").fill(best.expression)
    page.locator(".dkb-expression input").press("Enter")
    expect(page.locator(".dkb-feedback .dkb-kind-solved")).to_be_visible()


def new_puzzle(page: Any) -> None:
    """Press "New puzzle" and wait until the page shows another puzzle."""
    from playwright.sync_api import expect

    before = shown_puzzle(page)
    page.locator(".dkb-new").click()
    expect(page.locator(".dkb-current-code code")).not_to_have_text(before.code)


def meter(page: Any) -> int:
    """The level bar's value, 0 to 100."""
    return int(page.locator(".dkb-level-meter").get_attribute("aria-valuenow") or "-1")


def test_at_my_level_is_chosen_the_switches_are_there_and_the_bar_moves(
    open_app: Any, artifacts: Path
) -> None:
    from playwright.sync_api import expect

    page = open_app()
    expect(page.locator(".dkb-difficulty select")).to_be_hidden()  # behind "Settings"
    open_settings(page)
    menu = page.locator(".dkb-difficulty select")
    expect(menu).to_have_value("at my level")  # ipywidgets names each option by its label
    labels = [
        text.replace("\xa0", " ").strip() for text in menu.locator("option").all_inner_texts()
    ]
    assert labels[:3] == ["gentle start", "at my level", "challenge"], labels
    expect(page.locator(".dkb-jokers input")).to_be_visible()
    expect(page.locator(".dkb-swapped input")).to_be_visible()
    placing = gettext(
        "en", "ui", "Finding your level: puzzle {number} of {count}", number=1, count=PLACEMENT
    )
    expect(page.locator(".dkb-level-words")).to_have_text(placing)
    page.screenshot(path=str(artifacts / "at-my-level-01-start.png"), full_page=True)

    values = [meter(page)]
    for number in range(PLACEMENT):
        answer_right(page)
        expect(page.locator(".dkb-level-bar")).to_have_attribute("data-answers", str(number + 1))
        values.append(meter(page))
        new_puzzle(page)
    assert values[-1] > values[0], values  # a new student who solves every puzzle climbs
    expect(page.locator(".dkb-level-words")).to_contain_text(re.compile(r"\d of 5 stars"))
    page.screenshot(path=str(artifacts / "at-my-level-02-placed.png"), full_page=True)
    expect(page.locator(".dkb-errors")).to_be_hidden()
