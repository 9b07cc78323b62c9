"""How many connections the class service keeps open: per address and in all.

Every open connection costs the service a file descriptor, and a process has a limited number
(1,024 on Linux, 256 on macOS unless raised). Without a cap, a class of a few hundred
browsers, or one student's script that opens connections and sends nothing, reaches that limit:
then nobody is answered, and every attempt to accept one more writes a traceback. So the
service raises its own limit as far as the system lets it (:func:`raise_open_files`), and
:class:`CappedHTTPServer` closes a new connection at once when its address has
:attr:`ConnectionLimits.per_address` open already, or the service
:attr:`ConnectionLimits.total`; the terminal gets one line a minute while it does
(:class:`LimitNotice`). A connection that sends nothing for
:attr:`ConnectionLimits.idle_seconds` is closed (the pages' requests come every few seconds, and
a browser opens a new connection when it needs one).

>>> limits = ConnectionLimits(per_address=2, total=3)
>>> counts = OpenConnections(limits)
>>> [counts.admit("10.0.0.5") for _ in range(3)]
[True, True, False]
>>> counts.admit("10.0.0.6"), counts.admit("10.0.0.7")
(True, False)
>>> counts.closed("10.0.0.5"); counts.admit("10.0.0.7")
True
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import tornado.httpserver
import tornado.iostream

__all__ = [
    "CappedHTTPServer",
    "ConnectionLimits",
    "LimitNotice",
    "OpenConnections",
    "raise_open_files",
]

LOG = logging.getLogger("dekbovinoj.service")

RESERVED_FILES = 64
"""File descriptors kept back from connections: the database, the site's files, the logs."""


@dataclass(frozen=True)
class ConnectionLimits:
    """The caps on open connections, and how long an idle one stays open."""

    per_address: int = 600
    """Open connections from one address (a school's whole network may share one, as the
    service sees it: 300 browsers with a connection or two each)."""
    total: int = 4000
    """Open connections in all (lowered to what the open-files limit allows)."""
    idle_seconds: float = 20.0
    """Seconds a kept-alive connection may send nothing before it is closed."""

    def within_open_files(self, open_files: int) -> ConnectionLimits:
        """These limits with :attr:`total` below ``open_files`` (the process's limit), so
        accepting a connection never runs out of descriptors.

        >>> ConnectionLimits(total=4000).within_open_files(1024).total
        960
        """
        total = max(1, min(self.total, open_files - RESERVED_FILES))
        return ConnectionLimits(min(self.per_address, total), total, self.idle_seconds)


def raise_open_files() -> int:
    """Raise this process's soft limit of open files to its hard limit (as far as the system
    lets it); the soft limit now. On a system without limits, a large number."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to raise
        return 1 << 16
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 16)
    if soft == resource.RLIM_INFINITY:
        return 1 << 16
    if soft < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
            soft = wanted
        except (OSError, ValueError):
            pass
    return int(soft)


class OpenConnections:
    """The connections open now, by address, against :class:`ConnectionLimits`."""

    def __init__(self, limits: ConnectionLimits) -> None:
        self.limits = limits
        self.by_address: Counter[str] = Counter()
        self.total = 0

    def admit(self, address: str) -> bool:
        """Count one more connection from ``address``; ``False`` (and nothing counted) when
        a cap is reached."""
        if self.total >= self.limits.total or self.by_address[address] >= self.limits.per_address:
            return False
        self.by_address[address] += 1
        self.total += 1
        return True

    def closed(self, address: str) -> None:
        """One connection from ``address`` closed."""
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]
        self.total -= 1


class LimitNotice:
    """One line in the terminal, at most every :attr:`every` seconds, while connections are
    turned away.

    >>> now = [0.0]
    >>> notice = LimitNotice(lambda: now[0], every=60.0)
    >>> [notice.due() for now[0] in (0.0, 1.0, 59.0, 61.0)]
    [True, False, False, True]
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic, every: float = 60.0) -> None:
        self.clock = clock
        self.every = every
        self._last: float | None = None
        self.turned_away = 0

    def due(self) -> bool:
        """Whether a line is due now (and, if so, the time of it noted)."""
        now = self.clock()
        if self._last is not None and now - self._last < self.every:
            return False
        self._last = now
        return True


class CappedHTTPServer(tornado.httpserver.HTTPServer):
    """Tornado's HTTP server that closes a connection over :class:`ConnectionLimits` at once.

    ``limits`` is taken as a keyword argument beside tornado's own; its
    :attr:`~ConnectionLimits.idle_seconds` is tornado's ``idle_connection_timeout``.
    """

    def initialize(self, *args: Any, limits: ConnectionLimits | None = None, **kwargs: Any) -> None:
        chosen = limits or ConnectionLimits()
        kwargs.setdefault("idle_connection_timeout", chosen.idle_seconds)
        super().initialize(*args, **kwargs)
        self.open_connections = OpenConnections(chosen)
        self.notice = LimitNotice()
        self._addresses: dict[object, str] = {}

    def handle_stream(self, stream: tornado.iostream.IOStream, address: Any) -> None:
        where = str(address[0]) if isinstance(address, tuple) and address else "local"
        if not self.open_connections.admit(where):
            self.notice.turned_away += 1
            if self.notice.due():
                counts = self.open_connections
                LOG.warning(
                    "class service: %d connections open (%d from %s), at the limit: new ones "
                    "are turned away (%d so far)",
                    counts.total, counts.by_address[where], where, self.notice.turned_away,
                )  # fmt: skip
            stream.close()
            return
        self._addresses[stream] = where
        super().handle_stream(stream, address)

    def on_close(self, server_conn: object) -> None:
        where = self._addresses.pop(getattr(server_conn, "stream", None), None)
        if where is not None:
            self.open_connections.closed(where)
        super().on_close(server_conn)
