"""The app, the class screens and the static site in WebKit, the engine of every iPad and of
Safari: Debian's WebKitGTK through WebDriver (:mod:`support.webkit`), in a tablet's window
(and the app in a phone's: a frame of a phone's size, as WebKitGTK opens no window that
narrow).

Each opens as a student would, opens a puzzle by its code and solves it; on the static site's
class page a student joins a class and the answer reaches the class database. On the way,
every screen the student sees has targets a finger hits and no text cut off or running off the
window (:mod:`support.touch`, measured as WebKit draws the page). The static site
runs its Python in Pyodide, which has had start-up regressions in WebKit: the site's pinned
version is the one these tests start.
"""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.puzzles import PETER
from support.servers import serve_site
from support.touch import PHONE, clipped, finger_faults
from support.webkit import ENTER, Session, missing, webkit

from dekbovinoj_edu.classroom.store import open_store
from dekbovinoj_edu.cli import main
from dekbovinoj_edu.serving.class_process import start_class_service
from dekbovinoj_edu.site.wheels import PYODIDE_VERSION

PETERS_ANSWER = "13*2+3-9-3-7"
TABLET = (768, 1024)
WINDOWS = {"tablet": TABLET, "phone": (PHONE["width"], PHONE["height"])}
APP_SECONDS = 120
"""How long the app may take to show itself (a cold kernel on a busy machine)."""
SITE_SECONDS = 300
"""How long the static site may take: Pyodide and its packages, on a busy machine."""
STEP_SECONDS = 60


@pytest.fixture
def window(artifacts: Path, request: pytest.FixtureRequest) -> Iterator[Session]:
    reason = missing()
    if reason is not None and os.environ.get("DEKBOVINOJ_REQUIRE_WEBKIT"):
        pytest.fail(reason)  # CI installs it: a missing WebKit there is a failure
    if reason is not None:
        pytest.skip(reason)
    with webkit(artifacts / f"webkit-{request.node.name}.log") as session:
        session.size(*TABLET)
        yield session


def solve_peters_puzzle(window: Session) -> None:
    """Open Peter's puzzle by its code (behind Settings) and answer it with all six cards."""
    window.click(window.wait(".dkb-practice .dkb-settings", STEP_SECONDS))
    window.type(window.wait(".dkb-code input", STEP_SECONDS), PETER.code)
    window.click(window.wait(".dkb-load", STEP_SECONDS))
    window.wait(".dkb-current-code", STEP_SECONDS, text=PETER.code)
    answer(window, PETERS_ANSWER)
    window.wait(".dkb-feedback", STEP_SECONDS, text="Dek bovinoj! 6 cards")


def answer(window: Session, typed: str) -> None:
    window.type(window.wait(".dkb-expression input", STEP_SECONDS), typed + ENTER)


def fits_a_finger(window: Session, screen: str) -> None:
    """Every target of the screen as it is now is a finger's size, and no text is cut off."""
    faults = finger_faults(window) + clipped(window)
    assert not faults, f"{screen}: {faults}"


@pytest.mark.parametrize("device", list(WINDOWS))
def test_the_app_in_webkit(window: Session, app_url: str, device: str) -> None:
    open_as(window, device, app_url)
    window.wait(".dkb-practice .dkb-submit", APP_SECONDS)
    window.wait(".dkb-practice", STEP_SECONDS, text="Make 10")
    width = window.script("return document.documentElement.clientWidth")
    assert 320 <= width <= WINDOWS[device][0]
    fits_a_finger(window, f"the first screen on a {device} ({width} px)")
    solve_peters_puzzle(window)
    answer(window, "13*2+3-9-3")  # a mistake: its line and the read-back must fit
    window.wait(".dkb-feedback", STEP_SECONDS, text="not 10")
    fits_a_finger(window, f"a mistake on a {device}")


@pytest.mark.network  # the site's build takes Pyodide from npm and wheels from PyPI
def test_the_static_site_starts_in_webkit(window: Session, site: Path) -> None:
    with serve_site(site) as server:
        window.go(server.url)
        window.wait(".dkb-practice .dkb-submit", SITE_SECONDS)
        loaded = window.script("return globalThis.pyodide ? pyodide.version : null")
        if loaded is not None:  # the kernel's Pyodide lives in a worker on most paths
            assert loaded == PYODIDE_VERSION
        solve_peters_puzzle(window)


def open_as(window: Session, device: str, url: str) -> None:
    """Open ``url`` on the ``device``'s screen."""
    if device == "phone":
        window.narrow(url, *WINDOWS[device])
    else:
        window.go(url)


@pytest.mark.network
@pytest.mark.parametrize("device", list(WINDOWS))
def test_a_student_joins_a_class_in_webkit(
    window: Session, site: Path, tmp_path: Path, artifacts: Path, device: str
) -> None:
    db = tmp_path / "classes.sqlite3"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["class", "new", "4a", "--codes", PETER.code, "--db", str(db)]) == 0
    service = start_class_service("4a", db=str(db), site=site)
    try:
        open_as(window, device, service.url + "/")
        window.type(window.wait(".dkb-nickname input", SITE_SECONDS), "Wren")
        fits_a_finger(window, f"joining a class on a {device}")
        window.click(window.wait(".dkb-join", STEP_SECONDS))
        window.wait(".dkb-counter", STEP_SECONDS, text="Puzzle 1 of 1")
        answer(window, "13*2+3-9-3")  # a mistake first: its line must fit the screen
        window.wait(".dkb-feedback", STEP_SECONDS, text="not 10")
        fits_a_finger(window, f"a mistake in class on a {device}")
        answer(window, PETERS_ANSWER)
        window.wait(".dkb-feedback", STEP_SECONDS, text="Dek bovinoj! 6 cards")
        window.wait(".dkb-waiting", STEP_SECONDS)  # the page's outbox, empty once sent
        store = open_store(db)
        try:
            stored = [(a.nickname, a.answer, a.verdict) for a in store.attempts("4a")]
        finally:
            store.close()
        assert stored[-1] == ("Wren", PETERS_ANSWER, "ok") and len(stored) == 2
    finally:
        service.stop()
        (artifacts / "webkit-class-service.log").write_text("\n".join(service.lines) + "\n")
