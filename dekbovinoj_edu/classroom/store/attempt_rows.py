"""The attempts of the progress store: one attempt kept once (idempotent by its id, unique in
its class) and the seat moved on in the same transaction, and the attempts of a class (all,
one student's, or those since a row a board has).
"""

from __future__ import annotations

from dataclasses import astuple, replace
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ...rules.limits import MAX_CHARS
from ..assignment import class_key
from ..attempts import CSV_COLUMNS, Attempt
from ..errors import ClassEndedError, PuzzleNotOpenError, SeatTakenError, UnknownSessionError
from ..seat import Recorded, token_hash
from .base import StoreBase
from .rows import (
    ATTEMPT_BY_ID,
    ATTEMPT_COLUMNS,
    ATTEMPTS,
    CLASSES,
    NO_SEAT,
    SEAT_MOVED_ON,
    SEAT_SEEN,
    SEATS,
    attempt_from,
    held,
    seat_from,
)
from .single_statements import RECORD_ATTEMPT
from .tables import seats as seats_table

__all__ = ["AttemptRows"]

_Ended = tuple[int, float, Attempt, float]
"""An attempt that ends its puzzle, to learn from: its seat, when the seat's puzzle started,
the attempt, and the server's time."""


class AttemptRows(StoreBase):
    """The store's attempts (see :class:`~.sql_store.SQLStore`)."""

    _insert_attempt: Any
    """Keep an attempt unless its id is there already (then nothing is written, and no row id
    comes back): built for the database's dialect by :class:`~.sql_store.SQLStore`."""

    def record(
        self, name: str, token: str, attempt_id: str, attempt: Attempt, now: float
    ) -> Recorded:
        """Keep one attempt of the session ``token``, once: a known ``attempt_id`` gives the
        row stored the first time and writes nothing (``new=False``).

        Otherwise the class must not have ended (``ClassEndedError``), the session must
        hold its seat (``SeatTakenError``) and the attempt be at the seat's puzzle
        (``PuzzleNotOpenError``); the row gets the seat's nickname, this
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
                if mine is None or mine is NO_SEAT:
                    self._refuse_if_ended(db, name)
                row = held(mine, hashed)
                seat = seat_from(row)
                named = seat.class_name
                known = {"b_class": named, "b_attempt": attempt_id}
                if row.class_ended is not None:
                    raise ClassEndedError.of(named)
                if attempt.puzzle != seat.puzzle:
                    raise PuzzleNotOpenError(
                        "This puzzle is not open: you are on puzzle {current}.",
                        current=seat.puzzle,
                    )
            except (UnknownSessionError, SeatTakenError, PuzzleNotOpenError):
                named = self._class_named(db, name)
                known = {"b_class": named, "b_attempt": attempt_id}
                stored = db.execute(ATTEMPT_BY_ID, known).first()
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
                stored = db.execute(ATTEMPT_BY_ID, known).one()
                return self._resent(db, named, attempt_id, stored, hashed, mine)
            if kept.finishes:
                ended.append((int(row.id), seat.started, kept, now))
                moved = {"b_seat": row.id, "b_seen": now, "b_puzzle": seat.puzzle + 1}
                db.execute(SEAT_MOVED_ON, moved)
                after = replace(
                    seat, puzzle=seat.puzzle + 1, started=now, hints=0, last_seen=now, code=""
                )
            else:
                db.execute(SEAT_SEEN, {"b_seat": row.id, "b_seen": now})
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
        seat = seat_from(row)
        kept = replace(attempt, class_name=seat.class_name, nickname=seat.nickname, answer=answer)
        if kept.finishes:
            self._learn_later(int(row.id), seat.started, kept, now)
            after = replace(
                seat, puzzle=seat.puzzle + 1, started=now, hints=0, last_seen=now, code=""
            )
        else:
            after = replace(seat, last_seen=now)
        return Recorded(kept, attempt_id, after, True)

    def _refuse_if_ended(self, db: Connection, name: str) -> None:
        """``ClassEndedError`` if class ``name`` was ended (an ended class says so first)."""
        query = sa.select(CLASSES.name, CLASSES.ended).where(CLASSES.key == class_key(name))
        found = db.execute(query).first()
        if found is not None and found.ended is not None:
            raise ClassEndedError.of(found.name)

    def _resent(
        self, db: Connection, name: str, attempt_id: str, stored: Any, hashed: str, mine: Any
    ) -> Recorded:
        """A known attempt id: the stored row, if this session or its seat sent it."""
        if mine is None:  # no such session: as for every other request with it
            raise UnknownSessionError(
                "This page has not joined the class: join with your nickname."
            )
        attempt = attempt_from(stored)
        own = stored.session == hashed or (
            mine is not None and mine is not NO_SEAT and mine.nickname == attempt.nickname
        )
        if not own:
            raise PuzzleNotOpenError(
                "This attempt's id belongs to another attempt: send it with a new id."
            )
        seat = db.execute(
            sa.select(seats_table).where(SEATS["class"] == name, SEATS.nickname == attempt.nickname)
        ).first()
        if seat is None:
            raise SeatTakenError(
                "This page no longer has your seat: it is open on another screen, or your "
                "teacher changed it. Join again."
            )
        return Recorded(attempt, attempt_id, seat_from(seat), False)

    def attempts(self, name: str, nickname: str | None = None) -> list[Attempt]:
        """Every attempt in class ``name`` (of one student if ``nickname``), oldest first."""

        def read(db: Connection) -> list[Any]:
            named = self._class_named(db, name)
            query = sa.select(*ATTEMPT_COLUMNS).where(ATTEMPTS["class"] == named)
            if nickname is not None:
                query = query.where(ATTEMPTS.nickname == nickname)
            return list(db.execute(query.order_by(ATTEMPTS.id)).all())

        return [attempt_from(row) for row in self._read(read)]

    def attempts_since(self, name: str, after: int = 0) -> list[tuple[int, Attempt]]:
        """The attempts of class ``name`` stored after the row ``after``, with their row
        numbers, oldest first (what a board that has the rows up to ``after`` still needs)."""

        def read(db: Connection) -> list[Any]:
            named = self._class_named(db, name)
            query = (
                sa.select(ATTEMPTS.id, *ATTEMPT_COLUMNS)
                .where(ATTEMPTS["class"] == named, ATTEMPTS.id > after)
                .order_by(ATTEMPTS.id)
            )
            return list(db.execute(query).all())

        return [(int(row.id), attempt_from(row)) for row in self._read(read)]
