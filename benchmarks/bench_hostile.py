"""One hostile client against a class: do the caps hold, and do the other students notice?

A server for a class (``--class-size``, 10 students and the hostile one by default) runs on
127.0.0.1, with the cap per address the class network gets (3). Every student comes from an
address of its own in 127.0.0.0/8 (Linux routes all of it to the loopback), and uses the app
the way its page does, at Jupyter's protocol level: it asks for the page, connects to its
kernel, opens the widgets' control channel and asks for the widgets' state (the moment the
page can draw the app: *usable*), clicks now and then (a widget message), and after a while
leaves the way a closed tab does (Voilà's shutdown call) and comes back as a new page.

Two runs of ``--seconds`` each on the same server: a quiet one, then one where a hostile
client (an address of its own) asks for the page in a loop, with ``?theme=`` and
``?template=`` in turn, floods the kernels it gets with widget messages, makes widgets from
the page and sends messages too big. It prints

* the peak number of kernels, against the server's cap (goal: never above it);
* the server's peak memory (Voilà and its kernels), against the quiet run's: what the class
  itself needs (goal: no more than 10 % above);
* the other students' open → usable times, median and 95th percentile, quiet and hostile
  (goal: the hostile run's 95th percentile within 1.5 × the quiet one's);
* the kernels left once every page is gone and the culler had its time (goal: the pool).

And the worst code a page can open (``--codes``): the biggest level-3 codes a student can type,
each in a fresh Python, through the practice widget (open the code, say "mu!", which needs the
best answer), with the processor-seconds and memory it took (goal: ≤ 2 s, ≤ 100 MB).

And the class service (``--service``): ``dekbovinoj class serve`` on a SQLite file, 30 honest
students (each from an address of its own) joining and answering every second, for a quiet run
and then a hostile one, in which one address at once opens idle connections (3,000, above the
cap per address), makes seats with new nicknames in a loop, and answers from its seats with the
most expensive level-3 answers it can type. It prints the honest students' answer latency
(p50/p95, quiet and hostile; goal: the hostile p95 within 1.5 × the quiet one, or 50 ms), their
errors (goal 0), the hostile address's connections held and seats made against the caps, and
the lines the service wrote (goal: no traceback, at most a line a minute per cap).

Every loop is bounded in count and time; nothing leaves 127.0.0.1.

Run: ``python benchmarks/bench_hostile.py [--seconds 60] [--students 10] [--codes]
[--service]``.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import re
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/support

from machine import describe
from support.processes import ServerProcesses
from support.servers import free_port, stop, wait_until_up
from tornado.httpclient import HTTPClientError
from tornado.websocket import WebSocketClientConnection, websocket_connect

from dekbovinoj_edu.serving.kernels import kernel_cap
from dekbovinoj_edu.serving.messages import MAX_MESSAGE_BYTES
from dekbovinoj_edu.serving.notebooks import find_notebook
from dekbovinoj_edu.serving.options import (
    CONNECT_GRACE_SECONDS,
    CULL_INTERVAL_SECONDS,
    ServeOptions,
)
from dekbovinoj_edu.serving.server import start_voila

HOST = "127.0.0.1"
HOSTILE = "127.0.0.99"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
MB = 1024 * 1024
STAY_SECONDS = (8.0, 14.0)
"""How long a student keeps a page before it closes it (the two ends, in turn)."""
CLICK_EVERY = 1.5
"""How often a student clicks."""
USABLE_TIMEOUT = 60.0
HOSTILE_PAUSE = 0.02
"""The hostile client's pause between two requests (a loop in the console, as fast as it goes)."""
HOSTILE_MOST = 20_000
"""The most requests the hostile client makes in a run."""
FLOOD = 400
"""Widget messages the hostile client sends each kernel it gets."""
BETWEEN_RUNS = 25.0
"""The pause between the two runs: the pool refills (it waits 20 s after a student came)."""
CULL_WAIT = CONNECT_GRACE_SECONDS + CULL_INTERVAL_SECONDS + 10
"""How long the run waits for the culler once every page is gone: a page that never connected
loses its kernel after the grace, at the culler's next look."""
CODES = {
    "24 face cards, level 3": "DGE1-MVE3-19PW-679E-RVD7-3EPW-P35E-SBXK-22E",
    "24 mixed cards, level 3": "DGE1-4MC2-1J41-370J-JN86-JTCR-PHWP-ND25-JF5",
    "24 red face cards, level 2": "9GE1-SWXE-ZKNT-YEQB-SWXE-ZKNW-XF7B-QTXE-PE1",
    "40 mixed cards, level 1": (
        "5GP2-0HSD-55K7-6E93-0P31-N270-JRQ2-GBYD-GCRA-KXZC-FT3S-D7T4-YH4Z-DR"
    ),
}
"""The biggest codes a page opens (a code carries at most 24 cards at levels 2 and 3)."""


