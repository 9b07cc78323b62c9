"""The class service in several processes on one address, as tornado serves on several cores:
the address is bound once, then each worker process is forked and answers on it with its
own store connection, desk and rate limits; the first process only watches them.

Python runs one thread at a time in a process, and a class of a few hundred keeps one core
busy; ``--workers 2`` lets a two-core computer answer twice as many. Every worker has the
same teacher's secret (the dashboard opens on any of them) and reads the same database (a
page may land on either: a seat, an attempt, the board are the class's, not the worker's).
What each keeps to itself: its rate limits (with two workers, a page that spreads its
requests over both may send up to twice as many) and the storage failures it saw (each says
so once in the terminal).

A worker that dies is started again (at most :data:`RESTARTS` times); SIGTERM or Ctrl+C stops
them all; if the watching process is killed, the workers end with it (Linux).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import secrets
import signal
import socket
import sys
import time
from collections.abc import Callable

from .run import ClassServer
from .state import SECRET_BYTES, Service

__all__ = ["MAX_WORKERS", "RESTARTS", "serve_workers"]

MAX_WORKERS = 16
"""The most worker processes the service starts."""

RESTARTS = 10
"""How many times a worker that died is started again before the service gives up."""

PR_SET_PDEATHSIG = 1
"""Linux's ``prctl`` option: a signal for this process when its parent dies."""


def _end_with_parent(parent: int) -> None:
    """In a worker: be killed when the watching process dies (Linux; elsewhere nothing)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # it died before the line above
        os._exit(1)


def _worker(
    make_service: Callable[[str], Service],
    secret: str,
    sockets: list[socket.socket],
    host: str,
    parent: int,
    sends_scores: bool,
) -> int:
    """Run one worker until it is told to stop; its exit code. ``sends_scores``: whether this
    worker is the one that sends the LMS's scores (:mod:`.lti_scores`)."""
    _end_with_parent(parent)
    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, signal.SIG_DFL)
    service = make_service(secret)
    service.sends_scores = sends_scores
    try:
        ClassServer(service, host=host, sockets=sockets).run()
    finally:
        service.store.close()
    return 0


def serve_workers(
    make_service: Callable[[str], Service],
    *,
    host: str,
    sockets: list[socket.socket],
    workers: int,
    announce: Callable[[ClassServer], None],
) -> int:
    """Serve with ``workers`` processes on ``sockets`` (bound on ``host``) until SIGTERM or
    Ctrl+C; the exit code.

    ``make_service(secret)`` opens the store and makes the :class:`~.state.Service`: once
    here, to check the class and announce it (then closed: nothing of it is forked), then
    once in each worker.
    """
    secret = secrets.token_urlsafe(SECRET_BYTES)
    first = make_service(secret)
    try:
        announce(ClassServer(first, host=host, sockets=sockets))
    finally:
        first.close()
        first.store.close()
    parent = os.getpid()
    children: set[int] = set()
    stopping: list[int] = []
    sender: list[int] = []  # the worker that sends the LMS's scores: one at a time

    def start() -> None:
        sys.stdout.flush()
        sys.stderr.flush()
        sends = not sender
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                code = _worker(make_service, secret, sockets, host, parent, sends)
            finally:
                os._exit(code)
        children.add(pid)
        if sends:
            sender.append(pid)

    def stop(signum: int, frame: object) -> None:
        stopping.append(signum)
        for child in children:
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, signal.SIGTERM)

    previous = {s: signal.signal(s, stop) for s in (signal.SIGINT, signal.SIGTERM)}
    restarts = 0
    try:
        for _ in range(workers):
            start()
        while children:
            pid, status = os.waitpid(-1, os.WNOHANG)
            if pid == 0:
                time.sleep(0.1)
                continue
            children.discard(pid)
            if pid in sender:
                sender.remove(pid)
            if stopping:
                continue
            if restarts < RESTARTS:
                restarts += 1
                print(f"dekbovinoj: a worker of the class service ended (status {status}): "
                      "starting it again", file=sys.stderr, flush=True)  # fmt: skip
                start()
            else:
                print("dekbovinoj: the class service's workers keep ending: stopping",
                      file=sys.stderr, flush=True)  # fmt: skip
                stop(signal.SIGTERM, None)
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)
        for bound in sockets:
            bound.close()
    return 0 if restarts < RESTARTS else 1
