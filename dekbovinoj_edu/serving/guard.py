"""Who may start a kernel: the server's cap, the cap per address, and the class key.

One student with the browser's developer tools can ask for a page in a loop, and every page
would start a kernel (a processor-second and 60 MB each). :class:`Admissions` counts the
kernels each client address holds and the starts still on their way, and says whether one
more page may have a kernel: never more than ``max_kernels`` on the server (the class and its
spares), never more than ``per_address`` for one address (0: no cap per address, for a server
only this computer reaches), and an address that has had its ``per_address`` kernels gets
one more only every ``start_every`` seconds (a page in a loop would otherwise take a pool
kernel, drop it and take the next, and the pool, emptied, makes the others wait). A page
past a cap gets :func:`busy_page`, in the student's language, which tries again by itself; a
page without the class key gets :func:`key_page`.

>>> admissions = Admissions(max_kernels=3, per_address=2, start_every=0)
>>> first = admissions.admit("10.0.0.7", pooled=1, from_pool=True)
>>> admissions.claim(first, "k1"); admissions.release(first)
>>> second = admissions.admit("10.0.0.7", pooled=0, from_pool=False)
>>> admissions.claim(second, "k2"); admissions.release(second)
>>> admissions.admit("10.0.0.7", pooled=0, from_pool=False) is None  # two for one address
True
>>> admissions.admit("10.0.0.8", pooled=1, from_pool=False) is None  # 2 + 1 in the pool
True
>>> admissions.forget_except({"k2"}); admissions.held("10.0.0.7")
1
"""

from __future__ import annotations

import hmac
import html
import time
from collections.abc import Collection, Iterable
from dataclasses import dataclass

from ..i18n import gettext, preferred_language

__all__ = [
    "KEY_COOKIE",
    "KEY_ENV",
    "RETRY_SECONDS",
    "Admissions",
    "Ticket",
    "busy_page",
    "key_matches",
    "key_page",
    "page_language",
]

RETRY_SECONDS = 5
"""How long the busy page waits before it asks again."""

KEY_ENV = "DEKBOVINOJ_CLASS_KEY"
"""The environment variable that holds the class key (``serve --key``): never on the server's
command line, where other users of the computer could read it."""

PENALTY_STARTS = 2
"""How many ``start_every`` periods an address waits, on top, after its page broke the message
limits (:mod:`.messages`)."""

KEY_COOKIE = "dekbovinoj_key"
"""The cookie that keeps the class key once a page came with it (``?key=…``)."""


@dataclass
class Ticket:
    """One page's admission: its address, and the kernel it got once it has one."""

    address: str
    fresh: bool
    """True when the page starts a kernel of its own (the pool had none ready)."""
    kernel_id: str | None = None


