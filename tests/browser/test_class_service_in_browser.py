"""Class mode on the static site, in real browser pages: the site built with its class page
(``build-site --class``) and served by the class service itself
(``dekbovinoj class serve 4a --site``), the student's app in each browser's own Python, every
answer sent to the service's API on the page's origin.

Three students (three browsers: their own local storage each) join a test and answer; the
teacher's dashboard shows exactly their rows, and so does the database. A reload takes the
student's seat up again at once, without typing anything. The service is killed in the
middle of a student's work and started again: the student sees the feedback at once all the
same, and every attempt is in the database once. The site on another server reaches a
service that allows its origin by name, when the site lists that service
(``class-servers.json``); a link that names a service the site does not list gets one sentence,
and that computer gets nothing. Every wait is bounded.
"""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import time
import urllib.parse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.puzzles import PETER
from support.servers import recording_server, serve_site

from dekbovinoj_edu.checking.checker import check
from dekbovinoj_edu.classroom.attempts import MU_TYPED
from dekbovinoj_edu.classroom.store import open_store
from dekbovinoj_edu.classroom.views.keeper import CLASS_SERVERS
from dekbovinoj_edu.classroom.views.marks import mistake_name
from dekbovinoj_edu.cli import main
from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.serving.class_process import ClassService, start_class_service
from dekbovinoj_edu.site.pages import CLASS_PAGE

pytestmark = pytest.mark.network  # the site's build takes Pyodide from npm and wheels from PyPI

NO_TEN = Puzzle.parse("A♣ | 2♣", level=1)
PETERS_ANSWER = "13*2+3-9-3-7"
ANSWERS = {"Ana": (PETERS_ANSWER, "ok"), "Bo": ("13 + 9", "colour"), "Cy": ("13 +", "syntax")}
SITE_FIRST_LOAD_MS = 240_000
"""How long the class page may take to show the app: Pyodide and its packages, a busy machine."""
STEP_MS = 60_000
"""How long one step may take (a request from the browser's Python included)."""
RESUME_SECONDS = 10.0
"""How long a reloaded page may take, once its app is on the screen, to be back at the
student's place (the page's storage is read every 250 ms; one request to the service)."""


def make_class(db: Path) -> None:
    codes = f"{PETER.code},{NO_TEN.code}"
    with contextlib.redirect_stdout(io.StringIO()):
        assert (
            main(["class", "new", "4a", "--codes", codes, "--mode", "test", "--db", str(db)]) == 0
        )


def stored(db: Path) -> list[tuple[str, int, str, str]]:
    store = open_store(db)
    try:
        return [(a.nickname, a.puzzle, a.answer, a.verdict) for a in store.attempts("4a")]
    finally:
        store.close()


@pytest.fixture
def served(site: Path, tmp_path: Path, artifacts: Path) -> Iterator[tuple[ClassService, Path]]:
    """Class 4a (a test of two puzzles) and the site, both from one class service."""
    db = tmp_path / "classes.sqlite3"
    make_class(db)
    service = start_class_service("4a", db=str(db), site=site)
    try:
        yield service, db
    finally:
        service.stop()
        (artifacts / "class-service.log").write_text("\n".join(service.lines) + "\n", "utf-8")


def student_page(browser: Any, service: ClassService, console: list[str]) -> Any:
    """A student's own browser (its own local storage), on the address the teacher gives."""
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    page = context.new_page()
    page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
    page.goto(service.url + "/")
    return page


def answer(page: Any, typed: str) -> None:
    page.locator(".dkb-expression input").fill(typed)
    page.locator(".dkb-expression input").press("Enter")


def reload_resumes_at_once(page: Any) -> float:
    """Reload ``page``; the seconds from its app being on the screen to the student's place
    (no nickname typed)."""
    from playwright.sync_api import expect

    page.reload()
    expect(page.locator(".dkb-class-app")).to_be_visible(timeout=SITE_FIRST_LOAD_MS)
    shown = time.monotonic()
    expect(page.locator(".dkb-rejoin")).to_contain_text("rejoin code", timeout=STEP_MS)
    return time.monotonic() - shown


