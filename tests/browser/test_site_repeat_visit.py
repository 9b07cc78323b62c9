"""The static site from the class service, visited again (issue 42): the next lesson's first
screen comes from the browser's cache (Pyodide's big files from those the first visit kept
decoded), and a new build of the site replaces the old one cleanly.

The site is the session's (``build-site --class``); the class service serves it on 127.0.0.1
through a small proxy of the test's own that counts the bytes the browser receives (its own
requests and its web worker's, Pyodide's downloads among them).
"""

from __future__ import annotations

import contextlib
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.class_service import running_service
from support.puzzles import PETER

from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.store import SQLiteStore
from dekbovinoj_edu.site import build
from dekbovinoj_edu.site.assets import pyodide_folder

pytestmark = pytest.mark.network  # the site's build takes Pyodide from npm and wheels from PyPI
SITE_FIRST_LOAD_MS = 240_000
JOIN_SCREEN = ".dkb-nickname input"
REPEAT_MOST = 300_000
"""The most a repeat visit's first screen may move on the wire (bytes)."""


class CountingProxy:
    """A TCP proxy on 127.0.0.1 to ``port`` that counts the bytes sent back to the browser."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.received = 0
        self.lock = threading.Lock()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/"
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:  # until the listener is closed
            try:
                near, _ = self.listener.accept()
            except OSError:
                return
            far = socket.create_connection(("127.0.0.1", self.port))
            threading.Thread(target=self._pipe, args=(near, far, False), daemon=True).start()
            threading.Thread(target=self._pipe, args=(far, near, True), daemon=True).start()

    def _pipe(self, source: socket.socket, target: socket.socket, counted: bool) -> None:
        try:
            while data := source.recv(65536):
                if counted:
                    with self.lock:
                        self.received += len(data)
                target.sendall(data)
        except OSError:
            pass
        finally:
            for end in (source, target):
                with contextlib.suppress(OSError):
                    end.shutdown(socket.SHUT_RDWR)

    def close(self) -> None:
        self.listener.close()


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLiteStore]:
    made = SQLiteStore(tmp_path / "classes.sqlite3")
    made.add_class(codes_assignment("4a", PETER.code))
    try:
        yield made
    finally:
        made.close()


def _visit(context: Any, url: str) -> list[str]:
    """Open the class page (the service's ``/``) in a new page until its join screen is
    there; the addresses it asked for (its web worker's too)."""
    from playwright.sync_api import expect

    page = context.new_page()
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(url)
    expect(page.locator(JOIN_SCREEN)).to_be_visible(timeout=SITE_FIRST_LOAD_MS)
    page.close()
    return asked


def test_a_repeat_visit_comes_from_the_browsers_cache(
    browser: Any, site: Path, store: SQLiteStore
) -> None:
    with running_service(store, "4a", site=site) as (server, _):
        proxy = CountingProxy(server.port)
        context = browser.new_context()
        try:
            first = _visit(context, proxy.url)
            first_bytes = proxy.received
            again = _visit(context, proxy.url)
            repeat_bytes = proxy.received - first_bytes
        finally:
            context.close()
            proxy.close()
    folder = pyodide_folder(site).name
    wasm = (".wasm", ".wasm.br")  # over plain http the worker asks for the brotli copy
    assert any(folder in address and address.endswith(wasm) for address in first)
    assert not [a for a in first if a.endswith(".rest.zip")]  # what the class page imports
    big = (".wasm", ".zip", ".whl")  # and the .br copies: the first visit kept them decoded
    assert not [a for a in again if folder in a and a.removesuffix(".br").endswith(big)]
    files = [
        site / address.split("?")[0][len(proxy.url) :].removesuffix(".br")
        for address in first
        if address.startswith(proxy.url)
    ]
    raw = sum(file.stat().st_size for file in files if file.is_file())  # the files themselves
    assert first_bytes < raw / 2  # compressed on the way
    assert repeat_bytes <= REPEAT_MOST, f"a repeat visit moved {repeat_bytes:,} bytes"


def test_a_new_build_replaces_the_old_one(
    browser: Any,
    site: Path,
    store: SQLiteStore,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Build A is served and visited; build B (the package a version on) replaces it in the
    same folder, at the same address, while the service runs; the same browser's next visit
    runs B, and asks for nothing of A's."""
    served = tmp_path / "site"
    shutil.copytree(site, served, symlinks=True)  # build A (the session's build)
    with running_service(store, "4a", site=served) as (server, _):
        context = browser.new_context()
        try:
            first = _visit(context, server.url)
            folder_a = pyodide_folder(served).name
            monkeypatch.setattr(build, "_package_version", lambda: "0.1.0.post42")
            build.build_site(served, classroom=True)  # build B, where A was
            folder_b = pyodide_folder(served).name
            again = _visit(context, server.url)
        finally:
            context.close()
    assert folder_a != folder_b
    assert any(folder_a in address for address in first)
    wheel_b = f"{folder_b}/dekbovinoj_edu-0.1.0.post42-py3-none-any.whl"
    assert any(address.endswith((wheel_b, f"{wheel_b}.br")) for address in again)  # B runs
    assert not any(folder_a in address for address in again)  # and nothing of A's
