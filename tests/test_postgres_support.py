"""The tests' PostgreSQL: a throwaway cluster on 127.0.0.1 that really answers, and without
PostgreSQL's programs a failure that says to install them (never a skip)."""

from __future__ import annotations

from dataclasses import replace

import pytest
import sqlalchemy as sa
from support import postgres as postgres_support
from support.postgres import MISSING, PostgresServer, find_binaries
from support.puzzles import PETER as PETERS_PUZZLE

from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.attempts import Attempt
from dekbovinoj_edu.classroom.store import open_store

PETER = PETERS_PUZZLE.code


def test_without_postgresql_the_tests_say_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(postgres_support.glob, "glob", lambda pattern: [])
    monkeypatch.setattr(postgres_support.shutil, "which", lambda name: None)
    with pytest.raises(RuntimeError, match="PostgreSQL is not installed: install it"):
        find_binaries()
    assert "apt-get install postgresql" in MISSING


@pytest.mark.postgres
def test_the_server_listens_on_loopback_and_each_test_gets_an_empty_database(
    postgres: PostgresServer, fresh_postgres_url: str, postgres_url: str
) -> None:
    assert "@127.0.0.1:" in postgres.admin_url
    engine = sa.create_engine(fresh_postgres_url)
    with engine.connect() as connection:
        assert connection.execute(sa.text("SELECT 1")).scalar() == 1
        assert sa.inspect(connection).get_table_names() == []
    engine.dispose()
    assert fresh_postgres_url != postgres_url


@pytest.mark.postgres
def test_the_store_carries_on_when_the_server_drops_its_connections(
    postgres: PostgresServer, fresh_postgres_url: str
) -> None:
    """A restarted server drops every pooled connection: the next write finds its connection
    gone and runs again on a new one, and nothing is lost or doubled."""
    store = open_store(fresh_postgres_url)
    try:
        store.add_class(codes_assignment("4a", f"{PETER},{PETER}"))
        store.join("4a", "Ana", "ana", now=10.0)
        first = Attempt("4a", "Ana", 1, PETER, "x", "colour", 0, 6, 0, 3.5, "2026-12-02T09:00:00Z")
        assert store.record("4a", "ana", "a1", first, now=11.0).new
        database = fresh_postgres_url.rpartition("/")[2]
        postgres.admin(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            f"WHERE datname = '{database}' AND pid <> pg_backend_pid()"
        )
        assert store.touch("4a", "ana", now=12.0, hints=1).hints == 1
        again = replace(first, answer="y")
        assert store.record("4a", "ana", "a2", again, now=13.0).new
        assert [a.answer for a in store.attempts("4a")] == ["x", "y"]
    finally:
        store.close()
