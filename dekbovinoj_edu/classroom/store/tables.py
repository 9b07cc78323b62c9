"""The progress store's tables, as SQLAlchemy Core describes them for SQLite and PostgreSQL.

These are the tables at :data:`HEAD_REVISION`, the newest of the Alembic
migrations in :mod:`.migrations` (which build them, step by step, in a new
database and in an old one): ``classes`` (one assignment each, named uniquely
ignoring case by its ``key``), ``seats`` (a student each, with the code of
the puzzle dealt to it when the class deals at each student's level),
``sessions`` (a token each, so a token whose seat another page took is told so),
``attempts`` (a row each, then one column for each field of
:class:`~.attempts.Attempt`, in order, then the attempt's id and session),
``abilities`` (a seat's :class:`~dekbovinoj_edu.dealing.learner.Ability` at one
level, and its value when the day's lesson began) and ``puzzle_ratings`` (a
puzzle's learnt :class:`~dekbovinoj_edu.dealing.learner.PuzzleRating`, by its
key, shared by every class of the store); and the LTI 1.3 tool's ``lti_keys``,
``lti_platforms``, ``lti_logins`` and ``lti_nonces`` (:mod:`dekbovinoj_edu.lti.store`), and
the classes an LMS opens: ``lti_links``, ``lti_people``, ``lti_tickets`` and ``lti_scores``
(:mod:`dekbovinoj_edu.lti.courses`).

>>> [table.name for table in metadata.sorted_tables if not table.name.startswith("lti_")]
['classes', 'puzzle_ratings', 'attempts', 'seats', 'sessions', 'abilities']
>>> [c.name for c in attempts.columns][:3], [c.name for c in attempts.columns][-2:]
(['id', 'class', 'nickname'], ['attempt_id', 'session'])
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa

from ..attempts import CSV_COLUMNS

__all__ = [
    "HEAD_REVISION",
    "REAL",
    "abilities",
    "attempts",
    "classes",
    "lti_keys",
    "lti_links",
    "lti_logins",
    "lti_nonces",
    "lti_people",
    "lti_platforms",
    "lti_scores",
    "lti_tickets",
    "metadata",
    "puzzle_ratings",
    "seats",
    "sessions",
]

HEAD_REVISION = "0008"
"""The newest migration: a database at this revision has exactly these tables."""

REAL = sa.Float().with_variant(sa.REAL(), "sqlite")
"""Seconds and shares: ``REAL`` in SQLite (as the first version wrote it), ``FLOAT`` (8
bytes) in PostgreSQL."""

metadata = sa.MetaData()

classes = sa.Table(
    "classes",
    metadata,
    sa.Column("name", sa.Text, primary_key=True),
    sa.Column("mode", sa.Text, nullable=False),
    sa.Column("codes", sa.Text, nullable=False),
    sa.Column("level", sa.Text),
    sa.Column("count", sa.Integer),
    sa.Column("seed", sa.Text),
    sa.Column("difficulty", sa.Text),
    sa.Column("mu", REAL),
    sa.Column("created", sa.Text, nullable=False),
    sa.Column("key", sa.Text, nullable=False),  # the name ignoring case: class_key(name)
    sa.Column("at_level", sa.Integer, nullable=False, server_default="0"),  # 1: per student
    sa.Column("target", REAL),  # the chance of success "at each student's level" aims at
    sa.Column("filters", sa.Text),  # the dealer's filters, as JSON (an at-level class's)
    sa.Column("ended", sa.Text),  # when the teacher ended the class (UTC); NULL: open
    sa.Column("roster", sa.Text),  # who may take a new seat (classroom.roster); NULL: anyone
    sa.Index("classes_by_key", "key", unique=True),
)


def _class_column() -> sa.Column[str]:
    """The class a row belongs to (deleted with it)."""
    return sa.Column(
        "class", sa.Text, sa.ForeignKey("classes.name", ondelete="CASCADE"), nullable=False
    )


seats = sa.Table(
    "seats",
    metadata,
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
    sa.Column("secret", sa.Text),  # the rejoin code's hash; NULL: none yet, the next join takes it
    sa.Column("code", sa.Text),  # the code of the puzzle dealt to the seat (an at-level class)
    sa.UniqueConstraint("class", "key", name="seats_of_class"),
)

sessions = sa.Table(
    "sessions",
    metadata,
    sa.Column("token", sa.Text, primary_key=True),  # the token's SHA-256
    _class_column(),
    sa.Column("seat", sa.Integer, nullable=False),  # seats.id when it was given
    sa.Column("started", REAL, nullable=False),
)

_TYPES: dict[str, Any] = {
    "class": sa.Text,
    "nickname": sa.Text,
    "puzzle": sa.Integer,
    "code": sa.Text,
    "answer": sa.Text,
    "verdict": sa.Text,
    "cards": sa.Integer,
    "best": sa.Integer,
    "hints": sa.Integer,
    "seconds": REAL,
    "time": sa.Text,
}
"""Each column of :data:`~.attempts.CSV_COLUMNS`' type."""

