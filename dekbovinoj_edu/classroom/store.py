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
>>> store.forget("4a")
0
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import time
from dataclasses import astuple, replace
from pathlib import Path
from typing import Any, Protocol

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Row

from ..rules.limits import MAX_CHARS
from .assignment import Assignment
from .attempts import CSV_COLUMNS, Attempt, utc_now
from .database import Database, open_database
from .errors import (
    ClassExistsError,
    NicknameTakenError,
    PuzzleNotOpenError,
    SeatTakenError,
    UnknownClassError,
    UnknownSeatError,
    UnknownSessionError,
)
from .nicknames import nickname_key
from .seat import Joined, Recorded, Seat, new_rejoin_code, normalise_rejoin_code, token_hash
from .single_statements import RECORD_ATTEMPT, TOUCH_SEAT
from .tables import attempts as attempts_table
from .tables import classes as classes_table
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
_CLASS_COLUMNS = ("name", "mode", "codes", "level", "count", "seed", "difficulty", "mu")
_SEAT_COLUMNS = ("class", "nickname", "session", "puzzle", "started", "hints", "last_seen")


def _assignment(row: Row[Any]) -> Assignment:
    name, mode, codes, level, count, seed, difficulty, mu = tuple(row)
    return Assignment(
        str(name),
        tuple(str(codes).split(",")),
        str(mode),
        level=None if level is None else str(level),
        count=None if count is None else int(count),
        seed=None if seed is None else str(seed),
        difficulty=None if difficulty is None else str(difficulty),
        mu=None if mu is None else float(mu),
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
_SEAT_ID_OF_SESSION = sa.select(_SESSIONS.seat).where(
    _SESSIONS.token == sa.bindparam("b_token"), _SESSIONS["class"] == sa.bindparam("b_class")
)
_SEAT_OF_SESSION = (
    sa.select(seats_table)
    .select_from(sessions_table.join(seats_table, _SEATS.id == _SESSIONS.seat))
    .where(
        _SESSIONS.token == sa.bindparam("b_token"), _SESSIONS["class"] == sa.bindparam("b_class")
    )
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
    puzzle=sa.bindparam("b_puzzle"), started=sa.bindparam("b_seen"), hints=0
)


class SQLStore:
    """The progress store in a SQLite file, in memory (``":memory:"``) or in PostgreSQL;
    safe to share between the threads of one process, and between processes."""

    def __init__(self, where: str | os.PathLike[str]) -> None:
        self.database: Database = open_database(where)
        self.where = self.database.where
        """The database, as a person would name it (the address without its password)."""
        self._postgresql = self.database.dialect == "postgresql"
        insert = postgresql.insert if self._postgresql else sqlite.insert
        self._insert_attempt = (
            insert(attempts_table)
            .on_conflict_do_nothing(index_elements=["class", "attempt_id"])
            .returning(_ATTEMPTS.id)
        )
        """Keep an attempt unless its id is there already (then nothing is written, and no
        row id comes back)."""

    def close(self) -> None:
        """Close the database (the store cannot be used afterwards)."""
        self.database.close()

    def _write(self, work: Any) -> Any:
        return self.database.run(work, write=True)

    def _read(self, work: Any) -> Any:
        return self.database.run(work, write=False)

    # ------------------------------------------------------------- classes
    @staticmethod
    def _need_class(db: Connection, name: str) -> None:
        found = db.execute(sa.select(classes_table.c.name).where(classes_table.c.name == name))
        if found.first() is None:
            raise UnknownClassError("Unknown class {name!r}.", name=name)

    def add_class(self, assignment: Assignment) -> None:
        """Keep a new class's assignment; ``ClassExistsError`` if the name is taken."""
        a = assignment

        def add(db: Connection) -> None:
            named = sa.select(classes_table.c.name).where(classes_table.c.name == a.name)
            if db.execute(named).first() is not None:
                raise ClassExistsError(
                    "A class named {name!r} exists already: pick another name, or forget it first.",
                    name=a.name,
                )
            db.execute(
                sa.insert(classes_table).values(
                    name=a.name,
                    mode=a.mode,
                    codes=",".join(a.codes),
                    level=a.level,
                    count=a.count,
                    seed=a.seed,
                    difficulty=a.difficulty,
                    mu=a.mu,
                    created=utc_now(),
                )
            )

        self._write(add)

    def assignment(self, name: str) -> Assignment:
        """The assignment of class ``name``; ``UnknownClassError`` if there is none."""
        columns = [classes_table.c[c] for c in _CLASS_COLUMNS]
        query = sa.select(*columns).where(classes_table.c.name == name)
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
            self._need_class(db, name)
            gone = db.execute(sa.delete(attempts_table).where(_ATTEMPTS["class"] == name))
            db.execute(sa.delete(sessions_table).where(_SESSIONS["class"] == name))
            db.execute(sa.delete(seats_table).where(_SEATS["class"] == name))
            db.execute(sa.delete(classes_table).where(classes_table.c.name == name))
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
            self._need_class(db, name)
            found = db.execute(
                sa.select(seats_table)
                .where(_SEATS["class"] == name, _SEATS.key == key)
                .with_for_update()
            ).first()
            if found is None:
                code, resumed = new_rejoin_code(), False
                seat = Seat(name, shown, hashed, 1, now, 0, now, utc_now())
                values = dict(zip(_SEAT_COLUMNS, astuple(seat)[:-1], strict=True))
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
                    token=hashed, seat=seat_id, started=now, **{"class": name}
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
        session = {"b_token": hashed, "b_class": name}
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
            bound = {"b_class": name, "b_token": token_hash(token), "b_seen": now}
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
        query = sa.select(seats_table).where(_SEATS["class"] == name).order_by(_SEATS.id)
        return [_seat(row) for row in self._read(lambda db: db.execute(query).all())]

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

        def keep(db: Connection) -> Recorded:
            mine = self._session_seat(db, name, hashed, lock=True)
            known = {"b_class": name, "b_attempt": attempt_id}
            try:
                row = _held(mine, hashed)
                seat = _seat(row)
                if attempt.puzzle != seat.puzzle:
                    raise PuzzleNotOpenError(
                        "This puzzle is not open: you are on puzzle {current}.",
                        current=seat.puzzle,
                    )
            except (UnknownSessionError, SeatTakenError, PuzzleNotOpenError):
                stored = db.execute(_ATTEMPT_BY_ID, known).first()
                if stored is not None:  # a resend, after the seat moved on or was taken
                    return self._resent(db, name, attempt_id, stored, hashed, mine)
                raise
            kept = replace(
                attempt, class_name=name, nickname=seat.nickname, answer=attempt.answer[:MAX_CHARS]
            )
            values = dict(zip(CSV_COLUMNS, astuple(kept), strict=True))
            inserted = db.execute(
                self._insert_attempt, {"attempt_id": attempt_id, "session": hashed, **values}
            )
            if inserted.first() is None:  # the id is there: a resend, or another request's
                stored = db.execute(_ATTEMPT_BY_ID, known).one()
                return self._resent(db, name, attempt_id, stored, hashed, mine)
            if kept.finishes:
                moved = {"b_seat": row.id, "b_seen": now, "b_puzzle": seat.puzzle + 1}
                db.execute(_SEAT_MOVED_ON, moved)
                after = replace(seat, puzzle=seat.puzzle + 1, started=now, hints=0, last_seen=now)
            else:
                db.execute(_SEAT_SEEN, {"b_seat": row.id, "b_seen": now})
                after = replace(seat, last_seen=now)
            return Recorded(kept, attempt_id, after, True)

        recorded: Recorded = self._write(keep)
        return recorded

    def _record_at_once(
        self, name: str, hashed: str, attempt_id: str, attempt: Attempt, now: float
    ) -> Recorded | None:
        """The common case of :meth:`record` in one statement (PostgreSQL): ``None`` when
        it is not that case, and nothing was written."""
        answer = attempt.answer[:MAX_CHARS]
        values = dict(zip(CSV_COLUMNS, astuple(replace(attempt, answer=answer)), strict=True))
        del values["class"], values["nickname"]
        bound = {"b_class": name, "b_token": hashed, "b_attempt": attempt_id, "b_seen": now}
        bound["b_finishes"] = attempt.finishes

        def keep(db: Connection) -> Any:
            return db.execute(RECORD_ATTEMPT, {**bound, **values}).first()

        row = self.database.run(keep, write=True, single=True)
        if row is None or not row.kept:
            return None
        seat = _seat(row)
        kept = replace(attempt, class_name=name, nickname=seat.nickname, answer=answer)
        if kept.finishes:
            after = replace(seat, puzzle=seat.puzzle + 1, started=now, hints=0, last_seen=now)
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
        query = sa.select(*_ATTEMPT_COLUMNS).where(_ATTEMPTS["class"] == name)
        if nickname is not None:
            query = query.where(_ATTEMPTS.nickname == nickname)
        rows = self._read(lambda db: db.execute(query.order_by(_ATTEMPTS.id)).all())
        return [_attempt(row) for row in rows]

    def attempts_since(self, name: str, after: int = 0) -> list[tuple[int, Attempt]]:
        """The attempts of class ``name`` stored after the row ``after``, with their row
        numbers, oldest first (what a board that has the rows up to ``after`` still needs)."""
        query = (
            sa.select(_ATTEMPTS.id, *_ATTEMPT_COLUMNS)
            .where(_ATTEMPTS["class"] == name, _ATTEMPTS.id > after)
            .order_by(_ATTEMPTS.id)
        )
        rows = self._read(lambda db: db.execute(query).all())
        return [(int(row.id), _attempt(row)) for row in rows]

    # ---------------------------------------------------- the teacher's actions
    def _named_seat(self, db: Connection, name: str, nickname: str) -> Any:
        self._need_class(db, name)
        row = db.execute(
            sa.select(seats_table)
            .where(_SEATS["class"] == name, _SEATS.nickname == nickname)
            .with_for_update()
        ).first()
        if row is None:
            row = db.execute(
                sa.select(seats_table)
                .where(_SEATS["class"] == name, _SEATS.key == nickname_key(nickname))
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
                    _ATTEMPTS["class"] == name, _ATTEMPTS.nickname == row.nickname
                )
            )
            started = time.time() if now is None else now
            db.execute(
                sa.update(seats_table)
                .where(_SEATS.id == row.id)
                .values(puzzle=1, started=started, hints=0)
            )

        self._write(reset)

    def remove_seat(self, name: str, nickname: str) -> None:
        """Delete a student: their seat and every attempt (their page is told so)."""

        def remove(db: Connection) -> None:
            row = self._named_seat(db, name, nickname)
            db.execute(
                sa.delete(attempts_table).where(
                    _ATTEMPTS["class"] == name, _ATTEMPTS.nickname == row.nickname
                )
            )
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
                .where(_ATTEMPTS["class"] == name, _ATTEMPTS.nickname == gone.nickname)
                .values(nickname=kept.nickname)
            )
            if gone.puzzle > kept.puzzle:
                db.execute(
                    sa.update(seats_table)
                    .where(_SEATS.id == kept.id)
                    .values(puzzle=gone.puzzle, started=gone.started, hints=gone.hints)
                )
            db.execute(sa.delete(seats_table).where(_SEATS.id == gone.id))

        self._write(merge)

    def join_vouched(self, name: str, nickname: str, token: str, now: float) -> Joined:
        """Give the seat of ``nickname`` to the session ``token`` without its rejoin code: the
        caller vouches that the student is ``nickname`` (a JupyterHub signed them in).

        As :meth:`join` otherwise (a new seat at puzzle 1, or the seat as it was, with a new
        code; the page that held it is told ``SeatTakenError``). The seat of another nickname
        that looks the same keeps its code: ``NicknameTakenError``.
        """
        exactly = sa.update(seats_table).where(
            _SEATS["class"] == name,
            _SEATS.key == nickname_key(nickname),
            _SEATS.nickname == nickname.strip(),
        )
        self._write(lambda db: db.execute(exactly.values(secret=None)))
        return self.join(name, nickname, token, now)


class SQLiteStore(SQLStore):
    """The progress store in one SQLite file (or ``":memory:"``): a :class:`SQLStore`."""
