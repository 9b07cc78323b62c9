"""A class database that cannot be used is refused with one sentence and left exactly as it
was: empty, garbage, damaged, another program's, a newer version's; the CLI says so in one line
and exits 2 (never half a CSV, never "No classes yet"). Storage that fails (the disk full,
read-only) is a sentence too. Files are the teacher's alone: 0600 in a 0700 folder."""

from __future__ import annotations

import contextlib
import errno
import hashlib
import io
import os
import sqlite3
import stat
from pathlib import Path

import pytest
import sqlalchemy as sa
from support import puzzles

from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.attempts import Attempt
from dekbovinoj_edu.classroom.errors import StoreError
from dekbovinoj_edu.classroom.store import SQLStore, open_store
from dekbovinoj_edu.classroom.store.classes import new_class
from dekbovinoj_edu.classroom.store.database import storage_error
from dekbovinoj_edu.cli import main

PETER = puzzles.PETER.code


def fingerprint(path: Path) -> tuple[str, float, list[str]]:
    """The file's bytes, its modification time and what lies beside it."""
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    return digest, path.stat().st_mtime, sorted(p.name for p in path.parent.iterdir())


def refused(path: Path, match: str) -> StoreError:
    """Opening ``path`` is refused with a sentence matching ``match``, and nothing changes."""
    before = fingerprint(path)
    with pytest.raises(StoreError, match=match) as caught:
        open_store(path)
    assert fingerprint(path) == before
    assert len(caught.value.message("en").splitlines()) == 1
    return caught.value


def run_cli(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def a_class_with_rows(path: Path, rows: int = 3200) -> None:
    store = open_store(path)
    store.add_class(codes_assignment("4a", PETER))
    store.join("4a", "Ana", "ana", now=0.0)
    for number in range(rows):
        store.record(
            "4a",
            "ana",
            f"a-{number:06d}",
            Attempt("4a", "Ana", 1, PETER, f"answer {number} " * 8, "colour", 0, 6, 0, 1.0, "T"),
            now=1.0,
        )
    store.close()


def damage(path: Path) -> None:
    """Overwrite a stretch of pages in the middle of the file, as a failing disk would."""
    size = path.stat().st_size
    with path.open("r+b") as file:
        file.seek(size // 2)
        file.write(os.urandom(4096 * 3))


# ------------------------------------------------------------------------------ files
def test_a_file_of_zero_bytes_is_refused_not_shown_as_no_classes(tmp_path: Path) -> None:
    path = tmp_path / "classes.sqlite3"
    path.touch()
    refused(path, "is not a class database")
    code, out, err = run_cli("class", "list", "--db", str(path))
    assert (code, out) == (2, "")
    assert err.startswith("dekbovinoj: The file") and err.count("\n") == 1


def test_a_file_of_garbage_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "classes.sqlite3"
    path.write_bytes(os.urandom(8192))
    refused(path, "is not a class database")
    text = tmp_path / "notes.txt"
    text.write_text("this is not a database " * 100)
    refused(text, "is not a class database")


@pytest.mark.slow  # the quick loop leaves it to the whole suite
def test_a_damaged_file_is_refused_and_class_new_does_not_write_into_it(tmp_path: Path) -> None:
    path = tmp_path / "classes.sqlite3"
    a_class_with_rows(path)
    damage(path)
    error = refused(path, "is damaged")
    assert error.code == "store"
    before = fingerprint(path)
    code, _out, err = run_cli("class", "new", "4b", "--codes", PETER, "--db", str(path))
    assert code == 2 and "is damaged" in err and err.count("\n") == 1
    assert fingerprint(path) == before
    with pytest.raises(StoreError):
        new_class("4c", codes=PETER, db=path)


@pytest.mark.slow  # the quick loop leaves it to the whole suite
def test_a_damaged_file_gives_no_half_csv_but_a_sentence_and_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "classes.sqlite3"
    a_class_with_rows(path)
    damage(path)
    code, out, err = run_cli("class", "report", "4a", "--csv", "--db", str(path))
    assert (code, out) == (2, "")  # not 3,000 of 3,200 rows
    assert "damaged" in err and "Traceback" not in err


def test_a_file_of_a_newer_version_is_refused_and_not_switched_to_wal(tmp_path: Path) -> None:
    path = tmp_path / "classes.sqlite3"
    open_store(path).close()
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode = DELETE")
    db.execute("UPDATE alembic_version SET version_num = '9f3e1c'")
    db.close()
    refused(path, r"made by a newer version of dekbovinoj_edu \(9f3e1c\)")
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "delete"


def test_a_file_with_a_newer_first_style_version_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "classes.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE classes (name TEXT PRIMARY KEY); CREATE TABLE attempts (id INTEGER);"
        "PRAGMA user_version = 7;"
    )
    db.close()
    refused(path, "newer version")


def test_another_programs_sqlite_file_is_not_taken_over(tmp_path: Path) -> None:
    path = tmp_path / "notes.sqlite3"
    db = sqlite3.connect(path)
    db.executescript("CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);")
    db.execute("INSERT INTO notes (text) VALUES ('keep me')")
    db.commit()
    db.close()
    refused(path, "another program's database")
    hub = tmp_path / "jupyterhub.sqlite"  # another program with Alembic's table
    db = sqlite3.connect(hub)
    db.executescript(
        "CREATE TABLE alembic_version (version_num VARCHAR(32) PRIMARY KEY);"
        "INSERT INTO alembic_version VALUES ('4621fec11365');"
        "CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT);"
    )
    db.close()
    refused(hub, "another program's database")


def test_a_file_with_our_table_names_but_other_columns_is_not_ours(tmp_path: Path) -> None:
    path = tmp_path / "classes.sqlite3"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE classes (x); CREATE TABLE seats (y); CREATE TABLE attempts (z);"
        "PRAGMA user_version = 1;"
    )
    db.close()
    refused(path, "another program's database")