def message(kind: str, content: dict[str, object], metadata: dict[str, str] | None = None) -> str:
    """A page's message to its kernel (Jupyter's JSON websocket protocol)."""
    header = {"msg_id": uuid.uuid4().hex, "msg_type": kind, "session": "page"}
    header.update(username="", date="", version="5.3")
    body = {"header": header, "parent_header": {}, "metadata": metadata or {}, "content": content}
    return json.dumps({**body, "channel": "shell", "buffers": []})


def get_page(port: int, source: str, path: str = "/") -> tuple[int, str, str]:
    """GET ``path`` from the address ``source``: the status, the page, its ``_xsrf`` cookie."""
    connection = http.client.HTTPConnection(
        HOST, port, timeout=USABLE_TIMEOUT, source_address=(source, 0)
    )
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        cookies = [c.split(";")[0] for c in response.headers.get_all("Set-Cookie") or []]
        xsrf = next((c.split("=", 1)[1] for c in cookies if c.startswith("_xsrf=")), "")
        return response.status, response.read().decode("utf-8", errors="replace"), xsrf
    finally:
        connection.close()


def shut_down(port: int, kernel_id: str, xsrf: str) -> None:
    """What a page does when its tab is closed: Voilà's shutdown call for its kernel."""
    connection = http.client.HTTPConnection(HOST, port, timeout=10)
    headers = {"X-XSRFToken": xsrf, "Cookie": f"_xsrf={xsrf}"}
    try:
        connection.request("POST", f"/voila/api/shutdown/{kernel_id}", body=b"", headers=headers)
        connection.getresponse().read()
    except OSError:
        pass
    finally:
        connection.close()


async def channels(port: int, kernel_id: str) -> WebSocketClientConnection:
    url = f"ws://{HOST}:{port}/api/kernels/{kernel_id}/channels?session_id={uuid.uuid4().hex}"
    return await websocket_connect(url, max_message_size=64 * MB)


async def until(socket: WebSocketClientConnection, mark: bytes, deadline: float) -> bool:
    """Read until a message holding ``mark`` arrives (True), the socket closes or time runs out."""
    while time.monotonic() < deadline:
        try:
            got = await asyncio.wait_for(socket.read_message(), deadline - time.monotonic())
        except asyncio.TimeoutError:
            return False
        if got is None:
            return False
        raw = got if isinstance(got, bytes) else got.encode()
        if mark in raw:
            return True
    return False


@dataclass
class Run:
    """What one run measured."""

    usable: list[float] = field(default_factory=list)
    failed: int = 0
    busy: int = 0
    peak_kernels: int = 0
    peak_rss: int = 0
    hostile_requests: int = 0
    hostile_answers: dict[int, int] = field(default_factory=dict)


