"""What a class's store learns: an attempt that ends a puzzle teaches the seat's ability at the
puzzle's level and the puzzle's rating (shared by every class of the store), by
:func:`~dekbovinoj_edu.dealing.teaching.teach`, the same arithmetic practice mode uses. The
store only gives it its own facts and writes what it taught:

- the **time** starts when the puzzle is shown (:func:`learnt_seconds`): the page's own
  seconds, from the puzzle shown (after "Next") to the attempt, when they are fewer than the
  server's, which run from the last attempt kept and so also count reading that puzzle's
  feedback; never fewer than :data:`PAGE_FLOOR`, never more than the server's (the model caps
  them at the puzzle's limit, so a puzzle left open for an hour scores as one answered at the
  limit);
- the **outcome**: a dek bovinoj with the best answer's cards or a right "mu!" is ``BEST``,
  one with fewer cards ``FEWER``, a wrong "mu!" ``WRONG``, "I don't know" ``DONT_KNOW`` (not
  solved, without the wrong-answer penalty); a puzzle whose whole answer a hint
  showed first (:func:`~dekbovinoj_edu.dealing.teaching.shows_the_answer`) is ``SHOWN``,
  whatever was typed after;
- the **mistakes**: the counted wrong answers before it, on that puzzle.

It happens right after the attempt is committed, in the store's learning thread, which
gathers the answers of :data:`LEARNING_GAP` seconds and learns them in one short
transaction, so the student's answer does not wait and a busy class costs a few statements a
batch, not a few an answer (:meth:`Learning.learnt` waits for them, without the gap). A
rating is changed by one statement that adds the answers' change: answers to one puzzle from
a whole class at once never overwrite each other, and none is lost.

>>> from dataclasses import replace
>>> from dekbovinoj_edu.classroom.attempts import Attempt
>>> row = Attempt("4a", "Ana", 1, "C", "3+7", "ok", 2, 2, 0, 1.0, "T")
>>> response_of(row, mistakes=1, seconds=3600.0, has_joker=False)
Response(outcome=<Outcome.BEST: 'best'>, seconds=3600.0, hints=0, mistakes=1)
>>> response_of(replace(row, hints=4), 0, 5.0, has_joker=False).outcome
<Outcome.SHOWN: 'shown'>
>>> response_of(replace(row, hints=3), 0, 5.0, has_joker=False).hints  # two presses
2
"""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Hashable
from concurrent.futures import ThreadPoolExecutor
from functools import lru_cache
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ...dealing.learner import (
    BOUND,
    MIN_PUZZLE_VARIANCE,
    PLACEMENT,
    PUZZLE_VARIANCE,
    START_ABILITY,
    Ability,
    Learner,
    Outcome,
    PuzzleRating,
    PuzzleRatings,
    Response,
    prior,
    puzzle_key,
)
from ...dealing.teaching import Answered, hints_taken, shows_the_answer, teach
from ...rules.puzzle import Puzzle
from ...sessions.learning import within_reach
from ..attempts import DONT_KNOW, MU_RIGHT, MU_WRONG, NOT_COUNTED, SOLVED, Attempt
from ..errors import ClassroomError
from ..progress import READY_SHARE, Progress
from .base import StoreBase
from .rows import ABILITIES, ATTEMPTS, RATINGS, SEATS
from .tables import abilities as abilities_table
from .tables import puzzle_ratings as ratings_table
from .tables import seats as seats_table

__all__ = [
    "LEARNING_GAP",
    "NEXT_LEVEL",
    "PAGE_FLOOR",
    "Learning",
    "learnt_seconds",
    "ready_for",
    "response_of",
]

LEARNING_GAP = 0.25
"""Seconds the store's learning thread lets answers gather before it learns them: a class
of 300 ends about a hundred puzzles in that time, learnt in one transaction of five
statements; a quiet class waits a quarter of a second for its level to move."""

NEXT_LEVEL = {"1": "2", "2": "3"}
"""The level a strong student is offered next."""
PAGE_FLOOR = 3.0
"""The fewest seconds a page's own time counts as: a child reads the cards first, and a page
cannot make an answer look faster than this."""


def learnt_seconds(server: float, page: float) -> float:
    """The seconds the learner model learns from, for an attempt the server kept ``server``
    seconds after the seat's last one (or its join) and the page ``page`` seconds after it
    showed the puzzle: the page's when fewer (the student read the last feedback before
    "Next"), but at least :data:`PAGE_FLOOR`; the server's when the page told none (0) or
    claims more. Ana answers 5 s after "Next", 25 s after her last attempt: 5 s.

    >>> learnt_seconds(25.0, 5.0), learnt_seconds(6.0, 9999.0), learnt_seconds(25.0, 0.0)
    (5.0, 6.0, 25.0)
    >>> learnt_seconds(25.0, 0.4), learnt_seconds(2.0, 0.4)
    (3.0, 2.0)
    """
    server = max(0.0, server)
    if not page > 0:  # no time from the page (nor a negative or not-a-number one)
        return server
    return min(server, max(PAGE_FLOOR, page))


