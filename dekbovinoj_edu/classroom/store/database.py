"""Opening the progress store's database: where it is, whether it is ours and whole, its
migrations, and the sentence for each way storage fails.

:func:`open_database` takes a file path, ``sqlite:///…``, ``sqlite://`` (in
memory) or ``postgresql://…`` and gives a :class:`Database`: the SQLAlchemy
engine, set up for one process with threads (SQLite in WAL mode with
``synchronous=FULL``, so a commit acknowledged survives a power cut; PostgreSQL through
psycopg 3 with a small pool).

Before a SQLite file is used it is checked, read-only: an empty or garbage
file, a damaged one (``PRAGMA quick_check``), another program's database, or
one at a revision this version does not know is refused with one sentence
(:class:`~.errors.StoreError`) and left exactly as it was. A file of the first
version (``PRAGMA user_version`` 1, no ``alembic_version``) is migrated in
place, every row kept. A new file is made whole beside its place and linked
in, ``0600`` in a folder made ``0700``.

>>> database = open_database("sqlite://")
>>> database.dialect, revision_of(database)
('sqlite', '0008')
>>> database.close()
"""

from __future__ import annotations

import errno
import os
import sqlite3
import threading
import time
import urllib.parse
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy import event, exc
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.pool import StaticPool

from ..errors import ClassroomError, StoreError
from .failures import busy, describe, storage_error
from .group_commit import GroupCommit
from .migrating import migrate, revision_of
from .shares import refuse_share
from .sqlite_file import BUSY_TIMEOUT_MS, OURS, REVISIONS, foreign, inspect_sqlite_file, newer
from .tables import HEAD_REVISION

__all__ = [
    "BUSY_TIMEOUT_MS",
    "REVISIONS",
    "WRITE_PATIENCE",
    "Database",
    "describe",
    "inspect_sqlite_file",
    "migrate",
    "open_database",
    "revision_of",
    "sqlite_engine",
    "storage_error",
]

WRITE_PATIENCE = 60.0
"""Seconds a write keeps retrying a busy database before it gives up with a sentence."""


T = TypeVar("T")


@dataclass
class Database:
    """An open database: the engine, what to call it, and how writes are serialised."""

    engine: Engine
    where: str
    """The database as a person would name it (a path, or the address without password)."""
    dialect: str
    """``sqlite`` or ``postgresql``."""
    path: Path | None = None
    """The SQLite file (``None`` in memory and on PostgreSQL)."""
    writing: AbstractContextManager[Any] = field(default_factory=nullcontext)
    """Held around each write: a lock for SQLite (one writer a process; other processes wait
    on SQLite's own lock), nothing for PostgreSQL (its row locks)."""
    reading: AbstractContextManager[Any] = field(default_factory=nullcontext)
    """Held around each read (the one connection of an in-memory database)."""
    group: GroupCommit | None = None
    """A SQLite file's writes, committed in groups (one sync for the writes waiting at once);
    ``None``: each write its own transaction."""

    def close(self) -> None:
        """Close every connection (the last one leaves no write-ahead log behind)."""
        self.engine.dispose()

    def run(self, work: Callable[[Connection], T], *, write: bool, single: bool = False) -> T:
        """``work`` in one transaction, again after a pause while the database is busy (up
        to :data:`WRITE_PATIENCE` seconds); a database error becomes a ``StoreError``.

        ``single``: ``work`` runs one statement, which is its own transaction (autocommit:
        no ``BEGIN`` and ``COMMIT`` round trips). A connection the server dropped (it was
        restarted) is found when it is used, and the work runs once more on a new one: so
        ``work`` must be safe to run again, as every write of the store is (an attempt is
        kept once by its id)."""
        deadline = time.monotonic() + WRITE_PATIENCE
        pause = 0.005
        guard = self.writing if write else self.reading
        reconnected = False
        while True:
            try:
                if write and self.group is not None:
                    return self.group.run(work)
                with guard, self.engine.connect() as connection:
                    if write:
                        connection = connection.execution_options(dekbovinoj_write=True)
                    if single:
                        connection = connection.execution_options(isolation_level="AUTOCOMMIT")
                        return work(connection)
                    with connection.begin():
                        return work(connection)
            except ClassroomError:
                raise
            except (exc.DBAPIError, sqlite3.Error, OSError) as error:
                if _dropped(error) and not reconnected:
                    reconnected = True
                    continue
                if not busy(error) and not _retry_race(error, self.dialect):
                    raise storage_error(error, self.where) from error
                if time.monotonic() > deadline:
                    raise StoreError(
                        "The class database is busy: try again in a moment."
                    ) from error
                time.sleep(pause)
                pause = min(pause * 2, 0.25)


