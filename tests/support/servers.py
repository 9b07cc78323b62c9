"""Servers for the tests and the benchmarks: Voilà on a free port, and a built site.

>>> 0 < free_port() < 65536
True
>>> import tempfile, urllib.request
>>> with tempfile.TemporaryDirectory() as folder:
...     _ = (Path(folder) / "index.html").write_text("<p>cows</p>")
...     with serve_site(Path(folder)) as server:
...         page = urllib.request.urlopen(server.url).read()
>>> page, server.sent
(b'<p>cows</p>', 11)
"""

from __future__ import annotations

import dataclasses
import functools
import http.server
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, TypeVar

from dekbovinoj_edu.serving.notebooks import find_notebook
from dekbovinoj_edu.serving.options import ServeOptions
from dekbovinoj_edu.serving.server import start_voila

__all__ = [
    "RecordingServer",
    "SiteServer",
    "binder_serving",
    "free_port",
    "other_address",
    "recording_server",
    "serve_site",
    "start_in_background",
    "stop",
    "wait_until_up",
]

H = TypeVar("H", bound=http.server.HTTPServer)

ROOT = Path(__file__).resolve().parents[2]
"""The project's folder."""

BINDER_CONFIG = "jupyter_server_config.json"
"""Binder's Jupyter Server configuration, in ``binder/`` and in the server's config folder."""


PORTS = range(20_000, 32_000)
"""Where :func:`free_port` looks: below Linux's ephemeral range (32768–60999), which the
system hands out to every outgoing connection and every ``bind(0)`` (a browser's, a hub's,
PostgreSQL's clients'), so a port found free here is not taken by one of those before the
server that was given it binds it."""

_handed_out: set[int] = set()
_ports_lock = threading.Lock()


def other_address() -> str | None:
    """An IPv4 address of this computer that is not loopback (a connection to it comes from
    it), if it has one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # picks the route, sends nothing
            address = str(probe.getsockname()[0])
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now, outside the system's ephemeral
    range and never handed out before in this test run (a server given it binds it later).

    >>> free_port() != free_port()
    True
    """
    start = PORTS.start + (os.getpid() * 7919) % len(PORTS)  # runs side by side start apart
    with _ports_lock:
        for step in range(len(PORTS)):
            port = PORTS.start + (start - PORTS.start + step) % len(PORTS)
            if port in _handed_out:
                continue
            with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
                try:
                    probe.bind(("127.0.0.1", port))
                except OSError:
                    continue
            _handed_out.add(port)
            return port
    raise OSError("no free TCP port between 20000 and 32000")


def start_in_background(
    port: int, log: Path | None = None, options: ServeOptions | None = None
) -> subprocess.Popen[bytes]:
    """Start Voilà on the app notebook without a browser, as ``dekbovinoj serve`` does.

    ``options`` (their port and browser are replaced) default to ``serve``'s.
    The caller stops it with ``terminate()``; it also stops if the caller
    dies. Its output goes to ``log``, the ``ready`` line included.
    """
    notebook = find_notebook()
    chosen = options if options is not None else ServeOptions(notebook)
    chosen = dataclasses.replace(chosen, notebook=notebook, port=port, open_browser=False)
    output = log.open("wb") if log is not None else subprocess.DEVNULL
    templates = Path(tempfile.mkdtemp(prefix="dekbovinoj-voila-"))
    return start_voila(chosen, templates, output=output)


@contextmanager
def voila_serving(options: ServeOptions, log: Path) -> Iterator[str]:
    """Voilà started for ``options`` (their notebook and port as given; its templates in a
    folder of its own, its output to ``log``), answering until the block ends: its address."""
    templates = Path(tempfile.mkdtemp(prefix="dekbovinoj-voila-")) / "templates"
    with log.open("wb") as output:
        server = start_voila(options, templates, output=output)
    try:
        wait_until_up(options.port, timeout=120, process=server)
        yield f"http://localhost:{options.port}/"
    finally:
        stop(server)


