"""The classes a school's LMS opens, in the class database (revision 0007): each resource link
of a course and its class (:class:`Link`), each person of such a class by the LMS's ``sub``
(:class:`Person`: a student's seat, named as the LMS names them), the one-time tickets a
launch hands a browser, and the score the LMS last acknowledged for each person.

A student's seat is an ordinary seat of the class (the board, the report and the gradebook
show it as any other) whose nickname :func:`nickname_for` makes from the LMS's name, unique in
the class; nobody knows its rejoin code but the launch that set it, so a classmate who types
the name is refused as for any taken nickname.

>>> from dekbovinoj_edu.classroom.assignment import codes_assignment
>>> from dekbovinoj_edu.classroom.store import SQLiteStore
>>> store = SQLiteStore(":memory:")
>>> store.add_class(codes_assignment("Maths 4A", "4WTW-94T5-3AE0-600E-0"))
>>> courses = CourseStore(store.database)
>>> ana, code = courses.seat_person("Maths 4A", "u-17", "Ana Lind", "student", now=1.0, came=True)
>>> ana.nickname, len(code or "")
('Ana Lind', 9)
>>> store.seats("Maths 4A")[0].nickname
'Ana Lind'
>>> other, _ = courses.seat_person("Maths 4A", "u-18", "Ana Lind", "student", now=2.0, came=False)
>>> other.nickname, other.seen
('Ana Lind 2', None)
>>> ticket = courses.issue_ticket("start", {"class": "Maths 4A"}, now=0.0)
>>> courses.take_ticket(ticket, "start", now=1.0), courses.take_ticket(ticket, "start", now=1.0)
({'class': 'Maths 4A'}, None)
"""

from __future__ import annotations

import hashlib
import json
import secrets
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from ..classroom.assignment import MAX_NAME, class_key
from ..classroom.attempts import utc_now
from ..classroom.nicknames import (
    MAX_NICKNAME,
    check_nickname,
    hub_key,
    invisible,
    nickname_key,
)
from ..classroom.roster import Roster
from ..classroom.seat import new_rejoin_code
from ..classroom.store.database import Database
from ..classroom.store.rows import secret_of
from ..classroom.store.tables import lti_links, lti_people, lti_scores, lti_tickets, seats
from . import claims as c

__all__ = [
    "DEEP_LINK",
    "LMS_ROSTER",
    "REGISTER",
    "STUDENT",
    "TEACHER",
    "TICKET_SECONDS",
    "CourseStore",
    "Link",
    "LinkKey",
    "Person",
    "Sent",
    "class_name_for",
    "link_from_launch",
    "link_key",
    "nickname_for",
]

STUDENT = "student"
TEACHER = "teacher"
DEEP_LINK = "deep-link"
"""The purpose of a deep linking form's ticket (the request it answers)."""
REGISTER = "register"
"""The purpose of a Dynamic Registration key among the tickets (a student's and a teacher's
tickets have their role as purpose)."""
LMS_ROSTER = Roster(groups=("from-the-lms",))
"""The roster of a class an LMS opened: nobody takes a new seat by typing a nickname (each
student's seat is made by their launch, or by the LMS's roster)."""
TICKET_SECONDS = 120.0
"""How long a launch's ticket is good for: the browser uses it at once, or never."""


@dataclass(frozen=True)
class LinkKey:
    """Which link of which course of which platform: a class each."""

    issuer: str
    client_id: str
    deployment_id: str
    context_id: str
    """The course's id ("" when the launch names no course)."""
    link_id: str


@dataclass(frozen=True)
class Link:
    """A resource link and its class, with where the LMS takes scores and gives its roster."""

    key: LinkKey
    class_name: str
    context_title: str
    link_title: str
    lineitem: str | None = None
    """AGS: the link's own line item (the column in the gradebook), when the LMS made one."""
    lineitems: str | None = None
    """AGS: the course's line items, where a line item is made when the link has none."""
    scopes: tuple[str, ...] = ()
    """AGS: the scopes the platform grants this link."""
    members_url: str | None = None
    """NRPS: the course's memberships."""


def link_key(launch: Any) -> LinkKey:
    """The :class:`LinkKey` of a resource link launch (:class:`~.launch.Launch`)."""
    registration = launch.registration
    return LinkKey(
        registration.issuer,
        registration.client_id,
        launch.deployment_id,
        launch.context_id or "",
        launch.resource_link_id or "",
    )


