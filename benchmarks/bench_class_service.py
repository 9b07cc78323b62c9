"""The class service under a class of 300: does every attempt arrive, quickly, and does
nothing get lost or doubled when the service is killed in the middle?

It starts ``dekbovinoj class serve`` on 127.0.0.1 (a SQLite file in a temporary folder, or a
database on a throwaway PostgreSQL cluster of ``tests/support/postgres.py``), then
``--students`` simulated students, each on its own kept-alive connection from this one
address (as a school's NAT): they join within a second, then each sends ``--attempts``
attempts, one every ``--interval`` seconds (a wrong answer, then the right one, puzzle after
puzzle), with a heartbeat every 4 s. A student keeps every attempt that is not acknowledged
yet and sends it again, oldest first, under the same id, until it is (as the class client
does). The figures: attempts acknowledged per second, each attempt's p50/p95/max latency,
errors (an answer that is not 2xx, or a failed connection), the service's peak memory (RSS)
and processor time (``/proc``), acknowledged attempts against the rows in the database, and
the puzzles ended against the answers the abilities and the puzzles' ratings learnt from
(none lost under the class's concurrency).

``--kill``: a second run, in which the service gets ``SIGKILL`` once half the attempts are
acknowledged and is started again at once; it prints the acknowledged attempts missing from
the database (goal 0), duplicated rows (goal 0) and the attempts sent more than once.

Goals on the 2-core machine: 6,000 of 6,000 rows, 0 errors, p95 <= 100 ms, >= 500
attempts/s, the service under 200 MB, all within 60 s. Every wait has a deadline; every
student sends a bounded number of requests.

Run: ``python benchmarks/bench_class_service.py [--store sqlite|postgresql|both] [--kill]
[--students 300] [--attempts 20] [--interval 0.55]``.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the package, and tests/support

from machine import describe
from support.processes import children, cpu_seconds, rss_bytes
from support.servers import free_port

from dekbovinoj_edu.classroom.assignment import deal_assignment
from dekbovinoj_edu.classroom.store import open_store
from dekbovinoj_edu.solving.solver import solve

CLASS = "bench"
HEARTBEAT = 4.0
"""Seconds between a student's heartbeats."""
DEADLINE = 180.0
"""The longest a run may take, whatever happens."""
PATIENCE = 0.2
"""Seconds a student waits before it sends an unacknowledged attempt again."""


# --- the service ------------------------------------------------------------------------------


def pss_bytes(pid: int) -> int:
    """A process's proportional set size: its resident memory, each page shared with other
    processes (the workers and the process that forked them) counted as its share."""
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return 0
    return 0


class Service:
    """``dekbovinoj class serve --workers N`` as a process of its own (and its workers), that
    can be killed and restarted."""

    def __init__(self, db: str, port: int, log: Path, workers: int) -> None:
        self.db, self.port, self.log, self.workers = db, port, log, workers
        self.process: subprocess.Popen[bytes] | None = None
        self.peak_pss = 0
        """The most memory the service's processes held at once (PSS, summed)."""
        self.peak_rss = 0
        """The same as RSS, summed (pages the processes share counted in each)."""
        self._cpu: dict[int, float] = {}
        """Each process's processor seconds, as last seen (a killed one's until its end)."""

    @property
    def cpu(self) -> float:
        """Processor seconds of every process the service ran."""
        return sum(self._cpu.values())

    def start(self) -> None:
        command = [sys.executable, "-m", "dekbovinoj_edu.cli", "class", "serve", CLASS,
                   "--db", self.db, "--port", str(self.port),
                   "--workers", str(self.workers)]  # fmt: skip
        with self.log.open("ab") as out:
            environment = {**os.environ, "PYTHONPATH": str(ROOT)}
            self.process = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, env=environment
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the service stopped: see {self.log}")
            try:
                url = f"http://127.0.0.1:{self.port}/api/v1/classes/{CLASS}"
                with urllib.request.urlopen(url, timeout=2) as answer:
                    if answer.status == 200:
                        return
            except OSError:
                time.sleep(0.05)
        raise TimeoutError("the class service did not start within 60 s")

    def sample(self) -> None:
        """Note the service's memory and processor time now."""
        if self.process is None or self.process.poll() is not None:
            return
        pids = [self.process.pid, *children(self.process.pid)]
        self.peak_rss = max(self.peak_rss, sum(rss_bytes(pid) for pid in pids))
        self.peak_pss = max(self.peak_pss, sum(pss_bytes(pid) for pid in pids))
        for pid in pids:
            used = cpu_seconds([pid])
            if used > 0:
                self._cpu[pid] = max(self._cpu.get(pid, 0.0), used)

    def kill(self) -> None:
        """``kill -9`` of the service (its workers end with it): no goodbye, no clean stop."""
        assert self.process is not None
        self.sample()
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)

    def stop(self) -> int:
        """SIGTERM, as a teacher's Ctrl+C; the exit code."""
        assert self.process is not None
        self.sample()
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait(30)


