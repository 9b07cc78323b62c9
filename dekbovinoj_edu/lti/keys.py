"""The tool's own keys: RSA 2048 for RS256, each with a ``kid``, rotated without a gap.

The newest key not retired signs (the deep-linking responses and the service-token requests
the grade and roster services make); a retired key stops signing but stays in the tool's
JWKS (``/lti/jwks``) until it is removed, so a platform that fetched the set earlier still
checks what it signed. A ``kid`` is the key's RFC 7638 thumbprint, so the same key always has
the same ``kid``. The private key is PEM bytes kept out of ``repr`` (it lives in the class
database, never on a screen).

>>> from datetime import datetime, timezone
>>> monday = datetime(2026, 12, 7, tzinfo=timezone.utc)
>>> ring = KeyRing.start(monday)
>>> first = ring.current
>>> ring = ring.rotate(datetime(2026, 12, 8, tzinfo=timezone.utc))
>>> ring.current.kid != first.kid, [key.kid for key in ring.keys if key.retired]== [first.kid]
(True, True)
>>> [key["kid"] for key in ring.jwks()["keys"]] == [k.kid for k in ring.keys]
True
>>> "PRIVATE" in repr(ring.current)
False
>>> len(ring.remove_retired(datetime(2026, 12, 9, tzinfo=timezone.utc)).keys)
1
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

__all__ = ["KEY_BITS", "KeyRing", "ToolKey", "new_key", "thumbprint"]

KEY_BITS = 2048
"""The size of every key this tool makes (RS256 needs at least 2048)."""


def _b64(number: int) -> str:
    raw = number.to_bytes((number.bit_length() + 7) // 8, "big")
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def thumbprint(public: rsa.RSAPublicKey) -> str:
    """The RFC 7638 thumbprint of an RSA public key, base64url: its ``kid``."""
    numbers = public.public_numbers()
    members = {"e": _b64(numbers.e), "kty": "RSA", "n": _b64(numbers.n)}
    canonical = json.dumps(members, separators=(",", ":"), sort_keys=True).encode("ascii")
    digest = hashlib.sha256(canonical).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


@dataclass(frozen=True)
class ToolKey:
    """One of the tool's keys: its ``kid``, its private key (PEM), when made and retired."""

    kid: str
    private_pem: bytes = field(repr=False)
    created: datetime
    retired: datetime | None = None

    def private_key(self) -> rsa.RSAPrivateKey:
        """The private key, loaded from its PEM."""
        key = serialization.load_pem_private_key(self.private_pem, password=None)
        if not isinstance(key, rsa.RSAPrivateKey):
            raise TypeError(f"key {self.kid} is not an RSA key")
        return key

    def public_jwk(self) -> dict[str, str]:
        """The public half as a JSON Web Key, for the tool's JWKS."""
        numbers = self.private_key().public_key().public_numbers()
        return {
            "kty": "RSA",
            "alg": "RS256",
            "use": "sig",
            "kid": self.kid,
            "n": _b64(numbers.n),
            "e": _b64(numbers.e),
        }

    def sign(self, claims: Mapping[str, Any]) -> str:
        """``claims`` as a JWT signed RS256 with this key, its ``kid`` in the header."""
        return jwt.encode(dict(claims), self.private_key(), "RS256", headers={"kid": self.kid})


def new_key(now: datetime) -> ToolKey:
    """A fresh 2048-bit RSA key made at ``now``."""
    private = rsa.generate_private_key(public_exponent=65537, key_size=KEY_BITS)
    pem = private.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    return ToolKey(thumbprint(private.public_key()), pem, now)


@dataclass(frozen=True)
class KeyRing:
    """The tool's keys, oldest first: the newest one not retired signs."""

    keys: tuple[ToolKey, ...]

    @classmethod
    def start(cls, now: datetime) -> KeyRing:
        """A ring of one new key."""
        return cls((new_key(now),))

    @property
    def current(self) -> ToolKey:
        """The key that signs; ``LookupError`` when every key is retired."""
        for key in reversed(self.keys):
            if key.retired is None:
                return key
        raise LookupError("The tool has no key that signs: rotate to make one.")

    def rotate(self, now: datetime) -> KeyRing:
        """A new signing key; every older key retired at ``now`` but still published."""
        older = tuple(key if key.retired else replace(key, retired=now) for key in self.keys)
        return KeyRing((*older, new_key(now)))

    def remove_retired(self, before: datetime) -> KeyRing:
        """The ring without the keys retired before ``before`` (no longer published)."""
        return KeyRing(tuple(k for k in self.keys if k.retired is None or k.retired >= before))

    def jwks(self) -> dict[str, list[dict[str, str]]]:
        """The tool's JSON Web Key Set (``/lti/jwks``): every key's public half."""
        return {"keys": [key.public_jwk() for key in self.keys]}
