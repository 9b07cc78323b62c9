"""The tests' PostgreSQL: a throwaway cluster on 127.0.0.1 that really answers, and without
PostgreSQL's programs a failure that says to install them (never a skip)."""

from __future__ import annotations

import pytest
import sqlalchemy as sa
from support import postgres as postgres_support
from support.postgres import MISSING, PostgresServer, find_binaries


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
