"""A student's score for a class's puzzles, and the gradebook files an LMS imports.

**The rule** (the one place it is written; the README and the LMS's line item quote it): each
puzzle is worth :data:`PUZZLE_POINTS` (2) points, from the attempt that ended it:

- **2**: the best answer, with no hint: a dek bovinoj with as many cards as the best answer
  takes, or a right "mu!";
- **1**: solved, but not that way: a dek bovinoj with fewer cards than the best, or the best
  after a hint;
- **0**: not ended (not tried, or only wrong answers so far), a wrong "mu!", or "I don't
  know".

Wrong answers before the end cost nothing (trying is how one learns), and malformed input
never counts. A student's score is the sum over the class's puzzles; the most is
``2 × puzzles`` (:func:`maximum`). A class at each student's level scores each student's own
puzzles by their numbers, the same way.

>>> from .attempts import Attempt
>>> def row(nickname, puzzle, verdict, cards, best, hints=0):
...     return Attempt("4a", nickname, puzzle, "", "", verdict, cards, best, hints, 9.0, "T")
>>> rows = [row("Ana", 1, "not-target", 0, 3), row("Ana", 1, "ok", 3, 3),
...         row("Ana", 2, "ok", 2, 3), row("Bo", 1, "ok", 3, 3, hints=1),
...         row("Bo", 2, "mu-wrong", 0, 3)]
>>> [(g.student, g.points, g.maximum, g.ended) for g in grades(rows, 2, ["Cy"])]
[('Ana', 3, 4, 2), ('Bo', 1, 4, 2), ('Cy', 0, 4, 0)]
>>> print(gradebook_csv(grades(rows, 2), "moodle", "Dek bovinoj 4a"), end="")
Username,Email address,Dek bovinoj 4a
Ana,,3
Bo,,1
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .attempts import Attempt, csv_fields
from .overview import CellState, cell_of
from .report import BOM

if TYPE_CHECKING:
    from .store import ProgressStore

__all__ = [
    "FORMATS",
    "PUZZLE_POINTS",
    "Grade",
    "gradebook_csv",
    "gradebook_title",
    "grades",
    "grades_of_class",
    "maximum",
    "puzzle_points",
]

PUZZLE_POINTS = 2
"""What one puzzle is worth at most (:func:`puzzle_points`)."""

FORMATS = ("canvas", "moodle", "google")
"""The gradebooks :func:`gradebook_csv` writes for."""


def puzzle_points(state: CellState, hints: int) -> int:
    """The points of a puzzle that stands at ``state`` after ``hints`` hints (the rule above).

    >>> puzzle_points(CellState.SOLVED_BEST, 0), puzzle_points(CellState.MU_RIGHT, 0)
    (2, 2)
    >>> puzzle_points(CellState.SOLVED_BEST, 1), puzzle_points(CellState.SOLVED, 0)
    (1, 1)
    >>> puzzle_points(CellState.MU_WRONG, 0), puzzle_points(CellState.WRONG, 0)
    (0, 0)
    """
    if state.solved_best and hints == 0:
        return PUZZLE_POINTS
    return 1 if state.solved else 0


def maximum(puzzles: int) -> int:
    """The most a student can score on ``puzzles`` puzzles.

    >>> maximum(10)
    20
    """
    return PUZZLE_POINTS * puzzles


@dataclass(frozen=True)
class Grade:
    """One student's score."""

    student: str
    """The student's name in the class (the nickname, or the school's login on a hub)."""
    points: int
    maximum: int
    ended: int
    """How many of the puzzles the student ended (solved, or a "mu!")."""

    @property
    def percent(self) -> float:
        """The score as a percentage of the most, to one decimal.

        >>> Grade("Ana", 3, 4, 2).percent
        75.0
        """
        return round(100 * self.points / self.maximum, 1) if self.maximum else 0.0


