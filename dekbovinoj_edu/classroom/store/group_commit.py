"""Group commit: the writes that wait at once go to SQLite in one transaction, synced once.

With ``synchronous=FULL`` each commit waits for the disk (an ``fdatasync`` of the write-ahead
log, about 2 ms on a laptop's SSD), so one commit a write caps a class at a few hundred
writes a second however fast the rest is. Here a write joins a queue and waits for the
process's write lock; whoever gets the lock takes every write queued by then, runs each in
its own savepoint of one ``BEGIN IMMEDIATE`` transaction, commits once, and hands each write
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

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from sqlalchemy.engine import Connection, Engine

__all__ = ["MAX_BATCH", "GroupCommit"]

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


class GroupCommit:
    """The writes of one process's threads to one SQLite file, committed in groups.

    ``engine``'s connections begin with ``BEGIN IMMEDIATE`` when their execution options say
    ``dekbovinoj_write`` (:mod:`.database`); ``lock`` is the process's write lock. A failure
    of the transaction itself (the file busy in another process, a full disk) is raised to
    every caller of the group, each of which may then try again.
    """

    def __init__(self, engine: Engine, lock: threading.Lock) -> None:
        self.engine = engine
        self.lock = lock
        self._queue: list[_Write[Any]] = []
        self._queue_lock = threading.Lock()
        self.groups = 0
        """How many transactions have been committed (for the tests and the benchmark)."""
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
        """One transaction for ``group``: each write in its savepoint, one commit."""
        try:
            with self.engine.connect() as connection:
                connection = connection.execution_options(dekbovinoj_write=True)
                with connection.begin():
                    for write in group:
                        savepoint = connection.begin_nested()
                        try:
                            write.value = write.work(connection)
                        except BaseException as error:  # this write's own failure
                            savepoint.rollback()
                            write.error = error
                        else:
                            savepoint.commit()
        except BaseException as error:  # the transaction failed: nothing of it was kept
            for write in group:
                write.value, write.error = None, error
        else:
            self.groups += 1
            self.writes += len(group)
        for write in group:
            write.done = True
