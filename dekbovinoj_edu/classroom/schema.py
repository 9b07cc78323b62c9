"""The progress store's SQLite schema, one migration a version, applied in order.

The database's ``PRAGMA user_version`` is the number of migrations it has
had. Opening a store brings it up to :data:`SCHEMA_VERSION` in one
transaction; a file from a newer version of this package is refused rather
than changed. The ``attempts`` table has an ``id`` and then one column for
each field of :class:`~.attempts.Attempt`, in order (:data:`~.attempts.CSV_COLUMNS`):
a new field needs a migration that adds its column.

>>> import sqlite3
>>> db = sqlite3.connect(":memory:", isolation_level=None)
>>> migrate(db), migrate(db)
(1, 1)
>>> sorted(row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'"))
['attempts', 'classes', 'seats']
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence

from .errors import StoreError

__all__ = ["MIGRATIONS", "SCHEMA_VERSION", "migrate", "version_of"]

MIGRATIONS: tuple[str, ...] = (
    # 1: classes and their assignments, the students' seats, one row per attempt.
    """
    CREATE TABLE classes (
        name TEXT PRIMARY KEY,
        mode TEXT NOT NULL,
        codes TEXT NOT NULL,
        level TEXT,
        count INTEGER,
        seed TEXT,
        difficulty TEXT,
        mu REAL,
        created TEXT NOT NULL
    );
    CREATE TABLE seats (
        class TEXT NOT NULL REFERENCES classes (name) ON DELETE CASCADE,
        key TEXT NOT NULL,
        nickname TEXT NOT NULL,
        session TEXT NOT NULL,
        puzzle INTEGER NOT NULL,
        started REAL NOT NULL,
        hints INTEGER NOT NULL,
        last_seen REAL NOT NULL,
        joined TEXT NOT NULL,
        PRIMARY KEY (class, key)
    );
    CREATE TABLE attempts (
        id INTEGER PRIMARY KEY,
        class TEXT NOT NULL REFERENCES classes (name) ON DELETE CASCADE,
        nickname TEXT NOT NULL,
        puzzle INTEGER NOT NULL,
        code TEXT NOT NULL,
        answer TEXT NOT NULL,
        verdict TEXT NOT NULL,
        cards INTEGER NOT NULL,
        best INTEGER NOT NULL,
        hints INTEGER NOT NULL,
        seconds REAL NOT NULL,
        time TEXT NOT NULL
    );
    CREATE INDEX attempts_of_class ON attempts (class, id);
    """,
)
"""The SQL of each version, oldest first: migration ``n`` takes version ``n - 1`` to ``n``."""

SCHEMA_VERSION = len(MIGRATIONS)
"""The version this package writes."""


def version_of(db: sqlite3.Connection) -> int:
    """The schema version a database has (0 for a new, empty file)."""
    return int(db.execute("PRAGMA user_version").fetchone()[0])


def migrate(db: sqlite3.Connection, migrations: Sequence[str] = MIGRATIONS) -> int:
    """Bring ``db`` (in autocommit mode) up to ``len(migrations)``; returns the version.

    Every missing migration runs in one write transaction, so two processes
    opening a new file at once migrate it once. ``StoreError`` for a newer file.
    """
    if version_of(db) == len(migrations):
        return len(migrations)
    db.execute("BEGIN IMMEDIATE")
    try:
        found = version_of(db)
        if found > len(migrations):
            raise StoreError(
                "The class database has schema version {found}; this program knows up to "
                "{known}. Update dekbovinoj_edu.",
                found=found,
                known=len(migrations),
            )
        for version in range(found, len(migrations)):
            for statement in migrations[version].split(";"):
                if statement.strip():
                    db.execute(statement)
            db.execute(f"PRAGMA user_version = {version + 1:d}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise
    return len(migrations)
