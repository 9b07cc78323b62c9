"""A stalled class database does not freeze the class service: the requests that need it are a
``503 store`` within the service's patience, the others go on answering, and the service
recovers by itself when the database does (a real PostgreSQL stopped with ``SIGSTOP``; a SQLite
file another program holds locked)."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from support.class_service import Answer, Api, running_service
from support.postgres import PostgresServer, stalled
from support.puzzles import PETER

from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.store import SQLStore

PATIENCE = 2.0
"""The service's patience in these tests (the default is :data:`STORE_PATIENCE`)."""


def _timed(call: Callable[[], Answer]) -> tuple[float, Answer]:
    started = time.monotonic()
    answer = call()
    return time.monotonic() - started, answer


def _resent(api: Api, token: str, attempt_id: str, within: float = 30.0) -> Answer:
    """The page's resend of ``attempt_id`` (Peter's wrong ``13 + 9``) while the service
    answers 503, every 0.5 s for at most ``within`` seconds: its last answer."""
    deadline = time.monotonic() + within
    again = api.attempt(token, attempt_id, 1, "13 + 9")
    while again.status == 503 and time.monotonic() < deadline:
        time.sleep(0.5)
        again = api.attempt(token, attempt_id, 1, "13 + 9")
    return again


def _store(where: str) -> SQLStore:
    store = SQLStore(where)
    store.add_class(codes_assignment("4a", PETER.code))
    return store


@pytest.fixture
def pg_store(fresh_postgres_url: str) -> Iterator[SQLStore]:
    store = _store(fresh_postgres_url)
    yield store
    store.close()


@pytest.mark.postgres
@pytest.mark.slow  # the quick loop leaves it to the whole suite
def test_a_stopped_postgresql_is_a_503_in_seconds_and_the_rest_answers(
    postgres: PostgresServer, pg_store: SQLStore
) -> None:
    with running_service(pg_store, "4a", patience=PATIENCE) as (_, api):
        token = api.join("Ana").document["token"]
        with stalled(postgres):
            took, described = _timed(lambda: api.call("GET", "/api/v1/openapi.json"))
            assert described.status == 200 and took < 1.0
            took, late = _timed(lambda: api.attempt(token, "stall-0001", 1, "13 + 9"))
            assert (late.status, late.code) == (503, "store")
            assert PATIENCE - 0.1 <= took < PATIENCE + 1.5
            took, joining = _timed(lambda: api.join("Bo"))
            assert (joining.status, joining.code) == (503, "store")
            took, described = _timed(lambda: api.call("GET", "/api/v1/openapi.json"))
            assert described.status == 200 and took < 1.0
        # the database is back: the page's resend is recorded once, with no restart
        assert _resent(api, token, "stall-0001").status in (200, 201)
        assert len(pg_store.attempts("4a")) == 1


@pytest.mark.slow  # the quick loop leaves it to the whole suite
def test_a_sqlite_file_locked_by_another_program_stops_only_the_writes(tmp_path: Path) -> None:
    db = tmp_path / "classes.sqlite3"
    store = _store(str(db))
    try:
        with running_service(store, "4a", patience=PATIENCE) as (_, api):
            token = api.join("Ana").document["token"]
            other = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
            other.execute("BEGIN IMMEDIATE")  # another program writes, and takes its time
            released = threading.Timer(PATIENCE + 2.0, lambda: other.execute("ROLLBACK"))
            released.start()
            try:
                took, late = _timed(lambda: api.attempt(token, "lock-0001", 1, "13 + 9"))
                assert (late.status, late.code) == (503, "store")
                assert took < PATIENCE + 1.5
                took, described = _timed(lambda: api.call("GET", "/api/v1/openapi.json"))
                assert described.status == 200 and took < 1.0
                took, mine = _timed(lambda: api.call("GET", "/api/v1/classes/4a/me", token=token))
                assert mine.status == 200 and took < 1.0
            finally:
                released.join()
                other.close()
            assert _resent(api, token, "lock-0001").status in (200, 201)
            assert len(store.attempts("4a")) == 1
    finally:
        store.close()


def test_more_calls_than_may_wait_are_refused_at_once(tmp_path: Path) -> None:
    from dekbovinoj_edu.class_service import state

    store = _store(str(tmp_path / "classes.sqlite3"))
    try:
        with running_service(store, "4a", patience=10.0, threads=1) as (server, api):
            token = api.join("Ana").document["token"]
            server.service.busy = state.MAX_WAITING  # as if that many calls waited
            took, refused = _timed(lambda: api.attempt(token, "full-0001", 1, "13 + 9"))
            assert (refused.status, refused.code) == (503, "store")
            assert took < 1.0
            server.service.busy = 0
            assert api.attempt(token, "full-0001", 1, "13 + 9").status == 201
    finally:
        store.close()
