"""What the teacher sees, as plain data: each student's result on each puzzle, and each
puzzle's figures. The dashboard page, the notebook widget and the student's summary all
read it from the attempts the store keeps.

>>> from dekbovinoj_edu.classroom.attempts import Attempt
>>> def row(nick, verdict, cards=0, n=1):
...     return Attempt("4a", nick, n, "C", "…", verdict, cards, 6, 0, 10.0, "T")
>>> rows = [row("Ana", "colour"), row("Ana", "ok", 6), row("Bo", "colour"), row("Cy", "syntax")]
>>> o = ClassOverview.build(["Ana", "Bo", "Cy"], ["C"], rows)
>>> o.cell("Ana", 1).mark, o.cell("Bo", 1).mark, o.cell("Cy", 1).mark
('✓ 6/6', '✗ colour', '· syntax')
>>> s = o.stats[0]
>>> s.solved, s.best, s.mistake, s.mistake_count
(0.3333333333333333, 0.3333333333333333, 'colour', 2)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .attempts import MU_RIGHT, MU_WRONG, Attempt

if TYPE_CHECKING:
    from .store import ProgressStore

__all__ = ["Cell", "ClassOverview", "PuzzleStats", "cell_of", "class_overview"]


@dataclass(frozen=True)
class Cell:
    """One student's result on one puzzle, from their attempts at it."""

    number: int
    code: str
    attempts: tuple[Attempt, ...] = ()

    @property
    def final(self) -> Attempt | None:
        """The attempt that ended the puzzle (a dek bovinoj or a "mu!"), if any."""
        return next((a for a in self.attempts if a.finishes), None)

    @property
    def solved(self) -> bool:
        """A dek bovinoj or a right "mu!"."""
        return self.final is not None and self.final.solved

    @property
    def solved_best(self) -> bool:
        """Solved with as many cards as the best answer (or a right "mu!")."""
        final = self.final
        return final is not None and final.solved and final.cards >= final.best

    @property
    def mistakes(self) -> tuple[Attempt, ...]:
        """The counted wrong attempts (malformed input is not among them)."""
        return tuple(a for a in self.attempts if a.mistake)

    @property
    def malformed(self) -> tuple[Attempt, ...]:
        """The attempts that could not be read (not counted)."""
        return tuple(a for a in self.attempts if not a.counted)

    @property
    def last(self) -> Attempt | None:
        """The latest attempt."""
        return self.attempts[-1] if self.attempts else None

    @property
    def hints(self) -> int:
        """Hints used before the latest attempt."""
        return self.last.hints if self.last else 0

    @property
    def seconds(self) -> float:
        """Seconds on the puzzle, up to the attempt that ended it (or the latest)."""
        shown = self.final or self.last
        return shown.seconds if shown else 0.0

    @property
    def mark(self) -> str:
        """``✓ 5/6``, ``✓ mu``, ``✗ colour`` (the latest mistake), ``· syntax`` or empty."""
        final = self.final
        if final is not None and final.verdict == MU_RIGHT:
            return "✓ mu"
        if final is not None and final.solved:
            return f"✓ {final.cards}/{final.best}"
        if final is not None and final.verdict == MU_WRONG:
            return "✗ mu"
        if self.mistakes:
            return f"✗ {self.mistakes[-1].verdict}"
        if self.malformed:
            return f"· {self.malformed[-1].verdict}"
        return ""

    @property
    def state(self) -> str:
        """``solved``, ``wrong``, ``malformed`` or ``open``: how the cell is coloured."""
        if self.solved:
            return "solved"
        if self.final is not None or self.mistakes:
            return "wrong"
        return "malformed" if self.malformed else "open"


def cell_of(number: int, code: str, attempts: Iterable[Attempt]) -> Cell:
    """The cell of puzzle ``number`` from one student's attempts (any puzzle, oldest first)."""
    return Cell(number, code, tuple(a for a in attempts if a.puzzle == number))


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


@dataclass(frozen=True)
class ClassOverview:
    """Students × puzzles, and each puzzle's figures."""

    students: tuple[str, ...]
    codes: tuple[str, ...]
    cells: dict[tuple[str, int], Cell] = field(default_factory=dict)
    stats: tuple[PuzzleStats, ...] = ()
    attempt_count: int = 0

    @classmethod
    def build(
        cls, students: Sequence[str], codes: Sequence[str], attempts: Iterable[Attempt]
    ) -> ClassOverview:
        """The overview of ``students`` (in this order) on the puzzles of ``codes``."""
        mine: dict[tuple[str, int], list[Attempt]] = {}
        count = 0
        for attempt in attempts:
            mine.setdefault((attempt.nickname, attempt.puzzle), []).append(attempt)
            count += 1
        everyone = list(students)
        everyone += sorted({nick for nick, _ in mine} - set(everyone))
        cells = {
            (nick, number): Cell(number, code, tuple(mine.get((nick, number), ())))
            for nick in everyone
            for number, code in enumerate(codes, start=1)
        }
        stats = []
        for number, code in enumerate(codes, start=1):
            column = [cells[nick, number] for nick in everyone]
            mistakes = Counter(a.verdict for c in column for a in c.mistakes)
            common = mistakes.most_common(1)
            size = len(column) or 1
            stats.append(
                PuzzleStats(
                    number,
                    code,
                    sum(c.solved for c in column) / size,
                    sum(c.solved_best for c in column) / size,
                    common[0][0] if common else None,
                    common[0][1] if common else 0,
                )
            )
        return cls(tuple(everyone), tuple(codes), cells, tuple(stats), count)

    def cell(self, nickname: str, number: int) -> Cell:
        """The cell of one student and one puzzle (numbered from 1)."""
        return self.cells[nickname, number]


def class_overview(store: ProgressStore, class_name: str) -> ClassOverview:
    """The overview of a class now, from the store."""
    assignment = store.assignment(class_name)
    students = [seat.nickname for seat in store.seats(class_name)]
    return ClassOverview.build(students, assignment.codes, store.attempts(class_name))
