"""The LTI 1.3 tool's routes in the class service: ``/lti/jwks`` (the tool's public keys) and
``/lti/login`` (OIDC third-party-initiated login, GET and POST). The protocol itself is
:mod:`dekbovinoj_edu.lti`; these handlers only read the request, call it off the event loop
and answer: JSON for the keys, a redirect for a login, and for a refusal the page of
:func:`~dekbovinoj_edu.lti.pages.refusal_page` (one sentence in the reader's language and
the stable code) with the refusal's status.

The routes exist when the store is a class database (:class:`~dekbovinoj_edu.lti.store.LtiStore`
needs its tables).
"""

from __future__ import annotations

import json
import urllib.parse
from datetime import datetime, timezone
from typing import Any

import tornado.web

from ..lti.addresses import JWKS_PATH, LAUNCH_PATH, LOGIN_PATH
from ..lti.errors import LtiError
from ..lti.login import LoginRequest, begin_login
from ..lti.pages import refusal_page
from ..lti.store import LtiStore
from .base import ServiceHandler
from .state import Service

__all__ = [
    "JWKS_SECONDS",
    "LtiHandler",
    "LtiJwksHandler",
    "LtiLoginHandler",
    "framing_origin",
    "lti_routes",
    "lti_store_of",
]

JWKS_SECONDS = 300
"""How long a platform may cache the tool's keys (a rotated key stays published longer)."""


def framing_origin(origin: str | None) -> str:
    """Who may frame the launch's page: the origin that posted the launch (the LMS's page),
    when it is an ``https`` origin (or a ``localhost``/``127.0.0.1`` one, as tests use); else
    any ``https`` page (the page holds nothing a frame could misuse: its ticket opens a tab of
    the person's own).

    >>> framing_origin("https://school.instructure.com"), framing_origin("null")
    ('https://school.instructure.com', 'https:')
    >>> framing_origin("http://127.0.0.1:8000"), framing_origin("http://evil.example")
    ('http://127.0.0.1:8000', 'https:')
    """
    if not origin:
        return "https:"
    parts = urllib.parse.urlsplit(origin)
    plain_local = parts.scheme == "http" and parts.hostname in ("localhost", "127.0.0.1")
    if (parts.scheme == "https" or plain_local) and parts.netloc and not parts.path:
        return f"{parts.scheme}://{parts.netloc}"
    return "https:"


def lti_store_of(service: Service) -> LtiStore | None:
    """The LTI tool's tables of ``service``'s class database (``None``: no class database)."""
    database = getattr(service.store, "database", None)
    return None if database is None else LtiStore(database)


class LtiHandler(ServiceHandler):
    """A handler of the tool: its store, and its refusals as a page."""

    @property
    def lti(self) -> LtiStore:
        store = lti_store_of(self.service)
        if store is None:
            raise tornado.web.HTTPError(404)
        return store

    @property
    def tool_url(self) -> str:
        """The service's address as the LMS reaches it: ``--public-url``, else the one this
        request came to."""
        return self.service.public_url or f"{self.request.protocol}://{self.request.host}"

    def refuse(self, error: LtiError) -> None:
        """Answer ``error`` as its page, with its status (never a traceback); the LMS's page
        may frame it (:func:`framing_origin`): it says one sentence and holds nothing."""
        self.set_status(error.status)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
        ancestors = framing_origin(self.request.headers.get("Origin"))
        self.set_header(
            "Content-Security-Policy",
            f"default-src 'none'; style-src 'unsafe-inline'; frame-ancestors {ancestors}",
        )
        self.clear_header("X-Frame-Options")
        self.finish(refusal_page(self.lang, error))


class LtiJwksHandler(LtiHandler):
    """``GET /lti/jwks``: the tool's public keys (its JWKS), the first key made if none."""

    async def get(self) -> None:
        ring = await self.blocking(self.lti.key_ring, datetime.now(timezone.utc))
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", f"public, max-age={JWKS_SECONDS}")
        self.finish(json.dumps(ring.jwks()))


class LtiLoginHandler(LtiHandler):
    """``GET`` or ``POST /lti/login``: the platform's login, answered by a redirect to its
    authorisation endpoint (the pending login kept in the class database)."""

    async def get(self) -> None:
        await self._login({k: self.get_query_argument(k) for k in self.request.query_arguments})

    async def post(self) -> None:
        fields = {k: self.get_body_argument(k) for k in self.request.body_arguments}
        await self._login(fields)

    async def _login(self, fields: dict[str, str]) -> None:
        launch_url = self.tool_url + LAUNCH_PATH
        lti = self.lti
        try:
            request = LoginRequest.parse(fields)
            registrations = await self.blocking(lti.registrations)
            pending, url = begin_login(request, registrations, launch_url, now=self.service.clock())
        except LtiError as error:
            self.refuse(error)
            return
        await self.blocking(lti.put, pending)
        self.set_header("Cache-Control", "no-store")
        self.redirect(url)


def lti_routes(service: Service) -> list[tuple[Any, ...]]:
    """The tool's routes, when ``service``'s store is a class database (else none): the keys,
    the login, and the launch with its buttons (:mod:`.lti_launch`)."""
    if lti_store_of(service) is None:
        return []
    from ..lti.platform_keys import PlatformKeys
    from .lti_admin import admin_routes
    from .lti_launch import launch_routes
    from .lti_roster import Rosters

    launch = launch_routes(PlatformKeys(), Rosters())
    return [
        (JWKS_PATH, LtiJwksHandler),
        (LOGIN_PATH, LtiLoginHandler),
        *launch,
        *admin_routes(),
    ]
