"""Voilà started as a server of its own: its port, the process, its addresses, its end.

:func:`listen_on` binds the port before anything is printed: a port in use moves to the next
free one (:attr:`Listening.port` is the one really bound, and the address printed), a port that
cannot be used at all is one sentence (:class:`PortUnavailable`). :func:`start_voila` hands
those sockets to Voilà (guarded, :mod:`.launch`), with the options of :mod:`.options`, the
starting page of :mod:`.busy_page` and the kernel spec of :mod:`.kernel_limits`; the process
stops when its parent dies (Linux), so a ``dekbovinoj serve`` that is killed leaves no kernels
running on. :func:`wait_for` waits for it until Ctrl+C or SIGTERM, showing its output through
:mod:`.terminal` when ``serve`` runs quiet. :func:`student_addresses` says what students type
to reach it.

>>> student_addresses("127.0.0.1", 8866)
['http://127.0.0.1:8866/']
>>> with listen_on("127.0.0.1", 8866) as listening:
...     with listen_on("127.0.0.1", listening.port) as next_one:
...         next_one.port > listening.port, next_one.moved
(True, True)
"""

from __future__ import annotations

import ctypes
import dataclasses
import errno
import signal
import socket
import subprocess
import sys
import urllib.parse
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import IO

from .busy_page import write_template
from .guard import KEY_ENV
from .kernel_limits import write_kernel_spec
from .options import ServeOptions, voila_command, voila_environment
from .terminal import relay

__all__ = [
    "LISTEN_ENV",
    "PORT_TRIES",
    "SERVE_INSTALL",
    "Listening",
    "PortUnavailable",
    "cannot_listen",
    "listen_on",
    "start_voila",
    "stop_with_parent",
    "student_addresses",
    "wait_for",
]

SERVE_INSTALL = 'pip install "dekbovinoj_edu[serve]"'
"""How to install what ``serve`` needs (Voilà is an optional extra: the static site has no use
for it)."""

LISTEN_ENV = "DEKBOVINOJ_LISTEN_FDS"
"""The variable that tells Voilà (:mod:`.launch`) the file descriptors of the sockets
:func:`listen_on` bound for it, comma-separated."""

PORT_TRIES = 10
"""How many ports :func:`listen_on` tries, the one asked for and the next ones, when each is in
use (another program, another ``serve``)."""


class PortUnavailable(OSError):
    """The port ``serve`` was asked for cannot be listened on: its text is one sentence for
    the teacher, what to do included (its ``errno`` says why)."""

    def __str__(self) -> str:
        return str(self.strerror)


@dataclass
class Listening:
    """Sockets bound and listening on one port, for Voilà to take over (:func:`start_voila`)."""

    host: str
    asked: int
    """The port the teacher asked for."""
    port: int
    """The port really bound: the one the printed address names."""
    sockets: list[socket.socket] = field(default_factory=list)

    @property
    def moved(self) -> bool:
        """Whether the asked port was in use, so another one is bound."""
        return self.port != self.asked

    def moved_sentence(self) -> str:
        """What the teacher reads when the asked port was in use."""
        return (
            f"Port {self.asked} is in use (another program, or another dekbovinoj serve): "
            f"the app is on port {self.port} instead."
        )

    def close(self) -> None:
        """Close this process's sockets (Voilà's copies, once handed over, stay open)."""
        for sock in self.sockets:
            sock.close()

    def __enter__(self) -> Listening:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()


def listen_on(host: str, port: int, tries: int = PORT_TRIES) -> Listening:
    """Bind ``host:port`` (every address of ``host``, as Voilà would) and listen; when the port
    is in use, the next of ``tries`` ports. Raises :class:`PortUnavailable` with one sentence
    when none can be used (a port below 1024 for a user without the right, a host that is not
    this computer's, every port tried in use).
    """
    from tornado.netutil import bind_sockets  # Voilà's own way to bind (tornado comes with it)

    for candidate in range(port, min(port + tries, 65536)):
        try:
            return Listening(host, port, candidate, bind_sockets(candidate, host or None))
        except OSError as error:
            if error.errno != errno.EADDRINUSE:
                raise PortUnavailable(error.errno, cannot_listen(error, host, candidate)) from None
    last = min(port + tries, 65536) - 1
    raise PortUnavailable(
        errno.EADDRINUSE,
        f"Ports {port} to {last} are all in use: stop the other server, or choose another "
        "port with --port.",
    )


