"""Scores to the LMS's gradebook (Assignment and Grade Services), through the service's own
loop: never lost, never counted twice.

Every :data:`SEND_SECONDS` the service works out, for each class a course's link opened, each
student's score from the attempts (:func:`~dekbovinoj_edu.classroom.grades.grades_of_class`:
2 points a puzzle for a best answer without a hint, 1 for another solution) and posts those
that differ from what the LMS last acknowledged (``lti_scores``): a student's score once they
have ended a puzzle, ``Completed`` once they ended every puzzle or the teacher ended the class
(a student on the roster who never came has none: the gradebook shows them missing, not 0).
The acknowledgement is kept after the LMS's 2xx. Nothing waits in memory: after a restart the
attempts say again what to send, and an LMS that did not answer is asked again after a pause
that doubles up to :data:`MOST_PAUSE` (per link). A post replaces the student's score in the
gradebook, so sending one again never doubles it.

A link without a line item of its own gets one, made once in the course's line items.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone

from ..classroom.grades import grades_of_class
from ..lti.ags import COMPLETED, FULLY_GRADED, IN_PROGRESS, create_lineitem, post_score, score_body
from ..lti.courses import STUDENT, CourseStore, Link, LinkKey, Sent
from ..lti.errors import LtiError
from ..lti.registration import Registration
from ..lti.service_token import LINEITEM_SCOPE, SCORE_SCOPE, ServiceTokens
from ..lti.store import LtiStore
from .state import Service

__all__ = ["FIRST_PAUSE", "MOST_PAUSE", "SEND_SECONDS", "ScoreSender", "send_scores"]

LOG = logging.getLogger("dekbovinoj.lti")

SEND_SECONDS = 5.0
"""How often the service looks for scores to send."""
FIRST_PAUSE = 10.0
"""How long the service waits before asking an LMS that did not answer again."""
MOST_PAUSE = 600.0
"""The longest pause between two tries at an LMS that does not answer."""


@dataclass
class ScoreSender:
    """The scores of one service's LMS classes, sent as they change."""

    service: Service
    tokens: ServiceTokens = field(default_factory=ServiceTokens)
    _pause: dict[LinkKey, tuple[float, float]] = field(default_factory=dict)
    """An LMS that did not answer, by link: (not before, the pause)."""

    def send_once(self, now: float) -> int:
        """Send every changed score now (a blocking call); how many the LMSs acknowledged."""
        database = self.service.store.database  # type: ignore[attr-defined]
        courses, lti = CourseStore(database), LtiStore(database)
        registrations = {(r.issuer, r.client_id): r for r in lti.registrations()}
        sent = 0
        for link in courses.links():
            if SCORE_SCOPE not in link.scopes or not (link.lineitem or link.lineitems):
                continue
            registration = registrations.get((link.key.issuer, link.key.client_id))
            waiting = self._pause.get(link.key)
            if registration is None or (waiting is not None and waiting[0] > now):
                continue
            try:
                sent += self._send_link(link, registration, courses, lti, now)
            except LtiError as error:
                pause = min(MOST_PAUSE, 2 * waiting[1]) if waiting else FIRST_PAUSE
                self._pause[link.key] = (now + pause, pause)
                LOG.warning("lti: scores of %s wait %.0f s: %s", link.class_name, pause, error)
                if error.code == "wrong-scope":
                    self.tokens.forget(registration)
            else:
                self._pause.pop(link.key, None)
        return sent

    def _changed(self, link: Link, courses: CourseStore) -> list[tuple[str, Sent]]:
        store = self.service.store
        name = link.class_name
        size = store.assignment(name).size
        over = store.is_ended(name)
        grades = {grade.student: grade for grade in grades_of_class(store, name)}
        acknowledged = courses.acknowledged(name)
        changed = []
        for person in courses.people(name):
            grade = grades.get(person.nickname)
            came = person.seen is not None  # one on the roster who never came has no score
            if person.role != STUDENT or not came or grade is None:
                continue
            if grade.ended == 0 and not over:
                continue
            activity = COMPLETED if over or grade.ended >= size else IN_PROGRESS
            sent = Sent(float(grade.points), float(grade.maximum), activity, FULLY_GRADED)
            if acknowledged.get(person.subject) != sent:
                changed.append((person.subject, sent))
        return changed

    def _send_link(
        self,
        link: Link,
        registration: Registration,
        courses: CourseStore,
        lti: LtiStore,
        now: float,
    ) -> int:
        changed = self._changed(link, courses)
        if not changed:
            return 0
        key = lti.key_ring(datetime.fromtimestamp(now, timezone.utc)).current
        lineitem = link.lineitem
        if lineitem is None:
            assert link.lineitems is not None
            token = self.tokens.token(registration, key, (LINEITEM_SCOPE, SCORE_SCOPE))
            label = link.link_title or link.class_name
            most = changed[0][1].maximum
            lineitem = create_lineitem(link.lineitems, token, label, most, link.key.link_id)
            courses.put_link(replace(link, lineitem=lineitem), now)
        token = self.tokens.token(registration, key, (SCORE_SCOPE,))
        for subject, sent in changed:
            body = score_body(subject, sent.given, sent.maximum, sent.activity, now=now)
            post_score(lineitem, token, body)
            courses.acknowledge(link.class_name, subject, sent, now=now)
        return len(changed)


async def send_scores(
    service: Service, stopping: asyncio.Event, every: float = SEND_SECONDS
) -> None:
    """Send the scores every ``every`` seconds until ``stopping`` is set (in the service's
    loop; each pass in a thread of its own). A fault is logged, never the loop's end."""
    sender = ScoreSender(service)
    loop = asyncio.get_running_loop()
    while not stopping.is_set():
        try:
            await loop.run_in_executor(None, sender.send_once, time.time())
        except Exception:  # a database away, a bug: logged, and tried again next time
            LOG.exception("lti: the scores' pass failed")
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stopping.wait(), every)
