"""Waiting in a browser until a view shows a puzzle: every card's button *and* its picture,
and the sign buttons of the puzzle's level; opening the practice view's settings and a puzzle
by its code.

A card's name (its button), its drawing (an HTML widget beside it) and the row of sign
buttons reach the page in separate widget messages, so a test that waits for the names alone
may find the previous puzzle's pictures, or the previous level's signs, still drawn.
"""

from __future__ import annotations

import re
from typing import Any

from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.sessions.answer import AnswerDraft


def expect_shown(page: Any, puzzle: Puzzle, css: str = "dkb") -> None:
    """Wait until ``page`` shows ``puzzle``'s pasture and barn, names and pictures, and the
    sign buttons of its level."""
    from playwright.sync_api import expect

    signs = AnswerDraft(puzzle).operations
    row = page.locator(f".{css}-ops button")
    expect(row).to_have_count(len(signs) + 2)  # and the backspace and clear buttons
    for number, sign in enumerate(signs):
        expect(row.nth(number)).to_have_text(sign)

    for where, cards in (("pasture", puzzle.pasture), ("barn", puzzle.barn)):
        boxes = page.locator(f".{css}-{where} .{css}-card-box")
        expect(boxes).to_have_count(len(cards))
        for box, card in zip((boxes.nth(i) for i in range(len(cards))), cards, strict=True):
            expect(box.locator("button")).to_have_text(str(card) if not card.is_joker else "JK")
            label = re.compile("^" + re.escape(str(card) if not card.is_joker else "Joker"))
            expect(box.locator("svg")).to_have_attribute("aria-label", label)


def switch_language(page: Any, lang: str) -> None:
    """Pick ``lang`` in the app's language menu, then wait until the whole app speaks it (the
    practice buttons and the tabs' titles): the switch is a round trip to the kernel, and a
    test that reads the screen before it is back reads the old language."""
    from playwright.sync_api import expect

    from dekbovinoj_edu.i18n import LANGUAGE_NAMES, gettext

    page.locator(".dkb-lang select").first.select_option(label=LANGUAGE_NAMES[lang])
    expect(page.locator(".dkb-new").first).to_have_text(gettext(lang, "ui", "New puzzle"))
    tabs = page.locator(".lm-TabBar-tab")
    if tabs.count():
        expect(tabs.first).to_contain_text(gettext(lang, "ui", "Practice"))


def open_settings(page: Any) -> None:
    """Open the practice view's settings (the level, the difficulty, the switches, the code
    box), behind its "Settings" button, unless they are open already."""
    from playwright.sync_api import expect

    box = page.locator(".dkb-practice .dkb-settings-box").first
    expect(page.locator(".dkb-practice .dkb-settings").first).to_be_visible()
    if not box.is_visible():
        page.locator(".dkb-practice .dkb-settings").first.click()
    expect(box).to_be_visible()


def open_code(page: Any, code: str) -> None:
    """Open the puzzle of ``code`` in the practice view: its code box, then Enter."""
    open_settings(page)
    page.locator(".dkb-code input").fill(code)
    page.locator(".dkb-code input").press("Enter")
