"""Fixtures every test may use: the worked examples of RULES.md and the levels of the rules;
the class store on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.postgres import URL_ENV, PostgresServer, find_binaries, postgres_server
from support.puzzles import PETER, SOFIA

from dekbovinoj_edu.classroom.store import SQLStore, open_store
from dekbovinoj_edu.rules.levels import LEVELS, Level
from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.sessions import solver_time


@pytest.fixture(autouse=True)
def solver_time_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test is a page of its own: a full bucket of solver time
    (``sessions/solver_time.py``), not what the tests before it in this process spent."""
    monkeypatch.setattr(solver_time, "PAGE", solver_time.SolverTime())


@pytest.fixture
def peter() -> Puzzle:
    """Peter's puzzle (level 2, ``support.puzzles.PETER``): 13 × 2 + 3 − 9 − 3 − 7 takes all six."""
    return PETER


@pytest.fixture
def sofia() -> Puzzle:
    """Sofia's puzzle (level 2, not flipped): 9♦ 3♥ | Q♠ JK 7♥, a dek bovinoj only after the
    joker (7 + 3, with 7♥ and 3♥ counting as black)."""
    return SOFIA


@pytest.fixture
def levels() -> dict[int, Level]:
    """The three levels of the rules: 1 is ``+ −``, 2 adds ``× ÷`` and brackets, 3 adds
    ``^ √ !``."""
    return LEVELS


REQUIRE_POSTGRES = "DEKBOVINOJ_REQUIRE_POSTGRES"
"""Set (CI sets it): a run without PostgreSQL's programs fails instead of skipping its tests."""


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the whole run (tests/support/postgres.py). Without PostgreSQL
    installed, its tests are skipped with a sentence saying how to install it (a developer's
    quick loop), or fail when ``$DEKBOVINOJ_REQUIRE_POSTGRES`` is set (CI)."""
    if not os.environ.get(URL_ENV):
        try:
            find_binaries()
        except RuntimeError as missing:
            if os.environ.get(REQUIRE_POSTGRES):
                pytest.fail(str(missing), pytrace=False)
            pytest.skip(str(missing))
    try:
        with postgres_server() as server:
            yield server
    except RuntimeError as error:
        pytest.fail(str(error), pytrace=False)


@pytest.fixture(scope="session")
def postgres_url(postgres: PostgresServer) -> Iterator[str]:
    """The address of one database on the run's PostgreSQL server, made for the run
    (``postgresql+psycopg://…``); tests that need it empty take ``fresh_postgres_url``."""
    name = postgres.create_database()
    yield postgres.url(name)
    postgres.drop_database(name)


@pytest.fixture
def fresh_postgres_url(postgres: PostgresServer) -> Iterator[str]:
    """The address of a new, empty PostgreSQL database, deleted after the test."""
    name = postgres.create_database()
    yield postgres.url(name)
    postgres.drop_database(name)


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def any_db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a new, empty class store is: a SQLite file, or a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return str(tmp_path / "classes.sqlite3")
    return str(request.getfixturevalue("fresh_postgres_url"))


@pytest.fixture
def any_store(any_db: str) -> Iterator[SQLStore]:
    """An empty class store, once on SQLite and once on PostgreSQL; closed after the test."""
    store = open_store(any_db)
    yield store
    store.close()
