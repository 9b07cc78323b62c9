"""The Korova tab of the Voilà app in a real browser: practice puzzles answered, then turns
of a game against computer players.

The puzzles and the deal come from the app's own generator, so the test reads
what the page shows (the rows, the card asked about) and works out the right
answer with the same model, then checks what the page says back.
"""

from __future__ import annotations

import re
from pathlib import Path

from dekbovinoj_edu.korova import ROW_LIMIT
from dekbovinoj_edu.korova.practice.puzzles import Kind, KorovaPuzzle
from dekbovinoj_edu.korova.text import t


def _rows(page, scope: str) -> tuple[tuple[int, ...], ...]:
    rows = []
    for row in page.locator(f"{scope} .kor-table .kor-row").all():
        rows.append(tuple(int(n) for n in row.locator(".kor-card b").all_inner_texts()))
    return tuple(rows)


def _open_korova(open_app):
    from playwright.sync_api import expect

    page = open_app()
    page.get_by_role("tab", name="Korova").click()
    expect(page.locator(".kor-practice .kor-hint")).to_be_visible()
    return page


KIND_LABELS = {
    "which-row": "Which row?",
    "row-points": "How many points?",
    "row-to-take": "Which row to take?",
    "order": "In which order?",
}


def _shown(page) -> int:
    return int(page.locator(".kor-practice .kor-question b").get_attribute("data-shown"))


def _then_a_new_puzzle(page, action) -> None:
    """Do ``action`` and wait until the page shows the puzzle it deals."""
    from playwright.sync_api import expect

    before = _shown(page)
    action()
    expect(
        page.locator(f".kor-practice .kor-question [data-shown='{before + 1}']")
    ).to_be_attached()


def _choose_kind(page, kind: str) -> None:
    select = page.locator(".kor-practice .kor-kind select")
    _then_a_new_puzzle(page, lambda: select.select_option(label=KIND_LABELS[kind]))