def test_three_students_on_the_static_site_and_the_dashboard_shows_exactly_their_rows(
    browser: Any, served: tuple[ClassService, Path], artifacts: Path
) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=STEP_MS)
    service, db = served
    console: list[str] = []
    pages = {nickname: student_page(browser, service, console) for nickname in ANSWERS}
    try:
        for nickname, page in pages.items():
            expect(page.locator(".dkb-nickname input")).to_be_visible(timeout=SITE_FIRST_LOAD_MS)
            assert page.url.endswith(f"{CLASS_PAGE}?class=4a")  # the service sent them there
            expect(page.locator(".dkb-class-app")).to_contain_text("Class 4a")
            if nickname == "Bo":  # Ana's nickname is hers: only her rejoin code opens it
                page.locator(".dkb-nickname input").fill("ANA")
                page.locator(".dkb-join").click()
                expect(page.locator(".dkb-join-message")).to_contain_text("rejoin code")
            page.locator(".dkb-nickname input").fill(nickname)
            page.locator(".dkb-join").click()
            expect(page.locator(".dkb-counter")).to_have_text("Puzzle 1 of 2")
            expect(page.locator(".dkb-pasture .dkb-card")).to_have_text(["9♦", "3♥", "7♥"])
            expect(page.locator(".dkb-hint")).to_be_disabled()  # a test: no help before the end
            answer(page, ANSWERS[nickname][0])
        expect(pages["Ana"].locator(".dkb-feedback")).to_contain_text("Dek bovinoj! 6 cards")
        colour = check(PETER, ANSWERS["Bo"][0]).message.splitlines()[0]
        expect(pages["Bo"].locator(".dkb-feedback")).to_contain_text(colour)
        expect(pages["Cy"].locator(".dkb-feedback")).to_contain_text("does not count")
        for nickname, page in pages.items():
            expect(page.locator(".dkb-feedback")).not_to_contain_text("waits here")
            page.screenshot(path=str(artifacts / f"class-site-{nickname}.png"), full_page=True)
        expected = [(nick, 1, typed, verdict) for nick, (typed, verdict) in ANSWERS.items()]
        assert sorted(stored(db)) == sorted(expected)

        teacher = browser.new_page(viewport={"width": 1000, "height": 900})
        teacher.goto(service.teacher)
        board = teacher.locator(".dkb-board")
        expect(board).to_contain_text("3 students · 3 attempts")
        rows = board.locator("tbody tr")
        expect(rows).to_have_count(3)
        cells = {name: rows.filter(has_text=name).locator(".dkb-cell").first for name in ANSWERS}
        expect(cells["Ana"]).to_contain_text("✓ 6/6")
        expect(cells["Bo"]).to_contain_text(f"✗ {mistake_name('colour')}")
        expect(cells["Cy"]).to_contain_text(f"· {mistake_name('syntax')}")
        teacher.screenshot(path=str(artifacts / "class-site-dashboard.png"), full_page=True)

        # Ana reloads her page: she is back at her place at once, without typing anything.
        ana = pages["Ana"]
        assert reload_resumes_at_once(ana) < RESUME_SECONDS
        expect(ana.locator(".dkb-counter")).to_have_text("Puzzle 2 of 2")  # where she is
        ana.locator(".dkb-mu").click()
        expect(board).to_contain_text("3 students · 4 attempts")
        expect(rows.filter(has_text="Ana").locator(".dkb-cell").nth(1)).to_contain_text(
            "✓ right mu"
        )
        assert sorted(stored(db)) == sorted([*expected, ("Ana", 2, MU_TYPED, "mu-right")])
        teacher.close()
    finally:
        for page in pages.values():
            page.context.close()
        (artifacts / "class-site.console.log").write_text("\n".join(console) + "\n", "utf-8")


def test_a_service_restarted_in_the_middle_of_a_students_work_loses_nothing(
    browser: Any, served: tuple[ClassService, Path], site: Path, artifacts: Path
) -> None:
    from playwright.sync_api import expect

    expect.set_options(timeout=STEP_MS)
    service, db = served
    console: list[str] = []
    page = student_page(browser, service, console)
    try:
        expect(page.locator(".dkb-nickname input")).to_be_visible(timeout=SITE_FIRST_LOAD_MS)
        page.locator(".dkb-nickname input").fill("Dag")
        page.locator(".dkb-join").click()
        expect(page.locator(".dkb-counter")).to_have_text("Puzzle 1 of 2")
        answer(page, "13 + 9")
        colour = check(PETER, "13 + 9").message.splitlines()[0]
        expect(page.locator(".dkb-feedback")).to_contain_text(colour)
        service.kill()  # kill -9, in the middle of the lesson
        answer(page, "13 +")
        expect(page.locator(".dkb-feedback")).to_contain_text("waits here")
        answer(page, PETERS_ANSWER)
        expect(page.locator(".dkb-feedback")).to_contain_text("Dek bovinoj! 6 cards")
        expect(page.locator(".dkb-feedback")).to_contain_text("waits here")
        page.locator(".dkb-next").click()
        expect(page.locator(".dkb-counter")).to_have_text("Puzzle 2 of 2")
        page.locator(".dkb-mu").click()
        expect(page.locator(".dkb-waiting")).to_have_text("Answers waiting to be sent: 3")
        page.screenshot(path=str(artifacts / "class-site-offline.png"), full_page=True)
        assert stored(db) == [("Dag", 1, "13 + 9", "colour")]
        again = start_class_service("4a", db=str(db), site=site, port=service.port)
        try:
            # The page's next sign of life sends what waited, oldest first.
            expect(page.locator(".dkb-waiting")).to_have_text("", timeout=STEP_MS)
            assert stored(db) == [
                ("Dag", 1, "13 + 9", "colour"),
                ("Dag", 1, "13 +", "syntax"),
                ("Dag", 1, PETERS_ANSWER, "ok"),
                ("Dag", 2, MU_TYPED, "mu-right"),
            ]
            page.locator(".dkb-next").click()
            expect(page.locator(".dkb-summary")).to_contain_text("Solved 2 of 2")
            assert len(stored(db)) == 4  # once each, after the summary asked again
        finally:
            again.stop()
    finally:
        page.context.close()
        (artifacts / "class-site-restart.console.log").write_text("\n".join(console) + "\n")


