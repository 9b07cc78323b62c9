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
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the package, and tests/support

from machine import describe
from support.servers import SiteServer, serve_site

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


def main() -> int:
    from playwright.sync_api import sync_playwright

    print(describe(), flush=True)
    given = Path(sys.argv[1]) if len(sys.argv) > 1 else None
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
            # Level 3 at once: a √ answer, checked without sympy.
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
    load = os.getloadavg()
    print(f"load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} on {os.cpu_count()} cores")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
