"""A student's class session: join with a nickname, work through the assignment in order,
every answer kept by the class; a reload comes back to the same place.

The session is handed a :class:`~.backend.Backend` and asks it, never its type: a
:class:`~dekbovinoj_edu.classroom.store.desk.ClassDesk` in this process, or a
:class:`~dekbovinoj_edu.classroom.client.ClassClient`, the same methods through the class
service's API (:func:`~.backend.open_backend` opens the one a place names). The backend
judges and keeps every attempt itself; the answer is also built and judged here, by a
:class:`~dekbovinoj_edu.sessions.practice.PracticeSession` (:attr:`ClassSession.practice`),
so the student sees the feedback at once, even while the class service is out of reach
(the attempt then waits in the client's queue and is kept when the service is back). This
model decides the order of the puzzles, what test mode holds back and what counts.

Joining gives the seat a rejoin code (:attr:`ClassSession.rejoin_code`): with it the
student takes the seat up again on another page, and only with it. In a class "at each
student's level" the puzzles are the seat's own: the class deals each one when the
student reaches it (the seat's ``code``), and the session shows that one.

>>> from dekbovinoj_edu.classroom.assignment import codes_assignment
>>> from dekbovinoj_edu.classroom.store import SQLiteStore
>>> from dekbovinoj_edu.classroom.store.desk import ClassDesk
>>> from dekbovinoj_edu.rules.puzzle import Puzzle
>>> peter = Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)
>>> store = SQLiteStore(":memory:")
>>> store.add_class(codes_assignment("4a", f"{peter.code},{peter.code}", mode="test"))
>>> s = ClassSession("4a", ClassDesk(store, "4a"))
>>> s.join("Ana")
>>> s.counter(), len(s.rejoin_code)
('Puzzle 1 of 2', 9)
>>> s.practice.type("13*2+3-9-3-7")
>>> s.submit().kind.value, s.puzzle_done
('solved', True)
>>> s.help_open  # a test: no hints or best answers before the end
False
>>> s.next()
>>> s.counter(), [a.verdict for a in store.attempts("4a")]
('Puzzle 2 of 2', ['ok'])
>>> again = ClassSession("4a", ClassDesk(store, "4a"))   # a reload, or another computer
>>> again.join("ana", s.rejoin_code)
>>> again.resumed, again.counter()
(True, 'Puzzle 2 of 2')
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypeVar

from ..dealing.teaching import REVEALING_HINT
from ..i18n import gettext, normalise_lang
from ..rules.puzzle import Puzzle
from ..sessions.feedback import Feedback, FeedbackKind
from ..sessions.learning import Stake
from ..sessions.practice import Answer, PracticeSession
from .assignment import Assignment
from .attempts import (
    DONT_KNOW,
    DONT_KNOW_TYPED,
    MU_RIGHT,
    MU_TYPED,
    MU_WRONG,
    NOT_COUNTED,
    Attempt,
    utc_now,
)
from .backend import Backend
from .client import new_attempt_id
from .errors import (
    DOMAIN,
    ClassroomError,
    NicknameError,
    PuzzleNotOpenError,
    SeatTakenError,
    UnknownSessionError,
)
from .keeping import KeptSeat
from .nicknames import MAX_NICKNAME, check_nickname
from .overview import Cell, cell_of
from .seat import Joined, Seat, normalise_rejoin_code
from .transport import OfflineError, ServiceRefusalError

__all__ = [
    "HEARTBEAT_SECONDS",
    "MAX_NICKNAME",
    "Backend",
    "ClassSession",
    "HelpLockedError",
    "Summary",
    "check_nickname",
]

HEARTBEAT_SECONDS = 4.0
"""How often a student's open page gives a sign of life (and sends what waits)."""

T = TypeVar("T")


