"""The classes an LMS opens (issue 43, :mod:`dekbovinoj_edu.lti.courses`): ``lti_links`` (a
resource link of a course → its class, with where the LMS takes its scores and gives its
roster), ``lti_people`` (a class's people by the LMS's ``sub`` → their seat's nickname, name and
role), ``lti_tickets`` (one-time tickets a launch hands the browser, by their hash, until they
expire) and ``lti_scores`` (per class and person, the score the LMS last acknowledged).

New tables only: no row of another table changes. A class's rows go with it (``ON DELETE
CASCADE``; a renamed class takes them along). SQLite's ``PRAGMA user_version`` becomes 7, so an
older version refuses the file.

Revision ID: 0007
Revises: 0006
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision: str | None = "0006"
branch_labels = None
depends_on = None

REAL = sa.Float().with_variant(sa.REAL(), "sqlite")


def _class() -> sa.Column[str]:
    return sa.Column(
        "class", sa.Text, sa.ForeignKey("classes.name", ondelete="CASCADE"), nullable=False
    )


def upgrade() -> None:
    op.create_table(
        "lti_links",
        sa.Column("issuer", sa.Text, primary_key=True),
        sa.Column("client_id", sa.Text, primary_key=True),
        sa.Column("deployment_id", sa.Text, primary_key=True),
        sa.Column("context_id", sa.Text, primary_key=True),
        sa.Column("link_id", sa.Text, primary_key=True),
        _class(),
        sa.Column("context_title", sa.Text, nullable=False),
        sa.Column("link_title", sa.Text, nullable=False),
        sa.Column("lineitem", sa.Text),
        sa.Column("lineitems", sa.Text),
        sa.Column("scopes", sa.Text, nullable=False),
        sa.Column("members_url", sa.Text),
        sa.Column("created", sa.Text, nullable=False),
    )
    op.create_index("lti_links_of_class", "lti_links", ["class"])
    op.create_table(
        "lti_people",
        _class(),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("nickname", sa.Text, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("role", sa.Text, nullable=False),
        sa.Column("seen", sa.Text),
        sa.PrimaryKeyConstraint("class", "subject", name="lti_people_of_class"),
    )
    op.create_table(
        "lti_tickets",
        sa.Column("ticket", sa.Text, primary_key=True),
        sa.Column("purpose", sa.Text, nullable=False),
        sa.Column("payload", sa.Text, nullable=False),
        sa.Column("expires", REAL, nullable=False),
    )
    op.create_index("lti_tickets_by_expiry", "lti_tickets", ["expires"])
    op.create_table(
        "lti_scores",
        _class(),
        sa.Column("subject", sa.Text, nullable=False),
        sa.Column("given", REAL, nullable=False),
        sa.Column("maximum", REAL, nullable=False),
        sa.Column("activity", sa.Text, nullable=False),
        sa.Column("grading", sa.Text, nullable=False),
        sa.Column("sent", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("class", "subject", name="lti_scores_of_class"),
    )
    if op.get_bind().dialect.name == "sqlite":
        op.execute("PRAGMA user_version = 7")


def downgrade() -> None:
    """Back to 0006: the links of courses to classes, their people and the scores the LMS
    acknowledged are gone with their tables (the classes, seats and attempts stay)."""
    op.drop_table("lti_scores")
    op.drop_table("lti_tickets")
    op.drop_table("lti_people")
    op.drop_table("lti_links")
    if op.get_bind().dialect.name == "sqlite":
        op.execute("PRAGMA user_version = 6")
