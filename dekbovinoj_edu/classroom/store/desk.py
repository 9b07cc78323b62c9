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

In a class "at each student's level" (:func:`~.assignment.at_level_assignment`) the desk
deals each seat's next puzzle when the seat reaches it (:meth:`ClassDesk.next_puzzle`),
from the seat's ability, within the assignment's level and filters, from the assignment's
seed and the seat: the seat's ``code``.

>>> from dekbovinoj_edu.classroom.assignment import at_level_assignment
>>> store.add_class(at_level_assignment("4c", level=1, count=3, seed=5, jokers=False))
>>> own = ClassDesk(store, "4C", clock=lambda: 1000.0)
>>> bo = own.join("Bo")
>>> bo.seat.code == own.place(bo.token).code != "", own.puzzle_of(bo.seat).has_joker
(True, False)

A class with a roster (:mod:`~..roster`) gives a new seat only to a student on it; a seat
taken before the roster was set stays its student's.

>>> from dekbovinoj_edu.classroom.roster import parse_roster
>>> store.set_roster("4a", parse_roster("Bo, Cy"))
'4a'
>>> desk.join("Dan")
Traceback (most recent call last):
...
dekbovinoj_edu.classroom.errors.NotOnRosterError: You are not on the list of class 4a. Ask ...
>>> desk.join("ana", ana.rejoin_code).resumed, desk.join("bo").resumed
(True, False)

A class the teacher ended takes no join and no answer; what was kept stays.

>>> store.end_class("4a")
'4a'
>>> desk.join("Cy")
Traceback (most recent call last):
...
dekbovinoj_edu.classroom.errors.ClassEndedError: Class 4a has ended: ...
>>> len(store.attempts("4a"))
1
"""

from __future__ import annotations

import functools
import random
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import replace

from ...checking.checker import check
from ...dealing.at_level import deal_at_level
from ...dealing.learner import Learner, PuzzleRating, PuzzleRatings, own_limit, puzzle_key
from ...rules.levels import level_of
from ...rules.puzzle import Puzzle
from ...solving.solver import solve
from ..assignment import Assignment
from ..attempts import (
    DONT_KNOW,
    DONT_KNOW_TYPED,
    MU_RIGHT,
    MU_TYPED,
    MU_WRONG,
    SOLVED,
    Attempt,
    utc_now,
)
from ..backend import NothingKept
from ..contract import MAX_HINTS, MAX_SECONDS
from ..errors import ClassEndedError, NotOnRosterError, PuzzleNotOpenError
from ..nicknames import check_hub_name, check_nickname, nickname_key
from ..seat import Joined, Recorded, Seat, join_secrets, new_token
from .sql_store import ProgressStore

__all__ = ["ClassDesk"]


class StoredRatings(PuzzleRatings):
    """The puzzles' ratings as the store keeps them, each read when it is asked for."""

    def __init__(self, store: ProgressStore) -> None:
        super().__init__()
        self.store = store

    def rating(self, puzzle: Puzzle) -> PuzzleRating:
        known = self.ratings.get(puzzle_key(puzzle))
        if known is None:
            known = self.ratings[puzzle_key(puzzle)] = self.store.puzzle_rating(puzzle)
        return known


