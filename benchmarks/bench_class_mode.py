"""Class mode: how fast the progress store writes, and how fast the teacher's board refreshes.

Run: ``python benchmarks/bench_class_mode.py [--students 30] [--attempts 100]``.

1. Write throughput: ``--students`` processes each write ``--attempts`` attempts to one
   SQLite file at the same moment (as several processes of the class service do); it
   prints rows a second over the whole burst, each write's p50/p95/max latency, and that
   no row was lost and no error reached a "student". Then one process alone.
2. Dashboard refresh: a class of ``--students`` students on 10 puzzles, each with a
   realistic mix of attempts (a lesson's worth, ~8 each); the board the service sends
   (:class:`~dekbovinoj_edu.classroom.views.teacher.TeacherView`), the first one and then
   50 after a new attempt each (it reads only the rows that came since); also with every
   row of the burst above (3,000 attempts), the overview alone (the data, without the
   HTML), and the notebook widget's refresh. The whole service under a class of 300:
   ``bench_class_service.py``.

Everything stays in a temporary folder. Quote ``uptime`` with the
figures: other work on the machine skews them.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from dekbovinoj_edu.classroom.assignment import codes_assignment, deal_assignment
from dekbovinoj_edu.classroom.attempts import Attempt
from dekbovinoj_edu.classroom.seat import new_token
from dekbovinoj_edu.classroom.store import SQLiteStore
from dekbovinoj_edu.classroom.views.teacher import TeacherView

VERDICTS = ["ok", "ok", "ok", "colour", "not-target", "syntax", "no-such-card", "mu-right"]


def _row(class_name: str, student: int, number: int, code: str, verdict: str) -> Attempt:
    return Attempt(
        class_name, f"student {student}", number, code, "13*2+3-9-3-7", verdict,
        6 if verdict == "ok" else 0, 6, 0, 12.5, "2026-12-01T09:00:00Z",
    )  # fmt: skip


def _writer(path: str, student: int, count: int, code: str, start: object, out: object) -> None:
    store = SQLiteStore(path)
    token = store.join("burst", f"student {student}", f"token {student}", now=0.0).token
    latencies, errors = [], 0
    out.put("ready")  # type: ignore[attr-defined]
    start.wait(120)  # type: ignore[attr-defined]
    for number in range(count):
        before = time.perf_counter()
        try:
            kept = _row("burst", student, 1, code, "colour")  # puzzle 1 stays open
            store.record("burst", token, f"s{student}-{number:06d}", kept, now=1.0)
        except Exception:
            errors += 1
        latencies.append(1000 * (time.perf_counter() - before))
    store.close()
    out.put((time.perf_counter(), latencies, errors))  # type: ignore[attr-defined]


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def burst(folder: Path, students: int, attempts: int) -> Path:
    path = folder / "burst.sqlite3"
    store = SQLiteStore(path)
    assignment = codes_assignment("burst", deal_assignment("x", level=1, count=1, seed=1).codes[0])
    store.add_class(assignment)
    context = multiprocessing.get_context("spawn")
    start, out = context.Event(), context.Queue()
    workers = [
        context.Process(
            target=_writer, args=(str(path), n, attempts, assignment.codes[0], start, out)
        )
        for n in range(students)
    ]
    for worker in workers:
        worker.start()
    for _ in workers:
        assert out.get(timeout=300) == "ready"
    began = time.perf_counter()
    start.set()
    results = [out.get(timeout=600) for _ in workers]
    for worker in workers:
        worker.join()
    ended = max(done for done, _, _ in results)
    latencies = [ms for _, each, _ in results for ms in each]
    errors = sum(e for _, _, e in results)
    rows = len(store.attempts("burst"))
    seconds = ended - began
    print(f"{students} processes × {attempts} attempts: {rows} rows (expected "
          f"{students * attempts}), {errors} errors")  # fmt: skip
    print(f"  all written in {seconds:.2f} s → {rows / seconds:,.0f} rows/s")
    print(f"  write latency: p50 {statistics.median(latencies):.2f} ms, "
          f"p95 {percentile(latencies, 0.95):.2f} ms, max {max(latencies):.1f} ms")  # fmt: skip
    alone = SQLiteStore(folder / "alone.sqlite3")
    alone.add_class(codes_assignment("burst", assignment.codes[0]))
    token = alone.join("burst", "student 0", "token 0", now=0.0).token
    before = time.perf_counter()
    for number in range(students * attempts):
        kept = _row("burst", 0, 1, assignment.codes[0], "colour")
        alone.record("burst", token, f"a-{number:06d}", kept, now=1.0)
    single = time.perf_counter() - before
    print(f"one process alone: {students * attempts} rows in {single:.2f} s → "
          f"{students * attempts / single:,.0f} rows/s")  # fmt: skip
    return path


def lesson(folder: Path, students: int) -> SQLiteStore:
    store = SQLiteStore(folder / "lesson.sqlite3")
    assignment = deal_assignment("lesson", level=2, count=10, seed="bench", difficulty="any")
    store.add_class(assignment)
    rng = random.Random(13)
    for student in range(students):
        token = store.join("lesson", f"student {student}", f"page {student}", now=0.0).token
        sent = 0
        for number, code in enumerate(assignment.codes, start=1):
            verdicts = [rng.choice(VERDICTS[3:-1]) for _ in range(rng.randint(0, 2))] + ["ok"]
            for verdict in verdicts:
                sent += 1
                kept = _row("lesson", student, number, code, verdict)
                store.record("lesson", token, f"{student}-{sent:04d}", kept, now=1.0)
    return store


def time_board(store: SQLiteStore, name: str, label: str, requests: int = 50) -> None:
    """The board the service sends: the first one reads the whole class, each later one
    only the rows that came since (and a new attempt between refreshes)."""
    view = TeacherView(store, name)
    before = time.perf_counter()
    view.refresh()
    view.board_fragment("en", False, 0)
    first = 1000 * (time.perf_counter() - before)
    token = store.join(name, "late student", new_token(), now=2.0).token
    code = store.assignment(name).codes[0]
    times = []
    for number in range(requests):
        kept = _row(name, 10**6, 1, code, "colour")
        store.record(name, token, f"late-{number:06d}", kept, now=3.0)
        before = time.perf_counter()
        view.refresh()
        view.board_fragment("en", False, 0)
        times.append(1000 * (time.perf_counter() - before))
    print(f"board, {label}: first {first:.1f} ms; after each new attempt: median "
          f"{statistics.median(times):.1f} ms, p95 {percentile(times, 0.95):.1f} ms, "
          f"max {max(times):.1f} ms")  # fmt: skip


def time_calls(label: str, call: Callable[[], object], runs: int = 20) -> None:
    times = []
    for _ in range(runs):
        before = time.perf_counter()
        call()
        times.append(1000 * (time.perf_counter() - before))
    print(f"{label}: median {statistics.median(times):.1f} ms, max {max(times):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--attempts", type=int, default=100)
    args = parser.parse_args()
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f}")
    with tempfile.TemporaryDirectory(prefix="bench-class-mode-") as folder:
        path = burst(Path(folder), args.students, args.attempts)
        store = lesson(Path(folder), args.students)
        rows = len(store.attempts("lesson"))
        time_board(store, "lesson", f"{args.students} students × 10 puzzles, {rows} attempts")
        burst_store = SQLiteStore(path)  # its students joined in the burst
        time_board(burst_store, "burst", f"{args.students} students, "
                   f"{len(burst_store.attempts('burst'))} attempts")  # fmt: skip
        from dekbovinoj_edu.classroom.overview import class_overview
        from dekbovinoj_edu.classroom.views.dashboard import Dashboard

        time_calls(f"the overview alone (data, no HTML), {args.students} students",
                   lambda: class_overview(store, "lesson"))  # fmt: skip
        widget = Dashboard("lesson", store=store, refresh=0)
        time_calls(f"notebook widget refresh, {args.students} students", widget.refresh)


if __name__ == "__main__":
    main()