async def student(port: int, source: str, until_time: float, run: Run, number: int) -> None:
    """One student's pages, one after the other, until ``until_time``."""
    visit = 0
    while time.monotonic() < until_time:
        start = time.monotonic()
        status, page, xsrf = await asyncio.to_thread(get_page, port, source)
        if status != 200:
            run.busy += 1
            await asyncio.sleep(5)  # the busy page asks again after 5 s
            continue
        ids = set(UUID.findall(page))
        if len(ids) != 1:
            run.failed += 1
            continue
        kernel_id = ids.pop()
        try:
            socket = await channels(port, kernel_id)
        except (OSError, HTTPClientError):
            run.failed += 1
            await asyncio.to_thread(shut_down, port, kernel_id, xsrf)
            continue
        comm = uuid.uuid4().hex
        control = {"comm_id": comm, "target_name": "jupyter.widget.control", "data": {}}
        await socket.write_message(message("comm_open", control, {"version": "1.0.0"}))
        ask = {"comm_id": comm, "data": {"method": "request_states"}}
        await socket.write_message(message("comm_msg", ask))
        if await until(socket, b"update_states", start + USABLE_TIMEOUT):
            run.usable.append(time.monotonic() - start)
        else:
            run.failed += 1
        stay = STAY_SECONDS[(number + visit) % 2]
        leave = min(until_time, time.monotonic() + stay)
        while time.monotonic() < leave:
            await asyncio.sleep(CLICK_EVERY)
            try:
                await socket.write_message(message("comm_msg", ask))
            except Exception:
                break
        socket.close()
        await asyncio.to_thread(shut_down, port, kernel_id, xsrf)
        visit += 1


async def hostile(port: int, until_time: float, run: Run) -> None:
    """Pages in a loop, each kernel flooded, widgets made from the page, messages too big."""
    paths = ["/", "/?theme=dark", "/?template=lab", "/?theme=dark&template=classic"]
    flood = [message("comm_msg", {"comm_id": "x", "data": {"n": n}}) for n in range(FLOOD)]
    widget = {"comm_id": "w", "target_name": "jupyter.widget", "data": {"state": {}}}
    too_big = message("comm_msg", {"comm_id": "x", "data": {"v": "x" * (MAX_MESSAGE_BYTES + 8)}})
    attacks = [flood, [message("comm_open", widget)], [too_big]]
    while time.monotonic() < until_time and run.hostile_requests < HOSTILE_MOST:
        path = paths[run.hostile_requests % len(paths)]
        status, page, _ = await asyncio.to_thread(get_page, port, HOSTILE, path)
        run.hostile_requests += 1
        run.hostile_answers[status] = run.hostile_answers.get(status, 0) + 1
        ids = set(UUID.findall(page)) if status == 200 else set()
        if ids and run.hostile_requests % 2:  # every other page: an attack on its kernel
            try:
                socket = await channels(port, ids.pop())
                for text in attacks[run.hostile_requests % len(attacks)]:
                    if socket.protocol is None:
                        break
                    await socket.write_message(text)
                socket.close()
            except Exception:
                pass
        await asyncio.sleep(HOSTILE_PAUSE)


async def watch(pid: int, until_time: float, run: Run) -> None:
    while time.monotonic() < until_time:
        seen = ServerProcesses.of(pid)
        run.peak_kernels = max(run.peak_kernels, seen.kernel_count)
        run.peak_rss = max(run.peak_rss, seen.total_rss)
        await asyncio.sleep(0.5)


async def one_run(port: int, pid: int, students: int, seconds: float, attack: bool) -> Run:
    run = Run()
    end = time.monotonic() + seconds
    jobs = [student(port, f"127.0.0.{10 + n}", end, run, n) for n in range(students)]
    if attack:
        jobs.append(hostile(port, end, run))
    await asyncio.gather(watch(pid, end + 5, run), *jobs)
    return run


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def wait_ready(log: Path, server: subprocess.Popen[bytes], class_size: int) -> None:
    deadline = time.monotonic() + 600
    while f"ready: {class_size} students" not in log.read_text("utf-8", errors="replace"):
        if server.poll() is not None or time.monotonic() > deadline:
            raise RuntimeError(log.read_text("utf-8", errors="replace")[-3000:])
        time.sleep(0.5)