# --- a student on one kept-alive connection ---------------------------------------------------


class _Responses(asyncio.Protocol):
    """Reads HTTP/1.1 answers off one connection (cheap: the students share two cores with
    the service)."""

    def __init__(self) -> None:
        self.buffer = bytearray()
        self.waiting: asyncio.Future[tuple[int, dict[str, str], bytes]] | None = None
        self.closed = False

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        self._answer()

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.waiting is not None and not self.waiting.done():
            self.waiting.set_exception(ConnectionError("closed"))

    def _answer(self) -> None:
        end = self.buffer.find(b"\r\n\r\n")
        if end < 0 or self.waiting is None or self.waiting.done():
            return
        lines = bytes(self.buffer[:end]).decode("latin-1").split("\r\n")
        headers = {}
        for line in lines[1:]:
            key, _, value = line.partition(":")
            headers[key.strip().lower()] = value.strip()
        length = int(headers.get("content-length", "0"))
        if len(self.buffer) < end + 4 + length:
            return
        body = bytes(self.buffer[end + 4 : end + 4 + length])
        del self.buffer[: end + 4 + length]
        self.waiting.set_result((int(lines[0].split()[1]), headers, body))


class Connection:
    """HTTP/1.1 requests on one kept-alive connection (opened again when it breaks)."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.transport: asyncio.Transport | None = None
        self.protocol: _Responses | None = None

    async def close(self) -> None:
        if self.transport is not None:
            self.transport.close()
        self.transport = self.protocol = None

    async def request(
        self, method: str, path: str, body: object = None, token: str | None = None
    ) -> tuple[int, dict[str, str], object]:
        loop = asyncio.get_running_loop()
        try:
            if self.transport is None or self.protocol is None or self.protocol.closed:
                self.transport, self.protocol = await loop.create_connection(
                    _Responses, "127.0.0.1", self.port
                )
            data = b"" if body is None else json.dumps(body).encode()
            head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(data)}\r\n"
            if body is not None:
                head += "Content-Type: application/json\r\n"
            if token is not None:
                head += f"Authorization: Bearer {token}\r\n"
            self.protocol.waiting = loop.create_future()
            self.transport.write(head.encode() + b"\r\n" + data)
            status, headers, raw = await asyncio.wait_for(self.protocol.waiting, 30)
            if headers.get("connection", "").lower() == "close":
                await self.close()
        except (OSError, ConnectionError, asyncio.TimeoutError):
            await self.close()
            raise ConnectionError("the connection broke") from None
        return status, headers, json.loads(raw) if raw else None


@dataclass
class Tally:
    """What the students saw, together."""

    latencies: list[float] = field(default_factory=list)
    """Seconds from sending an attempt to its answer (each answered request)."""
    when: list[float] = field(default_factory=list)
    """When each of those requests was sent (``time.monotonic``)."""
    acknowledged: set[str] = field(default_factory=set)
    resent: set[str] = field(default_factory=set)
    errors: dict[str, int] = field(default_factory=dict)
    outage_failures: int = 0
    """Requests that found the service gone while it was killed (not errors: expected)."""
    first: float = 0.0
    last: float = 0.0
    heartbeats: int = 0

    def error(self, kind: str) -> None:
        self.errors[kind] = self.errors.get(kind, 0) + 1


@dataclass
class Run:
    """One run's settings and shared state."""

    port: int
    students: int
    attempts: int
    interval: float
    answers: list[tuple[str, bool]]
    """Each puzzle's right answer, and whether it plays the joker first."""
    tally: Tally = field(default_factory=Tally)
    outage: bool = False
    """True while the service is killed and not back yet."""
    done: bool = False