@contextmanager
def binder_serving(folder: Path, log: Path, cwd: Path) -> Iterator[str]:
    """Jupyter Server as Binder runs it: with the project's ``binder/jupyter_server_config.json``
    (as ``binder/postBuild`` installs it), no token, ``folder / "data"`` as its Jupyter data
    folder (where the caller wrote the templates) and ``cwd`` as its folder of notebooks, on
    127.0.0.1 and a free port, its output to ``log``; answering until the block ends: its
    address."""
    config = folder / "config"
    config.mkdir()
    shutil.copyfile(ROOT / "binder" / "jupyter_server_config.json", config / BINDER_CONFIG)
    env = {**os.environ, "JUPYTER_CONFIG_PATH": str(config), "JUPYTER_PATH": str(folder / "data")}
    port = free_port()
    command = [sys.executable, "-m", "jupyter", "server", "--no-browser", f"--port={port}"]
    command += ["--ServerApp.ip=127.0.0.1", "--IdentityProvider.token=", "--ServerApp.password="]
    if os.geteuid() == 0:
        command.append("--allow-root")
    with log.open("wb") as output:
        server = subprocess.Popen(
            command, cwd=cwd, env=env, stdout=output, stderr=subprocess.STDOUT
        )
    try:
        deadline = time.monotonic() + 120
        while True:
            assert server.poll() is None and time.monotonic() < deadline, "no Jupyter Server"
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api", timeout=5):
                    break
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.3)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(server)


def stop(process: subprocess.Popen[bytes], timeout: float = 30.0) -> None:
    """Stop a server: SIGTERM, and SIGKILL if it has not ended within ``timeout`` seconds.

    >>> import sys
    >>> sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    >>> stop(sleeper); sleeper.returncode is not None
    True
    """
    process.terminate()
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def wait_until_up(
    port: int,
    timeout: float = 90.0,
    process: subprocess.Popen[bytes] | None = None,
    host: str = "localhost",
) -> None:
    """Wait until Voilà answers on ``host:port``; ``TimeoutError`` after ``timeout`` seconds.

    It asks for a static file, so no preheated kernel is spent on the probe.
    Raises ``RuntimeError`` at once if ``process`` ends before that.
    """
    url = f"http://{host}:{port}/voila/static/voila.js"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"Voilà stopped with exit code {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=5) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.3)
    raise TimeoutError(f"Voilà did not answer on port {port} within {timeout:g} s")


class _SiteHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {  # noqa: RUF012 (http.server's own class attribute)
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        ".wasm": "application/wasm",
        ".mjs": "text/javascript",
    }

    def log_message(self, format: str, *args: Any) -> None:
        return

    def copyfile(self, source: Any, outputfile: Any) -> None:
        before = source.tell()
        super().copyfile(source, outputfile)
        server = self.server
        if isinstance(server, SiteServer):
            server.sent += source.tell() - before


class SiteServer(http.server.ThreadingHTTPServer):
    """A web server for a built site on 127.0.0.1; :attr:`sent` counts the bytes it served."""

    daemon_threads = True
    sent = 0

    @property
    def url(self) -> str:
        """The site's address."""
        return f"http://127.0.0.1:{self.server_address[1]}/"


@contextmanager
def serve_site(site: Path, port: int = 0) -> Iterator[SiteServer]:
    """Serve ``site`` on 127.0.0.1 (a free port unless ``port``) in a thread."""
    handler = functools.partial(_SiteHandler, directory=str(site))
    with _in_a_thread(SiteServer(("127.0.0.1", port), handler)) as server:
        yield server


@contextmanager
def _in_a_thread(server: H) -> Iterator[H]:
    """``server`` answering in a thread of its own until the block ends, then closed."""
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


class _RecordingHandler(http.server.BaseHTTPRequestHandler):
    def _record(self) -> None:
        length = min(int(self.headers.get("Content-Length") or 0), 1 << 20)
        body = self.rfile.read(length) if length else b""
        server = self.server
        if isinstance(server, RecordingServer):
            server.requests.append((self.command, self.path, body))
        self.send_response(404)
        self.send_header("Content-Length", "0")
        self.end_headers()

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = do_HEAD = _record

    def log_message(self, format: str, *args: Any) -> None:
        return


class RecordingServer(http.server.ThreadingHTTPServer):
    """A web server on 127.0.0.1 that answers every request 404 and keeps it in
    :attr:`requests` (method, path, body): a computer that must get nothing."""

    daemon_threads = True

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.requests: list[tuple[str, str, bytes]] = []

    @property
    def url(self) -> str:
        """The server's address (no final ``/``)."""
        return f"http://127.0.0.1:{self.server_address[1]}"


@contextmanager
def recording_server() -> Iterator[RecordingServer]:
    """A :class:`RecordingServer` on a free port, in a thread, until closed.

    >>> with recording_server() as server:
    ...     _ = urllib.request.urlopen(urllib.request.Request(server.url + "/a", data=b"x"))
    Traceback (most recent call last):
    ...
    urllib.error.HTTPError: HTTP Error 404: Not Found
    >>> server.requests
    [('POST', '/a', b'x')]
    """
    with _in_a_thread(RecordingServer(("127.0.0.1", 0), _RecordingHandler)) as server:
        yield server
