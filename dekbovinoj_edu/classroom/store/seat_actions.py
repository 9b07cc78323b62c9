"""The teacher's seat actions in the progress store: release a seat (the next join with the
nickname takes it, with a new code), reset one (back to puzzle 1, its attempts deleted),
remove one, and merge a student who joined twice into one seat.
"""

from __future__ import annotations

import time

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ..errors import UnknownSeatError
from .base import StoreBase
from .rows import ABILITIES, ATTEMPTS, SEATS
from .tables import abilities as abilities_table
from .tables import attempts as attempts_table
from .tables import seats as seats_table

__all__ = ["SeatActions"]


class SeatActions(StoreBase):
    """What the teacher may do to a seat (see :class:`~.sql_store.SQLStore`)."""

    def release_seat(self, name: str, nickname: str) -> None:
        """Free a student's seat: its page is told so, and the next join with the nickname
        takes it (where it was) and gets a new rejoin code."""

        def release(db: Connection) -> None:
            row = self._named_seat(db, name, nickname)
            db.execute(
                sa.update(seats_table)
                .where(SEATS.id == row.id)
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
                    ATTEMPTS["class"] == row._mapping["class"], ATTEMPTS.nickname == row.nickname
                )
            )
            started = time.time() if now is None else now
            db.execute(
                sa.update(seats_table)
                .where(SEATS.id == row.id)
                .values(puzzle=1, started=started, hints=0, code=None)
            )

        self._write(reset)

    def remove_seat(self, name: str, nickname: str) -> None:
        """Delete a student: their seat and every attempt (their page is told so)."""

        def remove(db: Connection) -> None:
            row = self._named_seat(db, name, nickname)
            db.execute(
                sa.delete(attempts_table).where(
                    ATTEMPTS["class"] == row._mapping["class"], ATTEMPTS.nickname == row.nickname
                )
            )
            db.execute(sa.delete(abilities_table).where(ABILITIES.seat == row.id))
            db.execute(sa.delete(seats_table).where(SEATS.id == row.id))

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
                    ATTEMPTS["class"] == kept._mapping["class"],
                    ATTEMPTS.nickname == gone.nickname,
                )
                .values(nickname=kept.nickname)
            )
            if gone.puzzle > kept.puzzle:
                db.execute(
                    sa.update(seats_table)
                    .where(SEATS.id == kept.id)
                    .values(
                        puzzle=gone.puzzle, started=gone.started, hints=gone.hints, code=gone.code
                    )
                )
            db.execute(sa.delete(abilities_table).where(ABILITIES.seat == gone.id))
            db.execute(sa.delete(seats_table).where(SEATS.id == gone.id))

        self._write(merge)
