"""A whole class opens the app at once: is every student's app usable, quickly, and does the
server give its memory back when they leave?

It starts ``dekbovinoj serve`` (Voilà) on 127.0.0.1 only, with ``--class-size`` set to
the number of students, and waits for its ``ready`` line. Then ``--students`` students
open the app within ``--spread`` seconds: ``--browsers`` of them in real pages of headless
Chromium (usable: the practice widget drawn with its card buttons enabled), the others as
plain HTTP loads of the app page (usable: the page holds the app's widget output). A page
without the app is a blank page. The browser students answer one puzzle, stay
``--stay`` seconds, and close their pages (the light page asks the server to stop its kernel as
its tab closes; Voilà's page, closed without its ``beforeunload``, and the HTTP students leave
without a goodbye: the culler must notice). The benchmark then watches ``--after`` seconds.

It prints the usable count, blank pages, p50/p95/max time to usable, peak RSS of the server
plus its kernels, RSS per kernel, and the kernel count and RSS after everyone left.
Goals (2 cores): 30/30 usable, 0 blank, p95 <= 10 s, peak RSS <= 4 GB, kernel count back
to the pool size (the class and its spares, 36 for 30) within 3 minutes.

Every wait has a deadline and every student loads the page once: it stops by itself.

``--page voila`` serves Voilà's own page instead of the light page (``serve --page``).

Run: ``python benchmarks/bench_classroom.py --students 30 [--browsers 10] [--spread 10]
[--page light|voila]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/support

from machine import describe
from playwright.async_api import Browser, async_playwright
from support.processes import (
    ServerProcesses,
    children,
    command_line,
    cpu_seconds,
)
from support.servers import free_port, start_in_background, stop, wait_until_up

from dekbovinoj_edu.serving.kernels import pool_size
from dekbovinoj_edu.serving.light_page import PAGES
from dekbovinoj_edu.serving.notebooks import find_notebook
from dekbovinoj_edu.serving.options import ServeOptions

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
HOST = "127.0.0.1"
WIDGET_OUTPUT = "application/vnd.jupyter.widget-view+json"
READY_TIMEOUT = 900.0
"""Seconds the pool may take to be ready (30 kernels warming two at a time, busy machine)."""
STUDENT_TIMEOUT = 120.0
"""Seconds one student waits for a usable app before it counts as not usable."""
MB = 1024 * 1024


@dataclass
class Student:
    """What one student saw."""

    number: int
    kind: str
    usable: bool = False
    blank: bool = False
    seconds: float = 0.0
    note: str = ""


class Sampler(threading.Thread):
    """Samples the server's processes, and this benchmark's Chromium, every ``every`` seconds
    until stopped.

    Chromium's processor time is summed over every process it had, each at its last sample:
    a page's renderer is gone once the page is closed, and its time with it.
    """

    def __init__(self, pid: int, every: float = 0.5) -> None:
        super().__init__(daemon=True)
        self.pid, self.every = pid, every
        self.peak_rss, self.peak_kernels = 0, 0
        self.chromium: dict[int, float] = {}
        self._stop_event = threading.Event()

    def run(self) -> None:
        while not self._stop_event.is_set():
            snapshot = ServerProcesses.of(self.pid)
            self.peak_rss = max(self.peak_rss, snapshot.total_rss)
            self.peak_kernels = max(self.peak_kernels, snapshot.kernel_count)
            for pid in chromium_pids():
                self.chromium[pid] = max(self.chromium.get(pid, 0.0), cpu_seconds([pid]))
            self._stop_event.wait(self.every)

    @property
    def chromium_seconds(self) -> float:
        """Processor seconds used by this benchmark's Chromium so far (all its processes)."""
        return sum(self.chromium.values())

    def stop(self) -> None:
        self._stop_event.set()
        self.join(timeout=10)


def wait_for_ready(log: Path, server: subprocess.Popen[bytes], timeout: float) -> float:
    """Seconds until the server printed its ``ready`` line."""
    start = time.monotonic()
    while time.monotonic() - start < timeout:
        if "ready:" in log.read_text("utf-8", errors="replace"):
            return time.monotonic() - start
        if server.poll() is not None:
            raise RuntimeError(f"the server stopped ({server.returncode}); see {log}")
        time.sleep(0.5)
    raise TimeoutError(f"no 'ready' line within {timeout:g} s; see {log}")


def load_page(url: str) -> tuple[bool, float, str]:
    """One plain HTTP load of the app page: (has the app's widget output, seconds, note)."""
    start = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=STUDENT_TIMEOUT) as response:
            page = response.read().decode("utf-8", "replace")
    except OSError as error:
        return False, time.monotonic() - start, f"{type(error).__name__}: {error}"
    return WIDGET_OUTPUT in page, time.monotonic() - start, ""