def test_the_site_on_another_server_reaches_a_class_service_that_allows_it_by_name(
    browser: Any, site: Path, tmp_path: Path, artifacts: Path
) -> None:
    """A school's web space serves the site, which lists the class service elsewhere
    (``build-site --class-server``, or the administrator's edit of ``class-servers.json``); the
    service allows the site's origin (CORS, ``--allow-origin``), and the class page names the
    service (``?server=``)."""
    from playwright.sync_api import expect

    expect.set_options(timeout=STEP_MS)
    db = tmp_path / "classes.sqlite3"
    make_class(db)
    console: list[str] = []
    schools = shutil.copytree(site, tmp_path / "site")
    with serve_site(schools) as web_space:
        origin = web_space.url.rstrip("/")
        service = start_class_service("4a", db=str(db), allow_origins=[origin])
        (schools / CLASS_SERVERS).write_text(json.dumps([service.url + "/"]), "utf-8")
        try:
            context = browser.new_context(viewport={"width": 1000, "height": 900})
            page = context.new_page()
            page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
            address = (
                f"{CLASS_PAGE}?{urllib.parse.urlencode({'class': '4a', 'server': service.url})}"
            )
            page.goto(web_space.url + address)
            expect(page.locator(".dkb-nickname input")).to_be_visible(timeout=SITE_FIRST_LOAD_MS)
            page.locator(".dkb-nickname input").fill("Eli")
            page.locator(".dkb-join").click()
            expect(page.locator(".dkb-counter")).to_have_text("Puzzle 1 of 2")
            answer(page, PETERS_ANSWER)
            expect(page.locator(".dkb-feedback")).to_contain_text("Dek bovinoj! 6 cards")
            expect(page.locator(".dkb-feedback")).not_to_contain_text("waits here")
            assert stored(db) == [("Eli", 1, PETERS_ANSWER, "ok")]
            context.close()
        finally:
            service.stop()
    (artifacts / "class-site-elsewhere.console.log").write_text("\n".join(console) + "\n")


def test_a_link_to_a_service_the_site_does_not_list_sends_nothing_there(
    browser: Any, site: Path, tmp_path: Path, artifacts: Path
) -> None:
    """Before: a changed link (``?server=`` a classmate's laptop) sent the student's nickname,
    rejoin code, token and answers there, and the page looked like a normal class. Now the page
    says so in one sentence, and the classmate's computer gets no request at all."""
    from playwright.sync_api import expect

    expect.set_options(timeout=STEP_MS)
    assert json.loads((site / CLASS_SERVERS).read_text("utf-8")) == []  # build-site's default
    db = tmp_path / "classes.sqlite3"
    make_class(db)
    console: list[str] = []
    requested: list[str] = []
    schools = shutil.copytree(site, tmp_path / "site")
    with recording_server() as classmate, serve_site(schools) as web_space:
        origin = web_space.url.rstrip("/")
        # the site lists the class's real service, and only it
        service = start_class_service("4a", db=str(db), allow_origins=[origin])
        (schools / CLASS_SERVERS).write_text(json.dumps([service.url]), "utf-8")
        try:
            context = browser.new_context(viewport={"width": 1000, "height": 900})
            page = context.new_page()
            page.on("console", lambda message: console.append(f"{message.type}: {message.text}"))
            page.on("request", lambda request: requested.append(request.url))
            query = urllib.parse.urlencode({"class": "4a", "server": classmate.url})
            page.goto(f"{web_space.url}{CLASS_PAGE}?{query}")
            sentence = page.locator(".dkb-class-app .dkb-no-class")
            expect(sentence).to_have_text(
                f"This link sends your work to another computer ({classmate.url}), which this "
                "site does not know. Ask your teacher for the class's link.",
                timeout=SITE_FIRST_LOAD_MS,
            )
            expect(page.locator(".dkb-nickname input")).to_have_count(0)  # nothing to type
            page.wait_for_timeout(5_000)  # a few of the page's signs of life
            page.screenshot(path=str(artifacts / "class-site-refused.png"), full_page=True)
            assert classmate.requests == []
            assert not [url for url in requested if url.startswith(classmate.url)]
            assert f"{origin}/{CLASS_SERVERS}" in requested  # the page read the site's list
            assert stored(db) == []  # and sent nothing to the real class either
            context.close()
        finally:
            service.stop()
    (artifacts / "class-site-refused.console.log").write_text("\n".join(console) + "\n")
