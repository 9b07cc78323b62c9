"""A whole school on a real JupyterHub, in Chromium (tests/support/hub.py: JupyterHub from
PyPI, its proxy from npm, users' servers on this machine, the class service as a managed
service with its classes in PostgreSQL).

A teacher and three students log in with the hub's own login page. Each student opens the
class link: the hub starts their server, Voilà shows the class screens, which say who they
are and ask for no nickname; they answer. The teacher's dashboard at
``/services/dekbovinoj/`` shows exactly those attempts under the students' hub names; a
student's browser gets the 403 page there. Everything listens on 127.0.0.1, and every
process has stopped at the end.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.hub import PASSWORD, RunningHub, left_running, running_hub
from support.postgres import PostgresServer

from dekbovinoj_edu.classroom.classes import new_class
from dekbovinoj_edu.rules.puzzle import Puzzle

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

PETER = Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)
ANSWERS = {"ana": "13*2+3-9-3-7", "bo": "13-3", "cyd": "3+7"}
"""What each student types at puzzle 1 (the best answer; a right one with fewer cards; a
wrong one: + before a red 7)."""
SPAWN_MS = 180_000
"""How long a student may wait for their server and the app (a busy two-core machine)."""
STEP_MS = 30_000


@pytest.fixture(scope="module")
def hub(postgres: PostgresServer) -> Iterator[RunningHub]:
    name = postgres.create_database()
    url = postgres.url(name)
    new_class("4a", codes=f"{PETER.code},{PETER.code}", db=url)
    with running_hub(url, ("tess", *ANSWERS), {"teachers": ["tess"]}) as running:
        yield running
    assert left_running(running) == [], "a process of the hub is still running"
    postgres.drop_database(name)


def log_in(browser: Any, hub: RunningHub, user: str, next_url: str) -> Any:
    """A browser of its own for ``user``, logged in with the hub's login page, at ``next_url``."""
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    page.goto(f"{hub.url}/hub/login?next={next_url}")
    page.locator("#username_input").fill(user)
    page.locator("#password_input").fill(PASSWORD)
    page.locator("#login_submit").click()
    expect(page.locator("body")).not_to_contain_text("Sign in", timeout=STEP_MS)
    return page


def test_a_teacher_and_three_students_on_the_hub(
    browser: Any, hub: RunningHub, artifacts: Path
) -> None:
    from playwright.sync_api import expect

    link = "/hub/user-redirect/voila/render/dekbovinoj/classroom.ipynb?class=4a"
    pages = {}
    for user, typed in ANSWERS.items():
        page = log_in(browser, hub, user, link)
        pages[user] = page
        expect(page.locator(".dkb-counter")).to_contain_text("Puzzle 1 of 2", timeout=SPAWN_MS)
        expect(page.locator(".dkb-class-app")).to_contain_text(f"You are {user}.")
        expect(page.locator(".dkb-nickname")).to_be_hidden()
        assert page.url.startswith(f"{hub.url}/user/{user}/voila/render/")
        page.locator(".dkb-expression input").fill(typed)
        page.locator(".dkb-expression input").press("Enter")
        expect(page.locator(".dkb-feedback")).not_to_have_text("", timeout=STEP_MS)
        page.screenshot(path=str(artifacts / f"hub-{user}.png"))

    teacher = log_in(browser, hub, "tess", "/services/dekbovinoj/")
    expect(teacher.locator("body")).to_contain_text("You are signed in as tess.")
    teacher.locator("a[href='classes/4a/']").click()
    board = teacher.locator("#board")
    for user in ANSWERS:
        expect(board).to_contain_text(user, timeout=STEP_MS)
    teacher.screenshot(path=str(artifacts / "hub-teacher.png"))
    report = teacher.request.get(f"{hub.service_url}classes/4a/report.csv")
    assert report.status == 200
    rows = [(row["nickname"], row["answer"]) for row in csv.DictReader(io.StringIO(report.text()))]
    assert sorted(rows) == sorted(ANSWERS.items())

    student = pages["ana"]
    answer = student.goto(hub.service_url)
    assert answer is not None and answer.status == 403
    expect(student.locator("h1")).to_have_text("Only for teachers")
    expect(student.locator("body")).to_contain_text("You are signed in as ana.")

    addresses = hub.listening()
    assert addresses and all(a.startswith("127.0.0.1:") for a in addresses), addresses
    for page in [*pages.values(), teacher]:
        page.context.close()
