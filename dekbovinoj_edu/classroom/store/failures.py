"""Storage failures in words: how to name a database to a person (never its password), the
sentence for each way storage fails, and whether a failure is only another writer's lock.

>>> describe("postgresql://teacher:secret@db.school/classes")
'postgresql://teacher:***@db.school/classes'
>>> storage_error(OSError(28, "No space left on device"), "c.sqlite3").code
'store'
"""

from __future__ import annotations

import errno
import os
import sqlite3

import sqlalchemy as sa
from sqlalchemy import exc

from ..errors import StoreError

__all__ = ["READ_ONLY", "busy", "describe", "is_read_only", "storage_error"]

READ_ONLY = (
    "The class database {where} is read-only (the file, its folder or its disk): class list "
    "and class report can read it, but to change it, copy it to a folder you may write to."
)
"""The sentence of a database that cannot be written (a ``classroom`` msgid)."""


def describe(where: str | os.PathLike[str]) -> str:
    """How to name a database to a person: the path, or the address without its password."""
    text = os.fspath(where)
    if "://" not in text:
        return text
    try:
        return sa.make_url(text).render_as_string(hide_password=True)
    except exc.ArgumentError:
        return text.split("://", 1)[0] + "://…"


def storage_error(error: BaseException, where: str) -> StoreError:
    """The sentence for a database error or an ``OSError``: the disk is full, the file or
    folder is read-only, the file is damaged, or (otherwise) what the database said."""
    cause = getattr(error, "orig", None) or error
    text = str(cause).lower()
    state = getattr(cause, "sqlstate", None)
    number = getattr(cause, "errno", None)
    if "disk is full" in text or state == "53100" or number == errno.ENOSPC:
        return StoreError("The class database cannot be written: the disk is full.")
    if (
        "readonly" in text
        or "read-only" in text
        or state == "25006"
        or number in (errno.EROFS, errno.EACCES, errno.EPERM)
    ):
        return StoreError(READ_ONLY, where=where)
    if "malformed" in text or "not a database" in text:
        return StoreError(
            "The class database {where} is damaged ({problem}): use a copy from before, "
            "or another file.",
            where=where,
            problem=str(cause).strip().splitlines()[0],
        )
    problem = str(cause).strip().splitlines()[0] if str(cause).strip() else type(cause).__name__
    return StoreError(
        "Cannot use the class database {path}: {problem}", path=where, problem=problem
    )


def is_read_only(error: StoreError) -> bool:
    """Whether ``error`` says the database cannot be written (:data:`READ_ONLY`).

    >>> is_read_only(storage_error(OSError(30, "Read-only file system"), "c.sqlite3"))
    True
    """
    return error.message_id == READ_ONLY


def busy(error: BaseException) -> bool:
    """Whether another writer holds the database for now (worth waiting for)."""
    cause = getattr(error, "orig", None) or error
    if getattr(cause, "sqlstate", None) in ("40001", "40P01"):  # serialization, deadlock
        return True
    text = str(cause).lower()
    return isinstance(cause, sqlite3.OperationalError) and ("locked" in text or "busy" in text)