async def student(run: Run, number: int, start: float) -> None:
    connection = Connection(run.port)
    base = f"/api/v1/classes/{CLASS}"
    tally = run.tally
    token = ""
    deadline = time.monotonic() + DEADLINE
    await asyncio.sleep(random.Random(number).uniform(0, 1.0))
    while not token and time.monotonic() < deadline:
        try:
            status, headers, body = await connection.request(
                "POST", f"{base}/join", {"nickname": f"student {number}"}
            )
        except ConnectionError:
            if run.outage:
                tally.outage_failures += 1
            else:
                tally.error("join: connection")
            await asyncio.sleep(PATIENCE)
            continue
        if status in (200, 201) and isinstance(body, dict):
            token = str(body["token"])
        else:
            tally.error(f"join: {status}")
            await asyncio.sleep(float(headers.get("retry-after", PATIENCE)))
    puzzle, wrong_done = 1, False
    pending: list[dict[str, object]] = []
    sent: set[str] = set()
    next_beat = time.monotonic() + HEARTBEAT
    offset = random.Random(-number).uniform(0, run.interval)
    for index in range(run.attempts):
        await asyncio.sleep(max(0.0, start + offset + index * run.interval - time.monotonic()))
        answer, joker = (
            run.answers[(puzzle - 1) % len(run.answers)] if wrong_done else ("1+1", False)
        )
        pending.append(
            {
                "id": f"s{number:04d}-a{index:03d}",
                "puzzle": puzzle,
                "answer": answer,
                "joker": joker,
            }
        )
        wrong_done = not wrong_done
        while pending and time.monotonic() < deadline:
            attempt = pending[0]
            attempt_id = str(attempt["id"])
            if attempt_id in sent:
                tally.resent.add(attempt_id)
            sent.add(attempt_id)
            before = time.monotonic()
            try:
                status, headers, body = await connection.request(
                    "POST", f"{base}/attempts", attempt, token
                )
            except ConnectionError:
                if run.outage:
                    tally.outage_failures += 1
                else:
                    tally.error("attempt: connection")
                await asyncio.sleep(PATIENCE)
                continue
            tally.latencies.append(time.monotonic() - before)
            tally.when.append(before)
            if status in (200, 201) and isinstance(body, dict):
                pending.pop(0)
                tally.acknowledged.add(attempt_id)
                tally.first = tally.first or before
                tally.last = time.monotonic()
                puzzle = int(body["seat"]["puzzle"])
            else:
                tally.error(f"attempt: {status} {body}")
                await asyncio.sleep(float(headers.get("retry-after", PATIENCE)))
        if time.monotonic() >= next_beat:
            next_beat += HEARTBEAT
            try:
                status, _, _ = await connection.request("POST", f"{base}/alive", {}, token)
                tally.heartbeats += 1
                if status != 200:
                    tally.error(f"alive: {status}")
            except ConnectionError:
                if not run.outage:
                    tally.error("alive: connection")
    await connection.close()


async def classroom(run: Run, service: Service, kill: bool) -> None:
    start = time.monotonic() + 2.0  # everyone joins in the first second or so
    students = [asyncio.create_task(student(run, n, start)) for n in range(run.students)]
    half = run.students * run.attempts // 2
    killed = False
    while not all(task.done() for task in students):
        service.sample()
        if kill and not killed and len(run.tally.acknowledged) >= half:
            killed = True
            run.outage = True
            service.kill()
            await asyncio.get_running_loop().run_in_executor(None, service.start)
            run.outage = False
        await asyncio.sleep(0.1)
    await asyncio.gather(*students)


# --- the database, read afterwards ------------------------------------------------------------


def rows_in(db: str) -> tuple[int, int, set[str]]:
    """Rows of the class's attempts, rows beyond one per attempt id, and the ids."""
    import sqlalchemy as sa

    url = db if "://" in db else f"sqlite:///{db}"
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            ids = [
                str(row[0])
                for row in connection.execute(
                    sa.text("SELECT attempt_id FROM attempts WHERE class = :c"), {"c": CLASS}
                )
            ]
    finally:
        engine.dispose()
    return len(ids), len(ids) - len(set(ids)), set(ids)


