"""The tool's access to an LMS's services: OAuth 2's client-credentials grant with a signed JWT
as the client's proof (1EdTech Security Framework 1.0, section 4.1).

The assertion is signed RS256 by the tool's current key (:mod:`.keys`): ``iss`` and ``sub`` the
tool's client id, ``aud`` the platform's token address, a ``jti`` of its own, valid five
minutes. The token is kept per platform, client and scopes until a minute before it expires;
a token whose granted ``scope`` lacks one asked for is refused (``wrong-scope``), as is an LMS
that does not answer (``lms-unavailable``).

>>> claims = assertion_claims(REGISTRATION, now=1000.0)
>>> claims["iss"] == claims["sub"] == "Zx3q", claims["aud"], claims["exp"] - claims["iat"]
(True, 'https://lms.example/token', 300)
"""

from __future__ import annotations

import secrets
import threading
import time
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import LtiError
from .keys import ToolKey
from .lms_http import lms_json
from .registration import Registration

__all__ = [
    "ASSERTION_SECONDS",
    "EARLY_SECONDS",
    "LINEITEM_SCOPE",
    "MEMBERSHIP_SCOPE",
    "REGISTRATION",
    "SCORE_SCOPE",
    "ServiceTokens",
    "assertion_claims",
]

SCORE_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/score"
LINEITEM_SCOPE = "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem"
MEMBERSHIP_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly"
ASSERTION_SECONDS = 300
"""How long the tool's signed proof is good for."""
EARLY_SECONDS = 60
"""How long before its expiry a kept token is asked for again."""
JWT_BEARER = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

REGISTRATION = Registration(
    "https://lms.example", "Zx3q", ("1",), "https://lms.example/auth",
    "https://lms.example/token", "https://lms.example/jwks",
)  # fmt: skip
"""A registration for this module's examples."""


def assertion_claims(registration: Registration, *, now: float) -> dict[str, Any]:
    """The claims of the tool's proof to ``registration``'s token address."""
    return {
        "iss": registration.client_id,
        "sub": registration.client_id,
        "aud": registration.token_url,
        "iat": int(now),
        "exp": int(now) + ASSERTION_SECONDS,
        "jti": secrets.token_urlsafe(16),
    }


def _post_form(url: str, fields: dict[str, str]) -> Any:
    body = urllib.parse.urlencode(fields).encode()
    headers = {"Content-Type": "application/x-www-form-urlencoded", "Accept": "application/json"}
    return lms_json("POST", url, headers, body, code="lms-unavailable")


@dataclass
class ServiceTokens:
    """The access tokens this process holds, by platform, client and scopes (thread-safe)."""

    post: Callable[[str, dict[str, str]], Any] = _post_form
    clock: Callable[[], float] = time.time
    _kept: dict[tuple[str, str, tuple[str, ...]], tuple[str, float]] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def token(self, registration: Registration, key: ToolKey, scopes: Sequence[str]) -> str:
        """A token for ``scopes`` at ``registration``'s LMS: kept, or asked for now."""
        wanted = tuple(sorted(set(scopes)))
        which = (registration.issuer, registration.client_id, wanted)
        now = self.clock()
        with self._lock:
            kept = self._kept.get(which)
            if kept is not None and kept[1] - EARLY_SECONDS > now:
                return kept[0]
        answer = self.post(
            registration.token_url,
            {
                "grant_type": "client_credentials",
                "client_assertion_type": JWT_BEARER,
                "client_assertion": key.sign(assertion_claims(registration, now=now)),
                "scope": " ".join(wanted),
            },
        )
        if not isinstance(answer, dict) or not isinstance(answer.get("access_token"), str):
            raise LtiError("lms-unavailable", "The LMS's token answer has no access_token.")
        granted = answer.get("scope")
        granted_scopes = set(granted.split()) if isinstance(granted, str) else set(wanted)
        if not set(wanted) <= granted_scopes:
            missing = sorted(set(wanted) - granted_scopes)
            raise LtiError("wrong-scope", f"The LMS did not grant {missing}.")
        lasts = answer.get("expires_in", 3600)
        lasts = (
            float(lasts)
            if isinstance(lasts, int | float) and not isinstance(lasts, bool)
            else 3600.0
        )
        with self._lock:
            self._kept[which] = (answer["access_token"], now + lasts)
        return str(answer["access_token"])

    def forget(self, registration: Registration) -> None:
        """Forget the tokens of ``registration`` (the LMS refused one)."""
        with self._lock:
            for which in [
                w for w in self._kept if w[:2] == (registration.issuer, registration.client_id)
            ]:
                del self._kept[which]
