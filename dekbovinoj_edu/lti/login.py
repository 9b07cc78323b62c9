"""OIDC third-party-initiated login: the platform's first request, answered by a redirect.

The platform sends ``iss``, ``login_hint`` and ``target_link_uri`` (and may send
``lti_message_hint``, ``client_id``, ``lti_deployment_id``) by GET or POST to ``/lti/login``;
the tool answers with a redirect to the platform's authorisation endpoint carrying a fresh
``state`` and ``nonce`` (``response_mode=form_post``, ``scope=openid``, ``prompt=none``), the
hints passed back unaltered. The :class:`PendingLogin` is kept (server-side, so a launch in
an iframe without third-party cookies still finds it) until the launch takes it.

>>> from .registration import Registration
>>> lms = Registration("https://lms.example", "tool-1", ("d1",), "https://lms.example/auth",
...                    "https://lms.example/token", "https://lms.example/jwks")
>>> request = LoginRequest.parse({"iss": "https://lms.example", "login_hint": "42",
...     "target_link_uri": "https://tool.example/lti/launch", "lti_message_hint": "a b+c"})
>>> pending, url = begin_login(request, [lms], "https://tool.example/lti/launch", now=100.0)
>>> pending.client_id, pending.expires
('tool-1', 700.0)
>>> print(url.replace("&", "\\n&"))  # doctest: +ELLIPSIS
https://lms.example/auth?scope=openid
&response_type=id_token
&response_mode=form_post
&prompt=none
&client_id=tool-1
&redirect_uri=https%3A%2F%2Ftool.example%2Flti%2Flaunch
&login_hint=42
&state=...
&nonce=...
&lti_message_hint=a+b%2Bc
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from urllib.parse import urlencode

from .errors import LtiError
from .registration import Registration

__all__ = ["LOGIN_SECONDS", "LoginRequest", "PendingLogin", "begin_login", "find_registration"]

LOGIN_SECONDS = 600.0
"""How long a login waits for its launch."""


@dataclass(frozen=True)
class LoginRequest:
    """The platform's login request, as it sent it."""

    issuer: str
    login_hint: str
    target_link_uri: str
    lti_message_hint: str | None = None
    client_id: str | None = None
    deployment_id: str | None = None

    @classmethod
    def parse(cls, fields: Mapping[str, str]) -> LoginRequest:
        """The request from its query or form fields; ``login-missing-field`` if one is missing."""
        for name in ("iss", "login_hint", "target_link_uri"):
            if not fields.get(name):
                raise LtiError("login-missing-field", f"The login has no {name}.")
        return cls(
            issuer=fields["iss"],
            login_hint=fields["login_hint"],
            target_link_uri=fields["target_link_uri"],
            lti_message_hint=fields.get("lti_message_hint") or None,
            client_id=fields.get("client_id") or None,
            deployment_id=fields.get("lti_deployment_id") or None,
        )


@dataclass(frozen=True)
class PendingLogin:
    """A login the tool began: the launch that ends it must bring its state and nonce."""

    state: str
    nonce: str
    issuer: str
    client_id: str
    expires: float


def find_registration(
    registrations: Iterable[Registration], issuer: str, client_id: str | None
) -> Registration:
    """The one registration of ``issuer`` (with ``client_id`` when given)."""
    found = [
        r
        for r in registrations
        if r.issuer == issuer and (client_id is None or r.client_id == client_id)
    ]
    if len(found) != 1:
        raise LtiError(
            "login-unknown-platform",
            f"{len(found)} registrations for {issuer!r} (client id {client_id!r}).",
        )
    return found[0]


def begin_login(
    request: LoginRequest,
    registrations: Iterable[Registration],
    redirect_uri: str,
    *,
    now: float,
) -> tuple[PendingLogin, str]:
    """The pending login to keep and the URL to redirect the browser to."""
    registration = find_registration(registrations, request.issuer, request.client_id)
    if request.deployment_id is not None and not registration.has_deployment(request.deployment_id):
        raise LtiError("login-unknown-platform", f"Unknown deployment {request.deployment_id!r}.")
    pending = PendingLogin(
        state=secrets.token_urlsafe(32),
        nonce=secrets.token_urlsafe(32),
        issuer=registration.issuer,
        client_id=registration.client_id,
        expires=now + LOGIN_SECONDS,
    )
    query = {
        "scope": "openid",
        "response_type": "id_token",
        "response_mode": "form_post",
        "prompt": "none",
        "client_id": registration.client_id,
        "redirect_uri": redirect_uri,
        "login_hint": request.login_hint,
        "state": pending.state,
        "nonce": pending.nonce,
    }
    if request.lti_message_hint is not None:
        query["lti_message_hint"] = request.lti_message_hint
    separator = "&" if "?" in registration.auth_url else "?"
    return pending, registration.auth_url + separator + urlencode(query)
