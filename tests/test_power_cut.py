"""An acknowledged attempt survives a power cut of the teacher's laptop (the class service on
SQLite): the service runs under ``strace`` while students answer, is killed with SIGKILL in
the middle, and its database is rebuilt from the trace keeping only what was synced to the
disk (tests/support/power_cut.py). Every attempt a student got ``201`` for is in it.

The same replay loses committed rows of a plain SQLite program that runs WAL with
``synchronous=NORMAL`` (SQLite's documentation: "a transaction committed in WAL mode with
synchronous=NORMAL might roll back following a power loss"), and none with ``FULL``: the
test can tell the two apart.
"""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import requests
from support.power_cut import STRACE, after_power_cut, restore, snapshot, strace_command
from support.puzzles import PETER

from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.store import open_store

pytestmark = pytest.mark.slow

ROWS = """
import sqlite3, sys
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("PRAGMA journal_mode = WAL")
db.execute("PRAGMA synchronous = " + sys.argv[2])
db.execute("CREATE TABLE IF NOT EXISTS kept (n INTEGER)")
print("ready", flush=True)
for n in range(1, 100_000):
    db.execute("INSERT INTO kept VALUES (?)", (n,))
    print(n, flush=True)  # acknowledged: committed
"""


def _need_strace() -> None:
    if subprocess.run(["which", STRACE], capture_output=True, check=False).returncode:
        pytest.fail("strace is not installed (apt-get install strace; .ci/run does it)")


def _files(db: Path) -> list[Path]:
    return [db, Path(f"{db}-wal"), Path(f"{db}-shm"), Path(f"{db}-journal")]


def _rows_after_a_cut(tmp_path: Path, synchronous: str) -> tuple[int, int]:
    """(rows acknowledged before the cut, rows on the disk after it) for the plain program."""
    db = tmp_path / synchronous / "kept.sqlite3"
    db.parent.mkdir()
    before = snapshot(_files(db), tmp_path / synchronous / "before")
    trace = tmp_path / synchronous / "trace"
    command = strace_command(trace, [sys.executable, "-c", ROWS, str(db), synchronous])
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    acknowledged = 0
    deadline = time.monotonic() + 60
    for line in process.stdout:
        if line.strip().isdigit():
            acknowledged = int(line)
        if acknowledged >= 300 or time.monotonic() > deadline:
            break
    _kill_traced(process)
    rebuilt = restore(after_power_cut(trace, before), tmp_path / synchronous / "after")
    with sqlite3.connect(rebuilt[db]) as after:
        try:
            found = after.execute("SELECT count(*) FROM kept").fetchone()[0]
        except sqlite3.OperationalError:  # the table itself was never synced
            found = 0
    return acknowledged, found


def _kill_traced(process: subprocess.Popen[str]) -> None:
    """SIGKILL the program strace runs (the power goes), then let strace finish its trace."""
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
    for child in children:
        os.kill(int(child), signal.SIGKILL)
    process.wait(timeout=60)


def test_the_replay_loses_what_normal_does_not_sync_and_nothing_full_commits(
    tmp_path: Path,
) -> None:
    _need_strace()
    acknowledged, found = _rows_after_a_cut(tmp_path, "NORMAL")
    assert acknowledged >= 300 and found < acknowledged  # committed, then lost
    acknowledged, found = _rows_after_a_cut(tmp_path, "FULL")
    assert acknowledged >= 300 and found >= acknowledged


STUDENTS = 6
ATTEMPTS = 40
"""Each student's attempts at most (the service is killed before they are all sent)."""


def test_no_acknowledged_attempt_is_lost_in_a_power_cut(tmp_path: Path) -> None:
    _need_strace()
    db = tmp_path / "classes.sqlite3"
    store = open_store(db)
    store.add_class(codes_assignment("4a", f"{PETER.code},{PETER.code}"))
    store.close()
    os.sync()
    before = snapshot(_files(db), tmp_path / "before")
    trace = tmp_path / "trace"
    command = [sys.executable, "-m", "dekbovinoj_edu.cli", "class", "serve", "4a"]
    command += ["--db", str(db), "--port", "0"]
    process = subprocess.Popen(strace_command(trace, command), stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    url = ""
    deadline = time.monotonic() + 60
    while not url and time.monotonic() < deadline:
        line = process.stdout.readline()
        if line.startswith("Students: "):
            url = line.split(": ", 1)[1].strip().rstrip("/")
    assert url, "the service did not start"
    acknowledged: set[str] = set()
    lock = threading.Lock()
    stop = threading.Event()

    def student(number: int) -> None:
        api = f"{url}/api/v1/classes/4a"
        joined = requests.post(f"{api}/join", json={"nickname": f"s{number}"}, timeout=30)
        token = joined.json()["token"]
        for attempt in range(ATTEMPTS):
            if stop.is_set():
                return
            ident = f"{number:02d}{attempt:02d}".ljust(24, "a")
            body: dict[str, Any] = {"id": ident, "puzzle": 1, "answer": "13 + 9"}
            try:
                answer = requests.post(
                    f"{api}/attempts", json=body, timeout=30,
                    headers={"Authorization": f"Bearer {token}"},
                )  # fmt: skip
            except requests.RequestException:
                return  # the power went
            if answer.status_code == 201:
                with lock:
                    acknowledged.add(ident)

    threads = [threading.Thread(target=student, args=(n,)) for n in range(STUDENTS)]
    for thread in threads:
        thread.start()
    deadline = time.monotonic() + 120
    while len(acknowledged) < STUDENTS * ATTEMPTS // 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    _kill_traced(process)  # the power goes while students are still answering
    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    assert len(acknowledged) >= STUDENTS * ATTEMPTS // 2

    rebuilt = restore(after_power_cut(trace, before), tmp_path / "after")
    with sqlite3.connect(rebuilt[db]) as after:
        kept = {row[0] for row in after.execute("SELECT attempt_id FROM attempts")}
    assert acknowledged - kept == set(), f"{len(acknowledged - kept)} acknowledged attempts lost"
