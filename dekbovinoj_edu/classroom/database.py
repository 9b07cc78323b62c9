"""Opening the progress store's database: where it is, whether it is ours and whole, its
migrations, and the sentence for each way storage fails.

:func:`open_database` takes a file path, ``sqlite:///…``, ``sqlite://`` (in
memory) or ``postgresql://…`` and gives a :class:`Database`: the SQLAlchemy
engine, set up for one process with threads (SQLite in WAL mode with
``synchronous=NORMAL``; PostgreSQL through psycopg 3 with a small pool).

Before a SQLite file is used it is checked, read-only: an empty or garbage
file, a damaged one (``PRAGMA quick_check``), another program's database, or
one at a revision this version does not know is refused with one sentence
(:class:`~.errors.StoreError`) and left exactly as it was. A file of the first
version (``PRAGMA user_version`` 1, no ``alembic_version``) is migrated in
place, every row kept. A new file is made whole beside its place and linked
in, ``0600`` in a folder made ``0700``.

>>> database = open_database("sqlite://")
>>> database.dialect, revision_of(database)
('sqlite', '0003')
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

from .errors import ClassroomError, StoreError
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
    "storage_error",
]

BUSY_TIMEOUT_MS = 5_000
"""How long SQLite itself waits for a lock before reporting "busy"."""

WRITE_PATIENCE = 60.0
"""Seconds a write keeps retrying a busy database before it gives up with a sentence."""

REVISIONS = ("0001", "0002", HEAD_REVISION)
"""Every revision of :mod:`.migrations`, oldest first."""

MIGRATIONS = Path(__file__).with_name("migrations")
"""Alembic's script folder, inside the package (so an installed wheel migrates too)."""

OURS = frozenset(
    {"classes", "seats", "attempts", "sessions", "abilities", "puzzle_ratings", "alembic_version"}
)
"""The tables of a class database."""

FIRST_VERSION_COLUMNS = {
    "classes": ["name", "mode", "codes", "level", "count", "seed", "difficulty", "mu", "created"],
    "seats": [
        "class",
        "key",
        "nickname",
        "session",
        "puzzle",
        "started",
        "hints",
        "last_seen",
        "joined",
    ],
    "attempts": [
        "id",
        "class",
        "nickname",
        "puzzle",
        "code",
        "answer",
        "verdict",
        "cards",
        "best",
        "hints",
        "seconds",
        "time",
    ],
}
"""The columns the first version's tables have, in order."""

SQLITE_HEADER = b"SQLite format 3\x00"

T = TypeVar("T")


# ------------------------------------------------------------------ the sentences
def describe(where: str | os.PathLike[str]) -> str:
    """How to name a database to a person: the path, or the address without its password."""
    text = os.fspath(where)
    if "://" not in text:
        return text
    try:
        return sa.make_url(text).render_as_string(hide_password=True)
    except exc.ArgumentError:
        return text.split("://", 1)[0] + "://…"


def storage_error(error: BaseException, where: str) -> StoreError:
    """The sentence for a database error or an ``OSError``: the disk is full, the file or
    folder is read-only, the file is damaged, or (otherwise) what the database said."""
    cause = getattr(error, "orig", None) or error
    text = str(cause).lower()
    state = getattr(cause, "sqlstate", None)
    number = getattr(cause, "errno", None)
    if "disk is full" in text or state == "53100" or number == errno.ENOSPC:
        return StoreError("The class database cannot be written: the disk is full.")
    if (
        "readonly" in text
        or "read-only" in text
        or state == "25006"
        or number in (errno.EROFS, errno.EACCES, errno.EPERM)
    ):
        return StoreError(
            "The class database cannot be written: the file or its folder is read-only."
        )
    if "malformed" in text or "not a database" in text:
        return StoreError(
            "The class database {where} is damaged ({problem}): use a copy from before, "
            "or another file.",
            where=where,
            problem=str(cause).strip().splitlines()[0],
        )
    problem = str(cause).strip().splitlines()[0] if str(cause).strip() else type(cause).__name__
    return StoreError(
        "Cannot use the class database {path}: {problem}", path=where, problem=problem
    )


