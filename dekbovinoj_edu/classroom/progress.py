"""A student's level on the teacher's board: each ability as a step from 1 to 10
(:func:`level_step`), at the start of the day's lesson and now (:class:`Progress`), never a
ranking. What the store learns is :mod:`~dekbovinoj_edu.classroom.store.learning`'s.

Levels a teacher can trust (issue 39): a level is shown only once it is measured. A new
student's start is no measurement (it is the model's default), so the board shows "–" for it,
and "–" for the level now until :data:`~dekbovinoj_edu.dealing.learner.PLACEMENT` answers have
placed them; and the arrow shows a change only when it is larger than the estimate's
uncertainty (its standard deviation), so a step up or down that is only noise reads "→". A
strong student is marked "ready for level 2?" (:attr:`Progress.ready_for`).

>>> level_step(START_ABILITY), level_step(-6.0), level_step(6.0)
(5, 1, 10)
>>> new = Progress(START_ABILITY, 1.9, 2, spread=0.9, start_measured=False)
>>> new.start_text, new.now_text, new.arrow
('–', '–', '')
"""

from __future__ import annotations

from dataclasses import dataclass

from ..dealing.learner import BAND_WIDTH, PLACEMENT, START_ABILITY

__all__ = [
    "LEVEL_STEPS",
    "READY_SHARE",
    "UNMEASURED",
    "Progress",
    "level_step",
]

LEVEL_STEPS = 10
"""The board's level runs from 1 to this; a new student is at 5, each step half a band."""
UNMEASURED = "–"
"""What the board shows for a level not measured yet."""
READY_SHARE = 0.9
"""A placed student who solves 3 in 4 of at least this share of the level's puzzles is offered
the next level ("ready for level 2?")."""


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
    spread: float = 0.0
    """The uncertainty of the value now: its standard deviation."""
    start_measured: bool = True
    """Whether the start was measured (``False``: a new student's default)."""
    ready_for: str = ""
    """The next level's name when the student is ready for it (:data:`READY_SHARE`), else
    ``""``."""

    @property
    def start_step(self) -> int:
        """The level at the start of the lesson (:func:`level_step`)."""
        return level_step(self.start)

    @property
    def now_step(self) -> int:
        """The level now."""
        return level_step(self.now)

    @property
    def placed(self) -> bool:
        """Whether enough answers measured the level now (:data:`PLACEMENT`)."""
        return self.answers >= PLACEMENT

    @property
    def start_text(self) -> str:
        """The level at the start as the board shows it: "–" when not measured."""
        return str(self.start_step) if self.start_measured else UNMEASURED

    @property
    def now_text(self) -> str:
        """The level now as the board shows it: "–" until placed."""
        return str(self.now_step) if self.placed else UNMEASURED

    @property
    def arrow(self) -> str:
        """``↑``, ``↓`` or ``→``: how the level changed during the lesson, a change shown only
        when it exceeds the uncertainty; ``""`` when there is nothing to compare (the start or
        the level now not measured).

        >>> Progress(0.7, 1.9, 4).arrow, Progress(0.7, 0.7, 0).arrow
        ('↑', '')
        >>> Progress(0.7, 1.9, 4, spread=0.5).arrow, Progress(0.7, 1.9, 4, spread=1.3).arrow
        ('↑', '→')
        """
        if not (self.start_measured and self.placed):
            return ""
        if abs(self.now - self.start) <= self.spread or self.now_step == self.start_step:
            return "→"
        return "↑" if self.now_step > self.start_step else "↓"