attempts = sa.Table(
    "attempts",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    *(
        _class_column() if name == "class" else sa.Column(name, _TYPES[name], nullable=False)
        for name in CSV_COLUMNS
    ),
    sa.Column("attempt_id", sa.Text),
    sa.Column("session", sa.Text),
    sa.Index("attempts_of_class", "class", "id"),
    sa.Index("attempts_by_id", "class", "attempt_id", unique=True),
    sa.Index("attempts_of_puzzle", "class", "nickname", "puzzle"),
)

abilities = sa.Table(
    "abilities",
    metadata,
    sa.Column("seat", sa.Integer, sa.ForeignKey("seats.id", ondelete="CASCADE"), nullable=False),
    sa.Column("level", sa.Text, nullable=False),  # the level's name
    sa.Column("value", REAL, nullable=False),
    sa.Column("variance", REAL, nullable=False),
    sa.Column("answers", sa.Integer, nullable=False),
    sa.Column("recent", sa.Text, nullable=False),  # the latest results, "1" right, "0" not
    sa.Column("day", sa.Text, nullable=False),  # the day (UTC) of the latest answer
    sa.Column("day_start", REAL, nullable=False),  # the value before that day's first answer
    sa.Column("speed", REAL, nullable=False, server_default=sa.text("0")),  # Ability.speed
    sa.PrimaryKeyConstraint("seat", "level", name="abilities_of_seat"),
)
"""A seat's ability at one level (:class:`~dekbovinoj_edu.dealing.learner.Ability`)."""

puzzle_ratings = sa.Table(
    "puzzle_ratings",
    metadata,
    sa.Column("puzzle_key", sa.Text, primary_key=True),  # dealing.learner.puzzle_key
    sa.Column("value", REAL, nullable=False),
    sa.Column("variance", REAL, nullable=False),
    sa.Column("limit", REAL, nullable=False),
    sa.Column("answers", sa.Integer, nullable=False),
)
"""A puzzle's learnt rating (:class:`~dekbovinoj_edu.dealing.learner.PuzzleRating`), shared
by every class of the store."""

lti_keys = sa.Table(
    "lti_keys",
    metadata,
    sa.Column("kid", sa.Text, primary_key=True),
    sa.Column("private_pem", sa.Text, nullable=False),  # PKCS 8, never shown
    sa.Column("created", sa.Text, nullable=False),
    sa.Column("retired", sa.Text),  # no longer signs, still published; NULL: signs if newest
)
"""The LTI tool's RSA keys (:class:`~dekbovinoj_edu.lti.keys.ToolKey`)."""

lti_platforms = sa.Table(
    "lti_platforms",
    metadata,
    sa.Column("issuer", sa.Text, primary_key=True),
    sa.Column("client_id", sa.Text, primary_key=True),
    sa.Column("deployment_ids", sa.Text, nullable=False),  # a JSON list of text
    sa.Column("auth_url", sa.Text, nullable=False),
    sa.Column("token_url", sa.Text, nullable=False),
    sa.Column("jwks_url", sa.Text, nullable=False),
    sa.Column("created", sa.Text, nullable=False),
)
"""The platforms registered (:class:`~dekbovinoj_edu.lti.registration.Registration`)."""

