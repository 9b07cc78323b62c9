"""The static site (``dekbovinoj build-site``) in headless Chromium: how soon it is usable, how
much it downloads, and how fast each click is answered.

Usage: ``python benchmarks/bench_site.py [SITE]``: it builds the site into a temporary
folder unless SITE is an existing build, serves it on 127.0.0.1 with ``http.server`` and
opens it in Debian's Chromium through Playwright:

- first visit (empty browser cache): seconds from opening to the usable app, MB downloaded
  by then;
- repeat visits (the same browser, its cache kept): seconds to usable, each and their median;
- clicks on a new puzzle: "Mu!", "Show the best answers", "Dek bovinoj!", "Hint", "New puzzle";
- then a level-3 puzzle opened by code and a √ answer checked at once (the checker computes
  sums of square roots itself: the site loads sympy only for a value beyond them).

Goals (on a 2-core machine): first visit usable in ≤ 12 s with ≤ 25 MB, repeat visit
≤ 6 s, every click answered in ≤ 1 s. It prints how fast and how busy the machine is first
(:mod:`machine`), and the load average after.

A classroom: ``python benchmarks/bench_site.py [SITE] --class 30 --link 50``. The class
service (``dekbovinoj class serve bench --site SITE``, a process of its own) serves the site
through a shaping proxy of the bench's own on 127.0.0.1: one token bucket of ``--link``
Mbit/s shared by every student's connections in both directions, as one access point's air
is. Each student has a port of the proxy, which reaches the service from an address of its
own (127.0.1.N), as students' tablets do. The page's requests are recorded once with Chromium
(the class page, up to its join screen); then ``--class`` students start within 10 s:
``--pages`` (at least 3) are Chromium pages that must show the join screen, the others HTTP
clients that fetch what the page fetched, six connections at a time, as a browser does,
accepting brotli and gzip. Then each student visits again with its cache (the HTTP clients
ask again only for what was not sent ``immutable``, with the ``ETag``). It prints the bytes
of a first and a repeat visit (as the files are, and on the wire), the seconds until each
student's screen is there (p50, p95, max), the failures, and the service's processor time
and memory. Last, one Chromium page as a school Chromebook: the network throttled to
10 Mbit/s (the proxy, and CDP's own throttling of the page) and the page's processor 4×
slower (CDP ``Emulation.setCPUThrottlingRate``; the browser's Python runs in a web worker,
which CDP does not slow down).
Goals: a first visit ≤ 8 MB on the wire, a repeat visit ≤ 0.3 MB; 30 students through
50 Mbit/s all usable within 60 s, p95 ≤ 45 s, no failure; the Chromebook ≤ 15 s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the package, and tests/support

from machine import describe
from support.processes import children, cpu_seconds, rss_bytes
from support.servers import SiteServer, free_port, serve_site
from support.shown import open_settings

from dekbovinoj_edu.site.build import build_site

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
USABLE = ".dkb-practice .dkb-submit"
LOAD_LIMIT_MS = 180_000
CLICK_LIMIT_MS = 60_000
ROUNDS = 3
REPEATS = 5
"""Repeat visits: the first of them is often slower, while the browser still compiles the
WebAssembly it then keeps in its cache."""
ROOTS_CODE, ROOTS_ANSWER = "CCVR-JREG-245P", "√8*√8+5+3-6"
"""A level-3 puzzle (8♠ 3♣ 6♥ | 8♣ JK 5♣) and an answer whose values are irrational on the
way: sums of square roots, which the checker computes without sympy."""
SETTLE_MS = 3000
"""How long a page is left after it is usable before the clicks (what it downloads then is
printed apart: the app downloads nothing more; sympy comes only for a value that needs it)."""


def visit(context: Any, server: SiteServer) -> tuple[float, int, list[str], Any]:
    """Open the app in a new page: seconds to usable, bytes served by then, addresses asked
    for."""
    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.on("worker", lambda worker: asked.append(worker.url))
    server.sent = 0
    start = time.perf_counter()
    page.goto(server.url)
    page.locator(USABLE).wait_for(state="visible", timeout=LOAD_LIMIT_MS)
    seconds = time.perf_counter() - start
    sent = server.sent
    page.wait_for_timeout(SETTLE_MS)
    if server.sent != sent:
        print(f"  ({(server.sent - sent) / 1e6:.1f} MB more in the {SETTLE_MS} ms after)")
    return seconds, sent, asked, page


def click_time(page: Any, css: str, answer: str) -> float:
    """Seconds from a click on ``css`` until ``answer`` changes (the app's reply on screen)."""
    target = page.locator(answer)
    before = target.inner_html()
    start = time.perf_counter()
    page.locator(css).click()
    page.wait_for_function(
        "([s, old]) => { const e = document.querySelector(s); return e && e.innerHTML !== old; }",
        arg=[answer, before],
        timeout=CLICK_LIMIT_MS,
        polling=20,
    )
    return time.perf_counter() - start


def typed_time(page: Any, css: str, text: str, answer: str, expected: str) -> float:
    """Seconds from typing ``text`` and Enter into ``css`` until ``answer`` shows
    ``expected``."""
    start = time.perf_counter()  # typing alone runs the checker (the echo): it counts too
    page.locator(css).fill(text)
    page.locator(css).press("Enter")
    page.wait_for_function(
        "([s, want]) => { const e = document.querySelector(s);"
        " return e && e.textContent.includes(want); }",
        arg=[answer, expected],
        timeout=CLICK_LIMIT_MS,
        polling=20,
    )
    return time.perf_counter() - start


# --- a classroom: the class service behind one shared link -------------------------------------

CLASS = "bench"
CLASS_CODES = "68VN-AV66-GGK"
"""The class's one puzzle (Peter's): the bench measures the site, not the class."""
JOIN_SCREEN = ".dkb-nickname input"
"""What a student's class page shows once it is usable: the join screen."""
START_WITHIN = 10.0
"""Seconds over which the students start, one after another."""
CLASS_LIMIT = 300.0
"""The longest a student may take to be usable (then it counts as failed)."""
CHUNK = 16 * 1024
"""Bytes the proxy moves at a time."""
BURST = 64 * 1024
"""The token bucket's depth (bytes)."""
BROWSER_CONNECTIONS = 6
"""Connections a browser opens to one server (HTTP/1.1); the HTTP students do the same."""
LAN_ACCEPT = "gzip, deflate"
"""What Chromium accepts from a class service at a school network's address over plain HTTP
(brotli only over HTTPS and from this computer, 127.0.0.1, where the bench's pages are)."""
CHROMEBOOK_MBIT = 10.0
CHROMEBOOK_CPU = 4


class TokenBucket:
    """``rate`` bytes a second for everyone who takes from it, in the order they asked."""

    def __init__(self, rate: float, burst: int = BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens = float(burst)
        self.last = time.monotonic()
        self.lock = asyncio.Lock()

    async def take(self, count: int) -> None:
        async with self.lock:  # first come, first served
            for _ in range(10_000):
                now = time.monotonic()
                self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
                self.last = now
                if self.tokens >= count:
                    self.tokens -= count
                    return
                await asyncio.sleep((count - self.tokens) / self.rate)


@dataclass
class Lane:
    """One student's port of the proxy, and what went through it."""

    port: int
    source: str
    down: int = 0
    up: int = 0
    connections: int = 0


class ShapingProxy:
    """A TCP proxy on 127.0.0.1: each :class:`Lane`'s port to the service, every byte (both
    ways) through one :class:`TokenBucket`."""

    def __init__(self, target: int, bucket: TokenBucket) -> None:
        self.target, self.bucket = target, bucket
        self.servers: list[asyncio.Server] = []
        self.lanes: list[Lane] = []

    async def lane(self, number: int) -> Lane:
        lane = Lane(free_port(), f"127.0.1.{number + 1}")
        server = await asyncio.start_server(
            lambda r, w: self._carry(lane, r, w), "127.0.0.1", lane.port
        )
        self.servers.append(server)
        self.lanes.append(lane)
        return lane

    async def _carry(
        self, lane: Lane, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> None:
        lane.connections += 1
        try:
            far_reader, far_writer = await asyncio.open_connection(
                "127.0.0.1", self.target, local_addr=(lane.source, 0)
            )
        except OSError:
            writer.close()
            return
        await asyncio.gather(
            self._pipe(reader, far_writer, lane, "up"),
            self._pipe(far_reader, writer, lane, "down"),
            return_exceptions=True,
        )

    async def _pipe(
        self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, lane: Lane, way: str
    ) -> None:
        try:
            while True:  # ends at the end of the stream (or a reset)
                data = await reader.read(CHUNK)
                if not data:
                    break
                await self.bucket.take(len(data))
                setattr(lane, way, getattr(lane, way) + len(data))
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    def close(self) -> None:
        for server in self.servers:
            server.close()


class ClassService:
    """``dekbovinoj class serve bench --site SITE`` as a process of its own."""

    def __init__(self, site: Path, folder: Path, root: Path = ROOT) -> None:
        from dekbovinoj_edu.classroom.store.classes import new_class

        self.db = folder / "classes.sqlite3"
        new_class(CLASS, codes=CLASS_CODES, db=self.db)
        self.port = free_port()
        self.log = folder / "service.log"
        command = [sys.executable, "-m", "dekbovinoj_edu.cli", "class", "serve", CLASS,
                   "--db", str(self.db), "--port", str(self.port), "--site", str(site)]  # fmt: skip
        with self.log.open("ab") as out:
            environment = {**os.environ, "PYTHONPATH": str(root)}
            self.process = subprocess.Popen(
                command, stdout=out, stderr=subprocess.STDOUT, env=environment
            )
        self.peak_rss = 0
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the class service stopped: see {self.log}")
            try:
                with urllib.request.urlopen(f"{self.url}api/v1/classes/{CLASS}", timeout=2):
                    return
            except OSError:
                time.sleep(0.1)
        raise TimeoutError("the class service did not start within 60 s")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def pids(self) -> list[int]:
        return [self.process.pid, *children(self.process.pid)]

    def cpu(self) -> float:
        return cpu_seconds(self.pids())

    def sample(self) -> None:
        self.peak_rss = max(self.peak_rss, sum(rss_bytes(pid) for pid in self.pids()))

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(30)


@contextmanager
def class_service(site: Path, folder: Path) -> Iterator[ClassService]:
    service = ClassService(site, folder)
    try:
        yield service
    finally:
        service.stop()


async def record_requests(browser: Any, url: str) -> dict[str, int]:
    """The paths a student's first visit of the class page asks for (GET, the site's own),
    until its join screen is there, each with the status the page was answered (the site's
    ``api/contents/all.json`` is JupyterLite's, which the class service's API answers 404:
    the page goes on without it)."""
    context = await browser.new_context()
    asked: dict[str, int] = {}

    def answered(response: Any) -> None:
        if response.request.method == "GET" and response.url.startswith(url):
            asked.setdefault(response.url[len(url) - 1 :], response.status)

    try:
        page = await context.new_page()
        page.on("response", answered)
        await page.goto(url)
        await page.locator(JOIN_SCREEN).wait_for(state="visible", timeout=CLASS_LIMIT * 1000)
    finally:
        await context.close()
    return asked


@dataclass
class Visit:
    """One student's visit: seconds until usable (None: failed), bytes as the files are."""

    seconds: float | None = None
    raw: int = 0
    wire: int = 0
    failures: list[str] = field(default_factory=list)


@dataclass
class Kept:
    """What an HTTP student's cache keeps of one answer."""

    etag: str | None
    immutable: bool


class HttpStudent:
    """A student whose browser is an HTTP client: it asks for every path a page asked for,
    six connections at a time, and keeps what a browser's cache keeps."""

    def __init__(
        self, lane: Lane, paths: dict[str, int], sizes: dict[str, int], accept: str
    ) -> None:
        self.lane, self.paths, self.sizes, self.accept = lane, paths, sizes, accept
        self.kept: dict[str, Kept] = {}

    async def visit(self) -> Visit:
        visit = Visit()
        start, before = time.monotonic(), self.lane.down
        queue = list(self.paths)
        workers = [self._connection(queue, visit) for _ in range(BROWSER_CONNECTIONS)]
        await asyncio.wait_for(asyncio.gather(*workers), CLASS_LIMIT)
        visit.wire = self.lane.down - before
        if not visit.failures:
            visit.seconds = time.monotonic() - start
        return visit

    async def _open(self) -> list[Any]:
        return list(await asyncio.open_connection("127.0.0.1", self.lane.port))

    async def _connection(self, queue: list[str], visit: Visit) -> None:
        link = await self._open()  # [reader, writer]: kept alive, as a browser keeps it
        try:
            while queue:
                path = queue.pop(0)
                kept = self.kept.get(path)
                if kept is not None and kept.immutable:
                    continue  # the browser's cache, without asking
                status, headers, body = 0, {}, b""
                for _ in range(5):  # bounded: a closed connection or a refusal, then again
                    try:
                        status, headers, body = await self._ask(link[0], link[1], path, kept)
                    except (asyncio.IncompleteReadError, ConnectionError):
                        status = 0  # the server closed the kept-alive connection: a new one
                        link[1].close()
                        link = await self._open()
                        continue
                    if headers.get("connection", "").lower() == "close":
                        link[1].close()
                        link = await self._open()
                    if status != 503:
                        break
                    await asyncio.sleep(float(headers.get("retry-after", "1")))
                if status == 304 or (status == self.paths[path] and status != 200):
                    continue  # asked and unchanged; or answered as the page was
                if status != self.paths[path]:
                    visit.failures.append(f"{path}: {status}, not {self.paths[path]}")
                    continue
                visit.raw += self.sizes.get(path, len(body))
                immutable = "immutable" in headers.get("cache-control", "")
                self.kept[path] = Kept(headers.get("etag"), immutable)
        finally:
            link[1].close()

    async def _ask(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        path: str,
        kept: Kept | None,
    ) -> tuple[int, dict[str, str], bytes]:
        lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{self.lane.port}",
                 f"Accept-Encoding: {self.accept}", "User-Agent: bench_site"]  # fmt: skip
        if kept is not None and kept.etag:
            lines.append(f"If-None-Match: {kept.etag}")
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode())
        await writer.drain()
        head = await reader.readuntil(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        headers = {}
        for line in header_lines:
            if ":" in line:
                key, value = line.split(":", 1)
                headers[key.strip().lower()] = value.strip()
        status = int(status_line.split()[1])
        length = int(headers.get("content-length", "0"))
        if headers.get("transfer-encoding", "").lower() == "chunked":
            body = bytearray()
            for _ in range(1_000_000):
                size = int((await reader.readuntil(b"\r\n")).strip(), 16)
                body += await reader.readexactly(size + 2)
                if size == 0:
                    break
            return status, headers, bytes(body)
        return status, headers, await reader.readexactly(length)


class PageStudent:
    """A student in Chromium: a browser context of its own (its own cache), through its lane."""

    def __init__(self, browser: Any, lane: Lane, throttled: bool = False) -> None:
        self.browser, self.lane, self.throttled = browser, lane, throttled
        self.context: Any = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.lane.port}/"

    async def visit(self) -> Visit:
        if self.context is None:
            self.context = await self.browser.new_context()
        visit = Visit()
        page = await self.context.new_page()
        if self.throttled:
            await _throttled(page)
        start, before = time.monotonic(), self.lane.down
        try:
            await page.goto(self.url, wait_until="commit", timeout=CLASS_LIMIT * 1000)
            await page.locator(JOIN_SCREEN).wait_for(state="visible", timeout=CLASS_LIMIT * 1000)
            visit.seconds = time.monotonic() - start
        except Exception as error:
            visit.failures.append(f"page: {type(error).__name__}")
        visit.wire = self.lane.down - before
        await page.close()
        return visit

    async def close(self) -> None:
        if self.context is not None:
            await self.context.close()


def _percentiles(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)

    def at(share: float) -> float:
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))]

    return f"p50 {at(0.5):.1f} s, p95 {at(0.95):.1f} s, max {ordered[-1]:.1f} s"