async def http_student(student: Student, url: str, delay: float) -> None:
    await asyncio.sleep(delay)
    usable, seconds, note = await asyncio.to_thread(load_page, url)
    student.usable, student.seconds, student.note = usable, seconds, note
    student.blank = not usable and not note


async def browser_student(
    student: Student, browser: Browser, url: str, delay: float, stay: float
) -> None:
    await asyncio.sleep(delay)
    page = await browser.new_page(viewport={"width": 1100, "height": 900})
    start = time.monotonic()
    try:
        await page.goto(url, timeout=STUDENT_TIMEOUT * 1000)
        remaining = max(1.0, STUDENT_TIMEOUT - (time.monotonic() - start)) * 1000
        await page.locator(".dkb-card").first.wait_for(state="visible", timeout=remaining)
        await page.wait_for_function(
            "() => { const card = document.querySelector('.dkb-card');"
            " return card && !card.disabled && document.querySelector('.dkb-submit'); }",
            timeout=remaining,
        )
        student.usable, student.seconds = True, time.monotonic() - start
        box = page.locator(".dkb-expression input")
        await box.fill("1+2")
        await page.locator(".dkb-submit").click()
        await page.wait_for_function(
            "() => (document.querySelector('.dkb-feedback')?.innerText || '').trim().length > 0",
            timeout=30_000,
        )
        await asyncio.sleep(stay)
    except Exception as error:  # a timeout or a closed page: the student had no app
        student.seconds = time.monotonic() - start
        shown = await page.locator("#rendered_cells").count() if not page.is_closed() else 0
        student.blank = not student.usable and shown > 0
        student.note = f"{type(error).__name__}: {str(error).splitlines()[0][:120]}"
    finally:
        await page.close()


async def run_class(
    url: str, students: int, browsers: int, spread: float, stay: float, sampler: Sampler
) -> tuple[list[Student], float]:
    roster = [
        Student(number, "browser" if number < browsers else "http") for number in range(students)
    ]
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            step = spread / max(1, students - 1)
            order = sorted(range(students), key=lambda n: (n % 3, n))  # mix the two kinds
            jobs = []
            for slot, number in enumerate(order):
                student, delay = roster[number], slot * step
                if student.kind == "browser":
                    jobs.append(browser_student(student, browser, url, delay, stay))
                else:
                    jobs.append(http_student(student, url, delay))
            await asyncio.gather(*jobs)
            used = sampler.chromium_seconds  # before the browser closes
        finally:
            await browser.close()
    return roster, used


def chromium_pids() -> list[int]:
    """This benchmark's Chromium processes."""
    return [pid for pid in children(os.getpid()) if "chromium" in command_line(pid)]