def settle(pid: int, seconds: float) -> int:
    """Wait ``seconds`` and say how many kernels the server runs then."""
    time.sleep(seconds)
    return ServerProcesses.of(pid).kernel_count


def report(name: str, run: Run) -> None:
    usable = run.usable
    print(
        f"{name:8} pages usable {len(usable):4}  failed {run.failed:3}  busy pages {run.busy:3}  "
        f"open→usable median {statistics.median(usable) if usable else float('nan'):.2f} s  "
        f"p95 {percentile(usable, 0.95):.2f} s  peak kernels {run.peak_kernels:3}  "
        f"peak memory {run.peak_rss / MB:.0f} MB"
    )


def classroom(students: int, seconds: float) -> None:
    class_size = students + 1
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="dekbovinoj-bench-hostile-"))
    log = folder / "voila.log"
    options = ServeOptions(
        find_notebook(),
        port=port,
        host=HOST,
        class_size=class_size,
        open_browser=False,
        per_address=3,
    )
    cap = kernel_cap(class_size)
    server = start_voila(options, folder / "templates", output=log.open("wb"))
    try:
        wait_until_up(port, timeout=600, process=server, host=HOST)
        wait_ready(log, server, class_size)
        quiet = asyncio.run(one_run(port, server.pid, students, seconds, attack=False))
        settle(server.pid, BETWEEN_RUNS)
        attacked = asyncio.run(one_run(port, server.pid, students, seconds, attack=True))
        left = settle(server.pid, CULL_WAIT)
        print(f"class of {class_size} ({students} students and the hostile one), cap {cap}")
        report("quiet", quiet)
        report("hostile", attacked)
        print(
            f"hostile client: {attacked.hostile_requests} requests, answers "
            f"{dict(sorted(attacked.hostile_answers.items()))}"
        )
        ratio = percentile(attacked.usable, 0.95) / percentile(quiet.usable, 0.95)
        memory = attacked.peak_rss / quiet.peak_rss
        print(
            f"goals: peak kernels {max(quiet.peak_kernels, attacked.peak_kernels)} ≤ cap {cap}: "
            f"{max(quiet.peak_kernels, attacked.peak_kernels) <= cap}; memory "
            f"{memory:.2f}× quiet ≤ 1.10: {memory <= 1.10}; p95 {ratio:.2f}× quiet ≤ 1.5: "
            f"{ratio <= 1.5}"
        )
        print(f"kernels left {CULL_WAIT} s after the pages went: {left} (the pool: {cap})")
        refused = log.read_text("utf-8", errors="replace").count("Disconnected a page")
        print(f"pages disconnected for their messages: {refused}")
    finally:
        stop(server)


PAGE_RUN = """
import resource, sys, time
from dekbovinoj_edu.widgets.practice import Practice
view = Practice(level=3, lang="en", prepare_in_background=False)
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.process_time()
view.code_field.value = sys.argv[1]
view.load_button.click()
view.mu_button.click()
print(f"{time.process_time() - start:.2f}",
      f"{(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) / 1024:.0f}")
"""


