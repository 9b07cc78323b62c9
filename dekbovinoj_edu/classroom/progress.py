"""A student's level on the teacher's board: each ability as a step from 1 to 10
(:func:`level_step`), at the start of the day's lesson and now (:class:`Progress`), never a
ranking. What the store learns is :mod:`~dekbovinoj_edu.classroom.store.learning`'s.

>>> level_step(START_ABILITY), level_step(-6.0), level_step(6.0)
(5, 1, 10)
"""

from __future__ import annotations

from dataclasses import dataclass

from ..dealing.learner import BAND_WIDTH, START_ABILITY

__all__ = [
    "LEVEL_STEPS",
    "Progress",
    "level_step",
]

LEVEL_STEPS = 10
"""The board's level runs from 1 to this; a new student is at 5, each step half a band."""


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
