"""Class mode for authors and scripts: make, list, report and forget classes in Python.

The same as ``dekbovinoj class new|list|report|forget``. ``db`` is the
database: a file path (by default the one in the user's data directory, see
:func:`~dekbovinoj_edu.classroom.store.default_db_path`), ``sqlite:///FILE`` or
``postgresql://USER@HOST/DATABASE``. A database that cannot be used (damaged, a
newer version's, another program's, the disk full) raises
:class:`~.errors.StoreError` before anything is written or returned.

>>> import tempfile, pathlib
>>> db = pathlib.Path(tempfile.mkdtemp()) / "classes.sqlite3"
>>> a = new_class("4a", level=1, count=3, seed="class 4a", difficulty="easy", db=db)
>>> [c.name for c in list_classes(db=db)], len(a.codes)
(['4a'], 3)
>>> from dekbovinoj_edu.classroom.report import REPORT_COLUMNS
>>> class_report("4a", db=db) == ",".join(REPORT_COLUMNS) + "\\n"  # no attempts: the header
True
>>> forget_class("4a", db=db), list_classes(db=db)
(0, [])
"""

from __future__ import annotations

import os
from typing import Any

from .assignment import Assignment, codes_assignment, deal_assignment
from .report import report_csv
from .store import open_store

__all__ = ["class_report", "forget_class", "list_classes", "new_class"]

PathLike = str | os.PathLike[str] | None
"""A database: a path or an address (``None``: the default file)."""


def new_class(
    name: str,
    *,
    level: int | str = 2,
    count: int = 10,
    seed: int | str | None = None,
    difficulty: str = "any",
    mu: float = 0.0,
    codes: str | None = None,
    mode: str = "practice",
    db: PathLike = None,
    **filters: Any,
) -> Assignment:
    """Make class ``name``: dealt from ``seed`` (a fresh one if ``None``) with the dealer's
    ``filters``, or the puzzles of ``codes`` (comma-separated); ``mode`` is ``practice`` or
    ``test``. Returns its assignment.
    ``ClassExistsError`` if the name is taken, ``BadAssignmentError`` for bad input."""
    if codes is not None:
        assignment = codes_assignment(name, codes, mode=mode)
    else:
        if seed is None:
            import secrets

            seed = secrets.randbelow(10**9)
        assignment = deal_assignment(
            name,
            level=level,
            count=count,
            seed=seed,
            difficulty=difficulty,
            mu=mu,
            mode=mode,
            **filters,
        )
    store = open_store(db)
    try:
        store.add_class(assignment)
    finally:
        store.close()
    return assignment


def list_classes(*, db: PathLike = None) -> list[Assignment]:
    """Every class in the store, by name."""
    store = open_store(db)
    try:
        return store.classes()
    finally:
        store.close()


def forget_class(name: str, *, db: PathLike = None) -> int:
    """Delete class ``name`` and all its rows; returns how many attempts were deleted."""
    store = open_store(db)
    try:
        return store.forget(name)
    finally:
        store.close()


def class_report(name: str, *, db: PathLike = None) -> str:
    """Class ``name``'s attempts as CSV: a header row, then one row per attempt
    (:data:`~.report.REPORT_COLUMNS`: the stored columns, the verdict in words, the local
    time)."""
    store = open_store(db)
    try:
        store.assignment(name)
        return report_csv(store.attempts(name))
    finally:
        store.close()
