"""The class service running: bound to an address, its addresses told, stopped cleanly.

:class:`ClassServer` binds at once (so a port in use is an error before anything starts,
and port 0 picks a free one), then runs here until Ctrl+C or SIGTERM (:meth:`~ClassServer.run`)
or in a thread of its own (:meth:`~ClassServer.start`, for tests and notebooks). Stopping
takes no new connection, lets the store's calls in progress end (at most
:data:`DRAIN_SECONDS`), closes the connections and the pool; the store is the caller's.

It listens on ``127.0.0.1`` unless told otherwise: students on other computers need
``--host 0.0.0.0`` (every network of this computer). The teacher's address it prints is
on this computer, whatever the host: the teacher's routes answer only this computer (and
``--teacher-from``), and the address signs the browser in (:mod:`.teacher_access`).

>>> from dekbovinoj_edu.classroom.assignment import codes_assignment
>>> from dekbovinoj_edu.classroom.store import SQLiteStore
>>> from .state import Service
>>> store = SQLiteStore(":memory:")
>>> store.add_class(codes_assignment("4a", "68VN-AV66-GGK"))
>>> server = ClassServer(Service(store, "4a"))
>>> server.start()
>>> import json, urllib.request
>>> with urllib.request.urlopen(server.url + "api/v1/classes/4a") as answer:
...     json.load(answer)["codes"]
['68VN-AV66-GGK']
>>> server.teacher_url.startswith(server.url + "teacher/")
True
>>> server.close()
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable

import tornado.httpserver
import tornado.netutil
import tornado.web

from ..serving.server import student_addresses
from .app import MAX_CONNECTION_BODY, make_app
from .connections import CappedHTTPServer, ConnectionLimits, raise_open_files
from .problems import LOG
from .state import Service
from .teacher_access import LOOPBACK as LOOPBACK_NETWORKS

__all__ = [
    "DRAIN_SECONDS",
    "IDLE_SECONDS",
    "LOOPBACK",
    "SIGN_IN",
    "SWITCH_SECONDS",
    "ClassServer",
    "bind",
    "log_to_terminal",
]

LOOPBACK = "127.0.0.1"
"""Where the service listens unless told otherwise: this computer only."""

SIGN_IN = "it signs this browser in, then the address bar shows no secret"
"""What the teacher's address does, as the terminal says it."""

DRAIN_SECONDS = 5.0
"""How long stopping waits for the store's calls in progress."""

IDLE_SECONDS = ConnectionLimits.idle_seconds
"""How long a kept-alive connection may stay idle before the service closes it."""

BODY_SECONDS = 30.0
"""How long a request body may take to arrive."""

SWITCH_SECONDS = 0.0005
"""How often Python lets another thread take the interpreter, in the service's own process
(the default is 5 ms): the teacher's reads in the thread pool then never hold the students'
requests up for more than a moment."""


def bind(port: int, host: str = LOOPBACK) -> list[socket.socket]:
    """Listening sockets on ``host:port`` (``port=0``: a free one); ``OSError`` if taken."""
    return tornado.netutil.bind_sockets(port, host or None, family=socket.AF_UNSPEC)


