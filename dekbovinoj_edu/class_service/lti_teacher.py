"""A teacher the school's LMS vouched for: a pass to one class's teacher's routes.

A launch with an Instructor's roles (:mod:`.lti_launch`) hands the teacher's browser a
one-time ticket; the button that spends it opens a new tab (a first-party page, so the cookie
holds even where the LMS's iframe may keep none) where the service sets the pass: a cookie
``HttpOnly``, ``SameSite=Lax`` (sent on the tab's first navigation), whose path is the
class's own dashboard (``/teacher/classes/<class>/``), so the browser sends it to that
class's routes only. Its value names the class and when it was issued, signed with a key
drawn from the service's secret; :meth:`LtiTeacherPass.verifies` checks it on every
teacher's route of that class, from any computer (the LMS signed the teacher in, as
``--teacher-from`` vouches for a network).

>>> clock = lambda: 1_000_000.0
>>> teacher = LtiTeacherPass("s3cret", clock)
>>> value = teacher.issue("Maths 4A")
>>> teacher.verifies(value, "Maths 4A"), teacher.verifies(value, "Maths 4B")
(True, False)
>>> LtiTeacherPass("other", clock).verifies(value, "Maths 4A")
False
>>> teacher.cookie_name("Maths 4A") != teacher.cookie_name("Maths 4B")
True
>>> cookie_path("/teacher", "Maths 4A")
'/teacher/classes/Maths%204A/'
"""

from __future__ import annotations

import hashlib
import hmac
import time
import urllib.parse
from collections.abc import Callable

from ..classroom.assignment import class_key
from .teacher_access import fresh_token, signed_token

__all__ = ["COOKIE_PREFIX", "LtiTeacherPass", "cookie_path"]

COOKIE_PREFIX = "dkb-lti-"
"""What the passes' cookie names start with (one cookie a class)."""


def cookie_path(teacher_root: str, class_name: str) -> str:
    """The path of class ``class_name``'s dashboard and its routes under the teacher's routes
    at ``teacher_root`` (the pass's cookie path)."""
    return f"{teacher_root}/classes/{urllib.parse.quote(class_name, safe='')}/"


class LtiTeacherPass:
    """The passes of one service: issued and checked with a key from its ``secret``."""

    def __init__(self, secret: str, clock: Callable[[], float] = time.time) -> None:
        self._key = hmac.new(secret.encode(), b"dekbovinoj lti teacher", hashlib.sha256).digest()
        self.clock = clock

    def _mac(self, *parts: str) -> str:
        return hmac.new(self._key, "\0".join(parts).encode(), hashlib.sha256).hexdigest()

    def cookie_name(self, class_name: str) -> str:
        """The pass's cookie name for class ``class_name`` (this service's own)."""
        return COOKIE_PREFIX + self._mac("cookie", class_key(class_name))[:12]

    def issue(self, class_name: str) -> str:
        """A new pass to class ``class_name`` (the cookie's value)."""
        key = class_key(class_name)
        return signed_token(lambda issued, nonce: self._mac(issued, nonce, key), self.clock)

    def verifies(self, value: str | None, class_name: str) -> bool:
        """Whether ``value`` is a pass this service issued to class ``class_name``, not older
        than :data:`~.teacher_access.SESSION_SECONDS`."""
        key = class_key(class_name)
        return fresh_token(value, lambda issued, nonce: self._mac(issued, nonce, key), self.clock)
