"""What every part of the progress store shares: its database, reading and writing in one
transaction, finding a class by its name (ignoring case), and the seat a session or a nickname
has. The store's parts (:mod:`.class_rows`, :mod:`.seat_rows`, :mod:`.attempt_rows`,
:mod:`.seat_actions`, :mod:`.learning`) each build on :class:`StoreBase`; :mod:`.sql_store`
puts them together.
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ..assignment import class_key
from ..attempts import Attempt
from ..errors import UnknownClassError, UnknownSeatError
from ..nicknames import nickname_key
from ..seat import token_hash
from .database import Database
from .rows import (
    NAME_OF_KEY,
    NO_SEAT,
    SEAT_ID_OF_SESSION,
    SEAT_OF_SESSION,
    SEAT_OF_SESSION_LOCKED,
    SEATS,
    held,
)
from .tables import seats as seats_table

__all__ = ["StoreBase"]


class StoreBase:
    """The database and the lookups every part of the store uses."""

    database: Database
    """The open database."""
    where: str
    """The database, as a person would name it (the address without its password)."""
    _postgresql: bool
    """Whether the database is PostgreSQL (its single statements serve the busy paths)."""

    def _learn_later(self, seat_id: int, started: float, kept: Attempt, now: float) -> None:
        """Teach the learner model ``kept`` once it is committed (:mod:`.learning`)."""
        raise NotImplementedError

    def _write(self, work: Any) -> Any:
        return self.database.run(work, write=True)

    def _read(self, work: Any) -> Any:
        return self.database.run(work, write=False)

    # ------------------------------------------------------------ classes
    @staticmethod
    def _name_of(db: Connection, name: str) -> str | None:
        """The name class ``name`` was given (it ignores case), or ``None``: no such class."""
        found = db.execute(NAME_OF_KEY, {"b_key": class_key(name)}).first()
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

    # ------------------------------------------------------------ seats
    def _holder(self, db: Connection, name: str, token: str, *, lock: bool = False) -> Any:
        """The seat row ``token`` holds in class ``name``; ``UnknownSessionError`` if no
        session has it, ``SeatTakenError`` if its seat was taken, released or removed."""
        hashed = token_hash(token)
        return held(self._session_seat(db, name, hashed, lock=lock), hashed)

    def _session_seat(self, db: Connection, name: str, hashed: str, *, lock: bool) -> Any:
        """The seat row the session ``hashed`` of class ``name`` was given (locked, in
        PostgreSQL, if ``lock``); ``NO_SEAT`` when it is gone, ``None`` for no such session."""
        session = {"b_token": hashed, "b_key": class_key(name)}
        row = db.execute(SEAT_OF_SESSION_LOCKED if lock else SEAT_OF_SESSION, session).first()
        if row is not None:
            return row
        return None if db.execute(SEAT_ID_OF_SESSION, session).first() is None else NO_SEAT

    def _named_seat(self, db: Connection, name: str, nickname: str) -> Any:
        named = self._need_class(db, name)
        row = db.execute(
            sa.select(seats_table)
            .where(SEATS["class"] == named, SEATS.nickname == nickname)
            .with_for_update()
        ).first()
        if row is None:
            row = db.execute(
                sa.select(seats_table)
                .where(SEATS["class"] == named, SEATS.key == nickname_key(nickname))
                .with_for_update()
            ).first()
        if row is None:
            raise UnknownSeatError(
                "No student called {nickname!r} in class {name!r}.", nickname=nickname, name=name
            )
        return row