def ready_for(ability: Ability, level: str) -> str:
    """The next level's name if a student of ``ability`` at ``level`` is ready for it: placed
    (:data:`PLACEMENT` answers) and solving 3 in 4 of :data:`~..progress.READY_SHARE` of the
    level's puzzles; else ``""`` (and at the last level).

    >>> ready_for(Ability(4.0, 0.1, 12), "1"), ready_for(Ability(4.0, 0.1, 2), "1")
    ('2', '')
    >>> ready_for(Ability(0.0, 0.1, 12), "1"), ready_for(Ability(6.0, 0.1, 12), "3")
    ('', '')
    """
    if level not in NEXT_LEVEL or ability.answers < PLACEMENT:
        return ""
    return NEXT_LEVEL[level] if within_reach(ability, level) >= READY_SHARE else ""


def response_of(attempt: Attempt, mistakes: int, seconds: float, *, has_joker: bool) -> Response:
    """The learner model's view of ``attempt``, which ends its puzzle, after ``mistakes``
    counted wrong answers on it and ``seconds`` (:func:`learnt_seconds`); its hints as the
    presses they took on a puzzle with or without a joker (``has_joker``:
    :func:`~dekbovinoj_edu.dealing.teaching.hints_taken`), as the practice tab counts them."""
    if attempt.verdict == MU_WRONG:
        outcome = Outcome.WRONG
    elif attempt.verdict == DONT_KNOW:
        outcome = Outcome.DONT_KNOW
    elif shows_the_answer(attempt.hints, has_answer=attempt.best != 0):
        outcome = Outcome.SHOWN
    elif attempt.verdict == SOLVED and attempt.cards < attempt.best:
        outcome = Outcome.FEWER
    elif attempt.verdict in (SOLVED, MU_RIGHT):
        outcome = Outcome.BEST
    else:
        raise ValueError(f"attempt {attempt.verdict!r} does not end a puzzle")
    has_answer = attempt.best != 0
    hints = hints_taken(attempt.hints, has_joker=has_joker, has_answer=has_answer)
    return Response(outcome, max(0.0, seconds), hints, max(0, mistakes))


@lru_cache(maxsize=4096)
def _rated_puzzle(code: str) -> Puzzle:
    """The puzzle of ``code`` (read once a process)."""
    return Puzzle.from_code(code)


_ABILITY_FIELDS = (
    "seat",
    "level",
    "value",
    "variance",
    "answers",
    "recent",
    "day",
    "day_start",
    "speed",
)
_RATING_FIELDS = ("puzzle_key", "value", "variance", "limit", "answers")
_NOT_MISTAKES = sorted(NOT_COUNTED | {SOLVED, MU_RIGHT, DONT_KNOW})
"""The verdicts that are no mistake (:attr:`~..attempts.Attempt.mistake`)."""
_ABILITIES_OF = sa.select(abilities_table).where(
    sa.tuple_(ABILITIES.seat, ABILITIES.level).in_(sa.bindparam("b_seats", expanding=True))
)
"""The abilities of some (seat, level) pairs."""
_RATINGS_OF = sa.select(ratings_table).where(
    RATINGS.puzzle_key.in_(sa.bindparam("b_keys", expanding=True))
)
"""The ratings of some puzzle keys."""
_MISTAKES_OF = (
    sa.select(ATTEMPTS["class"], ATTEMPTS.nickname, ATTEMPTS.puzzle, sa.func.count())
    .where(
        sa.tuple_(ATTEMPTS["class"], ATTEMPTS.nickname, ATTEMPTS.puzzle).in_(
            sa.bindparam("b_places", expanding=True)
        ),
        ATTEMPTS.verdict.not_in(_NOT_MISTAKES),
    )
    .group_by(ATTEMPTS["class"], ATTEMPTS.nickname, ATTEMPTS.puzzle)
)
"""The counted wrong answers of some students at some puzzles, by (class, nickname, puzzle)."""
_Ended = tuple[int, float, Attempt, float]
"""An attempt that ends its puzzle, to learn from: its seat, when the seat's puzzle started,
the attempt, and the server's time."""


def _within(value: Any, low: float, high: float) -> Any:
    """``value`` kept within ``low`` and ``high``, in SQL (SQLite and PostgreSQL alike)."""
    return sa.case((value < low, low), (value > high, high), else_=value)


def _rating(row: Any) -> PuzzleRating:
    return PuzzleRating.from_dict(row._mapping)