lti_logins = sa.Table(
    "lti_logins",
    metadata,
    sa.Column("state", sa.Text, primary_key=True),
    sa.Column("nonce", sa.Text, nullable=False),
    sa.Column("issuer", sa.Text, nullable=False),
    sa.Column("client_id", sa.Text, nullable=False),
    sa.Column("expires", REAL, nullable=False),  # seconds since the epoch
    sa.Index("lti_logins_by_expiry", "expires"),
)
"""The LTI logins begun and not launched (:class:`~dekbovinoj_edu.lti.login.PendingLogin`)."""

lti_nonces = sa.Table(
    "lti_nonces",
    metadata,
    sa.Column("issuer", sa.Text, primary_key=True),
    sa.Column("nonce", sa.Text, primary_key=True),
    sa.Column("expires", REAL, nullable=False),  # seconds since the epoch; purged after
    sa.Index("lti_nonces_by_expiry", "expires"),
)
"""The nonces LTI launches used, each refused a second time until it expires."""

lti_links = sa.Table(
    "lti_links",
    metadata,
    sa.Column("issuer", sa.Text, primary_key=True),
    sa.Column("client_id", sa.Text, primary_key=True),
    sa.Column("deployment_id", sa.Text, primary_key=True),
    sa.Column("context_id", sa.Text, primary_key=True),  # "" when the launch names no course
    sa.Column("link_id", sa.Text, primary_key=True),
    _class_column(),
    sa.Column("context_title", sa.Text, nullable=False),
    sa.Column("link_title", sa.Text, nullable=False),
    sa.Column("lineitem", sa.Text),  # AGS: the link's line item, NULL: none (yet)
    sa.Column("lineitems", sa.Text),  # AGS: the course's line items, NULL: none
    sa.Column("scopes", sa.Text, nullable=False),  # AGS: the scopes granted, a JSON list
    sa.Column("members_url", sa.Text),  # NRPS: the course's memberships, NULL: none
    sa.Column("created", sa.Text, nullable=False),
    sa.Index("lti_links_of_class", "class"),
)
"""A course's resource link and its class (:class:`~dekbovinoj_edu.lti.courses.Link`)."""

lti_people = sa.Table(
    "lti_people",
    metadata,
    _class_column(),
    sa.Column("subject", sa.Text, nullable=False),  # the LMS's sub
    sa.Column("nickname", sa.Text, nullable=False),  # their seat's nickname in the class
    sa.Column("name", sa.Text, nullable=False),  # as the LMS names them
    sa.Column("role", sa.Text, nullable=False),  # "student" or "teacher"
    sa.Column("seen", sa.Text),  # their latest launch (UTC); NULL: on the roster, not yet come
    sa.PrimaryKeyConstraint("class", "subject", name="lti_people_of_class"),
)
"""A person of a class an LMS opens (:class:`~dekbovinoj_edu.lti.courses.Person`)."""

lti_tickets = sa.Table(
    "lti_tickets",
    metadata,
    sa.Column("ticket", sa.Text, primary_key=True),  # the ticket's SHA-256
    sa.Column("purpose", sa.Text, nullable=False),
    sa.Column("payload", sa.Text, nullable=False),  # a JSON object
    sa.Column("expires", REAL, nullable=False),  # seconds since the epoch; purged after
    sa.Index("lti_tickets_by_expiry", "expires"),
)
"""A one-time ticket a launch handed a browser (:mod:`dekbovinoj_edu.lti.courses`)."""

lti_scores = sa.Table(
    "lti_scores",
    metadata,
    _class_column(),
    sa.Column("subject", sa.Text, nullable=False),
    sa.Column("given", REAL, nullable=False),
    sa.Column("maximum", REAL, nullable=False),
    sa.Column("activity", sa.Text, nullable=False),  # AGS activityProgress
    sa.Column("grading", sa.Text, nullable=False),  # AGS gradingProgress
    sa.Column("sent", sa.Text, nullable=False),  # when the LMS acknowledged it (UTC)
    sa.PrimaryKeyConstraint("class", "subject", name="lti_scores_of_class"),
)
"""The score the LMS last acknowledged for a person of a class."""
