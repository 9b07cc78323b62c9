"""How quick the Voilà app feels, on the light page and on Voilà's own page, measured in a real
browser (headless Chromium), in one run and in turns.

Two servers run the same app notebook with the same warm pool (``serve`` and ``serve --page
voila``); the page loads alternate between them (the light page first in even turns, Voilà's
in odd ones), and before every load both servers' kernels are idle (the pools refilled). Each
load is a new browser context (nothing cached: a student's own computer opening the app),
closed once its student has answered: no page runs beside the one measured. The servers cull
no kernel during the run: a student's kernel is kept to the end unless the closing page gives it
back itself. For each page it prints:

* **JavaScript**: the bytes of every script the page loaded, as served and compressed with
  gzip (``-9``), and how many files (goal for the light page: ≤ 1 MB, ≤ 350 KB gzip);
* **Chromium processor-seconds**: the processor time of all of Chromium's processes from
  asking for the page to the app usable (goal ≤ 1.0 s), beside what a blank page in a new
  context costs (a tab's start, the same for every page);
* **open → usable**: from asking for the app's page to the practice widget drawn with its
  card buttons enabled, with a preheated kernel waiting (goal ≤ 1.0 s median);
* **memory per student kernel**: the RSS of each kernel once the pages are usable and have
  answered (goal ≤ 80 MB);
* **closed tab → kernel gone**: how soon the server stops a page's kernel once its tab closes
  (the page's own shutdown call; the culler waits an hour here), and how many kernels were still
  running :data:`GONE_WAIT` seconds after their tab closed;
* **"Dek bovinoj!" → feedback**: from the click to the feedback on screen, timed inside the
  page (goal < 150 ms). The first answer of a puzzle needs the solver's best answer, which the
  widget works out in the background as soon as the puzzle is shown; it is shown apart, given
  after ``--think`` seconds, as a student looks at the cards first.

Run: ``python benchmarks/bench_app.py [--runs 5] [--answers 10] [--think 2]``.
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # tests/support

from machine import describe
from playwright.sync_api import Browser, Page, Response, expect, sync_playwright
from support.processes import ServerProcesses, children, command_line, cpu_seconds
from support.puzzles import PETER
from support.servers import free_port, start_in_background, stop, wait_until_up

from dekbovinoj_edu.serving.notebooks import find_notebook
from dekbovinoj_edu.serving.options import ServeOptions

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PAGES = ("light", "voila")
BLANK = "data:text/html,<p>cows</p>"
STEPS = """() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const found = {'page received': nav.responseEnd};
  for (const entry of performance.getEntriesByType('mark')) {
    if (entry.name.startsWith('dkb-')) { found[entry.name.slice(4)] = entry.startTime; }
  }
  return found;
}"""
"""Where a light page's time went: its document received, then the marks of its script
(``frontend/src/index.js``: it runs, the kernel is connected, the widgets are known, drawn)."""
USABLE = """() => {
  const card = document.querySelector('.dkb-card');
  const submit = document.querySelector('.dkb-submit');
  return !!card && !card.disabled && !!submit && submit.getClientRects().length > 0;
}"""
"""The app is usable: its first card's button enabled and the answer's button shown. The page
checks it itself every :data:`POLL_MS` (Playwright's ``expect`` asks again after 100, 250, 500
and 1000 ms, and at every try builds an accessibility snapshot of the page for its failure
message: the benchmark's processor time, counted as the page's, and up to a second late)."""
POLL_MS = 20
KEEP = 3600
"""The servers' idle-kernel cull time during the run: a closed page's kernel stays taken."""
GONE_WAIT = 5.0
"""How long the benchmark waits for a closed page's kernel to stop before it counts it as kept."""
KERNEL_ID = "() => JSON.parse(document.getElementById('jupyter-config-data').textContent).kernelId"
"""The page's kernel, as Voilà writes it into both pages."""
IDLE_CPU_SECONDS = 0.05
"""Processor time the kernels may use in a second and still count as idle (heartbeats)."""
ANSWERS = ("13*2+3-9-3-7", "13 + 9")
"""A right answer and a colour mistake, in turn, so every click changes the feedback."""

CLICK_TO_FEEDBACK = """
async () => {
  const feedback = document.querySelector(".dkb-feedback");
  const before = feedback.innerText;
  const start = performance.now();
  document.querySelector(".dkb-submit").click();
  await new Promise((resolve) => {
    const observer = new MutationObserver(() => {
      if (feedback.innerText !== before) { observer.disconnect(); resolve(); }
    });
    observer.observe(feedback, {subtree: true, childList: true, characterData: true});
  });
  return performance.now() - start;
}
"""


