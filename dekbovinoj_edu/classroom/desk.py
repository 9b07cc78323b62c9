"""The class's desk: what a student's page may ask of a class, decided by the package itself.

The class service answers every request of the student API with a :class:`ClassDesk`, and
a notebook on the teacher's own computer uses one directly. The desk holds the class's
rules over the progress store: a nickname is checked before it is taken, a new page gets a
random session token, and an attempt is judged here, with the checker and the solver, from
the text the student typed, so a page can claim neither a verdict nor a puzzle it has not
reached. An attempt comes with an id chosen by the page: sent again (the answer was lost
on the way back), it is the same row, never a second one.

>>> from dekbovinoj_edu.classroom.assignment import codes_assignment
>>> from dekbovinoj_edu.classroom.store import SQLiteStore
>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> peter = Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)
>>> store = SQLiteStore(":memory:")
>>> store.add_class(codes_assignment("4a", f"{peter.code},{peter.code}"))
>>> desk = ClassDesk(store, "4a", clock=lambda: 1000.0)
>>> ana = desk.join("Ana")
>>> ana.resumed, ana.seat.puzzle, len(ana.rejoin_code)
(False, 1, 9)
>>> first = desk.attempt(ana.token, "a1", 1, "13*2+3-9-3-7")
>>> first.attempt.verdict, first.attempt.cards, first.attempt.best, first.seat.puzzle
('ok', 6, 6, 2)
>>> again = desk.attempt(ana.token, "a1", 1, "13*2+3-9-3-7")   # the same id: a resend
>>> again.new, len(store.attempts("4a"))
(False, 1)
>>> desk.attempt(ana.token, "a2", 1, "3+7")
Traceback (most recent call last):
...
dekbovinoj_edu.classroom.errors.PuzzleNotOpenError: ...
>>> desk.join("ana").seat.nickname
Traceback (most recent call last):
...
dekbovinoj_edu.classroom.errors.NicknameTakenError: ...
>>> desk.join("ANA", ana.rejoin_code).seat.puzzle   # her code: her place, on a new page
2
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import replace

from ..checking.checker import check
from ..rules.puzzle import Puzzle
from ..solving.solver import solve
from .assignment import Assignment
from .attempts import MU_RIGHT, MU_TYPED, MU_WRONG, SOLVED, Attempt, utc_now
from .errors import PuzzleNotOpenError
from .nicknames import check_nickname
from .seat import Joined, Recorded, Seat, new_token
from .store import ProgressStore

__all__ = ["MAX_HINTS", "MAX_SECONDS", "ClassDesk"]

MAX_HINTS = 20
"""The most hints an attempt can say were used (more is kept as this many)."""

MAX_SECONDS = 86_400.0
"""The longest time an attempt can say it took (a day; more is kept as this)."""


class ClassDesk:
    """The student side of class ``name`` in ``store``; ``clock`` gives seconds since the epoch.

    Safe to share between threads: the store is, and each puzzle's best answer is worked out
    once, under that puzzle's own lock.
    """

    def __init__(
        self, store: ProgressStore, name: str, *, clock: Callable[[], float] = time.time
    ) -> None:
        self.store = store
        self.assignment: Assignment = store.assignment(name)
        self.clock = clock
        self._best: dict[int, int] = {}
        self._solving = [threading.Lock() for _ in self.assignment.codes]

    @property
    def name(self) -> str:
        """The class's name."""
        return self.assignment.name

    @property
    def count(self) -> int:
        """How many puzzles the assignment has."""
        return len(self.assignment.codes)

    def puzzle(self, number: int) -> Puzzle:
        """Puzzle ``number`` (from 1); ``PuzzleNotOpenError`` outside the assignment."""
        if not 1 <= number <= self.count:
            raise PuzzleNotOpenError("There is no puzzle {number} in this class.", number=number)
        return self.assignment.puzzles[number - 1]

    def best(self, number: int) -> int:
        """How many cards the best answer to puzzle ``number`` takes (0: the right call is mu).

        >>> from dekbovinoj_edu.classroom.assignment import codes_assignment
        >>> from dekbovinoj_edu.classroom.store import SQLiteStore
        >>> store = SQLiteStore(":memory:")
        >>> store.add_class(codes_assignment("4a", Puzzle.parse("3♠ 7♣ | 2♦", level=1).code))
        >>> ClassDesk(store, "4a").best(1)
        2
        """
        puzzle = self.puzzle(number)
        known = self._best.get(number)
        if known is not None:
            return known
        with self._solving[number - 1]:  # one solver per puzzle; the others are not held up
            if number not in self._best:
                solution = solve(puzzle)
                self._best[number] = 0 if solution is None else len(solution.cards)
            return self._best[number]

    # --------------------------------------------------------------- seats
    def join(self, nickname: str, rejoin_code: str | None = None) -> Joined:
        """Take a seat with ``nickname``, or come back to it with its ``rejoin_code``.

        ``NicknameError`` for a nickname the class does not take, ``NicknameTakenError`` when
        it (or one that looks the same) is someone else's and the code is missing or wrong.
        """
        chosen = check_nickname(nickname)
        return self.store.join(self.name, chosen, new_token(), self.clock(), rejoin_code)

    def place(self, token: str) -> Seat:
        """Where the student of ``token`` is; ``SeatTakenError`` if the seat went elsewhere."""
        return self.store.seat_of(self.name, token)

    def alive(self, token: str, hints: int | None = None) -> Seat:
        """The page of ``token`` is still open (and has used ``hints`` on its puzzle)."""
        kept = None if hints is None else max(0, min(hints, MAX_HINTS))
        return self.store.touch(self.name, token, self.clock(), kept)

    def gone(self, token: str) -> None:
        """The page of ``token`` was closed."""
        self.store.leave(self.name, token)

    def mine(self, token: str) -> list[Attempt]:
        """Every attempt of the student of ``token``, oldest first."""
        seat = self.place(token)
        return self.store.attempts(self.name, seat.nickname)

    # ------------------------------------------------------------ attempts
    def judge(self, number: int, answer: str, *, joker: bool = False, mu: bool = False) -> Attempt:
        """The row an attempt at puzzle ``number`` makes, judged here (no seat yet: the store
        fills in the nickname and checks the puzzle is the student's).

        >>> from dekbovinoj_edu.classroom.assignment import codes_assignment
        >>> from dekbovinoj_edu.classroom.store import SQLiteStore
        >>> store = SQLiteStore(":memory:")
        >>> store.add_class(codes_assignment("4a", Puzzle.parse("3♠ 7♣ | 2♦", level=1).code))
        >>> desk = ClassDesk(store, "4a")
        >>> [desk.judge(1, text).verdict for text in ("3+7", "3+", "3+7-2")]
        ['ok', 'syntax', 'not-target']
        >>> desk.judge(1, "", mu=True).verdict, desk.judge(1, "", mu=True).answer
        ('mu-wrong', 'mu!')
        """
        puzzle = self.puzzle(number)
        best = self.best(number)
        if mu:
            verdict, cards, typed = (MU_RIGHT if best == 0 else MU_WRONG), 0, MU_TYPED
        else:
            judged = check(puzzle, answer, joker=joker)
            verdict = SOLVED if judged.ok else str(judged.code)
            cards = len(judged.cards) if judged.ok else 0
            typed = answer  # the store keeps at most the checker's length
        return Attempt(
            self.name, "", number, self.assignment.codes[number - 1], typed, verdict, cards,
            best, 0, 0.0, utc_now(),
        )  # fmt: skip

    def attempt(
        self,
        token: str,
        attempt_id: str,
        number: int,
        answer: str,
        *,
        joker: bool = False,
        mu: bool = False,
        hints: int = 0,
        seconds: float = 0.0,
    ) -> Recorded:
        """Judge and keep one attempt of the student of ``token`` (``mu``: the "Mu!" button).

        A known ``attempt_id`` returns the row kept the first time and writes nothing.
        ``PuzzleNotOpenError`` for a puzzle that is not the student's current one,
        ``SeatTakenError`` when the seat went to another page.
        """
        row = replace(
            self.judge(number, answer, joker=joker, mu=mu),
            hints=max(0, min(hints, MAX_HINTS)),
            seconds=round(max(0.0, min(seconds, MAX_SECONDS)), 1),
        )
        return self.store.record(self.name, token, attempt_id, row, self.clock())