def grades(attempts: Iterable[Attempt], puzzles: int, students: Iterable[str] = ()) -> list[Grade]:
    """Each student's :class:`Grade` over puzzles ``1..puzzles``, from the class's attempts
    (oldest first), by name; ``students`` adds those with no attempt yet (they score 0)."""
    mine: dict[str, list[Attempt]] = defaultdict(list)
    for name in students:
        mine[name]
    for attempt in attempts:
        mine[attempt.nickname].append(attempt)
    found = []
    for student in sorted(mine, key=str.casefold):
        cells = [cell_of(number, "", mine[student]) for number in range(1, puzzles + 1)]
        points = sum(puzzle_points(cell.state, cell.hints) for cell in cells)
        ended = sum(cell.state.finished for cell in cells)
        found.append(Grade(student, points, maximum(puzzles), ended))
    return found


def grades_of_class(store: ProgressStore, name: str) -> list[Grade]:
    """The grades of class ``name`` now: every seat's (0 before an answer), by :func:`grades`.

    >>> from dekbovinoj_edu.classroom.assignment import codes_assignment
    >>> from dekbovinoj_edu.classroom.store import SQLiteStore
    >>> from dekbovinoj_edu.classroom.store.desk import ClassDesk
    >>> store = SQLiteStore(":memory:")
    >>> store.add_class(codes_assignment("4a", "68VN-AV66-GGK"))
    >>> _ = ClassDesk(store, "4a").join("Ana")
    >>> grades_of_class(store, "4a")
    [Grade(student='Ana', points=0, maximum=2, ended=0)]
    """
    size = store.assignment(name).size
    seats = [seat.nickname for seat in store.seats(name)]
    return grades(store.attempts(name), size, seats)


def gradebook_title(name: str) -> str:
    """The gradebook column's name for class ``name`` (the LMS's new assignment).

    >>> gradebook_title("4a")
    'Dek bovinoj 4a'
    """
    return f"Dek bovinoj {name}"


def gradebook_csv(found: Iterable[Grade], kind: str, title: str, *, bom: bool = False) -> str:
    """The grades as a CSV file the gradebook ``kind`` (:data:`FORMATS`) imports, in one
    column named ``title`` (the LMS makes it a new assignment or grade item):

    - ``canvas``: Canvas's gradebook columns (``Student, ID, SIS User ID, SIS Login ID,
      Section``), a ``Points Possible`` row, then a row a student, the name as the SIS login;
    - ``moodle``: ``Username`` and ``Email address`` (filled where the name is one), to map
      in Moodle's "Import grades: CSV file" by either, and the points;
    - ``google``: ``Email Address``, ``Name`` and the points, as a sheet for Google
      Classroom (its students are their Google accounts' e-mail addresses).

    Every text is spreadsheet-safe; ``bom`` for a file to download (Excel reads UTF-8 then).

    >>> rows = gradebook_csv([Grade("ana@school.example", 3, 4, 2)], "canvas", "4a").splitlines()
    >>> for line in rows:
    ...     print(line)
    Student,ID,SIS User ID,SIS Login ID,Section,4a
    Points Possible,,,,,4
    ana@school.example,,,ana@school.example,,3
    >>> gradebook_csv([], "sakai", "4a")
    Traceback (most recent call last):
    ...
    ValueError: no gradebook format 'sakai': canvas, moodle or google
    """
    found = list(found)
    if kind == "canvas":
        top = found[0].maximum if found else 0
        lines = [
            csv_fields("Student", "ID", "SIS User ID", "SIS Login ID", "Section", title),
            csv_fields("Points Possible", "", "", "", "", top),
            *(csv_fields(g.student, "", "", g.student, "", g.points) for g in found),
        ]
    elif kind == "moodle":
        lines = [
            csv_fields("Username", "Email address", title),
            *(csv_fields(g.student, _email(g.student), g.points) for g in found),
        ]
    elif kind == "google":
        lines = [
            csv_fields("Email Address", "Name", title),
            *(csv_fields(_email(g.student), g.student, g.points) for g in found),
        ]
    else:
        raise ValueError(f"no gradebook format {kind!r}: canvas, moodle or google")
    return (BOM if bom else "") + "\n".join(lines) + "\n"


def _email(name: str) -> str:
    """``name`` if it is an e-mail address (a school's login often is), else ``""``.

    >>> _email("ana@school.example"), _email("Ana"), _email("a@b")
    ('ana@school.example', '', '')
    """
    local, at, domain = name.partition("@")
    return name if at and local and "." in domain.strip(".") and " " not in name else ""