@dataclasses.dataclass
class Figures:
    """What one page's loads measured."""

    loads: list[float] = dataclasses.field(default_factory=list)
    chromium: list[float] = dataclasses.field(default_factory=list)
    blank: list[float] = dataclasses.field(default_factory=list)
    """Per load: Chromium's processor time for a blank page in a new context, just before."""
    scripts: list[tuple[int, int, int]] = dataclasses.field(default_factory=list)
    """Per load: files, bytes as served, bytes gzipped."""
    first_answers: list[float] = dataclasses.field(default_factory=list)
    later_answers: list[float] = dataclasses.field(default_factory=list)
    memory: list[float] = dataclasses.field(default_factory=list)
    steps: list[dict[str, float]] = dataclasses.field(default_factory=list)
    """Per load of the light page: its marks (:data:`STEPS`), ms from the request."""
    given_back: list[float] = dataclasses.field(default_factory=list)
    """Per closed page whose kernel stopped within :data:`GONE_WAIT`: seconds after the close."""
    kept: int = 0
    """Closed pages whose kernel still ran :data:`GONE_WAIT` seconds on (held to the end)."""


def wait_for_pool(server: subprocess.Popen[bytes], students: int, timeout: float = 300) -> None:
    """Wait until a preheated kernel waits beside the ``students`` kernels already taken.

    Preheated means it has run the app notebook: the kernels' processor time stands still
    for a second (a new kernel takes 1.3 processor-seconds and about 3 s to run the notebook on
    a quiet machine). A fixed pause after the kernel appears could let a page load while the
    last kernel is still warming on the same two cores.
    """
    deadline = time.monotonic() + timeout
    while ServerProcesses.of(server.pid).kernel_count < students + 1:
        if time.monotonic() > deadline:
            raise TimeoutError("Voilà did not preheat a kernel in time")
        time.sleep(0.2)
    used = -1.0
    while True:
        now = cpu_seconds([pid for pid, _ in ServerProcesses.of(server.pid).kernels])
        if now - used < IDLE_CPU_SECONDS:
            return
        if time.monotonic() > deadline:
            raise TimeoutError("the preheated kernel did not become idle in time")
        used = now
        time.sleep(1)


def kernel_running(server: subprocess.Popen[bytes], kernel_id: str) -> bool:
    """Whether the server still runs the kernel ``kernel_id`` (its connection file names it)."""
    kernels = ServerProcesses.of(server.pid).kernels
    return any(f"kernel-{kernel_id}" in command_line(pid) for pid, _ in kernels)


def close(page: Page, server: subprocess.Popen[bytes], figures: Figures) -> None:
    """Close the page's tab (its context), and note how soon its kernel stopped, if it did."""
    kernel = str(page.evaluate(KERNEL_ID))
    start = time.perf_counter()
    page.context.close()
    while kernel_running(server, kernel) and time.perf_counter() - start < GONE_WAIT:
        time.sleep(0.05)
    if kernel_running(server, kernel):
        figures.kept += 1
    else:
        figures.given_back.append(time.perf_counter() - start)


def kernel_memory(server: subprocess.Popen[bytes]) -> list[float]:
    """Every kernel's RSS in MB."""
    return [rss / 1024 / 1024 for _, rss in ServerProcesses.of(server.pid).kernels]


def chromium_seconds() -> float:
    """Processor seconds used so far by this benchmark's Chromium (all its processes)."""
    return cpu_seconds([pid for pid in children(os.getpid()) if "chromium" in command_line(pid)])


def script_bytes(responses: list[Response]) -> tuple[int, int, int]:
    """The scripts among ``responses``: how many, their bytes as served, and gzipped."""
    scripts = [r for r in responses if r.request.resource_type == "script" and r.ok]
    bodies = [r.body() for r in scripts]
    return len(bodies), sum(map(len, bodies)), sum(len(gzip.compress(b, 9)) for b in bodies)


def load(browser: Browser, url: str, figures: Figures) -> Page:
    """Open the app in a new context; note its time to usable, its processor time, its
    scripts (and, just before, the processor time of a blank page in a new context)."""
    context = browser.new_context()
    before = chromium_seconds()
    context.new_page().goto(BLANK)
    figures.blank.append(chromium_seconds() - before)
    context.close()
    page = browser.new_context(viewport={"width": 1100, "height": 1000}).new_page()
    responses: list[Response] = []
    page.on("response", lambda response: responses.append(response))
    before = chromium_seconds()
    start = time.perf_counter()
    page.goto(url)
    page.wait_for_function(USABLE, polling=POLL_MS, timeout=120_000)
    figures.loads.append(time.perf_counter() - start)
    figures.chromium.append(chromium_seconds() - before)
    expect(page.locator(".dkb-card").first).to_be_enabled()  # the same as USABLE, in Playwright
    expect(page.locator(".dkb-submit")).to_be_visible()
    figures.scripts.append(script_bytes(responses))
    steps = page.evaluate(STEPS)
    if "drawn" in steps:
        figures.steps.append(steps)
    return page


