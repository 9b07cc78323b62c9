"""Voilà started as a server of its own: the process, its addresses, its end.

:func:`start_voila` runs Voilà (guarded, :mod:`.launch`) with the options of :mod:`.options`,
the starting page of :mod:`.busy_page` and the kernel spec of :mod:`.kernel_limits`; the
process stops when its parent dies (Linux), so a ``dekbovinoj serve``
that is killed leaves no kernels running on. :func:`wait_for` waits for it until Ctrl+C or
SIGTERM. :func:`student_addresses` says what students type to reach it.

>>> student_addresses("127.0.0.1", 8866)
['http://127.0.0.1:8866/']
"""

from __future__ import annotations

import ctypes
import signal
import socket
import subprocess
import sys
import urllib.parse
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import IO

from .busy_page import write_template
from .guard import KEY_ENV
from .kernel_limits import write_kernel_spec
from .options import ServeOptions, voila_command, voila_environment

__all__ = ["SERVE_INSTALL", "start_voila", "stop_with_parent", "student_addresses", "wait_for"]

SERVE_INSTALL = 'pip install "dekbovinoj_edu[serve]"'
"""How to install what ``serve`` needs (Voilà is an optional extra: the static site has no use
for it)."""


def start_voila(
    options: ServeOptions,
    templates: Path,
    environment: Mapping[str, str] | None = None,
    output: int | IO[bytes] | None = None,
    forget: Iterable[str] = (),
) -> subprocess.Popen[bytes]:
    """Start Voilà on ``options.notebook``, with the starting page and the kernels' spec
    written into ``templates`` (a private folder: the server's own Jupyter data folder, where
    Voilà keeps its kernels' connection files too).

    ``environment`` is added to Voilà's (the class and its service, for class mode), the
    variables named in ``forget`` are taken out of it (the database's, for class mode: the
    kernels never get it); ``output`` is where Voilà writes (by default this process's own
    output).
    """
    write_template(templates)
    write_kernel_spec(templates, options.kernel_memory_mb)
    env = {**voila_environment(templates), **(environment or {})}
    if KEY_ENV not in (environment or {}):
        env.pop(KEY_ENV, None)  # no class key but the one asked for
    for name in forget:
        env.pop(name, None)
    return subprocess.Popen(
        [*voila_command(options), f"--Voila.connection_dir_root={templates}"],
        cwd=options.notebook.parent,
        env=env,
        stdout=output,
        stderr=None if output is None else subprocess.STDOUT,
        preexec_fn=stop_with_parent,
    )


def stop_with_parent() -> None:
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


def student_addresses(host: str, port: int, key: str = "") -> list[str]:
    """The addresses students type to reach a server listening on ``host`` (with the class
    ``key`` when there is one).

    ``0.0.0.0`` (or ``::``, or empty) listens on every network of this
    computer: its name and each of its IPv4 addresses, loopback last.

    >>> student_addresses("localhost", 8866)
    ['http://localhost:8866/']
    >>> addresses = student_addresses("0.0.0.0", 8866)
    >>> addresses[-1], all(a.startswith("http://") for a in addresses)
    ('http://127.0.0.1:8866/', True)
    >>> student_addresses("localhost", 8866, key="cow7")
    ['http://localhost:8866/?key=cow7']
    """
    query = f"?key={urllib.parse.quote(key)}" if key else ""
    if host not in ("0.0.0.0", "::", ""):
        return [f"http://{host}:{port}/{query}"]
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
    return [f"http://{address}:{port}/{query}" for address in found]


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


def wait_for(server: subprocess.Popen[bytes]) -> int:
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
