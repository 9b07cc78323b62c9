"""The teacher's seat actions in the progress store: release a seat (it gets a new rejoin
code, which the teacher gives its student: only that code takes it up again), reset one (back
to puzzle 1, its attempts deleted), remove one, remove the seats a flood made (those without
an attempt that joined lately), and merge a student who joined twice into one seat.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ..errors import UnknownSeatError
from ..seat import new_rejoin_code
from .base import StoreBase
from .rows import ABILITIES, ATTEMPTS, SEATS, secret_of
from .tables import abilities as abilities_table
from .tables import attempts as attempts_table
from .tables import seats as seats_table

__all__ = ["SeatActions"]


class SeatActions(StoreBase):
    """What the teacher may do to a seat (see :class:`~.sql_store.SQLStore`)."""

    def release_seat(self, name: str, nickname: str) -> str:
        """Give a student's seat a new rejoin code, returned for the teacher to give them (a
        student who lost theirs): its page is told the seat is no longer its own, the old code
        opens it no more, and joining with the nickname and the new code takes it up where
        it was. Nobody else can take it: a join without the code is ``NicknameTakenError``."""
        code = new_rejoin_code()

        def release(db: Connection) -> None:
            row = self._named_seat(db, name, nickname)
            db.execute(
                sa.update(seats_table)
                .where(SEATS.id == row.id)
                .values(secret=secret_of(code), session="", last_seen=0.0)
            )

        self._write(release)
        return code

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

    def remove_new_seats(self, name: str, nicknames: Sequence[str], since: str) -> list[str]:
        """Remove the seats a flood made, in one go: of ``nicknames``, each seat that joined
        at ``since`` (ISO 8601 UTC, as :func:`~..attempts.utc_now` writes it) or later and
        has no attempt (a student who answered in the meantime stays). Returns the nicknames
        removed, in the order they joined."""
        asked = sorted(set(nicknames))

        def remove(db: Connection) -> list[str]:
            named = self._need_class(db, name)
            answered = sa.exists().where(
                ATTEMPTS["class"] == named, ATTEMPTS.nickname == SEATS.nickname
            )
            found = db.execute(
                sa.select(SEATS.id, SEATS.nickname)
                .where(
                    SEATS["class"] == named,
                    SEATS.nickname.in_(asked),
                    SEATS.joined >= since,
                    ~answered,
                )
                .order_by(SEATS.id)
                .with_for_update()
            ).all()
            ids = [row.id for row in found]
            if ids:
                db.execute(sa.delete(abilities_table).where(ABILITIES.seat.in_(ids)))
                db.execute(sa.delete(seats_table).where(SEATS.id.in_(ids)))
            return [str(row.nickname) for row in found]

        removed: list[str] = self._write(remove) if asked else []
        return removed

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
