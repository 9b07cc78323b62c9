"""Work done a little later, with or without threads.

In a Jupyter or Voilà kernel the views run the solver ahead of the student's
click, and the Game tab's computer players, in a background thread. In the
browser (Pyodide, ``sys.platform == "emscripten"``) there are no threads:
``threading.Thread.start`` raises ``RuntimeError: can't start new thread``.
There the same work is put on the kernel's event loop instead (Pyodide's loop
runs it from the browser's timers), right after the current message is
answered, so the widget is on screen first and the work is done before the
next click.

>>> done = []
>>> job = later(lambda: done.append("solved"), threaded=True)
>>> job.wait(5)
>>> done
['solved']
"""

from __future__ import annotations

import asyncio
import sys
import threading
from collections.abc import Callable

__all__ = ["THREADS", "Later", "later"]

THREADS = sys.platform != "emscripten"
"""Whether this Python can start threads (not in the browser's Pyodide)."""


class Later:
    """One piece of work handed to a thread or to the event loop."""

    def __init__(self, work: Callable[[], None], delay: float, threaded: bool) -> None:
        self._done = threading.Event()

        def run() -> None:
            try:
                if not self.cancelled:
                    work()
            finally:
                self._done.set()

        self.cancelled = False
        self._handle: asyncio.TimerHandle | None = None
        self._thread: threading.Thread | None = None
        if threaded:
            if delay > 0:
                inner = run

                def run() -> None:
                    if not self._done.wait(delay):
                        inner()

            self._thread = threading.Thread(target=run, daemon=True)
            self._thread.start()
        else:
            self._handle = _loop().call_later(delay, run)

    def cancel(self) -> None:
        """Drop the work if it has not started yet."""
        self.cancelled = True
        if self._handle is not None:
            self._handle.cancel()
            self._done.set()

    def running(self) -> bool:
        """Whether the work is still to come or under way."""
        return not self._done.is_set()

    def wait(self, timeout: float | None = None) -> None:
        """Wait for a thread's work (event-loop work runs when the kernel is idle)."""
        if self._thread is not None:
            self._thread.join(timeout)


def _loop() -> asyncio.AbstractEventLoop:
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.get_event_loop_policy().get_event_loop()


def later(work: Callable[[], None], delay: float = 0.0, *, threaded: bool | None = None) -> Later:
    """Run ``work()`` after ``delay`` seconds: in a thread, or on the event loop in Pyodide.

    ``threaded`` is :data:`THREADS` unless given.
    """
    return Later(work, delay, THREADS if threaded is None else threaded)
