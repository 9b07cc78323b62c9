"""The seats of the progress store: joining (a new seat with its rejoin code, or a seat taken
up again with it), a page's sign of life and its leaving, every seat of a class, a seat given
to a hub user without a code, and a seat's own puzzle in a class at each student's level.

A seat belongs to the session that holds it: the first join gives the seat a rejoin code,
and only that code takes it up again from another page (the old page is then told
:class:`~..errors.SeatTakenError`). A seat the teacher released has a new code, which the
teacher gives its student. A join the page sent again (its answer was lost) brings the code
it would give a new seat (drawn from the page's join id): the seat that code guards is that
join's own, taken up again. A seat with no code at all (from a database older than rejoin
codes) is taken by the next join, with a new code.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import astuple, replace
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ..assignment import class_key
from ..attempts import utc_now
from ..errors import NicknameTakenError
from ..nicknames import HUB_KEY, hub_key, look_alike_key, nickname_key
from ..seat import Joined, Seat, new_rejoin_code, normalise_rejoin_code, token_hash
from .base import StoreBase
from .rows import (
    SEAT_COLUMNS,
    SEAT_SEEN,
    SEAT_SEEN_WITH_HINTS,
    SEATS,
    SESSIONS,
    matches,
    seat_from,
    secret_of,
)
from .single_statements import TOUCH_SEAT
from .tables import seats as seats_table
from .tables import sessions as sessions_table

__all__ = ["FRESH_SECONDS", "SeatRows"]

FRESH_SECONDS = 7.0
"""A sign of life younger than this needs no write: a page says it is open every
:data:`~..session.HEARTBEAT_SECONDS` (4 s), and the board counts a student as here for 15 s
after the last one kept, so a seat's kept sign of life is at most 7 + 4 = 11 s old while the
page is open (a seat that answered just now, or whose previous heartbeat was kept, writes
nothing)."""


class SeatRows(StoreBase):
    """The store's seats and sessions (see :class:`~.sql_store.SQLStore`)."""

    def join(
        self,
        name: str,
        nickname: str,
        token: str,
        now: float,
        rejoin_code: str | None = None,
        key: str | None = None,
        *,
        new_code: str | None = None,
        on_new_seat: Callable[[], None] | None = None,
    ) -> Joined:
        """Give the seat of ``nickname`` (already checked by
        :func:`~.nicknames.check_nickname`) in class ``name`` to the session ``token``.

        A nickname with a new :func:`~.nicknames.nickname_key` (or ``key``, when given) gets a
        new seat at puzzle 1 and a new rejoin code: ``new_code`` if given (a join id's,
        :func:`~..seat.join_secrets`), else a random one; ``on_new_seat`` is called first, and
        may refuse the seat by raising (a rate of new seats). An existing seat is resumed with
        its rejoin code or ``new_code`` (the same join sent again; the page that held it is
        then told ``SeatTakenError``), or taken with a new code if it has none; otherwise
        ``NicknameTakenError``.
        """
        typed = key is None  # a nickname a student typed (a hub name is never compared)
        key = key if key is not None else nickname_key(nickname)
        hashed = token_hash(token)
        shown = nickname.strip()

        def take(db: Connection) -> Joined:
            named = self._need_class(db, name)
            found = db.execute(
                sa.select(seats_table)
                .where(SEATS["class"] == named, SEATS.key == key)
                .with_for_update()
            ).first()
            if found is None:
                if typed and self._reads_like_a_classmate(db, named, shown):
                    raise NicknameTakenError(
                        "This nickname looks too much like a classmate's. Choose another one."
                    )
                if on_new_seat is not None:
                    on_new_seat()
                code, resumed = new_code or new_rejoin_code(), False
                seat = Seat(named, shown, hashed, 1, now, 0, now, utc_now())
                values = dict(zip(SEAT_COLUMNS, astuple(seat)[: len(SEAT_COLUMNS)], strict=True))
                inserted = db.execute(
                    sa.insert(seats_table).values(
                        key=key, joined=seat.joined, secret=secret_of(code), **values
                    )
                )
                seat_id = int(inserted.inserted_primary_key[0])  # type: ignore[index]
            else:
                if found.secret is None:
                    code = new_rejoin_code()
                elif rejoin_code is not None and matches(rejoin_code, found.secret):
                    code = normalise_rejoin_code(rejoin_code)
                elif new_code is not None and matches(new_code, found.secret):
                    code = new_code
                else:
                    raise NicknameTakenError(
                        "This nickname is taken in this class. If it is yours, type your "
                        "rejoin code."
                    )
                resumed, seat_id = True, int(found.id)
                seat = replace(seat_from(found), session=hashed, last_seen=now)
                db.execute(
                    sa.update(seats_table)
                    .where(SEATS.id == seat_id)
                    .values(session=hashed, last_seen=now, secret=secret_of(code))
                )
            db.execute(sa.delete(sessions_table).where(SESSIONS.token == hashed))
            db.execute(
                sa.insert(sessions_table).values(
                    token=hashed, seat=seat_id, started=now, **{"class": named}
                )
            )
            return Joined(seat, token, code, resumed)

        joined: Joined = self._write(take)
        return joined

    def seat_of(self, name: str, token: str) -> Seat:
        """The seat the session ``token`` holds (``UnknownSessionError``, ``SeatTakenError``)."""
        return seat_from(self._read(lambda db: self._holder(db, name, token)))

    def touch(self, name: str, token: str, now: float, hints: int | None = None) -> Seat:
        """A sign of life from the page of ``token`` (and the hints used on its puzzle): kept,
        unless the seat's last one is fresh (:data:`FRESH_SECONDS`) and the hints are as
        kept, when it is only read."""
        if self._postgresql:
            bound = {"b_key": class_key(name), "b_token": token_hash(token), "b_seen": now}
            touched = self.database.run(
                lambda db: db.execute(TOUCH_SEAT, {**bound, "b_hints": hints}).first(),
                write=True,
                single=True,
            )
            if touched is not None:
                return seat_from(touched)

        seen = self._read(lambda db: self._holder(db, name, token))
        fresh = now - float(seen.last_seen) < FRESH_SECONDS
        if fresh and (hints is None or hints == seen.hints):
            return seat_from(seen)

        def alive(db: Connection) -> Seat:
            row = self._holder(db, name, token, lock=True)
            if hints is None:
                db.execute(SEAT_SEEN, {"b_seat": row.id, "b_seen": now})
                return replace(seat_from(row), last_seen=now)
            db.execute(SEAT_SEEN_WITH_HINTS, {"b_seat": row.id, "b_seen": now, "b_hints": hints})
            return replace(seat_from(row), last_seen=now, hints=hints)

        seat: Seat = self._write(alive)
        return seat

    def leave(self, name: str, token: str) -> None:
        """The page of ``token`` is gone: its seat's last sign of life becomes 0."""

        def gone(db: Connection) -> None:
            row = self._holder(db, name, token, lock=True)
            db.execute(sa.update(seats_table).where(SEATS.id == row.id).values(last_seen=0.0))

        self._write(gone)

    def seats(self, name: str) -> list[Seat]:
        """Every student of class ``name``, in the order they joined."""

        def read(db: Connection) -> list[Any]:
            named = self._class_named(db, name)
            query = sa.select(seats_table).where(SEATS["class"] == named).order_by(SEATS.id)
            return list(db.execute(query).all())

        return [seat_from(row) for row in self._read(read)]

    def join_vouched(
        self,
        name: str,
        nickname: str,
        token: str,
        now: float,
        *,
        on_new_seat: Callable[[], None] | None = None,
    ) -> Joined:
        """Give the seat of the hub user ``nickname`` to the session ``token`` without its
        rejoin code: the caller vouches that the student is ``nickname`` (a JupyterHub signed
        them in).

        As :meth:`join` otherwise (a new seat at puzzle 1, or the seat as it was, with a new
        code; the page that held it is told ``SeatTakenError``). The seat is keyed by the exact
        hub name (:func:`~.nicknames.hub_key`): another hub user whose name looks the same has
        a seat of their own. A seat an earlier version keyed by the look-alike key, under
        exactly this name, becomes this user's. ``on_new_seat`` as for :meth:`join`.
        """
        key = hub_key(nickname)

        def vouch(db: Connection) -> None:
            named = self._class_named(db, name)
            mine = SEATS["class"] == named
            had = db.execute(sa.select(SEATS.id).where(mine, SEATS.key == key)).first()
            if had is None:
                earlier = sa.update(seats_table).where(
                    mine, SEATS.key == nickname_key(nickname), SEATS.nickname == nickname
                )
                db.execute(earlier.values(key=key))
            db.execute(sa.update(seats_table).where(mine, SEATS.key == key).values(secret=None))

        self._write(vouch)
        return self.join(name, nickname, token, now, key=key, on_new_seat=on_new_seat)

    def deal_to(self, name: str, nickname: str, number: int, code: str) -> Seat:
        """Give the student ``nickname`` the puzzle ``code`` as their puzzle ``number``, if
        they are on it and have none yet (a page asking at the same time dealt the same,
        from the same seed and ability: the first is kept). Returns the seat."""

        def give(db: Connection) -> Seat:
            row = self._named_seat(db, name, nickname)
            if int(row.puzzle) == number and not row.code:
                db.execute(sa.update(seats_table).where(SEATS.id == row.id).values(code=code))
                return replace(seat_from(row), code=code)
            return seat_from(row)

        seat: Seat = self._write(give)
        return seat

    @staticmethod
    def _reads_like_a_classmate(db: Connection, named: str, nickname: str) -> bool:
        """Whether a new seat ``nickname`` would read like the nickname of a seat class
        ``named`` has (:func:`~..nicknames.look_alike_key`: ``AI`` and ``Al``, ``B0b`` and
        ``Bob``); hub users' seats are not nicknames and are left out."""
        wanted = look_alike_key(nickname)
        others = db.execute(
            sa.select(SEATS.nickname).where(
                SEATS["class"] == named, sa.not_(SEATS.key.startswith(HUB_KEY))
            )
        )
        return any(look_alike_key(str(other)) == wanted for (other,) in others)
