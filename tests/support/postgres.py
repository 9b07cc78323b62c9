"""A throwaway PostgreSQL server for the tests: ``initdb`` and ``pg_ctl`` in a temporary folder,
listening on 127.0.0.1 on a free port, stopped and deleted at the end.

``$DEKBOVINOJ_TEST_POSTGRES_URL`` names a server to use instead (its user may
create databases). PostgreSQL refuses to run as root: as root, the cluster
belongs to the ``postgres`` user and its commands run through ``runuser``.
Without PostgreSQL's programs the tests that need it are skipped with a sentence saying to
install it, or fail with it when ``$DEKBOVINOJ_REQUIRE_POSTGRES`` is set (``.ci/run`` sets it:
CI always runs them).
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import shlex
import shutil
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from support.servers import free_port

__all__ = ["URL_ENV", "PostgresServer", "find_binaries", "postgres_server", "stalled"]

URL_ENV = "DEKBOVINOJ_TEST_POSTGRES_URL"
"""A PostgreSQL server to test against instead of a throwaway one."""

MISSING = (
    "PostgreSQL is not installed: install it (Debian: apt-get install postgresql, which "
    "brings /usr/lib/postgresql/*/bin/initdb and pg_ctl), or set "
    "$DEKBOVINOJ_TEST_POSTGRES_URL to a server the tests may create databases on."
)


def find_binaries() -> Path:
    """The folder of the newest installed PostgreSQL's ``initdb`` and ``pg_ctl``."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: int(Path(p).parts[-3]) if Path(p).parts[-3].isdigit() else 0,
    )
    if not found:
        on_path = shutil.which("initdb")
        if on_path and shutil.which("pg_ctl"):
            return Path(on_path).parent
        raise RuntimeError(MISSING)
    return Path(found[-1]).parent


@dataclass
class PostgresServer:
    """A running server: the address of its ``postgres`` database, and fresh databases on it."""

    admin_url: str
    """``postgresql://user@127.0.0.1:port/postgres`` (the driver-less form)."""
    _numbers: Iterator[int] = field(default_factory=lambda: itertools.count(1))

    def url(self, database: str) -> str:
        """The SQLAlchemy address (driver psycopg 3) of ``database`` on this server."""
        base, _, _ = self.admin_url.rpartition("/")
        return base.replace("postgresql://", "postgresql+psycopg://", 1) + "/" + database

    def admin(self, sql: str) -> None:
        """Run one statement as the cluster's superuser, on its ``postgres`` database."""
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as connection:
            connection.execute(sql)  # type: ignore[arg-type]

    def create_database(self) -> str:
        """A new, empty database; its name."""
        name = f"dekbovinoj_test_{os.getpid()}_{next(self._numbers)}"
        self.admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self.admin(f"CREATE DATABASE \"{name}\" TEMPLATE template0 ENCODING 'UTF8'")
        return name

    def drop_database(self, name: str) -> None:
        """Delete ``name`` (closing whatever connections it still has)."""
        self.admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _as_postgres(command: list[str]) -> list[str]:
    """``command`` as the ``postgres`` user when we are root (PostgreSQL refuses root)."""
    if os.geteuid() != 0:
        return command
    if shutil.which("runuser"):
        return ["runuser", "-u", "postgres", "--", *command]
    return ["su", "postgres", "-c", shlex.join(command)]


def _run(command: list[str]) -> None:
    done = subprocess.run(
        _as_postgres(command), capture_output=True, text=True, timeout=120, check=False
    )
    if done.returncode != 0:
        raise RuntimeError(
            f"{' '.join(command)} failed ({done.returncode}): {done.stderr or done.stdout}"
        )


@contextmanager
def postgres_server() -> Iterator[PostgresServer]:
    """A PostgreSQL server for the length of the ``with``: ``$DEKBOVINOJ_TEST_POSTGRES_URL``,
    or a new cluster on 127.0.0.1."""
    given = os.environ.get(URL_ENV)
    if given:
        admin = given.replace("postgresql+psycopg://", "postgresql://", 1)
        yield PostgresServer(admin.rpartition("/")[0] + "/postgres")
        return
    binaries = find_binaries()
    folder = Path(tempfile.mkdtemp(prefix="dekbovinoj-pg-"))
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres", "postgres")
    data, log, port = folder / "data", folder / "server.log", free_port()
    _run(
        [
            str(binaries / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
            "--no-instructions",
        ]
    )
    options = (
        f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off "
        "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
    )
    try:
        _run(
            [
                str(binaries / "pg_ctl"),
                "-D",
                str(data),
                "-l",
                str(log),
                "-o",
                options,
                "-w",
                "-t",
                "60",
                "start",
            ]
        )
        yield PostgresServer(f"postgresql://postgres@127.0.0.1:{port}/postgres")
    finally:
        with contextlib.suppress(RuntimeError):  # never started: nothing to stop
            _run([str(binaries / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"])
        shutil.rmtree(folder, ignore_errors=True)


def _children(parent: int) -> list[int]:
    """The processes whose parent is ``parent`` (from /proc)."""
    found = []
    for status in Path("/proc").glob("[0-9]*/status"):
        with contextlib.suppress(OSError):
            fields = dict(
                line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line
            )
            if int(fields.get("PPid", "0").strip()) == parent:
                found.append(int(status.parent.name))
    return found


@contextmanager
def stalled(server: PostgresServer) -> Iterator[list[int]]:
    """The server stopped with ``SIGSTOP`` (its postmaster first, then every backend and
    helper process) for the length of the ``with``, then continued with ``SIGCONT``: a
    database that takes no new connection and answers no query, as a stalled server does.
    Yields the stopped process ids. Only a server of this machine can be stalled."""
    import psycopg

    with psycopg.connect(server.admin_url, autocommit=True) as connection:
        row = connection.execute("SELECT pg_backend_pid()").fetchone()
        assert row is not None
        postmaster = int(
            next(
                line.split()[1]
                for line in Path(f"/proc/{row[0]}/status").read_text().splitlines()
                if line.startswith("PPid:")
            )
        )
    stopped = [postmaster]
    try:
        os.kill(postmaster, signal.SIGSTOP)
        for child in _children(postmaster):
            os.kill(child, signal.SIGSTOP)
            stopped.append(child)
        yield stopped
    finally:
        for pid in reversed(stopped):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
