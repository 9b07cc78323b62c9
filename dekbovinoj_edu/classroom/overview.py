"""What the teacher sees, as plain data: each student's result on each puzzle, and each
puzzle's figures. The dashboard page, the notebook widget and the student's summary all
read it from the attempts the store keeps; the views choose the glyphs and the words.

>>> from dekbovinoj_edu.classroom.attempts import Attempt
>>> def row(nick, verdict, cards=0, n=1):
...     return Attempt("4a", nick, n, "C", "…", verdict, cards, 6, 0, 10.0, "T")
>>> rows = [row("Ana", "colour"), row("Ana", "ok", 6), row("Bo", "colour"), row("Cy", "syntax")]
>>> o = ClassOverview.build(["Ana", "Bo", "Cy", "Di"], ["C"], rows)
>>> [o.cell(nick, 1).state.value for nick in o.students]
['solved-best', 'wrong', 'unreadable', 'not-tried']
>>> ana = o.cell("Ana", 1)
>>> ana.verdict, ana.cards, ana.best, ana.attempts
('ok', 6, 6, 2)
>>> s = o.stats[0]
>>> s.solved, s.best, s.mistake, s.mistake_count
(0.25, 0.25, 'colour', 2)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TYPE_CHECKING

from .attempts import MU_RIGHT, MU_WRONG, Attempt
from .progress import Progress

if TYPE_CHECKING:
    from .assignment import Assignment
    from .store import ProgressStore

__all__ = [
    "Cell",
    "CellState",
    "ClassOverview",
    "PuzzleStats",
    "cell_of",
    "class_level",
    "class_overview",
    "columns_of",
]


class CellState(Enum):
    """Where one student stands on one puzzle."""

    NOT_TRIED = "not-tried"
    """No attempt yet."""
    UNREADABLE = "unreadable"
    """Only input that could not be read (``syntax``, ``empty``…): not counted as wrong."""
    WRONG = "wrong"
    """Counted wrong answers, and the puzzle is not done; the cell's verdict is the latest."""
    SOLVED = "solved"
    """A dek bovinoj with fewer cards than the best answer takes."""
    SOLVED_BEST = "solved-best"
    """A dek bovinoj with as many cards as the best answer."""
    MU_RIGHT = "mu-right"
    """A right "mu!": there is no dek bovinoj."""
    MU_WRONG = "mu-wrong"
    """A "mu!" although there was a dek bovinoj: the puzzle is done, not solved."""

    @property
    def solved(self) -> bool:
        """A dek bovinoj or a right "mu!"."""
        return self in (CellState.SOLVED, CellState.SOLVED_BEST, CellState.MU_RIGHT)

    @property
    def solved_best(self) -> bool:
        """Solved as well as it can be: with the best answer's cards, or a right "mu!"."""
        return self in (CellState.SOLVED_BEST, CellState.MU_RIGHT)

    @property
    def finished(self) -> bool:
        """The puzzle is done: solved, or a wrong "mu!"."""
        return self.solved or self is CellState.MU_WRONG


@dataclass(frozen=True)
class Cell:
    """One student's result on one puzzle, from their attempts at it."""

    number: int
    """The puzzle's number in the assignment, from 1."""
    code: str
    """The puzzle's code."""
    state: CellState = CellState.NOT_TRIED
    """Where the student stands on the puzzle."""
    verdict: str | None = None
    """The verdict code the state comes from: of the attempt that ended the puzzle, else of
    the latest counted mistake, else of the latest unreadable input (``None``: not tried)."""
    cards: int = 0
    """Cards the dek bovinoj took (0 unless solved with one)."""
    best: int = 0
    """Cards the best answer takes (0 when the right call is "mu!", or not tried)."""
    hints: int = 0
    """Hints used before the latest attempt."""
    seconds: float = 0.0
    """Seconds on the puzzle, up to the attempt that ended it (or the latest)."""
    attempts: int = 0
    """How many attempts the student made (unreadable ones too)."""
    last_answer: str | None = None
    """The latest answer, exactly as typed."""
    mistakes: int = 0
    """Counted wrong answers before the puzzle ended (or so far): a ✓ after two ✗ says so."""
    current: bool = False
    """The puzzle the student is on now (in class mode, where the seat says)."""


def _state(final: Attempt | None, shown: Attempt) -> CellState:
    """The state of a cell whose puzzle ended with ``final`` (if it did), showing ``shown``."""
    if final is None:
        return CellState.WRONG if shown.mistake else CellState.UNREADABLE
    if final.verdict == MU_RIGHT:
        return CellState.MU_RIGHT
    if final.verdict == MU_WRONG:
        return CellState.MU_WRONG
    return CellState.SOLVED_BEST if final.cards >= final.best else CellState.SOLVED


