"""The progress store put together: :class:`SQLStore`, one implementation for SQLite and
PostgreSQL made of the store's parts (its classes, seats, attempts, the teacher's seat actions
and its learning), the :class:`ProgressStore` protocol class mode asks of a store, and
:func:`open_store`.

Each change is one transaction: joining takes the seat's row (``BEGIN IMMEDIATE`` in SQLite,
a row lock in PostgreSQL), recording an attempt is idempotent by its id (unique in its class)
and moves the seat on in the same transaction. A busy database is waited for (up to
:data:`~.database.WRITE_PATIENCE` seconds), never "database is locked"; every failure is a
:class:`~..errors.StoreError` with a sentence.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Protocol

from sqlalchemy.dialects import postgresql, sqlite

from ...dealing.learner import Learner, PuzzleRating
from ...rules.puzzle import Puzzle
from ..assignment import Assignment
from ..attempts import Attempt
from ..progress import Progress
from ..roster import Roster
from ..seat import Joined, Recorded, Seat
from .attempt_rows import AttemptRows
from .class_rows import ClassRows
from .database import open_database
from .learning import Learning
from .read_only import open_for_reading
from .rows import ATTEMPTS
from .seat_actions import SeatActions
from .seat_rows import SeatRows
from .tables import attempts as attempts_table

__all__ = [
    "CLASS_ENV",
    "DB_ENV",
    "ProgressStore",
    "SQLStore",
    "SQLiteStore",
    "default_db_path",
    "open_store",
]

CLASS_ENV = "DEKBOVINOJ_CLASS"
"""The environment variable ``dekbovinoj serve --class NAME`` passes the class name in."""

DB_ENV = "DEKBOVINOJ_DB"
"""An environment variable that, when set, names the database (a file or an address)
instead of the default file."""


class ProgressStore(Protocol):
    """What class mode needs from a store (see :class:`SQLStore` for the meaning)."""

    def add_class(self, assignment: Assignment, roster: Roster | None = None) -> None: ...
    def assignment(self, name: str) -> Assignment: ...
    def classes(self) -> list[Assignment]: ...
    def forget(self, name: str) -> int: ...
    def rename_class(self, name: str, new_name: str) -> str: ...
    def end_class(self, name: str) -> str: ...
    def ended_classes(self) -> set[str]: ...
    def is_ended(self, name: str) -> bool: ...
    def roster(self, name: str) -> Roster | None: ...
    def set_roster(self, name: str, roster: Roster | None) -> str: ...
    def join(
        self,
        name: str,
        nickname: str,
        token: str,
        now: float,
        rejoin_code: str | None = None,
        key: str | None = None,
        *,
        new_code: str | None = None,
        on_new_seat: Callable[[], None] | None = None,
    ) -> Joined: ...
    def join_vouched(
        self,
        name: str,
        nickname: str,
        token: str,
        now: float,
        *,
        on_new_seat: Callable[[], None] | None = None,
    ) -> Joined: ...
    def seat_of(self, name: str, token: str) -> Seat: ...
    def touch(self, name: str, token: str, now: float, hints: int | None = None) -> Seat: ...
    def leave(self, name: str, token: str) -> None: ...
    def record(
        self, name: str, token: str, attempt_id: str, attempt: Attempt, now: float
    ) -> Recorded: ...
    def seats(self, name: str) -> list[Seat]: ...
    def attempts(self, name: str, nickname: str | None = None) -> list[Attempt]: ...
    def attempts_since(self, name: str, after: int = 0) -> list[tuple[int, Attempt]]: ...
    def release_seat(self, name: str, nickname: str) -> str: ...
    def reset_seat(self, name: str, nickname: str, *, now: float | None = None) -> None: ...
    def remove_seat(self, name: str, nickname: str) -> None: ...
    def remove_new_seats(self, name: str, nicknames: Sequence[str], since: str) -> list[str]: ...
    def merge_seats(self, name: str, source: str, into: str) -> None: ...
    def learner(self, name: str, nickname: str) -> Learner: ...
    def puzzle_rating(self, puzzle: Puzzle) -> PuzzleRating: ...
    def deal_to(self, name: str, nickname: str, number: int, code: str) -> Seat: ...
    def progress(self, name: str, level: str, now: float | None = None) -> dict[str, Progress]: ...
    def learnt(self) -> None: ...
    def close(self) -> None: ...


def default_db_path() -> Path:
    """The database file: ``$DEKBOVINOJ_DB`` if set, else ``classes.sqlite3`` in the user's
    data directory (``~/.local/share/dekbovinoj`` on Linux)."""
    chosen = os.environ.get(DB_ENV)
    if chosen:
        return Path(chosen)
    import platformdirs

    return Path(platformdirs.user_data_dir("dekbovinoj", appauthor=False)) / "classes.sqlite3"


def open_store(where: str | os.PathLike[str] | None = None, *, read_only: bool = False) -> SQLStore:
    """The store at ``where``: a file path, ``sqlite:///FILE`` or ``postgresql://…``; the
    :func:`default_db_path` file when ``None``. Made and migrated if needed; ``read_only``:
    only to be read, so a file that cannot be written is read all the same and nothing is
    changed (:mod:`.read_only`)."""
    if where is None:
        chosen = os.environ.get(DB_ENV)
        where = chosen if chosen and "://" in chosen else default_db_path()
    return SQLStore(where, read_only=read_only)


class SQLStore(ClassRows, SeatRows, AttemptRows, SeatActions, Learning):
    """The progress store in a SQLite file, in memory (``":memory:"``) or in PostgreSQL;
    safe to share between the threads of one process, and between processes."""

    def __init__(self, where: str | os.PathLike[str], *, read_only: bool = False) -> None:
        self.database = open_for_reading(where) if read_only else open_database(where)
        self.where = self.database.where
        self._postgresql = self.database.dialect == "postgresql"
        insert = postgresql.insert if self._postgresql else sqlite.insert
        self._insert_attempt = (
            insert(attempts_table)
            .on_conflict_do_nothing(index_elements=["class", "attempt_id"])
            .returning(ATTEMPTS.id)
        )
        self._start_learning(insert)

    def close(self) -> None:
        """Close the database, once every answer recorded has taught the model (the store
        cannot be used afterwards)."""
        self._stop_learning()
        self.database.close()


class SQLiteStore(SQLStore):
    """The progress store in one SQLite file (or ``":memory:"``): a :class:`SQLStore`."""
