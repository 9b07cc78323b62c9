"""Storage failures, told to the teacher too: one line in the terminal per kind of failure,
and the latest on the dashboard, not only in a student's error message.

>>> import logging
>>> from dekbovinoj_edu.classroom.errors import StoreError
>>> problems = StoreProblems(clock=lambda: 50.0)
>>> full = StoreError("The disk of the class database is full.")
>>> problems.saw(full), problems.saw(full)   # the terminal hears of it once
(True, False)
>>> problems.latest(within=60.0)
'The disk of the class database is full.'
>>> StoreProblems(clock=lambda: 50.0).latest(within=60.0) is None
True
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from ..classroom.errors import ClassroomError

__all__ = ["LOG", "SHOWN_SECONDS", "StoreProblems"]

LOG = logging.getLogger("dekbovinoj.service")
"""The service's log: one line per kind of storage failure, and what it was told to do."""

SHOWN_SECONDS = 120.0
"""How long the dashboard shows a storage failure after it last happened."""


class StoreProblems:
    """The storage failures seen so far: each kind logged once, the latest kept."""

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self._told: set[str] = set()
        self._latest: tuple[float, ClassroomError] | None = None
        self._lock = threading.Lock()

    def saw(self, error: ClassroomError) -> bool:
        """Note ``error``; True the first time its kind is seen (then it is logged)."""
        kind = f"{type(error).__name__}: {error.message_id}"
        with self._lock:
            self._latest = (self.clock(), error)
            first = kind not in self._told
            self._told.add(kind)
        if first:
            LOG.error("class database: %s", str(error).replace("\n", " "))
        return first

    def latest(self, within: float = SHOWN_SECONDS, lang: str = "en") -> str | None:
        """The latest failure's sentence in ``lang``, if it happened in the last ``within`` s."""
        with self._lock:
            latest = self._latest
        if latest is None or self.clock() - latest[0] > within:
            return None
        return latest[1].message(lang)
