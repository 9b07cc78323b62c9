"""The school's LMS opens the hub in Chromium: a launch as a browser makes it, across sites
(the stand-in LMS on ``localhost``, the hub on ``127.0.0.1``), the hub's own
jupyterhub-ltiauthenticator with the fragment ``hub config --lti-…`` prints.

Opened in a tab of its own (the LMS's "new window" placement), the launch signs the student
in: the LMS's page posts the launch across sites to the hub, which still has its state cookie
for it, and the student lands on the hub as their e-mail address, in their course's group.
Inside the LMS's page (an iframe) the hub's cookies are a third party's: docs/hub.md says to
place the hub in a new window, and this test shows why.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest
from support.hub import RunningHub
from support.lms_stand_in import MATH, Lms, hub_groups, lti_hub, school_lms
from support.postgres import PostgresServer

from dekbovinoj_edu.hub.lti import course_group

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

STEP_MS = 30_000


@pytest.fixture(scope="module")
def lms() -> Iterator[Lms]:
    with school_lms() as platform:
        yield platform


@pytest.fixture(scope="module")
def hub(postgres: PostgresServer, lms: Lms) -> Iterator[RunningHub]:
    with lti_hub(postgres, lms) as running:
        yield running


def login_address(hub: RunningHub, lms: Lms, email: str, target: str) -> str:
    """Where the LMS sends a browser to start a launch (OIDC third-party-initiated login)."""
    start = urllib.parse.urlencode(lms.login_start(email, target))
    return f"{hub.url}/hub/lti13/oauth_login?{start}"


def test_a_launch_in_a_tab_of_its_own_signs_the_student_in(
    browser: Any, hub: RunningHub, lms: Lms
) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(viewport={"width": 1000, "height": 900})
    try:
        page = context.new_page()
        posts: list[str] = []
        page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
        page.goto(login_address(hub, lms, "ana@skolo.example", f"{hub.url}/hub/home"))
        expect(page).to_have_url(f"{hub.url}/hub/home", timeout=STEP_MS)
        expect(page.locator("body")).to_contain_text("ana@skolo.example", timeout=STEP_MS)
        assert posts == [f"{hub.url}/hub/lti13/oauth_callback"]  # the LMS's page posted it
        assert hub_groups(hub, "ana@skolo.example") == [course_group(lms.issuer, MATH)]
    finally:
        context.close()


def test_inside_the_lms_page_the_hubs_cookies_are_a_third_partys(
    browser: Any, hub: RunningHub, lms: Lms
) -> None:
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    try:
        page = context.new_page()
        answers: list[int] = []
        page.on(
            "response",
            lambda r: answers.append(r.status) if r.url.endswith("/oauth_callback") else None,
        )
        frame = login_address(hub, lms, "tess@skolo.example", f"{hub.url}/hub/home")
        page.goto(f"{lms.url}/jwks")  # a page of the LMS's site to hold the frame
        page.set_content(f"<iframe src='{frame}' width='900' height='700'></iframe>")
        deadline = 60
        while not answers and deadline:
            page.wait_for_timeout(500)
            deadline -= 1
        assert answers == [400]
        assert "OAuth state missing from cookies" in hub.tail(200)  # the frame's state cookie
        assert hub_groups(hub, "tess@skolo.example") is None  # no user: hence a new window
    finally:
        context.close()
