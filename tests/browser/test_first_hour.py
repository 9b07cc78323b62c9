"""The first hour of a teacher and an 8-year-old, as one story, the way issue 28 walked it:

1. the teacher serves the app on a port something else already has: the address ``serve``
   prints is the one that answers;
2. the child taps the card pictures (not only the buttons' names) and is told dek bovinoj;
3. the child switches the language: the feedback stays on screen, told in the new language;
4. the teacher runs a class: the child joins with a nickname and answers, the teacher's
   dashboard shows her, and the CSV downloaded from it reads back (a byte-order mark, the
   verdict in words);
5. the teacher prints a worksheet (``dekbovinoj sheet``, then Chromium's PDF): four puzzles
   or more on the first page, the key on a page of its own.

The child's story runs on a computer's screen, on a school tablet (768×1024) and on a phone
(390×844), the last two with touch: there every tap is a finger's, and every screen the child
sees has targets a finger hits (:func:`support.touch.finger_faults`). The teacher prints the
worksheet once, in the computer's story.

Every wait is bounded (a loaded 2-core machine: the first kernel may take a minute or two).
"""

from __future__ import annotations

import contextlib
import csv
import io
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.puzzles import PETER
from support.serve_command import hosts_outside, record_requests, serve_command
from support.servers import free_port, wait_until_up
from support.shown import expect_shown, open_code
from support.touch import PHONE, TABLET, finger_faults, touch_context

from dekbovinoj_edu.cli import main
from dekbovinoj_edu.sessions.practice import PracticeSession

from .conftest import FIRST_LOAD_MS, STEP_MS, _need_chromium

pytestmark = pytest.mark.slow  # two real servers and a printed PDF

HOST = "127.0.0.1"
PETERS_TAPS = ["K♣", "×", "2♣", "+", "3♠", "−", "9♦", "−", "3♥", "−", "7♥"]
OPS = {"+", "−", "×", "÷", "(", ")"}
READY_SECONDS = 240
DEVICES: dict[str, dict[str, int] | None] = {"computer": None, "tablet": TABLET, "phone": PHONE}
"""The child's screens: a computer's (a mouse, 1100×1000), a tablet's and a phone's (touch)."""


@contextlib.contextmanager
def taken_port() -> Iterator[int]:
    """A port another program listens on while the block lasts."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as other:
        other.bind((HOST, 0))
        other.listen()
        yield int(other.getsockname()[1])


def said(text: str, lang: str) -> str:
    """What the app answers ``text`` on Peter's puzzle in ``lang``: the first line of the
    same model's message."""
    session = PracticeSession(puzzle=PETER, lang=lang)
    session.type(text)
    return session.submit().message.splitlines()[0]


def child_page(browser: Any, device: str) -> Any:
    """A new page on the child's ``device`` (one of :data:`DEVICES`)."""
    viewport = DEVICES[device]
    if viewport is None:
        return browser.new_page(viewport={"width": 1100, "height": 1000})
    return touch_context(browser, viewport).new_page()


def press(found: Any, touch: bool) -> None:
    """Press what the locator ``found`` finds: a finger's tap on a touch screen, else a
    click."""
    if touch:
        found.tap()
    else:
        found.click()


def tap_picture(page: Any, card: str, touch: bool = False) -> None:
    """Tap the middle of the card's drawing (the picture, not the name under it): with a
    finger on a touch screen, else with the mouse."""
    from playwright.sync_api import expect

    name = page.get_by_role("button", name=card, exact=True)
    picture = page.locator(".dkb-practice .dkb-card-box").filter(has=name).locator("svg")
    deadline = time.monotonic() + STEP_MS / 1000
    expect(picture).to_be_visible()
    picture.scroll_into_view_if_needed()  # a phone's screen shows a few cards at a time
    area = picture.bounding_box()
    while area is None or not area["width"]:  # redrawn just now (the puzzle was just shown)
        assert time.monotonic() < deadline, f"{card}'s picture is not on the screen"
        page.wait_for_timeout(100)
        area = picture.bounding_box()
    x, y = area["x"] + area["width"] / 2, area["y"] + area["height"] / 3
    if touch:
        page.touchscreen.tap(x, y)
    else:
        page.mouse.click(x, y)
    expect(name).to_be_disabled()  # the card is used: the tap reached its button