def link_from_launch(launch: Any, class_name: str) -> Link:
    """The :class:`Link` a resource link launch describes, for class ``class_name``: the
    services' addresses from its AGS and NRPS claims (absent when the LMS offers none)."""
    claims: Mapping[str, Any] = launch.claims
    ags = claims.get(c.AGS_ENDPOINT)
    ags = ags if isinstance(ags, Mapping) else {}
    nrps = claims.get(c.NRPS)
    nrps = nrps if isinstance(nrps, Mapping) else {}
    scopes = ags.get("scope")

    def text(value: object) -> str | None:
        return value if isinstance(value, str) and value else None

    return Link(
        link_key(launch),
        class_name,
        launch.context_title or "",
        launch.resource_link_title or "",
        lineitem=text(ags.get("lineitem")),
        lineitems=text(ags.get("lineitems")),
        scopes=tuple(s for s in scopes if isinstance(s, str)) if isinstance(scopes, list) else (),
        members_url=text(nrps.get("context_memberships_url")),
    )


@dataclass(frozen=True)
class Person:
    """Someone of a class an LMS opened: the LMS's ``sub``, their seat's nickname (a student's;
    "" for a teacher), their name as the LMS gives it, their role, and their latest launch
    (``None``: on the LMS's roster, not yet come)."""

    class_name: str
    subject: str
    nickname: str
    name: str
    role: str
    seen: str | None


@dataclass(frozen=True)
class Sent:
    """A score as the LMS acknowledged it (AGS): given of most, and its two progresses."""

    given: float
    maximum: float
    activity: str
    grading: str


def _visible(name: str) -> str:
    tidy = unicodedata.normalize("NFC", " ".join(name.split()))
    return "".join(
        ch for ch in tidy if not invisible(ch) and not unicodedata.category(ch).startswith("C")
    )


def nickname_for(name: str, taken: set[str]) -> str:
    """The nickname of someone the LMS calls ``name``, whose key is not in ``taken`` (the
    class's :func:`~..classroom.nicknames.nickname_key`): the name if it fits, else the first
    name and the family name's initial, else the name cut; a number after it when another
    has it; ``#1``, ``#2``… when the LMS gives no name.

    >>> nickname_for("Ana Lind", set())
    'Ana Lind'
    >>> nickname_for("Maximiliane Adelheid von Lindenbaum", set())
    'Maximiliane L.'
    >>> nickname_for("Ana Lind", {nickname_key("Ana Lind")})
    'Ana Lind 2'
    >>> nickname_for("\\u3164", set())
    '#1'
    """
    base = _visible(name)
    if len(base) > MAX_NICKNAME:
        parts = base.split(" ")
        short = f"{parts[0]} {parts[-1][:1]}." if len(parts) > 1 else ""
        base = short if 0 < len(short) <= MAX_NICKNAME else base[:MAX_NICKNAME].rstrip()
    try:
        base = check_nickname(base)
    except ValueError:
        base = ""
    if base:
        return _numbered(base, MAX_NICKNAME, taken, nickname_key)
    return next(f"#{n}" for n in range(1, len(taken) + 3) if nickname_key(f"#{n}") not in taken)


def _numbered(base: str, most: int, taken: set[str], key: Any) -> str:
    """``base`` (cut to ``most`` characters), else with a number after it, whose ``key`` is
    not in ``taken``."""
    for number in range(1, len(taken) + 3):
        suffix = "" if number == 1 else f" {number}"
        candidate = base[: most - len(suffix)].rstrip() + suffix
        if key(candidate) not in taken:
            return candidate
    raise AssertionError("unreachable: more numbers tried than names taken")


def class_name_for(course: str, link: str, taken: set[str]) -> str:
    """The name of the class a course's link opens: the course's title and the link's, as
    the LMS gives them (cut to a class name's length), with a number after it when a class
    of the store (``taken``: their :func:`~..classroom.assignment.class_key`) has it.

    >>> class_name_for("Maths 4A", "Ten cows", set())
    'Maths 4A · Ten cows'
    >>> class_name_for("Maths 4A", "", {class_key("Maths 4A")})
    'Maths 4A 2'
    >>> class_name_for("", "", set())
    'LMS'
    """
    base = " · ".join(part for part in (_visible(course), _visible(link)) if part) or "LMS"
    return _numbered(base, MAX_NAME, taken, class_key)


