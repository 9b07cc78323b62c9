"""Fast guessing, as the teacher's board flags it: a student whose recent answers are mostly
wrong ones sent within seconds of the puzzle appearing is probably trying answers rather than
working them out. The board says so next to the name ("guessing?"), for the teacher to look;
the student never sees it, and it changes nothing of their level or score.

The rule: among a student's last :data:`WINDOW` attempts, at least :data:`WRONG` are mistakes
(wrong answers or a wrong "mu!"; not "I don't know", not a typing slip) each sent under
:data:`FAST_SECONDS` after the puzzle was shown. Attempts without a time (an older page's: 0 s)
never count.

>>> from dekbovinoj_edu.classroom.attempts import Attempt
>>> def tries(*timed):
...     return [Attempt("4a", "Bo", n, "C", "1+1", verdict, 0, 6, 0, s, "T")
...             for n, (verdict, s) in enumerate(timed, start=1)]
>>> guessing(tries(("value", 2.0), ("value", 1.5), ("colour", 3.0), ("value", 2.2)))
True
>>> guessing(tries(("value", 2.0), ("value", 12.0), ("colour", 3.0), ("value", 20.0)))
False
>>> guessing(tries(("value", 0.0), ("value", 0.0), ("value", 0.0), ("value", 0.0)))
False
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .attempts import Attempt

__all__ = ["FAST_SECONDS", "WINDOW", "WRONG", "guessers", "guessing"]

FAST_SECONDS = 4.0
"""A wrong answer sent sooner than this after the puzzle appeared is a quick one (children's
right answers take about 20 s on an average puzzle; reading the cards alone takes some)."""
WINDOW = 6
"""How many of a student's latest attempts the rule looks at."""
WRONG = 4
"""How many quick wrong answers among them make the board ask."""


def guessing(attempts: Sequence[Attempt]) -> bool:
    """Whether one student's ``attempts`` (oldest first) look like fast guessing."""
    recent = attempts[-WINDOW:]
    quick = sum(1 for a in recent if a.mistake and 0 < a.seconds < FAST_SECONDS)
    return quick >= WRONG


def guessers(attempts: Iterable[Attempt]) -> frozenset[str]:
    """The students whose attempts (the class's, oldest first) look like fast guessing."""
    mine: dict[str, list[Attempt]] = {}
    for attempt in attempts:
        mine.setdefault(attempt.nickname, []).append(attempt)
    return frozenset(name for name, theirs in mine.items() if guessing(theirs))