@pytest.mark.parametrize("device", DEVICES)
def test_the_first_hour(browser: object, tmp_path: Path, artifacts: Path, device: str) -> None:
    from playwright.sync_api import Browser, expect

    _need_chromium()
    assert isinstance(browser, Browser)
    expect.set_options(timeout=STEP_MS)
    shots = artifacts / "first-hour" / device
    shots.mkdir(parents=True, exist_ok=True)
    touch = DEVICES[device] is not None
    fingers: dict[str, list[str]] = {}
    """What a finger meets wrong on each of the child's screens (on a touch screen)."""

    def look(page: Any, screen: str) -> None:
        page.screenshot(path=str(shots / f"{screen}.png"), full_page=True)
        if touch:
            fingers[screen] = finger_faults(page)

    # 1. Serve on a taken port: the printed address answers.
    with taken_port() as port, serve_command(tmp_path, f"--host={HOST}", f"--port={port}") as app:
        address = app.address()
        assert f"Port {port} is in use" in app.out.text
        assert address != f"http://{HOST}:{port}/" and address.startswith(f"http://{HOST}:")
        served_port = int(address.rsplit(":", 1)[1].strip("/"))
        wait_until_up(served_port, timeout=120, process=app.process, host=HOST)  # type: ignore[arg-type]
        assert app.opened().startswith("file://")  # the teacher's browser got the app too
        app.out.until("ready: 1 student", READY_SECONDS)  # the teacher waits for it
        child = child_page(browser, device)
        try:
            asked = record_requests(child)
            child.goto(address)
            expect(child.locator(".dkb-practice .dkb-submit")).to_be_visible(timeout=FIRST_LOAD_MS)
            look(child, "0-first-screen")

            # 2. Tap the cards' pictures: Peter's turn.
            open_code(child, PETER.code)
            expect_shown(child, PETER)
            for step in PETERS_TAPS:
                if step in OPS:
                    press(child.locator(".dkb-op").filter(has_text=step), touch)
                else:
                    tap_picture(child, step, touch)
            expect(child.locator(".dkb-expression input")).to_have_value(" ".join(PETERS_TAPS))
            press(child.locator(".dkb-submit"), touch)
            typed = " ".join(PETERS_TAPS)
            expect(child.locator(".dkb-feedback")).to_contain_text(said(typed, "en"))
            look(child, "1-tapped")

            # 3. Switch the language: the feedback stays, in Esperanto.
            child.locator(".dkb-lang select").select_option(label="Esperanto")
            expect(child.locator(".dkb-feedback")).to_contain_text(said(typed, "eo"))
            look(child, "2-esperanto")
        finally:
            child.context.close()
        assert hosts_outside(asked) == [], asked
    shown = app.out.text + app.err.text
    assert "not trusted" not in shown and "without encryption" not in shown

    # 4. A class: the child joins and answers, the teacher downloads the CSV.
    db = tmp_path / "classes.sqlite3"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["class", "new", "4a", "--codes", PETER.code, "--db", str(db)]) == 0
    argv = ["--class", "4a", "--db", str(db), f"--host={HOST}", f"--port={free_port()}"]
    with serve_command(tmp_path, *argv, browser=False) as lesson:
        child = child_page(browser, device)
        teacher = browser.new_page(viewport={"width": 1000, "height": 900}, accept_downloads=True)
        try:
            address = lesson.address()
            lesson.out.until("ready: 1 student", READY_SECONDS)
            child.goto(address)
            nickname = child.locator(".dkb-nickname input")
            expect(nickname).to_be_visible(timeout=FIRST_LOAD_MS)
            look(child, "3-join")
            nickname.fill("Ana")
            press(child.locator(".dkb-join"), touch)
            expect(child.locator(".dkb-pasture .dkb-card")).to_have_text(["9♦", "3♥", "7♥"])
            child.locator(".dkb-expression input").fill("13 + 9")
            child.locator(".dkb-expression input").press("Enter")
            expect(child.locator(".dkb-feedback")).to_contain_text(said("13 + 9", "en"))
            look(child, "4-class-puzzle")
            teacher.goto(lesson.teacher())
            expect(teacher.locator(".dkb-board tbody tr")).to_have_count(1)
            expect(teacher.locator(".dkb-board")).to_contain_text("Ana")
            teacher.screenshot(path=str(shots / "5-dashboard.png"), full_page=True)
            with teacher.expect_download(timeout=STEP_MS) as downloading:
                teacher.locator(".dkb-csv").click()
            saved = tmp_path / downloading.value.suggested_filename
            downloading.value.save_as(saved)
        finally:
            child.context.close()
            teacher.close()
    raw = saved.read_bytes()
    assert raw.startswith(b"\xef\xbb\xbf")  # UTF-8's byte-order mark: Excel reads 9♦ right
    rows = list(csv.DictReader(io.StringIO(raw.decode("utf-8-sig"))))
    assert [(row["nickname"], row["answer"], row["verdict"]) for row in rows] == [
        ("Ana", "13 + 9", "colour")
    ]
    assert rows[0]["verdict_text"] and rows[0]["verdict_text"] != "colour"  # words, not a code
    assert fingers == {screen: [] for screen in fingers}
    assert len(fingers) == (5 if touch else 0)
    if device != "computer":
        return  # the teacher prints on the computer; the child's screens are above

    # 5. Print a worksheet for the next lesson.
    sheet = tmp_path / "sheet.html"
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        command = ["sheet", "--level", "1", "--count", "6", "--seed", "4a", "--no-jokers"]
        assert main([*command, "-o", str(sheet)]) == 0
    assert str(sheet) in printed.getvalue()  # sheet says what it wrote
    pages = pdf_pages(browser, sheet, shots / "sheet-A4.pdf")
    codes = sheet_codes(sheet)
    assert len(codes) == 6
    assert sum(code in pages[0] for code in codes) >= 4
    key = next(number for number, text in enumerate(pages) if "Answer key" in text)
    assert key >= 1 and pages[key].lstrip().startswith("Answer key")


def pdf_pages(browser: Any, sheet: Path, pdf: Path) -> list[str]:
    """The worksheet printed by Chromium on A4, the text of each page."""
    pypdf = pytest.importorskip("pypdf")
    page = browser.new_page()
    try:
        page.goto(sheet.as_uri())
        pdf.write_bytes(page.pdf(format="A4"))
    finally:
        page.close()
    return [sheet.extract_text() or "" for sheet in pypdf.PdfReader(str(pdf)).pages]


def sheet_codes(sheet: Path) -> list[str]:
    """The puzzle codes the worksheet prints (each in its puzzle and in the key)."""
    return sorted(set(re.findall(r'<span class="code">([^<]+)</span>', sheet.read_text("utf-8"))))
