"""A hostile LTI 1.3 platform for the tool's launch (``tests/test_lti_forged.py``): RSA keys of
its own (one published, one not), its JWKS served on 127.0.0.1, and id_tokens built with any
defect: any claim changed or left out, any header, any algorithm, any key.

Its launches are shaped as Canvas documents its own (``Canvas LTI 1.3 launch``: the long role
URIs, a context with label and title, a resource link with title, ``azp`` beside ``aud``).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jwt
from cryptography.hazmat.primitives import serialization

from dekbovinoj_edu.lti import Registration, ToolKey
from dekbovinoj_edu.lti import claims as c
from dekbovinoj_edu.lti.keys import new_key

__all__ = [
    "CLIENT_ID",
    "DEPLOYMENT",
    "INSTRUCTOR",
    "LEARNER",
    "OTHER_CLIENT_ID",
    "HostilePlatform",
    "hostile_platform",
    "raw_jwt",
]

CLIENT_ID = "10000000000042"
OTHER_CLIENT_ID = "10000000000043"
DEPLOYMENT = "42:8865aa05b4b79b64a91a86042e43af5ea8ae79eb"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
_NOW = datetime(2026, 12, 7, 8, 0, tzinfo=timezone.utc)


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def raw_jwt(header: Mapping[str, Any], claims: Mapping[str, Any], signer: Any = None) -> str:
    """A JWT built by hand: ``signer(signing_input) -> signature bytes`` (none: no signature)."""
    head = _b64(json.dumps(dict(header)).encode())
    body = _b64(json.dumps(dict(claims)).encode())
    signing_input = f"{head}.{body}".encode("ascii")
    signature = signer(signing_input) if signer is not None else b""
    return f"{head}.{body}.{_b64(signature)}"


class HostilePlatform:
    """An LMS on 127.0.0.1 (its JWKS at ``/jwks``) that signs whatever a test asks."""

    def __init__(self) -> None:
        self.key: ToolKey = new_key(_NOW)
        self.unpublished: ToolKey = new_key(_NOW)
        self.published: list[ToolKey] = [self.key]
        self.fetches = 0
        platform = self

        class Jwks(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                platform.fetches += 1
                body = json.dumps({"keys": [k.public_jwk() for k in platform.published]})
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(body.encode())

            def log_message(self, *args: Any) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Jwks)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.issuer = f"{self.url}/canvas"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def registration(self, client_id: str = CLIENT_ID) -> Registration:
        """The tool's registration of this platform (for ``client_id``)."""
        return Registration(
            issuer=self.issuer,
            client_id=client_id,
            deployment_ids=(DEPLOYMENT,),
            auth_url=f"{self.url}/api/lti/authorize_redirect",
            token_url=f"{self.url}/login/oauth2/token",
            jwks_url=f"{self.url}/jwks",
        )

    def claims(
        self, nonce: str, now: float, *, roles: tuple[str, ...] = (LEARNER,)
    ) -> dict[str, Any]:
        """A genuine resource link launch's claims, as Canvas sends them."""
        return {
            "iss": self.issuer,
            "aud": CLIENT_ID,
            "azp": CLIENT_ID,
            "sub": "535fa085f22b4655f48cd5a36a9215f64c062838",
            "exp": int(now) + 300,
            "iat": int(now),
            "nonce": nonce,
            "name": "Astrid Lindqvist",
            "given_name": "Astrid",
            "family_name": "Lindqvist",
            "locale": "sv",
            c.MESSAGE_TYPE: c.RESOURCE_LINK_REQUEST,
            c.VERSION: "1.3.0",
            c.DEPLOYMENT_ID: DEPLOYMENT,
            c.TARGET_LINK_URI: "https://class.example.org/lti/launch",
            c.RESOURCE_LINK: {"id": "9c6a3d8f-1f4e-4b7b-a5a1-6d0f1f0c2b11", "title": "Ten cows"},
            c.ROLES: list(roles),
            c.CONTEXT: {"id": "4dde05e8ca1973bcca9bffc13e1548820eee93a3", "label": "3B",
                        "title": "Class 3B mathematics"},
            c.CUSTOM: {},
            "https://purl.imsglobal.org/spec/lti/claim/tool_platform": {
                "guid": "4tFsCGPTqzyQ5Xf2VAdkHfmTpe55GLbmkHVUBQbi:canvas-lms",
                "product_family_code": "canvas",
                "version": "cloud",
            },
            c.AGS_ENDPOINT: {
                "scope": ["https://purl.imsglobal.org/spec/lti-ags/scope/score"],
                "lineitems": f"{self.url}/api/lti/courses/1/line_items",
            },
        }  # fmt: skip

    def sign(
        self,
        claims: Mapping[str, Any],
        *,
        key: ToolKey | None = None,
        algorithm: str = "RS256",
        kid: str | None = "",
    ) -> str:
        """``claims`` signed with ``key`` (the published one by default), ``kid`` in the header
        (``""``: the key's own; ``None``: no ``kid``)."""
        key = key or self.key
        headers = {} if kid is None else {"kid": kid or key.kid}
        return jwt.encode(dict(claims), key.private_key(), algorithm, headers=headers)

    def public_pem(self) -> bytes:
        """The published key's public half as PEM: the secret of an HS256 forgery."""
        return (
            self.key.private_key()
            .public_key()
            .public_bytes(
                serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
            )
        )

    def hs256_with_public_key(self, claims: Mapping[str, Any]) -> str:
        """The algorithm-confusion forgery: HS256 keyed by the platform's public key."""
        secret = self.public_pem()
        header = {"alg": "HS256", "typ": "JWT", "kid": self.key.kid}
        return raw_jwt(header, claims, lambda data: hmac.new(secret, data, hashlib.sha256).digest())

    def rotate(self) -> ToolKey:
        """A new key published beside the old one (the platform's rotation)."""
        fresh = new_key(_NOW)
        self.published.append(fresh)
        return fresh

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@contextmanager
def hostile_platform() -> Iterator[HostilePlatform]:
    """A :class:`HostilePlatform` serving until the block ends."""
    platform = HostilePlatform()
    try:
        yield platform
    finally:
        platform.close()