def _summary(name: str, visits: list[Visit], raw: bool = True) -> str:
    usable = [v.seconds for v in visits if v.seconds is not None]
    failed = sum(1 for v in visits if v.seconds is None)
    files = f"{statistics.mean(v.raw for v in visits) / 1e6:.2f} MB as the files are, " * raw
    wire = statistics.mean(v.wire for v in visits) / 1e6
    most = max(v.wire for v in visits) / 1e6
    return (
        f"{name}: {len(visits)} students, {files}{wire:.2f} MB on the wire each (at most "
        f"{most:.2f}); usable {_percentiles(usable)}; {failed} failed"
    )


async def classroom(site: Path, args: argparse.Namespace, folder: Path) -> None:
    from playwright.async_api import async_playwright

    pages = max(3, min(args.pages, args.students))
    with class_service(site, folder) as service:
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
            )
            paths = await record_requests(browser, service.url)
            print(f"the class page's first visit asks for {len(paths)} files", flush=True)
            bucket = TokenBucket(args.link * 1e6 / 8)
            proxy = ShapingProxy(service.port, bucket)
            lanes = [await proxy.lane(number) for number in range(args.students)]
            sizes = {path: _size(site, path) for path in paths}
            students: list[Any] = [PageStudent(browser, lane) for lane in lanes[:pages]]
            students += [HttpStudent(lane, paths, sizes, args.accept) for lane in lanes[pages:]]
            random.Random(42).shuffle(students)  # the pages start among the others
            cpu_before = service.cpu()

            async def started(number: int, student: Any) -> Visit:
                await asyncio.sleep(number * START_WITHIN / len(students))
                try:
                    return await student.visit()
                except Exception as error:
                    return Visit(failures=[f"{type(error).__name__}: {error}"])

            async def sampling(done: asyncio.Event) -> None:
                while not done.is_set():
                    service.sample()
                    await asyncio.sleep(0.5)

            done = asyncio.Event()
            sampler = asyncio.create_task(sampling(done))
            start = time.monotonic()
            first = await asyncio.gather(*(started(n, s) for n, s in enumerate(students)))
            whole = time.monotonic() - start
            repeat = await asyncio.gather(*(s.visit() for s in students))
            done.set()
            await sampler
            cpu = service.cpu() - cpu_before
            for student in students:
                if isinstance(student, PageStudent):
                    await student.close()
            proxy.close()
            page_first = [
                v for s, v in zip(students, first, strict=True) if isinstance(s, PageStudent)
            ]
            print(f"link {args.link:g} Mbit/s shared by {args.students} students, started "
                  f"within {START_WITHIN:g} s; all done in {whole:.1f} s; the HTTP students "
                  f"accept {args.accept!r}")  # fmt: skip
            http_first = [
                v for s, v in zip(students, first, strict=True) if isinstance(s, HttpStudent)
            ]
            http_repeat = [
                v for s, v in zip(students, repeat, strict=True) if isinstance(s, HttpStudent)
            ]
            page_repeat = [
                v for s, v in zip(students, repeat, strict=True) if isinstance(s, PageStudent)
            ]
            print(_summary("first visit, every student", first, raw=False))
            print(_summary("  HTTP students", http_first))
            print(_summary("  Chromium pages", page_first, raw=False))
            print(_summary("repeat visit, every student", repeat, raw=False))
            print(_summary("  HTTP students", http_repeat))
            print(_summary("  Chromium pages", page_repeat, raw=False))
            for visit in first + repeat:
                for failure in visit.failures[:3]:
                    print("  failed:", failure)
            print(f"service: {cpu:.1f} s of processor time, {service.peak_rss / 1e6:.0f} MB "
                  "resident at most")  # fmt: skip
            if args.chromebook:
                await chromebook(browser, service)
            await browser.close()


