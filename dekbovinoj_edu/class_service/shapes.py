"""The JSON the student API answers with: an assignment, a seat, an attempt (the shapes
``Assignment``, ``Seat`` and ``Attempt`` of ``openapi.json``).

A seat is shown without its session (only its own page has the token) and without the
times the store keeps for the teacher.

>>> from dekbovinoj_edu.classroom.attempts import Attempt
>>> from dekbovinoj_edu.classroom.seat import Seat
>>> seat_json(Seat("4a", "Ana", "ab12", 3, 0.0, 1, 0.0, "T"), count=2)
{'nickname': 'Ana', 'puzzle': 3, 'hints': 1, 'finished': True, 'count': 2, 'code': None}
>>> row = Attempt("4a", "Ana", 1, "C", "3+7", "ok", 2, 2, 0, 4.5, "2026-12-01T09:00:00Z")
>>> attempt_json(row, "a1b2c3d4")["solved"], attempt_json(row)["id"] is None
(True, True)
"""

from __future__ import annotations

from typing import Any

from ..classroom.assignment import Assignment
from ..classroom.attempts import Attempt
from ..classroom.seat import Joined, Recorded, Seat

__all__ = ["assignment_json", "attempt_json", "joined_json", "recorded_json", "seat_json"]


def assignment_json(assignment: Assignment) -> dict[str, Any]:
    """A class's assignment: its name, mode, how many puzzles, the level dealt, the codes
    (none when each student's puzzles are dealt at their level: ``at_level``)."""
    return {
        "name": assignment.name,
        "mode": assignment.mode,
        "count": assignment.size,
        "level": assignment.level,
        "codes": list(assignment.codes),
        "at_level": assignment.at_level,
        "target": assignment.chance if assignment.at_level else None,
    }


def seat_json(seat: Seat, count: int) -> dict[str, Any]:
    """A student's place: the puzzle they are on (``count + 1``: every puzzle done), and
    its code when it was dealt to them, with their own time limit on it (at each student's
    level: ``limit``, the stake bar's seconds)."""
    shown: dict[str, Any] = {
        "nickname": seat.nickname,
        "puzzle": seat.puzzle,
        "hints": seat.hints,
        "finished": seat.puzzle > count,
        "count": count,
        "code": seat.code or None,
    }
    if seat.limit > 0:
        shown["limit"] = seat.limit
    return shown


def attempt_json(
    attempt: Attempt, attempt_id: str | None = None, *, test: bool = False
) -> dict[str, Any]:
    """One attempt as kept, with the id its page gave it (``None`` where it is not known).
    In a ``test``, the best answer's size (``0``: "Mu!" is right) is ``None`` until the
    attempt ends the puzzle: a malformed answer, which does not count, tells nothing.

    >>> typo = Attempt("4a", "Ana", 1, "C", "3+", "incomplete", 0, 0, 0, 4.5, "T")
    >>> attempt_json(typo, test=True)["best"], attempt_json(typo)["best"]
    (None, 0)
    """
    shown = _attempt_fields(attempt, attempt_id)
    if test and not attempt.finishes:
        shown["best"] = None
    return shown


def _attempt_fields(attempt: Attempt, attempt_id: str | None) -> dict[str, Any]:
    return {
        "id": attempt_id,
        "puzzle": attempt.puzzle,
        "code": attempt.code,
        "answer": attempt.answer,
        "verdict": attempt.verdict,
        "cards": attempt.cards,
        "best": attempt.best,
        "hints": attempt.hints,
        "seconds": attempt.seconds,
        "time": attempt.time,
        "counted": attempt.counted,
        "finishes": attempt.finishes,
        "solved": attempt.solved,
    }


def joined_json(joined: Joined, count: int) -> dict[str, Any]:
    """What joining answers: the session's token, the seat's rejoin code, the seat."""
    return {
        "token": joined.token,
        "rejoin_code": joined.rejoin_code,
        "resumed": joined.resumed,
        "seat": seat_json(joined.seat, count),
    }


def recorded_json(recorded: Recorded, count: int, *, test: bool = False) -> dict[str, Any]:
    """What recording an attempt answers: the row kept and the seat after it."""
    return {
        "attempt": attempt_json(recorded.attempt, recorded.attempt_id, test=test),
        "seat": seat_json(recorded.seat, count),
    }
