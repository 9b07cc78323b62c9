"""A budget for the solver: so many search steps and processor-seconds, then it stops.

A puzzle code is one line to pass round a class, and the search for the best answer of a
big level-3 puzzle can take minutes and gigabytes. A view that runs the solver for a page
does it ``with limited(Budget())``: the searches call :func:`charge` once a step (a question
asked of a set of cards, a set of cards tried), and past the budget, or once the budget is
cancelled (the student opened another puzzle), :func:`charge` raises :class:`TooBigToSolve`.
Outside a budget (the command line, the dealer, the tests) :func:`charge` does nothing.

The budget is the thread's own (the views solve ahead in a background thread); a budget
inside another keeps the outer one. Work that has a bound of its own, such as the dealer
solving every turn it looks at, runs :func:`apart`: under its own budget, not charged to the
page's, and still stopped when the page's budget is cancelled. What a search remembered
half-way is thrown away when it stops (:func:`on_stop`), so a later search never trusts an
unfinished answer.

>>> with limited(Budget(steps=3)):
...     for _ in range(5):
...         charge()
Traceback (most recent call last):
...
dekbovinoj_edu.solving.budget.TooBigToSolve: the solver stopped after 3 steps
>>> charge()  # no budget: nothing happens
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

__all__ = [
    "PAGE_SECONDS",
    "PAGE_STEPS",
    "Budget",
    "TooBigToSolve",
    "apart",
    "charge",
    "limited",
    "on_stop",
    "processor_clock",
]

PAGE_SECONDS = 1.5
"""The processor-seconds a page's solve may take (``benchmarks/bench_hostile.py`` measures
the worst code a page can open: within 2 processor-seconds)."""

PAGE_STEPS = 400_000
"""The search steps a page's solve may take: what bounds its memory (about 100 bytes a
step, of what the search remembers)."""

CLOCK_EVERY = 256
"""How many steps go between two looks at the clock (the inner loop stays cheap)."""


class TooBigToSolve(RuntimeError):
    """The solver stopped: the puzzle is too big to solve here, or another was opened."""

    sentence = "This puzzle is too big to solve here."
    """What the student reads (a ``ui`` msgid)."""

    def __init__(self, reason: str, cancelled: bool = False) -> None:
        super().__init__(reason)
        self.cancelled = cancelled
        """Whether the budget was cancelled (another puzzle was opened), not spent."""


def processor_clock(clocks: Any = time) -> Callable[[], float]:
    """The clock of the calling thread's processor time; where there is none (the browser's
    Python, Pyodide, has no ``time.thread_time``) the wall clock, which there counts the same
    work: one thread does it all.

    >>> processor_clock() is time.thread_time
    True
    >>> from types import SimpleNamespace
    >>> processor_clock(SimpleNamespace(perf_counter=lambda: 1.5))()
    1.5
    """
    thread_time: Callable[[], float] | None = getattr(clocks, "thread_time", None)
    return thread_time if thread_time is not None else clocks.perf_counter


_processor_time = processor_clock()


class Budget:
    """So many steps and seconds of one thread; :meth:`cancel` stops it early.

    The seconds are the thread's processor time, or those of another ``clock`` (the dealer
    counts the wall clock's, as its deadline does).
    """

    def __init__(
        self,
        steps: int = PAGE_STEPS,
        seconds: float = PAGE_SECONDS,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.steps = steps
        self.seconds = seconds
        self.left = steps
        self.cancelled = False
        self.outer: Budget | None = None
        """The budget this one runs apart from: cancelling that one stops this one too."""
        self._time = _processor_time if clock is None else clock
        self._clock = CLOCK_EVERY
        self._until = 0.0

    def start(self) -> None:
        """Start counting the seconds from now."""
        self._until = self._time() + self.seconds

    def _extend(self, seconds: float) -> None:
        """Give back the processor time that work run apart took (its steps were its own)."""
        self._until += seconds

    def cancel(self) -> None:
        """Stop the solve at its next step (from any thread).

        >>> budget = Budget()
        >>> budget.cancel()
        >>> with limited(budget):
        ...     charge()
        Traceback (most recent call last):
        ...
        dekbovinoj_edu.solving.budget.TooBigToSolve: the solve was cancelled
        """
        self.cancelled = True
        self.left = 0

    def spend(self) -> None:
        """One step; raises :class:`TooBigToSolve` past the budget."""
        self.left -= 1
        self._clock -= 1
        if self.left > 0 and self._clock > 0:
            return
        self._clock = CLOCK_EVERY
        if self.cancelled or (self.outer is not None and self.outer.cancelled):
            raise _stopped("the solve was cancelled", cancelled=True)
        if self.left <= 0:
            raise _stopped(f"the solver stopped after {self.steps} steps")
        if self._time() > self._until:
            raise _stopped(f"the solver stopped after {self.seconds:g} processor-seconds")


_local = threading.local()
_stops: list[Callable[[], None]] = []


def on_stop(forget: Callable[[], None]) -> None:
    """Call ``forget`` whenever a budget stops a search (the searches' memories register)."""
    _stops.append(forget)


def _stopped(reason: str, cancelled: bool = False) -> TooBigToSolve:
    for forget in _stops:
        forget()
    return TooBigToSolve(reason, cancelled)


def charge() -> None:
    """One step of a search, against the calling thread's budget, if it has one."""
    budget: Budget | None = getattr(_local, "budget", None)
    if budget is not None:
        budget.spend()


@contextmanager
def limited(budget: Budget) -> Iterator[Budget]:
    """Run the block under ``budget`` (unless the thread already has one: that one counts)."""
    if getattr(_local, "budget", None) is not None:
        yield _local.budget
        return
    budget.start()
    _local.budget = budget
    try:
        yield budget
    finally:
        _local.budget = None


@contextmanager
def apart(budget: Budget) -> Iterator[Budget]:
    """Run the block under ``budget`` instead of the thread's budget: what the block spends is
    not charged to the thread's budget, and cancelling the thread's budget stops it too.

    >>> page = Budget(steps=300)
    >>> with limited(page):
    ...     with apart(Budget(steps=1000)):
    ...         for _ in range(500):
    ...             charge()          # the dealer's 500 steps: not the page's
    ...     for _ in range(200):
    ...         charge()              # the page still has its 300
    >>> with limited(page):
    ...     page.cancel()
    ...     with apart(Budget()):
    ...         for _ in range(CLOCK_EVERY):
    ...             charge()
    Traceback (most recent call last):
    ...
    dekbovinoj_edu.solving.budget.TooBigToSolve: the solve was cancelled
    """
    outer: Budget | None = getattr(_local, "budget", None)
    budget.outer = outer
    began = 0.0 if outer is None else outer._time()
    budget.start()
    _local.budget = budget
    try:
        yield budget
    finally:
        _local.budget = outer
        if outer is not None:
            outer._extend(outer._time() - began)