def test_an_empty_sqlite_database_becomes_a_class_database(tmp_path: Path) -> None:
    path = tmp_path / "classes.sqlite3"
    sqlite3.connect(path).execute("VACUUM").connection.close()
    assert path.stat().st_size > 0 or path.exists()
    store = open_store(path)
    store.add_class(codes_assignment("4a", PETER))
    store.close()


# ----------------------------------------------------------------------- privacy
def test_a_new_file_is_0600_in_a_new_folder_0700(tmp_path: Path) -> None:
    path = tmp_path / "data" / "dekbovinoj" / "classes.sqlite3"
    store = open_store(path)
    store.add_class(codes_assignment("4a", PETER))
    store.close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    # beside it only the empty file whose lock gives the service's processes their turns
    files = sorted(path.parent.iterdir())
    assert [p.name for p in files] == ["classes.sqlite3", "classes.sqlite3-lock"]
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in files)
    assert files[1].stat().st_size == 0


def test_an_existing_folder_stays_as_it_is_and_the_file_is_0600(tmp_path: Path) -> None:
    folder = tmp_path / "shared"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    open_store(folder / "classes.sqlite3").close()
    assert stat.S_IMODE(folder.stat().st_mode) == 0o755
    assert stat.S_IMODE((folder / "classes.sqlite3").stat().st_mode) == 0o600


def test_a_file_the_first_version_left_0644_becomes_0600(tmp_path: Path) -> None:
    path = tmp_path / "classes.sqlite3"
    open_store(path).close()
    path.chmod(0o644)
    open_store(path).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


# ---------------------------------------------------------------- storage that fails
def _limit(store: SQLStore, pragma: str) -> None:
    """From now on every connection of ``store`` runs ``pragma`` first."""
    store.database.engine.dispose()

    @sa.event.listens_for(store.database.engine, "connect")
    def limit(dbapi_connection: object, _record: object) -> None:
        dbapi_connection.execute(pragma)  # type: ignore[attr-defined]


def test_a_full_disk_is_a_sentence_for_the_teacher_too(tmp_path: Path) -> None:
    store = open_store(tmp_path / "classes.sqlite3")
    store.add_class(codes_assignment("4a", PETER))
    joined = store.join("4a", "Ana", "ana", now=0.0)
    pages = sqlite3.connect(tmp_path / "classes.sqlite3").execute("PRAGMA page_count").fetchone()
    _limit(store, f"PRAGMA max_page_count = {pages[0]}")  # no page more: SQLITE_FULL
    with pytest.raises(StoreError) as caught:
        for number in range(200):
            store.record(
                "4a",
                joined.token,
                f"a-{number:06d}",
                Attempt("4a", "Ana", 1, PETER, "9" * 200, "colour", 0, 6, 0, 1.0, "T"),
                now=1.0,
            )
    assert caught.value.message("en") == "The class database cannot be written: the disk is full."
    assert caught.value.message("sv").startswith("Det går inte att skriva i klassdatabasen")
    store.close()


def test_a_read_only_database_is_a_sentence(tmp_path: Path) -> None:
    store = open_store(tmp_path / "classes.sqlite3")
    store.add_class(codes_assignment("4a", PETER))
    _limit(store, "PRAGMA query_only = ON")
    with pytest.raises(StoreError, match=r"is read-only \(the file, its folder or its disk\): "):
        store.join("4a", "Ana", "ana", now=0.0)
    assert [a.name for a in store.classes()] == ["4a"]  # reading still works
    store.close()


@pytest.mark.parametrize(
    ("number", "sentence"),
    [
        (errno.ENOSPC, "the disk is full"),
        (errno.EROFS, "read-only"),
        (errno.EACCES, "read-only"),
    ],
)
def test_a_file_system_error_is_a_sentence(number: int, sentence: str) -> None:
    error = storage_error(OSError(number, os.strerror(number)), "/media/stick/classes.sqlite3")
    assert sentence in str(error)


def test_a_folder_that_cannot_be_made_is_a_sentence(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("a file where the folder should be")
    with pytest.raises(StoreError, match="Cannot use the class database"):
        open_store(blocker / "classes.sqlite3")


# ------------------------------------------------------------------------ PostgreSQL
@pytest.mark.postgres
def test_a_postgresql_database_of_another_program_is_not_taken_over(
    fresh_postgres_url: str,
) -> None:
    engine = sa.create_engine(fresh_postgres_url)
    with engine.begin() as connection:
        connection.execute(sa.text("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)"))
    with pytest.raises(StoreError, match="another program's database"):
        open_store(fresh_postgres_url)
    with engine.connect() as connection:
        tables = set(sa.inspect(connection).get_table_names())
    engine.dispose()
    assert tables == {"users"}


@pytest.mark.postgres
def test_a_postgresql_database_of_a_newer_version_is_refused(fresh_postgres_url: str) -> None:
    open_store(fresh_postgres_url).close()
    engine = sa.create_engine(fresh_postgres_url)
    with engine.begin() as connection:
        connection.execute(sa.text("UPDATE alembic_version SET version_num = '9f3e1c'"))
    engine.dispose()
    with pytest.raises(StoreError, match="newer version"):
        open_store(fresh_postgres_url)


@pytest.mark.postgres
def test_a_postgresql_server_that_does_not_answer_is_a_sentence_without_the_password() -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    with pytest.raises(StoreError) as caught:
        open_store(f"postgresql://teacher:hunter2@127.0.0.1:{port}/classes?connect_timeout=2")
    assert "Cannot use the class database" in str(caught.value)
    assert "hunter2" not in str(caught.value)
