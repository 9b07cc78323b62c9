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
>>> own = new_class("4b", level=1, count=5, at_level=True, jokers=False, db=db)
>>> own.at_level, own.size, list_classes(db=db)[0].name
(True, 5, '4b')
"""

from __future__ import annotations

import os
from typing import Any

from ...dealing.at_level import TARGET
from ..assignment import Assignment, at_level_assignment, codes_assignment, deal_assignment
from ..grades import Grade, grades_of_class
from ..report import report_csv
from ..roster import Roster
from .sql_store import ProgressStore, open_store

__all__ = ["class_grades", "class_report", "forget_class", "list_classes", "new_class"]

PathLike = str | os.PathLike[str] | None
"""A database: a path or an address (``None``: the default file)."""


def new_class(
    name: str,
    *,
    level: int | str = 2,
    count: int = 10,
    seed: int | str | None = None,
    difficulty: str = "any",
    mu: float | None = None,
    codes: str | None = None,
    mode: str = "practice",
    at_level: bool = False,
    target: float = TARGET,
    db: PathLike = None,
    store: ProgressStore | None = None,
    roster: Roster | None = None,
    **filters: Any,
) -> Assignment:
    """Make class ``name``: dealt from ``seed`` (a fresh one if ``None``) with the dealer's
    ``filters``, or the puzzles of ``codes`` (comma-separated); ``mode`` is ``practice`` or
    ``test``. ``mu``: the share of "mu!" puzzles (``None``: none in a dealt list, the
    practice tab's :data:`~...dealing.dealer.MU_SHARE` at each student's level). ``at_level``:
    no fixed list, but ``count`` puzzles dealt to each student at their own level, aiming at
    the chance ``target`` (``difficulty`` does not apply). ``store``: an open store to keep it
    in (left open) instead of ``db``.
    ``roster``: who may take a seat (:mod:`~..roster`; ``None``: anyone). Returns its
    assignment.
    ``ClassExistsError`` if the name is taken (in any case), ``BadAssignmentError`` for bad
    input."""
    if seed is None:
        import secrets

        seed = secrets.randbelow(10**9)
    if codes is not None:
        assignment = codes_assignment(name, codes, mode=mode)
    elif at_level:
        chosen = {} if mu is None else {"mu": mu}
        assignment = at_level_assignment(
            name, level=level, count=count, seed=seed, target=target, mode=mode,
            **chosen, **filters,
        )  # fmt: skip
    else:
        assignment = deal_assignment(
            name,
            level=level,
            count=count,
            seed=seed,
            difficulty=difficulty,
            mu=0.0 if mu is None else mu,
            mode=mode,
            **filters,
        )
    if store is not None:
        store.add_class(assignment, roster)
        return assignment
    opened = open_store(db)
    try:
        opened.add_class(assignment, roster)
    finally:
        opened.close()
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


def class_grades(name: str, *, db: PathLike = None) -> list[Grade]:
    """Each student's score in class ``name`` (:mod:`~..grades`: 2 points a puzzle for the
    best answer without a hint, 1 for another solution), every seat, by name; turn them into a
    gradebook's file with :func:`~..grades.gradebook_csv`."""
    store = open_store(db)
    try:
        return grades_of_class(store, name)
    finally:
        store.close()
