"""A worksheet printed by Chromium: A4 and Letter, the puzzles first, the answer key on new pages.

Uses the session's headless Chromium (``conftest.py``; no Voilà server needed)
and reads the PDF back with pypdf.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from dekbovinoj_edu import Puzzle, worksheet

PAPER_MM = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}
MARGIN_MM = 12.0
"""The page margin of the worksheet's print stylesheet (``@page { margin: 12mm }``)."""
PX_PER_MM = 96 / 25.4
POINTS_PER_MM = 72 / 25.4


def _pages(browser: object, html: str, paper: str, artifacts: Path, name: str) -> list[str]:
    """Print the page to PDF on ``paper`` and return the text of each page."""
    pypdf = pytest.importorskip("pypdf")
    from playwright.sync_api import Browser

    assert isinstance(browser, Browser)
    page = browser.new_page()
    try:
        page.set_content(html)
        pdf = page.pdf(format=paper)
    finally:
        page.close()
    (artifacts / f"{name}-{paper}.pdf").write_bytes(pdf)
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    width, height = PAPER_MM[paper]
    for sheet in reader.pages:
        assert float(sheet.mediabox.width) == pytest.approx(width * POINTS_PER_MM, abs=1.5)
        assert float(sheet.mediabox.height) == pytest.approx(height * POINTS_PER_MM, abs=1.5)
    return [sheet.extract_text() or "" for sheet in reader.pages]


@pytest.mark.parametrize("paper", sorted(PAPER_MM))
def test_the_answer_key_starts_on_a_page_of_its_own(
    browser: object, artifacts: Path, paper: str
) -> None:
    sheet = worksheet(level=2, count=5, seed="printed", jokers=False)
    codes = [puzzle.code for puzzle in sheet.puzzles]
    pages = _pages(browser, sheet.html(), paper, artifacts, "worksheet")
    first_key = next(i for i, text in enumerate(pages) if "Answer key" in text)
    assert first_key >= 1
    assert pages[first_key].lstrip().startswith("Answer key")  # the key opens its page
    puzzle_pages, key_pages = "".join(pages[:first_key]), "".join(pages[first_key:])
    assert "Answer key" not in puzzle_pages
    assert puzzle_pages.lstrip().startswith("Dek Bovinoj worksheet") and "Name:" in puzzle_pages
    for code in codes:  # every code printed whole: nothing runs off the paper
        assert code in puzzle_pages and code in key_pages
    for puzzle in sheet.puzzles:
        assert Puzzle.from_code(puzzle.code) == puzzle

    without = _pages(
        browser,
        worksheet(level=2, count=5, seed="printed", jokers=False, answers=False).html(),
        paper,
        artifacts,
        "worksheet-no-answers",
    )
    assert len(without) == first_key
    assert not any("Answer key" in text for text in without)


@pytest.mark.parametrize("paper", sorted(PAPER_MM))
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_four_puzzles_or_more_fit_a_page_and_six_need_two_pages_with_the_key(
    browser: object, artifacts: Path, paper: str, lang: str
) -> None:
    sheet = worksheet(level=2, count=6, seed="four a page", jokers=False, lang=lang)
    pages = _pages(browser, sheet.html(), paper, artifacts, f"worksheet-six-{lang}")
    codes = [puzzle.code for puzzle in sheet.puzzles]
    assert sum(code in pages[0] for code in codes) >= 4  # the first page, under the heading
    assert len(pages) <= 3  # six puzzles on one or two pages, the key on the last
    assert all(code in "".join(pages[:-1]) for code in codes)
    assert "Answer key" not in "".join(pages[:-1])


@pytest.mark.parametrize("paper", sorted(PAPER_MM))
def test_the_widest_puzzles_fit_the_paper(browser: object, paper: str) -> None:
    from playwright.sync_api import Browser

    assert isinstance(browser, Browser)
    wide = Puzzle.parse("K♦ 8♦ 3♥ 2♥ 9♥ J♦ 3♠ 4♥ 5♥ A♦ Q♣ | 8♠ JK 7♣", level=2)
    sheet = worksheet(level=2, count=1, seed=1)
    html = type(sheet)((wide, *sheet.puzzles), lang="ja").html()
    printable = (PAPER_MM[paper][0] - 2 * MARGIN_MM) * PX_PER_MM
    page = browser.new_page(viewport={"width": int(printable), "height": 1000})
    try:
        page.set_content(html)
        page.emulate_media(media="print")
        overflow = page.evaluate(
            "() => [document.documentElement.scrollWidth, document.documentElement.clientWidth,"
            " Math.max(...[...document.querySelectorAll('svg')].map("
            "s => s.getBoundingClientRect().right))]"
        )
    finally:
        page.close()
    scroll_width, client_width, rightmost = overflow
    assert scroll_width <= client_width
    assert rightmost <= client_width


MEASURE = """() => {
  const cards = [...document.querySelectorAll('.cards rect.card')]
    .map(r => r.getBoundingClientRect().width);
  const ranks = [...document.querySelectorAll('.cards text.rank')]
    .map(t => t.getScreenCTM().a * parseFloat(t.getAttribute('font-size')));
  return [Math.min(...cards), Math.min(...ranks), cards.length];
}"""
"""The narrowest card and the smallest rank's font size on the page, in CSS pixels."""


@pytest.mark.parametrize("paper", sorted(PAPER_MM))
@pytest.mark.parametrize("count", [4, 6])
def test_the_printed_ranks_are_legible_at_arms_length(
    browser: object, paper: str, count: int
) -> None:
    from playwright.sync_api import Browser

    from dekbovinoj_edu.drawing.sheet_cards import CAP_HEIGHT_EM, MIN_RANK_CAP_MM

    assert isinstance(browser, Browser)
    sheet = worksheet(level=2, count=count, seed="class 4a", answers=False)
    printable = (PAPER_MM[paper][0] - 2 * MARGIN_MM) * PX_PER_MM
    page = browser.new_page(viewport={"width": int(printable), "height": 1000})
    try:
        page.set_content(sheet.html())
        page.emulate_media(media="print")
        card, rank, drawn = page.evaluate(MEASURE)
    finally:
        page.close()
    assert drawn == sum(len(p.pasture) + len(p.barn) for p in sheet.puzzles)
    assert card / PX_PER_MM >= 10.5  # the rectangle inside the 11 mm card (before: 9.7 mm)
    assert rank * CAP_HEIGHT_EM / PX_PER_MM >= MIN_RANK_CAP_MM  # before: 1.76 mm
