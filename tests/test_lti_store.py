"""The LTI tool's rows in the class database (``dekbovinoj_edu/lti/store.py``, revision 0006):
its keys kept and rotated, platforms registered, logins taken once and nonces used once, on
SQLite and on PostgreSQL; and revision 0006 up and down with every other row kept."""

from __future__ import annotations

import os
import stat
import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
import sqlalchemy as sa
from support.lti_hostile import DEPLOYMENT
from support.puzzles import PETER

from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.store import SQLStore
from dekbovinoj_edu.classroom.store.database import migrate
from dekbovinoj_edu.lti import PendingLogin, Registration
from dekbovinoj_edu.lti.store import LtiStore

MONDAY = datetime(2026, 12, 7, 8, 0, tzinfo=timezone.utc)
LTI_TABLES = {"lti_keys", "lti_platforms", "lti_logins", "lti_nonces"}


def moodle(deployments: tuple[str, ...] = (DEPLOYMENT,)) -> Registration:
    return Registration(
        "https://moodle.school.example",
        "Zx3qFhG2",
        deployments,
        "https://moodle.school.example/mod/lti/auth.php",
        "https://moodle.school.example/mod/lti/token.php",
        "https://moodle.school.example/mod/lti/certs.php",
    )


def test_the_keys_are_made_once_rotated_and_removed(any_store: SQLStore) -> None:
    lti = LtiStore(any_store.database)
    first = lti.key_ring(MONDAY)
    assert lti.key_ring(MONDAY + timedelta(days=1)) == first
    rotated = lti.rotate_key(MONDAY + timedelta(days=30))
    assert LtiStore(any_store.database).key_ring(MONDAY) == rotated
    assert [k.kid for k in rotated.keys] == [first.current.kid, rotated.current.kid]
    assert rotated.keys[0].retired == MONDAY + timedelta(days=30)
    assert [k["kid"] for k in rotated.jwks()["keys"]] == [k.kid for k in rotated.keys]
    again = lti.rotate_key(MONDAY + timedelta(days=60), remove_before=MONDAY + timedelta(days=45))
    assert [k.kid for k in again.keys] == [rotated.current.kid, again.current.kid]
    assert again.current.private_key().key_size == 2048


def test_a_platform_is_registered_and_replaced(any_store: SQLStore) -> None:
    lti = LtiStore(any_store.database)
    assert lti.registrations() == []
    lti.register(moodle(), MONDAY)
    lti.register(moodle((DEPLOYMENT, "2")), MONDAY)
    assert lti.registrations() == [moodle((DEPLOYMENT, "2"))]


def test_a_login_is_taken_once_and_not_after_it_expires(any_store: SQLStore) -> None:
    lti = LtiStore(any_store.database)
    lti.put(PendingLogin("s1", "n1", "https://lms.example", "c", expires=100.0))
    lti.put(PendingLogin("s2", "n2", "https://lms.example", "c", expires=100.0))
    assert lti.take("s1", now=50.0) == PendingLogin("s1", "n1", "https://lms.example", "c", 100.0)
    assert lti.take("s1", now=50.0) is None
    assert lti.take("s2", now=100.0) is None


def test_a_nonce_is_used_once_even_by_launches_at_once(any_store: SQLStore) -> None:
    lti = LtiStore(any_store.database)
    answers: list[bool] = []
    start = threading.Barrier(6)

    def launch() -> None:
        start.wait()
        answers.append(lti.use_nonce("https://lms.example", "n", expires=500.0, now=10.0))

    threads = [threading.Thread(target=launch) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(answers) == [False] * 5 + [True]
    assert lti.use_nonce("https://lms.example", "n", expires=900.0, now=400.0) is False
    assert lti.use_nonce("https://lms.example", "n", expires=900.0, now=600.0) is True


def test_the_private_keys_file_is_the_services_only(tmp_path: Path) -> None:
    store = SQLStore(str(tmp_path / "classes.sqlite3"))
    LtiStore(store.database).key_ring(MONDAY)
    store.close()
    assert stat.S_IMODE(os.stat(tmp_path / "classes.sqlite3").st_mode) == 0o600


def _tables(engine: sa.Engine) -> set[str]:
    return set(sa.inspect(engine).get_table_names())


def _check_0006_up_and_down(url: str) -> None:
    store = SQLStore(url)
    store.add_class(codes_assignment("4a", PETER.code))
    LtiStore(store.database).register(moodle(), MONDAY)
    store.close()
    engine = sa.create_engine(url)
    assert _tables(engine) >= LTI_TABLES
    with engine.begin() as connection:
        migrate(connection, "0005")
    assert not LTI_TABLES & _tables(engine)
    with engine.connect() as connection:
        assert connection.execute(sa.text("SELECT name FROM classes")).scalars().all() == ["4a"]
    engine.dispose()
    again = SQLStore(url)  # opening migrates up again
    assert [a.name for a in again.classes()] == ["4a"]
    assert LtiStore(again.database).registrations() == []
    again.close()


def test_revision_0006_goes_up_and_down_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'c.sqlite3'}"
    _check_0006_up_and_down(url)
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        migrate(connection, "0005")
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA user_version").scalar() == 5
    engine.dispose()


@pytest.mark.postgres
def test_revision_0006_goes_up_and_down_on_postgresql(fresh_postgres_url: str) -> None:
    _check_0006_up_and_down(fresh_postgres_url)
