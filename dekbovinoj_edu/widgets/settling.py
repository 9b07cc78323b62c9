"""Enter, or a button, acting on the text typed just before it.

ipywidgets sends a text box's value to the kernel as a state update, which the page holds
back while an earlier update of the box is still unanswered (its message throttle), and sends
Enter and a button's click at once, as custom messages. A student who types the last card and
presses Enter (or "Dek bovinoj!", "Open", "Join") while the kernel is busy has the press
arrive first, and would be judged on the answer without that card (seen in WebKit: "That
makes 17, not 10." for ``13*2+3-9-3-7``; a puzzle code opened without its end). So a press
waits: for the update of a text box it watches that comes after it, or
:data:`SETTLE_SECONDS` when none comes. Only a press that comes from the page waits: outside
a kernel (plain Python: a script, a test) there is no page, and in a kernel a cell's own
``button.click()`` (an author's notebook) acts at once, so the cell's next line sees its
result.

>>> judged = []
>>> enter = SettledEnter(lambda: judged.append("judged"))
>>> enter.enter()   # no kernel's event loop here: at once
>>> judged
['judged']
>>> async def in_a_loop():   # a script's own loop (a browser driver's) is no page either
...     enter.enter()
>>> from concurrent.futures import ThreadPoolExecutor
>>> with ThreadPoolExecutor(1) as thread:
...     thread.submit(asyncio.run, in_a_loop()).result()
>>> judged
['judged', 'judged']
"""

from __future__ import annotations

import asyncio
import sys
import warnings
from collections.abc import Callable

import ipywidgets as widgets

__all__ = ["SETTLE_SECONDS", "SettledEnter", "event_loop"]

SETTLE_SECONDS = 0.3
"""How long Enter waits for a text the page held back, when none comes: a round trip on a
school's network, and short enough that a student does not notice it."""


def event_loop() -> asyncio.AbstractEventLoop | None:
    """The kernel's event loop, while it handles a message from the page: the running loop
    in a Jupyter kernel, the browser's in Pyodide. ``None`` elsewhere: in a script or a test,
    where no page sends messages even when something else runs a loop of its own (a browser
    driver), and while a kernel runs a cell, whose presses are the author's own."""
    if not _handling_the_page():
        return None
    if sys.platform == "emscripten":
        return asyncio.get_event_loop_policy().get_event_loop()
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None


def _handling_the_page() -> bool:
    """Whether a Jupyter kernel runs this Python (IPython is imported only by one that has)
    and handles a widget's message from the page now (ipykernel's and Pyodide's kernels both
    keep the message they handle as the parent)."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    kernel = getattr(shell, "kernel", None)
    if kernel is None:
        return False
    try:
        parent = kernel.get_parent()
    except Exception:  # a kernel of another make: treat every press as the page's
        return True
    header = parent.get("header") if isinstance(parent, dict) else None
    return isinstance(header, dict) and header.get("msg_type") == "comm_msg"


class SettledEnter:
    """Calls ``judge`` for an Enter or a press once the text typed before it has arrived."""

    def __init__(self, judge: Callable[[], None]) -> None:
        self.judge = judge
        self._pending: asyncio.Handle | None = None

    def watching(self, *fields: widgets.Text) -> SettledEnter:
        """Hear every change of ``fields`` (:meth:`typed`), and a press in them (Enter)."""
        for field in fields:
            field.observe(lambda _: self.typed(), "value")
            with warnings.catch_warnings():
                # ipywidgets 8 deprecates on_submit, but it is the only way to hear Enter
                # while the value still updates on every key.
                warnings.simplefilter("ignore", DeprecationWarning)
                field.on_submit(self.press)
        return self

    def press(self, _: object = None) -> None:
        """A button's (or Enter's) handler: :meth:`enter`."""
        self.enter()

    def enter(self) -> None:
        """Enter was pressed: judge once the text has settled (at once without a kernel)."""
        loop = event_loop()
        if loop is None:
            self.judge()
        elif self._pending is None:  # a second Enter while waiting is the same one
            self._pending = loop.call_later(SETTLE_SECONDS, self._now)

    def typed(self) -> None:
        """The text changed: the update Enter may be waiting for has come."""
        loop = event_loop()
        if self._pending is not None and loop is not None:
            self._pending.cancel()
            self._pending = loop.call_soon(self._now)

    def _now(self) -> None:
        self._pending = None
        self.judge()
