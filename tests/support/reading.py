"""Reading what a command prints while it runs, line by line, never waiting past a deadline.

>>> import subprocess, sys
>>> child = subprocess.Popen(
...     [sys.executable, "-c", "print('one'); print('two: 2', flush=True)"],
...     stdout=subprocess.PIPE,
... )
>>> printed = Printed(child.stdout)
>>> printed.until("two", timeout=30)
'two: 2'
>>> printed.lines
['one', 'two: 2']
>>> child.wait()
0
"""

from __future__ import annotations

import os
import selectors
import time
from typing import IO

__all__ = ["Printed"]


class Printed:
    """The lines a process writes to one pipe (opened in binary), read as they come."""

    def __init__(self, pipe: IO[bytes] | None) -> None:
        assert pipe is not None, "the process's output must be a pipe"
        self.pipe = pipe
        self.lines: list[str] = []
        self._pending = b""
        self.ended = False

    def until(self, text: str, timeout: float) -> str:
        """The first line (read so far or to come) that holds ``text``; ``TimeoutError`` (with
        what was printed) after ``timeout`` seconds, ``EOFError`` if the pipe closes first."""
        deadline = time.monotonic() + timeout
        seen = 0
        while True:
            for line in self.lines[seen:]:
                if text in line:
                    return line
            seen = len(self.lines)
            if self.ended:
                raise EOFError(f"{text!r} never printed; printed: {self.lines}")
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"{text!r} not printed within {timeout:g} s: {self.lines}")
            self.read(min(left, 1.0))

    def read(self, timeout: float) -> None:
        """Read what is there within ``timeout`` seconds (nothing, if nothing came)."""
        with selectors.DefaultSelector() as selector:
            selector.register(self.pipe, selectors.EVENT_READ)
            if not selector.select(timeout):
                return
        chunk = os.read(self.pipe.fileno(), 65536)
        if not chunk:
            self.ended = True
            chunk = b"\n" if self._pending else b""
        *lines, self._pending = (self._pending + chunk).split(b"\n")
        self.lines += [line.decode("utf-8", "replace") for line in lines]

    @property
    def text(self) -> str:
        """Everything read so far."""
        return "\n".join(self.lines)