def _busy(error: BaseException) -> bool:
    """Whether another writer holds the database for now (worth waiting for)."""
    cause = getattr(error, "orig", None) or error
    if getattr(cause, "sqlstate", None) in ("40001", "40P01"):  # serialization, deadlock
        return True
    text = str(cause).lower()
    return isinstance(cause, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


# --------------------------------------------------------------------- checking a file
def inspect_sqlite_file(path: Path) -> str | None:
    """What the SQLite file at ``path`` holds, read without changing it: ``None`` for a
    database with no tables, else its revision (``"0001"`` for the first version's file).
    ``StoreError`` for a file that is empty, no SQLite database, damaged, another program's,
    or at a revision this version does not know."""
    where = str(path)
    with path.open("rb") as file:
        header = file.read(len(SQLITE_HEADER))
    if header != SQLITE_HEADER:
        raise StoreError(
            "The file {where} is not a class database (it is empty, or not an SQLite "
            "database): give another file.",
            where=where,
        )
    quiet = not Path(f"{path}-wal").exists() and not Path(f"{path}-journal").exists()
    modes = ["immutable=1", "mode=ro", None] if quiet else ["mode=ro", None]
    for mode in modes:  # a torn read while another process writes: read again, with locks
        try:
            found = _examine(path, mode)
        except sqlite3.DatabaseError as error:
            if mode is None or _busy(error):
                raise storage_error(error, where) from error
            continue
        if found[0] == ["ok"] or mode is None:
            break
    checked, tables, user_version, revision, columns = found
    if checked != ["ok"]:
        raise StoreError(
            "The class database {where} is damaged ({problem}): use a copy from before, "
            "or another file.",
            where=where,
            problem=_first_problem(checked),
        )
    return _revision_from(where, tables, user_version, revision, columns)


def _first_problem(checked: list[str]) -> str:
    r"""The first problem ``PRAGMA quick_check`` reported, on one line (its rows may hold
    several, after a heading).

    >>> _first_problem(["*** in database main ***\nPage 112: btreeInitPage() error", "x"])
    'Page 112: btreeInitPage() error'
    """
    lines = [line.strip() for row in checked for line in row.splitlines() if line.strip()]
    found = [line for line in lines if not line.startswith("***")]
    return (found or lines or ["quick_check"])[0]


_Examined = tuple[list[str], set[str], int, "str | None", dict[str, list[str]]]


def _examine(path: Path, mode: str | None) -> _Examined:
    """What a connection opened with the URI ``mode`` (``immutable=1``: no locks and nothing
    made beside the file; ``mode=ro``: read-only with locks; ``None``: a plain connection, the
    last resort for a log whose index needs rebuilding) reads: the quick check, the tables,
    the user version, Alembic's revision and the first version's tables' columns."""
    if mode is None:
        db = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    else:
        uri = "file:" + urllib.parse.quote(str(path.resolve())) + "?" + mode
        db = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    try:
        checked = [str(row[0]) for row in db.execute("PRAGMA quick_check").fetchall()]
        tables = {
            str(row[0])
            for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if not str(row[0]).startswith("sqlite_")
        }
        user_version = int(db.execute("PRAGMA user_version").fetchone()[0])
        revision = None
        if "alembic_version" in tables:
            rows = db.execute("SELECT version_num FROM alembic_version").fetchall()
            revision = str(rows[0][0]) if rows else None
        columns = {
            table: [str(row[1]) for row in db.execute(f'PRAGMA table_info("{table}")')]
            for table in FIRST_VERSION_COLUMNS
            if table in tables
        }
    finally:
        db.close()
    return checked, tables, user_version, revision, columns


def _revision_from(
    where: str,
    tables: set[str],
    user_version: int,
    revision: str | None,
    columns: dict[str, list[str]],
) -> str | None:
    ours = {"classes", "attempts"} <= tables and tables <= OURS
    if not tables:
        if user_version == 0:
            return None
        raise _foreign(where)
    if revision is not None and {"classes", "attempts"} <= tables:
        if revision in REVISIONS:
            return revision
        raise _newer(where, revision)
    if not ours:
        raise _foreign(where)
    if revision is None and user_version > 1:
        raise _newer(where, f"schema version {user_version}")
    if (
        revision is None
        and user_version == 1
        and set(FIRST_VERSION_COLUMNS) == tables
        and columns == FIRST_VERSION_COLUMNS
    ):
        return "0001"
    raise _foreign(where)


def _foreign(where: str) -> StoreError:
    return StoreError(
        "The file {where} is another program's database, not a class database: give another file.",
        where=where,
    )


def _newer(where: str, revision: str) -> StoreError:
    return StoreError(
        "The class database {where} was made by a newer version of dekbovinoj_edu "
        "({revision}): update dekbovinoj_edu to use it.",
        where=where,
        revision=revision,
    )


# ------------------------------------------------------------------------ migrating
def revision_of(database: Database) -> str | None:
    """The revision the database is at (``None``: no tables yet)."""
    with database.engine.connect() as connection:
        return _current(connection)


def _current(connection: Connection) -> str | None:
    from alembic.migration import MigrationContext

    revision = MigrationContext.configure(connection).get_current_revision()
    if revision is not None:
        return revision
    tables = set(sa.inspect(connection).get_table_names())
    return "0001" if {"classes", "attempts"} <= tables else None


def migrate(connection: Connection, target: str = HEAD_REVISION) -> None:
    """Bring the database of ``connection`` (in a transaction) up to ``target`` (the newest
    revision): a first-version file is stamped ``0001`` first; then every missing revision
    runs. A ``target`` older than the database's revision (from ``0002`` on) migrates it back
    down, as far as that."""
    from alembic import command
    from alembic.config import Config
    from alembic.migration import MigrationContext
    from alembic.script import ScriptDirectory

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS).replace("%", "%%"))
    config.set_main_option("path_separator", "os")
    config.attributes["connection"] = connection
    context = MigrationContext.configure(connection)
    revision = context.get_current_revision()
    if revision is None and _current(connection) == "0001":
        context.stamp(ScriptDirectory.from_config(config), "0001")
        revision = "0001"
    if revision is not None and revision not in REVISIONS:
        raise _newer(describe(str(connection.engine.url)), revision)
    if revision is not None and REVISIONS.index(revision) > REVISIONS.index(target):
        command.downgrade(config, target)
    elif revision != target:
        command.upgrade(config, target)


