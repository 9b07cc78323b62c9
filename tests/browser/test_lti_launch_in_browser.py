"""A school's LMS opens the class service inside its own page, in Chromium with third-party
cookies blocked (the profile's own setting, as a school's Chromebook or Safari has it): the
stand-in LMS on ``localhost`` frames the tool on ``127.0.0.1``, another site.

The whole launch runs in the frame without a cookie (the login's state is in the class
database); the frame cannot even read its local storage (checked: third-party storage is
blocked). The teacher's button opens the class's dashboard in a tab of its own, signed in; the
student's button opens the static site's class page, which takes up the seat the launch made
under the student's LMS name: no nickname typed, no code kept. Every wait is bounded.
"""

from __future__ import annotations

import os
import re
import time
import urllib.parse
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import pytest
from support.class_service import running_service
from support.lms_stand_in import CLIENT_ID, DEPLOYMENT, Lms, school_lms
from support.puzzles import PETER
from support.webkit import missing, webkit

from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.store import open_store
from dekbovinoj_edu.cli.class_form import make_from_form
from dekbovinoj_edu.lti import Registration
from dekbovinoj_edu.lti.courses import CourseStore
from dekbovinoj_edu.lti.store import LtiStore

pytestmark = [pytest.mark.browser, pytest.mark.network]  # the site's build takes Pyodide

SITE_FIRST_LOAD_MS = 240_000
STEP_MS = 60_000
FRAME_PROBE = (
    "() => { try { window.localStorage.length; return 'open'; } catch (e) { return 'blocked'; } }"
)


@pytest.fixture
def lms() -> Iterator[Lms]:
    with school_lms() as platform:
        yield platform


def framed_launch(context: Any, lms: Lms, tool: str, email: str) -> tuple[Any, Any]:
    """An LMS page framing the launch of ``email``: the page and the tool's frame."""
    from playwright.sync_api import expect

    start = urllib.parse.urlencode(lms.login_start(email, f"{tool}/lti/launch"))
    page = context.new_page()
    page.goto(f"{lms.url}/jwks")  # a page of the LMS's site to hold the frame
    frame = f"<iframe name='tool' src='{tool}/lti/login?{start}' width='900' height='700'>"
    page.set_content(frame + "</iframe>")
    expect(page.frame_locator("iframe[name=tool]").locator("button")).to_be_visible(timeout=STEP_MS)
    tool_frame = next(f for f in page.frames if f.url.startswith(tool))
    return page, tool_frame


def test_a_launch_inside_the_lms_page_without_cookies_opens_the_class(
    third_party_blocked: Any, site: Path, tmp_path: Path, lms: Lms, artifacts: Path
) -> None:
    from playwright.sync_api import expect

    store = open_store(tmp_path / "classes.sqlite3")
    store.add_class(codes_assignment("4a", PETER.code))
    registration = Registration(
        lms.issuer, CLIENT_ID, (DEPLOYMENT,), f"{lms.url}/authorize",
        f"{lms.url}/token", f"{lms.url}/jwks",
    )  # fmt: skip
    LtiStore(store.database).register(registration, datetime.now(timezone.utc))
    with running_service(store, "4a", site=site, class_maker=make_from_form) as (server, _):
        tool = server.url.rstrip("/")
        page, frame = framed_launch(third_party_blocked, lms, tool, "tess@skolo.example")
        assert frame.evaluate(FRAME_PROBE) == "blocked"  # third-party storage is blocked
        (link,) = CourseStore(store.database).links()
        with third_party_blocked.expect_page(timeout=STEP_MS) as opened:
            page.frame_locator("iframe[name=tool]").locator("button").click()
        dashboard = opened.value
        expected = f"{tool}/teacher/classes/{urllib.parse.quote(link.class_name, safe='')}/"
        expect(dashboard).to_have_url(re.compile(re.escape(expected)), timeout=STEP_MS)
        expect(dashboard.locator(".dkb-board")).to_be_visible(timeout=STEP_MS)
        dashboard.screenshot(path=str(artifacts / "lti-teacher-dashboard.png"))

        page, frame = framed_launch(third_party_blocked, lms, tool, "ana@skolo.example")
        assert frame.evaluate(FRAME_PROBE) == "blocked"
        with third_party_blocked.expect_page(timeout=STEP_MS) as opened:
            page.frame_locator("iframe[name=tool]").locator("button").click()
        game = opened.value
        expect(game.locator(".dkb-counter")).to_have_text(
            f"Puzzle 1 of {next(a for a in store.classes() if a.name == link.class_name).size}",
            timeout=SITE_FIRST_LOAD_MS,
        )
        expect(game.locator(".dkb-nickname input")).to_have_count(0)
        # the LMS says who the student is: no rejoin code to keep, no "I am not Ana"
        expect(game.locator(".dkb-rejoin")).to_have_text("")
        expect(game.get_by_text("I am not")).to_have_count(0)
        game.screenshot(path=str(artifacts / "lti-student-game.png"))
        (seat,) = store.seats(link.class_name)
        assert seat.nickname == "Ana" and seat.session  # the page holds the launch's seat
        expect(dashboard.locator(".dkb-board")).to_contain_text("Ana", timeout=STEP_MS)
    store.close()


def test_a_launch_inside_the_lms_page_in_webkit(
    site: Path, tmp_path: Path, lms: Lms, artifacts: Path
) -> None:
    """The same in WebKit (Safari's engine: third-party cookies always blocked): the teacher's
    button opens the dashboard in a window of its own, the student's the class page."""
    reason = missing()
    if reason is not None and os.environ.get("DEKBOVINOJ_REQUIRE_WEBKIT"):
        pytest.fail(reason)  # CI installs it: a missing WebKit there is a failure
    if reason is not None:
        pytest.skip(reason)
    store = open_store(tmp_path / "classes.sqlite3")
    store.add_class(codes_assignment("4a", PETER.code))
    registration = Registration(
        lms.issuer, CLIENT_ID, (DEPLOYMENT,), f"{lms.url}/authorize",
        f"{lms.url}/token", f"{lms.url}/jwks",
    )  # fmt: skip
    LtiStore(store.database).register(registration, datetime.now(timezone.utc))
    with (
        running_service(store, "4a", site=site, class_maker=make_from_form) as (server, _),
        webkit(artifacts / "webkit-lti.log") as window,
    ):
        tool = server.url.rstrip("/")
        window.size(1000, 900)
        for email, shows, seconds in (
            ("tess@skolo.example", ".dkb-board", STEP_MS / 1000),
            ("ana@skolo.example", ".dkb-counter", SITE_FIRST_LOAD_MS / 1000),
        ):
            start = urllib.parse.urlencode(lms.login_start(email, f"{tool}/lti/launch"))
            window.switch_to(window.windows()[0])
            window.framed(f"{lms.url}/jwks", f"{tool}/lti/login?{start}", 900, 700)
            before = set(window.windows())
            window.click(window.wait("button", STEP_MS / 1000))
            deadline = time.monotonic() + STEP_MS / 1000
            while set(window.windows()) == before and time.monotonic() < deadline:
                time.sleep(0.25)
            (opened,) = set(window.windows()) - before
            window.switch_to(opened)
            window.wait(shows, seconds)
        (seat,) = store.seats(CourseStore(store.database).links()[0].class_name)
        assert seat.nickname == "Ana" and seat.session
    store.close()
