"""The teacher's address in a real browser, as issue 37 found it: the class service printed
``…/teacher/<secret>/``, the dashboard kept it in the address bar, and a student who
photographed the projected screen opened every answer, the CSV and the seat actions.

Now the teacher opens the printed address, the browser is signed in (a cookie the page's
script cannot read) and the address bar shows ``/teacher/`` without the secret; projector
mode is in the address, so a reload and another language keep it; and a student's own
browser on the address in the photograph gets the 404 page, nothing of the class.
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
from dekbovinoj_edu.i18n import LANGUAGE_NAMES, gettext

from .conftest import STEP_MS

PUZZLES = "68VN-AV66-GGK"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[ClassServer, list[str]]]:
    """Class 4a served in this process, with Ana joined; what the terminal printed."""
    store: SQLStore = open_store(tmp_path / "classes.sqlite3")
    store.add_class(codes_assignment("4a", PUZZLES))
    try:
        with running_service(store, "4a") as (server, api):
            assert api.join("Ana").status == 201
            printed: list[str] = []
            server.announce(printed.append)
            yield server, printed
    finally:
        store.close()


def test_the_printed_address_signs_in_and_a_photograph_of_the_screen_opens_nothing(
    browser: Any, served: tuple[ClassServer, list[str]], artifacts: Path
) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=STEP_MS)
    server, printed = served
    secret = server.service.secret
    printed_address = next(line for line in printed if line.startswith("Teacher:")).split()[-1]
    assert secret in printed_address
    assert any("it signs this browser in" in line for line in printed)
    clean = f"{server.url}teacher/"

    teachers = browser.new_context(viewport={"width": 1000, "height": 900})
    students = browser.new_context(viewport={"width": 1000, "height": 900})
    try:
        page = teachers.new_page()
        page.goto(printed_address)
        assert page.url == clean  # the address bar keeps no secret
        board = page.locator(".dkb-board")
        expect(board).to_contain_text("Ana")
        (cookie,) = teachers.cookies()
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
        assert cookie["path"] == "/teacher/" and secret not in cookie["value"]
        assert page.evaluate("document.cookie") == ""  # the page's script cannot read it
        assert secret not in page.content()

        page.locator(".dkb-projector").check()  # before the dashboard goes on the projector
        expect(page).to_have_url(f"{clean}?projector=1")
        expect(board).not_to_contain_text("Ana")
        expect(board).to_contain_text("Student 1")
        page.reload()
        expect(page.locator(".dkb-projector")).to_be_checked()
        expect(page.locator(".dkb-board")).to_contain_text("Student 1")
        expect(page.locator(".dkb-board")).not_to_contain_text("Ana")
        page.locator(".dkb-lang").select_option(label=LANGUAGE_NAMES["sv"])
        expect(page).to_have_url(f"{clean}?projector=1&lang=sv")
        expect(page.locator("html")).to_have_attribute("lang", "sv")
        expect(page.locator(".dkb-projector")).to_be_checked()
        expect(page.locator(".dkb-board")).not_to_contain_text("Ana")
        page.screenshot(path=str(artifacts / "teacher-signed-in-projector.png"))
        photographed = page.url
        assert secret not in photographed

        student = students.new_page()
        opened = student.goto(photographed)
        assert opened is not None and opened.status == 404
        expect(student.locator("h1")).to_have_text(gettext("sv", "classroom", "Not found"))
        assert "Ana" not in student.content()
        for rest in ("board", "report.csv"):
            answer = students.request.get(f"{clean}{rest}")
            assert answer.status == 404 and "Ana" not in answer.text()
        removal = students.request.post(f"{clean}seats/remove", data={"nickname": "Ana"})
        assert removal.status == 404
        assert [seat.nickname for seat in server.service.store.seats("4a")] == ["Ana"]
        student.screenshot(path=str(artifacts / "teacher-address-photographed.png"))
        assert Api(server.url).call("GET", "/api/v1/classes/4a").status == 200

        teachers.clear_cookies()  # the sign-in ended (a new service, another day)
        signed_out = "This browser is not signed in: open the teacher's address again."
        expect(page.locator(".dkb-status")).to_have_text(gettext("sv", "classroom", signed_out))
    finally:
        students.close()
        teachers.close()