def _dropped(error: BaseException) -> bool:
    """The server closed a pooled connection (a restart): the pool has let it go already."""
    return isinstance(error, exc.DBAPIError) and error.connection_invalidated


def _retry_race(error: BaseException, dialect: str) -> bool:
    """Two PostgreSQL transactions inserted the same key at once: the loser runs again (and
    then finds the winner's row)."""
    cause = getattr(error, "orig", None)
    unique = getattr(cause, "sqlstate", None) == "23505"  # unique_violation
    return dialect == "postgresql" and isinstance(error, exc.IntegrityError) and unique


def open_database(where: str | os.PathLike[str]) -> Database:
    """The database at ``where`` (a path or an address), checked and migrated."""
    text = os.fspath(where)
    if text in (":memory:", "sqlite://", "sqlite:///:memory:"):
        return _memory()
    if text.startswith(("postgresql:", "postgresql+", "postgres:")):
        return _postgresql(text)
    if text.startswith("sqlite:///"):
        return _sqlite_file(Path(urllib.parse.unquote(text[len("sqlite:///") :])))
    if "://" in text:
        raise StoreError(
            "Unknown kind of database {where}: give a file, sqlite:///FILE or "
            "postgresql://USER@HOST/DATABASE.",
            where=describe(text),
        )
    return _sqlite_file(Path(text))


def sqlite_engine(url: str, **options: Any) -> Engine:
    """The engine of a SQLite database at ``url`` (``options`` go to SQLAlchemy): each
    connection set up the store's way, a write begun with ``BEGIN IMMEDIATE``."""
    engine = sa.create_engine(url, **options)

    @event.listens_for(engine, "connect")
    def prepare(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # transactions are begun below
        for pragma in (
            f"busy_timeout = {BUSY_TIMEOUT_MS:d}",
            "foreign_keys = ON",
            "secure_delete = ON",  # forgotten rows are overwritten
            "synchronous = FULL",  # a commit is on the disk before it is acknowledged
        ):
            dbapi_connection.execute(f"PRAGMA {pragma}")

    @event.listens_for(engine, "begin")
    def begin(connection: Connection) -> None:
        writing = connection.get_execution_options().get("dekbovinoj_write")
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writing else "BEGIN")

    return engine


def _memory() -> Database:
    engine = sqlite_engine(
        "sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False}
    )
    lock = threading.RLock()
    database = Database(engine, ":memory:", "sqlite", writing=lock, reading=lock)
    database.run(migrate, write=True)
    return database


def _file_engine(path: Path) -> Engine:
    return sqlite_engine(
        "sqlite+pysqlite:///" + str(path),
        pool_size=8,
        max_overflow=24,
        pool_reset_on_return=None,  # every use ends in its own commit or rollback (run)
        connect_args={"timeout": BUSY_TIMEOUT_MS / 1000, "check_same_thread": False},
    )


def _sqlite_file(path: Path) -> Database:
    where = str(path)
    refuse_share(path)
    try:
        if not path.exists():
            _create(path)
        revision = inspect_sqlite_file(path)
    except OSError as error:
        raise storage_error(error, where) from error
    engine, lock = _file_engine(path), threading.Lock()
    database = Database(engine, where, "sqlite", path, writing=lock)
    try:
        if revision != HEAD_REVISION:
            database.run(migrate, write=True)
        _wal(database.engine)
        _private(path)
        turns = path.with_name(path.name + "-lock")
        database.group = GroupCommit(engine, lock, turns, WRITE_PATIENCE)  # after migrating
    except sqlite3.Error as error:
        database.close()
        raise _file_failure(error, path) from error
    except BaseException:
        database.close()
        raise
    return database


