"""The progress store: classes, students' seats and sessions, and every attempt, in SQLite or
PostgreSQL.

:class:`ProgressStore` is what class mode needs; :class:`SQLStore` keeps it
in a database through SQLAlchemy Core (:mod:`.tables`, migrated by Alembic:
:mod:`.database`). :func:`open_store` takes a file path (the default file when
``None``), ``sqlite:///…`` or ``postgresql://…``. Each change is one
transaction: joining takes the seat's row (``BEGIN IMMEDIATE`` in SQLite, a
row lock in PostgreSQL), recording an attempt is idempotent by its id (unique
in its class) and moves the seat on in the same transaction. A busy database
is waited for (up to :data:`~.database.WRITE_PATIENCE` seconds), never
"database is locked"; every failure is a :class:`~.errors.StoreError` with a
sentence.

A seat belongs to the session that holds it: the first join gives the seat a
rejoin code, and only that code takes it up again from another page (the old
page is then told :class:`~.errors.SeatTakenError`). A seat the teacher
released is taken by the next join, with a new code.

A class's name ignores case (``4b`` and ``4B`` are one class): every method
finds the class by :func:`~.assignment.class_key`, and its rows carry the name
as the teacher first wrote it.

An attempt that ends a puzzle teaches the learner model (:mod:`.learning`): the
seat's ability at the puzzle's level and the puzzle's rating (shared by every
class of the store) are updated right after the attempt is committed, in the
store's learning thread, which gathers the answers of :data:`LEARNING_GAP` seconds and
learns them in one short transaction, so the student's answer does not wait and a
busy class costs a few statements a batch, not a few an answer
(:meth:`SQLStore.learnt` waits for them, without the gap). A
rating is changed by one statement that adds the answers' change: answers to one
puzzle from a whole class at once never overwrite each other, and none is lost.

In a class dealt at each student's level, the seat's puzzle code is given by
:meth:`SQLStore.deal_to` once its desk has dealt it.

>>> from dekbovinoj_edu.classroom.assignment import codes_assignment
>>> store = SQLiteStore(":memory:")
>>> store.add_class(codes_assignment("4a", "68VN-AV66-GGK"))
>>> [a.name for a in store.classes()]
['4a']
>>> ana = store.join("4a", "Ana", "token-1", now=100.0)
>>> ana.seat.puzzle, ana.resumed, len(ana.rejoin_code)
(1, False, 9)
>>> store.join("4a", "ana", "token-2", now=105.0)
Traceback (most recent call last):
...
dekbovinoj_edu.classroom.errors.NicknameTakenError: This nickname is taken in this class. ...
>>> back = store.join("4a", "ana", "token-2", now=106.0, rejoin_code=ana.rejoin_code.lower())
>>> back.seat.nickname, back.resumed  # Ana came back on another page
('Ana', True)
>>> store.seat_of("4a", "token-1")
Traceback (most recent call last):
...
dekbovinoj_edu.classroom.errors.SeatTakenError: This page no longer has your seat: ...
>>> store.assignment("4A").name, store.seats("4A")[0].nickname  # the name ignores case
('4a', 'Ana')
>>> store.forget("4a")
0
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import astuple, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Row

from ..dealing.learner import (
    BOUND,
    MIN_PUZZLE_VARIANCE,
    PUZZLE_VARIANCE,
    Ability,
    Learner,
    PuzzleRating,
    PuzzleRatings,
    prior,
    puzzle_key,
    update,
)
from ..rules.limits import MAX_CHARS
from ..rules.puzzle import Puzzle
from .assignment import Assignment, class_key
from .attempts import CSV_COLUMNS, MU_RIGHT, NOT_COUNTED, SOLVED, Attempt, utc_now
from .database import Database, open_database
from .errors import (
    ClassExistsError,
    ClassroomError,
    NicknameTakenError,
    PuzzleNotOpenError,
    SeatTakenError,
    UnknownClassError,
    UnknownSeatError,
    UnknownSessionError,
)
from .learning import Progress, response_of
from .nicknames import nickname_key
from .seat import Joined, Recorded, Seat, new_rejoin_code, normalise_rejoin_code, token_hash
from .single_statements import RECORD_ATTEMPT, TOUCH_SEAT
from .tables import abilities as abilities_table
from .tables import attempts as attempts_table
from .tables import classes as classes_table
from .tables import puzzle_ratings as ratings_table
from .tables import seats as seats_table
from .tables import sessions as sessions_table

__all__ = [
    "CLASS_ENV",
    "DB_ENV",
    "Joined",
    "ProgressStore",
    "Recorded",
    "SQLStore",
    "SQLiteStore",
    "Seat",
    "default_db_path",
    "nickname_key",
    "open_store",
]

CLASS_ENV = "DEKBOVINOJ_CLASS"
"""The environment variable ``dekbovinoj serve --class NAME`` passes the class name in."""

DB_ENV = "DEKBOVINOJ_DB"
"""An environment variable that, when set, names the database (a file or an address)
instead of the default file."""

LEARNING_GAP = 0.25
"""Seconds the store's learning thread lets answers gather before it learns them: a class
of 300 ends about a hundred puzzles in that time, learnt in one transaction of five
statements; a quiet class waits a quarter of a second for its level to move."""


class ProgressStore(Protocol):
    """What class mode needs from a store (see :class:`SQLStore` for the meaning)."""

    def add_class(self, assignment: Assignment) -> None: ...
    def assignment(self, name: str) -> Assignment: ...
    def classes(self) -> list[Assignment]: ...
    def forget(self, name: str) -> int: ...
    def join(
        self, name: str, nickname: str, token: str, now: float, rejoin_code: str | None = None
    ) -> Joined: ...
    def seat_of(self, name: str, token: str) -> Seat: ...
    def touch(self, name: str, token: str, now: float, hints: int | None = None) -> Seat: ...
    def leave(self, name: str, token: str) -> None: ...
    def record(
        self, name: str, token: str, attempt_id: str, attempt: Attempt, now: float
    ) -> Recorded: ...
    def seats(self, name: str) -> list[Seat]: ...
    def attempts(self, name: str, nickname: str | None = None) -> list[Attempt]: ...
    def attempts_since(self, name: str, after: int = 0) -> list[tuple[int, Attempt]]: ...
    def release_seat(self, name: str, nickname: str) -> None: ...
    def reset_seat(self, name: str, nickname: str, *, now: float | None = None) -> None: ...
    def remove_seat(self, name: str, nickname: str) -> None: ...
    def merge_seats(self, name: str, source: str, into: str) -> None: ...
    def learner(self, name: str, nickname: str) -> Learner: ...
    def puzzle_rating(self, puzzle: Puzzle) -> PuzzleRating: ...
    def deal_to(self, name: str, nickname: str, number: int, code: str) -> Seat: ...
    def progress(self, name: str, level: str, now: float | None = None) -> dict[str, Progress]: ...
    def learnt(self) -> None: ...
    def close(self) -> None: ...


def default_db_path() -> Path:
    """The database file: ``$DEKBOVINOJ_DB`` if set, else ``classes.sqlite3`` in the user's
    data directory (``~/.local/share/dekbovinoj`` on Linux)."""
    chosen = os.environ.get(DB_ENV)
    if chosen:
        return Path(chosen)
    import platformdirs

    return Path(platformdirs.user_data_dir("dekbovinoj", appauthor=False)) / "classes.sqlite3"


def open_store(where: str | os.PathLike[str] | None = None) -> SQLStore:
    """The store at ``where``: a file path, ``sqlite:///FILE`` or ``postgresql://…``; the
    :func:`default_db_path` file when ``None``. Made and migrated if needed."""
    if where is None:
        chosen = os.environ.get(DB_ENV)
        where = chosen if chosen and "://" in chosen else default_db_path()
    return SQLStore(where)


# ------------------------------------------------------------------ rows and secrets
_CLASS_COLUMNS = (
    "name",
    "mode",
    "codes",
    "level",
    "count",
    "seed",
    "difficulty",
    "mu",
    "at_level",
    "target",
    "filters",
)
_SEAT_COLUMNS = ("class", "nickname", "session", "puzzle", "started", "hints", "last_seen")


def _assignment(row: Row[Any]) -> Assignment:
    name, mode, codes, level, count, seed, difficulty, mu, at_level, target, filters = tuple(row)
    return Assignment(
        str(name),
        tuple(str(codes).split(",")) if codes else (),
        str(mode),
        level=None if level is None else str(level),
        count=None if count is None else int(count),
        seed=None if seed is None else str(seed),
        difficulty=None if difficulty is None else str(difficulty),
        mu=None if mu is None else float(mu),
        at_level=bool(at_level),
        target=None if target is None else float(target),
        filters=None if filters is None else str(filters),
    )


def _seat(row: Any) -> Seat:
    m = row._mapping
    return Seat(
        str(m["class"]),
        str(m["nickname"]),
        str(m["session"]),
        int(m["puzzle"]),
        float(m["started"]),
        int(m["hints"]),
        float(m["last_seen"]),
        str(m["joined"]),
        str(m["code"] or ""),
    )


def _attempt(row: Any) -> Attempt:
    m = row._mapping
    return Attempt(
        str(m["class"]),
        str(m["nickname"]),
        int(m["puzzle"]),
        str(m["code"]),
        str(m["answer"]),
        str(m["verdict"]),
        int(m["cards"]),
        int(m["best"]),
        int(m["hints"]),
        float(m["seconds"]),
        str(m["time"]),
    )


def _secret(code: str, salt: str | None = None) -> str:
    """What the store keeps of a rejoin code: a random salt and the salted SHA-256."""
    salt = salt or secrets.token_hex(8)
    digest = hashlib.sha256(f"{salt}:{normalise_rejoin_code(code)}".encode()).hexdigest()
    return f"{salt}${digest}"


def _matches(code: str, secret: str) -> bool:
    salt = secret.split("$", 1)[0]
    return hmac.compare_digest(_secret(code, salt), secret)


_NO_SEAT = object()
"""A session whose seat is gone (removed, merged away)."""


def _held(row: Any, hashed: str) -> Any:
    """``row`` (a session's seat), if that session holds the seat now."""
    if row is None:
        raise UnknownSessionError("This page has not joined the class: join with your nickname.")
    if row is _NO_SEAT or row.session != hashed:
        raise SeatTakenError(
            "This page no longer has your seat: it is open on another screen, or your "
            "teacher changed it. Join again."
        )
    return row


_SEATS = seats_table.c
_ATTEMPTS = attempts_table.c
_SESSIONS = sessions_table.c
_ATTEMPT_COLUMNS = [attempts_table.c[name] for name in CSV_COLUMNS]

# The statements of the busy paths (a sign of life, an attempt), built once: SQLAlchemy then
# reuses their compiled form, and a write is a few hundred microseconds.
_CLASSES = classes_table.c
_NAME_OF_KEY = sa.select(_CLASSES.name).where(_CLASSES.key == sa.bindparam("b_key"))
_CLASS_OF_KEY = _NAME_OF_KEY.scalar_subquery()
_SEAT_ID_OF_SESSION = sa.select(_SESSIONS.seat).where(
    _SESSIONS.token == sa.bindparam("b_token"), _SESSIONS["class"] == _CLASS_OF_KEY
)
_SEAT_OF_SESSION = (
    sa.select(seats_table)
    .select_from(sessions_table.join(seats_table, _SEATS.id == _SESSIONS.seat))
    .where(_SESSIONS.token == sa.bindparam("b_token"), _SESSIONS["class"] == _CLASS_OF_KEY)
)
_SEAT_OF_SESSION_LOCKED = _SEAT_OF_SESSION.with_for_update(of=seats_table)
_ATTEMPT_BY_ID = sa.select(attempts_table).where(
    _ATTEMPTS["class"] == sa.bindparam("b_class"),
    _ATTEMPTS.attempt_id == sa.bindparam("b_attempt"),
)
_SEAT_SEEN = (
    sa.update(seats_table)
    .where(_SEATS.id == sa.bindparam("b_seat"))
    .values(last_seen=sa.bindparam("b_seen"))
)
_SEAT_SEEN_WITH_HINTS = _SEAT_SEEN.values(hints=sa.bindparam("b_hints"))
_SEAT_MOVED_ON = _SEAT_SEEN.values(
    puzzle=sa.bindparam("b_puzzle"), started=sa.bindparam("b_seen"), hints=0, code=None
)
_RATINGS = ratings_table.c
_ABILITIES = abilities_table.c


@lru_cache(maxsize=4096)
def _rated_puzzle(code: str) -> tuple[Puzzle, str]:
    """The puzzle of ``code`` and its key among the ratings (read once a process)."""
    puzzle = Puzzle.from_code(code)
    return puzzle, puzzle_key(puzzle)


_ABILITY_FIELDS = ("seat", "level", "value", "variance", "answers", "recent", "day", "day_start")
_RATING_FIELDS = ("puzzle_key", "value", "variance", "limit", "answers")
_NOT_MISTAKES = sorted(NOT_COUNTED | {SOLVED, MU_RIGHT})
"""The verdicts that are no mistake (:attr:`~.attempts.Attempt.mistake`)."""
_ABILITIES_OF = sa.select(abilities_table).where(
    sa.tuple_(_ABILITIES.seat, _ABILITIES.level).in_(sa.bindparam("b_seats", expanding=True))
)
"""The abilities of some (seat, level) pairs."""
_RATINGS_OF = sa.select(ratings_table).where(
    _RATINGS.puzzle_key.in_(sa.bindparam("b_keys", expanding=True))
)
"""The ratings of some puzzle keys."""
_MISTAKES_OF = (
    sa.select(_ATTEMPTS["class"], _ATTEMPTS.nickname, _ATTEMPTS.puzzle, sa.func.count())
    .where(
        sa.tuple_(_ATTEMPTS["class"], _ATTEMPTS.nickname, _ATTEMPTS.puzzle).in_(
            sa.bindparam("b_places", expanding=True)
        ),
        _ATTEMPTS.verdict.not_in(_NOT_MISTAKES),
    )
    .group_by(_ATTEMPTS["class"], _ATTEMPTS.nickname, _ATTEMPTS.puzzle)
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


class SQLStore:
    """The progress store in a SQLite file, in memory (``":memory:"``) or in PostgreSQL;
    safe to share between the threads of one process, and between processes."""

    def __init__(self, where: str | os.PathLike[str]) -> None:
        self.database: Database = open_database(where)
        self.where = self.database.where
        """The database, as a person would name it (the address without its password)."""
        self._postgresql = self.database.dialect == "postgresql"
        self._learning = ThreadPoolExecutor(1, thread_name_prefix="dekbovinoj-learning")
        """Where the model is taught, once the answers' attempts are committed (a batch at once)."""
        self.learning_failures = 0
        """Answers whose teaching the database refused (their attempts are kept)."""
        self._waiting: list[_Ended] = []
        """The answers the learning thread has yet to learn from, oldest first."""
        self._waiting_lock = threading.Lock()
        self._hurry = threading.Event()
        """Set when someone waits for the learning: the batch waiting is learnt at once."""
        insert = postgresql.insert if self._postgresql else sqlite.insert
        self._insert_attempt = (
            insert(attempts_table)
            .on_conflict_do_nothing(index_elements=["class", "attempt_id"])
            .returning(_ATTEMPTS.id)
        )
        """Keep an attempt unless its id is there already (then nothing is written, and no
        row id comes back)."""
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
                "value": _within(_RATINGS.value + sa.bindparam("b_moved"), -BOUND, BOUND),
                "variance": _within(
                    1.0 / (1.0 / _RATINGS.variance + sa.bindparam("b_sharper")),
                    MIN_PUZZLE_VARIANCE,
                    PUZZLE_VARIANCE,
                ),
                "answers": _RATINGS.answers + sa.bindparam("b_count"),
            },
        )
        """Add one answer's change to a puzzle's rating as it is then (a new one: the rating
        after the answer), in one statement."""

    def close(self) -> None:
        """Close the database, once every answer recorded has taught the model (the store
        cannot be used afterwards)."""
        self._hurry.set()
        self._learning.shutdown(wait=True)
        self.database.close()

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

    def _write(self, work: Any) -> Any:
        return self.database.run(work, write=True)

    def _read(self, work: Any) -> Any:
        return self.database.run(work, write=False)

    # ------------------------------------------------------------- classes
    @staticmethod
    def _name_of(db: Connection, name: str) -> str | None:
        """The name class ``name`` was given (it ignores case), or ``None``: no such class."""
        found = db.execute(_NAME_OF_KEY, {"b_key": class_key(name)}).first()
        return None if found is None else str(found.name)

    @classmethod
    def _need_class(cls, db: Connection, name: str) -> str:
        """The name class ``name`` was given; ``UnknownClassError`` if there is none."""
        found = cls._name_of(db, name)
        if found is None:
            raise UnknownClassError("Unknown class {name!r}.", name=name)
        return found

    @classmethod
    def _class_named(cls, db: Connection, name: str) -> str:
        """The name class ``name`` was given, or ``name`` itself (its rows are then none)."""
        return cls._name_of(db, name) or name

    def add_class(self, assignment: Assignment) -> None:
        """Keep a new class's assignment; ``ClassExistsError`` if the name is taken (in any
        case: ``4B`` when ``4b`` exists)."""
        a = assignment

        def add(db: Connection) -> None:
            found = self._name_of(db, a.name)
            if found is not None:
                raise ClassExistsError(
                    "A class named {name!r} exists already: pick another name, or forget it first.",
                    name=found,
                )
            db.execute(
                sa.insert(classes_table).values(
                    name=a.name,
                    key=class_key(a.name),
                    mode=a.mode,
                    codes=",".join(a.codes),
                    level=a.level,
                    count=a.count,
                    seed=a.seed,
                    difficulty=a.difficulty,
                    mu=a.mu,
                    at_level=int(a.at_level),
                    target=a.target,
                    filters=a.filters,
                    created=utc_now(),
                )
            )

        self._write(add)

    def assignment(self, name: str) -> Assignment:
        """The assignment of class ``name`` (in any case); ``UnknownClassError`` if there is
        none."""
        columns = [classes_table.c[c] for c in _CLASS_COLUMNS]
        query = sa.select(*columns).where(_CLASSES.key == class_key(name))
        row = self._read(lambda db: db.execute(query).first())
        if row is None:
            raise UnknownClassError("Unknown class {name!r}.", name=name)
        return _assignment(row)

    def classes(self) -> list[Assignment]:
        """Every class, by name."""
        columns = [classes_table.c[c] for c in _CLASS_COLUMNS]
        query = sa.select(*columns).order_by(classes_table.c.name)
        return [_assignment(row) for row in self._read(lambda db: db.execute(query).all())]

    def forget(self, name: str) -> int:
        """Delete class ``name``, its students, sessions and every attempt; returns the
        attempts deleted."""

        def delete(db: Connection) -> int:
            named = self._need_class(db, name)
            gone = db.execute(sa.delete(attempts_table).where(_ATTEMPTS["class"] == named))
            db.execute(sa.delete(sessions_table).where(_SESSIONS["class"] == named))
            seat_ids = sa.select(_SEATS.id).where(_SEATS["class"] == named)
            db.execute(sa.delete(abilities_table).where(_ABILITIES.seat.in_(seat_ids)))
            db.execute(sa.delete(seats_table).where(_SEATS["class"] == named))
            db.execute(sa.delete(classes_table).where(_CLASSES.name == named))
            return int(gone.rowcount)

        deleted: int = self._write(delete)
        if not self._postgresql and self.database.path is not None:
            # Leave no copy of the rows in the write-ahead log either.
            self._read(lambda db: db.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)").all())
        return deleted

    # --------------------------------------------------------------- seats
    def join(
        self, name: str, nickname: str, token: str, now: float, rejoin_code: str | None = None
    ) -> Joined:
        """Give the seat of ``nickname`` (already checked by
        :func:`~.nicknames.check_nickname`) in class ``name`` to the session ``token``.

        A nickname with a new :func:`~.nicknames.nickname_key` gets a new seat at puzzle 1
        and a new rejoin code. An existing seat is resumed with its rejoin code (the page
        that held it is then told ``SeatTakenError``), or taken with a new code if the
        teacher released it; otherwise ``NicknameTakenError``.
        """
        key = nickname_key(nickname)
        hashed = token_hash(token)
        shown = nickname.strip()

        def take(db: Connection) -> Joined:
            named = self._need_class(db, name)
            found = db.execute(
                sa.select(seats_table)
                .where(_SEATS["class"] == named, _SEATS.key == key)
                .with_for_update()
            ).first()
            if found is None:
                code, resumed = new_rejoin_code(), False
                seat = Seat(named, shown, hashed, 1, now, 0, now, utc_now())
                values = dict(zip(_SEAT_COLUMNS, astuple(seat)[: len(_SEAT_COLUMNS)], strict=True))
                inserted = db.execute(
                    sa.insert(seats_table).values(
                        key=key, joined=seat.joined, secret=_secret(code), **values
                    )
                )
                seat_id = int(inserted.inserted_primary_key[0])  # type: ignore[index]
            else:
                if found.secret is None:
                    code = new_rejoin_code()
                elif rejoin_code is not None and _matches(rejoin_code, found.secret):
                    code = normalise_rejoin_code(rejoin_code)
                else:
                    raise NicknameTakenError(
                        "This nickname is taken in this class. If it is yours, type your "
                        "rejoin code."
                    )
                resumed, seat_id = True, int(found.id)
                seat = replace(_seat(found), session=hashed, last_seen=now)
                db.execute(
                    sa.update(seats_table)
                    .where(_SEATS.id == seat_id)
                    .values(session=hashed, last_seen=now, secret=_secret(code))
                )
            db.execute(sa.delete(sessions_table).where(_SESSIONS.token == hashed))
            db.execute(
                sa.insert(sessions_table).values(
                    token=hashed, seat=seat_id, started=now, **{"class": named}
                )
            )
            return Joined(seat, token, code, resumed)

        joined: Joined = self._write(take)
        return joined

    def _holder(self, db: Connection, name: str, token: str, *, lock: bool = False) -> Any:
        """The seat row ``token`` holds in class ``name``; ``UnknownSessionError`` if no
        session has it, ``SeatTakenError`` if its seat was taken, released or removed."""
        hashed = token_hash(token)
        return _held(self._session_seat(db, name, hashed, lock=lock), hashed)

    def _session_seat(self, db: Connection, name: str, hashed: str, *, lock: bool) -> Any:
        """The seat row the session ``hashed`` of class ``name`` was given (locked, in
        PostgreSQL, if ``lock``); ``_NO_SEAT`` when it is gone, ``None`` for no such session."""
        session = {"b_token": hashed, "b_key": class_key(name)}
        row = db.execute(_SEAT_OF_SESSION_LOCKED if lock else _SEAT_OF_SESSION, session).first()
        if row is not None:
            return row
        return None if db.execute(_SEAT_ID_OF_SESSION, session).first() is None else _NO_SEAT

    def seat_of(self, name: str, token: str) -> Seat:
        """The seat the session ``token`` holds (``UnknownSessionError``, ``SeatTakenError``)."""
        return _seat(self._read(lambda db: self._holder(db, name, token)))

    def touch(self, name: str, token: str, now: float, hints: int | None = None) -> Seat:
        """A sign of life from the page of ``token`` (and the hints used on its puzzle)."""
        if self._postgresql:
            bound = {"b_key": class_key(name), "b_token": token_hash(token), "b_seen": now}
            touched = self.database.run(
                lambda db: db.execute(TOUCH_SEAT, {**bound, "b_hints": hints}).first(),
                write=True,
                single=True,
            )
            if touched is not None:
                return _seat(touched)

        def alive(db: Connection) -> Seat:
            row = self._holder(db, name, token, lock=True)
            if hints is None:
                db.execute(_SEAT_SEEN, {"b_seat": row.id, "b_seen": now})
                return replace(_seat(row), last_seen=now)
            db.execute(_SEAT_SEEN_WITH_HINTS, {"b_seat": row.id, "b_seen": now, "b_hints": hints})
            return replace(_seat(row), last_seen=now, hints=hints)

        seat: Seat = self._write(alive)
        return seat

    def leave(self, name: str, token: str) -> None:
        """The page of ``token`` is gone: its seat's last sign of life becomes 0."""

        def gone(db: Connection) -> None:
            row = self._holder(db, name, token, lock=True)
            db.execute(sa.update(seats_table).where(_SEATS.id == row.id).values(last_seen=0.0))

        self._write(gone)

    def seats(self, name: str) -> list[Seat]:
        """Every student of class ``name``, in the order they joined."""

        def read(db: Connection) -> list[Any]:
            named = self._class_named(db, name)
            query = sa.select(seats_table).where(_SEATS["class"] == named).order_by(_SEATS.id)
            return list(db.execute(query).all())

        return [_seat(row) for row in self._read(read)]

    # ----------------------------------------------------------- attempts
    def record(
        self, name: str, token: str, attempt_id: str, attempt: Attempt, now: float
    ) -> Recorded:
        """Keep one attempt of the session ``token``, once: a known ``attempt_id`` gives the
        row stored the first time and writes nothing (``new=False``).

        Otherwise the session must hold its seat (``SeatTakenError``) and the attempt be at
        the seat's puzzle (``PuzzleNotOpenError``); the row gets the seat's nickname, this
        session and the id, its answer at most :data:`~.limits.MAX_CHARS` characters; an
        attempt that finishes the puzzle moves the seat on, in the same transaction.
        """
        hashed = token_hash(token)
        if self._postgresql:
            quick = self._record_at_once(name, hashed, attempt_id, attempt, now)
            if quick is not None:
                return quick

        ended: list[_Ended] = []  # the answer this attempt ends, to learn from once committed

        def keep(db: Connection) -> Recorded:
            ended.clear()  # a transaction run again after a busy database starts afresh
            mine = self._session_seat(db, name, hashed, lock=True)
            try:
                row = _held(mine, hashed)
                seat = _seat(row)
                named = seat.class_name
                known = {"b_class": named, "b_attempt": attempt_id}
                if attempt.puzzle != seat.puzzle:
                    raise PuzzleNotOpenError(
                        "This puzzle is not open: you are on puzzle {current}.",
                        current=seat.puzzle,
                    )
            except (UnknownSessionError, SeatTakenError, PuzzleNotOpenError):
                named = self._class_named(db, name)
                known = {"b_class": named, "b_attempt": attempt_id}
                stored = db.execute(_ATTEMPT_BY_ID, known).first()
                if stored is not None:  # a resend, after the seat moved on or was taken
                    return self._resent(db, named, attempt_id, stored, hashed, mine)
                raise
            kept = replace(
                attempt, class_name=named, nickname=seat.nickname, answer=attempt.answer[:MAX_CHARS]
            )
            values = dict(zip(CSV_COLUMNS, astuple(kept), strict=True))
            inserted = db.execute(
                self._insert_attempt, {"attempt_id": attempt_id, "session": hashed, **values}
            )
            if inserted.first() is None:  # the id is there: a resend, or another request's
                stored = db.execute(_ATTEMPT_BY_ID, known).one()
                return self._resent(db, named, attempt_id, stored, hashed, mine)
            if kept.finishes:
                ended.append((int(row.id), seat.started, kept, now))
                moved = {"b_seat": row.id, "b_seen": now, "b_puzzle": seat.puzzle + 1}
                db.execute(_SEAT_MOVED_ON, moved)
                after = replace(
                    seat, puzzle=seat.puzzle + 1, started=now, hints=0, last_seen=now, code=""
                )
            else:
                db.execute(_SEAT_SEEN, {"b_seat": row.id, "b_seen": now})
                after = replace(seat, last_seen=now)
            return Recorded(kept, attempt_id, after, True)

        recorded: Recorded = self._write(keep)
        for answer in ended:  # once committed: the learning thread learns it
            self._learn_later(*answer)
        return recorded

    def _record_at_once(
        self, name: str, hashed: str, attempt_id: str, attempt: Attempt, now: float
    ) -> Recorded | None:
        """The common case of :meth:`record` in one statement (PostgreSQL): ``None`` when
        it is not that case, and nothing was written."""
        answer = attempt.answer[:MAX_CHARS]
        values = dict(zip(CSV_COLUMNS, astuple(replace(attempt, answer=answer)), strict=True))
        del values["class"], values["nickname"]
        bound: dict[str, Any] = {"b_key": class_key(name), "b_token": hashed}
        bound.update(b_attempt=attempt_id, b_seen=now, b_finishes=attempt.finishes)

        def keep(db: Connection) -> Any:
            return db.execute(RECORD_ATTEMPT, {**bound, **values}).first()

        row = self.database.run(keep, write=True, single=True)
        if row is None or not row.kept:
            return None
        seat = _seat(row)
        kept = replace(attempt, class_name=seat.class_name, nickname=seat.nickname, answer=answer)
        if kept.finishes:
            self._learn_later(int(row.id), seat.started, kept, now)
            after = replace(
                seat, puzzle=seat.puzzle + 1, started=now, hints=0, last_seen=now, code=""
            )
        else:
            after = replace(seat, last_seen=now)
        return Recorded(kept, attempt_id, after, True)

    def _resent(
        self, db: Connection, name: str, attempt_id: str, stored: Any, hashed: str, mine: Any
    ) -> Recorded:
        """A known attempt id: the stored row, if this session or its seat sent it."""
        if mine is None:  # no such session: as for every other request with it
            raise UnknownSessionError(
                "This page has not joined the class: join with your nickname."
            )
        attempt = _attempt(stored)
        own = stored.session == hashed or (
            mine is not None and mine is not _NO_SEAT and mine.nickname == attempt.nickname
        )
        if not own:
            raise PuzzleNotOpenError(
                "This attempt's id belongs to another attempt: send it with a new id."
            )
        seat = db.execute(
            sa.select(seats_table).where(
                _SEATS["class"] == name, _SEATS.nickname == attempt.nickname
            )
        ).first()
        if seat is None:
            raise SeatTakenError(
                "This page no longer has your seat: it is open on another screen, or your "
                "teacher changed it. Join again."
            )
        return Recorded(attempt, attempt_id, _seat(seat), False)

    def attempts(self, name: str, nickname: str | None = None) -> list[Attempt]:
        """Every attempt in class ``name`` (of one student if ``nickname``), oldest first."""

        def read(db: Connection) -> list[Any]:
            named = self._class_named(db, name)
            query = sa.select(*_ATTEMPT_COLUMNS).where(_ATTEMPTS["class"] == named)
            if nickname is not None:
                query = query.where(_ATTEMPTS.nickname == nickname)
            return list(db.execute(query.order_by(_ATTEMPTS.id)).all())

        return [_attempt(row) for row in self._read(read)]

    def attempts_since(self, name: str, after: int = 0) -> list[tuple[int, Attempt]]:
        """The attempts of class ``name`` stored after the row ``after``, with their row
        numbers, oldest first (what a board that has the rows up to ``after`` still needs)."""

        def read(db: Connection) -> list[Any]:
            named = self._class_named(db, name)
            query = (
                sa.select(_ATTEMPTS.id, *_ATTEMPT_COLUMNS)
                .where(_ATTEMPTS["class"] == named, _ATTEMPTS.id > after)
                .order_by(_ATTEMPTS.id)
            )
            return list(db.execute(query).all())

        return [(int(row.id), _attempt(row)) for row in self._read(read)]

    # ---------------------------------------------------- the teacher's actions
    def _named_seat(self, db: Connection, name: str, nickname: str) -> Any:
        named = self._need_class(db, name)
        row = db.execute(
            sa.select(seats_table)
            .where(_SEATS["class"] == named, _SEATS.nickname == nickname)
            .with_for_update()
        ).first()
        if row is None:
            row = db.execute(
                sa.select(seats_table)
                .where(_SEATS["class"] == named, _SEATS.key == nickname_key(nickname))
                .with_for_update()
            ).first()
        if row is None:
            raise UnknownSeatError(
                "No student called {nickname!r} in class {name!r}.", nickname=nickname, name=name
            )
        return row

    def release_seat(self, name: str, nickname: str) -> None:
        """Free a student's seat: its page is told so, and the next join with the nickname
        takes it (where it was) and gets a new rejoin code."""

        def release(db: Connection) -> None:
            row = self._named_seat(db, name, nickname)
            db.execute(
                sa.update(seats_table)
                .where(_SEATS.id == row.id)
                .values(secret=None, session="", last_seen=0.0)
            )

        self._write(release)

    def reset_seat(self, name: str, nickname: str, *, now: float | None = None) -> None:
        """Start a student over: their attempts deleted, back to puzzle 1 (the seat stays
        theirs)."""

        def reset(db: Connection) -> None:
            row = self._named_seat(db, name, nickname)
            db.execute(
                sa.delete(attempts_table).where(
                    _ATTEMPTS["class"] == row._mapping["class"], _ATTEMPTS.nickname == row.nickname
                )
            )
            started = time.time() if now is None else now
            db.execute(
                sa.update(seats_table)
                .where(_SEATS.id == row.id)
                .values(puzzle=1, started=started, hints=0, code=None)
            )

        self._write(reset)

    def remove_seat(self, name: str, nickname: str) -> None:
        """Delete a student: their seat and every attempt (their page is told so)."""

        def remove(db: Connection) -> None:
            row = self._named_seat(db, name, nickname)
            db.execute(
                sa.delete(attempts_table).where(
                    _ATTEMPTS["class"] == row._mapping["class"], _ATTEMPTS.nickname == row.nickname
                )
            )
            db.execute(sa.delete(abilities_table).where(_ABILITIES.seat == row.id))
            db.execute(sa.delete(seats_table).where(_SEATS.id == row.id))

        self._write(remove)

    def merge_seats(self, name: str, source: str, into: str) -> None:
        """One student joined twice: ``source``'s attempts become ``into``'s, ``source`` goes,
        and ``into`` is on the further of the two puzzles."""

        def merge(db: Connection) -> None:
            gone = self._named_seat(db, name, source)
            kept = self._named_seat(db, name, into)
            if gone.id == kept.id:
                raise UnknownSeatError(
                    "Merge two different students: {nickname!r} is one.", nickname=source
                )
            db.execute(
                sa.update(attempts_table)
                .where(
                    _ATTEMPTS["class"] == kept._mapping["class"],
                    _ATTEMPTS.nickname == gone.nickname,
                )
                .values(nickname=kept.nickname)
            )
            if gone.puzzle > kept.puzzle:
                db.execute(
                    sa.update(seats_table)
                    .where(_SEATS.id == kept.id)
                    .values(
                        puzzle=gone.puzzle, started=gone.started, hints=gone.hints, code=gone.code
                    )
                )
            db.execute(sa.delete(abilities_table).where(_ABILITIES.seat == gone.id))
            db.execute(sa.delete(seats_table).where(_SEATS.id == gone.id))

        self._write(merge)

    def join_vouched(self, name: str, nickname: str, token: str, now: float) -> Joined:
        """Give the seat of ``nickname`` to the session ``token`` without its rejoin code: the
        caller vouches that the student is ``nickname`` (a JupyterHub signed them in).

        As :meth:`join` otherwise (a new seat at puzzle 1, or the seat as it was, with a new
        code; the page that held it is told ``SeatTakenError``). The seat of another nickname
        that looks the same keeps its code: ``NicknameTakenError``.
        """

        def vouch(db: Connection) -> None:
            exactly = sa.update(seats_table).where(
                _SEATS["class"] == self._class_named(db, name),
                _SEATS.key == nickname_key(nickname),
                _SEATS.nickname == nickname.strip(),
            )
            db.execute(exactly.values(secret=None))

        self._write(vouch)
        return self.join(name, nickname, token, now)

    # ------------------------------------------------------------ learning
    def _learn_all(self, db: Connection, batch: list[_Ended]) -> None:
        """Teach the learner model every attempt of ``batch`` (each ends its puzzle), in
        order: the seat's ability at the puzzle's level and the puzzle's rating, in three
        reads, one write of the abilities and one of each puzzle's rating, however many
        answers the batch holds.

        An ability is written whole (a seat's puzzles end one after another). A rating,
        which every student of every class may be answering at once, is changed by one
        statement that adds the batch's changes to the row as it is then (made from its
        prior if new): it holds the row's lock for that statement only, and two answers at
        once both count, neither overwrites the other."""
        ended = []
        for seat_id, started, kept, now in batch:
            try:
                puzzle, key = _rated_puzzle(kept.code)
            except ValueError:  # not a code this version reads: nothing to learn from
                continue
            ended.append((seat_id, started, kept, now, puzzle, key))
        if not ended:
            return
        seats = {(seat_id, puzzle.level.name) for seat_id, _, _, _, puzzle, _ in ended}
        places = {(kept.class_name, kept.nickname, kept.puzzle) for _, _, kept, *_ in ended}
        keys = {key for *_, key in ended}
        found = db.execute(_ABILITIES_OF, {"b_seats": sorted(seats)})
        abilities = {(int(row.seat), str(row.level)): dict(row._mapping) for row in found}
        found = db.execute(_RATINGS_OF, {"b_keys": sorted(keys)})
        ratings = {str(row.puzzle_key): _rating(row) for row in found}
        found = db.execute(_MISTAKES_OF, {"b_places": sorted(places)})
        mistakes = {(str(row[0]), str(row[1]), int(row[2])): int(row[3]) for row in found}
        changes: dict[str, list[float]] = {}
        for seat_id, started, kept, now, puzzle, key in ended:
            level, today = puzzle.level.name, _day(now)
            row = abilities.get((seat_id, level))
            ability = Ability() if row is None else Ability.from_dict(row)
            start = ability.value
            if row is not None and row["day"] == today:
                start = float(row["day_start"])
            rating = ratings[key] if key in ratings else prior(puzzle)
            place = (kept.class_name, kept.nickname, kept.puzzle)
            response = response_of(kept, mistakes.get(place, 0), now - started)
            learnt, rated = update(ability, rating, response)
            row = {"seat": seat_id, "level": level, "day": today, "day_start": start}
            abilities[(seat_id, level)] = row | learnt.to_dict()
            ratings[key] = rated
            change = changes.setdefault(key, [0.0, 0.0, 0.0])
            change[0] += rated.value - rating.value
            change[1] += 1.0 / rated.variance - 1.0 / rating.variance
            change[2] += 1
        written = [abilities[seat] for seat in sorted(seats)]
        db.execute(self._keep_ability, [{f"a_{n}": v for n, v in r.items()} for r in written])
        for key, (moved, sharper, answers) in sorted(changes.items()):
            bound: dict[str, Any] = {f"r_{n}": v for n, v in ratings[key].to_dict().items()}
            bound.update(r_puzzle_key=key, b_moved=moved, b_sharper=sharper, b_count=answers)
            db.execute(self._teach_rating, bound)

    def learner(self, name: str, nickname: str) -> Learner:
        """The abilities of the student ``nickname`` of class ``name``, one per level they
        answered at (``UnknownSeatError`` for no such student)."""

        def read(db: Connection) -> Learner:
            row = self._named_seat(db, name, nickname)
            rows = db.execute(sa.select(abilities_table).where(_ABILITIES.seat == row.id)).all()
            return Learner({str(found.level): _ability(found) for found in rows})

        learner: Learner = self._read(read)
        return learner

    def puzzle_rating(self, puzzle: Puzzle) -> PuzzleRating:
        """The puzzle's rating as the answers of every class taught it (its prior if none)."""
        query = sa.select(ratings_table).where(_RATINGS.puzzle_key == puzzle_key(puzzle))
        row = self._read(lambda db: db.execute(query).first())
        return prior(puzzle) if row is None else _rating(row)

    def puzzle_ratings(self) -> PuzzleRatings:
        """Every learnt rating of the store, by puzzle key."""
        rows = self._read(lambda db: db.execute(sa.select(ratings_table)).all())
        return PuzzleRatings({str(row.puzzle_key): _rating(row) for row in rows})

    def deal_to(self, name: str, nickname: str, number: int, code: str) -> Seat:
        """Give the student ``nickname`` the puzzle ``code`` as their puzzle ``number``, if
        they are on it and have none yet (a page asking at the same time dealt the same,
        from the same seed and ability: the first is kept). Returns the seat."""

        def give(db: Connection) -> Seat:
            row = self._named_seat(db, name, nickname)
            if int(row.puzzle) == number and not row.code:
                db.execute(sa.update(seats_table).where(_SEATS.id == row.id).values(code=code))
                return replace(_seat(row), code=code)
            return _seat(row)

        seat: Seat = self._write(give)
        return seat

    def progress(self, name: str, level: str, now: float | None = None) -> dict[str, Progress]:
        """Each student's ability at ``level`` who has answered there: at the start of the
        day's lesson (the day of ``now``, by default today) and now, by nickname."""

        def read(db: Connection) -> list[Any]:
            named = self._class_named(db, name)
            query = (
                sa.select(_SEATS.nickname, abilities_table)
                .select_from(seats_table.join(abilities_table, _ABILITIES.seat == _SEATS.id))
                .where(_SEATS["class"] == named, _ABILITIES.level == level)
            )
            return list(db.execute(query).all())

        today = _day(time.time() if now is None else now)
        found = {}
        for row in self._read(read):
            ability = _ability(row)
            start = float(row.day_start) if row.day == today else ability.value
            found[str(row.nickname)] = Progress(start, ability.value, ability.answers)
        return found


class SQLiteStore(SQLStore):
    """The progress store in one SQLite file (or ``":memory:"``): a :class:`SQLStore`."""
