"""The busy paths of the PostgreSQL store, each one statement: an attempt and a sign of life.

A student's page sends an attempt every few seconds and a sign of life every few more; in a
transaction of its own statements, an attempt costs PostgreSQL five round trips (``BEGIN``, the
seat read under its row lock, the ``INSERT``, the seat's ``UPDATE``, ``COMMIT``). Here it is
one statement, run on its own (autocommit), whose data-modifying ``WITH`` parts lock the seat,
keep the attempt and move the seat on together, atomically: PostgreSQL runs every part of the
statement in one snapshot and one transaction.

Each finds the class by its key (:func:`~.assignment.class_key`: the name ignores case).
Each statement does only the common case, and says whether it did: an attempt at the seat's
own puzzle by the session that holds the seat, with a new id, in a class not ended. Anything
else (a resend, a puzzle not open, a seat taken, no such session, an ended class) writes
nothing, and the store then takes its general path, which explains why.

>>> "FOR UPDATE OF seats" in str(RECORD_ATTEMPT)
True
>>> sorted(set(RECORD_ATTEMPT.compile().params) - set(CSV_COLUMNS))
['b_attempt', 'b_finishes', 'b_key', 'b_seen', 'b_token']
"""

from __future__ import annotations

import sqlalchemy as sa

from ..attempts import CSV_COLUMNS

__all__ = ["RECORD_ATTEMPT", "TOUCH_SEAT"]

_KEPT = [name for name in CSV_COLUMNS if name not in ("class", "nickname")]
"""The attempt's columns sent as parameters; the class and the nickname come from the seat."""

_INTO = ", ".join(['"class"', "nickname", *_KEPT, "attempt_id", "session"])
_VALUES = ", ".join(['mine."class"', "mine.nickname", *(f":{name}" for name in _KEPT)])

_MINE = """
    SELECT seats.* FROM sessions JOIN seats ON seats.id = sessions.seat
    WHERE sessions.token = :b_token
        AND sessions."class" = (SELECT name FROM classes WHERE key = :b_key)
        AND (SELECT ended FROM classes WHERE key = :b_key) IS NULL
    FOR UPDATE OF seats
"""

RECORD_ATTEMPT = sa.text(
    f"""
    WITH mine AS ({_MINE}),
    kept AS (
        INSERT INTO attempts ({_INTO})
        SELECT {_VALUES}, :b_attempt, :b_token FROM mine
        WHERE mine.session = :b_token AND mine.puzzle = :puzzle
        ON CONFLICT ("class", attempt_id) DO NOTHING
        RETURNING id
    ),
    moved AS (
        UPDATE seats SET
            last_seen = :b_seen,
            puzzle = CASE WHEN :b_finishes THEN seats.puzzle + 1 ELSE seats.puzzle END,
            started = CASE WHEN :b_finishes THEN :b_seen ELSE seats.started END,
            hints = CASE WHEN :b_finishes THEN 0 ELSE seats.hints END,
            code = CASE WHEN :b_finishes THEN NULL ELSE seats.code END
        FROM mine, kept WHERE seats.id = mine.id
        RETURNING seats.id
    )
    SELECT mine.*, (SELECT count(*) FROM moved) AS kept FROM mine
    """
)
"""Keep one attempt and move its seat on, if the session holds the seat, the attempt is at
the seat's puzzle and its id is new: the seat as it was, with ``kept`` 1 (else 0, and
nothing written; no row for a token no session has)."""

TOUCH_SEAT = sa.text(
    """
    UPDATE seats SET last_seen = :b_seen, hints = coalesce(:b_hints, seats.hints)
    FROM sessions
    WHERE sessions.token = :b_token
        AND sessions."class" = (SELECT name FROM classes WHERE key = :b_key)
        AND seats.id = sessions.seat AND seats.session = :b_token
    RETURNING seats.*
    """
).bindparams(sa.bindparam("b_hints", type_=sa.Integer))
"""A sign of life from the session that holds its seat (and its hints, unless ``NULL``):
the seat after it; no row, and nothing written, in every other case."""
