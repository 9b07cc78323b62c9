"""A class database that cannot be written (a read-only file, folder or disk: a copy on a
write-protected stick, a colleague's folder) is still listed and exported by the commands that
only read (``class list``, ``class report``), left exactly as it was; a command that writes
says so in one sentence.

Each command runs in a process of its own that may not write there: the folder is 0555 and the
file 0444, and a root user (who writes anywhere) runs it without the powers that override
file modes (``setpriv``), as any other user would.
"""

from __future__ import annotations

import contextlib
import io
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.puzzles import PETER

from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.store import open_store
from dekbovinoj_edu.classroom.store.desk import ClassDesk
from dekbovinoj_edu.classroom.store.failures import READ_ONLY
from dekbovinoj_edu.cli import main

PETERS = "13*2+3-9-3-7"

AS_ANYONE = (
    ["setpriv", "--bounding-set=-dac_override,-dac_read_search,-fowner", "--"]
    if os.geteuid() == 0
    else []
)
"""What runs a command as a user without the power to write a read-only file."""


def dekbovinoj(*args: str) -> subprocess.CompletedProcess[str]:
    command = [*AS_ANYONE, sys.executable, "-m", "dekbovinoj_edu.cli", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def fingerprint(folder: Path) -> dict[str, bytes]:
    """Every file of ``folder`` and its bytes."""
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


@contextlib.contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """``folder`` and its files read-only while the block runs."""
    files = list(folder.iterdir())
    for path in files:
        path.chmod(0o444)
    folder.chmod(0o555)
    try:
        yield
    finally:
        folder.chmod(0o700)
        for path in files:
            path.chmod(0o600)


@pytest.fixture
def class_db(tmp_path: Path) -> Path:
    """Class 4a with Ana's two attempts, in a folder of its own."""
    folder = tmp_path / "stick"
    db = folder / "classes.sqlite3"
    store = open_store(db)
    store.add_class(codes_assignment("4a", PETER.code))
    ana = store.join("4a", "Ana", "ana-page", now=0.0)
    desk = ClassDesk(store, "4a")
    desk.attempt(ana.token, "ana-00001", 1, "13 + 9")
    desk.attempt(ana.token, "ana-00002", 1, PETERS)
    store.close()
    return db


def test_a_read_only_database_is_listed_and_exported_and_left_as_it_was(class_db: Path) -> None:
    folder = class_db.parent
    before = fingerprint(folder)
    with read_only(folder):
        listed = dekbovinoj("class", "list", "--db", str(class_db))
        exported = dekbovinoj("class", "report", "4a", "--csv", "--db", str(class_db))
    assert (listed.returncode, listed.stderr) == (0, "")
    assert listed.stdout == "4a\tpractice\t1 puzzles\t1 students\t2 attempts\n"
    assert exported.returncode == 0, exported.stderr
    rows = exported.stdout.splitlines()
    assert len(rows) == 3 and rows[2].split(",")[:6] == [
        "4a",
        "Ana",
        "1",
        PETER.code,
        "13*2+3-9-3-7",
        "ok",
    ]
    assert fingerprint(folder) == before


def test_a_read_only_file_in_a_folder_that_may_be_written_is_read_with_sqlites_locks(
    class_db: Path,
) -> None:
    class_db.chmod(0o444)
    try:
        listed = dekbovinoj("class", "list", "--db", str(class_db))
    finally:
        class_db.chmod(0o600)
    assert (listed.returncode, listed.stderr) == (0, "")
    assert "2 attempts" in listed.stdout


def test_a_command_that_writes_a_read_only_database_says_so_in_one_sentence(
    class_db: Path,
) -> None:
    sentence = READ_ONLY.format(where=class_db)
    with read_only(class_db.parent):
        forgotten = dekbovinoj("class", "forget", "4a", "--db", str(class_db))
        made = dekbovinoj("class", "new", "4b", "--codes", PETER.code, "--db", str(class_db))
    assert (forgotten.returncode, forgotten.stdout) == (2, "")
    assert forgotten.stderr == f"dekbovinoj: {sentence}\n"
    assert made.returncode == 2 and made.stderr == f"dekbovinoj: {sentence}\n"


def test_rows_that_wait_in_a_read_only_write_ahead_log_are_not_silently_left_out(
    class_db: Path,
) -> None:
    writer = sqlite3.connect(class_db, isolation_level=None)
    writer.execute("PRAGMA wal_autocheckpoint = 0")  # the new row stays in the log
    writer.execute("UPDATE attempts SET answer = 'in the log'")
    log = Path(f"{class_db}-wal")
    (class_db.parent / f"{class_db.name}-shm").unlink(missing_ok=True)
    copy = class_db.parent.parent / "copy"
    copy.mkdir()
    for path in (class_db, log):  # as a copy made while the service ran: no index of the log
        (copy / path.name).write_bytes(path.read_bytes())
    writer.close()
    copied = copy / class_db.name
    with read_only(copy):
        listed = dekbovinoj("class", "report", "4a", "--csv", "--db", str(copied))
    assert listed.returncode == 2 and listed.stdout == ""
    assert "write-ahead log" in listed.stderr and "copy both files" in listed.stderr


def test_a_missing_database_is_listed_as_empty_and_not_made(tmp_path: Path) -> None:
    db = tmp_path / "none" / "classes.sqlite3"
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert main(["class", "list", "--db", str(db)]) == 0
    assert out.getvalue().startswith("No classes yet") and not db.parent.exists()
