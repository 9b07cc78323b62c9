"""What the teacher's terminal shows of a quiet Voilà: ``serve``'s own lines and errors only.

Voilà and the Jupyter parts under it log what a teacher has no use for: where connection files
are kept, every kernel started, "Notebook … is not trusted", each kernel's "running over TCP
without encryption" (a kernel talks only to the server, on this computer). ``dekbovinoj serve``
runs Voilà with its output in pipes (unless ``--verbose``) and :func:`relay` shows it:
everything Voilà prints on its standard output (the ``ready`` line), and of its standard error
every line but Jupyter's log records below ``ERROR`` and Python's warnings (:class:`LogFilter`).
An error, its traceback and anything else stay visible, and so do ``serve``'s own warnings
(their message starts with :data:`OWN`): a device refused for want of the class key, a page
turned away by the kernel caps, a page disconnected for its messages.

>>> keep = LogFilter()
>>> [keep(line) for line in [
...     "[GuardedVoila] Kernel started: 0048aae5",
...     "[GuardedVoila] WARNING | Notebook dekbovinoj.ipynb is not trusted",
...     "[IPKernelApp] WARNING | Kernel is running over TCP without encryption.",
...     "[GuardedVoila] WARNING | dekbovinoj: refused a page from 10.0.0.7: no class key",
...     "[GuardedVoila] ERROR | Uncaught exception GET /",
...     "    Traceback (most recent call last):",
...     "[GuardedVoila] Voilà is running at:",
...     "http://localhost:8866/",
...     "Traceback (most recent call last):",
...     '  File "x.py", line 1, in <module>',
... ]]
[False, False, False, True, True, True, False, False, True, True]
"""

from __future__ import annotations

import os
import re
import selectors
import subprocess
import sys
from typing import IO

__all__ = ["LOG_RECORD", "OWN", "LogFilter", "relay"]

LOG_RECORD = re.compile(r"^\[[A-Za-z][\w.-]*\](?: (?P<level>[A-Z]+) \|)? ")
"""The start of a Jupyter log record (traitlets' format): ``[Name] message`` below warnings,
``[Name] LEVEL | message`` from warnings up."""

PYTHON_WARNING = re.compile(r"^\S.*:\d+: \w*Warning: ")
"""The start of a Python warning as :mod:`warnings` prints it: ``file:line: Category: text``."""

SHOWN_LEVELS = frozenset({"ERROR", "CRITICAL"})

OWN = "dekbovinoj: "
"""How ``serve``'s own log messages start: a quiet terminal shows them at any level."""


class LogFilter:
    """Which lines of a server's standard error the teacher sees: called once a line, in order
    (a record's following lines go with it)."""

    def __init__(self) -> None:
        self._showing = True

    def __call__(self, line: str) -> bool:
        record = LOG_RECORD.match(line)
        if record is not None:
            own = line[record.end() :].startswith(OWN)
            self._showing = own or record["level"] in SHOWN_LEVELS
        elif line.startswith("Traceback (most recent call last):"):
            self._showing = True
        elif PYTHON_WARNING.match(line):
            self._showing = False
        return self._showing


def relay(
    server: subprocess.Popen[bytes], out: IO[str] | None = None, err: IO[str] | None = None
) -> None:
    """Show a server's piped output until it ends (and its pipes are drained): its standard
    output as it is, on ``out`` (this process's by default), its standard error through a
    :class:`LogFilter`, on ``err``. Returns at once for a server without pipes."""
    streams = {
        pipe.fileno(): (target, keep)
        for pipe, target, keep in (
            (server.stdout, out or sys.stdout, None),
            (server.stderr, err or sys.stderr, LogFilter()),
        )
        if pipe is not None
    }
    if not streams:
        return
    pending = dict.fromkeys(streams, b"")
    with selectors.DefaultSelector() as selector:
        for fd in streams:
            selector.register(fd, selectors.EVENT_READ)
        while selector.get_map():
            ready = selector.select(timeout=1.0)
            if not ready and server.poll() is not None:
                break  # ended; a pipe a kernel of it may still hold is not waited for
            for key, _ in ready:
                chunk = os.read(key.fd, 65536)
                if chunk:
                    *lines, pending[key.fd] = (pending[key.fd] + chunk).split(b"\n")
                else:
                    selector.unregister(key.fd)
                    lines, pending[key.fd] = [pending[key.fd]] if pending[key.fd] else [], b""
                _show(lines, *streams[key.fd])


def _show(lines: list[bytes], target: IO[str], keep: LogFilter | None) -> None:
    shown = [
        text
        for text in (line.decode("utf-8", "replace") for line in lines)
        if keep is None or keep(text)
    ]
    if shown:
        target.write("".join(f"{text}\n" for text in shown))
        target.flush()
