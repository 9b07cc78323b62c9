"""The progress store: a versioned SQLite schema in WAL mode, one row per attempt, classes
forgotten completely, and 30 processes writing at once without losing a row or showing a
student "database is locked"."""

from __future__ import annotations

import multiprocessing
import sqlite3
import time
from dataclasses import fields, replace
from pathlib import Path

import pytest
from support import puzzles

from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.attempts import CSV_COLUMNS, Attempt, to_csv
from dekbovinoj_edu.classroom.errors import (
    ClassExistsError,
    NicknameTakenError,
    StoreError,
    UnknownClassError,
)
from dekbovinoj_edu.classroom.schema import MIGRATIONS, SCHEMA_VERSION, migrate, version_of
from dekbovinoj_edu.classroom.store import DB_ENV, SQLiteStore, default_db_path

PETER = puzzles.PETER.code  # Peter's puzzle as the store keeps it: its code
WRITERS, EACH = 30, 100


def attempt(
    nickname: str = "Ana", number: int = 1, verdict: str = "ok", answer: str = "x"
) -> Attempt:
    return Attempt(
        "4a", nickname, number, PETER, answer, verdict, 6, 6, 0, 3.5, "2026-12-01T09:00:00Z"
    )


@pytest.fixture
def store(tmp_path: Path) -> SQLiteStore:
    made = SQLiteStore(tmp_path / "classes.sqlite3")
    made.add_class(codes_assignment("4a", f"{PETER},{PETER}"))
    return made


