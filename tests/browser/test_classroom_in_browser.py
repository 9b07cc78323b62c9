"""Class mode in a real browser through `dekbovinoj serve --class`: Voilà's student kernels talk
to the class service that `serve` started beside it (and never see the database). Three
students join a test, one answers right, one wrong, one with malformed input; the teacher's
dashboard (the address `serve` printed) and the CSV report show exactly those attempts. A
student's nickname is hers: a classmate is refused; her open page gives signs of life; her
reload takes her seat up again at once."""

from __future__ import annotations

import contextlib
import csv
import io
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.processes import ServerProcesses
from support.puzzles import PETER
from support.servers import free_port, stop, wait_until_up

from dekbovinoj_edu.checking.checker import check
from dekbovinoj_edu.classroom.session import HEARTBEAT_SECONDS
from dekbovinoj_edu.classroom.store import open_store
from dekbovinoj_edu.classroom.views.marks import mistake_name
from dekbovinoj_edu.cli import main
from dekbovinoj_edu.rules.puzzle import Puzzle

from .conftest import FIRST_LOAD_MS, STEP_MS, _need_chromium

NO_TEN = Puzzle.parse("A♣ | 2♣", level=1)
ANSWERS = {"Ana": ("13*2+3-9-3-7", "ok"), "Bo": ("13 + 9", "colour"), "Cy": ("13 +", "syntax")}
TEACHER_LINE = "Teacher's dashboard: "
KEPT_TEXT = (
    "Object.keys(localStorage).filter(k => k.startsWith('dekbovinoj-class:'))"
    ".map(k => localStorage.getItem(k)).join(' ')"
)
"""Everything class mode keeps in this page's local storage, as one text."""
AN_HOUR_AGO = """
for (const key of Object.keys(localStorage)) {
  if (!key.startsWith('dekbovinoj-class:')) continue;
  const kept = JSON.parse(localStorage.getItem(key));
  if (kept.saved) { kept.saved -= 3600; localStorage.setItem(key, JSON.stringify(kept)); }
}
"""
"""Set the time class mode's storage says it was written back by an hour (before the page's
own scripts run)."""
RESUME_SECONDS = 10.0
"""How long a reloaded page may take, once the app shows, to be back at the student's place."""


class Served:
    """`serve --class 4a`: its address, the teacher's address it printed, its database."""

    def __init__(self, process: subprocess.Popen[bytes], url: str, log: Path, db: Path) -> None:
        self.process = process
        self.url = url
        self.log = log
        self.db = db

    def text(self) -> str:
        return self.log.read_text("utf-8", errors="replace")

    def teacher(self) -> str:
        for line in self.text().splitlines():
            if line.startswith(TEACHER_LINE):
                return line.removeprefix(TEACHER_LINE).strip()
        raise AssertionError(self.text()[-3000:])


@pytest.fixture(scope="module")
def classroom(tmp_path_factory: pytest.TempPathFactory, artifacts: Path) -> Iterator[Served]:
    """Class 4a (a test of two puzzles) served on a free port."""
    _need_chromium()
    db = tmp_path_factory.mktemp("class") / "classes.sqlite3"
    codes = f"{PETER.code},{NO_TEN.code}"
    with contextlib.redirect_stdout(io.StringIO()):
        assert (
            main(["class", "new", "4a", "--codes", codes, "--mode", "test", "--db", str(db)]) == 0
        )
    port = free_port()
    command = [sys.executable, "-m", "dekbovinoj_edu.cli", "serve", "--class", "4a"]
    command += ["--db", str(db), "--port", str(port), "--no-browser", "--class-size", "3"]
    log = artifacts / "classroom-voila.log"
    with log.open("wb") as output:
        server = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
    try:
        wait_until_up(port, timeout=120, process=server)
        served = Served(server, f"http://localhost:{port}/", log, db)
        assert TEACHER_LINE in served.text()  # printed before Voilà started
        yield served
    finally:
        stop(server)


