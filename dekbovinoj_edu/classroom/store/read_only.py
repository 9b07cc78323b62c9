"""Opening a class database only to read it (``class list``, ``class report``): a SQLite file
in SQLite's read-only mode, so a file, a folder or a disk that cannot be written is read all
the same, and nothing is changed (no migration, no write-ahead log made, no mode changed).

The file is opened with ``mode=ro``: read-only, with SQLite's locks, so a class service
writing it meanwhile is read safely. Where even that cannot work (the folder is read-only
and SQLite cannot make the index of the write-ahead log beside the file), a file with no
write-ahead log holds every row itself and is opened ``immutable=1``, without locks; one
whose log still holds rows is refused with a sentence, since nothing could read them. A file
at an earlier revision is brought up to date where it can be written, and refused with a
sentence where it cannot; a file that is not there is an empty store (nothing is made).
PostgreSQL is opened as :func:`~.database.open_database` opens it.

>>> import pathlib, tempfile
>>> missing = pathlib.Path(tempfile.mkdtemp()) / "none.sqlite3"
>>> open_for_reading(missing).dialect, missing.exists()
('sqlite', False)
"""

from __future__ import annotations

import os
import sqlite3
import urllib.parse
from pathlib import Path

from sqlalchemy.engine import Engine
from sqlalchemy.pool import NullPool

from ..errors import StoreError
from .database import Database, open_database, sqlite_engine
from .failures import is_read_only, storage_error
from .shares import refuse_share
from .sqlite_file import BUSY_TIMEOUT_MS, inspect_sqlite_file
from .tables import HEAD_REVISION

__all__ = ["open_for_reading"]


def _sqlite_path(text: str) -> Path | None:
    """The SQLite file ``text`` names, or ``None`` (in memory, or PostgreSQL)."""
    if text in (":memory:", "sqlite://", "sqlite:///:memory:"):
        return None
    if text.startswith("sqlite:///"):
        return Path(urllib.parse.unquote(text[len("sqlite:///") :]))
    return None if "://" in text else Path(text)


def open_for_reading(where: str | os.PathLike[str]) -> Database:
    """The database at ``where``, opened to be read only (see above)."""
    path = _sqlite_path(os.fspath(where))
    if path is None:
        return open_database(where)
    if not path.exists():
        return open_database(":memory:")
    refuse_share(path)
    mode = _mode(path)
    revision = inspect_sqlite_file(path)
    if revision != HEAD_REVISION:
        try:
            return open_database(path)  # brought up to date, where it can be written
        except StoreError as refused:
            if not is_read_only(refused):
                raise
            raise StoreError(
                "The class database {where} was made by an earlier version and is read-only "
                "here, so it cannot be brought up to date: copy it to a folder you may write "
                "to, and read it there.",
                where=str(path),
            ) from refused
    return Database(_engine(path, mode), str(path), "sqlite", path)


def _uri(path: Path, mode: str) -> str:
    return "file:" + urllib.parse.quote(str(path.resolve())) + "?" + mode


def _mode(path: Path) -> str:
    """``mode=ro`` if SQLite can read the file so (or fails for another reason, which
    :func:`~.sqlite_file.inspect_sqlite_file` then says), else ``immutable=1`` for a file
    whose write-ahead log holds nothing; else the sentence that says why it cannot be read."""
    try:
        probe = sqlite3.connect(_uri(path, "mode=ro"), uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
        try:
            probe.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            probe.close()
        return "mode=ro"
    except sqlite3.Error as error:
        cannot_open = "unable to open" in str(error)
        if not (cannot_open or is_read_only(storage_error(error, str(path)))):
            return "mode=ro"
    log = Path(f"{path}-wal")
    if log.exists() and log.stat().st_size > 0:
        raise StoreError(
            "The class database {where} is read-only and its newest rows wait in its "
            "write-ahead log ({log}), which only a program that may write beside it can "
            "read: copy both files to a folder you may write to.",
            where=str(path),
            log=str(log),
        )
    return "immutable=1"


def _engine(path: Path, mode: str) -> Engine:
    uri = _uri(path, mode)
    return sqlite_engine(
        "sqlite+pysqlite://",
        creator=lambda: sqlite3.connect(uri, uri=True, check_same_thread=False),
        poolclass=NullPool,
    )
