"""Group commit on a real SQLite file (synchronous=FULL): writes from many threads at once are
committed in fewer transactions than writes, each write's value goes to its own caller, and a
write that fails is rolled back alone while the others of its group are kept."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
import sqlalchemy as sa

from dekbovinoj_edu.classroom.errors import StoreError
from dekbovinoj_edu.classroom.store.database import open_database

THREADS = 16
WRITES = 25


def test_writes_from_many_threads_share_transactions_and_each_gets_its_own_answer(
    tmp_path: Path,
) -> None:
    database = open_database(tmp_path / "classes.sqlite3")
    try:
        database.run(lambda c: c.exec_driver_sql("CREATE TABLE t (n INTEGER UNIQUE)"), write=True)
        database.run(lambda c: c.exec_driver_sql("INSERT INTO t VALUES (-1)"), write=True)
        group = database.group
        assert group is not None
        before = (group.groups, group.writes)
        answers: dict[int, object] = {}
        failures: list[BaseException] = []

        def insert(n: int) -> object:
            return database.run(
                lambda c: c.exec_driver_sql(f"INSERT INTO t VALUES ({n}) RETURNING n").scalar(),
                write=True,
            )

        def writer(thread: int) -> None:
            for i in range(WRITES):
                n = thread * WRITES + i
                try:
                    answers[n] = insert(n if i != 7 else -1)  # the 8th of each: a duplicate
                except StoreError as error:
                    failures.append(error)

        threads = [threading.Thread(target=writer, args=(t,)) for t in range(THREADS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        groups, writes = group.groups - before[0], group.writes - before[1]
        assert writes == THREADS * WRITES and groups < writes  # shared transactions
        rows = database.run(
            lambda c: {n for (n,) in c.execute(sa.text("SELECT n FROM t"))}, write=False
        )
        assert answers == {n: n for n in rows if n != -1}  # each caller its own value
        assert len(failures) == THREADS  # each duplicate refused alone, its group kept
        assert len(rows) == 1 + THREADS * (WRITES - 1)
    finally:
        database.close()


def test_a_write_that_fails_raises_to_its_caller_only(tmp_path: Path) -> None:
    database = open_database(tmp_path / "classes.sqlite3")
    try:
        database.run(lambda c: c.exec_driver_sql("CREATE TABLE t (n INTEGER)"), write=True)

        def broken(connection: sa.Connection) -> None:
            connection.exec_driver_sql("INSERT INTO t VALUES (1)")
            raise ValueError("a bug in this write")

        with pytest.raises(ValueError, match="a bug"):
            database.run(broken, write=True)
        count = database.run(
            lambda c: c.exec_driver_sql("SELECT count(*) FROM t").scalar(), write=False
        )
        assert count == 0  # its insert went with it
    finally:
        database.close()


def test_a_process_that_keeps_its_turn_makes_the_others_writes_busy_not_stuck(
    tmp_path: Path,
) -> None:
    import fcntl
    import os
    import time

    from dekbovinoj_edu.classroom.store.group_commit import GroupCommit

    database = open_database(tmp_path / "classes.sqlite3")
    try:
        turns = tmp_path / "classes.sqlite3-lock"
        group = GroupCommit(database.engine, threading.Lock(), turns, patience=0.5)
        group.run(lambda c: c.exec_driver_sql("CREATE TABLE t (n INTEGER)"))
        other = os.open(turns, os.O_RDWR)  # another process's turn: it stopped while writing
        fcntl.flock(other, fcntl.LOCK_EX)
        start = time.monotonic()
        with pytest.raises(StoreError, match="busy"):
            group.run(lambda c: c.exec_driver_sql("INSERT INTO t VALUES (1)"))
        assert 0.5 <= time.monotonic() - start < 5
        os.close(other)  # it goes on: the next write has its turn at once
        group.run(lambda c: c.exec_driver_sql("INSERT INTO t VALUES (2)"))
        count = database.run(
            lambda c: c.exec_driver_sql("SELECT count(*) FROM t").scalar(), write=False
        )
        assert count == 1
    finally:
        database.close()