def cannot_listen(error: OSError, host: str, port: int) -> str:
    """One sentence for a port or host that cannot be listened on, what to do included (for
    every command that listens: ``serve``, ``class serve``).

    >>> cannot_listen(OSError(errno.EADDRINUSE, "Address already in use"), "localhost", 8870)[:44]
    'Port 8870 is in use (another program, or ano'
    >>> cannot_listen(PermissionError(errno.EACCES, "Permission denied"), "localhost", 80)
    'Port 80 is reserved for the system: choose a port from 1024 to 65535 (the default is 8866).'
    >>> cannot_listen(OSError(errno.EADDRNOTAVAIL, "x"), "10.9.9.9", 8866)[:49]
    'This computer has no address 10.9.9.9 to listen o'
    """
    if error.errno == errno.EADDRINUSE:
        return (
            f"Port {port} is in use (another program, or another server of dekbovinoj): "
            "stop it, or choose another port with --port."
        )
    if error.errno == errno.EACCES or isinstance(error, PermissionError):
        return (
            f"Port {port} is reserved for the system: choose a port from 1024 to 65535 "
            "(the default is 8866)."
        )
    if error.errno == errno.EADDRNOTAVAIL or isinstance(error, socket.gaierror):
        return (
            f"This computer has no address {host} to listen on: use localhost, 0.0.0.0 "
            "(every network) or one of its own addresses."
        )
    return f"dekbovinoj serve cannot listen on {host}:{port}: {error.strerror or error}."


def start_voila(
    options: ServeOptions,
    templates: Path,
    environment: Mapping[str, str] | None = None,
    output: int | IO[bytes] | None = None,
    forget: Iterable[str] = (),
    listening: Listening | None = None,
) -> subprocess.Popen[bytes]:
    """Start Voilà on ``options.notebook``, with the starting page and the kernels' spec
    written into ``templates`` (a private folder: the server's own Jupyter data folder, where
    Voilà keeps its kernels' connection files too).

    ``environment`` is added to Voilà's (the class and its service, for class mode), the
    variables named in ``forget`` are taken out of it (the database's, for class mode: the
    kernels never get it); ``output`` is where Voilà writes (by default this process's own
    output; with ``options.quiet``, pipes that :func:`wait_for` reads). ``listening``: the
    sockets Voilà serves on (its port replaces ``options.port``); they are handed over, and
    this process's copies closed. Without it Voilà binds ``options.port`` itself, and stops if
    it is taken.
    """
    write_template(templates)
    write_kernel_spec(templates, options.kernel_memory_mb)
    env = {**voila_environment(templates), **(environment or {})}
    if KEY_ENV not in (environment or {}):
        env.pop(KEY_ENV, None)  # no class key but the one asked for
    for name in (*forget, LISTEN_ENV):
        env.pop(name, None)
    handed: tuple[int, ...] = ()
    if listening is not None:
        options = dataclasses.replace(options, port=listening.port)
        handed = tuple(sock.fileno() for sock in listening.sockets)
        env[LISTEN_ENV] = ",".join(map(str, handed))
    piped = output is None and options.quiet
    try:
        return subprocess.Popen(
            [*voila_command(options), f"--Voila.connection_dir_root={templates}"],
            cwd=options.notebook.parent,
            env=env,
            stdout=subprocess.PIPE if piped else output,
            stderr=subprocess.PIPE if piped else None if output is None else subprocess.STDOUT,
            preexec_fn=stop_with_parent,
            pass_fds=handed,
        )
    finally:
        if listening is not None:
            listening.close()


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
    """Wait for the server until it ends, Ctrl+C or SIGTERM; returns its exit code (0 when
    stopped). A quiet server's output (its pipes) is shown meanwhile, through :func:`.relay`:
    its own lines and errors, not Jupyter's notes and warnings."""
    stopped: list[int] = []

    def stop(signum: int, frame: object) -> None:
        stopped.append(signum)
        server.terminate()

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        for _ in range(3):  # Ctrl+C stops it; twice more, and serve stops waiting
            try:
                relay(server)
                code = server.wait()
                return 0 if stopped else code
            except KeyboardInterrupt:
                stopped.append(signal.SIGINT)
                server.terminate()
        server.kill()
        server.wait()
        return 0
    finally:
        signal.signal(signal.SIGTERM, previous)
