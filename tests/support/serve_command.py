"""``dekbovinoj serve`` run as a teacher runs it, for the browser tests: its printed lines, the
addresses it printed, and the page it opened in "the teacher's browser".

The browser ``serve`` opens is a script named in ``BROWSER`` (Python's :mod:`webbrowser`
honours it) that writes down the address it was given, so a test opens exactly that page.

>>> hosts_outside(["http://127.0.0.1:8866/", "file:///tmp/x.html", "ws://localhost:1/k",
...                "https://cdn.jsdelivr.net/npm/font-awesome.css", "data:,x"])
['cdn.jsdelivr.net']
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .reading import Printed
from .servers import stop

__all__ = ["LOCAL_HOSTS", "Served", "hosts_outside", "record_requests", "serve_command"]

LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "[::1]", "::1"})
OPENED_SECONDS = 180
"""How long ``serve`` may take to open the teacher's browser (Voilà starting on a busy
machine)."""


@dataclass
class Served:
    """A running ``dekbovinoj serve``: its process, what it printed, what it opened."""

    process: subprocess.Popen[bytes]
    out: Printed
    err: Printed
    opened_file: Path

    def address(self, timeout: float = 120) -> str:
        """The address printed on the ``Dek bovinoj:`` line."""
        return self.out.until("Dek bovinoj: ", timeout).split()[2]

    def teacher(self, timeout: float = 120) -> str:
        """The address printed on the ``Teacher's dashboard:`` line (``--class``)."""
        return self.out.until("Teacher's dashboard: ", timeout).split(": ", 1)[1].strip()

    def opened(self, timeout: float = OPENED_SECONDS) -> str:
        """The address ``serve`` opened in the teacher's browser."""
        deadline = time.monotonic() + timeout
        while not self.opened_file.is_file() or not self.opened_file.read_text("utf-8"):
            assert self.process.poll() is None, self.out.text + self.err.text
            assert time.monotonic() < deadline, f"no browser opened: {self.out.text}"
            self.out.read(0.5)
        return self.opened_file.read_text("utf-8").splitlines()[0]


@contextmanager
def serve_command(folder: Path, *argv: str, browser: bool = True) -> Iterator[Served]:
    """``dekbovinoj serve ARGV`` running until the block ends (its browser: a script that
    writes into ``folder``; ``browser=False``: ``--no-browser``)."""
    opened = folder / "opened.txt"
    script = folder / "browser.sh"
    script.write_text(f"#!/bin/sh\nprintf '%s\\n' \"$1\" >> '{opened}'\n", "utf-8")
    script.chmod(0o755)
    command = [sys.executable, "-m", "dekbovinoj_edu.cli", "serve", *argv]
    if not browser:
        command.append("--no-browser")
    env = {**os.environ, "BROWSER": f"{script} %s"}
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    try:
        yield Served(process, Printed(process.stdout), Printed(process.stderr), opened)
    finally:
        stop(process, timeout=60)


def record_requests(page: Any) -> list[str]:
    """Every address ``page`` asks for from now on (pages, files, websockets); a request to
    another host than this computer is recorded and refused, so it never leaves it."""
    asked: list[str] = []

    def route(route: Any) -> None:
        if hosts_outside([route.request.url]):
            route.abort()
        else:
            route.continue_()

    page.on("request", lambda request: asked.append(request.url))
    page.on("websocket", lambda socket: asked.append(socket.url))
    page.route("**/*", route)
    return asked


def hosts_outside(urls: list[str]) -> list[str]:
    """The hosts other than this computer that ``urls`` name (web and websocket addresses)."""
    found = {
        parts.hostname or ""
        for parts in map(urllib.parse.urlsplit, urls)
        if parts.scheme in ("http", "https", "ws", "wss")
    }
    return sorted(found - LOCAL_HOSTS)
