"""Seats guarded by a secret, sessions by a token, attempts with their id and session.

- ``seats`` gets an ``id`` (the order the students joined), the rejoin code's
  hash (``secret``; NULL for every seat there was: released, so the first join
  takes it and gets a code), and its ``key`` becomes the nickname's confusable
  skeleton (:func:`~dekbovinoj_edu.classroom.nicknames.nickname_key`); where two
  old seats now share a key, the later keeps its old key, so no row is lost.
- ``sessions``: one row a token (its hash), naming the seat it was given, so a
  token whose seat was taken since is told so.
- ``attempts`` gets the attempt's ``attempt_id`` (unique in its class: a resend
  is found, not stored twice) and the ``session`` that sent it.

SQLite's ``PRAGMA user_version`` becomes 2, so the first version refuses the file
instead of writing into tables it does not know.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from dekbovinoj_edu.classroom.nicknames import nickname_key

revision = "0002"
down_revision: str | None = "0001"
branch_labels = None
depends_on = None

REAL = sa.Float().with_variant(sa.REAL(), "sqlite")

_SEAT_COLUMNS = (
    "class",
    "key",
    "nickname",
    "session",
    "puzzle",
    "started",
    "hints",
    "last_seen",
    "joined",
)


def _class_column() -> sa.Column[str]:
    return sa.Column(
        "class", sa.Text, sa.ForeignKey("classes.name", ondelete="CASCADE"), nullable=False
    )


def _new_keys(rows: list[dict[str, object]]) -> None:
    """Each row's key becomes its nickname's skeleton, unless an earlier seat of its class
    has that key already."""
    used: set[tuple[object, str]] = set()
    for row in rows:
        key = nickname_key(str(row["nickname"]))
        if (row["class"], key) in used:
            key = str(row["key"])
            while (row["class"], key) in used:
                key += "#"
        used.add((row["class"], key))
        row["key"] = key


def upgrade() -> None:
    bind = op.get_bind()
    sqlite = bind.dialect.name == "sqlite"
    op.add_column("attempts", sa.Column("attempt_id", sa.Text))
    op.add_column("attempts", sa.Column("session", sa.Text))
    op.create_index("attempts_by_id", "attempts", ["class", "attempt_id"], unique=True)

    old = sa.table("seats", *(sa.column(name) for name in _SEAT_COLUMNS))
    order = sa.text("joined, rowid") if sqlite else sa.text("joined, key")
    rows = [dict(row._mapping) for row in bind.execute(sa.select(old).order_by(order))]
    _new_keys(rows)
    seats = op.create_table(
        "seats_next",
        sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
        _class_column(),
        sa.Column("key", sa.Text, nullable=False),
        sa.Column("nickname", sa.Text, nullable=False),
        sa.Column("session", sa.Text, nullable=False),
        sa.Column("puzzle", sa.Integer, nullable=False),
        sa.Column("started", REAL, nullable=False),
        sa.Column("hints", sa.Integer, nullable=False),
        sa.Column("last_seen", REAL, nullable=False),
        sa.Column("joined", sa.Text, nullable=False),
        sa.Column("secret", sa.Text),
        sa.UniqueConstraint("class", "key", name="seats_of_class"),
    )
    for number, row in enumerate(rows, 1):
        bind.execute(sa.insert(seats).values(id=number, secret=None, **row))
    op.drop_table("seats")
    op.rename_table("seats_next", "seats")
    if not sqlite and rows:  # the id's sequence goes on after the copied rows
        op.execute(
            "SELECT setval(pg_get_serial_sequence('seats', 'id'), (SELECT max(id) FROM seats))"
        )

    op.create_table(
        "sessions",
        sa.Column("token", sa.Text, primary_key=True),
        _class_column(),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("started", REAL, nullable=False),
    )
    if sqlite:
        op.execute("PRAGMA user_version = 2")
