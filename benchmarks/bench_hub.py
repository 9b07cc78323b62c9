"""The morning rush on a real JupyterHub: a class of 30 logs in and opens the app at once.

A real hub on 127.0.0.1 (tests/support/hub.py: JupyterHub from PyPI, its proxy from npm,
each user's server a local process, the class service as a managed service on PostgreSQL),
configured by ``dekbovinoj hub config``'s fragment (its spawn timeouts too). ``--users``
students (30) log in through the proxy within ``--window`` seconds (60): most as plain HTTP
clients (the hub's login form, then the app's Voilà page, which is there once its kernel has
run the app), and ``--browsers`` of them (5) in Chromium, whose app counts as usable when its
"Dek bovinoj!" button is on the screen. Then each opens the class link
(``classroom.ipynb?class=4a``): the kernel joins class 4a through the class service, as the
student; it counts when the class screens are there (HTTP: the page with its widget;
Chromium: "You are s01."), and every student's seat must be in the class database at the
end. Each user is bounded (``--patience`` seconds); nothing waits forever.

It prints, with this machine's speed and load (``machine.py``):
- spawn time (login to server ready), time to a usable app and to the joined class screens,
  p50/p95/max, the seats in the class database, and failures;
- memory per user server (the server and its kernel, RSS), p50/max, and all of them; and
  the processor time each used (from its start until it was culled);
- the hub's own processes (hub, proxy, class service, culler) before, at the peak, and
  after the idle culler has stopped every server (``--cull`` seconds without activity).

    python benchmarks/bench_hub.py [--users 30] [--browsers 5] [--window 60] [--cull 120]
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import random
import re
import shutil
import statistics
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the package, and tests/support

import requests
from machine import describe
from support.hub import PASSWORD, RunningHub, process_tree, running_hub
from support.postgres import postgres_server
from support.processes import command_line, cpu_seconds, rss_bytes

from dekbovinoj_edu.classroom.store import open_store
from dekbovinoj_edu.classroom.store.classes import new_class

APP = "/hub/user-redirect/voila/render/dekbovinoj/dekbovinoj.ipynb"
"""The practice app in each user's own server (``singleuser.defaultUrl``)."""
CLASS = "4a"
CLASS_LINK = f"/hub/user-redirect/voila/render/dekbovinoj/classroom.ipynb?class={CLASS}"
"""The class link a teacher gives the students (the service's page lists it)."""
WIDGET = "application/vnd.jupyter.widget-view+json"
USABLE = ".dkb-practice .dkb-submit"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
MB = 1024 * 1024
KEPT_LOG = ROOT / "test-artifacts" / "bench-hub.log"
"""Where the hub's log (its users' servers' too) is kept when a user failed."""


@dataclass
class Visit:
    """One user's morning: when they started, and how long each step took (None: failed)."""

    user: str
    how: str
    start: float = 0.0
    spawn: float | None = None
    usable: float | None = None
    joined: float | None = None
    """When the class screens were there (the kernel had joined through the service)."""
    error: str = ""


def _ready(hub: RunningHub, user: str, deadline: float) -> bool:
    while time.monotonic() < deadline:
        server = hub.api("GET", f"users/{user}").json().get("servers", {}).get("", {})
        if server.get("ready"):
            return True
        time.sleep(0.5)
    return False


def http_visit(hub: RunningHub, visit: Visit, patience: float) -> Visit:
    """Log in with the form (the hub starts the server), wait for it, open the app."""
    deadline = visit.start + patience
    try:
        session = requests.Session()
        session.trust_env = False
        page = session.get(f"{hub.url}/hub/login", timeout=patience)
        xsrf = re.search(r'name="_xsrf" value="([^"]+)"', page.text)
        form = {"username": visit.user, "password": PASSWORD, "_xsrf": xsrf[1] if xsrf else ""}
        session.post(f"{hub.url}/hub/login?next=", data=form, timeout=patience)
        if not _ready(hub, visit.user, deadline):
            visit.error = "the server did not start"
            return visit
        visit.spawn = time.monotonic() - visit.start
        app = session.get(hub.url + APP, timeout=max(1.0, deadline - time.monotonic()))
        if app.status_code != 200 or WIDGET not in app.text:
            visit.error = f"the app's page: HTTP {app.status_code}"
            return visit
        visit.usable = time.monotonic() - visit.start
        screens = session.get(hub.url + CLASS_LINK, timeout=max(1.0, deadline - time.monotonic()))
        if screens.status_code == 200 and WIDGET in screens.text:
            visit.joined = time.monotonic() - visit.start
        else:
            visit.error = f"the class link: HTTP {screens.status_code}"
    except requests.RequestException as error:
        visit.error = f"{type(error).__name__}: {str(error)[:120]}"
    return visit


