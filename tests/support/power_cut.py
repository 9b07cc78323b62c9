"""A power cut, replayed from a trace: which bytes a database's files hold after the power
went, when only what was synced to the disk survives.

A process runs under ``strace`` (:func:`traced`), which writes down, in order, every
``pwrite64`` (with its bytes), ``ftruncate``, ``fsync`` and ``fdatasync`` on the files, each
with the file's path. :func:`after_power_cut` takes the files as they were before the process
started and replays the trace up to its end (the moment the process was killed, and the power
with it), keeping of each file only what an ``fsync``/``fdatasync`` of that file finished
after it was written: the operating system's cache, everything not yet synced, is gone. SQLite
then opens the result as it would after the machine came back (it rebuilds the ``-shm`` file
from the write-ahead log).

The model is the harsh one: no unsynced write survives (a real disk may keep some, in any
order; SQLite's checksums in the log make that no worse).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["STRACE", "after_power_cut", "restore", "snapshot", "strace_command"]

STRACE = "strace"
CALLS = "pwrite64,pwritev,write,ftruncate,fsync,fdatasync,unlink,unlinkat"

_CALL = re.compile(r"^(?P<pid>\d+)\s+(?P<call>\w+)\((?P<args>.*)\)\s+=\s+(?P<result>-?\d+)")
_FILE = re.compile(r"^(?P<fd>\d+)<(?P<path>[^>]*)>")
_BYTES = re.compile(r'^"(?P<data>(?:\\x[0-9a-f]{2})*)", (?P<rest>.*)$')


def strace_command(output: Path, command: list[str]) -> list[str]:
    """``command`` under strace: every thread followed (``-f``), the files' paths (``-y``),
    whole buffers in hexadecimal (``-xx -s``), no notes on processes (``-qq``); a call one
    thread began while another's line was written comes as two lines, joined again by the
    replay."""
    return [
        STRACE, "-f", "-qq", "-y", "-xx", "-s", "1048576", "-e", f"trace={CALLS}",
        "-o", str(output), "--", *command,
    ]  # fmt: skip


@dataclass
class _File:
    """A file as the disk holds it (``durable``) and as the cache does (``cached``)."""

    durable: bytearray
    cached: bytearray = field(default_factory=bytearray)

    def __post_init__(self) -> None:
        self.cached = bytearray(self.durable)

    def write(self, offset: int, data: bytes) -> None:
        end = offset + len(data)
        if len(self.cached) < end:
            self.cached.extend(b"\0" * (end - len(self.cached)))
        self.cached[offset:end] = data

    def truncate(self, size: int) -> None:
        del self.cached[size:]
        self.cached.extend(b"\0" * (size - len(self.cached)))

    def sync(self) -> None:
        self.durable = bytearray(self.cached)


def _text(escaped: str) -> str:
    """A path as strace writes it with ``-xx`` (every byte as ``\\xNN``)."""
    if "\\x" not in escaped:
        return escaped
    return bytes.fromhex(escaped.replace("\\x", "")).decode("utf-8", errors="replace")


def _joined(lines: Iterable[str]) -> list[str]:
    """strace's lines with each ``<unfinished ...>`` call joined to its ``resumed`` end."""
    waiting: dict[str, str] = {}
    whole = []
    for line in lines:
        if line.endswith("<unfinished ...>"):
            pid = line.split(None, 1)[0]
            waiting[pid] = line.removesuffix("<unfinished ...>").rstrip()
            continue
        resumed = re.match(r"^(\d+)\s+<\.\.\. \w+ resumed>\s?(.*)$", line)
        if resumed:
            pid, rest = resumed.groups()
            start = waiting.pop(pid, None)
            if start is None:
                continue
            separator = "" if start.endswith("(") or rest.startswith(")") else " "
            whole.append(start + separator + rest)
            continue
        whole.append(line)
    return whole


def after_power_cut(trace: Path, files: dict[Path, Path]) -> dict[Path, bytes]:
    """What each traced file holds after a power cut at the trace's end: ``files`` maps each
    path the process wrote to the copy of it taken before it started (or a path that does not
    exist: the file was not there). Returns each file's durable bytes (a file deleted is
    empty: deleting a rollback journal is how SQLite commits without a write-ahead log)."""
    state = {
        path: _File(bytearray(before.read_bytes() if before.exists() else b""))
        for path, before in files.items()
    }
    for line in _joined(trace.read_text("utf-8", errors="replace").splitlines()):
        found = _CALL.match(line)
        if found is None or int(found["result"]) < 0:
            continue
        if found["call"] in ("unlink", "unlinkat"):  # a journal deleted: its commit
            named = re.search(r'"((?:\\x[0-9a-f]{2})*)"', found["args"])
            gone = Path(_text(named.group(1))) if named else None
            if gone in state:
                state[gone] = _File(bytearray())
            continue
        target = _FILE.match(found["args"])
        if target is None:
            continue
        path = Path(_text(target["path"]))
        if path not in state:
            continue
        call, rest = found["call"], found["args"][target.end() :].removeprefix(", ")
        if call == "pwrite64":
            buffer = _BYTES.match(rest)
            assert buffer is not None, line[:200]
            data = bytes.fromhex(buffer["data"].replace("\\x", ""))
            size, offset = (int(part) for part in buffer["rest"].split(", "))
            assert size == len(data) == int(found["result"]), line[:200]
            state[path].write(offset, data)
        elif call in ("write", "pwritev"):
            raise AssertionError(f"a {call} the replay does not follow: {line[:200]}")
        elif call == "ftruncate":
            state[path].truncate(int(rest))
        elif call in ("fsync", "fdatasync"):
            state[path].sync()
    return {path: bytes(file.durable) for path, file in state.items()}


def restore(durable: dict[Path, bytes], into: Path) -> dict[Path, Path]:
    """Write the durable files into the folder ``into`` (same names; the ``-shm`` file is left
    out: SQLite builds it again); where each went."""
    into.mkdir(parents=True, exist_ok=True)
    placed = {}
    for path, data in durable.items():
        if path.name.endswith("-shm") or not data:
            continue
        target = into / path.name
        target.write_bytes(data)
        placed[path] = target
    return placed


def snapshot(paths: Iterable[Path], into: Path) -> dict[Path, Path]:
    """Copies of ``paths`` as they are now (each to ``into``), for :func:`after_power_cut`."""
    into.mkdir(parents=True, exist_ok=True)
    copies = {}
    for path in paths:
        copy = into / path.name
        if path.exists():
            shutil.copyfile(path, copy)
        copies[path] = copy
    return copies
