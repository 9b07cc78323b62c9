"""``dekbovinoj serve``: the practice app in the browser, through Voilà, for one student or a class.

Voilà runs the app notebook (``notebooks/dekbovinoj.ipynb`` in a clone; a
copy written from :data:`APP_CELLS` when the package is installed without
it) and shows only its widgets: no source cells, no tracebacks. A pool of
kernels that have already run the app, one for each student of
``--class-size``, makes the app ready the moment a student opens it; the
server prints ``ready: 30 students`` when the pool is full (see
:mod:`.class_kernels`). ``--host 0.0.0.0`` lets the students' computers on
the class network reach it, and prints the addresses they type. Every Voilà
option is built by :func:`.voila_config.voila_command`.

>>> parser = argparse.ArgumentParser()
>>> register(parser.add_subparsers())
>>> args = parser.parse_args(["serve", "--host", "0.0.0.0", "--class-size", "30"])
>>> options = serve_options(args, Path("app.ipynb"))
>>> options.host, options.class_size, options.port, options.open_browser
('0.0.0.0', 30, 8866, True)
"""

from __future__ import annotations

import argparse
import ctypes
import dataclasses
import importlib.util
import json
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .busy_page import write_template
from .voila_config import (
    DEFAULT_HOST,
    DEFAULT_PORT,
    ServeOptions,
    voila_command,
    voila_environment,
)

__all__ = [
    "APP_CELLS",
    "DEFAULT_HOST",
    "DEFAULT_PORT",
    "SERVE_INSTALL",
    "ServeOptions",
    "app_notebook",
    "find_notebook",
    "free_port",
    "register",
    "run",
    "serve_options",
    "start_in_background",
    "student_addresses",
    "voila_command",
    "wait_until_up",
]

NOTEBOOK_NAME = "dekbovinoj.ipynb"
"""The app notebook's file name."""

APP_CELLS: tuple[tuple[str, str], ...] = (
    (
        "code",
        "# Dek Bovinoj: practise making exactly 10 with playing cards.\n"
        "# Run it as an app: `dekbovinoj serve` (or `voila notebooks/dekbovinoj.ipynb`).\n"
        "# The game is by Johannes G. and Leo G., 2024 (CC BY-SA 4.0).\n"
        "from dekbovinoj_edu.widgets import App\n"
        "\n"
        "# A practice tab and a how-to-play tab; a later tab is added with app.add_tab(...).\n"
        'app = App(level=2, lang="en")\n'
        "app",
    ),
)
"""The cells of the app notebook: ``(cell_type, source)``."""