def test_three_students_answer_and_the_dashboard_and_csv_show_exactly_that(
    browser: object, classroom: Served, artifacts: Path
) -> None:
    from playwright.sync_api import Browser, expect

    assert isinstance(browser, Browser)
    expect.set_options(timeout=STEP_MS)
    contexts = {nickname: browser.new_context() for nickname in ANSWERS}  # three computers
    pages = {}
    for nickname, context in contexts.items():
        page = context.new_page()
        page.set_viewport_size({"width": 1000, "height": 900})
        page.goto(classroom.url)
        pages[nickname] = page
    for nickname, page in pages.items():
        expect(page.locator(".dkb-class-app")).to_contain_text("Class 4a", timeout=FIRST_LOAD_MS)
        expect(page.locator(".dkb-nickname")).to_contain_text("Nickname")
        expect(page.locator(".dkb-join")).to_have_text("Join")
        if nickname == "Bo":  # Ana's nickname is hers while her page is open, and after
            page.locator(".dkb-nickname input").fill("ana")
            page.locator(".dkb-join").click()
            expect(page.locator(".dkb-join-message")).to_contain_text("is taken")
        page.locator(".dkb-nickname input").fill(nickname)
        page.locator(".dkb-join").click()
        expect(page.locator(".dkb-counter")).to_have_text("Puzzle 1 of 2")
        expect(page.locator(".dkb-rejoin")).to_contain_text("Your rejoin code is")
        expect(page.locator(".dkb-pasture .dkb-card")).to_have_text(["9♦", "3♥", "7♥"])
        expect(page.locator(".dkb-hint")).to_be_disabled()  # a test: no help before the end
        expect(page.locator(".dkb-best")).to_be_disabled()
        typed, _ = ANSWERS[nickname]
        page.locator(".dkb-expression input").fill(typed)
        page.locator(".dkb-expression input").press("Enter")
    expect(pages["Ana"].locator(".dkb-feedback")).to_contain_text("Dek bovinoj! 6 cards")
    expect(pages["Ana"].locator(".dkb-next")).to_be_visible()
    colour = check(PETER, ANSWERS["Bo"][0]).message.splitlines()[0]
    expect(pages["Bo"].locator(".dkb-feedback")).to_contain_text(colour)
    expect(pages["Cy"].locator(".dkb-feedback")).to_contain_text("does not count")
    for nickname, page in pages.items():
        page.screenshot(path=str(artifacts / f"classroom-{nickname}.png"), full_page=True)

    # The kernels reach the class through the service: none of them knows the database.
    kernels = ServerProcesses.of(classroom.process.pid).kernels
    assert kernels
    for pid, _ in kernels:
        environment = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        names = {entry.split(b"=", 1)[0] for entry in environment}
        assert b"DEKBOVINOJ_DB" not in names and b"DEKBOVINOJ_CLASS_SERVER" in names
        assert str(classroom.db).encode() not in b"\0".join(environment)

    teacher = browser.new_page(viewport={"width": 1000, "height": 900})
    dashboard = classroom.teacher()
    teacher.goto(dashboard)
    board = teacher.locator(".dkb-board")
    expect(board).to_contain_text("3 students · 3 attempts")
    rows = board.locator("tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("Ana")
    expect(rows.nth(0).locator(".dkb-cell").first).to_contain_text("✓ 6/6")
    expect(rows.nth(1).locator(".dkb-cell").first).to_contain_text(f"✗ {mistake_name('colour')}")
    expect(rows.nth(2).locator(".dkb-cell").first).to_contain_text(f"· {mistake_name('syntax')}")
    shares = board.locator(".dkb-share").first  # of those who finished puzzle 1: Ana
    expect(shares).to_contain_text("1 of 1")
    expect(shares.locator(".dkb-extra")).to_have_text("2 still on it")  # Bo and Cy
    expect(board.locator(".dkb-common").first).to_contain_text(mistake_name("colour"))
    teacher.screenshot(path=str(artifacts / "classroom-dashboard.png"), full_page=True)

    teacher.locator(".dkb-projector").check()
    expect(board.locator(".dkb-student").first).to_have_text("Student 1")
    expect(board).not_to_contain_text("Ana")
    teacher.locator(".dkb-show-best").click()
    expect(teacher.locator(".dkb-best-answers")).to_contain_text("Puzzle 1: the best answers")
    teacher.screenshot(path=str(artifacts / "classroom-projector.png"), full_page=True)

    # The live table follows: Ana goes on and says mu on the second puzzle.
    pages["Ana"].locator(".dkb-next").click()
    expect(pages["Ana"].locator(".dkb-counter")).to_have_text("Puzzle 2 of 2")
    pages["Ana"].locator(".dkb-mu").click()
    expect(board).to_contain_text("3 students · 4 attempts")
    expect(rows.nth(0).locator(".dkb-cell").nth(1)).to_contain_text("✓ right mu")
    expect(pages["Ana"].locator(".dkb-next")).to_have_text("See my results")
    pages["Ana"].locator(".dkb-next").click()
    expect(pages["Ana"].locator(".dkb-summary")).to_contain_text("Solved 2 of 2")

    # Ana's open page gives signs of life: the browser ticks a heartbeat.
    store = open_store(classroom.db)
    try:
        joined = {seat.nickname: seat.last_seen for seat in store.seats("4a")}
        deadline = time.monotonic() + 3 * HEARTBEAT_SECONDS + 10
        while time.monotonic() < deadline:
            if store.seats("4a")[0].last_seen > joined["Ana"] + 1:
                break
            time.sleep(0.5)
        assert store.seats("4a")[0].last_seen > joined["Ana"] + 1
    finally:
        store.close()

    # Ana reloads: her page takes her seat up again at once (its storage has her rejoin
    # code), without her typing anything: she is back at her summary.
    ana = pages["Ana"]
    ana.reload()
    expect(ana.locator(".dkb-class-app")).to_be_visible(timeout=FIRST_LOAD_MS)
    shown = time.monotonic()
    expect(ana.locator(".dkb-summary")).to_contain_text("Solved 2 of 2")
    assert time.monotonic() - shown < RESUME_SECONDS
    assert ana.locator(".dkb-nickname input").count() == 0  # no join screen: nothing typed

    # Later, the next class sits down at Ana's computer: her page wrote her seat down long
    # ago (the storage's time set back an hour), so a new tab neither takes her seat up nor
    # shows her code, and the page's storage forgets the code.
    code = re.search(r"[0-9A-Z]{4}-[0-9A-Z]{4}", ana.locator(".dkb-rejoin").inner_text())
    assert code is not None
    ana.close()
    context = contexts["Ana"]
    context.add_init_script(AN_HOUR_AGO)
    later = context.new_page()
    later.goto(classroom.url)
    expect(later.locator(".dkb-nickname input")).to_be_visible(timeout=FIRST_LOAD_MS)
    expect(later.locator(".dkb-nickname input")).to_have_value("")
    expect(later.locator(".dkb-rejoin")).not_to_contain_text(code.group())
    later.wait_for_function(f"() => !{KEPT_TEXT} .includes({code.group()!r})", timeout=STEP_MS)

    response = teacher.request.get(dashboard + "report.csv")
    assert response.ok
    assert response.body().startswith(b"\xef\xbb\xbf")  # UTF-8's byte-order mark, for Excel
    from_page = list(csv.DictReader(io.StringIO(response.body().decode("utf-8-sig"))))
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["class", "report", "4a", "--csv", "--db", str(classroom.db)]) == 0
    from_cli = list(csv.DictReader(io.StringIO(printed.getvalue().removeprefix("\ufeff"))))
    assert from_page == from_cli
    expected = [(nick, typed, verdict, "1") for nick, (typed, verdict) in ANSWERS.items()]
    expected.append(("Ana", "mu!", "mu-right", "2"))
    found = sorted((r["nickname"], r["answer"], r["verdict"], r["puzzle"]) for r in from_cli)
    assert found == sorted(expected)
    assert {row["class"] for row in from_cli} == {"4a"}
    teacher.close()
    for context in contexts.values():
        context.close()