def _file_failure(error: sqlite3.Error, path: Path) -> StoreError:
    """The sentence for ``error`` of the file ``path``: SQLite cannot open a file in WAL mode
    for writing ("unable to open") where it may not write beside it (a read-only disk or
    folder), which is said as the file being read-only."""
    cannot_write = not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK))
    if "unable to open" in str(error) and cannot_write:
        return storage_error(OSError(errno.EROFS, str(error)), str(path))
    return storage_error(error, str(path))


def _wal(engine: Engine) -> None:
    """Switch the file to WAL (once; it stays so), waiting while another process writes."""
    deadline = time.monotonic() + WRITE_PATIENCE
    while True:
        raw = engine.raw_connection()
        try:
            cursor = raw.cursor()
            mode = cursor.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            cursor.close()
        except sqlite3.OperationalError as error:
            if not busy(error) or time.monotonic() > deadline:
                raise
            mode = None
        finally:
            raw.close()
        if str(mode).lower() == "wal":
            return
        if time.monotonic() > deadline:
            raise sqlite3.OperationalError(f"database is locked (journal mode {mode})")
        time.sleep(0.05)


def _private(path: Path) -> None:
    """Only the owner may read the file."""
    try:
        if path.stat().st_mode & 0o077:
            path.chmod(0o600)
    except OSError:
        pass  # someone else's file we may use but not change


def _create(path: Path) -> None:
    """Make a new database at ``path``: whole (at the newest revision, in WAL mode) beside
    it, ``0600``, then linked in; if another process was quicker, its file stays."""
    folder = path.parent
    if not folder.exists():
        folder.mkdir(parents=True, mode=0o700)
    fresh = folder / f".{path.name}.{os.getpid()}.{threading.get_ident()}.new"
    os.close(os.open(fresh, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600))
    try:
        engine = _file_engine(fresh)
        try:
            made = Database(engine, str(path), "sqlite", fresh)
            made.run(migrate, write=True)
            _wal(engine)
        finally:
            engine.dispose()
        try:
            os.link(fresh, path)
        except FileExistsError:
            pass
        except OSError:  # no hard links here (a FAT stick, a share): rename if still free
            if not path.exists():
                os.rename(fresh, path)
    finally:
        for leftover in (fresh, Path(f"{fresh}-wal"), Path(f"{fresh}-shm")):
            leftover.unlink(missing_ok=True)


def _postgresql(url: str) -> Database:
    parsed = sa.make_url(url)
    if parsed.drivername in ("postgresql", "postgres"):
        parsed = parsed.set(drivername="postgresql+psycopg")
    where = parsed.render_as_string(hide_password=True)
    try:
        engine = sa.create_engine(parsed, pool_size=5, max_overflow=10, pool_reset_on_return=None)
    except (exc.ArgumentError, ImportError) as error:
        raise storage_error(error, where) from error
    database = Database(engine, where, "postgresql")
    try:
        database.run(_check_and_migrate_postgresql, write=True)
    except BaseException:
        database.close()
        raise
    return database


def _check_and_migrate_postgresql(connection: Connection) -> None:
    """Refuse another program's tables or a newer revision; migrate, one process at a time."""
    connection.exec_driver_sql("SELECT pg_advisory_xact_lock(2424)")
    tables = set(sa.inspect(connection).get_table_names())
    where = describe(str(connection.engine.url))
    revision = None
    if "alembic_version" in tables:
        revision = connection.exec_driver_sql("SELECT version_num FROM alembic_version").scalar()
    if tables and not ({"classes", "attempts"} <= tables and tables <= OURS):
        raise foreign(where)
    if tables and revision is None:
        raise foreign(where)
    if revision is not None and revision not in REVISIONS:
        raise newer(where, str(revision))
    if revision != HEAD_REVISION:
        migrate(connection)
