"""A student's class session: join with a nickname, work through the assignment in order,
every answer kept in the progress store; a reload comes back to the same place.

The answer is built and judged by a :class:`~dekbovinoj_edu.sessions.practice.PracticeSession`
(:attr:`ClassSession.practice`), exactly as in the practice app; this model
decides the order of the puzzles, what test mode holds back, what counts,
and what is stored.

>>> from dekbovinoj_edu.classroom.assignment import codes_assignment
>>> from dekbovinoj_edu.classroom.store import SQLiteStore
>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> peter = Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)
>>> store = SQLiteStore(":memory:")
>>> store.add_class(codes_assignment("4a", f"{peter.code},{peter.code}", mode="test"))
>>> s = ClassSession("4a", store)
>>> s.join("Ana")
>>> s.counter()
'Puzzle 1 of 2'
>>> s.practice.type("13*2+3-9-3-7")
>>> s.submit().kind.value, s.puzzle_done
('solved', True)
>>> s.help_open  # a test: no hints or best answers before the end
False
>>> s.next()
>>> s.counter(), [a.verdict for a in store.attempts("4a")]
('Puzzle 2 of 2', ['ok'])
"""

from __future__ import annotations

import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..i18n import gettext, normalise_lang
from ..sessions.feedback import Feedback, FeedbackKind
from ..sessions.practice import Answer, PracticeSession
from .assignment import Assignment
from .attempts import MU_RIGHT, MU_TYPED, MU_WRONG, NOT_COUNTED, Attempt, utc_now
from .errors import DOMAIN, ClassroomError, NicknameError
from .overview import Cell, cell_of
from .store import ProgressStore, Seat

__all__ = [
    "HEARTBEAT_SECONDS",
    "LIVE_SECONDS",
    "MAX_NICKNAME",
    "ClassSession",
    "HelpLockedError",
    "Summary",
    "check_nickname",
]

MAX_NICKNAME = 20
"""The longest nickname, in characters."""

HEARTBEAT_SECONDS = 4.0
"""How often a student's open page tells the store it is still there."""

LIVE_SECONDS = 12.0
"""A nickname whose page gave a sign of life this recently is taken; after that, its
student may come back to it from another page (a reload, another computer)."""


class HelpLockedError(ClassroomError):
    """Test mode: hints and the best answers wait until the student has finished."""

    code = "locked"


def check_nickname(text: str) -> str:
    """A nickname, tidied: 1 to 20 characters, no control characters.

    >>> check_nickname("  Ana ")
    'Ana'
    >>> check_nickname("x" * 21)
    Traceback (most recent call last):
    ...
    dekbovinoj_edu.classroom.errors.NicknameError: A nickname has 1 to 20 characters.
    """
    nickname = unicodedata.normalize("NFC", text.strip())
    if not 1 <= len(nickname) <= MAX_NICKNAME:
        raise NicknameError("A nickname has 1 to {most} characters.", most=MAX_NICKNAME)
    if any(unicodedata.category(ch).startswith("C") for ch in nickname):
        raise NicknameError("A nickname cannot hold control characters.")
    return nickname


@dataclass(frozen=True)
class Summary:
    """A student's results at the end: one cell a puzzle, and the totals."""

    cells: tuple[Cell, ...]

    @property
    def solved(self) -> int:
        """Puzzles solved (a dek bovinoj or a right "mu!")."""
        return sum(cell.state.solved for cell in self.cells)

    @property
    def cards(self) -> int:
        """Cards the dek bovinoj took, over every puzzle."""
        return sum(cell.cards for cell in self.cells)

    @property
    def possible(self) -> int:
        """Cards the best answers take, over the puzzles done."""
        return sum(cell.best for cell in self.cells if cell.state.finished)