def log_to_terminal(level: int = logging.INFO) -> None:
    """The service's log lines on stderr, one line each (no tracebacks for refusals)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("dekbovinoj: %(message)s"))
    LOG.addHandler(handler)
    LOG.setLevel(level)
    LOG.propagate = False
    for name in ("tornado.access", "tornado.application", "tornado.general"):
        logging.getLogger(name).setLevel(logging.CRITICAL)


def _scores_task(service: Service, stopping: asyncio.Event) -> asyncio.Task[None] | None:
    """The loop that sends the LMS's scores (:mod:`.lti_scores`), when the service has the
    LTI tool (the ``lti`` extra and a class database) and is the process that sends them."""
    from .. import lti

    if not service.sends_scores or getattr(service.store, "database", None) is None:
        return None
    if not lti.installed():
        return None
    from .lti_scores import send_scores

    return asyncio.create_task(send_scores(service, stopping))


class ClassServer:
    """``service`` listening on ``host:port`` (``port=0``: a free one), or on ``sockets``
    bound already (:func:`bind`); ``app`` makes its application; ``limits``: the caps on
    open connections (:mod:`.connections`)."""

    def __init__(
        self,
        service: Service,
        host: str = LOOPBACK,
        port: int = 0,
        sockets: list[socket.socket] | None = None,
        app: Callable[[Service], tornado.web.Application] = make_app,
        limits: ConnectionLimits | None = None,
    ) -> None:
        self.service = service
        self.limits = limits or ConnectionLimits()
        """The caps on open connections (lowered to the open-files limit when serving)."""
        self.app = app
        """What makes the application (a hub's service: :func:`~.hub_pages.make_hub_app`)."""
        self.host = host
        # Behind a hub's proxy the Host is the hub's name: only a service of its own checks it.
        service.local_only = service.hub is None and host in ("127.0.0.1", "localhost", "::1")
        self.sockets = bind(port, host) if sockets is None else sockets
        self.port = int(self.sockets[0].getsockname()[1])
        if service.students and service.hub is None:
            service.student_urls = self.student_urls()  # the dashboard shows them
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stopping: asyncio.Event | None = None
        self._ready = threading.Event()
        self._thread: threading.Thread | None = None

    # ------------------------------------------------------------ addresses
    @property
    def url(self) -> str:
        """The service's address on this computer."""
        shown = LOOPBACK if self.host in ("", "0.0.0.0", "::") else self.host
        if ":" in shown:
            shown = f"[{shown}]"
        return f"http://{shown}:{self.port}/"

    @property
    def teacher_url(self) -> str:
        """The dashboard's address, with the secret (for the teacher only): it signs the
        browser in, then the browser is on ``/teacher/``, an address without the secret."""
        return f"{self.url}teacher/{self.service.secret}/"

    def teacher_where(self) -> str:
        """Where the teacher's address opens, and what it does, as the terminal says it.

        >>> from dekbovinoj_edu.classroom.assignment import codes_assignment
        >>> from dekbovinoj_edu.classroom.store import SQLiteStore
        >>> from .teacher_access import teacher_networks
        >>> store = SQLiteStore(":memory:")
        >>> store.add_class(codes_assignment("4a", "68VN-AV66-GGK"))
        >>> service = Service(store, "4a", teacher_from=teacher_networks("192.0.2.7"))
        >>> server = ClassServer(service)
        >>> print(server.teacher_where())
        Open it on this computer (or from 192.0.2.7): it signs this browser in, then the
        address bar shows no secret.
        >>> server.sockets[0].close(); service.close()
        """
        extra = [str(n) for n in self.service.access.networks if n not in LOOPBACK_NETWORKS]
        named = [n.removesuffix("/32").removesuffix("/128") for n in extra]
        where = f"this computer (or from {', '.join(named)})" if named else "this computer"
        return f"Open it on {where}: {SIGN_IN}."

    def student_urls(self) -> list[str]:
        """The addresses students type (every network's, when listening on all of them)."""
        if self.host in ("", "0.0.0.0", "::"):
            return student_addresses("0.0.0.0", self.port)
        return [self.url]

    def announce(self, say: Callable[[str], None] = print) -> None:
        """Tell the teacher where students go, and the dashboard's secret address."""
        service = self.service
        say(f"Class service of class {service.name} on {self.url}")
        if service.students:
            for address in self.student_urls():
                say(f"Students: {address}")
            if self.host == LOOPBACK:
                say("Only this computer can reach it: --host 0.0.0.0 for the students' own.")
        say(f"Teacher:  {self.teacher_url}")
        say(self.teacher_where())
        say("Keep the teacher's address to yourself. Ctrl+C stops the service.")

    # ------------------------------------------------------------ running
    async def serve(self) -> None:
        """Answer requests until :meth:`stop`; then stop cleanly."""
        self._loop = asyncio.get_running_loop()
        self._stopping = asyncio.Event()
        server = CappedHTTPServer(
            self.app(self.service),
            max_body_size=MAX_CONNECTION_BODY,
            body_timeout=BODY_SECONDS,
            decompress_request=False,
            limits=self.limits.within_open_files(raise_open_files()),
        )
        server.add_sockets(self.sockets)
        self.service.warm()
        scores = _scores_task(self.service, self._stopping)
        self._ready.set()
        try:
            await self._stopping.wait()
        finally:
            server.stop()
            if scores is not None:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(scores, DRAIN_SECONDS)
            deadline = time.monotonic() + DRAIN_SECONDS
            while self.service.busy and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(server.close_all_connections(), DRAIN_SECONDS)
            self.service.close()

    def stop(self) -> None:
        """Ask the service to stop (from any thread, or a signal handler)."""
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None:
            loop.call_soon_threadsafe(stopping.set)

    def run(self) -> None:
        """Serve here until Ctrl+C or SIGTERM (this process is the service's: it takes
        :data:`SWITCH_SECONDS` turns)."""
        sys.setswitchinterval(SWITCH_SECONDS)
        gc.collect()
        gc.freeze()  # what is loaded by now stays: the collector's full passes skip it

        async def main() -> None:
            loop = asyncio.get_running_loop()
            for signum in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(signum, self.stop)
            await self.serve()

        asyncio.run(main())

    def start(self, timeout: float = 30.0) -> None:
        """Serve in a background thread; returns once requests are answered."""
        failed: list[BaseException] = []

        def serve() -> None:
            try:
                asyncio.run(self.serve())
            except BaseException as error:
                failed.append(error)
                self._ready.set()
                raise

        self._thread = threading.Thread(target=serve, name="dekbovinoj-class-service", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout):
            raise TimeoutError("the class service did not start")
        if failed:
            raise failed[0]

    def close(self, timeout: float = 30.0) -> None:
        """Stop the background thread's service and wait for it."""
        self.stop()
        if self._thread is not None:
            self._thread.join(timeout)
        for bound in self.sockets:
            bound.close()