class Admissions:
    """The kernels each address holds, and the admissions still on their way (see above)."""

    def __init__(self, max_kernels: int, per_address: int = 0, start_every: float = 20.0) -> None:
        if max_kernels < 1:
            raise ValueError(f"the server's cap must be at least 1 kernel, not {max_kernels}")
        self.max_kernels = max_kernels
        self.per_address = per_address
        self.start_every = start_every
        self._owners: dict[str, str] = {}
        self._waiting: list[Ticket] = []
        self._starts: dict[str, tuple[float, float]] = {}
        """Each address's kernels still to take at once, and when that was counted."""

    def held(self, address: str) -> int:
        """Kernels ``address`` holds or is being given."""
        owned = sum(1 for owner in self._owners.values() if owner == address)
        return owned + sum(1 for t in self._waiting if t.address == address and not t.kernel_id)

    def handed_out(self) -> int:
        """Kernels that belong to pages, and fresh ones on their way to a page."""
        on_the_way = sum(1 for t in self._waiting if t.fresh and t.kernel_id is None)
        return len(self._owners) + on_the_way

    def room(self, pooled: int) -> int:
        """How many more kernels the server may run beside ``pooled`` kernels in its pool.

        >>> Admissions(5).room(pooled=2)
        3
        """
        return max(0, self.max_kernels - self.handed_out() - pooled)

    def admit(self, address: str, pooled: int, from_pool: bool) -> Ticket | None:
        """A ticket for a page from ``address``, or None past a cap.

        ``pooled``: the kernels in the pool (ready or warming); ``from_pool``: whether the page
        takes one of them (else it starts its own kernel, which needs room).
        """
        if self.per_address and self.held(address) >= self.per_address:
            return None
        if not from_pool and self.room(pooled) < 1:
            return None
        if self.per_address and not self._may_start(address, time.monotonic()):
            return None
        ticket = Ticket(address, fresh=not from_pool)
        self._waiting.append(ticket)
        return ticket

    def _may_start(self, address: str, now: float) -> bool:
        """Take one of the address's starts: ``per_address`` at once, then one every
        ``start_every`` seconds.

        >>> admissions = Admissions(max_kernels=9, per_address=2, start_every=10)
        >>> [admissions._may_start("10.0.0.7", now) for now in (0, 1, 2, 12, 13)]
        [True, True, False, True, False]
        """
        if not self.start_every:
            return True
        left, at = self._starts.get(address, (float(self.per_address), now))
        left = min(float(self.per_address), left + (now - at) / self.start_every)
        if len(self._starts) > 10_000:  # bounded memory: forget the addresses that are full
            full = [known for known, (n, _) in self._starts.items() if n >= self.per_address]
            for known in full:
                del self._starts[known]
        if left < 1:
            self._starts[address] = (left, now)
            return False
        self._starts[address] = (left - 1, now)
        return True

    def penalise(self, kernel_id: str, starts: int = PENALTY_STARTS) -> None:
        """The page of ``kernel_id`` broke the message limits: its address waits ``starts``
        more ``start_every`` periods for its next kernel.

        >>> admissions = Admissions(max_kernels=9, per_address=2, start_every=10)
        >>> admissions._may_start("10.0.0.7", 0.0)  # one of its two starts, at 0 s
        True
        >>> admissions.claim(Ticket("10.0.0.7", fresh=False), "k1"); admissions.penalise("k1")
        >>> admissions._may_start("10.0.0.7", 1.0), admissions._may_start("10.0.0.7", 31.0)
        (False, True)
        """
        address = self._owners.get(kernel_id)
        if address is None or not self.per_address or not self.start_every:
            return
        left, at = self._starts.get(address, (float(self.per_address), time.monotonic()))
        self._starts[address] = (min(left, 0.0) - starts, at)

    def claim(self, ticket: Ticket, kernel_id: str) -> None:
        """The page of ``ticket`` has the kernel ``kernel_id``."""
        ticket.kernel_id = kernel_id
        self._owners[kernel_id] = ticket.address

    def release(self, ticket: Ticket) -> None:
        """The page's request has ended (the kernel it claimed stays counted)."""
        if ticket in self._waiting:
            self._waiting.remove(ticket)

    def owner(self, kernel_id: str) -> str | None:
        """The address a kernel was given to."""
        return self._owners.get(kernel_id)

    def forget_except(self, alive: Collection[str]) -> None:
        """Forget the kernels that are no longer running."""
        for kernel_id in [known for known in self._owners if known not in alive]:
            del self._owners[kernel_id]


def key_matches(given: str | None, key: str) -> bool:
    """Whether ``given`` is the class key (compared in constant time); no key: always.

    >>> key_matches(None, ""), key_matches("x7", "x7"), key_matches("x8", "x7")
    (True, True, False)
    >>> key_matches(None, "x7")
    False
    """
    if not key:
        return True
    return given is not None and hmac.compare_digest(given.encode(), key.encode())


def page_language(accept_language: str | None) -> str:
    """The student's language from the browser's ``Accept-Language`` header.

    >>> page_language("sv-SE,sv;q=0.9,en;q=0.8"), page_language(None)
    ('sv', 'en')
    """
    tags: Iterable[str] = (part.split(";")[0] for part in (accept_language or "").split(","))
    return preferred_language(tags)


_PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
{refresh}<title>Dek Bovinoj</title>
<style>body{{font-family:sans-serif;margin:3em auto;max-width:32em;font-size:1.3em;
text-align:center;color:#333}}</style></head>
<body><p id="dkb-{kind}">{text}</p></body></html>
"""


def busy_page(lang: str, retry_seconds: int = RETRY_SECONDS) -> str:
    """The page a student gets past a cap: the server is busy, it tries again by itself.

    >>> page = busy_page("eo")
    >>> "La servilo estas okupata" in page and 'http-equiv="refresh" content="5"' in page
    True
    """
    refresh = f'<meta http-equiv="refresh" content="{retry_seconds}">\n'
    text = gettext(lang, "ui", "The server is busy, the app is starting…")
    return _PAGE.format(lang=lang, refresh=refresh, kind="busy", text=html.escape(text))


def key_page(lang: str) -> str:
    """The page for a device that came without the class's key in its address.

    >>> "din lärare gav" in key_page("sv")
    True
    """
    text = gettext(lang, "serving", "Type the whole address your teacher gave, with its key.")
    return _PAGE.format(lang=lang, refresh="", kind="key", text=html.escape(text))