class ClassSession:
    """One student's work on a class's assignment, kept in ``store``.

    ``clock`` gives the time in seconds (``time.time``; tests pass their own);
    ``session`` names this screen (a random id by default); ``live``: see
    :data:`LIVE_SECONDS`.
    """

    def __init__(
        self,
        class_name: str,
        store: ProgressStore,
        *,
        lang: str = "en",
        clock: Callable[[], float] = time.time,
        session: str | None = None,
        live: float = LIVE_SECONDS,
    ) -> None:
        self.store = store
        self.live = live
        """Seconds a page's sign of life keeps its nickname taken (:data:`LIVE_SECONDS`)."""
        self.assignment: Assignment = store.assignment(class_name)
        self.clock = clock
        self.session_id = session or secrets.token_hex(8)
        self.seat: Seat | None = None
        self.shown = 1
        """The number of the puzzle on the screen (it stays there after it is done, until
        :meth:`next`)."""
        self.practice = PracticeSession(puzzle=self.assignment.puzzles[0], lang=lang)
        """The answer being built and judged, on the puzzle on the screen."""

    # ----------------------------------------------------------- where we are
    @property
    def lang(self) -> str:
        return self.practice.lang

    def set_lang(self, lang: str) -> None:
        """Speak another language from now on."""
        self.practice.set_lang(normalise_lang(lang))

    def _t(self, message: str, **values: object) -> str:
        return gettext(self.lang, DOMAIN, message, **values)

    @property
    def name(self) -> str:
        return self.assignment.name

    @property
    def count(self) -> int:
        """How many puzzles the assignment has."""
        return len(self.assignment.codes)

    @property
    def joined(self) -> bool:
        return self.seat is not None

    @property
    def nickname(self) -> str:
        return self.seat.nickname if self.seat else ""

    @property
    def finished(self) -> bool:
        """Whether every puzzle of the assignment is done."""
        return self.seat is not None and self.seat.puzzle > self.count

    @property
    def puzzle_done(self) -> bool:
        """Whether the puzzle on the screen is done (a dek bovinoj or a "mu!")."""
        return self.seat is not None and self.shown < self.seat.puzzle

    @property
    def help_open(self) -> bool:
        """Whether "Hint" and "Show the best answers" may be used: always in practice mode,
        in test mode only when every puzzle is done."""
        return not self.assignment.test or self.finished

    def counter(self) -> str:
        """``Puzzle 3 of 10``, in the student's language."""
        return self._t("Puzzle {number} of {count}", number=self.shown, count=self.count)

    def _need_seat(self) -> Seat:
        if self.seat is None:
            raise NicknameError("Join the class with your nickname first.")
        return self.seat

    # --------------------------------------------------------------- joining
    def join(self, nickname: str) -> None:
        """Join with ``nickname``, or come back to it: then the student continues where they
        were. ``NicknameError``/``NicknameTakenError`` (with ``message(lang)``) if not."""
        chosen = check_nickname(nickname)
        self.seat = self.store.join(self.name, chosen, self.session_id, self.clock(), self.live)
        self.shown = min(self.seat.puzzle, self.count)
        if self.finished:
            self.shown = self.count
        self.practice.begin(self.assignment.puzzles[self.shown - 1])
        self.practice.hints_given = 0 if self.puzzle_done else self.seat.hints

    def heartbeat(self) -> None:
        """The student's page is still open: keep their nickname theirs."""
        if self.seat is not None:
            self._save(replace(self.seat, last_seen=self.clock()))

    def _save(self, seat: Seat) -> None:
        self.seat = seat
        self.store.save_seat(seat)

    # ----------------------------------------------------------- answering
    def _record(self, answer: str, verdict: str, cards: int) -> None:
        seat = self._need_seat()
        now = self.clock()
        started = seat.started if self.shown == seat.puzzle else now
        self.store.record(
            Attempt(
                self.name,
                seat.nickname,
                self.shown,
                self.assignment.codes[self.shown - 1],
                answer,
                verdict,
                cards,
                self.practice.best_count,
                self.practice.hints_given,
                round(max(0.0, now - started), 1),
                utc_now(),
            )
        )

    def _finish_puzzle(self) -> None:
        seat = self._need_seat()
        now = self.clock()
        self._save(replace(seat, puzzle=self.shown + 1, started=now, hints=0, last_seen=now))

    def _done_message(self) -> Feedback:
        if self.finished:
            return Feedback(FeedbackKind.DONE, self._t("You have finished all the puzzles."))
        return Feedback(FeedbackKind.DONE, self._t("This puzzle is done: press Next puzzle."))

    def submit(self) -> Feedback:
        """ "Dek bovinoj!": check the answer, store the attempt, and end the puzzle if right.

        Malformed input (``syntax``, ``empty``, ``no-such-card``…) is stored but not
        counted as a wrong answer: the student fixes it and tries again.
        """
        self._need_seat()
        if self.puzzle_done:
            return self._done_message()
        typed = self.practice.text
        feedback = self.practice.submit()
        verdict = feedback.verdict
        code = str(verdict.code) if verdict is not None else "ok"
        cards = len(verdict.cards) if verdict is not None and verdict.ok else 0
        self._record(typed, code, cards)
        if code in NOT_COUNTED:
            note = self._t("This does not count as a wrong answer: correct it and try again.")
            return Feedback(FeedbackKind.UNREADABLE, f"{feedback.message}\n{note}", verdict)
        if feedback.kind is FeedbackKind.SOLVED:
            self._finish_puzzle()
        return feedback

    def mu(self) -> Feedback:
        """ "Mu!": claim there is no dek bovinoj; stored, and the puzzle ends either way."""
        self._need_seat()
        if self.puzzle_done:
            return self._done_message()
        feedback = self.practice.mu()
        right = feedback.kind is FeedbackKind.MU_RIGHT
        self._record(MU_TYPED, MU_RIGHT if right else MU_WRONG, 0)
        self._finish_puzzle()
        if not right and not self.help_open:
            return Feedback(FeedbackKind.MU_WRONG, self._t("No: there was a dek bovinoj."))
        return feedback

    def hint(self) -> Feedback:
        """The next hint on the puzzle on the screen; ``HelpLockedError`` in a test."""
        seat = self._need_seat()
        if not self.help_open:
            raise HelpLockedError("Hints and the best answers open when you have finished.")
        feedback = self.practice.hint()
        if not self.puzzle_done:
            self._save(replace(seat, hints=self.practice.hints_given, last_seen=self.clock()))
        return feedback

    def best_answers(self) -> tuple[Answer, ...]:
        """Every best answer to the puzzle on the screen; ``HelpLockedError`` in a test."""
        self._need_seat()
        if not self.help_open:
            raise HelpLockedError("Hints and the best answers open when you have finished.")
        return self.practice.best_answers

    def next(self) -> None:
        """Go on to the next puzzle, once the one on the screen is done."""
        seat = self._need_seat()
        if not self.puzzle_done or self.shown >= self.count:
            return
        self.shown = seat.puzzle
        self.practice.begin(self.assignment.puzzles[self.shown - 1])
        self._save(replace(seat, started=self.clock(), last_seen=self.clock()))

    def open_puzzle(self, number: int) -> None:
        """Look again at a done puzzle (at the end, to read its best answers)."""
        self._need_seat()
        if not self.finished or not 1 <= number <= self.count:
            return
        self.shown = number
        self.practice.begin(self.assignment.puzzles[number - 1])

    # ------------------------------------------------------------- summary
    def summary(self) -> Summary:
        """This student's results on every puzzle, from the store."""
        seat = self._need_seat()
        mine = self.store.attempts(self.name, seat.nickname)
        return Summary(
            tuple(cell_of(n, code, mine) for n, code in enumerate(self.assignment.codes, 1))
        )

    def summary_text(self) -> str:
        """The totals in one line, in the student's language."""
        summary = self.summary()
        return self._t(
            "Solved {solved} of {count} · Cards {cards} of {possible}",
            solved=summary.solved,
            count=self.count,
            cards=summary.cards,
            possible=summary.possible,
        )