class HelpLockedError(ClassroomError):
    """Test mode: hints and the best answers wait until the student has finished."""

    code = "locked"


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
    """One student's work on class ``class_name``'s assignment, through ``backend``: a
    :class:`Backend`, or a store (a desk on it is made here).

    ``clock`` gives the time in seconds (``time.time``; tests pass their own);
    ``hub_user``: the student's name on a JupyterHub (:meth:`join_hub`).
    """

    def __init__(
        self,
        class_name: str,
        backend: Backend,
        *,
        lang: str = "en",
        clock: Callable[[], float] = time.time,
        hub_user: str | None = None,
    ) -> None:
        self.hub_user = hub_user
        """On a JupyterHub: the student's hub name. They are that user: :meth:`join_hub`
        takes their seat, and they type no nickname."""
        self.backend: Backend = backend
        self.assignment: Assignment = backend.assignment
        self.clock = clock
        self.seat: Seat | None = None
        self.token = ""
        """This page's session token (the seat's, while the page holds it)."""
        self.rejoin_code = ""
        """The seat's rejoin code, as shown (``K7QM-2XHD``): the student keeps it."""
        self.resumed = False
        """Whether joining took up a seat that was there before."""
        self.shown = 1
        """The number of the puzzle on the screen (it stays there after it is done, until
        :meth:`next`)."""
        self._started = clock()
        self._acknowledged: list[Attempt] = []
        self._waiting: dict[str, Attempt] = {}
        self._codes: dict[int, str] = {}
        """At each student's level: the codes of the seat's own puzzles, by number."""
        if self.assignment.at_level:  # the seat's first puzzle comes when it joins
            first = PracticeSession(self.assignment.level, lang=lang, seed=0)
        else:
            first = PracticeSession(puzzle=self.assignment.puzzles[0], lang=lang)
        self.practice = first
        """The answer being built and judged, on the puzzle on the screen."""
        self.set_lang(lang)

    # ----------------------------------------------------------- where we are
    @property
    def lang(self) -> str:
        return self.practice.lang

    def set_lang(self, lang: str) -> None:
        """Speak another language from now on (the class service's sentences too)."""
        self.practice.set_lang(normalise_lang(lang))
        self.backend.lang = self.practice.lang

    def _t(self, message: str, **values: object) -> str:
        return gettext(self.lang, DOMAIN, message, **values)

    @property
    def name(self) -> str:
        return self.assignment.name

    @property
    def count(self) -> int:
        """How many puzzles the assignment has."""
        return self.assignment.size

    def code(self, number: int) -> str:
        """The code of puzzle ``number``: the list's, or the seat's own at each student's
        level ("" while it is not known here: not dealt yet, or the class out of reach)."""
        if not self.assignment.at_level:
            return self.assignment.code(number)
        return self._codes.get(number, "")

    def _note(self, seat: Seat | None = None, attempts: list[Attempt] | None = None) -> None:
        """Remember the seat's own puzzles: the one it is on, and those of its attempts."""
        if seat is not None and seat.code:
            self._codes[seat.puzzle] = seat.code
        for attempt in attempts or ():
            if attempt.code:
                self._codes.setdefault(attempt.puzzle, attempt.code)

    def _puzzle(self, number: int) -> Puzzle | None:
        code = self.code(number)
        return Puzzle.from_code(code) if code else None

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

    def stake(self) -> Stake | None:
        """What is still at stake on the puzzle in front of the student, at each student's
        level (their own time limit, :attr:`~.seat.Seat.limit`, from when the page showed the
        puzzle): a calm bar drains over it; ``None`` where time earns nothing, once the puzzle
        is done, or once the limit has passed."""
        seat = self.seat
        if seat is None or seat.limit <= 0 or self.shown != seat.puzzle:
            return None
        spent = max(0.0, self.clock() - self._started)
        if spent >= seat.limit:
            return None
        return Stake(1.0 - spent / seat.limit, seat.limit - spent)

    @property
    def help_open(self) -> bool:
        """Whether "Hint" and "Show the best answers" may be used: always in practice mode,
        in test mode only when every puzzle is done."""
        return not self.assignment.test or self.finished

    @property
    def waiting(self) -> int:
        """How many attempts wait to be sent to the class service (0 with a local desk)."""
        return len(self._unsent())

    @property
    def kept(self) -> KeptSeat | None:
        """The seat this page held before a reload (the page's storage remembers it), to take
        up again at once (:meth:`resume`), while the session has not joined."""
        return None if self.joined else self.backend.kept

    @property
    def remembered(self) -> KeptSeat | None:
        """The seat last held on this page (its nickname and code fill in the join screen)."""
        return None if self.joined else self.backend.remembered

    @property
    def from_lms(self) -> bool:
        """Whether the school's LMS gave this page its seat: the student is who the LMS says
        (nothing to keep, nobody else to be on this page)."""
        return self.backend.from_lms

    def counter(self) -> str:
        """``Puzzle 3 of 10``, in the student's language."""
        return self._t("Puzzle {number} of {count}", number=self.shown, count=self.count)

    def _need_seat(self) -> Seat:
        if self.seat is None:
            raise NicknameError("Join the class with your nickname first.")
        return self.seat

    def _unsent(self) -> frozenset[str]:
        return self.backend.pending_ids()

    # --------------------------------------------------------------- joining
    def join(self, nickname: str, rejoin_code: str | None = None) -> None:
        """Join with ``nickname``, or come back to its seat with its ``rejoin_code``: then the
        student continues where they were. ``NicknameError`` / ``NicknameTakenError`` (with
        ``message(lang)``) if not."""
        chosen = check_nickname(nickname)
        code = normalise_rejoin_code(rejoin_code) if rejoin_code and rejoin_code.strip() else None
        self._take(self.backend.join(chosen, code))

    def join_hub(self) -> None:
        """Take the seat of the hub user :attr:`hub_user` (the backend sends their server's
        token; the service gives that user's seat only)."""
        if not self.hub_user:
            raise NicknameError("Join the class with your nickname first.")
        self._take(self.backend.join(self.hub_user, None))

    def resume(self) -> bool:
        """Take up the seat this page held before a reload (:attr:`kept`), at once; False if
        there is none. A seat its code no longer opens (the teacher let it go) is forgotten,
        and the refusal raised; a service that does not answer now is only raised."""
        kept = self.kept
        if kept is None:
            return False
        try:
            joined = self.backend.join(kept.nickname, kept.rejoin_code)
        except NicknameError:  # NicknameTakenError: the code opens that seat no more
            self.backend.forget_kept()
            raise
        self._take(joined)
        return True

    def _take(self, joined: Joined) -> None:
        self.token = joined.token
        self.rejoin_code = joined.rejoin_code
        self.resumed = joined.resumed
        self._waiting = {}
        self._acknowledged = []
        self._codes = {}
        if joined.resumed:
            try:
                self._acknowledged = self.backend.mine(joined.token)
            except OfflineError:
                self._acknowledged = []
        self._note(attempts=self._acknowledged)
        self._arrive(joined.seat)

    def _arrive(self, seat: Seat) -> None:
        """Show the puzzle ``seat`` is on (the last one's results when it has finished)."""
        self._note(seat)
        self.seat = seat
        self.shown = min(seat.puzzle, self.count)
        puzzle = self._puzzle(self.shown)
        if puzzle is not None:
            self.practice.begin(puzzle)
        self.practice.hints_given = 0 if self.puzzle_done else seat.hints
        self._started = self.clock()

    def leave(self) -> None:
        """The student leaves this page's seat (a computer the class shares: the next student
        joins with their own nickname). The page forgets the seat's code; what waits is sent
        first, and otherwise at the next join, with the seat's own token."""
        if self.seat is None:
            return
        with contextlib.suppress(ClassroomError):
            self.backend.gone(self.token)
        self.seat = None
        self.token = ""
        self.rejoin_code = ""
        self._waiting = {}
        self.backend.forget_kept()

    def _lose(self) -> None:
        """Another page has the seat now (or the teacher released it): this one has none."""
        self.seat = None
        self.token = ""
        self._waiting = {}
        self.backend.forget_seat()

    def _ask(self, call: Callable[[], T]) -> T:
        """A call to the backend; a seat lost on the way is let go of, then raised."""
        try:
            return call()
        except (SeatTakenError, UnknownSessionError):
            self._lose()
            raise

    def heartbeat(self) -> bool:
        """The student's page is still open: say so (what waits is sent first). True when
        the class moved the student (the teacher reset the seat, say): show it again.
        ``SeatTakenError`` when the seat is no longer this page's; ``OfflineError`` when the
        service does not answer (the next beat tries again)."""
        if self.seat is None:
            return False
        seat = self._ask(lambda: self.backend.alive(self.token))
        return self._settle(seat)

    def _settle(self, seat: Seat | None = None) -> bool:
        """Attempts acknowledged since they were made count as kept; one the service refused
        means this page was ahead of it: its place is asked again. Returns whether the
        student was moved."""
        unsent = self._unsent()
        refused = self.backend.refused
        wrong = False
        for attempt_id in [known for known in self._waiting if known not in unsent]:
            row = self._waiting.pop(attempt_id)
            if attempt_id in refused:
                wrong = True
            else:
                self._acknowledged.append(row)
        if wrong and seat is None:
            seat = self._ask(lambda: self.backend.place(self.token))
        self._note(seat)
        if seat is None or self.seat is None or self._waiting:
            return False
        if seat.puzzle != self.seat.puzzle:
            self._arrive(seat)
            return True
        return False

    # ----------------------------------------------------------- answering
    def _record(
        self,
        answer: str,
        verdict: str,
        cards: int,
        *,
        finishes: bool,
        mu: bool = False,
        dont_know: bool = False,
    ) -> bool:
        """Send one attempt (``finishes``: it ends the puzzle, as judged here); True once the
        class kept it, False while it waits to be sent."""
        seat = self._need_seat()
        attempt_id = new_attempt_id()
        seconds = round(max(0.0, self.clock() - self._started), 1)
        hints = self.practice.hints_given
        joker = self.practice.joker and not mu
        try:
            recorded = self._ask(
                lambda: self.backend.attempt(
                    self.token,
                    attempt_id,
                    self.shown,
                    answer,
                    joker=joker,
                    mu=mu,
                    hints=hints,
                    seconds=seconds,
                    dont_know=dont_know,
                )
            )
        except PuzzleNotOpenError:
            self._arrive(self._ask(lambda: self.backend.place(self.token)))
            raise
        if recorded is None:
            self._waiting[attempt_id] = Attempt(
                self.name,
                seat.nickname,
                self.shown,
                self.code(self.shown),
                answer,
                verdict,
                cards,
                self.practice.best_count,
                hints,
                seconds,
                utc_now(),
            )
            if finishes:
                self.seat = replace(seat, puzzle=self.shown + 1, hints=0)
            self._settle()
            return False
        self._acknowledged.append(recorded.attempt)
        self.seat = recorded.seat
        self._note(recorded.seat)
        self._settle()
        return True

    def _waits(self, feedback: Feedback) -> Feedback:
        note = self._t(
            "The class computer is not answering: this answer waits here and is sent when "
            "it is back."
        )
        return dataclasses.replace(feedback, message=f"{feedback.message}\n{note}")

    def _done_message(self) -> Feedback:
        if self.finished:
            return Feedback(FeedbackKind.DONE, self._t("You have finished all the puzzles."))
        return Feedback(FeedbackKind.DONE, self._t("This puzzle is done: press Next puzzle."))

    def submit(self) -> Feedback:
        """ "Dek bovinoj!": check the answer, send the attempt, and end the puzzle if right.

        Malformed input (``syntax``, ``empty``, ``no-such-card``…) is kept too, but not
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
        kept = self._record(typed, code, cards, finishes=feedback.kind is FeedbackKind.SOLVED)
        if code in NOT_COUNTED:
            note = self._t("This does not count as a wrong answer: correct it and try again.")
            feedback = Feedback(FeedbackKind.UNREADABLE, f"{feedback.message}\n{note}", verdict)
        return feedback if kept else self._waits(feedback)

    def mu(self) -> Feedback:
        """ "Mu!": claim there is no dek bovinoj; kept, and the puzzle ends either way."""
        self._need_seat()
        if self.puzzle_done:
            return self._done_message()
        feedback = self.practice.mu()
        right = feedback.kind is FeedbackKind.MU_RIGHT
        kept = self._record(MU_TYPED, MU_RIGHT if right else MU_WRONG, 0, finishes=True, mu=True)
        if not right and not self.help_open:
            feedback = Feedback(FeedbackKind.MU_WRONG, self._t("No: there was a dek bovinoj."))
        return feedback if kept else self._waits(feedback)

    def dont_know(self) -> Feedback:
        """ "I don't know": the puzzle ends, kept as ``dont-know`` (not solved, not a wrong
        answer); the best answer is shown as after a wrong "mu!" (in a test, only that the
        puzzle is done)."""
        self._need_seat()
        if self.puzzle_done:
            return self._done_message()
        feedback = self.practice.dont_know()
        kept = self._record(DONT_KNOW_TYPED, DONT_KNOW, 0, finishes=True, dont_know=True)
        if not self.help_open:
            feedback = Feedback(
                FeedbackKind.DONT_KNOW, self._t("That is all right. On to the next puzzle!")
            )
        return feedback if kept else self._waits(feedback)

    def hint(self) -> Feedback:
        """The next hint on the puzzle on the screen; ``HelpLockedError`` in a test."""
        seat = self._need_seat()
        if not self.help_open:
            raise HelpLockedError("Hints and the best answers open when you have finished.")
        feedback = self.practice.hint()
        if not self.puzzle_done:
            hints = self.practice.hints_given
            self.seat = replace(seat, hints=hints)
            with contextlib.suppress(OfflineError, ServiceRefusalError):  # the next attempt says so
                self._ask(lambda: self.backend.alive(self.token, hints))
        return feedback

    def best_answers(self) -> tuple[Answer, ...]:
        """Every best answer to the puzzle on the screen; ``HelpLockedError`` in a test.

        Shown before the puzzle is done, they count as the hint that shows the whole answer
        (:data:`~dekbovinoj_edu.dealing.teaching.REVEALING_HINT`): the class is told, and
        the answer the student then types is a shown answer, not a solved puzzle."""
        seat = self._need_seat()
        if not self.help_open:
            raise HelpLockedError("Hints and the best answers open when you have finished.")
        answers = self.practice.best_answers
        if not self.puzzle_done and self.practice.hints_given < REVEALING_HINT:
            self.practice.hints_given = REVEALING_HINT
            self.seat = replace(seat, hints=REVEALING_HINT)
            with contextlib.suppress(OfflineError, ServiceRefusalError):  # the next attempt says so
                self._ask(lambda: self.backend.alive(self.token, REVEALING_HINT))
        return answers

    def next(self) -> None:
        """Go on to the next puzzle, once the one on the screen is done."""
        seat = self._need_seat()
        if not self.puzzle_done or self.shown >= self.count:
            return
        if not self.code(seat.puzzle):  # its own next puzzle, dealt by the class: ask for it
            with contextlib.suppress(OfflineError):
                seat = self._ask(lambda: self.backend.place(self.token))
                self._note(seat)
                self.seat = seat
        puzzle = self._puzzle(seat.puzzle)
        if puzzle is None:  # the class is out of reach: this one stays until it answers
            return
        self.shown = seat.puzzle
        self.practice.begin(puzzle)
        self._started = self.clock()

    def open_puzzle(self, number: int) -> None:
        """Look again at a done puzzle (at the end, to read its best answers)."""
        self._need_seat()
        puzzle = self._puzzle(number) if 1 <= number <= self.count else None
        if not self.finished or puzzle is None:
            return
        self.shown = number
        self.practice.begin(puzzle)

    # ------------------------------------------------------------- summary
    def attempts(self) -> list[Attempt]:
        """This student's attempts, oldest first: those the class kept (asked again when it
        answers) and those still waiting to be sent."""
        self._need_seat()
        try:
            self._acknowledged = self._ask(lambda: self.backend.mine(self.token))
            self._note(attempts=self._acknowledged)
            unsent = self._unsent()
            self._waiting = {k: row for k, row in self._waiting.items() if k in unsent}
        except OfflineError:
            self._settle()
        return [*self._acknowledged, *self._waiting.values()]

    def summary(self) -> Summary:
        """This student's results on every puzzle."""
        mine = self.attempts()
        return Summary(tuple(cell_of(n, self.code(n), mine) for n in range(1, self.count + 1)))

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
