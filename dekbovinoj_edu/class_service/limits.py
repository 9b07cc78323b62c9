"""Rate limits: a token bucket per client address and per session token, in bounded memory.

Each kind of request has a :class:`Rate` (a burst, then so many a second); a
:class:`RateLimiter` keeps one bucket per key (an address, a token) for each kind, at most
:attr:`RateLimiter.max_keys` of them (the least recently used go first: a bucket that is
forgotten starts full again, which only ever lets a request through). A request over its
rate is refused with the seconds to wait (``429`` and ``Retry-After``).

The defaults (:data:`DEFAULT_LIMITS`) let a class of 300 behind one school address join at
once and work at full speed, and refuse what the audit saw: a page writing a heartbeat in a
loop (one every 2 s is the most), an attempt loop (5 a second), a flood of seats from one
address (the 300 new seats a class of 300 makes in its first minute, then one every 12 s:
300 an hour, where 2 a second made 7,200).

>>> limiter = RateLimiter(RateLimits(alive=Rate(burst=2, per_second=0.5)), clock=lambda: 100.0)
>>> [limiter.wait("alive", "token") for _ in range(3)]
[0.0, 0.0, 2.0]
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, fields

__all__ = ["DEFAULT_LIMITS", "MAX_KEYS", "Bucket", "Rate", "RateLimiter", "RateLimits"]

MAX_KEYS = 50_000
"""The most buckets kept per kind of request (a few MB at most)."""


@dataclass(frozen=True)
class Rate:
    """``burst`` requests at once, then ``per_second`` more each second."""

    burst: float
    per_second: float


@dataclass(frozen=True)
class RateLimits:
    """The rate of each kind of request (``join``, ``seat`` and ``requests`` per address, the
    others per session token)."""

    requests: Rate = Rate(burst=3_000, per_second=1_500)
    """Every API request of one address (a school's NAT: the whole class)."""
    join: Rate = Rate(burst=300, per_second=2)
    """Joins from one address (a rejoin code typed, a join sent again, a new seat)."""
    seat: Rate = Rate(burst=300, per_second=1 / 12)
    """New seats from one address: a class of 300 joining at once, then 5 a minute (the
    latecomers; the next lesson's class finds the bucket full again within the hour)."""
    attempt: Rate = Rate(burst=20, per_second=5)
    """Attempts of one session."""
    alive: Rate = Rate(burst=3, per_second=0.5)
    """Heartbeats of one session."""
    read: Rate = Rate(burst=10, per_second=2)
    """Reads of one session's place and attempts (``GET …/me``), and ``gone``."""


DEFAULT_LIMITS = RateLimits()
"""The service's limits unless it is given others."""


@dataclass
class Bucket:
    """A token bucket: ``tokens`` left at time ``updated``."""

    tokens: float
    updated: float

    def take(self, rate: Rate, now: float) -> float:
        """Take one token: 0.0 if there was one, else the seconds until there is.

        >>> bucket = Bucket(1.0, 0.0)
        >>> bucket.take(Rate(1, 0.25), 0.0), bucket.take(Rate(1, 0.25), 1.0)
        (0.0, 3.0)
        """
        self.tokens = min(rate.burst, self.tokens + (now - self.updated) * rate.per_second)
        self.updated = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return 0.0
        return (1.0 - self.tokens) / rate.per_second


class RateLimiter:
    """One bucket per (kind, key), at most ``max_keys`` per kind; safe between threads."""

    def __init__(
        self,
        limits: RateLimits = DEFAULT_LIMITS,
        *,
        max_keys: int = MAX_KEYS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limits = limits
        self.max_keys = max_keys
        self.clock = clock
        self._buckets: dict[str, OrderedDict[str, Bucket]] = {
            field.name: OrderedDict() for field in fields(RateLimits)
        }
        self._lock = threading.Lock()

    def wait(self, kind: str, key: str) -> float:
        """Count one request of ``kind`` from ``key``: 0.0 if it may go, else the seconds
        to wait. ``KeyError`` for a kind :class:`RateLimits` does not have."""
        rate: Rate = getattr(self.limits, kind)
        now = self.clock()
        with self._lock:
            buckets = self._buckets[kind]
            bucket = buckets.get(key)
            if bucket is None:
                bucket = buckets[key] = Bucket(rate.burst, now)
                if len(buckets) > self.max_keys:
                    buckets.popitem(last=False)
            else:
                buckets.move_to_end(key)
            return bucket.take(rate, now)

    def size(self) -> int:
        """How many buckets are kept now, over every kind.

        >>> limiter = RateLimiter(max_keys=2)
        >>> for n in range(5):
        ...     _ = limiter.wait("join", f"10.0.0.{n}")
        >>> limiter.size()
        2
        """
        with self._lock:
            return sum(len(buckets) for buckets in self._buckets.values())
