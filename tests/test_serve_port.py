"""``dekbovinoj serve`` on a port it cannot have: the address it prints is the one that
answers, a port that cannot be used is one sentence, and Jupyter's notes stay out of the
teacher's terminal unless ``--verbose``.

Before, with the port taken, Voilà moved to the next port while ``serve`` printed the one asked
for; ``--port 1`` printed the address, then 51 "Permission denied" lines and a CRITICAL line.
"""

from __future__ import annotations

import errno
import io
import re
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from support.reading import Printed
from support.servers import free_port, stop, wait_until_up

from dekbovinoj_edu.serving.server import PortUnavailable, listen_on, wait_for
from dekbovinoj_edu.serving.terminal import relay

HOST = "127.0.0.1"
READY_SECONDS = 240
"""How long the app's first kernel may take to warm up on a busy 2-core machine."""
ADDRESS = re.compile(r"^Dek bovinoj: (http://\S+/)")
JUPYTERS_NOTES = ("not trusted", "TCP without encryption", "[GuardedVoila]", "[IPKernelApp]")


@contextmanager
def taken_port() -> Iterator[int]:
    """A port something else listens on, for as long as the block lasts."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as taken:
        taken.bind((HOST, 0))
        taken.listen()
        yield int(taken.getsockname()[1])


@contextmanager
def serving(*argv: str) -> Iterator[tuple[subprocess.Popen[bytes], Printed, Printed]]:
    """``dekbovinoj serve --no-browser ARGV`` running, and its two outputs read as they come."""
    command = [sys.executable, "-m", "dekbovinoj_edu.cli", "serve", "--no-browser", *argv]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        yield process, Printed(process.stdout), Printed(process.stderr)
    finally:
        stop(process, timeout=60)


@pytest.mark.slow  # a real Voilà server and its first kernel
def test_on_a_taken_port_serve_prints_the_address_that_answers_and_no_jupyter_notes() -> None:
    with taken_port() as port, serving(f"--host={HOST}", f"--port={port}") as running:
        process, out, err = running
        assert f"Port {port} is in use" in out.until("is in use", timeout=60)
        address = ADDRESS.match(out.until("Dek bovinoj:", timeout=60))
        assert address is not None
        url = address[1]
        printed_port = int(url.rsplit(":", 1)[1].strip("/"))
        assert printed_port != port and url == f"http://{HOST}:{printed_port}/"
        wait_until_up(printed_port, timeout=120, process=process, host=HOST)  # type: ignore[arg-type]
        out.until("ready: 1 student", timeout=READY_SECONDS)
        with urllib.request.urlopen(url, timeout=120) as response:
            page = response.read().decode("utf-8", "replace")
        assert response.status == 200 and "dekbovinoj" in page.lower()
        err.read(2.0)
    shown = out.text + "\n" + err.text
    assert not [note for note in JUPYTERS_NOTES if note in shown], shown


@pytest.mark.slow  # a real Voilà server
def test_with_verbose_jupyters_own_notes_are_shown() -> None:
    with serving(f"--host={HOST}", f"--port={free_port()}", "--verbose") as (_, out, err):
        out.until("Dek bovinoj:", timeout=60)
        err.until("[GuardedVoila]", timeout=READY_SECONDS)


def test_a_port_without_permission_is_one_sentence_and_nothing_starts(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """As a teacher's account (not root) gets for ``--port 1``."""
    import tornado.netutil

    from dekbovinoj_edu.cli import main

    def refuse(port: int, address: str | None = None, **kwargs: object) -> list[socket.socket]:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(tornado.netutil, "bind_sockets", refuse)
    assert main(["serve", "--no-browser", "--port", "1"]) == 1
    out, error = capsys.readouterr()
    assert out == ""  # no address printed, no server started
    assert error == (
        "dekbovinoj: Port 1 is reserved for the system: choose a port from 1024 to 65535 "
        "(the default is 8866).\n"
    )


def test_a_host_this_computer_does_not_have_is_one_sentence(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from dekbovinoj_edu.cli import main

    assert main(["serve", "--no-browser", "--host", "192.0.2.7"]) == 1  # TEST-NET-1: nobody's
    out, error = capsys.readouterr()
    assert out == "" and error.count("\n") == 1
    assert error.startswith("dekbovinoj: This computer has no address 192.0.2.7 to listen on")


def test_when_every_port_tried_is_in_use_serve_says_so() -> None:
    with taken_port() as port, pytest.raises(PortUnavailable) as refused:
        listen_on(HOST, port, tries=1)
    assert str(refused.value) == (
        f"Ports {port} to {port} are all in use: stop the other server, or choose another "
        "port with --port."
    )


def test_a_free_port_is_bound_as_asked_and_a_taken_one_moves() -> None:
    with taken_port() as port, listen_on(HOST, port) as moved:
        assert moved.moved and moved.port > port and moved.sockets
        with socket.create_connection((HOST, moved.port), timeout=5):
            pass  # the socket serve hands to Voilà is listening already
        assert str(moved.port) in moved.moved_sentence()
    with listen_on(HOST, moved.port) as again:
        assert not again.moved and again.port == moved.port


SERVER_OUTPUT = r"""
import sys
print("ready: 1 student", flush=True)
sys.stderr.write(
    "[GuardedVoila] Storing connection files in /tmp/x.\n"
    "[GuardedVoila] Voilà is running at:\nhttp://localhost:8866/\n"
    "[GuardedVoila] WARNING | Notebook dekbovinoj.ipynb is not trusted\n"
    "[IPKernelApp] WARNING | Kernel is running over TCP without encryption. All\n"
    "/x/y.py:3: DeprecationWarning: old\n  old()\n"
    "[GuardedVoila] WARNING | dekbovinoj: busy page for 10.0.0.7: a kernel cap is reached\n"
    "[GuardedVoila] ERROR | Uncaught exception GET /\n    Traceback (most recent call last):\n"
    "Traceback (most recent call last):\n  File \"x.py\", line 1\nValueError: cows\n"
)
sys.exit(3)
"""


def test_a_quiet_servers_output_shows_its_own_lines_and_errors_only() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", SERVER_OUTPUT], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    out, err = io.StringIO(), io.StringIO()
    relay(child, out, err)
    assert child.wait(timeout=60) == 3
    assert out.getvalue() == "ready: 1 student\n"
    assert err.getvalue().splitlines() == [
        "[GuardedVoila] WARNING | dekbovinoj: busy page for 10.0.0.7: a kernel cap is reached",
        "[GuardedVoila] ERROR | Uncaught exception GET /",
        "    Traceback (most recent call last):",
        "Traceback (most recent call last):",
        '  File "x.py", line 1',
        "ValueError: cows",
    ]


def test_waiting_for_a_quiet_server_relays_it_and_returns_its_exit_code(
    capfd: pytest.CaptureFixture[str],
) -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", SERVER_OUTPUT], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert wait_for(child) == 3
    out, err = capfd.readouterr()
    assert "ready: 1 student" in out and "ValueError: cows" in err and "not trusted" not in err