async def chromebook(browser: Any, service: ClassService) -> None:
    """One page as a school Chromebook: 10 Mbit/s, a processor 4× slower; first and repeat."""
    proxy = ShapingProxy(service.port, TokenBucket(CHROMEBOOK_MBIT * 1e6 / 8))
    student = PageStudent(browser, await proxy.lane(200), throttled=True)
    results = [await student.visit() for _ in range(2)]
    await student.close()
    proxy.close()
    for name, visit in zip(("first", "repeat"), results, strict=True):
        shown = f"{visit.seconds:.1f} s" if visit.seconds is not None else "failed"
        profile = f"{CHROMEBOOK_MBIT:g} Mbit/s, processor {CHROMEBOOK_CPU}x slower"
        print(f"Chromebook ({profile}), {name} visit: usable in {shown}, "
              f"{visit.wire / 1e6:.2f} MB on the wire")  # fmt: skip


async def _throttled(page: Any) -> None:
    session = await page.context.new_cdp_session(page)
    await session.send("Network.enable")
    rate = CHROMEBOOK_MBIT * 1e6 / 8
    await session.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 20, "downloadThroughput": rate, "uploadThroughput": rate},
    )
    await session.send("Emulation.setCPUThrottlingRate", {"rate": CHROMEBOOK_CPU})