def codes() -> None:
    for name, code in CODES.items():
        done = subprocess.run(
            [sys.executable, "-c", PAGE_RUN, code],
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        spent, grown = done.stdout.split()
        print(f"code {code} ({name}): {spent} processor-s, {grown} MB more (goal ≤ 2 s, ≤ 100 MB)")


SERVICE_STUDENTS = 30
SERVICE_SECONDS = 20.0
IDLE_CONNECTIONS = 3000
"""Connections the hostile address opens and leaves idle (the cap per address is 600)."""
EXPENSIVE = ("√√√√√√9^8^9^8", "√√√√√9^8^9^8", "9^8^9^8", "√(9^8^7)^√(9^8^7)")
"""Answers a student can type at :data:`SERVICE_CODE` that cost the checker the most (the
first about 0.3 processor-seconds)."""
SERVICE_CODE = "C945-X2EP-B8F3"
"""9♣ 8♠ | 9♠ 8♣ 7♣ 7♠ at level 3: black cards, so towers of powers pass the colour rule."""
HONEST_ANSWER = "9 + 8 - 7"
WARM_UP = 2
"""Each honest student's first answers, not counted (the service works out the puzzle's best
answers on the first)."""


def _post(
    port: int, source: str, path: str, body: dict[str, object], token: str = ""
) -> tuple[int, dict[str, object]]:
    """One JSON POST from the address ``source``; its status and answer."""
    connection = http.client.HTTPConnection(HOST, port, timeout=30, source_address=(source, 0))
    try:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        connection.request("POST", path, json.dumps(body), headers)
        answer = connection.getresponse()
        data = answer.read()
        try:
            document = json.loads(data) if data else {}
        except ValueError:
            document = {}
        return answer.status, document if isinstance(document, dict) else {}
    finally:
        connection.close()


@dataclass
class ServiceRun:
    """One run of the class service's part: the honest students' figures, the hostile's."""

    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    held: int = 0
    seats: int = 0
    seat_refusals: int = 0
    refused_with: set[int] = field(default_factory=set)
    expensive: int = 0


def _honest(port: int, number: int, until_time: float, run: ServiceRun) -> None:
    source = f"127.0.1.{number + 1}"
    api = f"/api/v1/classes/{CLASS_NAME}"
    status, joined = _post(
        port, source, f"{api}/join", {"nickname": f"h{number}-{uuid.uuid4().hex[:6]}"}
    )
    if status != 201:
        run.errors.append(f"join {status}")
        return
    token = str(joined.get("token", ""))
    sent = 0
    while time.monotonic() < until_time and sent < 200:
        sent += 1
        body = {"id": uuid.uuid4().hex[:24], "puzzle": 1, "answer": HONEST_ANSWER}
        start = time.monotonic()
        try:
            status, _ = _post(port, source, f"{api}/attempts", body, token)
        except OSError as error:
            run.errors.append(f"attempt: {error}")
            continue
        if sent > WARM_UP:  # the first answers also wait for the puzzle's best answers
            run.latencies.append(time.monotonic() - start)
        if status not in (200, 201):
            run.errors.append(f"attempt {status}")
        time.sleep(1.0)


def _hostile_service(port: int, until_time: float, run: ServiceRun) -> None:
    import socket

    sockets = []
    try:
        for _ in range(IDLE_CONNECTIONS):  # idle connections: the cap closes most at once
            if time.monotonic() > until_time:
                break
            try:
                held = socket.create_connection(
                    (HOST, port), timeout=5, source_address=(HOSTILE, 0)
                )
            except OSError:
                continue
            sockets.append(held)
        time.sleep(0.5)
        for held in sockets:
            held.setblocking(False)
            try:
                run.held += held.recv(1) != b""  # b"": closed by the service
            except BlockingIOError:
                run.held += 1  # still open
            except OSError:
                pass
        for held in sockets:  # the seat flood needs connections of its own
            held.close()
        sockets.clear()
        api = f"/api/v1/classes/{CLASS_NAME}"
        tokens: list[str] = []
        made = 0
        while time.monotonic() < until_time and made < 2_000:  # seats with new nicknames
            made += 1
            try:
                status, joined = _post(port, HOSTILE, f"{api}/join", {"nickname": f"x{made}"})
            except OSError:
                continue
            if status == 201:
                run.seats += 1
                tokens.append(str(joined.get("token", "")))
            else:
                run.seat_refusals += 1
                run.refused_with.add(status)
                if len(tokens) and run.seat_refusals >= 50:
                    break
        sent = 0
        while time.monotonic() < until_time and tokens and sent < 5_000:  # expensive answers
            token = tokens[sent % len(tokens)]
            body = {
                "id": uuid.uuid4().hex[:24],
                "puzzle": 1,
                "answer": EXPENSIVE[sent % len(EXPENSIVE)],
            }
            sent += 1
            try:
                _post(port, HOSTILE, f"{api}/attempts", body, token)
            except OSError:
                continue
            run.expensive += 1
    finally:
        for held in sockets:
            held.close()


def _service_run(port: int, attack: bool) -> ServiceRun:
    import threading

    run = ServiceRun()
    until_time = time.monotonic() + SERVICE_SECONDS
    threads = [
        threading.Thread(target=_honest, args=(port, n, until_time, run))
        for n in range(SERVICE_STUDENTS)
    ]
    if attack:
        threads.append(threading.Thread(target=_hostile_service, args=(port, until_time, run)))
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=SERVICE_SECONDS + 120)
    return run


