"""The first version's schema: classes, the students' seats and one row per attempt.

Exactly the tables the first version of the store wrote by hand (``PRAGMA
user_version`` 1 in SQLite); a file it made is stamped with this revision and
migrated from here.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision: str | None = None
branch_labels = None
depends_on = None

REAL = sa.Float().with_variant(sa.REAL(), "sqlite")


def _class_column() -> sa.Column[str]:
    return sa.Column(
        "class", sa.Text, sa.ForeignKey("classes.name", ondelete="CASCADE"), nullable=False
    )


def upgrade() -> None:
    op.create_table(
        "classes",
        sa.Column("name", sa.Text, primary_key=True, nullable=True),  # as the first version
        sa.Column("mode", sa.Text, nullable=False),
        sa.Column("codes", sa.Text, nullable=False),
        sa.Column("level", sa.Text),
        sa.Column("count", sa.Integer),
        sa.Column("seed", sa.Text),
        sa.Column("difficulty", sa.Text),
        sa.Column("mu", REAL),
        sa.Column("created", sa.Text, nullable=False),
    )
    op.create_table(
        "seats",
        _class_column(),
        sa.Column("key", sa.Text, nullable=False),
        sa.Column("nickname", sa.Text, nullable=False),
        sa.Column("session", sa.Text, nullable=False),
        sa.Column("puzzle", sa.Integer, nullable=False),
        sa.Column("started", REAL, nullable=False),
        sa.Column("hints", sa.Integer, nullable=False),
        sa.Column("last_seen", REAL, nullable=False),
        sa.Column("joined", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("class", "key"),
    )
    op.create_table(
        "attempts",
        sa.Column("id", sa.Integer, primary_key=True, nullable=True),
        _class_column(),
        sa.Column("nickname", sa.Text, nullable=False),
        sa.Column("puzzle", sa.Integer, nullable=False),
        sa.Column("code", sa.Text, nullable=False),
        sa.Column("answer", sa.Text, nullable=False),
        sa.Column("verdict", sa.Text, nullable=False),
        sa.Column("cards", sa.Integer, nullable=False),
        sa.Column("best", sa.Integer, nullable=False),
        sa.Column("hints", sa.Integer, nullable=False),
        sa.Column("seconds", REAL, nullable=False),
        sa.Column("time", sa.Text, nullable=False),
    )
    op.create_index("attempts_of_class", "attempts", ["class", "id"])
    if op.get_bind().dialect.name == "sqlite":
        op.execute("PRAGMA user_version = 1")
