"""Abilities and puzzle ratings that learn; classes dealt at each student's level; class
names that ignore case.

- ``abilities``: a seat's ability at one level (the fields of
  :class:`~dekbovinoj_edu.dealing.learner.Ability`), with the day of its latest
  answer and its value before that day's first answer (the dashboard's "at the
  start of the lesson"); deleted with its seat.
- ``puzzle_ratings``: a puzzle's learnt rating (the fields of
  :class:`~dekbovinoj_edu.dealing.learner.PuzzleRating`) by its ``puzzle_key``,
  shared by every class of the store.
- ``classes`` gets ``at_level`` (1: each student's next puzzle is dealt at their
  level), the ``target`` chance and the dealer's ``filters`` (JSON), and ``key``,
  the name ignoring case (:func:`~dekbovinoj_edu.classroom.assignment.class_key`),
  unique: ``4b`` and ``4B`` are one class. Two classes there were whose names differ
  only in case stop the migration with a sentence, and the database stays as it was.
  The columns are added in place (``ALTER TABLE``), never by copying the table.
- ``seats`` gets ``code``: the puzzle dealt to the seat in an at-level class.

SQLite's ``PRAGMA user_version`` becomes 3, so an older version refuses the file
instead of writing into tables it does not know.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from dekbovinoj_edu.classroom.assignment import class_key
from dekbovinoj_edu.classroom.errors import StoreError

revision = "0003"
down_revision: str | None = "0002"
branch_labels = None
depends_on = None

REAL = sa.Float().with_variant(sa.REAL(), "sqlite")


def _keys(names: list[str]) -> dict[str, str]:
    """Each class name's key; ``StoreError`` when two names differ only in case."""
    seen: dict[str, str] = {}
    for name in sorted(names):
        key = class_key(name)
        if key in seen:
            raise StoreError(
                "The classes {first!r} and {second!r} differ only in capital letters, and "
                "this version treats them as one class: keep one (with the version that made "
                "them, export its report and forget the other), then open the database again. "
                "Nothing was changed.",
                first=seen[key],
                second=name,
            )
        seen[key] = name
    return {name: key for key, name in seen.items()}


def upgrade() -> None:
    bind = op.get_bind()
    sqlite = bind.dialect.name == "sqlite"
    names = [str(row[0]) for row in bind.execute(sa.text("SELECT name FROM classes"))]
    keys = _keys(names)
    # Columns added in place (ALTER TABLE): copying ``classes`` into a new table, as
    # Alembic's batch mode does in SQLite, would drop it, and its rows' seats and attempts
    # with it (ON DELETE CASCADE).
    op.add_column("classes", sa.Column("key", sa.Text, nullable=False, server_default=""))
    op.add_column("classes", sa.Column("at_level", sa.Integer, nullable=False, server_default="0"))
    op.add_column("classes", sa.Column("target", REAL))
    op.add_column("classes", sa.Column("filters", sa.Text))
    classes = sa.table("classes", sa.column("name"), sa.column("key"))
    for name, key in keys.items():
        bind.execute(sa.update(classes).where(classes.c.name == name).values(key=key))
    op.create_index("classes_by_key", "classes", ["key"], unique=True)
    op.add_column("seats", sa.Column("code", sa.Text))
    # The learning counts a student's wrong answers at a puzzle when the puzzle ends.
    op.create_index("attempts_of_puzzle", "attempts", ["class", "nickname", "puzzle"])
    op.create_table(
        "abilities",
        sa.Column(
            "seat", sa.Integer, sa.ForeignKey("seats.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("level", sa.Text, nullable=False),
        sa.Column("value", REAL, nullable=False),
        sa.Column("variance", REAL, nullable=False),
        sa.Column("answers", sa.Integer, nullable=False),
        sa.Column("recent", sa.Text, nullable=False),
        sa.Column("day", sa.Text, nullable=False),
        sa.Column("day_start", REAL, nullable=False),
        sa.PrimaryKeyConstraint("seat", "level", name="abilities_of_seat"),
    )
    op.create_table(
        "puzzle_ratings",
        sa.Column("puzzle_key", sa.Text, primary_key=True),
        sa.Column("value", REAL, nullable=False),
        sa.Column("variance", REAL, nullable=False),
        sa.Column("limit", REAL, nullable=False),
        sa.Column("answers", sa.Integer, nullable=False),
    )
    if sqlite:
        op.execute("PRAGMA user_version = 3")


def downgrade() -> None:
    """Back to 0002: the learnt abilities and ratings go, and the new columns; every class,
    seat, session and attempt stays. A class dealt at each student's level has no fixed list
    for 0002 to read: it stops the downgrade with a sentence (forget it first)."""
    bind = op.get_bind()
    sqlite = bind.dialect.name == "sqlite"
    dealt = bind.execute(sa.text("SELECT name FROM classes WHERE at_level = 1")).first()
    if dealt is not None:
        raise StoreError(
            "Class {name!r} gives each student puzzles at their level, which the older version "
            "cannot read: forget it first. Nothing was changed.",
            name=str(dealt[0]),
        )
    op.drop_table("puzzle_ratings")
    op.drop_table("abilities")
    op.drop_column("seats", "code")
    op.drop_index("attempts_of_puzzle", "attempts")
    op.drop_index("classes_by_key", "classes")
    for column in ("filters", "target", "at_level", "key"):
        op.drop_column("classes", column)
    if sqlite:
        op.execute("PRAGMA user_version = 2")
