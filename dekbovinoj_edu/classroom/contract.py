"""The class service's wire contract, written once: the routes' root, the formats of a session
token, an attempt's id and a rejoin code, every bound of a request, and each stable error
code with its HTTP status. The student's client (:mod:`.client`), the desk
(:mod:`.store.desk`) and the service (:mod:`dekbovinoj_edu.class_service`) import it; the service's
``openapi.json`` is checked against it (``tests/test_class_contract.py``).

>>> API_ROOT, bool(TOKEN.fullmatch("a" * 16)), bool(ATTEMPT_ID.fullmatch("a1"))
('/api/v1', True, False)
>>> bool(JOIN_ID.fullmatch("a1b2c3d4")), bool(JOIN_ID.fullmatch("Zq" * 16))
(False, True)
>>> bool(REJOIN_CODE.fullmatch("K7QM-2XHD")), STATUS["seat-taken"], transient(503)
(True, 409, True)
"""

from __future__ import annotations

import re

from ..rules.limits import MAX_CHARS
from .assignment import MAX_PUZZLES
from .nicknames import MAX_NICKNAME
from .seat import REJOIN_ALPHABET

__all__ = [
    "API_ROOT",
    "ATTEMPT_ID",
    "JOIN_ID",
    "MAX_ANSWER",
    "MAX_BODY",
    "MAX_HINTS",
    "MAX_NICKNAME",
    "MAX_PUZZLES",
    "MAX_REJOIN_CODE",
    "MAX_SECONDS",
    "REJOIN_CODE",
    "STATUS",
    "TOKEN",
    "transient",
]

API_ROOT = "/api/v1"
"""The student API's route prefix on the service."""

TOKEN = re.compile(r"[A-Za-z0-9_-]{16,128}")
"""A session token (``Authorization: Bearer …``): 16 to 128 letters, digits, ``_`` or ``-``."""

ATTEMPT_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
"""An attempt's id, chosen by the page: 8 to 64 letters, digits, ``_`` or ``-``."""

JOIN_ID = re.compile(r"[A-Za-z0-9_-]{22,64}")
"""A join's id, chosen at random by the page before it asks for a seat (22 to 64 letters,
digits, ``_`` or ``-``: at least 128 bits): a join sent again under the same id gets the same
seat, token and rejoin code (:func:`~.seat.join_secrets`)."""

REJOIN_CODE = re.compile(f"[{REJOIN_ALPHABET}]{{4}}-[{REJOIN_ALPHABET}]{{4}}")
"""A rejoin code as the service gives it (``K7QM-2XHD``)."""

MAX_REJOIN_CODE = 32
"""The longest rejoin code a student may type (the code is 9 characters; spaces are allowed)."""

MAX_BODY = 16 * 1024
"""The largest request body the service reads, in bytes."""

MAX_HINTS = 20
"""The most hints an attempt can say were used (more is kept as this many)."""

MAX_SECONDS = 86_400.0
"""The longest time an attempt can say it took (a day; more is kept as this)."""

MAX_ANSWER = MAX_CHARS
"""The longest answer an attempt carries, in characters (the checker's own bound)."""

STATUS: dict[str, int] = {
    "bad-request": 400,
    "unauthorized": 401,
    "forbidden": 403,
    "locked": 403,
    "not-on-roster": 403,
    "unknown-class": 404,
    "unknown-seat": 404,
    "not-found": 404,
    "method-not-allowed": 405,
    "nickname-taken": 409,
    "seat-taken": 409,
    "puzzle-not-open": 409,
    "class-exists": 409,
    "too-large": 413,
    "invalid": 422,
    "nickname": 422,
    "bad-assignment": 422,
    "rate-limited": 429,
    "store": 503,
    "database-address": 503,
    "hub": 503,
}
"""Each stable error code's HTTP status: every code of class mode's errors is here (a test
walks the subclasses of :class:`~.errors.ClassroomError`)."""


def transient(status: int) -> bool:
    """Whether an answer with ``status`` means "not now": the service (or a proxy before it)
    is busy, restarting or failing, so a request is sent again later.

    >>> [transient(status) for status in (429, 502, 503, 409, 422)]
    [True, True, True, False, False]
    """
    return status == 429 or status >= 500
