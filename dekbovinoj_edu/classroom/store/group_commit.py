"""Group commit: the writes that wait at once go to SQLite in one transaction, synced once.

With ``synchronous=FULL`` each commit waits for the disk (an ``fdatasync`` of the write-ahead
log, about 2 ms on a laptop's SSD), so one commit a write caps a class at a few hundred
writes a second however fast the rest is. Here a write joins a queue and waits for the
process's write lock; whoever gets the lock takes every write queued by then, runs each in
its own savepoint of one ``BEGIN IMMEDIATE`` transaction (a write alone in the
transaction itself), commits once, and hands each write
its result. A write that fails (a refusal of the store, a constraint) is rolled back to its
savepoint alone and raised to its caller only; no write is acknowledged before the commit
that holds it is on the disk.

>>> import sqlalchemy as sa, threading
>>> engine = sa.create_engine("sqlite://")
>>> with engine.begin() as c:
...     _ = c.exec_driver_sql("CREATE TABLE t (x INTEGER UNIQUE)")
>>> group = GroupCommit(engine, threading.Lock())
>>> group.run(lambda c: c.exec_driver_sql("INSERT INTO t VALUES (1)").rowcount)
1
>>> group.run(lambda c: c.exec_driver_sql("INSERT INTO t VALUES (1)"))
Traceback (most recent call last):
...
sqlalchemy.exc.IntegrityError: (sqlite3.IntegrityError) UNIQUE constraint failed: t.x
...
>>> with engine.connect() as c:
...     c.exec_driver_sql("SELECT count(*) FROM t").scalar()
1
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any, Generic, TypeVar

from sqlalchemy.engine import Connection, Engine

from ..errors import StoreError

__all__ = ["MAX_BATCH", "TURN_PAUSE", "GroupCommit"]

T = TypeVar("T")

MAX_BATCH = 256
"""The most writes one transaction takes (the rest go in the next one)."""


@dataclass
class _Write(Generic[T]):
    """One caller's write, and what became of it."""

    work: Callable[[Connection], T]
    done: bool = False
    value: Any = None
    error: BaseException | None = None
    queued: float = field(default_factory=time.monotonic)


TURN_PAUSE = 0.0005
"""Seconds between two looks at a turn another process holds."""


class _FileTurns:
    """Turns between processes: an exclusive ``flock`` on ``path`` (made 0600 if missing),
    held while a group is written; nothing where the system has no ``flock`` (Windows). A
    turn not had within ``patience`` seconds (another process stopped while it wrote) is the
    busy database's ``StoreError``, never a wait without end."""

    def __init__(self, path: Path, patience: float) -> None:
        self.path = path
        self.patience = patience
        self._descriptor: int | None = None

    def __enter__(self) -> None:
        try:
            import fcntl
        except ImportError:  # no flock: SQLite's own wait alone
            return
        descriptor = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        deadline = time.monotonic() + self.patience
        while True:
            try:
                fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    os.close(descriptor)
                    raise StoreError("The class database is busy: try again in a moment.") from None
                time.sleep(TURN_PAUSE)
        self._descriptor = descriptor

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._descriptor is not None:
            os.close(self._descriptor)  # closing lets the lock go
            self._descriptor = None


class GroupCommit:
    """The writes of one process's threads to one SQLite file, committed in groups.

    ``engine``'s connections begin with ``BEGIN IMMEDIATE`` when their execution options say
    ``dekbovinoj_write`` (:mod:`.database`); ``lock`` is the process's write lock. A failure
    of the transaction itself (the file busy in another process, a full disk) is raised to
    every caller of the group, each of which may then try again.

    ``between_processes``: a file whose lock (``flock``) the writers of every process of the
    service take around a group. SQLite's own wait for a busy file sleeps 1, 2, 5, 10… ms
    between looks, so two ``--workers`` that write in turn wait longer than they write; a
    process blocked on the file's lock goes on the moment the other lets go. (Other programs,
    such as ``class report``, still meet SQLite's own wait.)
    """

    def __init__(
        self,
        engine: Engine,
        lock: threading.Lock,
        between_processes: Path | None = None,
        patience: float = 60.0,
    ) -> None:
        self.engine = engine
        self.lock = lock
        self._turns = (
            _FileTurns(between_processes, patience) if between_processes is not None else None
        )
        self._queue: list[_Write[Any]] = []
        self._queue_lock = threading.Lock()
        self.groups = 0
        """How many groups have been written (committed; a lone write that failed, rolled
        back), for the tests and the benchmark."""
        self.writes = 0
        """How many writes they held."""

    def run(self, work: Callable[[Connection], T]) -> T:
        """``work`` in a transaction with the writes queued with it; its value, or its error
        (``work`` rolled back alone), once the transaction that holds it is committed."""
        write: _Write[T] = _Write(work)
        with self._queue_lock:
            self._queue.append(write)
        while not write.done:  # more than MAX_BATCH waiting: a later group takes it
            with self.lock:
                if not write.done:
                    with self._queue_lock:
                        group = self._queue[:MAX_BATCH]
                        del self._queue[:MAX_BATCH]
                    self._commit(group)
        if write.error is not None:
            raise write.error
        value: T = write.value
        return value

    def _commit(self, group: list[_Write[Any]]) -> None:
        """One transaction for ``group``: each write in its savepoint, one commit (a write
        alone needs none: its failure rolls the transaction back)."""
        try:
            with self._turns or nullcontext(), self.engine.connect() as connection:
                connection = connection.execution_options(dekbovinoj_write=True)
                with connection.begin():
                    if len(group) == 1:
                        _alone(connection, group[0])
                    else:
                        for write in group:
                            _in_savepoint(connection, write)
        except _Refused:  # the lone write's own failure, rolled back: its error is set
            self.groups += 1
            self.writes += 1
        except BaseException as error:  # the transaction failed: nothing of it was kept
            for write in group:
                write.value, write.error = None, error
        else:
            self.groups += 1
            self.writes += len(group)
        for write in group:
            write.done = True


class _Refused(Exception):
    """A lone write failed: its transaction is rolled back (the write holds its error)."""


def _alone(connection: Connection, write: _Write[Any]) -> None:
    """``write`` as the whole transaction; ``_Refused`` (rolling it back) if it fails."""
    try:
        write.value = write.work(connection)
    except BaseException as error:
        write.error = error
        raise _Refused from error


def _in_savepoint(connection: Connection, write: _Write[Any]) -> None:
    """``write`` in a savepoint of the transaction; rolled back to it alone if it fails.
    The savepoint's statements go to the driver as they are (SQLAlchemy's own savepoints
    compile two statements a write)."""
    connection.exec_driver_sql("SAVEPOINT dekbovinoj_write")
    try:
        write.value = write.work(connection)
    except BaseException as error:  # this write's own failure
        connection.exec_driver_sql("ROLLBACK TO SAVEPOINT dekbovinoj_write")
        write.error = error
    connection.exec_driver_sql("RELEASE SAVEPOINT dekbovinoj_write")
