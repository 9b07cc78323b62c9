"""How the static site's files travel: compressed ahead, cached for good when their names say
what they hold, and sent a few at a time to each address.

``dekbovinoj build-site`` writes a compressed copy beside each file worth compressing
(``pyodide.asm.wasm.br``, ``pyodide.asm.wasm.gz``); the class service sends the one the
browser accepts (:func:`pick_encoding`), with ``Vary: Accept-Encoding``. A file whose name
holds a hash of its content (:func:`immutable`: the site's ``static/pyodide-<hash>/`` folder,
webpack's ``592.dfd0b9431bfb4edbbcd2.js``) never changes under that name, so a browser keeps
it a year without asking again (:data:`IMMUTABLE`); every other file is asked about on each
visit (:data:`REVALIDATE`, answered ``304 Not Modified`` by its ``ETag`` when unchanged).

>>> pick_encoding("gzip, deflate, br", ("br", "gzip"))
'br'
>>> pick_encoding("gzip;q=1, br;q=0", ("br", "gzip")), pick_encoding("", ("br", "gzip"))
('gzip', None)
>>> immutable("static/pyodide-0123456789abcdef/pyodide.asm.wasm")
True
>>> immutable("extensions/x/static/592.dfd0b9431bfb4edbbcd2.js"), immutable("voici/build/1060.js")
(True, False)
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

__all__ = [
    "COMPRESSIBLE",
    "ENCODINGS",
    "HASHED_FOLDER",
    "IMMUTABLE",
    "REVALIDATE",
    "TransferSlots",
    "compressed_name",
    "immutable",
    "pick_encoding",
]

ENCODINGS: dict[str, str] = {"br": ".br", "gzip": ".gz"}
"""Each content coding the site is compressed with, and the suffix of its copy; brotli first
(smaller), gzip the fallback every browser accepts."""

COMPRESSIBLE = frozenset(
    (
        *(".js", ".mjs", ".css", ".html", ".json", ".wasm", ".svg", ".txt", ".ipynb", ".map"),
        *(".webmanifest", ".whl", ".zip", ".ttf", ".eot", ".otf", ".tsv", ".xml", ".py"),
    )
)
"""The suffixes of files worth a compressed copy (the site's archives hold their members
uncompressed, so the whole archive compresses better)."""

HASHED_FOLDER = re.compile(r"^static/pyodide-[0-9a-f]{16}/")
"""The site's folder of Pyodide and the wheels, named by a hash of all it holds."""

_HASHED_NAME = re.compile(r"(^|/)([^/]+\.)?[0-9a-f]{16,}\.[a-z0-9]+$")

IMMUTABLE = "public, max-age=31536000, immutable"
"""``Cache-Control`` of a file whose name changes with its content."""

REVALIDATE = "no-cache"
"""``Cache-Control`` of every other file: kept, but asked about (``If-None-Match``) each time."""


def immutable(path: str) -> bool:
    """Whether the site's file at ``path`` (relative to the site) is named by its content."""
    return bool(HASHED_FOLDER.match(path) or _HASHED_NAME.search(path))


def compressed_name(path: str, encoding: str) -> str:
    """The name of ``path``'s copy compressed with ``encoding``.

    >>> compressed_name("voici/build/1060.js", "br")
    'voici/build/1060.js.br'
    """
    return path + ENCODINGS[encoding]


def _accepted(header: str) -> dict[str, float]:
    """Each coding an ``Accept-Encoding`` header names, with its weight (1 unless ``q=``)."""
    accepted: dict[str, float] = {}
    for part in header.split(",")[:32]:
        name, *parameters = (piece.strip() for piece in part.split(";"))
        weight = 1.0
        for parameter in parameters:
            key, _, value = parameter.partition("=")
            if key.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        if name:
            accepted[name.lower()] = weight
    return accepted


def pick_encoding(header: str, available: Iterable[str]) -> str | None:
    """The coding to send, of ``available`` (best first), for a request's ``Accept-Encoding``
    ``header``; ``None``: the file as it is. ``*`` accepts any coding not named."""
    accepted = _accepted(header)
    for encoding in available:
        if accepted.get(encoding, accepted.get("*", 0.0)) > 0:
            return encoding
    return None


@dataclass
class TransferSlots:
    """At most :attr:`per_address` files sent at once to one address; the next request from
    it waits (up to :attr:`wait_seconds`) for one of them to end, so that one browser, or one
    slow link, cannot take every transfer while the rest of the class waits.

    >>> async def demo():
    ...     slots = TransferSlots(per_address=1, wait_seconds=0.05)
    ...     first = await slots.acquire("10.0.0.5")
    ...     second = await slots.acquire("10.0.0.5")  # waits, then gives up
    ...     other = await slots.acquire("10.0.0.6")
    ...     slots.release("10.0.0.5")
    ...     return first, second, other, slots.active
    >>> from concurrent.futures import ThreadPoolExecutor
    >>> with ThreadPoolExecutor(1) as thread:  # a loop of its own, whatever runs in this one
    ...     thread.submit(asyncio.run, demo()).result()
    (True, False, True, {'10.0.0.6': 1})
    """

    per_address: int = 32
    """Transfers at once to one address: five browsers' worth (a browser opens six connections
    to a server); a school's network seen through one address shares them, in turn."""
    wait_seconds: float = 120.0
    """How long a request waits for a slot before it is refused (503, ``Retry-After``)."""
    active: dict[str, int] = field(default_factory=dict)
    _waiting: dict[str, list[asyncio.Future[None]]] = field(default_factory=dict, repr=False)

    async def acquire(self, address: str) -> bool:
        """Take a slot for ``address``, waiting for one if need be; False if none came."""
        if self.active.get(address, 0) < self.per_address:
            self.active[address] = self.active.get(address, 0) + 1
            return True
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(address, []).append(waiter)
        try:
            await asyncio.wait_for(waiter, self.wait_seconds)
        except asyncio.TimeoutError:
            queue = self._waiting.get(address, [])
            if waiter in queue:
                queue.remove(waiter)
            if not queue:
                self._waiting.pop(address, None)
            return False
        return True  # the slot of the transfer that ended is handed over as it is

    def release(self, address: str) -> None:
        """End a transfer to ``address``: its slot goes to the next waiting request, if any."""
        queue = self._waiting.get(address, [])
        while queue:
            waiter = queue.pop(0)
            if not waiter.done():
                if not queue:
                    self._waiting.pop(address, None)
                waiter.set_result(None)
                return
        self._waiting.pop(address, None)
        left = self.active.get(address, 0) - 1
        if left > 0:
            self.active[address] = left
        else:
            self.active.pop(address, None)