async def browser_visits(hub: RunningHub, visits: list[Visit], patience: float) -> None:
    """The Chromium users: each logs in on the hub's page and waits for the app."""
    from playwright.async_api import async_playwright

    playwright = await async_playwright().start()
    chromium = await playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)

    async def one(visit: Visit) -> None:
        await asyncio.sleep(max(0.0, visit.start - time.monotonic()))
        context = await chromium.new_context(viewport={"width": 1000, "height": 900})
        page = await context.new_page()
        try:
            await page.goto(f"{hub.url}/hub/login?next={APP}", timeout=patience * 1000)
            await page.fill("#username_input", visit.user)
            await page.fill("#password_input", PASSWORD)
            await page.click("#login_submit")
            left = max(1.0, visit.start + patience - time.monotonic())
            await page.locator(USABLE).wait_for(state="visible", timeout=left * 1000)
            visit.usable = time.monotonic() - visit.start
            left = max(1.0, visit.start + patience - time.monotonic())
            await page.goto(hub.url + CLASS_LINK, timeout=left * 1000)
            who = page.locator(".dkb-class-app", has_text=f"You are {visit.user}.")
            await who.wait_for(state="visible", timeout=left * 1000)
            visit.joined = time.monotonic() - visit.start
        except Exception as error:  # a timeout, a page that failed: counted, not raised
            visit.error = f"{type(error).__name__}: {str(error).splitlines()[0][:120]}"
        finally:
            await context.close()

    try:
        await asyncio.gather(*(one(visit) for visit in visits))
    finally:
        await chromium.close()
        await playwright.stop()


USER_SERVER_MARKS = ("dekbovinoj_edu.hub.user_server", "user-server", "jupyterhub.singleuser")
"""What a user server's command line holds (the hub's ``Spawner.cmd``, or the CLI's)."""


def is_user_server(line: str) -> bool:
    """Whether the command line ``line`` is a user's server."""
    return any(mark in line for mark in USER_SERVER_MARKS)


def server_processes(hub: RunningHub) -> dict[str, list[int]]:
    """Each user's server and its kernels: their process ids, by user."""
    found: dict[str, list[int]] = {}
    for pid in process_tree(hub.process.pid):
        if not is_user_server(command_line(pid)):
            continue
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        except OSError:
            continue
        user = next((e[16:].decode() for e in environ if e.startswith(b"JUPYTERHUB_USER=")), "")
        if user and user not in found:
            found[user] = process_tree(pid)
    return found


def server_memory(hub: RunningHub) -> dict[str, int]:
    """Each user's server with its kernels: RSS in bytes, by user."""
    return {user: sum(map(rss_bytes, pids)) for user, pids in server_processes(hub).items()}


class Sampler(threading.Thread):
    """Each user server's memory every few seconds, its highest kept (servers are culled
    one by one, so no single moment sees them all)."""

    def __init__(self, hub: RunningHub, every: float = 3.0) -> None:
        super().__init__(daemon=True)
        self.hub, self.every = hub, every
        self.highest: dict[str, int] = {}
        self.cpu: dict[str, float] = {}
        """Each user server's processor time so far (server and kernel), in seconds."""
        self.peak_hub = 0
        self.stopping = threading.Event()

    def run(self) -> None:
        while not self.stopping.wait(self.every):
            for user, pids in server_processes(self.hub).items():
                rss = sum(map(rss_bytes, pids))
                self.highest[user] = max(rss, self.highest.get(user, 0))
                self.cpu[user] = max(cpu_seconds(pids), self.cpu.get(user, 0.0))
            self.peak_hub = max(self.peak_hub, hub_memory(self.hub))


def hub_memory(hub: RunningHub) -> int:
    """RSS of the hub's own processes: the hub, the proxy, the class service, the culler."""
    skip = set()
    for pid in process_tree(hub.process.pid):
        if is_user_server(command_line(pid)):
            skip |= set(process_tree(pid))
    return sum(rss_bytes(p) for p in process_tree(hub.process.pid) if p not in skip)