def _arriving(
    db: Connection, class_name: str, subject: str, now: float, came: bool
) -> tuple[Any, str | None]:
    """The row of person ``subject`` of ``class_name`` (locked till the transaction ends; ``None``
    if new) and when they were last seen: ``now`` when they ``came``, else as it was."""
    t = lti_people.c
    found = db.execute(
        sa.select(lti_people)
        .where(t["class"] == class_name, t.subject == subject)
        .with_for_update()
    ).first()
    return found, _now_text(now) if came else (None if found is None else found.seen)


def _put_row(
    db: Connection, table: sa.Table, class_name: str, subject: str, values: dict[str, Any]
) -> None:
    """Set ``values`` in the row of ``table`` for (``class_name``, ``subject``), made if none."""
    where = sa.and_(table.c["class"] == class_name, table.c.subject == subject)
    if db.execute(sa.update(table).where(where).values(**values)).rowcount == 0:
        db.execute(sa.insert(table).values(subject=subject, **values, **{"class": class_name}))


def _new_seat(
    db: Connection, class_name: str, key: str, nickname: str, secret: str | None, now: float
) -> None:
    """A new seat at puzzle 1 for a person of the LMS (``secret``: its rejoin code's, or
    ``None`` for a hub user's seat, which the hub's sign-in opens)."""
    db.execute(
        sa.insert(seats).values(
            key=key,
            nickname=nickname,
            session="",
            puzzle=1,
            started=now,
            hints=0,
            last_seen=0.0,
            joined=utc_now(),
            secret=secret,
            **{"class": class_name},
        )
    )


def _hash(ticket: str) -> str:
    return hashlib.sha256(ticket.encode("utf-8")).hexdigest()


def _now_text(now: float) -> str:
    return datetime.fromtimestamp(now, timezone.utc).isoformat(timespec="seconds")