CLASS_NAME = "4h"


def class_service() -> None:
    import resource

    from dekbovinoj_edu.classroom.assignment import codes_assignment
    from dekbovinoj_edu.classroom.store import open_store

    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))
    folder = Path(tempfile.mkdtemp(prefix="dekbovinoj-bench-hostile-service-"))
    db = folder / "classes.sqlite3"
    store = open_store(db)
    store.add_class(codes_assignment(CLASS_NAME, f"{SERVICE_CODE},{SERVICE_CODE}"))
    store.close()
    port = free_port()
    log = folder / "service.log"
    command = [sys.executable, "-m", "dekbovinoj_edu.cli", "class", "serve", CLASS_NAME,
               "--db", str(db), "--port", str(port)]  # fmt: skip
    with log.open("wb") as output:
        server = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 60
        while "Ctrl+C" not in log.read_text("utf-8", errors="replace"):
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(log.read_text("utf-8", errors="replace")[-2000:])
            time.sleep(0.2)
        quiet = _service_run(port, attack=False)
        attacked = _service_run(port, attack=True)
    finally:
        stop(server)
    text = log.read_text("utf-8", errors="replace")
    q95, h95 = percentile(quiet.latencies, 0.95), percentile(attacked.latencies, 0.95)
    for name, run in (("quiet", quiet), ("hostile", attacked)):
        print(
            f"class service, {name}: {len(run.latencies)} honest answers, latency p50 "
            f"{statistics.median(run.latencies) * 1000:.1f} ms, p95 "
            f"{percentile(run.latencies, 0.95) * 1000:.1f} ms, errors {len(run.errors)}"
        )
    print(
        f"hostile address: {attacked.held} of {IDLE_CONNECTIONS} idle connections held open; "
        f"{attacked.seats} seats made, {attacked.seat_refusals} refused "
        f"({sorted(attacked.refused_with)}); "
        f"{attacked.expensive} expensive answers sent"
    )
    tracebacks = text.count("Traceback")
    lines = len(text.splitlines())
    print(f"service's lines: {lines} (tracebacks {tracebacks})")
    ok = h95 <= max(1.5 * q95, 0.050) and not attacked.errors and not quiet.errors
    print(
        f"goals: hostile p95 {h95 * 1000:.1f} ms ≤ max(1.5 × quiet {q95 * 1000:.1f} ms, 50 ms): "
        f"{h95 <= max(1.5 * q95, 0.050)}; honest errors 0: "
        f"{not attacked.errors and not quiet.errors}; no traceback: {tracebacks == 0}; "
        f"all: {ok and tracebacks == 0}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--students", type=int, default=10)
    parser.add_argument("--codes", action="store_true", help="only the worst codes")
    parser.add_argument("--service", action="store_true", help="only the class service")
    args = parser.parse_args()
    print(describe())
    if args.codes:
        codes()
        return
    if args.service:
        class_service()
        return
    classroom(args.students, args.seconds)
    codes()
    class_service()
    print(f"load: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")


if __name__ == "__main__":
    main()
