"""The course's roster from the LMS (Names and Role Provisioning Services) in a class it opened.

A teacher's launch reads the roster and seats every learner on it (:meth:`~dekbovinoj_edu.lti.
courses.CourseStore.seat_person`, their name as the LMS gives it): the teacher's board shows the
class before anyone arrives. A student the class does not know yet is looked up in the roster
read again (at most every :data:`AGAIN_SECONDS` a link); one the roster does not list is refused
(``not-in-course``), with one sentence. An LMS whose roster cannot be read refuses nobody: its
signed launch vouches for the student.
"""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field
from datetime import datetime, timezone

from ..classroom.store.database import Database
from ..lti.courses import STUDENT, TEACHER, CourseStore, Link, LinkKey
from ..lti.errors import LtiError
from ..lti.nrps import Member, members
from ..lti.service_token import MEMBERSHIP_SCOPE, ServiceTokens
from ..lti.store import LtiStore

__all__ = ["AGAIN_SECONDS", "Rosters", "hub_name"]

LOG = logging.getLogger("dekbovinoj.lti")

AGAIN_SECONDS = 10.0
"""The shortest time between two readings of one link's roster for a student it lacked."""


def hub_name(member: Member, key: str) -> str | None:
    """The hub name the LMS's launch will give ``member`` when a hub names its users by the
    claim ``key`` (``email``, lowercase as the hub keeps names; ``sub``); ``None`` when the
    roster does not tell it (an address the LMS keeps private, a custom claim).

    >>> ana = Member("u-7", "Ana Lind", False, "Ana.Lind@Skolo.example")
    >>> hub_name(ana, "email"), hub_name(ana, "sub"), hub_name(ana, "custom_login")
    ('ana.lind@skolo.example', 'u-7', None)
    """
    if key == "email":
        return None if member.email is None else member.email.lower()
    return member.subject if key == "sub" else None


@dataclass
class Rosters:
    """The rosters this process read, by link (thread-safe)."""

    tokens: ServiceTokens = field(default_factory=ServiceTokens)
    _read: dict[LinkKey, float] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def sync(
        self, database: Database, link: Link, now: float, *, hub_names: str | None = None
    ) -> list[Member]:
        """Read ``link``'s roster and seat its people in its class (a blocking call);
        ``LtiError`` when the LMS cannot give it. ``hub_names``: the class is a JupyterHub's
        whose users the LMS names by this claim (:func:`hub_name`): each seat is the hub
        user's, as they will arrive."""
        if link.members_url is None:
            raise LtiError("lms-unavailable", "The LMS offers no roster for this link.")
        lti, courses = LtiStore(database), CourseStore(database)
        registration = next(
            (
                r
                for r in lti.registrations()
                if (r.issuer, r.client_id) == (link.key.issuer, link.key.client_id)
            ),
            None,
        )
        if registration is None:
            raise LtiError("unknown-issuer", "The link's LMS is no longer registered.")
        key = lti.key_ring(datetime.fromtimestamp(now, timezone.utc)).current
        token = self.tokens.token(registration, key, (MEMBERSHIP_SCOPE,))
        found = members(link.members_url, token)
        with self._lock:
            self._read[link.key] = now
        for member in found:
            role = TEACHER if member.teacher else STUDENT
            if hub_names is None:
                courses.seat_person(
                    link.class_name, member.subject, member.name, role, now=now, came=False
                )
                continue
            user = hub_name(member, hub_names)
            if user is not None:
                courses.put_hub_person(
                    link.class_name, member.subject, user, member.name, role, now=now, came=False
                )
        LOG.info("lti: roster of %s: %d people", link.class_name, len(found))
        return found

    def admits(self, database: Database, link: Link, subject: str, now: float) -> bool:
        """Whether the student ``subject`` may take a seat in ``link``'s class: known to it,
        on the roster read again now, or the roster cannot be read (a blocking call)."""
        if link.members_url is None or CourseStore(database).person(link.class_name, subject):
            return True
        with self._lock:
            last = self._read.get(link.key)
        if last is not None and now - last < AGAIN_SECONDS:
            return False
        try:
            found = self.sync(database, link, now)
        except LtiError as error:
            LOG.warning("lti: the roster of %s could not be read: %s", link.class_name, error)
            return True
        return any(member.subject == subject for member in found)