class CourseStore:
    """The tables of the classes an LMS opens, in one class database."""

    def __init__(self, database: Database) -> None:
        self.database = database

    # --- links ---------------------------------------------------------------------------

    @staticmethod
    def _link(row: Any) -> Link:
        return Link(
            LinkKey(row.issuer, row.client_id, row.deployment_id, row.context_id, row.link_id),
            row._mapping["class"],
            row.context_title,
            row.link_title,
            row.lineitem,
            row.lineitems,
            tuple(json.loads(row.scopes)),
            row.members_url,
        )

    @staticmethod
    def _where(key: LinkKey) -> Any:
        t = lti_links.c
        return sa.and_(
            t.issuer == key.issuer,
            t.client_id == key.client_id,
            t.deployment_id == key.deployment_id,
            t.context_id == key.context_id,
            t.link_id == key.link_id,
        )

    def link(self, key: LinkKey) -> Link | None:
        """The link ``key`` and its class, if a launch made it."""
        row = self.database.run(
            lambda db: db.execute(sa.select(lti_links).where(self._where(key))).first(),
            write=False,
        )
        return None if row is None else self._link(row)

    def links(self, class_name: str | None = None) -> list[Link]:
        """Every link (of class ``class_name`` when given)."""
        query = sa.select(lti_links).order_by(lti_links.c.created)
        if class_name is not None:
            query = query.where(lti_links.c["class"] == class_name)
        rows = self.database.run(lambda db: db.execute(query).all(), write=False)
        return [self._link(row) for row in rows]

    def put_link(self, link: Link, now: float) -> Link:
        """Keep ``link`` (its services' addresses as the latest launch gave them, but a line item
        kept when the launch names none: the tool may have made it); when another launch made
        the link first, that link's class stays: the link as kept is returned."""
        values = {
            "lineitem": link.lineitem,
            "lineitems": link.lineitems,
            "scopes": json.dumps(list(link.scopes)),
            "members_url": link.members_url,
            "context_title": link.context_title,
            "link_title": link.link_title,
        }

        def work(db: Connection) -> Link:
            found = db.execute(sa.select(lti_links).where(self._where(link.key))).first()
            if found is None:
                db.execute(
                    sa.insert(lti_links).values(
                        **vars(link.key),
                        **values,
                        created=_now_text(now),
                        **{"class": link.class_name},
                    )
                )
            else:
                if link.lineitem is None:  # a launch without one keeps the one made before
                    del values["lineitem"]
                db.execute(sa.update(lti_links).where(self._where(link.key)).values(**values))
            row = db.execute(sa.select(lti_links).where(self._where(link.key))).one()
            return self._link(row)

        kept: Link = self.database.run(work, write=True)
        return kept

    # --- people --------------------------------------------------------------------------

    @staticmethod
    def _person(row: Any) -> Person:
        return Person(
            row._mapping["class"], row.subject, row.nickname, row.name, row.role, row.seen
        )

    def person(self, class_name: str, subject: str) -> Person | None:
        """The person ``subject`` of class ``class_name``, if the class has them."""
        t = lti_people.c
        row = self.database.run(
            lambda db: db.execute(
                sa.select(lti_people).where(t["class"] == class_name, t.subject == subject)
            ).first(),
            write=False,
        )
        return None if row is None else self._person(row)

    def people(self, class_name: str) -> list[Person]:
        """Everyone of class ``class_name``, teachers and students, by nickname."""
        t = lti_people.c
        rows = self.database.run(
            lambda db: db.execute(
                sa.select(lti_people).where(t["class"] == class_name).order_by(t.role, t.nickname)
            ).all(),
            write=False,
        )
        return [self._person(row) for row in rows]

    def seat_person(
        self, class_name: str, subject: str, name: str, role: str, *, now: float, came: bool
    ) -> tuple[Person, str | None]:
        """Put ``subject`` (called ``name``) in class ``class_name`` as ``role``, in one
        transaction: a student gets a seat of their own (nickname :func:`nickname_for`) the
        first time they come as a student (a teacher who becomes a student too; a student who
        becomes a teacher keeps the seat, with its attempts). ``came``: they are launching now,
        so their seat gets a new rejoin code, returned (the launch hands it to their browser;
        an earlier code stops working); otherwise (the LMS's roster) the seat waits for them,
        and ``None`` is returned."""
        seat_of = sa.and_(seats.c["class"] == class_name)

        def work(db: Connection) -> tuple[Person, str | None]:
            found, seen = _arriving(db, class_name, subject, now, came)
            nickname = "" if found is None else str(found.nickname)
            if role == STUDENT and not nickname:  # new, or a teacher of the class till now
                keys = {row.key for row in db.execute(sa.select(seats.c.key).where(seat_of))}
                nickname = nickname_for(name, keys)
                secret = secret_of(new_rejoin_code())
                _new_seat(db, class_name, nickname_key(nickname), nickname, secret, now)
            person = Person(class_name, subject, nickname, name, role, seen)
            self._keep_person(db, person)
            code = None
            if came and person.role == STUDENT:
                code = new_rejoin_code()
                db.execute(
                    sa.update(seats)
                    .where(seat_of, seats.c.key == nickname_key(person.nickname))
                    .values(secret=secret_of(code))
                )
            return person, code

        done: tuple[Person, str | None] = self.database.run(work, write=True)
        return done

    @staticmethod
    def _keep_person(db: Connection, person: Person) -> None:
        values = {
            "nickname": person.nickname,
            "name": person.name,
            "role": person.role,
            "seen": person.seen,
        }
        _put_row(db, lti_people, person.class_name, person.subject, values)

    def put_hub_person(
        self,
        class_name: str,
        subject: str,
        user: str,
        name: str,
        role: str,
        *,
        now: float,
        came: bool,
    ) -> Person:
        """Put ``subject`` in class ``class_name`` as ``role`` under the hub name ``user``
        (a JupyterHub the LMS signs in to): a student's seat is the hub user's own, keyed as
        :meth:`~..classroom.store.seat_rows.SeatRows.join_vouched` keys it. ``came``: they
        launched now (their seat is made when they join, past the class's roster); otherwise
        the LMS's roster names them, and their seat waits for them with no rejoin code.

        >>> from dekbovinoj_edu.classroom.assignment import codes_assignment
        >>> from dekbovinoj_edu.classroom.store import SQLiteStore
        >>> store = SQLiteStore(":memory:")
        >>> store.add_class(codes_assignment("m4", "4WTW-94T5-3AE0-600E-0"))
        >>> courses = CourseStore(store.database)
        >>> courses.put_hub_person("m4", "u-7", "ana@skolo.example", "Ana", "student",
        ...                        now=5.0, came=False).seen is None
        True
        >>> [seat.nickname for seat in store.seats("m4")]
        ['ana@skolo.example']
        >>> courses.put_hub_person("m4", "u-7", "ana@skolo.example", "Ana", "student",
        ...                        now=6.0, came=True).seen is not None
        True
        """
        mine = seats.c["class"] == class_name

        def work(db: Connection) -> Person:
            found, seen = _arriving(db, class_name, subject, now, came)
            nickname = user if role == STUDENT else ("" if found is None else str(found.nickname))
            person = Person(class_name, subject, nickname, name, role, seen)
            key = hub_key(user)
            if role == STUDENT and not came:
                had = db.execute(sa.select(seats.c.id).where(mine, seats.c.key == key)).first()
                if had is None:
                    _new_seat(db, class_name, key, user, None, now)
            self._keep_person(db, person)
            return person

        kept: Person = self.database.run(work, write=True)
        return kept

    # --- tickets -------------------------------------------------------------------------

    def issue_ticket(
        self,
        purpose: str,
        payload: Mapping[str, Any],
        *,
        now: float,
        seconds: float = TICKET_SECONDS,
    ) -> str:
        """A new one-time ticket for ``purpose`` carrying ``payload`` (a JSON object), good
        for ``seconds``; the database keeps only its hash. Expired tickets are purged."""
        ticket = secrets.token_urlsafe(24)

        def work(db: Connection) -> None:
            db.execute(sa.delete(lti_tickets).where(lti_tickets.c.expires < now))
            db.execute(
                sa.insert(lti_tickets).values(
                    ticket=_hash(ticket),
                    purpose=purpose,
                    payload=json.dumps(dict(payload)),
                    expires=now + seconds,
                )
            )

        self.database.run(work, write=True)
        return ticket

    def ticket_alive(self, ticket: str, purpose: str, *, now: float) -> bool:
        """Whether ``ticket`` is a ticket for ``purpose``, not expired and not taken (it stays
        so: :meth:`take_ticket` spends it)."""
        if not ticket or len(ticket) > 200:
            return False
        where = lti_tickets.c.ticket == _hash(ticket)
        row = self.database.run(
            lambda db: db.execute(sa.select(lti_tickets).where(where)).first(), write=False
        )
        return row is not None and row.purpose == purpose and row.expires >= now

    def take_ticket(self, ticket: str, purpose: str, *, now: float) -> dict[str, Any] | None:
        """The payload of ``ticket`` if it is a ticket for ``purpose``, not expired and not
        taken before (taking it deletes it: one browser wins); else ``None``."""
        if not ticket or len(ticket) > 200:
            return None
        where = lti_tickets.c.ticket == _hash(ticket)

        def work(db: Connection) -> dict[str, Any] | None:
            row = db.execute(sa.select(lti_tickets).where(where).with_for_update()).first()
            if row is None:
                return None
            gone = db.execute(sa.delete(lti_tickets).where(where))
            if gone.rowcount != 1 or row.purpose != purpose or row.expires < now:
                return None
            payload: dict[str, Any] = json.loads(row.payload)
            return payload

        taken: dict[str, Any] | None = self.database.run(work, write=True)
        return taken

    # --- scores the LMS acknowledged -----------------------------------------------------

    def acknowledged(self, class_name: str) -> dict[str, Sent]:
        """Each person's score as the LMS last acknowledged it, by ``sub``."""
        t = lti_scores.c
        rows = self.database.run(
            lambda db: db.execute(sa.select(lti_scores).where(t["class"] == class_name)).all(),
            write=False,
        )
        return {
            row.subject: Sent(row.given, row.maximum, row.activity, row.grading) for row in rows
        }

    def acknowledge(self, class_name: str, subject: str, sent: Sent, *, now: float) -> None:
        """Keep ``sent`` as the score the LMS acknowledged for ``subject`` at ``now``."""
        values = {
            "given": sent.given,
            "maximum": sent.maximum,
            "activity": sent.activity,
            "grading": sent.grading,
            "sent": _now_text(now),
        }

        self.database.run(
            lambda db: _put_row(db, lti_scores, class_name, subject, values), write=True
        )
