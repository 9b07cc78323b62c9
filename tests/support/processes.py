"""A running server's processes and their memory, read from ``/proc`` (Linux).

The class benchmark and the serving tests count the server's kernels and add
up their memory with these; a teacher can do the same with ``ps``.

>>> import subprocess, sys
>>> server = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
>>> found = ServerProcesses.of(server.pid)  # a process with no kernels under it
>>> found.server_rss > 0 and found.kernels == ()
True
>>> server.kill(); server.wait() != 0
True
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["KERNEL_MARK", "ServerProcesses", "children", "command_line", "cpu_seconds", "rss_bytes"]

PROC = Path("/proc")
KERNEL_MARK = "ipykernel_launcher"
"""What a Jupyter kernel's command line holds."""


def rss_bytes(pid: int) -> int:
    """A process's resident memory (RSS) in bytes; 0 when it is gone."""
    try:
        for line in (PROC / str(pid) / "status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return 0
    return 0


def cpu_seconds(pids: list[int]) -> float:
    """The processor time (user + system) the processes have used so far, in seconds.

    >>> import os
    >>> cpu_seconds([os.getpid()]) > 0
    True
    """
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0.0
    for pid in pids:
        try:
            fields = (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        total += (int(fields[11]) + int(fields[12])) / ticks
    return total


def command_line(pid: int) -> str:
    """A process's command line, its arguments joined by spaces ("" when it is gone)."""
    try:
        return (PROC / str(pid) / "cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def children(pid: int) -> list[int]:
    """Every descendant of a process (children, their children, …)."""
    parents: dict[int, list[int]] = {}
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        parents.setdefault(int(fields[1]), []).append(int(entry.name))
    found: list[int] = []
    waiting = [pid]
    while waiting:
        for child in parents.get(waiting.pop(), []):
            found.append(child)
            waiting.append(child)
    return found


@dataclass(frozen=True)
class ServerProcesses:
    """A snapshot: the server's own memory, and each kernel's (pid, RSS in bytes)."""

    server_rss: int
    kernels: tuple[tuple[int, int], ...]

    @classmethod
    def of(cls, server_pid: int) -> ServerProcesses:
        """Look at the server process and the kernels below it now."""
        kernels = tuple(
            (pid, rss_bytes(pid))
            for pid in children(server_pid)
            if KERNEL_MARK in command_line(pid)
        )
        return cls(rss_bytes(server_pid), tuple((pid, rss) for pid, rss in kernels if rss))

    @property
    def kernel_count(self) -> int:
        return len(self.kernels)

    @property
    def total_rss(self) -> int:
        """The server plus all its kernels, in bytes."""
        return self.server_rss + sum(rss for _, rss in self.kernels)
