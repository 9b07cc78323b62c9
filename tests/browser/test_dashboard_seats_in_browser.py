"""The dashboard's seat actions for issue 37's findings 7 and 11, in a real browser.

Before, "release" let whoever joined first with the nickname take the seat and its attempts,
and a flood of 300 seats from one address was removed one seat, and one question, at a time.
Now a release shows the teacher the seat's new rejoin code (only that code takes it up
again), and "Remove these" removes the seats without an answer that joined in the last
minutes, after one question that names them.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.class_service import Api, running_service

from dekbovinoj_edu.class_service.run import ClassServer
from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.store import SQLStore, open_store

from .conftest import STEP_MS

PUZZLES = "68VN-AV66-GGK"
FLOOD = 25


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[ClassServer, Api, SQLStore]]:
    """Class 4a served in this process: Ana, who answered, then a flood of seats."""
    store: SQLStore = open_store(tmp_path / "classes.sqlite3")
    store.add_class(codes_assignment("4a", PUZZLES))
    try:
        with running_service(store, "4a") as (server, api):
            ana = api.join("Ana").document
            assert api.attempt(ana["token"], "ana-00001", 1, "1 + 1").status == 201
            for number in range(FLOOD):
                assert api.join(f"spam {number}").status == 201
            yield server, api, store
    finally:
        store.close()


def test_a_release_shows_the_new_code_and_remove_these_takes_the_flood_in_one_question(
    browser: Any, served: tuple[ClassServer, Api, SQLStore], artifacts: Path
) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=STEP_MS)
    server, api, store = served
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{server.url}teacher/{server.service.secret}/")
        expect(page.locator(".dkb-seats")).to_contain_text("spam 24")

        questions: list[str] = []

        def answer(dialog: Any) -> None:
            questions.append(dialog.message)
            dialog.accept()

        page.on("dialog", answer)
        page.locator("[data-action='release'][data-nickname='Ana']").click()
        status = page.locator(".dkb-status")
        expect(status).to_contain_text("The new rejoin code of Ana is ")
        code = status.inner_text().split(" is ", 1)[1][:9]
        assert api.join("Ana").code == "nickname-taken"  # a classmate polling: nothing
        back = api.join("Ana", code)
        assert back.status == 200 and back.document["seat"]["puzzle"] == 1

        page.locator(".dkb-flood-minutes").fill("10")
        page.locator(".dkb-remove-these").click()
        expect(status).to_have_text(f"Seats removed: {FLOOD}.")
        assert len(questions) == 2  # the release's, and one for the whole flood
        assert questions[1].startswith(f"Remove these {FLOOD} seats, which have no answer")
        assert "spam 0, spam 1" in questions[1] and "Ana" not in questions[1]
        expect(page.locator(".dkb-seats")).not_to_contain_text("spam")
        assert [seat.nickname for seat in store.seats("4a")] == ["Ana"]
        page.screenshot(path=str(artifacts / "dashboard-remove-these.png"))
    finally:
        context.close()
