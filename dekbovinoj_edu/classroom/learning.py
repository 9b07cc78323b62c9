"""What a class learns from an attempt that ends a puzzle: the student's ability and the
puzzle's rating, by the learner model (:mod:`~dekbovinoj_edu.dealing.learner`).

The class's store applies :func:`~dekbovinoj_edu.dealing.learner.update` when an
attempt resolves a puzzle (:attr:`~.attempts.Attempt.finishes`), with the
:class:`~dekbovinoj_edu.dealing.learner.Response` made here from what the store
itself knows, never from what the page claims:

- the **time** is the server's: from when the seat reached the puzzle to the
  attempt (the model caps it at the puzzle's limit, so a puzzle left open for an
  hour scores as one answered at the limit);
- the **outcome**: a dek bovinoj with the best answer's cards or a right "mu!" is
  ``BEST``, one with fewer cards ``FEWER``, a wrong "mu!" ``WRONG``; a puzzle whose
  whole answer a hint showed first (:data:`REVEALING_HINT`, or the first hint of a
  puzzle without a dek bovinoj) is ``SHOWN``, whatever was typed after;
- the **mistakes**: the counted wrong answers before it, on that puzzle.

The teacher's board shows each student's level as a step from 1 to 10
(:func:`level_step`), at the start of the day's lesson and now: never a ranking.

>>> from dataclasses import replace
>>> from dekbovinoj_edu.classroom.attempts import Attempt
>>> row = Attempt("4a", "Ana", 1, "C", "3+7", "ok", 2, 2, 0, 1.0, "T")
>>> response_of(row, mistakes=1, seconds=3600.0)
Response(outcome=<Outcome.BEST: 'best'>, seconds=3600.0, hints=0, mistakes=1)
>>> response_of(replace(row, hints=4), 0, 5.0).outcome
<Outcome.SHOWN: 'shown'>
>>> level_step(START_ABILITY), level_step(-6.0), level_step(6.0)
(5, 1, 10)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..dealing.learner import BAND_WIDTH, START_ABILITY, Outcome, Response
from .attempts import MU_RIGHT, MU_WRONG, SOLVED, Attempt

__all__ = [
    "LEVEL_STEPS",
    "REVEALING_HINT",
    "Progress",
    "level_step",
    "response_of",
]

REVEALING_HINT = 4
"""The hint that shows the whole answer (the practice session's last)."""

LEVEL_STEPS = 10
"""The board's level runs from 1 to this; a new student is at 5, each step half a band."""


def response_of(attempt: Attempt, mistakes: int, seconds: float) -> Response:
    """The learner model's view of ``attempt``, which ends its puzzle, after ``mistakes``
    counted wrong answers on it and ``seconds`` on the server's clock."""
    shown = attempt.hints >= REVEALING_HINT or (attempt.best == 0 and attempt.hints >= 1)
    if attempt.verdict == MU_WRONG:
        outcome = Outcome.WRONG
    elif shown:
        outcome = Outcome.SHOWN
    elif attempt.verdict == SOLVED and attempt.cards < attempt.best:
        outcome = Outcome.FEWER
    elif attempt.verdict in (SOLVED, MU_RIGHT):
        outcome = Outcome.BEST
    else:
        raise ValueError(f"attempt {attempt.verdict!r} does not end a puzzle")
    return Response(outcome, max(0.0, seconds), max(0, attempt.hints), max(0, mistakes))


def level_step(value: float) -> int:
    """An ability as the board's level, 1 to :data:`LEVEL_STEPS`: 5 for a new student, one
    more for every half band (:data:`~dekbovinoj_edu.dealing.learner.BAND_WIDTH`) harder the
    puzzles they solve 3 times in 4."""
    step = 5 + round((value - START_ABILITY) / (BAND_WIDTH / 2))
    return max(1, min(LEVEL_STEPS, step))


@dataclass(frozen=True)
class Progress:
    """One student's ability at the class's level: at the start of the day's lesson, now."""

    start: float
    """The value before the day's first answer."""
    now: float
    """The value now."""
    answers: int
    """How many answers it was learnt from, in all."""

    @property
    def start_step(self) -> int:
        """The level at the start of the lesson (:func:`level_step`)."""
        return level_step(self.start)

    @property
    def now_step(self) -> int:
        """The level now."""
        return level_step(self.now)

    @property
    def arrow(self) -> str:
        """``↑``, ``↓`` or ``→``: how the level changed during the lesson.

        >>> Progress(0.7, 1.9, 4).arrow, Progress(0.7, 0.7, 0).arrow
        ('↑', '→')
        """
        if self.now_step > self.start_step:
            return "↑"
        if self.now_step < self.start_step:
            return "↓"
        return "→"
