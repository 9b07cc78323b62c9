"""A platform registration: what the tool knows of one LMS, given by its administrator.

A platform (an LMS: Canvas, Moodle…) is named by its ``issuer``; it gives this tool a
``client_id`` (one issuer may give several) and one or more deployment ids (one per place the
tool is installed), and names its endpoints: where the login goes (``auth_url``), where the tool
asks for a service token (``token_url``, for the grade and roster services) and where its public
keys are (``jwks_url``). Every endpoint is https; plain http only to this machine
(``127.0.0.1``, ``localhost``, ``[::1]``), which tests use.

>>> moodle = Registration(
...     issuer="https://moodle.example.org",
...     client_id="Zx3q",
...     deployment_ids=("1",),
...     auth_url="https://moodle.example.org/mod/lti/auth.php",
...     token_url="https://moodle.example.org/mod/lti/token.php",
...     jwks_url="https://moodle.example.org/mod/lti/certs.php",
... )
>>> moodle.has_deployment("1"), moodle.has_deployment("2")
(True, False)
>>> Registration("https://lms.example", "c", ("1",), "http://lms.example/auth",
...              "https://lms.example/token", "https://lms.example/jwks")
Traceback (most recent call last):
...
dekbovinoj_edu.lti.errors.LtiError: auth_url must be https: 'http://lms.example/auth'
>>> Registration("lms.example", "c", ("1",), "https://lms.example/auth",
...              "https://lms.example/token", "https://lms.example/jwks")
Traceback (most recent call last):
...
dekbovinoj_edu.lti.errors.LtiError: issuer must be https: 'lms.example'
>>> check_url("http://127.0.0.1:8765/jwks", "jwks_url")
'http://127.0.0.1:8765/jwks'
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from .errors import LtiError

__all__ = ["LOCAL_HOSTS", "Registration", "check_url"]

LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
"""The hosts a plain-http endpoint may name: this machine only (the tests' platforms)."""


def check_url(url: str, name: str) -> str:
    """``url`` if https, or http to this machine; else :class:`LtiError` ``insecure-url``."""
    parts = urlsplit(url)
    secure = parts.scheme == "https" and bool(parts.hostname)
    local = parts.scheme == "http" and parts.hostname in LOCAL_HOSTS
    if not (secure or local):
        raise LtiError("insecure-url", f"{name} must be https: {url!r}")
    return url


@dataclass(frozen=True)
class Registration:
    """One platform as this tool knows it (manual or dynamic registration)."""

    issuer: str
    """The platform's ``iss``: an https URL (LTI 1.3's Security Framework), compared exactly."""
    client_id: str
    """The id the platform gave this tool: the launch's ``aud``."""
    deployment_ids: tuple[str, ...]
    """The deployments of the tool on that platform a launch may name."""
    auth_url: str
    """The platform's OIDC authorisation endpoint, where the login redirects."""
    token_url: str
    """The platform's OAuth 2 token endpoint (the grade and roster services' tokens)."""
    jwks_url: str
    """The platform's public keys (a JSON Web Key Set), which sign its launches."""

    def __post_init__(self) -> None:
        if not self.issuer or not self.client_id:
            raise LtiError("incomplete-registration", "A registration needs an issuer, a client.")
        if not self.deployment_ids:
            raise LtiError("incomplete-registration", "A registration needs a deployment id.")
        for name in ("issuer", "auth_url", "token_url", "jwks_url"):
            check_url(getattr(self, name), name)

    def has_deployment(self, deployment_id: str) -> bool:
        """Whether a launch naming ``deployment_id`` comes from a deployment registered here."""
        return deployment_id in self.deployment_ids