class ClassDesk(NothingKept):
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
        self._best: dict[str, int] = {}
        self._solving: dict[str, threading.Lock] = {}
        self._locks = threading.Lock()
        self._puzzles: dict[str, Puzzle] = {}

    @property
    def name(self) -> str:
        """The class's name."""
        return self.assignment.name

    @property
    def count(self) -> int:
        """How many puzzles the assignment has."""
        return self.assignment.size

    def puzzle(self, number: int) -> Puzzle:
        """Puzzle ``number`` (from 1) of a fixed list; ``PuzzleNotOpenError`` outside the
        assignment (and for every number at each student's level: see :meth:`puzzle_of`)."""
        if not 1 <= number <= len(self.assignment.codes):
            raise PuzzleNotOpenError("There is no puzzle {number} in this class.", number=number)
        return self.assignment.puzzles[number - 1]

    def puzzle_of(self, seat: Seat) -> Puzzle:
        """The puzzle ``seat`` is on: its own (at each student's level), or the list's."""
        if self.assignment.at_level:
            if not seat.code or seat.puzzle > self.count:
                raise PuzzleNotOpenError(
                    "There is no puzzle {number} in this class.", number=seat.puzzle
                )
            return Puzzle.from_code(seat.code)
        return self.puzzle(seat.puzzle)

    def best(self, number: int, code: str | None = None) -> int:
        """How many cards the best answer to puzzle ``number`` takes (0: the right call is mu).

        >>> from dekbovinoj_edu.classroom.assignment import codes_assignment
        >>> from dekbovinoj_edu.classroom.store import SQLiteStore
        >>> store = SQLiteStore(":memory:")
        >>> store.add_class(codes_assignment("4a", Puzzle.parse("3♠ 7♣ | 2♦", level=1).code))
        >>> ClassDesk(store, "4a").best(1)
        2
        """
        key = self.assignment.code(number) if code is None else code
        known = self._best.get(key)
        if known is not None:
            return known
        puzzle = self.puzzle(number) if code is None else Puzzle.from_code(code)
        with self._locks:
            lock = self._solving.setdefault(key, threading.Lock())
        with lock:  # one solver per puzzle; the others are not held up
            if key not in self._best:
                solution = solve(puzzle)
                self._best[key] = 0 if solution is None else len(solution.cards)
            return self._best[key]

    def _puzzle_of_code(self, code: str) -> Puzzle:
        """The puzzle of ``code`` (read once a desk)."""
        known = self._puzzles.get(code)
        if known is None:
            known = self._puzzles[code] = Puzzle.from_code(code)
        return known

    # ------------------------------------------------ at each student's level
    def next_puzzle(self, seat: Seat) -> Seat:
        """``seat`` with its puzzle dealt, at each student's level, if it has none yet: from
        its ability at the assignment's level (the store's), the puzzles' ratings, the
        assignment's filters and target, and a seed made of the assignment's seed, the
        student and the puzzle's number (the same answers, the same puzzles). A puzzle the
        student had before is dealt again only when the filters leave no other."""
        a = self.assignment
        if not a.at_level or seat.puzzle > self.count:
            return seat
        assert a.level is not None
        if seat.code:
            return self._with_limit(seat, self.store.learner(self.name, seat.nickname))
        self.store.learnt()  # the answer just given has taught the ability
        learner = self.store.learner(self.name, seat.nickname)
        had = {attempt.code for attempt in self.store.attempts(self.name, seat.nickname)}
        seed = f"{a.seed}:{nickname_key(seat.nickname)}:{seat.puzzle}"
        dealt = deal_at_level(
            learner,
            StoredRatings(self.store),
            level_of(a.level),
            a.chance,
            random.Random(seed),
            avoid=had,
            mu=a.mu or 0.0,  # a class with no share kept deals no "mu!" puzzle
            **a.filter_options(),
        )
        return self._with_limit(
            self.store.deal_to(self.name, seat.nickname, seat.puzzle, dealt.code), learner
        )

    def _with_limit(self, seat: Seat, learner: Learner) -> Seat:
        """``seat`` with the student's own time limit on its dealt puzzle (the stake bar's)."""
        try:
            puzzle = Puzzle.from_code(seat.code)
        except ValueError:  # not a code this version reads: no bar
            return seat
        ability = learner.ability(puzzle.level.name)
        limit = own_limit(ability, StoredRatings(self.store).rating(puzzle))
        return replace(seat, limit=round(limit, 1))

    def open_or_refuse(self) -> None:
        """``ClassEndedError`` if the teacher ended the class (read from the store each time:
        another process may have ended it)."""
        if self.store.is_ended(self.name):
            raise ClassEndedError.of(self.name)

    # --------------------------------------------------------------- seats
    def join(
        self,
        nickname: str,
        rejoin_code: str | None = None,
        *,
        join_id: str | None = None,
        on_new_seat: Callable[[], None] | None = None,
    ) -> Joined:
        """Take a seat with ``nickname``, or come back to it with its ``rejoin_code``.

        ``join_id``: the page's id of this join (:data:`~..contract.JOIN_ID`): the token and
        a new seat's code are drawn from it (:func:`~..seat.join_secrets`), so the same join
        sent again gets the same seat, token and code. ``on_new_seat`` is called before a
        new seat is made, and may refuse it by raising. ``NicknameError`` for a nickname the
        class does not take, ``NicknameTakenError`` when it (or one that looks the same) is
        someone else's and the code is missing or wrong, ``NotOnRosterError`` for a new seat
        whose nickname is not on the class's roster (compared by
        :func:`~..nicknames.nickname_key`).

        >>> from dekbovinoj_edu.classroom.assignment import codes_assignment
        >>> from dekbovinoj_edu.classroom.store import SQLiteStore
        >>> store = SQLiteStore(":memory:")
        >>> store.add_class(codes_assignment("4a", "4WTW-94T5-3AE0-600E-0"))
        >>> desk = ClassDesk(store, "4a", clock=lambda: 1000.0)
        >>> first = desk.join("Ana", join_id="Qm9uam91ciBBbmEsIGRlayBib3Zpbm9q")
        >>> again = desk.join("Ana", join_id="Qm9uam91ciBBbmEsIGRlayBib3Zpbm9q")  # sent again
        >>> (again.token, again.rejoin_code) == (first.token, first.rejoin_code)
        True
        """
        chosen = check_nickname(nickname)
        self.open_or_refuse()
        roster = self.store.roster(self.name)

        def new_seat() -> None:
            if roster is not None and not roster.admits_nickname(chosen):
                raise NotOnRosterError.of(self.name)
            if on_new_seat is not None:
                on_new_seat()

        if join_id is None:
            token, code = new_token(), None
        else:
            token, code = join_secrets(join_id)
        joined = self.store.join(
            self.name,
            chosen,
            token,
            self.clock(),
            rejoin_code,
            new_code=code,
            on_new_seat=new_seat,
        )
        return replace(joined, seat=self.next_puzzle(joined.seat))

    def join_vouched(
        self,
        user: str,
        groups: Iterable[str] = (),
        *,
        on_new_seat: Callable[[], None] | None = None,
    ) -> Joined:
        """Take the seat of ``user``, whom a JupyterHub signed in: theirs without a rejoin
        code (a page that held it is told ``SeatTakenError``). Any hub name is an identity
        (:func:`~..nicknames.check_hub_name`: e-mail addresses too); another hub name that
        looks the same is another student. ``groups``: the hub groups the hub says ``user``
        is in; a new seat in a class with a roster needs the exact hub name or one of these
        groups on it (``NotOnRosterError``). ``on_new_seat`` as for :meth:`join`.

        >>> from dekbovinoj_edu.classroom.assignment import codes_assignment
        >>> from dekbovinoj_edu.classroom.store import SQLiteStore
        >>> from dekbovinoj_edu.classroom.roster import parse_roster
        >>> store = SQLiteStore(":memory:")
        >>> store.add_class(codes_assignment("4a", "4WTW-94T5-3AE0-600E-0"),
        ...                 parse_roster("group:4a"))
        >>> desk = ClassDesk(store, "4a")
        >>> desk.join_vouched("anna.svensson@skolan.example.se", ["4a"]).seat.puzzle
        1
        >>> desk.join_vouched("bo@skolan.example.se", ["4b"])
        Traceback (most recent call last):
        ...
        dekbovinoj_edu.classroom.errors.NotOnRosterError: You are not on the list of class ...
        """
        user = check_hub_name(user)
        self.open_or_refuse()
        roster = self.store.roster(self.name)
        member_of = tuple(groups)

        def new_seat() -> None:
            if roster is not None and not roster.admits_hub_user(user, member_of):
                raise NotOnRosterError.of(self.name)
            if on_new_seat is not None:
                on_new_seat()

        joined = self.store.join_vouched(
            self.name, user, new_token(), self.clock(), on_new_seat=new_seat
        )
        return replace(joined, seat=self.next_puzzle(joined.seat))

    def place(self, token: str) -> Seat:
        """Where the student of ``token`` is; ``SeatTakenError`` if the seat went elsewhere."""
        return self.next_puzzle(self.store.seat_of(self.name, token))

    def alive(self, token: str, hints: int | None = None) -> Seat:
        """The page of ``token`` is still open (and has used ``hints`` on its puzzle)."""
        kept = None if hints is None else max(0, min(hints, MAX_HINTS))
        return self.next_puzzle(self.store.touch(self.name, token, self.clock(), kept))

    def gone(self, token: str) -> None:
        """The page of ``token`` was closed."""
        self.store.leave(self.name, token)

    def mine(self, token: str) -> list[Attempt]:
        """Every attempt of the student of ``token``, oldest first."""
        seat = self.place(token)
        return self.store.attempts(self.name, seat.nickname)

    # ------------------------------------------------------------ attempts
    def judge(
        self,
        number: int,
        answer: str,
        *,
        joker: bool = False,
        mu: bool = False,
        code: str | None = None,
        dont_know: bool = False,
    ) -> Attempt:
        """The row an attempt at puzzle ``number`` (of ``code``, at each student's level)
        makes, judged here (no seat yet: the store fills in the nickname and checks the
        puzzle is the student's).

        >>> from dekbovinoj_edu.classroom.assignment import codes_assignment
        >>> from dekbovinoj_edu.classroom.store import SQLiteStore
        >>> store = SQLiteStore(":memory:")
        >>> store.add_class(codes_assignment("4a", Puzzle.parse("3♠ 7♣ | 2♦", level=1).code))
        >>> desk = ClassDesk(store, "4a")
        >>> [desk.judge(1, text).verdict for text in ("3+7", "3+", "3+7-2")]
        ['ok', 'syntax', 'not-target']
        >>> desk.judge(1, "", mu=True).verdict, desk.judge(1, "", mu=True).answer
        ('mu-wrong', 'mu!')
        >>> desk.judge(1, "", dont_know=True).verdict, desk.judge(1, "", dont_know=True).answer
        ('dont-know', '?')
        """
        puzzle = self.puzzle(number) if code is None else self._puzzle_of_code(code)
        best = self.best(number, code)
        if mu:
            verdict, cards, typed = (MU_RIGHT if best == 0 else MU_WRONG), 0, MU_TYPED
        elif dont_know:
            verdict, cards, typed = DONT_KNOW, 0, DONT_KNOW_TYPED
        else:
            verdict, cards = _verdict(puzzle, answer, joker)
            typed = answer  # the store keeps at most the checker's length
        return Attempt(
            self.name, "", number, self.assignment.code(number) if code is None else code,
            typed, verdict, cards, best, 0, 0.0, utc_now(),
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
        dont_know: bool = False,
    ) -> Recorded:
        """Judge and keep one attempt of the student of ``token`` (``mu``: the "Mu!" button,
        ``dont_know``: the "I don't know" one).

        A known ``attempt_id`` returns the row kept the first time and writes nothing.
        ``PuzzleNotOpenError`` for a puzzle that is not the student's current one,
        ``SeatTakenError`` when the seat went to another page. At each student's level, the
        puzzle is the seat's own, and the next one is dealt when this one ends.
        """
        code = None  # an ended class: the store refuses the attempt in its transaction
        if self.assignment.at_level:
            seat = self.place(token)
            code = seat.code if seat.puzzle == number and seat.code else None
            if code is None:  # a resend, or not the seat's puzzle: the store says which
                code = next(
                    (a.code for a in self.store.attempts(self.name, seat.nickname)
                     if a.puzzle == number), None,
                )  # fmt: skip
            if code is None:
                raise PuzzleNotOpenError(
                    "This puzzle is not open: you are on puzzle {current}.", current=seat.puzzle
                )
        row = replace(
            self.judge(number, answer, joker=joker, mu=mu, code=code, dont_know=dont_know),
            hints=max(0, min(hints, MAX_HINTS)),
            seconds=round(max(0.0, min(seconds, MAX_SECONDS)), 1),
        )
        recorded = self.store.record(self.name, token, attempt_id, row, self.clock())
        if self.assignment.at_level:
            recorded = replace(recorded, seat=self.next_puzzle(recorded.seat))
        return recorded


@functools.lru_cache(maxsize=4096)
def _verdict(puzzle: Puzzle, answer: str, joker: bool) -> tuple[str, int]:
    """The checker's verdict on ``answer`` and the cards it takes (0 unless solved), kept for
    the next student who types the same: a class answers the same puzzles, often alike.

    >>> _verdict(Puzzle.parse("3♠ 7♣ | 2♦", level=1), "3+7", False)
    ('ok', 2)
    """
    judged = check(puzzle, answer, joker=joker)
    return (SOLVED, len(judged.cards)) if judged.ok else (str(judged.code), 0)
