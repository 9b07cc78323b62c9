"""The class's clock starts when the puzzle is shown (issue 39, item 2): a student who reads
the last puzzle's feedback before "Next" is not learnt down for the time spent reading, on the
desk and through the class service, with one fake clock for the page and the server."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from support.class_service import running_service
from support.puzzles import PETER

from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.attempts import Attempt
from dekbovinoj_edu.classroom.backend import Backend
from dekbovinoj_edu.classroom.client import ClassClient
from dekbovinoj_edu.classroom.session import ClassSession
from dekbovinoj_edu.classroom.store import open_store
from dekbovinoj_edu.classroom.store.desk import ClassDesk
from dekbovinoj_edu.classroom.store.learning import PAGE_FLOOR
from dekbovinoj_edu.dealing.learner import Ability, Outcome, Response, prior, update
from dekbovinoj_edu.sessions.feedback import FeedbackKind

PETERS_ANSWER = "13*2+3-9-3-7"


class Clock:
    """A clock the test moves by hand: the page's and the server's."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("path", ["desk", "service"])
def test_ana_right_5_s_after_next_and_25_s_after_her_last_attempt_is_learnt_at_5_s(
    tmp_path: Path, path: str
) -> None:
    store = open_store(tmp_path / "c.sqlite3")
    store.add_class(codes_assignment("4a", f"{PETER.code},{PETER.code}"))
    clock = Clock()
    with running_service(store, "4a", clock=clock) as (server, _):
        backend: Backend = (
            ClassDesk(store, "4a", clock=clock) if path == "desk" else ClassClient(server.url, "4a")
        )
        session = ClassSession("4a", backend, clock=clock)
        session.join("Ana")
        session.practice.type(PETERS_ANSWER)
        clock.now += 20.0
        assert session.submit().kind is FeedbackKind.SOLVED
        store.learnt()
        first = store.learner("4a", "Ana").ability("2")
        clock.now += 20.0  # she reads the feedback, then presses "Next"
        session.next()
        session.practice.type(PETERS_ANSWER)
        clock.now += 5.0  # right, 5 s after "Next", 25 s after her last attempt
        assert session.submit().kind is FeedbackKind.SOLVED
        store.learnt()
        second = store.learner("4a", "Ana").ability("2")
    store.close()
    _, rating = update(Ability(), prior(PETER), Response(Outcome.BEST, 20.0))
    expected, _ = update(first, rating, Response(Outcome.BEST, 5.0))
    assert second == expected  # learnt at the page's 5 s, not the server's 25 s
    assert second.value >= first.value  # not learnt down
    assert [a.seconds for a in store_attempts(tmp_path)] == [20.0, 5.0]


def store_attempts(tmp_path: Path) -> list[Attempt]:
    """The attempts kept, read back from the file."""
    store = open_store(tmp_path / "c.sqlite3")
    try:
        return store.attempts("4a")
    finally:
        store.close()


def test_a_page_claiming_no_time_gets_the_floor_and_one_claiming_more_the_servers(
    tmp_path: Path,
) -> None:
    store = open_store(tmp_path / "c.sqlite3")
    store.add_class(codes_assignment("4a", f"{PETER.code},{PETER.code},{PETER.code}"))
    clock = Clock()
    desk = ClassDesk(store, "4a", clock=clock)
    ana = desk.join("Ana")
    clock.now += 30.0
    desk.attempt(ana.token, "a1", 1, PETERS_ANSWER, seconds=0.2)  # a page's 0.2 s: the floor
    clock.now += 4.0
    desk.attempt(ana.token, "a2", 2, PETERS_ANSWER, seconds=600.0)  # more than the server's
    store.learnt()
    learnt = store.learner("4a", "Ana").ability("2")
    first, rating = update(Ability(), prior(PETER), Response(Outcome.BEST, PAGE_FLOOR))
    second, _ = update(first, rating, Response(Outcome.BEST, 4.0))
    assert learnt == second  # the same in one batch or two, her own speed with it
    store.close()
