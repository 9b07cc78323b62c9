"""Class mode: a teacher gives a class one set of puzzles, students join with a nickname,
every attempt is kept in a SQLite file or a PostgreSQL database, and the teacher watches a
live dashboard.

- :mod:`.assignment`: :class:`~.assignment.Assignment`, the puzzles and the mode.
- :mod:`.attempts`: :class:`~.attempts.Attempt`, one row of the report, and the CSV.
- :mod:`.seat`, :mod:`.nicknames`: a student's seat, what joining and recording give, and
  nicknames (allowed ones, and the key that makes look-alikes one).
- :mod:`.store`, :mod:`.tables`, :mod:`.database`, :mod:`.migrations`: the progress store
  (:class:`~.store.ProgressStore`, :class:`~.store.SQLStore` over SQLite or PostgreSQL), its
  tables, opening and checking a database, its Alembic migrations.
- :mod:`.session`: :class:`~.session.ClassSession`, a student's work on the assignment.
- :mod:`.client`: :class:`~.client.ClassClient`, the class service's API for a student's
  app, with the queue of attempts not yet sent.
- :mod:`.overview`: students × puzzles and each puzzle's figures, as data (each cell a
  :class:`~.overview.CellState` with its verdict code, cards, best, hints and seconds).
- :mod:`.classes`: ``new_class``, ``list_classes``, ``class_report``, ``class_grades``,
  ``forget_class``; :mod:`.grades`: ``Grade``, ``gradebook_csv``.
- :mod:`.views`, the views over these models: :mod:`.views.board` (the board as HTML),
  :mod:`.views.marks` (how a cell reads: its glyph and words in a language),
  :mod:`.views.teacher` (the dashboard page: board, CSV, seat actions), :mod:`.views.dashboard`
  (:class:`~.views.dashboard.Dashboard`, the notebook widget), :mod:`.views.student`
  (:class:`~.views.student.ClassApp`, the student's screens), :mod:`.views.keeper` (the
  page's address and local storage for a student's app).

The names below load on first use, so ``from dekbovinoj_edu.classroom import new_class``
does not import ipywidgets.

>>> from dekbovinoj_edu.classroom import Dashboard
>>> Dashboard.__name__
'Dashboard'
"""

from typing import TYPE_CHECKING

from .._lazy import attach

if TYPE_CHECKING:
    from .assignment import (
        MODES,
        Assignment,
        at_level_assignment,
        codes_assignment,
        deal_assignment,
    )
    from .attempts import CSV_COLUMNS, Attempt, to_csv
    from .errors import (
        BadAssignmentError,
        ClassExistsError,
        ClassroomError,
        NicknameError,
        NicknameTakenError,
        StoreError,
        UnknownClassError,
    )
    from .grades import Grade, gradebook_csv
    from .overview import CellState, ClassOverview
    from .session import ClassSession, HelpLockedError
    from .store import ProgressStore, Seat, SQLiteStore, default_db_path, open_store
    from .store.classes import class_grades, class_report, forget_class, list_classes, new_class
    from .views.dashboard import Dashboard
    from .views.student import ClassApp
    from .views.teacher import TeacherView

__all__ = [
    "CSV_COLUMNS",
    "MODES",
    "Assignment",
    "Attempt",
    "BadAssignmentError",
    "CellState",
    "ClassApp",
    "ClassExistsError",
    "ClassOverview",
    "ClassSession",
    "ClassroomError",
    "Dashboard",
    "Grade",
    "HelpLockedError",
    "NicknameError",
    "NicknameTakenError",
    "ProgressStore",
    "SQLiteStore",
    "Seat",
    "StoreError",
    "TeacherView",
    "UnknownClassError",
    "at_level_assignment",
    "class_grades",
    "class_report",
    "codes_assignment",
    "deal_assignment",
    "default_db_path",
    "forget_class",
    "gradebook_csv",
    "list_classes",
    "new_class",
    "open_store",
    "to_csv",
]

__getattr__, __dir__ = attach(__name__, __file__)
