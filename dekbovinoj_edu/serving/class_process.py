"""The class service beside Voilà (``dekbovinoj serve --class NAME``): started as a process of
its own, waited for until it answers, stopped with Voilà.

:func:`start_class_service` runs ``dekbovinoj class serve NAME`` on this computer
(``127.0.0.1``: only the student kernels, on this computer too, talk to it) and a free port,
with the class database; it waits until the service's API answers for the class, and
returns a :class:`ClassService` with its address and the teacher's dashboard address it
printed. The student kernels get the service's address, never the database
(:func:`~dekbovinoj_edu.cli.serve.class_environment`). The service stops when its parent
dies (Linux), as Voilà does. The database's address goes to the service in its environment
(``$DEKBOVINOJ_DB``), never on its command line, which every user of the computer can read.

>>> service_command("4a", port=8871)[1:]
['-m', 'dekbovinoj_edu.cli', 'class', 'serve', '4a', '--host', '127.0.0.1', '--port', '8871']
>>> service_environment("postgresql://u:pw@h/d", {"PATH": "/bin"})
{'PATH': '/bin', 'DEKBOVINOJ_DB': 'postgresql://u:pw@h/d'}
>>> teacher_address("Teacher:  http://127.0.0.1:8871/teacher/abc123/")
'http://127.0.0.1:8871/teacher/abc123/'
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from ..classroom.store.sql_store import DB_ENV
from .server import stop_with_parent

__all__ = [
    "LOOPBACK",
    "START_SECONDS",
    "ClassService",
    "ServiceStartError",
    "service_command",
    "service_environment",
    "start_class_service",
    "teacher_address",
]

LOOPBACK = "127.0.0.1"
"""Where the service listens: this computer (the kernels are on it too)."""

START_SECONDS = 60.0
"""How long the service may take to answer (it opens and checks the database first)."""

_TEACHER = re.compile(r"https?://\S+/teacher/\S+")
_LISTENING = re.compile(r"^Class service of class .* on (http://127\.0\.0\.1:(\d+))/?$")
"""The service's first line, with the port it bound (``--port 0``: the system chose it)."""


class ServiceStartError(RuntimeError):
    """The class service stopped before it answered (an unknown class, a database that
    cannot be used…), or did not answer in time. ``code`` is its exit code (2 for a
    refusal, as ``class serve`` exits)."""

    def __init__(self, message: str, code: int = 2) -> None:
        super().__init__(message)
        self.code = code


def service_command(
    name: str,
    *,
    host: str = LOOPBACK,
    port: int,
    site: Path | None = None,
    allow_origins: Iterable[str] = (),
    app_url: str | None = None,
) -> list[str]:
    """The command line of ``dekbovinoj class serve`` for class ``name`` (``site``: the
    static site it serves too; ``allow_origins``: the sites elsewhere whose pages may call
    its API; ``app_url``: where the students open the app, for the dashboard to show). The
    database is in :func:`service_environment`."""
    command = [sys.executable, "-m", "dekbovinoj_edu.cli", "class", "serve", name]
    command += ["--host", host, "--port", str(port)]
    if site is not None:
        command += ["--site", str(site)]
    if app_url is not None:
        command += ["--app-url", app_url]
    for origin in allow_origins:
        command += ["--allow-origin", origin]
    return command


def service_environment(db: str | None, environment: Mapping[str, str]) -> dict[str, str]:
    """The service's environment: ``environment`` with ``$DEKBOVINOJ_DB`` naming ``db`` (the
    default database when ``None``), read by no other user of the computer."""
    chosen = dict(environment)
    if db is not None:
        chosen[DB_ENV] = db
    return chosen


def teacher_address(line: str) -> str | None:
    """The teacher's dashboard address in a line the service printed, if there is one."""
    found = _TEACHER.search(line)
    return found.group(0) if found else None


@dataclass
class ClassService:
    """A running class service: its process, address, and the teacher's address."""

    process: subprocess.Popen[str]
    url: str
    """The service's address (``http://127.0.0.1:8871``), what the kernels are given."""
    port: int
    teacher: str = ""
    """The teacher's dashboard (a secret address)."""
    lines: list[str] = field(default_factory=list)
    """Everything the service printed so far."""

    def stop(self, timeout: float = 30.0) -> int:
        """Stop the service (SIGTERM, then SIGKILL after ``timeout``); its exit code."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode

    def kill(self) -> None:
        """Kill the service at once (SIGKILL), as a crash would."""
        self.process.kill()
        self.process.wait()


def _answers(url: str, name: str) -> int | None:
    """The status of the API's class route, or ``None`` while nothing answers."""
    address = f"{url}/api/v1/classes/{urllib.parse.quote(name, safe='')}"
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    try:
        with opener.open(address, timeout=5) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as refused:
        refused.close()
        return refused.code
    except OSError:
        return None


def start_class_service(
    name: str,
    *,
    db: str | None = None,
    port: int | None = None,
    site: Path | None = None,
    allow_origins: Iterable[str] = (),
    say: Callable[[str], None] | None = None,
    timeout: float = START_SECONDS,
    app_url: str | None = None,
) -> ClassService:
    """Start ``dekbovinoj class serve name`` on 127.0.0.1 (``port``, or a free one) and wait
    until it answers for the class. What it prints after its first lines goes to ``say``
    (a failing disk, say), what it logs to this process's stderr. ``ServiceStartError``,
    with the service's own sentence, if it stops first, or if it does not answer within
    ``timeout`` seconds."""
    chosen = port if port is not None else 0  # 0: the service binds a free port itself
    process = subprocess.Popen(
        service_command(name, port=chosen, site=site, allow_origins=allow_origins, app_url=app_url),
        env=service_environment(db, os.environ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        encoding="utf-8",
        errors="replace",
        preexec_fn=stop_with_parent,
    )
    service = ClassService(process, f"http://{LOOPBACK}:{chosen}" if chosen else "", chosen)
    started = threading.Event()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            text = line.rstrip("\n")
            service.lines.append(text)
            listening = _LISTENING.search(text)
            if listening and not service.port:
                service.port = int(listening.group(2))
                service.url = listening.group(1)
            found = teacher_address(text)
            if found and not service.teacher:
                service.teacher = found
            elif started.is_set() and say is not None:
                say(text)

    problems: list[str] = []

    def read_errors() -> None:
        assert process.stderr is not None
        for line in process.stderr:
            if started.is_set():
                sys.stderr.write(line)
                sys.stderr.flush()
            else:
                problems.append(line.rstrip("\n"))

    readers = [
        threading.Thread(target=work, name=f"class-service-{work.__name__}", daemon=True)
        for work in (read, read_errors)
    ]
    for reader in readers:
        reader.start()
    deadline = time.monotonic() + timeout
    while True:
        code = process.poll()
        if code is not None:
            for reader in readers:
                reader.join(5)
            said = [line.removeprefix("dekbovinoj: ") for line in problems if line.strip()]
            why = said[-1] if said else f"the class service stopped (exit code {code})"
            raise ServiceStartError(why, code if code > 0 else 2)
        status = _answers(service.url, name) if service.port else None
        if status == 200 and service.teacher:
            started.set()
            for line in problems:  # what it said while starting (a warning) is not lost
                print(line, file=sys.stderr, flush=True)
            return service
        if time.monotonic() > deadline:
            service.stop()
            raise ServiceStartError(f"the class service did not answer within {timeout:g} s")
        time.sleep(0.2)