def learnt_in(db: str) -> tuple[int, int, int]:
    """Attempts of the class that ended a puzzle, the answers its students' abilities learnt
    from, and those the puzzles' ratings learnt from (each ended puzzle teaches both once)."""
    import sqlalchemy as sa

    url = db if "://" in db else f"sqlite:///{db}"
    engine = sa.create_engine(url)
    queries = (
        "SELECT count(*) FROM attempts WHERE class = :c "
        "AND verdict IN ('ok', 'mu-right', 'mu-wrong')",
        "SELECT coalesce(sum(answers), 0) FROM abilities JOIN seats ON seats.id = abilities.seat "
        "WHERE seats.class = :c",
        "SELECT coalesce(sum(answers), 0) FROM puzzle_ratings",
    )
    try:
        with engine.connect() as connection:
            ended, abilities, ratings = (
                int(connection.execute(sa.text(query), {"c": CLASS}).scalar() or 0)
                for query in queries
            )
    finally:
        engine.dispose()
    return ended, abilities, ratings


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def one_run(db: str, label: str, args: argparse.Namespace, kill: bool, folder: Path) -> bool:
    store = open_store(db)
    assignment = deal_assignment(CLASS, level=2, count=10, seed="bench", difficulty="any")
    store.add_class(assignment)
    store.close()
    answers = []
    for puzzle in assignment.puzzles:
        solution = solve(puzzle)
        assert solution is not None, "the bench's puzzles all have a dek bovinoj"
        answers.append((solution.expression, solution.joker))
    service = Service(db, free_port(), folder / f"service-{label}.log", args.workers)
    service.start()
    run = Run(service.port, args.students, args.attempts, args.interval, answers)
    began = time.monotonic()
    asyncio.run(asyncio.wait_for(classroom(run, service, kill), DEADLINE))
    took = time.monotonic() - began
    code = service.stop()
    tally = run.tally
    rows, duplicates, ids = rows_in(db)
    expected = args.students * args.attempts
    rate = len(tally.acknowledged) / max(1e-9, tally.last - tally.first)
    lat = [1000 * x for x in tally.latencies]
    errors = sum(tally.errors.values())
    print(f"\n{label}{' (killed with SIGKILL half-way, restarted)' if kill else ''}: "
          f"{args.students} students × {args.attempts} attempts, one every {args.interval:g} s "
          f"(offered {args.students / args.interval:.0f}/s), {took:.1f} s in all")  # fmt: skip
    print(f"  acknowledged {len(tally.acknowledged):,} of {expected:,}; rows {rows:,}; "
          f"{rate:.0f} attempts/s (first to last acknowledgement)")  # fmt: skip
    print(f"  latency p50 {statistics.median(lat):.1f} ms, p95 {percentile(lat, 0.95):.1f} ms, "
          f"max {max(lat):.1f} ms ({len(lat):,} answered attempt requests)")  # fmt: skip
    print(f"  errors {errors}" + (f" {tally.errors}" if errors else "")
          + f"; heartbeats {tally.heartbeats:,}")  # fmt: skip
    print(f"  service ({args.workers} workers): memory {service.peak_pss / 2**20:.0f} MB (PSS; "
          f"RSS summed {service.peak_rss / 2**20:.0f} MB), processor {service.cpu:.1f} s, "
          f"exit code {code} after SIGTERM")  # fmt: skip
    ended, abilities, ratings = learnt_in(db)
    print(f"  learnt: {ended:,} puzzles ended; abilities learnt from {abilities:,}, "
          f"puzzle ratings from {ratings:,} (goal: both equal)")  # fmt: skip
    missing = tally.acknowledged - ids
    if kill:
        print(f"  acknowledged but missing: {len(missing)}; duplicated rows: {duplicates}; "
              f"resent: {len(tally.resent)}; requests that met the killed service: "
              f"{tally.outage_failures}")  # fmt: skip
    ok = not missing and not duplicates and rows == expected == len(tally.acknowledged)
    if not kill:
        ok = ok and errors == 0 and percentile(lat, 0.95) <= 100 and rate >= 500
        ok = ok and service.peak_pss < 200 * 2**20 and took <= 60
        ok = ok and ended == abilities == ratings
    print(f"  goals: {'met' if ok else 'NOT met'}")
    return ok


@contextmanager
def databases(kinds: list[str], folder: Path) -> Iterator[Iterator[str]]:
    """A fresh database of each kind, one per run (PostgreSQL: one throwaway cluster)."""
    with ExitStack() as stack:
        server = None
        if "postgresql" in kinds:
            from support.postgres import postgres_server

            server = stack.enter_context(postgres_server())

        def fresh() -> Iterator[str]:
            for number in itertools.count():
                for kind in kinds:
                    if kind == "sqlite":
                        yield str(folder / f"bench-{number}.sqlite3")
                    else:
                        assert server is not None
                        yield server.url(server.create_database())

        yield fresh()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", choices=["sqlite", "postgresql", "both"], default="both")
    parser.add_argument("--students", type=int, default=300)
    parser.add_argument("--attempts", type=int, default=20)
    parser.add_argument("--interval", type=float, default=0.55)
    parser.add_argument("--workers", type=int, default=2, help="the service's processes")
    parser.add_argument("--kill", action="store_true", help="also the run with a SIGKILL")
    args = parser.parse_args()
    print(describe())
    print(f"uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    kinds = ["sqlite", "postgresql"] if args.store == "both" else [args.store]
    ok = True
    with tempfile.TemporaryDirectory(prefix="bench-class-service-") as name:
        folder = Path(name)
        with databases(kinds, folder) as fresh:
            for kill in (False, True) if args.kill else (False,):
                for kind in kinds:
                    ok = one_run(next(fresh), kind, args, kill, folder) and ok
    print(f"\nload after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
