"""The store's rows as class mode's records, the statements its busy paths share (built once:
SQLAlchemy then reuses their compiled form, and a write is a few hundred microseconds), and
what the store keeps of a rejoin code (a salted hash).

>>> matches("K7QM-2XHD", secret_of("k7qm 2xhd")), matches("K7QM-2XHE", secret_of("K7QM-2XHD"))
(True, False)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Row

from ..assignment import Assignment
from ..attempts import CSV_COLUMNS, Attempt
from ..errors import SeatTakenError, UnknownSessionError
from ..seat import Seat, normalise_rejoin_code
from .tables import abilities as abilities_table
from .tables import attempts as attempts_table
from .tables import classes as classes_table
from .tables import puzzle_ratings as ratings_table
from .tables import seats as seats_table
from .tables import sessions as sessions_table

CLASS_COLUMNS = (
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
SEAT_COLUMNS = ("class", "nickname", "session", "puzzle", "started", "hints", "last_seen")


def assignment_from(row: Row[Any]) -> Assignment:
    """A class's row (its :data:`CLASS_COLUMNS`) as its assignment."""
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


def seat_from(row: Any) -> Seat:
    """A seat's row as a :class:`~..seat.Seat`."""
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


def attempt_from(row: Any) -> Attempt:
    """An attempt's row as the report's :class:`~..attempts.Attempt`."""
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


def secret_of(code: str, salt: str | None = None) -> str:
    """What the store keeps of a rejoin code: a random salt and the salted SHA-256."""
    salt = salt or secrets.token_hex(8)
    digest = hashlib.sha256(f"{salt}:{normalise_rejoin_code(code)}".encode()).hexdigest()
    return f"{salt}${digest}"


def matches(code: str, secret: str) -> bool:
    """Whether the rejoin ``code`` is the one ``secret`` was kept of."""
    salt = secret.split("$", 1)[0]
    return hmac.compare_digest(secret_of(code, salt), secret)


NO_SEAT = object()
"""A session whose seat is gone (removed, merged away)."""


def held(row: Any, hashed: str) -> Any:
    """``row`` (a session's seat), if that session holds the seat now."""
    if row is None:
        raise UnknownSessionError("This page has not joined the class: join with your nickname.")
    if row is NO_SEAT or row.session != hashed:
        raise SeatTakenError(
            "This page no longer has your seat: it is open on another screen, or your "
            "teacher changed it. Join again."
        )
    return row


SEATS = seats_table.c
ATTEMPTS = attempts_table.c
SESSIONS = sessions_table.c
ATTEMPT_COLUMNS = [attempts_table.c[name] for name in CSV_COLUMNS]

# The statements of the busy paths (a sign of life, an attempt), built once: SQLAlchemy then
# reuses their compiled form, and a write is a few hundred microseconds.
CLASSES = classes_table.c
NAME_OF_KEY = sa.select(CLASSES.name).where(CLASSES.key == sa.bindparam("b_key"))
CLASS_OF_KEY = NAME_OF_KEY.scalar_subquery()
SEAT_ID_OF_SESSION = sa.select(SESSIONS.seat).where(
    SESSIONS.token == sa.bindparam("b_token"), SESSIONS["class"] == CLASS_OF_KEY
)
CLASS_ENDED = sa.select(CLASSES.ended).where(CLASSES.key == sa.bindparam("b_key")).scalar_subquery()
SEAT_OF_SESSION = (
    sa.select(seats_table, CLASS_ENDED.label("class_ended"))
    .select_from(sessions_table.join(seats_table, SEATS.id == SESSIONS.seat))
    .where(SESSIONS.token == sa.bindparam("b_token"), SESSIONS["class"] == CLASS_OF_KEY)
)
SEAT_OF_SESSION_LOCKED = SEAT_OF_SESSION.with_for_update(of=seats_table)
ATTEMPT_BY_ID = sa.select(attempts_table).where(
    ATTEMPTS["class"] == sa.bindparam("b_class"),
    ATTEMPTS.attempt_id == sa.bindparam("b_attempt"),
)
SEAT_SEEN = (
    sa.update(seats_table)
    .where(SEATS.id == sa.bindparam("b_seat"))
    .values(last_seen=sa.bindparam("b_seen"))
)
SEAT_SEEN_WITH_HINTS = SEAT_SEEN.values(hints=sa.bindparam("b_hints"))
SEAT_MOVED_ON = SEAT_SEEN.values(
    puzzle=sa.bindparam("b_puzzle"), started=sa.bindparam("b_seen"), hints=0, code=None
)
RATINGS = ratings_table.c
ABILITIES = abilities_table.c
