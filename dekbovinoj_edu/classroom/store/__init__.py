"""The progress store: classes, students' seats and sessions, and every attempt, in SQLite or
PostgreSQL: the database's side of class mode, which a student's page (the screens, the
session, the client, the static site) never loads.

- :mod:`.sql_store`: :class:`~.sql_store.SQLStore` (and ``SQLiteStore``), the
  :class:`~.sql_store.ProgressStore` protocol and :func:`~.sql_store.open_store`, made of
  :mod:`.class_rows`, :mod:`.seat_rows`, :mod:`.attempt_rows`, :mod:`.seat_actions` and
  :mod:`.learning` over :mod:`.base` and :mod:`.rows`;
- :mod:`.tables`, :mod:`.database`, :mod:`.sqlite_file`, :mod:`.migrating`,
  :mod:`.migrations`, :mod:`.failures`, :mod:`.single_statements`: the tables, opening,
  checking and migrating a database, storage failures in words, PostgreSQL's busy paths;
- :mod:`.desk`: :class:`~.desk.ClassDesk`, what a student's page may ask of a class;
- :mod:`.classes`: the authors' API (``new_class``, ``list_classes``, ``class_report``,
  ``forget_class``).

A class's name ignores case (``4b`` and ``4B`` are one class): every method finds the class
by :func:`~..assignment.class_key`, and its rows carry the name as the teacher first wrote it.

>>> from dekbovinoj_edu.classroom.assignment import codes_assignment
>>> store = SQLiteStore(":memory:")
>>> store.add_class(codes_assignment("4a", "68VN-AV66-GGK"))
>>> [a.name for a in store.classes()]
['4a']
>>> ana = store.join("4a", "Ana", "token-1", now=100.0)
>>> ana.seat.puzzle, ana.resumed, len(ana.rejoin_code)
(1, False, 9)
>>> store.join("4a", "ana", "token-2", now=105.0)
Traceback (most recent call last):
...
dekbovinoj_edu.classroom.errors.NicknameTakenError: This nickname is taken in this class. ...
>>> back = store.join("4a", "ana", "token-2", now=106.0, rejoin_code=ana.rejoin_code.lower())
>>> back.seat.nickname, back.resumed  # Ana came back on another page
('Ana', True)
>>> store.seat_of("4a", "token-1")
Traceback (most recent call last):
...
dekbovinoj_edu.classroom.errors.SeatTakenError: This page no longer has your seat: ...
>>> store.assignment("4A").name, store.seats("4A")[0].nickname  # the name ignores case
('4a', 'Ana')
>>> store.forget("4a")
0
"""

from ..nicknames import nickname_key
from ..seat import Joined, Recorded, Seat
from .learning import LEARNING_GAP
from .sql_store import (
    CLASS_ENV,
    DB_ENV,
    ProgressStore,
    SQLiteStore,
    SQLStore,
    default_db_path,
    open_store,
)

__all__ = [
    "CLASS_ENV",
    "DB_ENV",
    "LEARNING_GAP",
    "Joined",
    "ProgressStore",
    "Recorded",
    "SQLStore",
    "SQLiteStore",
    "Seat",
    "default_db_path",
    "nickname_key",
    "open_store",
]
