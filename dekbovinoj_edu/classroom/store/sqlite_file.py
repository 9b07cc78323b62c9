"""Whether a SQLite file is a class database, read without changing it: its header, the quick
check, its tables and its revision (the first version's file by its columns).

>>> _first_problem(["ok"])
'ok'
"""

from __future__ import annotations

import sqlite3
import urllib.parse
from pathlib import Path

from ..errors import StoreError
from .failures import busy, storage_error
from .tables import HEAD_REVISION, metadata

__all__ = [
    "BUSY_TIMEOUT_MS",
    "FIRST_VERSION_COLUMNS",
    "OURS",
    "REVISIONS",
    "foreign",
    "inspect_sqlite_file",
    "newer",
]

BUSY_TIMEOUT_MS = 5_000
"""How long SQLite itself waits for a lock before reporting "busy"."""


REVISIONS = ("0001", "0002", "0003", "0004", "0005", "0006", "0007", HEAD_REVISION)
"""Every revision of :mod:`.migrations`, oldest first."""


OURS = frozenset({*metadata.tables, "alembic_version"})
"""The tables of a class database (those of :data:`~.tables.HEAD_REVISION`, and Alembic's)."""

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
            if mode is None or busy(error):
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
        raise foreign(where)
    if revision is not None and {"classes", "attempts"} <= tables:
        if revision in REVISIONS:
            return revision
        raise newer(where, revision)
    if not ours:
        raise foreign(where)
    if revision is None and user_version > 1:
        raise newer(where, f"schema version {user_version}")
    if (
        revision is None
        and user_version == 1
        and set(FIRST_VERSION_COLUMNS) == tables
        and columns == FIRST_VERSION_COLUMNS
    ):
        return "0001"
    raise foreign(where)


def foreign(where: str) -> StoreError:
    return StoreError(
        "The file {where} is another program's database, not a class database: give another file.",
        where=where,
    )


def newer(where: str, revision: str) -> StoreError:
    return StoreError(
        "The class database {where} was made by a newer version of dekbovinoj_edu "
        "({revision}): update dekbovinoj_edu to use it.",
        where=where,
        revision=revision,
    )
