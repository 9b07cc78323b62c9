"""A page's solver time over time: however many puzzles a page opens, the processor time its
callbacks and solves take comes from one token bucket, so a page that types big puzzle codes
in a loop cannot keep its kernel busy (the audit's loop held a Voilà kernel at 39 % of a core).

Each solve of a page already stops after :data:`~..solving.budget.PAGE_SECONDS`
processor-seconds (:mod:`..solving.budget`). The bucket holds :data:`MOST_SECONDS` of them
and fills again by :data:`SECONDS_PER_MINUTE` a minute: in the long run a page spends at most
a tenth of a core. A solve gets what the bucket holds, up to a page's budget, and none at
all once it is empty (a solve overruns its budget a little between two looks at the clock, so
a page that keeps opening puzzles at the bucket's end would still keep the kernel busy); one
stopped because the bucket ran low or out is :class:`SolverResting`, whose sentence asks the
student to take a short break. The rest of a page (typing, another language, a new puzzle
dealt) goes on. Honest practice is far below it: dealing and solving a level-3 puzzle takes
about 0.2 processor-seconds (levels 1 and 2: a few milliseconds).

The bucket is this process's (:data:`PAGE`): in Voilà each page has a kernel of its own, in
the browser each tab its own Python, so it is the page's.

>>> bucket = SolverTime(most=3.0, per_minute=6.0, clock=lambda: 0.0)
>>> bucket.spend(2.5)
>>> round(bucket.left(), 2), bucket.budget().seconds
(0.5, 0.5)
>>> bucket.spend(5.0)
>>> bucket.budget().steps   # empty: a solve stops at its first step
1
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from ..solving.budget import PAGE_SECONDS, Budget, TooBigToSolve, limited, processor_clock

__all__ = [
    "MOST_SECONDS",
    "PAGE",
    "SECONDS_PER_MINUTE",
    "SolverResting",
    "SolverTime",
]

MOST_SECONDS = 10.0
"""The processor-seconds a page may spend at once (fifty level-3 puzzles dealt and solved,
or seven of the biggest codes)."""

SECONDS_PER_MINUTE = 6.0
"""The processor-seconds the bucket gets back each minute: a tenth of a core."""


class SolverResting(TooBigToSolve):
    """A solve stopped because the page used its solver time for now, not because the puzzle
    is too big: the student takes a short break."""

    sentence = "You asked for a lot of big puzzles very fast. Take a short break, then try again."
    """What the student reads (a ``ui`` msgid)."""


class SolverTime:
    """A token bucket of processor-seconds: ``most`` at once, ``per_minute`` back a minute;
    ``clock`` gives seconds (the wall clock's). Safe to share between threads."""

    def __init__(
        self,
        most: float = MOST_SECONDS,
        per_minute: float = SECONDS_PER_MINUTE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.most = most
        self.per_second = per_minute / 60
        self.clock = clock
        self._left = most
        self._updated = clock()
        self._lock = threading.Lock()

    def left(self) -> float:
        """The processor-seconds the page may spend now (below 0 after an overdraft)."""
        with self._lock:
            now = self.clock()
            self._left = min(self.most, self._left + (now - self._updated) * self.per_second)
            self._updated = now
            return self._left

    def spend(self, seconds: float) -> None:
        """Take ``seconds`` of processor time from the bucket."""
        self.left()
        with self._lock:
            self._left -= seconds

    def budget(self) -> Budget:
        """A page's budget for one solve: a page's processor-seconds, or what the bucket
        holds when that is less; an empty bucket's stops a solve at its first step."""
        left = self.left()
        if left <= 0:
            return Budget(steps=1, seconds=0.0)
        return Budget(seconds=min(PAGE_SECONDS, left))

    @contextmanager
    def solving(self, budget: Budget | None = None) -> Iterator[Budget]:
        """Run the block under ``budget`` (:meth:`budget` when ``None``) and take the
        processor time it took from the bucket; a solve the low bucket stopped is
        :class:`SolverResting`. Inside another page's solve, the block is that one's."""
        mine = self.budget() if budget is None else budget
        with limited(mine) as running:
            if running is not mine:
                yield running
                return
            clock = processor_clock()
            began = clock()
            try:
                yield running
            except TooBigToSolve as stopped:
                if not stopped.cancelled and mine.seconds < PAGE_SECONDS:
                    raise SolverResting(str(stopped)) from stopped
                raise
            finally:
                self.spend(clock() - began)


PAGE = SolverTime()
"""This page's bucket (a kernel, or a browser tab's Python, runs one page)."""