def machine_busy_seconds() -> float:
    """Processor seconds every process of this computer has used since it started."""
    fields = Path("/proc/stat").read_text().splitlines()[0].split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(f) for f in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))
    return ordered[index]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=30, help="students (default 30)")
    parser.add_argument("--browsers", type=int, default=10, help="in Chromium (default 10)")
    parser.add_argument("--spread", type=float, default=10, help="seconds they arrive within")
    parser.add_argument("--class-size", type=int, default=0, help="pool (default: --students)")
    parser.add_argument("--stay", type=float, default=20, help="seconds a browser student stays")
    parser.add_argument("--after", type=float, default=180, help="seconds watched after")
    parser.add_argument(
        "--page", choices=tuple(PAGES), default="light", help="the page (default light)"
    )
    args = parser.parse_args()
    class_size = args.class_size or args.students
    pool = pool_size(class_size)
    browsers = min(args.browsers, args.students)

    port = free_port()
    url = f"http://{HOST}:{port}/"
    log = Path(tempfile.mkdtemp(prefix="bench-classroom-")) / "voila.log"
    options = ServeOptions(find_notebook(), host=HOST, class_size=class_size, page=args.page)
    print(describe(), flush=True)
    server = start_in_background(port, log=log, options=options)
    sampler = Sampler(server.pid)
    try:
        wait_until_up(port, timeout=120, process=server, host=HOST)
        ready_after = wait_for_ready(log, server, READY_TIMEOUT)
        deadline = time.monotonic() + READY_TIMEOUT  # the spares warm up after the class's
        while ServerProcesses.of(server.pid).kernel_count < pool:
            if time.monotonic() > deadline:
                raise TimeoutError(f"the pool did not reach {pool} kernels; see {log}")
            time.sleep(1)
        time.sleep(5)  # the last spares run the app notebook
        idle = ServerProcesses.of(server.pid)
        print(
            f"ready after {ready_after:.0f} s: {idle.kernel_count} kernels, "
            f"{idle.total_rss / MB:.0f} MB (server {idle.server_rss / MB:.0f} MB)",
            flush=True,
        )
        sampler.start()
        pooled = {pid for pid, _ in idle.kernels}
        started = time.monotonic()
        server_before = (cpu_seconds([server.pid]), cpu_seconds(children(server.pid)))
        machine_before = machine_busy_seconds()
        roster, chromium = asyncio.run(
            run_class(url, args.students, browsers, args.spread, args.stay, sampler)
        )
        machine = machine_busy_seconds() - machine_before
        # Kernels that were shut down in class are not counted: a lower bound for the kernels.
        cpu_used = [
            chromium,
            cpu_seconds([server.pid]) - server_before[0],
            cpu_seconds(children(server.pid)) - server_before[1],
        ]
        in_class = time.monotonic() - started
        busy = ServerProcesses.of(server.pid)
        left_at = time.monotonic()
        back_after: float | None = None
        print(f"everyone left after {in_class:.0f} s; watching {args.after:g} s", flush=True)
        while time.monotonic() - left_at < args.after:
            now = ServerProcesses.of(server.pid)
            # The students took the oldest kernels of the pool that was ready before the class:
            # back means all of those gone (the spares they left stay), and the pool full again.
            still = len(pooled & {pid for pid, _ in now.kernels})
            taken_gone = still <= max(0, len(pooled) - args.students)
            if back_after is None and taken_gone and now.kernel_count == pool:
                back_after = time.monotonic() - left_at
            time.sleep(5)
        after = ServerProcesses.of(server.pid)
    finally:
        sampler.stop()
        stop(server)

    usable = [s for s in roster if s.usable]
    times = [s.seconds for s in usable]
    per_kernel = [rss / MB for _, rss in busy.kernels]
    log_text = log.read_text("utf-8", errors="replace")
    print()
    print(
        f"Class of {args.students} ({browsers} in Chromium, {args.students - browsers} over HTTP), "
        f"arriving within {args.spread:g} s; --class-size {class_size}; --page {args.page}; "
        f"127.0.0.1"
    )
    print(f"usable                 {len(usable)}/{args.students}   (goal {args.students}/all)")
    print(f"blank pages            {sum(s.blank for s in roster)}   (goal 0)")
    for kind in ("browser", "http"):
        kind_times = [s.seconds for s in usable if s.kind == kind]
        if kind_times:
            print(
                f"  {kind:<8} time to usable: p50 {statistics.median(kind_times):.1f} s  "
                f"max {max(kind_times):.1f} s  ({len(kind_times)} usable)"
            )
    if times:
        print(
            f"time to usable         p50 {statistics.median(times):.1f} s   "
            f"p95 {percentile(times, 0.95):.1f} s   max {max(times):.1f} s   (goal p95 <= 10 s)"
        )
    print(
        f"peak RSS               {sampler.peak_rss / MB:.0f} MB server + kernels, "
        f"{sampler.peak_kernels} kernels at most   (goal <= 4096 MB)"
    )
    if per_kernel:
        print(
            f"RSS per kernel         median {statistics.median(per_kernel):.0f} MB, "
            f"max {max(per_kernel):.0f} MB (in class)   (goal <= 80 MB)"
        )
    shown = f"{back_after:.0f} s" if back_after is not None else f"not within {args.after:g} s"
    # (students' kernels all shut down, and the kernel count equal to the pool size again)
    print(
        f"after everyone left    {after.kernel_count} kernels, {after.total_rss / MB:.0f} MB "
        f"after {args.after:g} s (idle before the class: {idle.kernel_count} kernels, "
        f"{idle.total_rss / MB:.0f} MB); back to the pool size ({pool}) after {shown}"
    )
    print(
        f"processor time in class  Chromium {cpu_used[0]:.1f} s, server {cpu_used[1]:.1f} s, "
        f"kernels >= {cpu_used[2]:.1f} s; the whole computer {machine:.1f} s of "
        f"{in_class * (os.cpu_count() or 1):.0f} ({in_class:.0f} s on {os.cpu_count()} cores)"
    )
    print(f"'Timeout waiting for IOPub output' in the log: {log_text.count('Timeout waiting')}")
    print(f"load after: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} (1, 5 min); log: {log}")
    for student in roster:
        if not student.usable:
            print(f"  student {student.number} ({student.kind}): {student.note or 'blank page'}")


if __name__ == "__main__":
    main()
