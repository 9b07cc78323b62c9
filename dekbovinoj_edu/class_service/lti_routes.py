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
from datetime import datetime, timezone

import tornado.web

from ..lti.addresses import JWKS_PATH, LAUNCH_PATH, LOGIN_PATH
from ..lti.errors import LtiError
from ..lti.login import LoginRequest, begin_login
from ..lti.pages import refusal_page
from ..lti.store import LtiStore
from .base import ServiceHandler
from .state import Service

__all__ = ["JWKS_SECONDS", "LtiJwksHandler", "LtiLoginHandler", "lti_routes"]

JWKS_SECONDS = 300
"""How long a platform may cache the tool's keys (a rotated key stays published longer)."""


def _lti_store(service: Service) -> LtiStore | None:
    database = getattr(service.store, "database", None)
    return None if database is None else LtiStore(database)


class LtiHandler(ServiceHandler):
    """A handler of the tool: its store, and its refusals as a page."""

    @property
    def lti(self) -> LtiStore:
        store = _lti_store(self.service)
        if store is None:
            raise tornado.web.HTTPError(404)
        return store

    def refuse(self, error: LtiError) -> None:
        """Answer ``error`` as its page, with its status (never a traceback)."""
        self.set_status(error.status)
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.set_header("Cache-Control", "no-store")
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
        launch_url = f"{self.request.protocol}://{self.request.host}{LAUNCH_PATH}"
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


def lti_routes(service: Service) -> list[tuple[str, type[tornado.web.RequestHandler]]]:
    """The tool's routes, when ``service``'s store is a class database (else none)."""
    if _lti_store(service) is None:
        return []
    return [(JWKS_PATH, LtiJwksHandler), (LOGIN_PATH, LtiLoginHandler)]