# -------------------------------------------------------------------------- opening
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
                if not _busy(error) and not _retry_race(error, self.dialect):
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


def _sqlite_engine(url: str, **options: Any) -> Engine:
    engine = sa.create_engine(url, **options)

    @event.listens_for(engine, "connect")
    def prepare(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # transactions are begun below
        for pragma in (
            f"busy_timeout = {BUSY_TIMEOUT_MS:d}",
            "foreign_keys = ON",
            "secure_delete = ON",  # forgotten rows are overwritten
            "synchronous = NORMAL",
        ):
            dbapi_connection.execute(f"PRAGMA {pragma}")

    @event.listens_for(engine, "begin")
    def begin(connection: Connection) -> None:
        writing = connection.get_execution_options().get("dekbovinoj_write")
        connection.exec_driver_sql("BEGIN IMMEDIATE" if writing else "BEGIN")

    return engine


def _memory() -> Database:
    engine = _sqlite_engine(
        "sqlite://", poolclass=StaticPool, connect_args={"check_same_thread": False}
    )
    lock = threading.RLock()
    database = Database(engine, ":memory:", "sqlite", writing=lock, reading=lock)
    database.run(migrate, write=True)
    return database


def _file_engine(path: Path) -> Engine:
    return _sqlite_engine(
        "sqlite+pysqlite:///" + str(path),
        pool_size=8,
        max_overflow=24,
        pool_reset_on_return=None,  # every use ends in its own commit or rollback (run)
        connect_args={"timeout": BUSY_TIMEOUT_MS / 1000, "check_same_thread": False},
    )


def _sqlite_file(path: Path) -> Database:
    where = str(path)
    try:
        if not path.exists():
            _create(path)
        revision = inspect_sqlite_file(path)
    except OSError as error:
        raise storage_error(error, where) from error
    database = Database(_file_engine(path), where, "sqlite", path, writing=threading.Lock())
    try:
        if revision != HEAD_REVISION:
            database.run(migrate, write=True)
        _wal(database.engine)
        _private(path)
    except sqlite3.Error as error:
        database.close()
        raise storage_error(error, where) from error
    except BaseException:
        database.close()
        raise
    return database


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
            if not _busy(error) or time.monotonic() > deadline:
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
        raise _foreign(where)
    if tables and revision is None:
        raise _foreign(where)
    if revision is not None and revision not in REVISIONS:
        raise _newer(where, str(revision))
    if revision != HEAD_REVISION:
        migrate(connection)
