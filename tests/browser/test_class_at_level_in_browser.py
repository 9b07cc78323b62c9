"""Class mode "at each student's level" on the static site, in real browser pages: the class
service (in this process, over a real store) serves the site and the API; two students, in
their own browsers, each get the puzzle the service dealt to their own seat, and after each
answer their own next one; every puzzle is within the class's filters; the teacher's board
shows each student's level at the start of the lesson and now. Every wait is bounded.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from support.class_service import running_service

from dekbovinoj_edu.classroom.assignment import at_level_assignment
from dekbovinoj_edu.classroom.progress import level_step
from dekbovinoj_edu.classroom.store import SQLStore, open_store
from dekbovinoj_edu.rules.puzzle import Puzzle

pytestmark = [pytest.mark.browser, pytest.mark.network]  # the site's build takes Pyodide

SITE_FIRST_LOAD_MS = 240_000
"""How long the class page may take to show the app: Pyodide and its packages, a busy machine."""
STEP_MS = 60_000
"""How long one step may take (a request from the browser's Python included)."""
COUNT = 3


def cards_of(code: str) -> tuple[list[str], list[str]]:
    """The pasture's and the barn's cards of the puzzle ``code``, as the app prints them."""
    puzzle = Puzzle.from_code(code)
    return [str(card) for card in puzzle.pasture], [str(card) for card in puzzle.barn]


def seat_code(store: SQLStore, nickname: str) -> tuple[int, str]:
    seat = next(seat for seat in store.seats("4c") if seat.nickname == nickname)
    return seat.puzzle, seat.code


def shows(page: Any, code: str) -> None:
    """``page`` shows the puzzle ``code``: its pasture and its barn."""
    from playwright.sync_api import expect

    pasture, barn = cards_of(code)
    expect(page.locator(".dkb-pasture .dkb-card")).to_have_text(pasture)
    expect(page.locator(".dkb-barn .dkb-card")).to_have_text(barn)


def test_each_student_gets_their_own_puzzles_at_their_level(
    browser: Any, site: Path, tmp_path: Path, artifacts: Path
) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=STEP_MS)
    store = open_store(tmp_path / "classes.sqlite3")
    store.add_class(
        at_level_assignment("4c", level=1, count=COUNT, seed="4c", jokers=False, flipped=False)
    )
    console: list[str] = []
    with running_service(store, "4c", site=site) as (server, _):
        pages = {}
        try:
            for nickname in ("Ana", "Bo"):
                context = browser.new_context(viewport={"width": 1000, "height": 900})
                page = pages[nickname] = context.new_page()
                page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
                page.goto(server.url)
                expect(page.locator(".dkb-nickname input")).to_be_visible(
                    timeout=SITE_FIRST_LOAD_MS
                )
                page.locator(".dkb-nickname input").fill(nickname)
                page.locator(".dkb-join").click()
                expect(page.locator(".dkb-counter")).to_have_text(f"Puzzle 1 of {COUNT}")
                number, code = seat_code(store, nickname)
                assert number == 1 and code
                shows(page, code)  # the seat's own puzzle, dealt by the service
            seen: dict[str, list[str]] = {"Ana": [], "Bo": []}
            for number in range(1, COUNT + 1):
                for nickname, page in pages.items():
                    _, code = seat_code(store, nickname)
                    puzzle = Puzzle.from_code(code)
                    assert not puzzle.has_joker and not puzzle.flipped and puzzle.level.name == "1"
                    seen[nickname].append(code)
                    page.locator(".dkb-mu").click()
                    expect(page.locator(".dkb-feedback")).not_to_be_empty()
                    if number < COUNT:
                        page.locator(".dkb-next").click()
                        expect(page.locator(".dkb-counter")).to_have_text(
                            f"Puzzle {number + 1} of {COUNT}"
                        )
                        after, dealt = seat_code(store, nickname)
                        assert after == number + 1 and dealt and dealt != code
                        shows(page, dealt)  # its next puzzle is the one dealt after the answer
                    else:
                        page.locator(".dkb-next").click()  # the summary
            for nickname, page in pages.items():
                expect(page.locator(".dkb-summary")).to_be_visible()
                page.screenshot(path=str(artifacts / f"class-at-level-{nickname}.png"))
            attempts = store.attempts("4c")
            for nickname in pages:
                assert [a.code for a in attempts if a.nickname == nickname] == seen[nickname]

            teacher = browser.new_page(viewport={"width": 1000, "height": 900})
            teacher.goto(server.teacher_url)
            board = teacher.locator(".dkb-board")
            expect(board).to_contain_text(f"2 students · {2 * COUNT} attempts")
            for nickname in pages:
                ability = store.learner("4c", nickname).ability("1")
                assert ability.answers == COUNT
                row = board.locator("tbody tr").filter(has_text=nickname)
                expect(row.locator(".dkb-level")).to_contain_text(  # a new student: "–"
                    f"– → {level_step(ability.value)}"
                )
                right = sum(a.verdict == "mu-right" for a in attempts if a.nickname == nickname)
                expect(row.locator(".dkb-tally")).to_have_text(f"{right} of {COUNT}")  # their own
                first = row.locator(".dkb-cell").first  # each cell names the student's own puzzle
                expect(first).to_have_attribute("title", re.compile(f"Puzzle {seen[nickname][0]}"))
            expect(board.locator(".dkb-share")).to_have_count(0)  # no figures per column
            expect(board.locator(".dkb-own")).to_contain_text("Each student has their own puzzles")
            expect(teacher.locator(".dkb-own-answers")).to_be_visible()  # why no answers menu
            expect(teacher.locator("select.dkb-puzzle")).to_have_count(0)
            teacher.screenshot(path=str(artifacts / "class-at-level-dashboard.png"))
            teacher.close()
        finally:
            for page in pages.values():
                page.context.close()
            (artifacts / "class-at-level.console.log").write_text(
                "\n".join(console) + "\n", "utf-8"
            )
    store.close()