def app_notebook(
    cells: Sequence[tuple[str, str]] = APP_CELLS,
    kernel: tuple[str, str] = ("python3", "Python 3"),
    ids: str = "dekbovinoj",
) -> dict[str, Any]:
    """The app notebook as nbformat 4 JSON data (what ``notebooks/dekbovinoj.ipynb`` holds);
    ``cells``: another notebook's cells (the class notebook's); ``kernel``: its kernel's name
    and display name; ``ids``: what its cells' ids start with.

    >>> nb = app_notebook()
    >>> nb["nbformat"], nb["metadata"]["kernelspec"]["name"], len(nb["cells"])
    (4, 'python3', 1)
    """
    made = []
    for number, (kind, source) in enumerate(cells):
        cell: dict[str, Any] = {
            "cell_type": kind,
            "id": f"{ids}-{number}",
            "metadata": {},
            "source": source.splitlines(keepends=True),
        }
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        made.append(cell)
    name, display_name = kernel
    return {
        "cells": made,
        "metadata": {
            "kernelspec": {"display_name": display_name, "language": "python", "name": name},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def find_notebook(
    root: Path | None = None,
    name: str = NOTEBOOK_NAME,
    cells: tuple[tuple[str, str], ...] = APP_CELLS,
) -> Path:
    """The app notebook: the clone's ``notebooks/`` copy, else one written to a temp folder.

    ``root`` is the clone's folder (by default the one this package is in);
    ``name`` and ``cells``: another notebook (the class notebook).
    """
    root = Path(__file__).resolve().parents[2] if root is None else root
    clone = root / "notebooks" / name
    if clone.is_file():
        return clone
    folder = Path(tempfile.gettempdir()) / "dekbovinoj-app"
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(json.dumps(app_notebook(cells), indent=1, ensure_ascii=False) + "\n", "utf-8")
    return path


def free_port() -> int:
    """A TCP port on localhost that nothing listens on right now.

    >>> 0 < free_port() < 65536
    True
    """
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("localhost", 0))
        return int(probe.getsockname()[1])


def _stop_with_parent() -> None:
    """In the Voilà child, before it starts: on Linux, be stopped when the parent dies.

    A test run or a ``dekbovinoj serve`` that is killed then leaves no server
    (and its kernels) running on.
    """
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
        except (OSError, AttributeError):
            return


_PR_SET_PDEATHSIG = 1
"""Linux ``prctl`` option: the signal a process gets when its parent dies."""


SERVE_INSTALL = 'pip install "dekbovinoj_edu[serve]"'
"""How to install what ``serve`` needs (Voilà is an optional extra: the static site has no use
for it)."""


def start_in_background(
    port: int, log: Path | None = None, options: ServeOptions | None = None
) -> subprocess.Popen[bytes]:
    """Start Voilà on the app notebook without a browser (for tests and benchmarks).

    ``options`` (their port and browser are replaced) default to ``serve``'s.
    The caller stops it with ``terminate()``; it also stops if the caller
    dies. Its output goes to ``log``, the ``ready`` line included.
    """
    notebook = find_notebook()
    chosen = options if options is not None else ServeOptions(notebook)
    chosen = dataclasses.replace(chosen, notebook=notebook, port=port, open_browser=False)
    output = log.open("wb") if log is not None else subprocess.DEVNULL
    templates = Path(tempfile.mkdtemp(prefix="dekbovinoj-voila-"))
    write_template(templates)
    return subprocess.Popen(
        voila_command(chosen),
        cwd=notebook.parent,
        env=voila_environment(templates),
        stdout=output,
        stderr=subprocess.STDOUT,
        preexec_fn=_stop_with_parent,
    )


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


def student_addresses(host: str, port: int) -> list[str]:
    """The addresses students type to reach a server listening on ``host``.

    ``0.0.0.0`` (or ``::``, or empty) listens on every network of this
    computer: its name and each of its IPv4 addresses, loopback last.

    >>> student_addresses("localhost", 8866)
    ['http://localhost:8866/']
    >>> addresses = student_addresses("0.0.0.0", 8866)
    >>> addresses[-1], all(a.startswith("http://") for a in addresses)
    ('http://127.0.0.1:8866/', True)
    """
    if host not in ("0.0.0.0", "::", ""):
        return [f"http://{host}:{port}/"]
    name = socket.gethostname()
    found: list[str] = [name]
    try:
        infos = socket.getaddrinfo(name, None, socket.AF_INET, socket.SOCK_STREAM)
    except OSError:
        infos = []
    for address in [str(info[4][0]) for info in infos] + _outgoing_address():
        if address not in found and not address.startswith("127."):
            found.append(address)
    found.append("127.0.0.1")
    return [f"http://{address}:{port}/" for address in found]


def _outgoing_address() -> list[str]:
    """The IPv4 address this computer's network traffic leaves from, if it has one.

    Connecting a UDP socket sends nothing: it only picks the route.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return [str(probe.getsockname()[0])]
        except OSError:
            return []


def serve_options(args: argparse.Namespace, notebook: Path) -> ServeOptions:
    """The options ``serve``'s command line asked for (raises ``ValueError`` on bad ones)."""
    return ServeOptions(
        notebook,
        port=args.port,
        host=args.host,
        class_size=args.class_size,
        open_browser=not args.no_browser,
    )


def run(args: argparse.Namespace) -> int:
    """Serve the app (or with ``--class``, a class's assignment) until Ctrl+C (or SIGTERM);
    returns Voilà's exit code, 2 for an unknown class."""
    if args.db is not None and args.class_name is None:
        raise ValueError("--db goes with --class NAME: it is where that class's progress is kept")
    if importlib.util.find_spec("voila") is None:
        raise OSError(f"serving the app needs Voilà: {SERVE_INSTALL}")
    notebook = find_notebook()
    class_env: dict[str, str] = {}
    if args.class_name is not None:
        from .classroom import CLASS_CELLS, CLASS_NOTEBOOK, class_environment

        class_env = class_environment(args.class_name, args.db)
        if not class_env:
            return 2
        notebook = find_notebook(name=CLASS_NOTEBOOK, cells=CLASS_CELLS)
    options = serve_options(args, notebook)
    addresses = student_addresses(options.host, options.port)
    print(f"Dek bovinoj: {addresses[0]}  (Ctrl+C stops it)", flush=True)
    if len(addresses) > 1:
        print("Students type one of these addresses:", flush=True)
        for address in addresses:
            print(f"  {address}", flush=True)
    print(
        f"Preparing the app for {options.class_size} "
        f"student{'s' if options.class_size != 1 else ''}; wait for the line 'ready'.",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="dekbovinoj-voila-") as folder:
        write_template(Path(folder))
        server = subprocess.Popen(
            voila_command(options),
            cwd=notebook.parent,
            env={**voila_environment(Path(folder)), **class_env},
            preexec_fn=_stop_with_parent,
        )
        return _wait(server)


def _wait(server: subprocess.Popen[bytes]) -> int:
    """Wait for the server until it ends, Ctrl+C or SIGTERM; returns its exit code."""
    stopped: list[int] = []

    def stop(signum: int, frame: object) -> None:
        stopped.append(signum)
        server.terminate()

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        code = server.wait()
        return 0 if stopped else code
    except KeyboardInterrupt:
        server.terminate()
        server.wait()
        return 0
    finally:
        signal.signal(signal.SIGTERM, previous)


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``dekbovinoj serve [--host H] [--port N] [--class-size N] [--no-browser]
    [--class NAME [--db PATH]]``."""
    parser = subparsers.add_parser(
        "serve",
        help="open the practice app in the browser (Voilà), for one student or a class",
        description=(
            "Serve the Dek Bovinoj practice app with Voilà and print its address. "
            "Start it before the lesson: it prints 'ready: N students' when the app is "
            "ready for the whole class."
        ),
    )
    parser.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help="address to listen on (default localhost: this computer only; "
        "0.0.0.0: every network, and it prints the addresses students type)",
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="port (default 8866)")
    parser.add_argument(
        "--class-size",
        type=int,
        default=1,
        metavar="N",
        help="how many students open the app at the same time (default 1): "
        "the server keeps an app ready for each",
    )
    parser.add_argument(
        "--no-browser", action="store_true", help="do not open a browser, just print the address"
    )
    parser.add_argument(
        "--class",
        dest="class_name",
        metavar="NAME",
        help="serve class NAME's assignment (see dekbovinoj class new): students join with a "
        "nickname",
    )
    parser.add_argument(
        "--db", help="with --class: the class database file (default: in your data directory)"
    )
    parser.set_defaults(run=run)
