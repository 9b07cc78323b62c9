"""Where the class database is, without its password on a command line or in a file others read.

A command line is public on a shared machine: every user's process reads it (``ps``). So a
database address that holds a password comes from ``$DEKBOVINOJ_DB`` (only the process's own
user reads its environment), from a file only its owner reads (``--db-file``), or from
PostgreSQL's own password file or peer authentication; :func:`refuse_password` turns away an
address with a password given on the command line, and :func:`read_address_file` a file others
may read.

>>> has_password("postgresql://dekbovinoj:s3cret@db.school/classes")
True
>>> has_password("postgresql://dekbovinoj@db.school/classes"), has_password("/tmp/c.sqlite3")
(False, False)
>>> shown_address("postgresql+psycopg://dekbovinoj:s3cret@db.school:5432/classes")
'postgresql+psycopg://dekbovinoj:***@db.school:5432/classes'
>>> refuse_password("postgresql://u:pw@h/d")
Traceback (most recent call last):
...
dekbovinoj_edu.classroom.errors.DatabaseAddressError: The class database's address holds a \
password, which every user of this machine could read on the command line: put the address in \
a file only you may read (chmod 600 FILE) and give --db-file FILE, or set $DEKBOVINOJ_DB.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from urllib.parse import urlsplit

from ..errors import DatabaseAddressError

__all__ = ["has_password", "read_address_file", "refuse_password", "shown_address"]


def has_password(address: str) -> bool:
    """Whether ``address`` (a database URL or a file path) holds a password."""
    if "://" not in address:
        return False
    try:
        return urlsplit(address).password is not None
    except ValueError:  # a malformed port: the database's own refusal says so later
        return "@" in address.split("://", 1)[1].split("/", 1)[0]


def shown_address(address: str) -> str:
    """``address`` with its password, if any, as ``***``: what may be printed or logged."""
    if not has_password(address):
        return address
    scheme, rest = address.split("://", 1)
    who, at, place = rest.partition("@")
    user = who.split(":", 1)[0]
    return f"{scheme}://{user}:***{at}{place}"


def refuse_password(address: str) -> str:
    """``address``, when it holds no password; ``DatabaseAddressError`` when it does."""
    if has_password(address):
        raise DatabaseAddressError(
            "The class database's address holds a password, which every user of this machine "
            "could read on the command line: put the address in a file only you may read "
            "(chmod 600 FILE) and give --db-file FILE, or set $DEKBOVINOJ_DB."
        )
    return address


def read_address_file(path: str | os.PathLike[str]) -> str:
    """The database address in the file at ``path`` (its first line that is not blank or a
    ``#`` comment). ``DatabaseAddressError`` when the file is missing, empty, or may be read or
    changed by users other than its owner (on systems with POSIX permissions).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> kept = folder / "db"
    >>> _ = kept.write_text("# the class database\\npostgresql://u:pw@h/d\\n")
    >>> kept.chmod(0o600)
    >>> read_address_file(kept)
    'postgresql://u:pw@h/d'
    >>> kept.chmod(0o644)
    >>> read_address_file(kept)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    dekbovinoj_edu.classroom.errors.DatabaseAddressError: Other users may read ...
    """
    where = Path(path)
    try:
        mode = where.stat().st_mode
        text = where.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) else "not text"
        raise DatabaseAddressError(
            "Cannot read the database's address from {path}: {reason}.",
            path=str(where),
            reason=reason or "unreadable",
        ) from None
    if os.name == "posix" and mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise DatabaseAddressError(
            "Other users may read {path}, which holds the class database's address: make it "
            "yours alone (chmod 600 {path}) and try again.",
            path=str(where),
        )
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            return line
    raise DatabaseAddressError("{path} holds no database address.", path=str(where))