def answer(page: Page, answers: int, think: float, figures: Figures) -> None:
    code = page.locator(".dkb-code input")
    code.fill(PETER.code)
    code.press("Enter")
    expect(page.locator(".dkb-pasture .dkb-card")).to_have_text(["9♦", "3♥", "7♥"])
    page.wait_for_timeout(think * 1000)  # a student looks at the cards first
    box = page.locator(".dkb-expression input")
    times = []
    for number in range(answers):
        box.fill(ANSWERS[number % 2])
        page.wait_for_timeout(150)  # let the typed text reach the kernel before the click
        times.append(float(page.evaluate(CLICK_TO_FEEDBACK)) / 1000)
    figures.first_answers.append(times[0])
    figures.later_answers.extend(times[1:])


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:6.0f} ms   max {max(values) * 1000:6.0f} ms"


def report(page: str, figures: Figures, think: float) -> None:
    files, raw, packed = figures.scripts[0]
    steady = all(scripts == figures.scripts[0] for scripts in figures.scripts)
    title = "light page" if page == "light" else "Voilà's own page (--page voila)"
    print(f"\n{title}, {len(figures.loads)} page loads, preheated kernel, nothing cached")
    print(
        f"JavaScript                     {raw / 1e6:5.2f} MB, {packed / 1e3:5.0f} KB gzip, "
        f"{files} files{'' if steady else ' (first load; others differ)'}   "
        f"(goal <= 1 MB, <= 350 KB gzip)"
    )
    print(
        f"Chromium processor time        median {statistics.median(figures.chromium):5.2f} s   "
        f"max {max(figures.chromium):5.2f} s per page until usable   (goal <= 1.0 s; "
        f"a blank page in a new context: median {statistics.median(figures.blank):4.2f} s)"
    )
    print(f"open -> usable widget          {ms(figures.loads)}   (goal <= 1000 ms)")
    if figures.steps:
        shown = ", ".join(
            f"{name} {statistics.median(step[name] for step in figures.steps):.0f}"
            for name in figures.steps[0]
        )
        print(f"  where it goes (median ms from the request): {shown}")
    print(
        f"RSS per kernel                 median {statistics.median(figures.memory):5.0f} MB   "
        f"max {max(figures.memory):5.0f} MB   ({len(figures.memory)} kernels: students and the "
        f"pool; goal <= 80 MB)"
    )
    closed = len(figures.given_back) + figures.kept
    gone = f"{ms(figures.given_back)}, " if figures.given_back else ""
    print(
        f"closed tab -> kernel gone       {gone}{len(figures.given_back)} of {closed} stopped "
        f"within {GONE_WAIT:g} s (the culler waits {KEEP} s)"
    )
    print(f"'Dek bovinoj!' -> feedback     {ms(figures.later_answers)}   (goal < 150 ms)")
    print(
        f"  first answer of a puzzle     {ms(figures.first_answers)}   "
        f"(after {think:g} s; waits for the solver if it is still running)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="page loads of each page (default 5)")
    parser.add_argument("--answers", type=int, default=10, help="answers per page (default 10)")
    parser.add_argument(
        "--think", type=float, default=2.0, help="seconds before the first answer (default 2)"
    )
    args = parser.parse_args()
    print(describe(), flush=True)

    folder = Path(tempfile.mkdtemp(prefix="bench-app-"))
    servers: dict[str, subprocess.Popen[bytes]] = {}
    ports = {page: free_port() for page in PAGES}
    urls = {page: f"http://localhost:{port}/" for page, port in ports.items()}
    figures = {page: Figures() for page in PAGES}
    try:
        for page in PAGES:  # the same notebook and pool: a student for each load
            options = ServeOptions(
                find_notebook(), class_size=args.runs, cull_idle_seconds=KEEP, page=page
            )
            servers[page] = start_in_background(ports[page], folder / f"{page}.log", options)
        for page in PAGES:
            wait_until_up(ports[page], timeout=120, process=servers[page])
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            for run in range(args.runs):
                for page in PAGES if run % 2 == 0 else PAGES[::-1]:
                    for each in PAGES:  # both pools full and idle before every load
                        wait_for_pool(servers[each], students=figures[each].kept)
                    opened = load(browser, urls[page], figures[page])
                    answer(opened, args.answers, args.think, figures[page])
                    close(opened, servers[page], figures[page])
            for page in PAGES:
                figures[page].memory = kernel_memory(servers[page])
            browser.close()
    finally:
        for server in servers.values():
            stop(server)

    for page in PAGES:
        report(page, figures[page], args.think)
    print(f"\nload after: {' '.join(f'{x:.2f}' for x in os.getloadavg())} (1, 5, 15 min)")


if __name__ == "__main__":
    main()