def _ability(row: Any) -> Ability:
    return Ability.from_dict(row._mapping)


def _day(now: float) -> str:
    """The day (UTC) of the time ``now``: an ability's lesson."""
    return time.strftime("%Y-%m-%d", time.gmtime(now))


class Learning(StoreBase):
    """The store's learner model: its thread, and the abilities and ratings it keeps (see
    :class:`~.sql_store.SQLStore`)."""

    def _start_learning(self, insert: Any) -> None:
        """Start the learning thread; ``insert``: the dialect's ``INSERT`` (with its
        ``ON CONFLICT``)."""
        self._learning = ThreadPoolExecutor(1, thread_name_prefix="dekbovinoj-learning")
        """Where the model is taught, once the answers' attempts are committed (a batch at once)."""
        self.learning_failures = 0
        """Answers whose teaching the database refused (their attempts are kept)."""
        self._waiting: list[_Ended] = []
        """The answers the learning thread has yet to learn from, oldest first."""
        self._waiting_lock = threading.Lock()
        self._hurry = threading.Event()
        """Set when someone waits for the learning: the batch waiting is learnt at once."""
        learnt = insert(abilities_table).values(
            {name: sa.bindparam(f"a_{name}") for name in _ABILITY_FIELDS}
        )
        self._keep_ability = learnt.on_conflict_do_update(
            index_elements=["seat", "level"],
            set_={name: learnt.excluded[name] for name in _ABILITY_FIELDS[2:]},
        )
        """Write a seat's ability at a level, whole."""
        rated = insert(ratings_table).values(
            {name: sa.bindparam(f"r_{name}") for name in _RATING_FIELDS}
        )
        self._teach_rating = rated.on_conflict_do_update(
            index_elements=["puzzle_key"],
            set_={
                "value": _within(RATINGS.value + sa.bindparam("b_moved"), -BOUND, BOUND),
                "variance": _within(
                    1.0 / (1.0 / RATINGS.variance + sa.bindparam("b_sharper")),
                    MIN_PUZZLE_VARIANCE,
                    PUZZLE_VARIANCE,
                ),
                "answers": RATINGS.answers + sa.bindparam("b_count"),
            },
        )
        """Add a batch's change to a puzzle's rating as it is then (a new one: the rating
        after the batch), in one statement."""

    def _stop_learning(self) -> None:
        """Learn what waits, then end the learning thread."""
        self._hurry.set()
        self._learning.shutdown(wait=True)

    def learnt(self) -> None:
        """Wait until every answer recorded so far has taught the learner model (that
        happens just after the attempt is kept, in a thread of the store's own, so the
        attempt's answer does not wait for it)."""
        self._hurry.set()
        self._learning.submit(self._learn_waiting).result()

    def _learn_later(self, seat_id: int, started: float, kept: Attempt, now: float) -> None:
        """Have the learning thread teach the model ``kept``, after the answers waiting."""
        with self._waiting_lock:
            self._waiting.append((seat_id, started, kept, now))
            first = len(self._waiting) == 1
        if first:
            self._learning.submit(self._learn_waiting, LEARNING_GAP)

    def _learn_waiting(self, gap: float = 0.0) -> None:
        """:meth:`_learn_all` for every answer waiting, in one transaction (the learning
        thread), after ``gap`` seconds in which more answers gather (unless someone waits
        for the learning). A storage failure is counted in :attr:`learning_failures` (the
        attempts themselves are kept)."""
        if gap:
            self._hurry.wait(gap)
        self._hurry.clear()
        with self._waiting_lock:
            batch, self._waiting = self._waiting, []
        if not batch:
            return
        try:
            self.database.run(lambda db: self._learn_all(db, batch), write=True)
        except ClassroomError:
            self.learning_failures += len(batch)

    def _learn_all(self, db: Connection, batch: list[_Ended]) -> None:
        """Teach the learner model every attempt of ``batch`` (each ends its puzzle), in
        order, with :func:`~dekbovinoj_edu.dealing.teaching.teach`: three reads, one write
        of the abilities and one of each puzzle's rating, however many answers the batch
        holds.

        An ability is written whole (a seat's puzzles end one after another), with the day
        of its lesson and its value before the day's first answer. A rating, which every
        student of every class may be answering at once, is changed by one statement that
        adds the batch's change to the row as it is then (made from its prior if new): it
        holds the row's lock for that statement only, and two answers at once both count,
        neither overwrites the other."""
        ended = []
        for seat_id, started, kept, now in batch:
            try:
                puzzle = _rated_puzzle(kept.code)
            except ValueError:  # not a code this version reads: nothing to learn from
                continue
            ended.append((seat_id, started, kept, now, puzzle))
        if not ended:
            return
        seats = {(seat_id, puzzle.level.name) for seat_id, _, _, _, puzzle in ended}
        places = {(kept.class_name, kept.nickname, kept.puzzle) for _, _, kept, *_ in ended}
        keys = {puzzle_key(puzzle) for *_, puzzle in ended}
        found = db.execute(_ABILITIES_OF, {"b_seats": sorted(seats)})
        rows = {(int(row.seat), str(row.level)): dict(row._mapping) for row in found}
        found = db.execute(_RATINGS_OF, {"b_keys": sorted(keys)})
        ratings = {str(row.puzzle_key): _rating(row) for row in found}
        found = db.execute(_MISTAKES_OF, {"b_places": sorted(places)})
        mistakes = {(str(row[0]), str(row[1]), int(row[2])): int(row[3]) for row in found}
        answers = []
        for seat_id, started, kept, now, puzzle in ended:
            place = (kept.class_name, kept.nickname, kept.puzzle)
            seconds = learnt_seconds(now - started, kept.seconds)
            taken = mistakes.get(place, 0)
            response = response_of(kept, taken, seconds, has_joker=puzzle.has_joker)
            answers.append(Answered(seat_id, puzzle, response))
        abilities: dict[tuple[Hashable, str], Ability] = {
            seat: Ability.from_dict(row) for seat, row in rows.items()
        }
        taught = teach(answers, abilities, ratings)
        for (seat_id, _, _, now, puzzle), before in zip(ended, taught.before, strict=True):
            seat, today = (seat_id, puzzle.level.name), _day(now)
            row = rows.get(seat)
            start = float(row["day_start"]) if row and row["day"] == today else before.value
            rows[seat] = {"seat": seat_id, "level": seat[1], "day": today, "day_start": start}
        written = [
            rows[seat] | taught.abilities[seat].to_dict() | {"speed": taught.abilities[seat].speed}
            for seat in sorted(seats)
        ]
        db.execute(self._keep_ability, [{f"a_{n}": v for n, v in r.items()} for r in written])
        for key, change in sorted(taught.changes.items()):
            bound: dict[str, Any] = {f"r_{n}": v for n, v in taught.ratings[key].to_dict().items()}
            bound.update(r_puzzle_key=key, b_moved=change.moved, b_sharper=change.sharper)
            bound.update(b_count=change.answers)
            db.execute(self._teach_rating, bound)

    def learner(self, name: str, nickname: str) -> Learner:
        """The abilities of the student ``nickname`` of class ``name``, one per level they
        answered at (``UnknownSeatError`` for no such student)."""

        def read(db: Connection) -> Learner:
            row = self._named_seat(db, name, nickname)
            rows = db.execute(sa.select(abilities_table).where(ABILITIES.seat == row.id)).all()
            return Learner({str(found.level): _ability(found) for found in rows})

        learner: Learner = self._read(read)
        return learner

    def puzzle_rating(self, puzzle: Puzzle) -> PuzzleRating:
        """The puzzle's rating as the answers of every class taught it (its prior if none)."""
        query = sa.select(ratings_table).where(RATINGS.puzzle_key == puzzle_key(puzzle))
        row = self._read(lambda db: db.execute(query).first())
        return prior(puzzle) if row is None else _rating(row)

    def puzzle_ratings(self) -> PuzzleRatings:
        """Every learnt rating of the store, by puzzle key."""
        rows = self._read(lambda db: db.execute(sa.select(ratings_table)).all())
        return PuzzleRatings({str(row.puzzle_key): _rating(row) for row in rows})

    def progress(self, name: str, level: str, now: float | None = None) -> dict[str, Progress]:
        """Each student's ability at ``level`` who has answered there: at the start of the
        day's lesson (the day of ``now``, by default today) and now, with its uncertainty, by
        nickname. A start that is a new seat's default (:data:`START_ABILITY`, exactly) is no
        measurement, nor one of fewer than :data:`PLACEMENT` answers."""

        def read(db: Connection) -> list[Any]:
            named = self._class_named(db, name)
            query = (
                sa.select(SEATS.nickname, abilities_table)
                .select_from(seats_table.join(abilities_table, ABILITIES.seat == SEATS.id))
                .where(SEATS["class"] == named, ABILITIES.level == level)
            )
            return list(db.execute(query).all())

        today = _day(time.time() if now is None else now)
        found = {}
        for row in self._read(read):
            ability = _ability(row)
            if row.day == today:  # a new seat's day starts at the default: no measurement
                start = float(row.day_start)
                measured = start != START_ABILITY
            else:
                start, measured = ability.value, ability.answers >= PLACEMENT
            found[str(row.nickname)] = Progress(
                start,
                ability.value,
                ability.answers,
                math.sqrt(ability.variance),
                measured,
                ready_for(ability, level),
            )
        return found
