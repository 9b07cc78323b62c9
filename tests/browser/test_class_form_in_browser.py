"""The teacher makes a class in the browser (issue 38, item 5; issue 41, item 10): from the
dashboard to the classes page, the form (``class new``'s options), the new class's dashboard
with the address students type and its QR code, a student who joins it, the projector's
large type; then rename, end and forget from the list, forgetting only once the name is
typed."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.axe import violations
from support.class_service import Api, running_service

from dekbovinoj_edu.class_service.run import ClassServer
from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.store import SQLStore, open_store
from dekbovinoj_edu.cli.class_form import make_from_form

from .conftest import STEP_MS


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[ClassServer, Api, SQLStore]]:
    store: SQLStore = open_store(tmp_path / "classes.sqlite3")
    store.add_class(codes_assignment("4a", "68VN-AV66-GGK"))
    try:
        with running_service(store, "4a", class_maker=make_from_form) as (server, api):
            yield server, api, store
    finally:
        store.close()


def test_a_teacher_makes_a_class_sees_its_qr_code_and_a_student_joins(
    browser: Any, served: tuple[ClassServer, Api, SQLStore], artifacts: Path
) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=STEP_MS)
    server, api, store = served
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{server.url}teacher/{server.service.secret}/")
        page.locator(".dkb-classes-link").click()
        expect(page.locator("h1")).to_have_text("Your classes")
        page.locator("details summary").click()  # the filters too
        assert violations(page) == []  # axe, WCAG 2.2 AA with the target size
        page.locator("details summary").click()
        form = page.locator("form.dkb-new-class")
        form.locator("input[name='name']").fill("5c")
        form.locator("select[name='level']").select_option("1")
        form.locator("input[name='count']").fill("4")
        form.locator("select[name='mode']").select_option("test")
        page.locator("details summary").click()
        form.locator("select[name='jokers']").select_option("no")
        form.locator("button[type='submit']").click()

        expect(page.locator("h2")).to_contain_text("Class 5c")  # its dashboard
        assignment = store.assignment("5c")
        assert (assignment.size, assignment.mode) == (4, "test")
        assert not any(puzzle.has_joker for puzzle in assignment.puzzles)
        address = page.locator(".dkb-address-text")
        expect(address).to_have_text(server.url)
        assert float(address.evaluate("e => parseFloat(getComputedStyle(e).fontSize)")) >= 24
        qr = page.locator(".dkb-address-qr svg")
        expect(qr).to_be_visible()
        box = qr.bounding_box()
        assert box is not None and box["width"] >= 150 and box["height"] >= 150
        assert page.locator(".dkb-address-qr").get_attribute("data-link") == server.url

        joined = api.join("Ana", name="5c")  # the student's page joins through the API
        assert joined.status == 201, joined.text
        expect(page.locator("#board")).to_contain_text("Ana")
        page.locator(".dkb-projector").check()
        expect(page.locator("#board")).not_to_contain_text("Ana")  # names hidden
        sizes = page.locator(".dkb-board td, .dkb-board th").evaluate_all(
            "cells => cells.filter(c => c.offsetParent)"
            ".map(c => parseFloat(getComputedStyle(c).fontSize))"
        )
        assert sizes and min(sizes) >= 24, sizes
        page.screenshot(path=str(artifacts / "class-form-dashboard-projector.png"))
        assert violations(page) == []

        page.goto(f"{server.url}teacher/classes/")
        typed = iter(["5d", "5c", "5D"])  # the new name; a wrong name, then the right one

        def answer(dialog: Any) -> None:
            if dialog.type == "prompt":
                dialog.accept(next(typed))
            else:
                dialog.accept()

        page.on("dialog", answer)
        page.locator("[data-class-action='rename'][data-name='5c']").click()
        expect(page.locator(".dkb-status")).to_have_text("Class 5c is now called 5d.")
        page.locator("[data-class-action='end'][data-name='5d']").click()
        expect(page.locator(".dkb-status")).to_contain_text("Class 5d has ended")
        assert store.ended_classes() == {"5d"}
        expect(page.locator("tr.dkb-ended[data-name='5d']")).to_be_visible()
        page.locator("[data-class-action='forget'][data-name='5d']").click()
        expect(page.locator(".dkb-status")).to_have_text(
            "Type the name of the class, 5d, to forget it."
        )
        assert store.assignment("5d").name == "5d"  # kept
        page.locator("[data-class-action='forget'][data-name='5d']").click()
        expect(page.locator(".dkb-status")).to_contain_text("Class 5d was forgotten")
        assert [a.name for a in store.classes()] == ["4a"]
    finally:
        context.close()