def test_the_file_is_in_wal_mode_at_the_current_schema_version(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "classes.sqlite3"
    SQLiteStore(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert version_of(db) == SCHEMA_VERSION == len(MIGRATIONS)


def test_migrations_run_in_order_once_and_a_newer_file_is_refused() -> None:
    db = sqlite3.connect(":memory:", isolation_level=None)
    steps = ("CREATE TABLE a (x INTEGER)", "ALTER TABLE a ADD COLUMN y TEXT")
    assert migrate(db, steps[:1]) == 1
    db.execute("INSERT INTO a (x) VALUES (1)")
    assert migrate(db, steps) == 2  # only the second step runs: the row survives
    assert db.execute("SELECT x, y FROM a").fetchall() == [(1, None)]
    with pytest.raises(StoreError, match="schema version 2"):
        migrate(db, steps[:1])


def test_the_report_has_the_issues_columns_one_a_field_of_the_attempt() -> None:
    header = "class,nickname,puzzle,code,answer,verdict,cards,best,hints,seconds,time"
    assert ",".join(CSV_COLUMNS) == header
    assert to_csv([]) == header + "\n"
    assert [f.name for f in fields(Attempt)] == ["class_name", *CSV_COLUMNS[1:]]


def test_the_attempts_table_has_a_column_for_each_field_in_order() -> None:
    db = sqlite3.connect(":memory:", isolation_level=None)
    migrate(db)
    assert [row[1] for row in db.execute("PRAGMA table_info(attempts)")] == ["id", *CSV_COLUMNS]


def test_a_file_that_is_no_database_gets_a_sentence(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("this is not a database " * 100)
    with pytest.raises(StoreError, match="Cannot use the class database"):
        SQLiteStore(path)


def test_the_default_file_is_in_the_data_directory_unless_the_environment_says(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(DB_ENV, raising=False)
    default = default_db_path()
    assert default.name == "classes.sqlite3" and "dekbovinoj" in default.parts
    monkeypatch.setenv(DB_ENV, str(tmp_path / "other.sqlite3"))
    assert default_db_path() == tmp_path / "other.sqlite3"


def test_a_class_keeps_its_assignment_and_a_name_is_used_once(store: SQLiteStore) -> None:
    assert store.assignment("4a").codes == (PETER, PETER)
    with pytest.raises(ClassExistsError):
        store.add_class(codes_assignment("4a", PETER))
    with pytest.raises(UnknownClassError):
        store.assignment("4b")


def test_every_attempt_is_one_row_with_every_field(store: SQLiteStore) -> None:
    rows = [attempt(), attempt("Bo", 2, "colour", "13 + 9")]
    for row in rows:
        store.record(row)
    assert store.attempts("4a") == rows
    assert store.attempts("4a", "Bo") == rows[1:]
    lines = to_csv(store.attempts("4a")).splitlines()
    assert lines[0] == ",".join(CSV_COLUMNS)
    assert lines[2].split(",")[:7] == ["4a", "Bo", "2", PETER, "13 + 9", "colour", "6"]


def test_a_nickname_is_taken_while_its_page_lives_and_free_for_a_comeback(
    store: SQLiteStore,
) -> None:
    first = store.join("4a", "Ana", "page-1", now=1000.0, live=20.0)
    with pytest.raises(NicknameTakenError):
        store.join("4a", " ANA ", "page-2", now=1010.0, live=20.0)
    store.save_seat(replace(first, puzzle=2, last_seen=1030.0))
    with pytest.raises(NicknameTakenError):
        store.join("4a", "ana", "page-2", now=1040.0, live=20.0)
    back = store.join("4a", "ana", "page-2", now=1060.0, live=20.0)
    assert (back.nickname, back.puzzle, back.session) == ("Ana", 2, "page-2")
    # The old page can no longer move the seat.
    store.save_seat(replace(first, puzzle=1))
    assert store.seats("4a")[0].puzzle == 2


def test_forget_deletes_the_class_its_students_and_every_row(tmp_path: Path) -> None:
    path = tmp_path / "classes.sqlite3"
    store = SQLiteStore(path)
    store.add_class(codes_assignment("4a", PETER))
    store.add_class(codes_assignment("4b", PETER))
    store.join("4a", "Ana", "p", now=0.0, live=20.0)
    store.record(attempt(answer="SECRET-ANSWER-4A"))
    store.record(Attempt("4b", "Bo", 1, PETER, "kept", "ok", 6, 6, 0, 1.0, "T"))
    assert store.forget("4a") == 1
    assert [a.name for a in store.classes()] == ["4b"]
    assert store.seats("4a") == [] and store.attempts("4a") == []
    assert len(store.attempts("4b")) == 1
    with pytest.raises(UnknownClassError):
        store.forget("4a")
    store.close()
    leftovers = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert b"SECRET-ANSWER-4A" not in leftovers  # overwritten, not just unlinked


def _writer(path: str, worker: int, start: object, results: object) -> None:
    """One student kernel: 100 attempts as fast as it can, every error reported."""
    errors: list[str] = []
    try:
        store = SQLiteStore(path)
        start.wait(60)  # type: ignore[attr-defined]
        for number in range(EACH):
            try:
                store.record(attempt(f"s{worker}", number + 1, answer=f"{worker}:{number}"))
            except Exception as error:  # what would reach the student
                errors.append(repr(error))
        store.close()
    except Exception as error:
        errors.append(repr(error))
    results.put((worker, errors))  # type: ignore[attr-defined]


@pytest.mark.slow  # thirty processes started and joined
def test_thirty_processes_write_a_hundred_attempts_each_and_nothing_is_lost(
    tmp_path: Path,
) -> None:
    path = tmp_path / "classes.sqlite3"
    store = SQLiteStore(path)
    store.add_class(codes_assignment("4a", PETER))
    context = multiprocessing.get_context("spawn")
    start, results = context.Event(), context.Queue()
    workers = [
        context.Process(target=_writer, args=(str(path), n, start, results)) for n in range(WRITERS)
    ]
    for worker in workers:
        worker.start()
    time.sleep(1.0)
    start.set()
    reports = dict(results.get(timeout=300) for _ in workers)
    for worker in workers:
        worker.join(timeout=60)
    assert {n: errors for n, errors in reports.items() if errors} == {}
    rows = store.attempts("4a")
    assert len(rows) == WRITERS * EACH == 3000
    assert {row.answer for row in rows} == {f"{w}:{n}" for w in range(WRITERS) for n in range(EACH)}


def test_a_write_waits_past_the_busy_timeout_and_then_succeeds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading

    import dekbovinoj_edu.classroom.store as store_module

    monkeypatch.setattr(store_module, "BUSY_TIMEOUT_MS", 50)
    path = tmp_path / "classes.sqlite3"
    store = SQLiteStore(path)
    store.add_class(codes_assignment("4a", PETER))
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the lock for a second
    release = threading.Timer(1.0, lambda: other.execute("COMMIT"))
    release.start()
    before = time.monotonic()
    store.record(attempt())
    assert time.monotonic() - before >= 0.9
    assert len(store.attempts("4a")) == 1
    release.join()


def test_a_lock_held_past_the_patience_is_a_sentence_without_database_is_locked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dekbovinoj_edu.classroom.store as store_module

    monkeypatch.setattr(store_module, "BUSY_TIMEOUT_MS", 50)
    monkeypatch.setattr(store_module, "WRITE_PATIENCE", 0.5)
    path = tmp_path / "classes.sqlite3"
    store = SQLiteStore(path)
    store.add_class(codes_assignment("4a", PETER))
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(StoreError) as refused:
        store.record(attempt())
    other.execute("ROLLBACK")
    assert "busy: try again" in refused.value.message("en")
    assert "locked" not in refused.value.message("en")