def test_practice_puzzles_answered_in_the_korova_tab(open_app, artifacts: Path) -> None:
    from playwright.sync_api import expect

    page = _open_korova(open_app)
    practice = ".kor-practice"
    feedback = page.locator(f"{practice} .kor-feedback")

    # Which row? Read the rows and the card, answer with the model's answer.
    _choose_kind(page, "which-row")
    expect(page.locator(f"{practice} .kor-answer-none")).to_be_visible()
    card = int(page.locator(f"{practice} .kor-card-asked .kor-card b").inner_text())
    puzzle = KorovaPuzzle(Kind.WHICH_ROW, _rows(page, practice), (card,))
    answer = puzzle.answer
    button = ".kor-answer-none" if answer is None else f".kor-answer-row-{answer + 1}"
    page.locator(f"{practice} {button}").click()
    expect(feedback).to_contain_text("Right!")
    for line in puzzle.explanation().splitlines():
        expect(feedback).to_contain_text(line)  # the differences, shown after answering
    expect(page.locator(f"{practice} .kor-row-note")).to_have_count(4)
    page.screenshot(path=str(artifacts / "korova-01-which-row.png"), full_page=True)

    # The next one answered wrongly: the right answer and the differences follow.
    _then_a_new_puzzle(page, page.locator(f"{practice} .kor-new").click)
    card = int(page.locator(f"{practice} .kor-card-asked .kor-card b").inner_text())
    puzzle = KorovaPuzzle(Kind.WHICH_ROW, _rows(page, practice), (card,))
    wrong = next(k for k in range(4) if not puzzle.is_right(k))
    page.locator(f"{practice} .kor-answer-row-{wrong + 1}").click()
    expect(feedback).to_contain_text("Not quite")
    expect(feedback).to_contain_text(puzzle.explanation().splitlines()[-1])

    # How many points? Typed.
    _choose_kind(page, "row-points")
    expect(page.locator(f"{practice} .kor-points input")).to_be_visible()
    (row,) = _rows(page, practice)
    puzzle = KorovaPuzzle(Kind.ROW_POINTS, (row,))
    page.locator(f"{practice} .kor-points input").fill(str(puzzle.answer))
    page.locator(f"{practice} .kor-check").click()
    expect(feedback).to_contain_text("Right!")
    expect(feedback).to_contain_text(puzzle.explanation())

    # Which row to take? A hint first, then the cheapest row.
    _choose_kind(page, "row-to-take")
    card = int(page.locator(f"{practice} .kor-card-asked .kor-card b").inner_text())
    puzzle = KorovaPuzzle(Kind.ROW_TO_TAKE, _rows(page, practice), (card,))
    page.locator(f"{practice} .kor-hint").click()
    expect(feedback).to_contain_text(puzzle.hints()[0])
    page.locator(f"{practice} .kor-answer-row-{puzzle.answer + 1}").click()
    expect(feedback).to_contain_text("Right!")

    # In which order? Tap the revealed cards lowest first.
    _choose_kind(page, "order")
    cards = page.locator(f"{practice} .kor-order-card")
    expect(cards.first).to_be_visible()
    shown = [int(text) for text in cards.all_inner_texts()]
    for card in sorted(shown):
        cards.filter(has_text=re.compile(rf"^{card}$")).click()
    expect(page.locator(f"{practice} .kor-order-echo")).to_have_text(
        " → ".join(str(card) for card in sorted(shown))
    )
    page.locator(f"{practice} .kor-check").click()
    expect(feedback).to_contain_text("Right!")
    expect(page.locator(f"{practice} .kor-score")).to_contain_text("Right: 4 of 5")
    page.screenshot(path=str(artifacts / "korova-02-order.png"), full_page=True)

    # Russian, the language of these rules.
    page.locator(f"{practice} .kor-lang select").select_option(label="Русский")
    expect(page.locator(f"{practice} .kor-new")).to_have_text(t("ru", "New puzzle"))
    expect(page.get_by_role("tab", name=t("ru", "Play"), exact=True)).to_be_visible()
    expect(page.locator(".kor-errors")).to_have_count(2)
    for errors in page.locator(".kor-errors").all():
        expect(errors).to_be_hidden()


def test_turns_of_a_game_in_the_korova_tab(open_app, artifacts: Path) -> None:
    from playwright.sync_api import expect

    page = _open_korova(open_app)
    page.locator(".kor-tab").get_by_role("tab", name="Play", exact=True).click()
    game = ".kor-game"
    hand = page.locator(f"{game} .kor-hand-card")
    expect(hand).to_have_count(10)
    for turn in range(1, 5):
        card = int(hand.first.inner_text())
        hand.first.click()
        placed = page.locator(f"{game} .kor-log li", has_text=f"You: {card} ")
        take = page.locator(f"{game} .kor-take")
        expect(placed.or_(take).first).to_be_visible()
        if take.count():
            # Lower than every row (rule 4): the page asks which row to take.
            expect(page.locator(f"{game} .kor-prompt")).to_contain_text("lower than every row")
            page.screenshot(path=str(artifacts / "korova-03-take-a-row.png"), full_page=True)
            take.first.click()
            expect(placed).to_be_visible()
        expect(hand).to_have_count(10 - turn)
        log = page.locator(f"{game} .kor-log")
        expect(log).to_contain_text(f"Round 1, turn {turn}")
        expect(log).to_contain_text(f"You: {card} ")
        expect(page.locator(f"{game} .kor-status")).to_contain_text(f"Turn {turn + 1} of 10")
        rows = _rows(page, game)
        assert len(rows) == 4
        assert all(list(row) == sorted(row) and 1 <= len(row) <= ROW_LIMIT for row in rows)
    page.screenshot(path=str(artifacts / "korova-04-game.png"), full_page=True)
    expect(page.locator(".kor-errors").last).to_be_hidden()