def _size(site: Path, path: str) -> int:
    """The size of the site's file at the address ``path`` (0: not a file of the site)."""
    relative = urllib.parse.unquote(path.split("?")[0]).lstrip("/")
    file = site / relative
    return file.stat().st_size if relative and file.is_file() else 0


def single_page(given: Path | None) -> int:
    """One page of the app, served by ``http.server``: first visit, repeats, clicks."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as temp:
        if given is not None and given.is_dir():
            site = given
        else:
            start = time.perf_counter()
            site = build_site(Path(temp) / "site")
            print(f"build: {time.perf_counter() - start:.1f} s")
        with serve_site(site) as server, sync_playwright() as playwright:
            url = server.url
            # A profile on disk, as a student's browser has: its cache serves the repeat visit.
            context = playwright.chromium.launch_persistent_context(
                str(Path(temp) / "profile"),
                executable_path=CHROMIUM,
                args=CHROMIUM_ARGS,
                headless=True,
                viewport={"width": 1100, "height": 1000},
            )
            first, size, asked, page = visit(context, server)
            outside = [a for a in asked if not a.startswith(url) and not a.startswith("data:")]
            print(
                f"first visit: usable in {first:.1f} s, {size / 1e6:.1f} MB downloaded, "
                f"{len(asked)} requests, {len(outside)} outside the site"
            )
            clicks: dict[str, list[float]] = {}
            for _ in range(ROUNDS):
                for name, css, answer in (
                    ("New puzzle", ".dkb-new", ".dkb-current-code"),
                    ("Mu!", ".dkb-mu", ".dkb-feedback"),
                    ("New puzzle", ".dkb-new", ".dkb-current-code"),
                    ("Show the best answers", ".dkb-best", ".dkb-answers"),
                    ("New puzzle", ".dkb-new", ".dkb-current-code"),
                    ("Hint", ".dkb-hint", ".dkb-feedback"),
                    ("Dek bovinoj!", ".dkb-submit", ".dkb-feedback"),
                ):
                    clicks.setdefault(name, []).append(click_time(page, css, answer))
            # Level 3 at once: a √ answer, checked without sympy (the code box is in Settings).
            open_settings(page)
            level3 = typed_time(
                page, ".dkb-code input", ROOTS_CODE, ".dkb-current-code", ROOTS_CODE
            )
            root = typed_time(
                page, ".dkb-expression input", ROOTS_ANSWER, ".dkb-feedback", "Dek bovinoj!"
            )
            after = server.sent
            verdict = page.locator(".dkb-feedback").inner_text().strip()
            errors = page.locator(".dkb-errors").inner_text()
            page.close()
            repeats = []
            for _ in range(REPEATS):
                seconds, again, _asked, page = visit(context, server)
                repeats.append((seconds, again))
                page.close()
            context.close()
    print(
        "repeat visits: usable in "
        + ", ".join(f"{seconds:.1f}" for seconds, _ in repeats)
        + f" s (median {statistics.median(s for s, _ in repeats):.1f} s), "
        + f"{max(again for _, again in repeats) / 1e6:.1f} MB downloaded at most"
    )
    for name, times in clicks.items():
        print(
            f"click {name!r}: median {statistics.median(times):.2f} s, "
            f"max {max(times):.2f} s ({len(times)} clicks)"
        )
    print(
        f"level 3 at once: opening {ROOTS_CODE} {level3:.2f} s, checking {ROOTS_ANSWER!r} "
        f"{root:.2f} s ({verdict!r}; {after / 1e6:.1f} MB downloaded in all this visit)"
    )
    if errors.strip():
        print("the app showed an error:", errors)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "site", nargs="?", help="a built site (built into a temporary folder if not)"
    )
    parser.add_argument(
        "--class",
        dest="students",
        type=int,
        default=0,
        help="a classroom of this many students through the class service",
    )
    parser.add_argument("--link", type=float, default=50.0, help="the shared link, Mbit/s")
    parser.add_argument(
        "--pages",
        type=int,
        default=3,
        help="how many of the students are Chromium pages (at least 3)",
    )
    parser.add_argument(
        "--accept",
        default=LAN_ACCEPT,
        help=f"the HTTP students' Accept-Encoding (default {LAN_ACCEPT!r})",
    )
    parser.add_argument("--no-chromebook", dest="chromebook", action="store_false",
                        help="without the throttled Chromebook page after the class")  # fmt: skip
    args = parser.parse_args()
    print(describe(), flush=True)
    given = Path(args.site) if args.site else None
    if not args.students:
        result = single_page(given)
    else:
        with tempfile.TemporaryDirectory() as temp:
            if given is not None and given.is_dir():
                site = given
            else:
                start = time.perf_counter()
                site = build_site(Path(temp) / "site", classroom=True)
                print(f"build: {time.perf_counter() - start:.1f} s")
            asyncio.run(classroom(site, args, Path(temp)))
        result = 0
    load = os.getloadavg()
    print(f"load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    print(f"uptime: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}")
    return result


if __name__ == "__main__":
    raise SystemExit(main())
