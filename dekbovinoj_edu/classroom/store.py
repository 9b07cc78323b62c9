"""The progress store: classes, students' places and every attempt, in SQLite.

:class:`ProgressStore` is the small interface the rest of class mode uses;
:class:`SQLiteStore` keeps it in one SQLite file (standard library
:mod:`sqlite3`) in WAL mode, so the student kernels of a class write at the
same time while the teacher's view reads. A write waits for a busy database
(busy timeout, then bounded retries) instead of failing; only after
:data:`WRITE_PATIENCE` seconds does it give up, with a sentence, never with
"database is locked". The schema is versioned (:mod:`.schema`).

A class that spans several machines needs a database server instead of the
file: a second class implementing :class:`ProgressStore` (say over PostgreSQL
with psycopg), the same three tables (:mod:`.schema`'s SQL is portable but for
the id column), :meth:`~SQLiteStore.join` as one transaction that locks the
seat's row (``SELECT … FOR UPDATE``), :func:`open_store` choosing it for a
``postgresql://`` address, and credentials and TLS for the connection; and the
privacy notes change, since the rows then leave the teacher's computer.

>>> from dekbovinoj_edu.classroom.assignment import codes_assignment
>>> store = SQLiteStore(":memory:")
>>> store.add_class(codes_assignment("4a", "68VN-AV66-GGK"))
>>> [a.name for a in store.classes()]
['4a']
>>> seat = store.join("4a", "Ana", session="s1", now=100.0, live=20.0)
>>> seat.puzzle, seat.hints
(1, 0)
>>> store.join("4a", "ana", session="s2", now=105.0, live=20.0)
Traceback (most recent call last):
...
dekbovinoj_edu.classroom.errors.NicknameTakenError: The nickname 'ana' is taken ...
>>> store.join("4a", "ana", session="s2", now=200.0, live=20.0).nickname  # Ana came back
'Ana'
>>> store.forget("4a")
0
"""

from __future__ import annotations

import os
import random
import sqlite3
import threading
import time
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import astuple, dataclass, replace
from pathlib import Path
from typing import Protocol, TypeVar

from .assignment import Assignment
from .attempts import CSV_COLUMNS, Attempt, utc_now
from .errors import ClassExistsError, NicknameTakenError, StoreError, UnknownClassError
from .schema import migrate

__all__ = [
    "CLASS_ENV",
    "DB_ENV",
    "WRITE_PATIENCE",
    "ProgressStore",
    "SQLiteStore",
    "Seat",
    "default_db_path",
    "nickname_key",
    "open_store",
]

CLASS_ENV = "DEKBOVINOJ_CLASS"
"""The environment variable ``dekbovinoj serve --class NAME`` passes the class name in."""

DB_ENV = "DEKBOVINOJ_DB"
"""An environment variable that, when set, names the database file instead of the default."""

BUSY_TIMEOUT_MS = 5_000
"""How long SQLite itself waits for a lock before reporting "busy"."""

WRITE_PATIENCE = 60.0
"""Seconds a write keeps retrying a busy database before it gives up with a message."""

T = TypeVar("T")


@dataclass(frozen=True)
class Seat:
    """Where one student of a class is: the puzzle they are on, and since when."""

    class_name: str
    nickname: str
    """As the student typed it (unique in the class, ignoring case)."""
    session: str
    """The screen that holds the nickname now (a random id per page)."""
    puzzle: int
    """The puzzle they are on, from 1; one more than the count when they have finished."""
    started: float
    """When they first saw this puzzle (seconds since the epoch)."""
    hints: int
    """Hints used on this puzzle so far."""
    last_seen: float
    """Their screen's last sign of life (seconds since the epoch)."""
    joined: str
    """When they first joined (ISO 8601 UTC)."""


class ProgressStore(Protocol):
    """What class mode needs from a store. A shared database server can replace the file
    by implementing these methods (see :class:`SQLiteStore` for their meaning)."""

    def add_class(self, assignment: Assignment) -> None: ...
    def assignment(self, name: str) -> Assignment: ...
    def classes(self) -> list[Assignment]: ...
    def forget(self, name: str) -> int: ...
    def join(self, name: str, nickname: str, session: str, now: float, live: float) -> Seat: ...
    def save_seat(self, seat: Seat) -> None: ...
    def seats(self, name: str) -> list[Seat]: ...
    def record(self, attempt: Attempt) -> None: ...
    def attempts(self, name: str, nickname: str | None = None) -> list[Attempt]: ...
    def close(self) -> None: ...


def nickname_key(nickname: str) -> str:
    """What makes two nicknames the same: ``Ana`` and ``ANA`` are one student.

    >>> nickname_key("  Ana ") == nickname_key("ANA")
    True
    """
    return unicodedata.normalize("NFKC", nickname.strip()).casefold()


