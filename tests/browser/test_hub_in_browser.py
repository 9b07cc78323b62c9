"""A whole school on a real JupyterHub, in Chromium (tests/support/hub.py: JupyterHub from
PyPI, its proxy from npm, users' servers on this machine, the class service as a managed
service with its classes in PostgreSQL).

A teacher and three students log in with the hub's own login page. Each student opens the
class link: the hub starts their server, Voilà shows the class screens, which say who they
are and ask for no nickname; they answer. The teacher's dashboard at
``/services/dekbovinoj/`` shows exactly those attempts under the students' hub names; a
student's browser gets the 403 page there. Everything listens on 127.0.0.1, and every
process has stopped at the end. A student who closes the app's tab gives its kernel back at
once: the page's shutdown call passes the user's server's XSRF check, on the hub and on
Binder's Voilà route (Jupyter Server with ``binder/``'s configuration and the same extension).
"""

from __future__ import annotations

import csv
import io
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
from support.hub import PASSWORD, RunningHub, left_running, running_hub
from support.postgres import PostgresServer
from support.puzzles import PETER
from support.servers import binder_serving

from dekbovinoj_edu.classroom.store.classes import new_class
from dekbovinoj_edu.hub.user_server import prepare

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

ANSWERS = {"ana": "13*2+3-9-3-7", "bo": "13-3", "cyd": "3+7"}
"""What each student types at puzzle 1 (the best answer; a right one with fewer cards; a
wrong one: + before a red 7)."""
SPAWN_MS = 180_000
"""How long a student may wait for their server and the app (a busy two-core machine)."""
STEP_MS = 30_000
GIVEN_BACK_SECONDS = 15
"""How long a closed tab's kernel may still run (the culler would take 75 s and more)."""


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
    # The dashboard's own requests carry the hub's XSRF token: a seat action goes through.
    teacher.once("dialog", lambda dialog: dialog.accept())
    teacher.locator("[data-action='reset'][data-nickname='cyd']").click()
    expect(teacher.locator(".dkb-status")).to_contain_text("cyd", timeout=STEP_MS)
    report = teacher.request.get(f"{hub.service_url}classes/4a/report.csv")
    rows = [row["nickname"] for row in csv.DictReader(io.StringIO(report.text()))]
    assert sorted(rows) == ["ana", "bo"]

    student = pages["ana"]
    answer = student.goto(hub.service_url)
    assert answer is not None and answer.status == 403
    expect(student.locator("h1")).to_have_text("Only for teachers")
    expect(student.locator("body")).to_contain_text("You are signed in as ana.")

    addresses = hub.listening()
    assert addresses and all(a.startswith("127.0.0.1:") for a in addresses), addresses
    for page in [*pages.values(), teacher]:
        page.context.close()


APP = "/hub/user-redirect/voila/render/dekbovinoj/dekbovinoj.ipynb"


def _open_app_and_close_it(context: Any, hub: RunningHub, user: str) -> str | None:
    """Open the app in a new tab of ``context``, close the tab; the kernel's id if it still
    runs :data:`GIVEN_BACK_SECONDS` later, else None."""
    from playwright.sync_api import expect

    page = context.new_page()
    page.goto(hub.url + APP)
    expect(page.locator(".dkb-practice .dkb-submit")).to_be_visible(timeout=SPAWN_MS)
    kernel = json.loads(page.locator("#jupyter-config-data").first.text_content() or "{}")
    address = f"{hub.url}/user/{user}/api/kernels/{kernel['kernelId']}"
    token = hub.token_for(user, scopes=[f"access:servers!user={user}"])
    headers = {"Authorization": f"token {token}"}
    assert requests.get(address, headers=headers, timeout=60).status_code == 200
    page.close()  # the tab closed as a student closes it
    deadline = time.monotonic() + GIVEN_BACK_SECONDS
    while time.monotonic() < deadline:
        if requests.get(address, headers=headers, timeout=60).status_code == 404:
            return None
        time.sleep(0.5)
    return str(kernel["kernelId"])


def test_a_closed_tab_gives_its_kernel_back_at_once(browser: Any, hub: RunningHub) -> None:
    """The page's shutdown call (a beacon with the ``_xsrf`` cookie) passes the user's server's
    XSRF check, on the day the student signs in to their server and on the next: the browser,
    closed in between, kept the server's sign-in cookie (it lasts for days) but not its
    ``_xsrf`` cookie (it lasts until the browser closes), which the server sets again only on
    the app's page."""
    first = log_in(browser, hub, "bo", APP)
    context = first.context
    first.close()
    assert _open_app_and_close_it(context, hub, "bo") is None, "its kernel still runs"
    kept = [cookie for cookie in context.cookies() if cookie["expires"] != -1]
    assert any(cookie["name"].startswith("jupyterhub-user-bo") for cookie in kept)
    context.clear_cookies()
    context.add_cookies(kept)  # the next lesson: the browser was closed and opened again
    left = _open_app_and_close_it(context, hub, "bo")
    assert left is None, f"the closed tab's kernel {left} still runs {GIVEN_BACK_SECONDS} s on"
    context.close()


ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def binder_route(tmp_path: Path, artifacts: Path) -> Iterator[str]:
    """Jupyter Server with Binder's configuration, the app's notebooks and templates (written
    as a hub user's server writes them), no token, on a free port."""
    prepare(tmp_path, tmp_path / "data")
    with binder_serving(tmp_path, artifacts / "binder-route-hub-test.log", cwd=tmp_path) as address:
        yield address


def _answers(address: str) -> bool:
    try:
        return requests.get(address, timeout=5).status_code == 200
    except requests.RequestException:
        return False


def test_a_closed_tab_gives_its_kernel_back_on_binders_route(
    browser: Any, binder_route: str
) -> None:
    from playwright.sync_api import expect

    page = browser.new_page()
    page.goto(f"{binder_route}/voila/render/dekbovinoj/dekbovinoj.ipynb")
    expect(page.locator(".dkb-practice .dkb-submit")).to_be_visible(timeout=SPAWN_MS)
    kernel = json.loads(page.locator("#jupyter-config-data").first.text_content() or "{}")
    address = f"{binder_route}/api/kernels/{kernel['kernelId']}"
    assert requests.get(address, timeout=60).status_code == 200
    page.close()
    deadline = time.monotonic() + GIVEN_BACK_SECONDS
    while requests.get(address, timeout=60).status_code != 404:
        assert time.monotonic() < deadline, f"the kernel still runs {GIVEN_BACK_SECONDS} s on"
        time.sleep(0.5)
