"""A class database made by the first version of the store is migrated in place, every row
kept, on SQLite (the file itself, ``tests/data/classes-v1.sqlite3``) and on PostgreSQL (its
rows at the first revision); the first revision is exactly the first version's schema."""

from __future__ import annotations

import shutil
import sqlite3
import threading
from dataclasses import replace
from pathlib import Path

import pytest
import sqlalchemy as sa

from dekbovinoj_edu.classroom.assignment import at_level_assignment
from dekbovinoj_edu.classroom.errors import NicknameTakenError, StoreError
from dekbovinoj_edu.classroom.store import SQLStore, open_store
from dekbovinoj_edu.classroom.store.database import migrate
from dekbovinoj_edu.classroom.store.tables import HEAD_REVISION

FIRST_VERSION_FILE = Path(__file__).parent / "data" / "classes-v1.sqlite3"
TABLES = ("classes", "seats", "attempts")
CLASS_COLUMNS = "name, mode, codes, level, count, seed, difficulty, mu, created"
SEAT_COLUMNS = "class, nickname, session, puzzle, started, hints, last_seen, joined"


def rows_of(db: sqlite3.Connection) -> dict[str, list[tuple[object, ...]]]:
    """Every row the first version kept, in the first version's columns and order."""
    return {
        "classes": db.execute(f"SELECT {CLASS_COLUMNS} FROM classes ORDER BY name").fetchall(),
        "seats": db.execute(
            f"SELECT {SEAT_COLUMNS} FROM seats ORDER BY joined, nickname"
        ).fetchall(),
        "attempts": db.execute(
            "SELECT id, class, nickname, puzzle, code, answer, verdict, cards, best, hints, "
            "seconds, time FROM attempts ORDER BY id"
        ).fetchall(),
    }


@pytest.fixture
def old_file(tmp_path: Path) -> Path:
    """A copy of the file the first version made: 2 classes, 4 seats, 8 attempts."""
    copy = tmp_path / "classes.sqlite3"
    shutil.copyfile(FIRST_VERSION_FILE, copy)
    return copy


def test_the_committed_file_is_the_first_versions() -> None:
    db = sqlite3.connect(f"file:{FIRST_VERSION_FILE}?mode=ro", uri=True)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 1
    names = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert names == set(TABLES)
    assert {table: len(rows) for table, rows in rows_of(db).items()} == {
        "classes": 2,
        "seats": 4,
        "attempts": 8,
    }


def test_an_old_file_is_migrated_in_place_with_every_row_kept(old_file: Path) -> None:
    before = rows_of(sqlite3.connect(old_file))
    store = open_store(old_file)
    assert [a.name for a in store.classes()] == ["4a", "5b"]
    assert sum(len(store.attempts(a.name)) for a in store.classes()) == 8
    store.close()
    db = sqlite3.connect(old_file)
    assert rows_of(db) == before
    assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [(HEAD_REVISION,)]
    assert db.execute("PRAGMA user_version").fetchone()[0] == int(HEAD_REVISION)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA foreign_key_check").fetchall() == []
    assert db.execute("SELECT count(*) FROM seats WHERE secret IS NOT NULL").fetchone() == (0,)


def test_an_old_seat_is_released_the_first_join_takes_it_and_gets_a_code(old_file: Path) -> None:
    store = open_store(old_file)
    before = {seat.nickname: seat for seat in store.seats("4a")}
    back = store.join("4a", "bo", "bo-page", now=2000.0)
    assert back.resumed and back.seat.puzzle == before["Bo"].puzzle and back.rejoin_code
    with pytest.raises(NicknameTakenError):  # from now on the code guards it
        store.join("4a", "Bo", "someone", now=2001.0)
    assert store.join("4a", "Bo", "bo-2", now=2002.0, rejoin_code=back.rejoin_code).resumed
    store.close()


def test_old_attempts_come_in_order_and_new_ones_follow(old_file: Path) -> None:
    store = open_store(old_file)
    old = store.attempts_since("4a")
    ids = [row for row, _ in old]
    assert ids == sorted(ids) and len(ids) == 6
    joined = store.join("4a", "Ana", "ana", now=0.0)
    sent = replace(old[0][1], puzzle=joined.seat.puzzle, answer="after the migration")
    kept = store.record("4a", "ana", "after-0001", sent, now=1.0)
    assert [a for _, a in store.attempts_since("4a", after=ids[-1])] == [kept.attempt]
    assert store.record("4a", "ana", "after-0001", sent, now=2.0).new is False
    store.close()