def default_db_path() -> Path:
    """The database file: ``$DEKBOVINOJ_DB`` if set, else ``classes.sqlite3`` in the user's
    data directory (``~/.local/share/dekbovinoj`` on Linux)."""
    chosen = os.environ.get(DB_ENV)
    if chosen:
        return Path(chosen)
    import platformdirs

    return Path(platformdirs.user_data_dir("dekbovinoj", appauthor=False)) / "classes.sqlite3"


def open_store(path: str | os.PathLike[str] | None = None) -> SQLiteStore:
    """The store in ``path``, or in :func:`default_db_path` (made if missing)."""
    return SQLiteStore(default_db_path() if path is None else path)


def _busy(error: sqlite3.OperationalError) -> bool:
    text = str(error).lower()
    return "locked" in text or "busy" in text


class SQLiteStore:
    """The progress store in one SQLite file (WAL mode); safe to share between threads."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            folder = Path(self.path).parent
            if not folder.exists():
                folder.mkdir(parents=True, mode=0o700)
        self._lock = threading.RLock()
        try:
            self._db = sqlite3.connect(
                self.path,
                timeout=BUSY_TIMEOUT_MS / 1000,
                isolation_level=None,
                check_same_thread=False,
            )
            self._retry(self._prepare)
        except sqlite3.DatabaseError as error:
            raise StoreError(
                "Cannot use the class database {path}: {problem}", path=self.path, problem=error
            ) from error

    def _prepare(self) -> None:
        self._db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS:d}")
        self._db.execute("PRAGMA foreign_keys = ON")
        self._db.execute("PRAGMA secure_delete = ON")  # forgotten rows are overwritten
        mode = self._db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if self.path != ":memory:" and str(mode).lower() != "wal":
            raise sqlite3.OperationalError(f"database is locked (journal mode {mode})")
        self._db.execute("PRAGMA synchronous = NORMAL")
        migrate(self._db)

    # ------------------------------------------------------------ plumbing
    def _retry(self, work: Callable[[], T]) -> T:
        """Run ``work``, again after a short random pause while the database is busy."""
        deadline = time.monotonic() + WRITE_PATIENCE
        pause = 0.01
        while True:
            try:
                with self._lock:
                    return work()
            except sqlite3.OperationalError as error:
                if not _busy(error):
                    raise StoreError(
                        "Cannot use the class database {path}: {problem}",
                        path=self.path,
                        problem=error,
                    ) from error
                if time.monotonic() > deadline:
                    raise StoreError(
                        "The class database is busy: try again in a moment."
                    ) from error
                time.sleep(pause * random.uniform(0.5, 1.5))
                pause = min(pause * 2, 0.5)

    @contextmanager
    def _writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (taken at once, so two writers never deadlock)."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        def attempt() -> T:
            with self._writing() as db:
                return work(db)

        return self._retry(attempt)

    def _read(self, sql: str, *values: object) -> list[tuple[object, ...]]:
        return self._retry(lambda: self._db.execute(sql, values).fetchall())

    def close(self) -> None:
        """Close the file (the store cannot be used afterwards)."""
        with self._lock:
            self._db.close()

    # ------------------------------------------------------------- classes
    def add_class(self, assignment: Assignment) -> None:
        """Keep a new class's assignment; ``ClassExistsError`` if the name is taken."""

        def add(db: sqlite3.Connection) -> None:
            if db.execute("SELECT 1 FROM classes WHERE name = ?", (assignment.name,)).fetchone():
                raise ClassExistsError(
                    "A class named {name!r} exists already: pick another name, or forget it first.",
                    name=assignment.name,
                )
            a = assignment
            db.execute(
                "INSERT INTO classes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    a.name,
                    a.mode,
                    ",".join(a.codes),
                    a.level,
                    a.count,
                    a.seed,
                    a.difficulty,
                    a.mu,
                    utc_now(),
                ),
            )

        self._write(add)

    @staticmethod
    def _assignment(row: tuple[object, ...]) -> Assignment:
        name, mode, codes, level, count, seed, difficulty, mu = row
        return Assignment(
            str(name),
            tuple(str(codes).split(",")),
            str(mode),
            level=None if level is None else str(level),
            count=None if count is None else int(str(count)),
            seed=None if seed is None else str(seed),
            difficulty=None if difficulty is None else str(difficulty),
            mu=None if mu is None else float(str(mu)),
        )

    _CLASS_COLUMNS = "name, mode, codes, level, count, seed, difficulty, mu"

    def assignment(self, name: str) -> Assignment:
        """The assignment of class ``name``; ``UnknownClassError`` if there is none."""
        rows = self._read(f"SELECT {self._CLASS_COLUMNS} FROM classes WHERE name = ?", name)
        if not rows:
            raise UnknownClassError("Unknown class {name!r}.", name=name)
        return self._assignment(rows[0])

    def classes(self) -> list[Assignment]:
        """Every class, by name."""
        rows = self._read(f"SELECT {self._CLASS_COLUMNS} FROM classes ORDER BY name")
        return [self._assignment(row) for row in rows]

    def forget(self, name: str) -> int:
        """Delete class ``name``, its students and every attempt; returns the attempts deleted."""

        def delete(db: sqlite3.Connection) -> int:
            if not db.execute("SELECT 1 FROM classes WHERE name = ?", (name,)).fetchone():
                raise UnknownClassError("Unknown class {name!r}.", name=name)
            gone = db.execute("DELETE FROM attempts WHERE class = ?", (name,)).rowcount
            db.execute("DELETE FROM seats WHERE class = ?", (name,))
            db.execute("DELETE FROM classes WHERE name = ?", (name,))
            return int(gone)

        deleted = self._write(delete)
        # Leave no copy of the rows in the write-ahead log either.
        self._retry(lambda: self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall())
        return deleted

    # -------------------------------------------------------------- seats
    _SEAT_COLUMNS = "class, nickname, session, puzzle, started, hints, last_seen, joined"

    @staticmethod
    def _seat(row: tuple[object, ...]) -> Seat:
        name, nickname, session, puzzle, started, hints, last_seen, joined = row
        return Seat(
            str(name),
            str(nickname),
            str(session),
            int(str(puzzle)),
            float(str(started)),
            int(str(hints)),
            float(str(last_seen)),
            str(joined),
        )

    def join(self, name: str, nickname: str, session: str, now: float, live: float) -> Seat:
        """Give ``nickname`` in class ``name`` to the screen ``session``.

        A new nickname gets a seat at puzzle 1. A known one comes back to where
        it was, unless another screen showed a sign of life in the last
        ``live`` seconds: then it is taken (``NicknameTakenError``).
        """

        def take(db: sqlite3.Connection) -> Seat:
            if not db.execute("SELECT 1 FROM classes WHERE name = ?", (name,)).fetchone():
                raise UnknownClassError("Unknown class {name!r}.", name=name)
            key = nickname_key(nickname)
            row = db.execute(
                f"SELECT {self._SEAT_COLUMNS} FROM seats WHERE class = ? AND key = ?", (name, key)
            ).fetchone()
            if row is None:
                seat = Seat(name, nickname.strip(), session, 1, now, 0, now, utc_now())
                db.execute(
                    "INSERT INTO seats (class, key, nickname, session, puzzle, started, hints, "
                    "last_seen, joined) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (name, key, *astuple(seat)[1:]),
                )
                return seat
            seat = self._seat(row)
            if seat.session != session and now - seat.last_seen < live:
                raise NicknameTakenError(
                    "The nickname {nickname!r} is taken in this class: choose another one. "
                    "(If it is yours, on a screen you closed, wait {seconds} seconds and press "
                    "Join again.)",
                    nickname=nickname.strip(),
                    seconds=round(live),
                )
            seat = replace(seat, session=session, last_seen=now)
            db.execute(
                "UPDATE seats SET session = ?, last_seen = ? WHERE class = ? AND key = ?",
                (session, now, name, key),
            )
            return seat

        return self._write(take)

    def save_seat(self, seat: Seat) -> None:
        """Keep where the student is now (their puzzle, its start, hints, last sign of life)."""

        def save(db: sqlite3.Connection) -> None:
            db.execute(
                "UPDATE seats SET puzzle = ?, started = ?, hints = ?, last_seen = ? "
                "WHERE class = ? AND key = ? AND session = ?",
                (
                    seat.puzzle,
                    seat.started,
                    seat.hints,
                    seat.last_seen,
                    seat.class_name,
                    nickname_key(seat.nickname),
                    seat.session,
                ),
            )

        self._write(save)

    def seats(self, name: str) -> list[Seat]:
        """Every student of class ``name``, in the order they joined."""
        rows = self._read(
            f"SELECT {self._SEAT_COLUMNS} FROM seats WHERE class = ? ORDER BY joined, rowid", name
        )
        return [self._seat(row) for row in rows]

    # ----------------------------------------------------------- attempts
    _ATTEMPT_COLUMNS = ", ".join(CSV_COLUMNS)
    _RECORD = (
        f"INSERT INTO attempts ({_ATTEMPT_COLUMNS}) VALUES ({', '.join('?' * len(CSV_COLUMNS))})"
    )

    def record(self, attempt: Attempt) -> None:
        """Keep one attempt (one row)."""
        self._write(lambda db: db.execute(self._RECORD, astuple(attempt)))

    def attempts(self, name: str, nickname: str | None = None) -> list[Attempt]:
        """Every attempt in class ``name`` (of one student if ``nickname``), oldest first."""
        columns = self._ATTEMPT_COLUMNS
        if nickname is None:
            rows = self._read(f"SELECT {columns} FROM attempts WHERE class = ? ORDER BY id", name)
        else:
            rows = self._read(
                f"SELECT {columns} FROM attempts WHERE class = ? AND nickname = ? ORDER BY id",
                name,
                nickname,
            )
        return [Attempt(*row) for row in rows]  # type: ignore[arg-type]
