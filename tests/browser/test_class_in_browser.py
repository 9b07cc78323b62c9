"""A class in real browser pages: five students open the app at the same moment and all get a
working app; a student who closes the page loses the kernel within the cull time, and a
student who reloads gets a working app again.

The server is ``dekbovinoj serve --class-size 5`` on 127.0.0.1 with short cull times. The
limits are generous for a loaded 2-core CI machine: the pool may take :data:`READY_SECONDS`
to warm up and each page :data:`FIRST_LOAD_MS` to be usable (on a quiet machine: about 1 s).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.processes import ServerProcesses
from support.servers import free_port, start_in_background, wait_until_up

from dekbovinoj_edu.serving.kernels import pool_size
from dekbovinoj_edu.serving.notebooks import find_notebook
from dekbovinoj_edu.serving.options import ServeOptions

HOST = "127.0.0.1"
FIRST_LOAD_MS = 120_000
"""How long a page may take to be usable (five at once on a busy 2-core machine)."""
CLASS = 5
READY_SECONDS = 300
"""How long a pool of five (and a spare) may take to warm up on a busy CI machine."""
CULL_IDLE = 6
CULL_INTERVAL = 2
GONE_SECONDS = 90
"""How long a closed page's kernel may take to go: 6 + 2 s, and a generous margin."""
USABLE = ".dkb-practice .dkb-submit"


class Server:
    """The class's server, its log and its kernels."""

    def __init__(self, log: Path) -> None:
        self.port = free_port()
        self.url = f"http://{HOST}:{self.port}/"
        self.log = log
        options = ServeOptions(
            find_notebook(),
            host=HOST,
            class_size=CLASS,
            cull_idle_seconds=CULL_IDLE,
            cull_interval_seconds=CULL_INTERVAL,
        )
        self.process = start_in_background(self.port, log=log, options=options)

    def text(self) -> str:
        return self.log.read_text("utf-8", errors="replace")

    def kernel_pids(self) -> set[int]:
        return {pid for pid, _ in ServerProcesses.of(self.process.pid).kernels}

    def kernel_pid(self, kernel_id: str) -> int | None:
        """The process of the kernel with this id (its connection file names it)."""
        for pid in self.kernel_pids():
            try:
                command = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            if f"kernel-{kernel_id}".encode() in command:
                return pid
        return None


@pytest.fixture(scope="module")
def class_server(artifacts: Path) -> Iterator[Server]:
    server = Server(artifacts / "voila-class.log")
    try:
        wait_until_up(server.port, timeout=120, process=server.process, host=HOST)
        deadline = time.monotonic() + READY_SECONDS
        while f"ready: {CLASS} students" not in server.text():
            assert time.monotonic() < deadline, server.text()[-3000:]
            assert server.process.poll() is None, server.text()[-3000:]
            time.sleep(0.5)
        yield server
    finally:
        server.process.terminate()
        server.process.wait(timeout=30)


def kernel_id_of(page) -> str:
    """The kernel a Voilà page talks to (Voilà writes it into the page's configuration)."""
    config = page.locator("#jupyter-config-data").first.text_content()
    return str(json.loads(config)["kernelId"])


def test_five_students_open_the_app_at_the_same_moment(
    browser, class_server: Server, artifacts: Path
) -> None:
    from playwright.sync_api import expect

    pages = [browser.new_page(viewport={"width": 1000, "height": 900}) for _ in range(CLASS)]
    try:
        start = time.monotonic()
        for page in pages:  # every request is on its way before any page is waited for
            page.goto(class_server.url, wait_until="commit", timeout=FIRST_LOAD_MS)
        sent = time.monotonic() - start
        for page in pages:
            expect(page.locator(USABLE)).to_be_visible(timeout=FIRST_LOAD_MS)
            expect(page.locator(".dkb-card").first).to_be_enabled()
        for number, page in enumerate(pages):
            page.locator(".dkb-expression input").fill("1+2")
            page.locator(".dkb-submit").click()
            expect(page.locator(".dkb-feedback")).not_to_be_empty()
            page.screenshot(path=str(artifacts / f"class-student-{number}.png"))
        assert len({kernel_id_of(page) for page in pages}) == CLASS  # one kernel each
        assert "Timeout waiting for IOPub output" not in class_server.text()
        assert sent < 30, f"the five requests took {sent:.1f} s to go out"
    finally:
        for page in pages:
            page.close()


def test_a_closed_page_loses_its_kernel_and_a_reload_gets_a_working_app(
    browser, class_server: Server
) -> None:
    from playwright.sync_api import expect

    page = browser.new_page()
    page.goto(class_server.url, timeout=FIRST_LOAD_MS)
    expect(page.locator(USABLE)).to_be_visible(timeout=FIRST_LOAD_MS)
    first = kernel_id_of(page)
    page.reload(timeout=FIRST_LOAD_MS)
    expect(page.locator(USABLE)).to_be_visible(timeout=FIRST_LOAD_MS)
    page.locator(".dkb-expression input").fill("1+2")
    page.locator(".dkb-submit").click()
    expect(page.locator(".dkb-feedback")).not_to_be_empty()
    second = kernel_id_of(page)
    assert second != first
    pid = class_server.kernel_pid(second)
    assert pid is not None
    page.close()  # no goodbye: only the culler can notice
    deadline = time.monotonic() + GONE_SECONDS
    while pid in class_server.kernel_pids() or class_server.kernel_pid(first) is not None:
        assert time.monotonic() < deadline, class_server.text()[-3000:]
        time.sleep(1)
    deadline = time.monotonic() + GONE_SECONDS  # the pool kernels stay: back to the pool size
    while len(class_server.kernel_pids()) != pool_size(CLASS):
        assert time.monotonic() < deadline, class_server.text()[-3000:]
        time.sleep(1)