def cell_of(number: int, code: str, attempts: Iterable[Attempt]) -> Cell:
    """The cell of puzzle ``number`` from one student's attempts (any puzzle, oldest first).

    >>> from dekbovinoj_edu.classroom.attempts import Attempt
    >>> tries = [Attempt("4a", "Bo", 1, "C", a, v, 0, 6, 1, s, "T")
    ...          for a, v, s in [("13 +", "syntax", 5.0), ("13 + 9", "colour", 9.0)]]
    >>> bo = cell_of(1, "C", tries)
    >>> bo.state, bo.verdict, bo.attempts, bo.seconds, bo.last_answer
    (<CellState.WRONG: 'wrong'>, 'colour', 2, 9.0, '13 + 9')
    >>> cell_of(2, "D", tries).state
    <CellState.NOT_TRIED: 'not-tried'>
    """
    mine = [a for a in attempts if a.puzzle == number]
    if not mine:
        return Cell(number, code)
    last = mine[-1]
    final = next((a for a in mine if a.finishes), None)
    mistakes = [a for a in mine if a.mistake]
    shown = final or (mistakes[-1] if mistakes else last)
    return Cell(
        number,
        code,
        _state(final, shown),
        shown.verdict,
        final.cards if final is not None else 0,
        shown.best,
        last.hints,
        (final or last).seconds,
        len(mine),
        last.answer,
        sum(a.mistake for a in (mine[: mine.index(final)] if final is not None else mine)),
    )


@dataclass(frozen=True)
class PuzzleStats:
    """One puzzle's figures over the class's students."""

    number: int
    code: str
    solved: float
    """The share of the students who solved it (0 to 1)."""
    best: float
    """The share who solved it with the best answer."""
    mistake: str | None
    """The most common counted mistake (a verdict code), if any."""
    mistake_count: int = 0
    """How often that mistake was made."""
    reached: int = 0
    """How many students have reached the puzzle (are on it or past it, or tried it): the
    shares are of them, so a puzzle the class has not come to yet reads "—", not 0 %."""


@dataclass(frozen=True)
class ClassOverview:
    """Students × puzzles, and each puzzle's figures."""

    students: tuple[str, ...]
    """The nicknames, in the order they joined (then any who only left attempts)."""
    codes: tuple[str, ...]
    """The puzzles' codes, puzzle 1 first."""
    cells: dict[tuple[str, int], Cell] = field(default_factory=dict)
    """Each (nickname, puzzle number)'s cell."""
    stats: tuple[PuzzleStats, ...] = ()
    """Each puzzle's figures, puzzle 1 first."""
    attempt_count: int = 0
    """How many attempts the class made."""
    progress: dict[str, Progress] = field(default_factory=dict)
    """Each student's level at the start of the lesson and now, by nickname (those who
    answered at the class's level)."""

    @classmethod
    def build(
        cls,
        students: Sequence[str],
        codes: Sequence[str],
        attempts: Iterable[Attempt],
        current: Mapping[str, int] | None = None,
        progress: Mapping[str, Progress] | None = None,
    ) -> ClassOverview:
        """The overview of ``students`` (in this order) on the puzzles of ``codes``;
        ``current``: the puzzle each student is on now (their seat's; puzzle 1 for a student
        it does not name, since every student starts there).

        >>> o = ClassOverview.build(["Ana", "Bo"], ["C", "D"], [], current={"Ana": 2})
        >>> [s.reached for s in o.stats], o.cell("Ana", 2).current, o.cell("Bo", 1).current
        ([2, 1], True, True)
        """
        now = dict(current or {})
        mine: dict[tuple[str, int], list[Attempt]] = {}
        count = 0
        for attempt in attempts:
            mine.setdefault((attempt.nickname, attempt.puzzle), []).append(attempt)
            count += 1
        everyone = list(students)
        everyone += sorted({nick for nick, _ in mine} - set(everyone))
        cells = {
            (nick, number): replace(
                cell_of(number, code, mine.get((nick, number), ())),
                current=now.get(nick, 1) == number,
            )
            for nick in everyone
            for number, code in enumerate(codes, start=1)
        }
        stats = []
        for number, code in enumerate(codes, start=1):
            reached = [
                nick for nick in everyone if now.get(nick, 1) >= number or (nick, number) in mine
            ]
            column = [cells[nick, number].state for nick in reached]
            mistakes = Counter(
                a.verdict for nick in everyone for a in mine.get((nick, number), ()) if a.mistake
            )
            common = mistakes.most_common(1)
            size = len(column) or 1
            stats.append(
                PuzzleStats(
                    number,
                    code,
                    sum(state.solved for state in column) / size,
                    sum(state.solved_best for state in column) / size,
                    common[0][0] if common else None,
                    common[0][1] if common else 0,
                    len(column),
                )
            )
        return cls(tuple(everyone), tuple(codes), cells, tuple(stats), count, dict(progress or {}))

    def cell(self, nickname: str, number: int) -> Cell:
        """The cell of one student and one puzzle (numbered from 1)."""
        return self.cells[nickname, number]


def columns_of(assignment: Assignment) -> tuple[str, ...]:
    """The board's columns: the puzzles' codes, or one "" a puzzle when each student is dealt
    their own (at each student's level)."""
    return assignment.codes or ("",) * assignment.size


def class_level(assignment: Assignment) -> str:
    """The level (its name) whose abilities the board shows: the assignment's, or its first
    puzzle's."""
    return assignment.level or assignment.puzzles[0].level.name


def class_overview(store: ProgressStore, class_name: str) -> ClassOverview:
    """The overview of a class now, from the store."""
    assignment = store.assignment(class_name)
    seats = store.seats(class_name)
    current = {seat.nickname: seat.puzzle for seat in seats}
    students = [seat.nickname for seat in seats]
    progress = store.progress(assignment.name, class_level(assignment))
    return ClassOverview.build(
        students, columns_of(assignment), store.attempts(class_name), current, progress
    )
