"""Where the tool keeps its pending logins and the nonces it has seen: the protocols, and
one in memory (one process, and the tests); the class store keeps them across processes.

A state is taken once: a second launch with it finds nothing. A nonce is used once: a second
use before it expires is refused; expired ones are purged as new ones come.

>>> from .login import PendingLogin
>>> ledger = MemoryLedger()
>>> ledger.put(PendingLogin("s", "n", "https://lms.example", "c", expires=50.0))
>>> ledger.take("s", now=10.0).nonce, ledger.take("s", now=10.0)
('n', None)
>>> ledger.use_nonce("https://lms.example", "n", expires=100.0, now=10.0)
True
>>> ledger.use_nonce("https://lms.example", "n", expires=100.0, now=20.0)
False
"""

from __future__ import annotations

import threading
from typing import Protocol

from .login import PendingLogin

__all__ = ["Logins", "MemoryLedger", "Nonces"]


class Logins(Protocol):
    """The pending logins, by state."""

    def put(self, pending: PendingLogin) -> None:
        """Keep a login until its launch or its expiry."""

    def take(self, state: str, *, now: float) -> PendingLogin | None:
        """The login begun with ``state``, removed; ``None`` if unknown, taken or expired."""


class Nonces(Protocol):
    """The nonces launches have used, until they expire."""

    def use_nonce(self, issuer: str, nonce: str, *, expires: float, now: float) -> bool:
        """Record ``nonce``; ``False`` if it was already used (and has not expired)."""


class MemoryLedger:
    """Both ledgers in this process's memory (thread-safe)."""

    def __init__(self) -> None:
        self._logins: dict[str, PendingLogin] = {}
        self._nonces: dict[tuple[str, str], float] = {}
        self._lock = threading.Lock()

    def put(self, pending: PendingLogin) -> None:
        with self._lock:
            self._logins[pending.state] = pending

    def take(self, state: str, *, now: float) -> PendingLogin | None:
        with self._lock:
            self._logins = {s: p for s, p in self._logins.items() if p.expires > now}
            return self._logins.pop(state, None)

    def use_nonce(self, issuer: str, nonce: str, *, expires: float, now: float) -> bool:
        with self._lock:
            self._nonces = {k: e for k, e in self._nonces.items() if e > now}
            if (issuer, nonce) in self._nonces:
                return False
            self._nonces[(issuer, nonce)] = expires
            return True