def test_two_stores_opening_an_old_file_at_once_migrate_it_once(old_file: Path) -> None:
    before = rows_of(sqlite3.connect(old_file))
    start = threading.Barrier(4, timeout=60)
    errors: list[str] = []

    def open_it() -> None:
        start.wait()
        try:
            open_store(old_file).close()
        except Exception as error:
            errors.append(repr(error))

    threads = [threading.Thread(target=open_it) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    assert rows_of(sqlite3.connect(old_file)) == before


def _schema(db: sqlite3.Connection) -> dict[str, object]:
    return {
        table: (
            [row[1:] for row in db.execute(f"PRAGMA table_info({table})")],
            sorted((row[1], row[2]) for row in db.execute(f"PRAGMA index_list({table})")),
            [row[2:5] for row in db.execute(f"PRAGMA foreign_key_list({table})")],
        )
        for table in TABLES
    }


def test_the_first_revision_is_exactly_the_first_versions_schema(tmp_path: Path) -> None:
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'first.sqlite3'}")
    with engine.begin() as connection:
        migrate(connection, "0001")
    engine.dispose()
    made = sqlite3.connect(tmp_path / "first.sqlite3")
    old = sqlite3.connect(f"file:{FIRST_VERSION_FILE}?mode=ro", uri=True)
    assert _schema(made) == _schema(old)
    assert made.execute("PRAGMA user_version").fetchone()[0] == 1


def test_two_old_seats_that_now_look_alike_are_both_kept(old_file: Path) -> None:
    db = sqlite3.connect(old_file)
    db.execute(  # the first version let a Cyrillic "Аna" in beside "Ana"
        "INSERT INTO seats VALUES ('4a', '\u0430na', '\u0410na', 'x', 1, 0, 0, 0, "
        "'2026-12-02T00:00:09Z')"
    )
    db.commit()
    db.close()
    store = open_store(old_file)
    assert [s.nickname for s in store.seats("4a")] == ["Ana", "Bo", "Çelik 7", "\u0410na"]
    store.close()


@pytest.mark.postgres
def test_a_postgresql_database_at_the_first_revision_is_migrated_with_every_row_kept(
    fresh_postgres_url: str,
) -> None:
    old = sqlite3.connect(f"file:{FIRST_VERSION_FILE}?mode=ro", uri=True)
    before = rows_of(old)
    engine = sa.create_engine(fresh_postgres_url)
    with engine.begin() as connection:
        migrate(connection, "0001")
        for table, rows in before.items():
            columns = (
                [c[1] for c in old.execute(f"PRAGMA table_info({table})")]
                if table != "seats"
                else SEAT_COLUMNS.split(", ")
            )
            for row in rows:
                values = dict(zip(columns, row, strict=True))
                if table == "seats":
                    values["key"] = str(values["nickname"]).casefold()
                connection.execute(sa.table(table, *map(sa.column, values)).insert(), values)
    engine.dispose()
    store = SQLStore(fresh_postgres_url)
    with store.database.engine.connect() as connection:
        after = {
            "classes": connection.execute(
                sa.text(f"SELECT {CLASS_COLUMNS} FROM classes ORDER BY name")
            ).all(),
            "seats": connection.execute(
                sa.text(f"SELECT {SEAT_COLUMNS} FROM seats ORDER BY joined, nickname")
            ).all(),
            "attempts": connection.execute(
                sa.text(
                    "SELECT id, class, nickname, puzzle, code, answer, verdict, cards, best, "
                    "hints, seconds, time FROM attempts ORDER BY id"
                )
            ).all(),
        }
    assert {table: [tuple(row) for row in rows] for table, rows in after.items()} == before
    joined = store.join("4a", "Neo", "neo", now=0.0)  # the seats' ids go on after the old rows
    assert [s.nickname for s in store.seats("4a")][-1] == joined.seat.nickname == "Neo"
    store.close()


def _differences(store: SQLStore) -> list[object]:
    """What Alembic would still change to make the database :mod:`.tables`' (nothing but the
    first version's primary keys in SQLite, declared without NOT NULL as it declared them)."""
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from dekbovinoj_edu.classroom.store.tables import metadata

    with store.database.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        found = compare_metadata(context, metadata)
    first_keys = {("attempts", "id"), ("classes", "name")}
    return [
        d
        for d in found
        if not (isinstance(d, list) and d[0][0] == "modify_nullable" and d[0][2:4] in first_keys)
    ]


def test_a_new_database_is_exactly_the_tables_module(any_store: SQLStore) -> None:
    assert _differences(any_store) == []


def test_a_migrated_file_has_the_tables_modules_columns_and_cascades(old_file: Path) -> None:
    store = open_store(old_file)
    differences = _differences(store)
    store.close()
    # SQLAlchemy reads "REFERENCES classes (name) ON DELETE CASCADE", as the first version
    # wrote it, without its ON DELETE; SQLite itself has it:
    assert {type(d).__name__ if not isinstance(d, tuple) else d[0] for d in differences} <= {
        "remove_fk",
        "add_fk",
    }
    db = sqlite3.connect(old_file)
    for table in ("seats", "attempts", "sessions"):
        assert [row[6] for row in db.execute(f"PRAGMA foreign_key_list({table})")] == ["CASCADE"]


