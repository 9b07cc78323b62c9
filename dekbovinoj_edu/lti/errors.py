"""Why the LTI tool refuses a login or a launch: one error class, one stable code each.

Every refusal is a :class:`LtiError` whose ``code`` is one row of :data:`STATUS` (the HTTP
status the class service answers with); the codes are a contract, as the class service's own
(``class_service/errors.py``) are. The message is English for the logs; the page a person
reads says one sentence in their language, chosen by the code.

>>> error = LtiError("nonce-replayed", "This launch was already used.")
>>> error.code, error.status
('nonce-replayed', 401)
>>> LtiError("no-such-code", "x")
Traceback (most recent call last):
...
KeyError: 'no-such-code'
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

__all__ = ["STATUS", "LtiError"]

STATUS: Mapping[str, int] = MappingProxyType(
    {
        # the login (OIDC third-party-initiated login)
        "login-missing-field": 400,
        "login-unknown-platform": 403,
        # the launch's form and its token
        "no-token": 400,
        "malformed-token": 400,
        "bad-algorithm": 401,
        "no-kid": 401,
        "unknown-kid": 401,
        "bad-signature": 401,
        "platform-keys-unavailable": 401,
        # who sent it and to whom
        "unknown-issuer": 403,
        "wrong-audience": 403,
        "wrong-azp": 403,
        "unknown-deployment": 403,
        # when
        "no-time": 401,
        "expired": 401,
        "issued-in-future": 401,
        # once only, and from the login this browser began
        "no-nonce": 401,
        "nonce-replayed": 401,
        "nonce-mismatch": 401,
        "state-mismatch": 401,
        # what it asks for
        "wrong-message-type": 400,
        "wrong-version": 400,
        "no-roles": 400,
        "no-subject": 400,
        "no-resource-link": 400,
        # the class a launch opens
        "bad-puzzle-set": 400,
        "no-deep-link-settings": 400,
        "not-opened-yet": 409,
        "ticket-used": 410,
        "not-in-course": 403,
        # the LMS's services (scores, roster)
        "wrong-scope": 403,
        "lms-unavailable": 502,
        # a registration the administrator gives
        "insecure-url": 400,
        "incomplete-registration": 400,
        "registration-refused": 400,
    }
)
"""Every code of a refusal and its HTTP status: 400 a request no platform should send, 401 a
token that does not prove who sent it (or not now), 403 a sender this tool does not know, 409
a link whose class no teacher opened yet, 410 a launch's button used twice or too late, 502 an
LMS whose services did not answer (or 403, ``wrong-scope``: not as asked)."""


class LtiError(ValueError):
    """A login or a launch refused: ``code`` (a key of :data:`STATUS`) says why."""

    def __init__(self, code: str, message: str) -> None:
        self.status = STATUS[code]
        self.code = code
        super().__init__(message)