def quantiles(values: list[float]) -> str:
    if not values:
        return "none"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"p50 {statistics.median(ordered):.1f} s, p95 {p95:.1f} s, max {ordered[-1]:.1f} s"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=30)
    parser.add_argument("--browsers", type=int, default=5)
    parser.add_argument("--window", type=float, default=60.0, help="logins spread over this")
    parser.add_argument("--patience", type=float, default=300.0, help="per user, seconds")
    parser.add_argument("--cull", type=int, default=120, help="the culler's idle timeout")
    parser.add_argument("--seed", type=int, default=25)
    args = parser.parse_args()
    assert 1 <= args.browsers <= args.users <= 100, "1 ≤ browsers ≤ users ≤ 100"
    print(describe(), flush=True)
    users = [f"s{number:02d}" for number in range(1, args.users + 1)]
    random.seed(args.seed)
    with postgres_server() as postgres:
        db = postgres.url(postgres.create_database())
        new_class(CLASS, level=1, count=5, seed=1, db=db)
        with running_hub(db, ("tess", *users), cull_timeout=args.cull, cull_every=10) as hub:
            idle_before = hub_memory(hub)
            sampler = Sampler(hub)
            sampler.start()
            zero = time.monotonic() + 1.0
            visits = [
                Visit(user, "browser" if n < args.browsers else "http",
                      zero + random.uniform(0, args.window))
                for n, user in enumerate(users)
            ]  # fmt: skip
            by_browser = [v for v in visits if v.how == "browser"]
            in_browser = threading.Thread(
                target=lambda: asyncio.run(browser_visits(hub, by_browser, args.patience))
            )
            in_browser.start()

            def timed(visit: Visit) -> Visit:
                time.sleep(max(0.0, visit.start - time.monotonic()))
                return http_visit(hub, visit, args.patience)

            plain = [v for v in visits if v.how == "http"]
            with concurrent.futures.ThreadPoolExecutor(max(1, len(plain))) as pool:
                list(pool.map(timed, plain))
            in_browser.join(args.patience + args.window + 60)
            for visit in by_browser:  # a browser user's server is ready once the app is
                if visit.usable is not None:
                    visit.spawn = None
            sampler.stopping.set()
            sampler.join(30)
            peak_servers, peak_hub, cpu = sampler.highest, sampler.peak_hub, sampler.cpu
            culled_after = None
            started = time.monotonic()
            while time.monotonic() - started < args.cull + 240:
                running = [u for u in hub.api("GET", "users").json() if u.get("servers")]
                if not running:
                    culled_after = time.monotonic() - started
                    break
                time.sleep(5)
            idle_after = hub_memory(hub)
            left = server_memory(hub)
            store = open_store(db)
            try:
                seats = {seat.nickname for seat in store.seats(CLASS)}
            finally:
                store.close()
            if any(visit.joined is None for visit in visits):  # the hub's folder goes at the end
                KEPT_LOG.parent.mkdir(exist_ok=True)
                shutil.copyfile(hub.log, KEPT_LOG)

    spawns = [v.spawn for v in visits if v.spawn is not None]
    usable_http = [v.usable for v in visits if v.how == "http" and v.usable is not None]
    usable_browser = [v.usable for v in visits if v.how == "browser" and v.usable is not None]
    joined_http = [v.joined for v in visits if v.how == "http" and v.joined is not None]
    joined_browser = [v.joined for v in visits if v.how == "browser" and v.joined is not None]
    failed = [v for v in visits if v.joined is None]
    memory = sorted(peak_servers.values())
    print(f"users: {args.users} ({args.users - args.browsers} HTTP, {args.browsers} Chromium), "
          f"logins spread over {args.window:g} s")  # fmt: skip
    print(f"spawn (login to server ready, HTTP users): {quantiles(spawns)}")
    print(f"usable app, HTTP (the app's page with its widget): {quantiles(usable_http)}")
    print(f"usable app, Chromium (the Dek bovinoj! button shown): {quantiles(usable_browser)}")
    print(f"class link, joined through the service, HTTP: {quantiles(joined_http)}")
    print(f"class link, joined through the service, Chromium: {quantiles(joined_browser)}")
    print(f"seats in class {CLASS}: {len(seats & set(users))} of {args.users}")
    print(f"failed: {len(failed)} {[(v.user, v.error) for v in failed]}"
          + (f" (the hub's log: {KEPT_LOG})" if failed else ""))  # fmt: skip
    if memory:
        print(f"memory per user server (server + its kernels, RSS): p50 "
              f"{statistics.median(memory) / MB:.0f} MB, max {memory[-1] / MB:.0f} MB, "
              f"{len(memory)} servers, {sum(memory) / MB:.0f} MB together")  # fmt: skip
    if cpu:
        used = sorted(cpu.values())
        print(f"processor time per user server until its app was usable and after (server + "
              f"kernel): p50 {statistics.median(used):.1f} s, max {used[-1]:.1f} s, "
              f"{sum(used):.0f} s together")  # fmt: skip
    print(f"the hub's own processes (hub, proxy, class service, culler): "
          f"{idle_before / MB:.0f} MB before, {peak_hub / MB:.0f} MB at the peak, "
          f"{idle_after / MB:.0f} MB after culling")  # fmt: skip
    print(f"every server culled {culled_after:.0f} s after the last user's app was usable"
          if culled_after is not None
          else f"servers still running after {args.cull + 240} s: {sorted(left)}")  # fmt: skip
    print(describe(), flush=True)
    return 0 if not failed and seats >= set(users) else 1


if __name__ == "__main__":
    sys.exit(main())
