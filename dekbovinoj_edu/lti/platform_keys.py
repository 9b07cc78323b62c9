"""The platforms' public keys: each platform's JWKS fetched, cached by ``kid``, refetched once.

A launch names the key that signed it (``kid``). :class:`PlatformKeys` answers from its cache
per issuer; an unknown ``kid`` (a platform rotated its keys) fetches the platform's JWKS again,
at most once per :data:`REFETCH_SECONDS` for each issuer, so forged ``kid`` values cannot make
this tool hammer a platform. A fetch has a bounded time and size, follows no redirect, and
goes only to an https URL (or http to this machine: :func:`~.registration.check_url`).

>>> from .keys import new_key
>>> from datetime import datetime, timezone
>>> key = new_key(datetime(2026, 12, 7, tzinfo=timezone.utc))
>>> fetched = []
>>> def fetch(url):
...     fetched.append(url)
...     return {"keys": [key.public_jwk()]}
>>> keys = PlatformKeys(fetch=fetch, clock=lambda: 1000.0)
>>> found = keys.key_for("https://lms.example", "https://lms.example/jwks", key.kid)
>>> found.public_numbers().e, len(fetched)
(65537, 1)
>>> _ = keys.key_for("https://lms.example", "https://lms.example/jwks", key.kid)
>>> len(fetched)
1
>>> keys.key_for("https://lms.example", "https://lms.example/jwks", "other")
Traceback (most recent call last):
...
dekbovinoj_edu.lti.errors.LtiError: No key 'other' in the platform's keys.
"""

from __future__ import annotations

import json
import threading
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from time import monotonic
from typing import Any

from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

from .errors import LtiError
from .registration import check_url

__all__ = [
    "FETCH_TIMEOUT",
    "MAX_JWKS_BYTES",
    "REFETCH_SECONDS",
    "PlatformKeys",
    "fetch_jwks",
    "parse_jwks",
]

FETCH_TIMEOUT = 5.0
"""Seconds a platform has to answer for its keys."""
MAX_JWKS_BYTES = 256 * 1024
"""The most a platform's JWKS may weigh."""
REFETCH_SECONDS = 10.0
"""The least time between two fetches of one platform's keys on an unknown ``kid``."""


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


def fetch_jwks(url: str) -> Any:
    """The JSON at ``url`` (a platform's JWKS): bounded in time and size, no redirects."""
    check_url(url, "jwks_url")
    request = urllib.request.Request(url, headers={"Accept": "application/json"})
    try:
        with _OPENER.open(request, timeout=FETCH_TIMEOUT) as response:
            raw = response.read(MAX_JWKS_BYTES + 1)
    except OSError as error:
        raise LtiError("platform-keys-unavailable", f"The platform's keys: {error}") from None
    if len(raw) > MAX_JWKS_BYTES:
        raise LtiError("platform-keys-unavailable", "The platform's keys are too large.")
    try:
        return json.loads(raw)
    except ValueError:
        raise LtiError("platform-keys-unavailable", "The platform's keys are not JSON.") from None


def parse_jwks(document: Any) -> dict[str, rsa.RSAPublicKey]:
    """The RSA signing keys of a JWKS by ``kid``; keys of other types or uses are left out."""
    members = document.get("keys") if isinstance(document, dict) else None
    if not isinstance(members, list):
        raise LtiError("platform-keys-unavailable", "The platform's keys are not a JWKS.")
    found: dict[str, rsa.RSAPublicKey] = {}
    for member in members:
        if not isinstance(member, dict) or member.get("kty") != "RSA":
            continue
        kid = member.get("kid")
        if not isinstance(kid, str) or member.get("use", "sig") != "sig":
            continue
        try:
            key = RSAAlgorithm.from_jwk(member)
        except (ValueError, KeyError, TypeError):
            continue
        if isinstance(key, rsa.RSAPublicKey):
            found[kid] = key
    return found


@dataclass
class PlatformKeys:
    """Every platform's keys this process has seen, by issuer and ``kid`` (thread-safe)."""

    fetch: Callable[[str], Any] = fetch_jwks
    clock: Callable[[], float] = monotonic
    _keys: dict[str, Mapping[str, rsa.RSAPublicKey]] = field(default_factory=dict)
    _fetched: dict[str, float] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def key_for(self, issuer: str, jwks_url: str, kid: str) -> rsa.RSAPublicKey:
        """The issuer's key ``kid``: cached, or fetched (again) once; ``unknown-kid`` if none."""
        with self._lock:
            cached = self._keys.get(issuer, {})
            if kid in cached:
                return cached[kid]
            last = self._fetched.get(issuer)
            now = self.clock()
            if last is not None and now - last < REFETCH_SECONDS:
                raise LtiError("unknown-kid", f"No key {kid!r} in the platform's keys.")
            self._fetched[issuer] = now
        fresh = parse_jwks(self.fetch(jwks_url))
        with self._lock:
            self._keys[issuer] = fresh
        if kid not in fresh:
            raise LtiError("unknown-kid", f"No key {kid!r} in the platform's keys.")
        return fresh[kid]