# --- revision 0003: learning, classes at each student's level, names that ignore case -------


def _at_revision(url: str, revision: str) -> sa.Engine:
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        migrate(connection, revision)
    return engine


def _tables(engine: sa.Engine) -> set[str]:
    return set(sa.inspect(engine).get_table_names())


def _add_two_classes(engine: sa.Engine, names: tuple[str, str]) -> None:
    with engine.begin() as connection:
        for name in names:
            connection.execute(
                sa.text(
                    "INSERT INTO classes (name, mode, codes, created) "
                    "VALUES (:name, 'practice', '68VN-AV66-GGK', 'T')"
                ),
                {"name": name},
            )


def _revision(engine: sa.Engine) -> str:
    with engine.connect() as connection:
        return str(connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalar())


def _check_0003_up_and_down(url: str) -> None:
    """A database at 0002 with two classes goes up to 0003 and back to 0002 with every row."""
    engine = _at_revision(url, "0002")
    _add_two_classes(engine, ("4a", "5B"))
    engine.dispose()
    store = SQLStore(url)
    assert [a.name for a in store.classes()] == ["4a", "5B"]
    assert store.assignment("5b").name == "5B"
    joined = store.join("5b", "Ana", "ana-page", now=1.0)
    assert joined.seat.class_name == "5B"
    store.close()
    engine = sa.create_engine(url)
    assert {"abilities", "puzzle_ratings"} <= _tables(engine)
    with engine.begin() as connection:
        migrate(connection, "0002")
    assert _revision(engine) == "0002"
    assert not {"abilities", "puzzle_ratings"} & _tables(engine)
    columns = {c["name"] for c in sa.inspect(engine).get_columns("classes")}
    assert not {"key", "at_level", "target", "filters"} & columns
    with engine.connect() as connection:
        seats = connection.execute(sa.text('SELECT "class", nickname FROM seats')).all()
    assert [tuple(row) for row in seats] == [("5B", "Ana")]
    engine.dispose()
    again = SQLStore(url)  # and up again
    assert [a.name for a in again.classes()] == ["4a", "5B"]
    again.close()


def _check_a_collision_is_refused(url: str) -> None:
    engine = _at_revision(url, "0002")
    _add_two_classes(engine, ("4b", "4B"))
    engine.dispose()
    with pytest.raises(StoreError, match="'4B' and '4b' differ only in capital letters"):
        SQLStore(url)
    engine = sa.create_engine(url)
    assert _revision(engine) == "0002"  # nothing was changed
    with engine.connect() as connection:
        names = connection.execute(sa.text("SELECT name FROM classes ORDER BY name")).all()
    assert [row[0] for row in names] == ["4B", "4b"]
    with engine.begin() as connection:
        connection.execute(sa.text("DELETE FROM classes WHERE name = '4B'"))
    engine.dispose()
    store = SQLStore(url)
    assert store.assignment("4B").name == "4b"
    store.close()


def _check_a_class_at_each_students_level_stops_the_downgrade(url: str) -> None:
    store = SQLStore(url)
    store.add_class(at_level_assignment("4c", level=1, count=3, seed=1, jokers=False))
    store.close()
    engine = sa.create_engine(url)
    with pytest.raises(StoreError, match="forget it first"), engine.begin() as connection:
        migrate(connection, "0002")
    assert _revision(engine) == HEAD_REVISION
    engine.dispose()


def test_revision_0003_goes_up_and_down_with_every_row_on_sqlite(tmp_path: Path) -> None:
    _check_0003_up_and_down(f"sqlite:///{tmp_path / 'c.sqlite3'}")


def test_two_classes_differing_only_in_case_stop_the_migration_on_sqlite(tmp_path: Path) -> None:
    _check_a_collision_is_refused(f"sqlite:///{tmp_path / 'c.sqlite3'}")


def test_a_class_at_each_students_level_stops_the_downgrade_on_sqlite(tmp_path: Path) -> None:
    _check_a_class_at_each_students_level_stops_the_downgrade(f"sqlite:///{tmp_path / 'c.sqlite3'}")


@pytest.mark.postgres
def test_revision_0003_goes_up_and_down_with_every_row_on_postgresql(
    fresh_postgres_url: str,
) -> None:
    _check_0003_up_and_down(fresh_postgres_url)


@pytest.mark.postgres
def test_two_classes_differing_only_in_case_stop_the_migration_on_postgresql(
    fresh_postgres_url: str,
) -> None:
    _check_a_collision_is_refused(fresh_postgres_url)


@pytest.mark.postgres
def test_a_class_at_each_students_level_stops_the_downgrade_on_postgresql(
    fresh_postgres_url: str,
) -> None:
    _check_a_class_at_each_students_level_stops_the_downgrade(fresh_postgres_url)
