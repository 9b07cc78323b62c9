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
>>> s.finished, s.solved_count, s.working, s.mistake, s.mistake_count
(1, 1, 3, 'colour', 2)

A puzzle's shares are of those who *finished* it (solved it, or ended it with a wrong
"mu!"): the students still on it are counted apart (:attr:`PuzzleStats.working`), so a
puzzle one student has just reached does not read 0 %.

>>> s.solved, s.best
(1.0, 1.0)

In a class at each student's level every student has their own puzzles: the columns are the
students' first, second… puzzle, not one puzzle each (:attr:`ClassOverview.own_puzzles`), so
the figures that mean something are each student's (:meth:`ClassOverview.tally`).

>>> own = ClassOverview.build(["Ana", "Bo"], ["", ""], rows)
>>> own.own_puzzles, own.cell("Ana", 1).code, own.tally("Ana"), own.tally("Bo")
(True, 'C', Tally(finished=1, solved=1, best=1), Tally(finished=0, solved=0, best=0))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TYPE_CHECKING

from .attempts import DONT_KNOW, MU_RIGHT, MU_WRONG, Attempt
from .guessing import guessers
from .progress import Progress

if TYPE_CHECKING:
    from .assignment import Assignment
    from .store import ProgressStore

__all__ = [
    "Cell",
    "CellState",
    "ClassOverview",
    "PuzzleStats",
    "Tally",
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
    DONT_KNOW = "dont-know"
    """ "I don't know": the puzzle is done, not solved, and no wrong answer."""

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
        """The puzzle is done: solved, a wrong "mu!", or "I don't know"."""
        return self.solved or self in (CellState.MU_WRONG, CellState.DONT_KNOW)


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
    if final.verdict == DONT_KNOW:
        return CellState.DONT_KNOW
    return CellState.SOLVED_BEST if final.cards >= final.best else CellState.SOLVED


def cell_of(number: int, code: str, attempts: Iterable[Attempt]) -> Cell:
    """The cell of puzzle ``number`` from one student's attempts (any puzzle, oldest first);
    ``code`` "" (each student has their own puzzles): the code of the attempts.

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
    code = code or last.code  # each student's own puzzle: the code it was dealt
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
class Tally:
    """How many puzzles were finished, solved, and solved with the best answer: one
    student's, or one puzzle's over the class."""

    finished: int = 0
    """Finished: solved, or ended with a wrong "mu!"."""
    solved: int = 0
    """Solved (a dek bovinoj or a right "mu!")."""
    best: int = 0
    """Solved with the best answer's cards, or a right "mu!"."""

    @classmethod
    def of(cls, states: Iterable[CellState]) -> Tally:
        """The tally of some cells' states.

        >>> Tally.of([CellState.SOLVED, CellState.MU_WRONG, CellState.WRONG])
        Tally(finished=2, solved=1, best=0)
        """
        done = [state for state in states if state.finished]
        return cls(len(done), sum(s.solved for s in done), sum(s.solved_best for s in done))


@dataclass(frozen=True)
class PuzzleStats:
    """One puzzle's figures over the class's students."""

    number: int
    code: str
    solved: float
    """The share of those who finished it that solved it (0 to 1; 0 while nobody has)."""
    best: float
    """The share of those who finished it that solved it with the best answer."""
    mistake: str | None
    """The most common counted mistake (a verdict code), if any."""
    mistake_count: int = 0
    """How often that mistake was made."""
    reached: int = 0
    """How many students have reached the puzzle (are on it or past it, or tried it)."""
    finished: int = 0
    """How many finished it (solved it, or ended it with a wrong "mu!"): the shares are of
    them, so a puzzle nobody has finished yet reads "—", not 0 %."""
    solved_count: int = 0
    """How many of them solved it."""
    best_count: int = 0
    """How many of them solved it with the best answer."""

    @property
    def working(self) -> int:
        """How many reached it and have not finished it: still on it."""
        return self.reached - self.finished


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
    guessing: frozenset[str] = frozenset()
    """The students whose recent answers look like fast guessing (:mod:`.guessing`)."""

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
        attempts = list(attempts)
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
            tally = Tally.of(cells[nick, number].state for nick in reached)
            mistakes = Counter(
                a.verdict for nick in everyone for a in mine.get((nick, number), ()) if a.mistake
            )
            common = mistakes.most_common(1)
            size = tally.finished or 1
            stats.append(
                PuzzleStats(
                    number,
                    code,
                    tally.solved / size,
                    tally.best / size,
                    common[0][0] if common else None,
                    common[0][1] if common else 0,
                    len(reached),
                    tally.finished,
                    tally.solved,
                    tally.best,
                )
            )
        return cls(
            tuple(everyone),
            tuple(codes),
            cells,
            tuple(stats),
            count,
            dict(progress or {}),
            guessers(attempts),
        )

    def cell(self, nickname: str, number: int) -> Cell:
        """The cell of one student and one puzzle (numbered from 1)."""
        return self.cells[nickname, number]

    @property
    def own_puzzles(self) -> bool:
        """Each student has their own puzzles (a class at each student's level): a column
        is each student's first, second… puzzle, a different one for each."""
        return bool(self.codes) and not any(self.codes)

    def tally(self, nickname: str) -> Tally:
        """One student's tally over their puzzles."""
        numbers = range(1, len(self.codes) + 1)
        return Tally.of(self.cells[nickname, n].state for n in numbers)


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
