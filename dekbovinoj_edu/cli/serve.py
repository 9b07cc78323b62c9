"""``dekbovinoj serve``: the practice app in the browser, through Voilà.

Voilà runs the app notebook (``notebooks/dekbovinoj.ipynb`` in a clone; a
copy written from :data:`APP_CELLS` when the package is installed without
it) and shows only its widgets: no source cells, no tracebacks, and a
preheated kernel so the app is ready the moment a student opens it.

>>> command = voila_command(Path("app.ipynb"), port=9000, open_browser=False)
>>> command[1:4], "--port=9000" in command, "--no-browser" in command
(['-m', 'voila', 'app.ipynb'], True, True)
>>> "--preheat_kernel=True" in command and "--strip_sources=True" in command
True
"""

from __future__ import annotations

import argparse
import ctypes
import json
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

__all__ = [
    "APP_CELLS",
    "DEFAULT_PORT",
    "app_notebook",
    "find_notebook",
    "free_port",
    "register",
    "run",
    "start_in_background",
    "voila_command",
    "wait_until_up",
]

DEFAULT_PORT = 8866
"""Voilà's own default port."""

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


def app_notebook() -> dict[str, Any]:
    """The app notebook as nbformat 4 JSON data (what ``notebooks/dekbovinoj.ipynb`` holds).

    >>> nb = app_notebook()
    >>> nb["nbformat"], nb["metadata"]["kernelspec"]["name"], len(nb["cells"])
    (4, 'python3', 1)
    """
    cells = []
    for number, (kind, source) in enumerate(APP_CELLS):
        cell: dict[str, Any] = {
            "cell_type": kind,
            "id": f"dekbovinoj-{number}",
            "metadata": {},
            "source": source.splitlines(keepends=True),
        }
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        cells.append(cell)
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def find_notebook(root: Path | None = None) -> Path:
    """The app notebook: the clone's ``notebooks/`` copy, else one written to a temp folder.

    ``root`` is the clone's folder (by default the one this package is in).
    """
    root = Path(__file__).resolve().parents[2] if root is None else root
    clone = root / "notebooks" / NOTEBOOK_NAME
    if clone.is_file():
        return clone
    folder = Path(tempfile.gettempdir()) / "dekbovinoj-app"
    folder.mkdir(exist_ok=True)
    path = folder / NOTEBOOK_NAME
    path.write_text(json.dumps(app_notebook(), indent=1, ensure_ascii=False) + "\n", "utf-8")
    return path


def voila_command(notebook: Path, port: int = DEFAULT_PORT, open_browser: bool = True) -> list[str]:
    """The command line that serves the app notebook with the app's defaults."""
    command = [
        sys.executable,
        "-m",
        "voila",
        str(notebook),
        f"--port={port}",
        "--Voila.ip=localhost",
        "--strip_sources=True",
        "--show_tracebacks=False",
        "--preheat_kernel=True",
        "--pool_size=1",
        "--theme=light",
    ]
    if not open_browser:
        command.append("--no-browser")
    return command


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


def start_in_background(port: int, log: Path | None = None) -> subprocess.Popen[bytes]:
    """Start Voilà on the app notebook without a browser (for tests and benchmarks).

    The caller stops it with ``terminate()``; it also stops if the caller
    dies. Its output goes to ``log``.
    """
    notebook = find_notebook()
    output = log.open("wb") if log is not None else subprocess.DEVNULL
    return subprocess.Popen(
        voila_command(notebook, port, open_browser=False),
        cwd=notebook.parent,
        stdout=output,
        stderr=subprocess.STDOUT,
        preexec_fn=_stop_with_parent,
    )


def wait_until_up(
    port: int, timeout: float = 90.0, process: subprocess.Popen[bytes] | None = None
) -> None:
    """Wait until Voilà answers on ``port``; ``TimeoutError`` after ``timeout`` seconds.

    It asks for a static file, so no preheated kernel is spent on the probe.
    Raises ``RuntimeError`` at once if ``process`` ends before that.
    """
    url = f"http://localhost:{port}/voila/static/voila.js"
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


def run(args: argparse.Namespace) -> int:
    """Serve the app until Ctrl+C (or SIGTERM); returns Voilà's exit code."""
    if not 0 < args.port < 65536:
        raise ValueError(f"port {args.port} is not between 1 and 65535")
    notebook = find_notebook()
    command = voila_command(notebook, args.port, open_browser=not args.no_browser)
    print(f"Dek bovinoj: http://localhost:{args.port}/  (Ctrl+C stops it)", flush=True)
    server = subprocess.Popen(command, cwd=notebook.parent, preexec_fn=_stop_with_parent)

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
    """Add ``dekbovinoj serve [--port N] [--no-browser]``."""
    parser = subparsers.add_parser(
        "serve",
        help="open the practice app in the browser (Voilà)",
        description="Serve the Dek Bovinoj practice app with Voilà and print its address.",
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help="port (default 8866)")
    parser.add_argument(
        "--no-browser", action="store_true", help="do not open a browser, just print the address"
    )
    parser.set_defaults(run=run)
