"""The handlers' common ground: JSON answers and refusals, the security headers, CORS, the
reader's language, and the store's calls (short ones now, long ones in the thread pool).

Every refusal is JSON with a stable code (:mod:`.errors`), whatever raised it: the desk,
the store, the body's checks, tornado itself (an unknown method, a malformed request).
A storage failure is a ``503 store`` and one line in the terminal per kind
(:mod:`.problems`); a refusal is not logged (it is the service working); the request log
never shows an address (the teacher's carry the secret).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

import sqlalchemy.exc
import tornado.web

from ..classroom.errors import ClassroomError, StoreError
from ..i18n import normalise_lang, preferred_language
from .errors import (
    BadRequestError,
    ForbiddenError,
    MethodNotAllowedError,
    NotFoundError,
    RateLimitedError,
    Refusal,
    TooLargeError,
    body,
    describe,
)
from .problems import LOG
from .validation import MAX_BODY

if TYPE_CHECKING:
    from .state import Service

__all__ = [
    "API_HEADERS",
    "PAGE_CSP",
    "ApiHandler",
    "ServiceHandler",
    "client_language",
    "store_failure",
]

T = TypeVar("T")

PAGE_CSP = (
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
    "connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
"""The service's own pages: nothing from any other address, no frames around them."""

API_HEADERS: dict[str, str] = {
    "Cache-Control": "no-store",
    "Content-Security-Policy": "default-src 'none'; frame-ancestors 'none'",
}
"""What every API answer carries besides :meth:`ServiceHandler.set_default_headers`."""

CORS_METHODS = "GET, POST, OPTIONS"
CORS_HEADERS = "Authorization, Content-Type"
CORS_MAX_AGE = "600"


def client_language(query: str | None, accept: str | None, default: str = "en") -> str:
    """The reader's language: ``?lang=`` if it names one, else the browser's
    ``Accept-Language`` (highest weight first), else ``default``.

    >>> client_language(None, "de-DE,sv;q=0.8,ja;q=0.9")
    'ja'
    >>> client_language("eo", "sv"), client_language("xx", None)
    ('eo', 'en')
    """
    if query:
        try:
            return normalise_lang(query)
        except ValueError:
            pass
    weighted = []
    for position, part in enumerate((accept or "").split(",")[:20]):
        tag, _, parameters = part.strip().partition(";")
        weight = 1.0
        if parameters.strip().startswith("q="):
            try:
                weight = float(parameters.strip()[2:])
            except ValueError:
                weight = 0.0
        if tag:
            weighted.append((-weight, position, tag))
    return preferred_language([tag for _, _, tag in sorted(weighted)], default)


def store_failure(error: BaseException) -> StoreError | None:
    """The storage failure ``error`` is, if it is one (the store's own, or a database or disk
    error that escaped it), as a :class:`~dekbovinoj_edu.classroom.errors.StoreError`."""
    if isinstance(error, StoreError):
        return error
    if isinstance(error, (sqlalchemy.exc.SQLAlchemyError, sqlite3.Error, OSError)):
        return StoreError("The class database cannot be used now: {problem}", problem=error)
    return None


def _http_refusal(error: tornado.web.HTTPError) -> ClassroomError:
    if error.status_code == 404:
        return NotFoundError("There is nothing at this address.")
    if error.status_code == 405:
        return MethodNotAllowedError("This address does not take this method.")
    if error.status_code == 413:
        return TooLargeError("A request body has at most {most} bytes.", most=MAX_BODY)
    if error.status_code == 403:
        return ForbiddenError("This is not allowed.")
    return BadRequestError("The request cannot be read.")


class ServiceHandler(tornado.web.RequestHandler):
    """Every handler of the service: the security headers, the language, the quiet log."""

    @property
    def service(self) -> Service:
        """What the handlers share (the class, the store, the limits…)."""
        service: Service = self.application.settings["service"]
        return service

    def set_default_headers(self) -> None:
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("X-Content-Type-Options", "nosniff")
        self.set_header("X-Frame-Options", "DENY")
        self.clear_header("Server")

    @property
    def lang(self) -> str:
        """The reader's language (:func:`client_language`), else the service's."""
        return client_language(
            self.get_query_argument("lang", None),
            self.request.headers.get("Accept-Language"),
            self.service.lang,
        )

    async def blocking(self, work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``work(*args, **kwargs)``, a short store call (:meth:`~.state.Service.call`)."""
        return await self.service.call(work, *args, **kwargs)

    async def aside(self, work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``work(*args, **kwargs)`` in the thread pool, a long one
        (:meth:`~.state.Service.call_aside`)."""
        return await self.service.call_aside(work, *args, **kwargs)

    # ------------------------------------------------------- refusals
    def refusal(self, error: BaseException) -> Refusal:
        """What the API answers for ``error`` (a 500 only for a fault of the service)."""
        if isinstance(error, tornado.web.HTTPError):
            error = _http_refusal(error)
        failure = store_failure(error)
        if failure is not None:
            error = failure
        if isinstance(error, ClassroomError):
            return describe(error, self.lang)
        return Refusal(500, "internal", "The class service failed; the failure is logged.")

    def log_exception(
        self,
        typ: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if value is None or isinstance(value, tornado.web.HTTPError):
            return
        failure = store_failure(value)
        if failure is not None:
            self.service.problems.saw(failure)
        elif not isinstance(value, ClassroomError):
            LOG.error(
                "class service: %s %s failed", self.request.method, type(self).__name__,
                exc_info=value,
            )  # fmt: skip

    def write_error(self, status_code: int, **kwargs: Any) -> None:
        info = kwargs.get("exc_info")
        error = info[1] if info else tornado.web.HTTPError(status_code)
        self.send_refusal(self.refusal(error), error)

    def send_refusal(self, refusal: Refusal, error: BaseException | None = None) -> None:
        """Answer with ``refusal`` as this kind of handler answers (JSON here)."""
        self.set_status(refusal.status)
        if isinstance(error, RateLimitedError):
            self.set_header("Retry-After", str(error.retry_after))
        if refusal.status == 401:
            self.set_header("WWW-Authenticate", 'Bearer realm="class"')
        if isinstance(error, TooLargeError):
            self.set_header("Connection", "close")  # the rest of the body is not read
        if refusal.code == "method-not-allowed":
            self.set_header("Allow", ", ".join(self.allowed_methods()))
        for key, value in API_HEADERS.items():
            self.set_header(key, value)
        self.set_header("Content-Type", "application/json; charset=utf-8")
        self.finish(json.dumps(body(refusal), ensure_ascii=False))

    def allowed_methods(self) -> list[str]:
        """The methods this handler answers."""
        base = tornado.web.RequestHandler
        return [
            method
            for method in ("GET", "POST")
            if getattr(type(self), method.lower()) is not getattr(base, method.lower())
        ]


@tornado.web.stream_request_body
class ApiHandler(ServiceHandler):
    """A handler of the student API: JSON, ``no-store``, CORS for the origins allowed, a
    body read up to :data:`~.validation.MAX_BODY` bytes, the per-address rate limit."""

    def set_default_headers(self) -> None:
        super().set_default_headers()
        for key, value in API_HEADERS.items():
            self.set_header(key, value)
        self.set_header("Content-Type", "application/json; charset=utf-8")
        origin = self.request.headers.get("Origin")
        if origin is not None and self.service.allows(origin):
            self.set_header("Access-Control-Allow-Origin", origin)
            self.set_header("Vary", "Origin")

    def _same_origin(self, origin: str) -> bool:
        return origin == f"{self.request.protocol}://{self.request.host}"

    def prepare(self) -> None:
        # Only what must be said before the body is read; every other refusal comes after
        # it (:meth:`admit`), so the connection stays open for the page's next request.
        self._body = bytearray()
        self._too_large = False
        declared = self.request.headers.get("Content-Length", "0")
        if not declared.isdigit() or int(declared) > MAX_BODY:
            self._too_large = True
            raise TooLargeError("A request body has at most {most} bytes.", most=MAX_BODY)

    def admit(self) -> None:
        """Refuse a page of an origin not allowed, and an address over its rate."""
        origin = self.request.headers.get("Origin")
        if origin is not None and not (self._same_origin(origin) or self.service.allows(origin)):
            raise ForbiddenError(
                "Pages from {origin} may not use this class service.", origin=origin[:100]
            )
        if self.request.method != "OPTIONS":
            self.service.limit("requests", self.request.remote_ip or "")

    def data_received(self, chunk: bytes) -> None:
        if self._too_large:
            return
        if len(self._body) + len(chunk) > MAX_BODY:
            self._too_large = True
            self._body.clear()
            return
        self._body.extend(chunk)

    def request_body(self) -> bytes:
        """The body as it came (at most :data:`~.validation.MAX_BODY` bytes).

        A body needs ``Content-Type: application/json``; an empty one needs none.
        """
        if self._too_large:
            raise TooLargeError("A request body has at most {most} bytes.", most=MAX_BODY)
        data = bytes(self._body)
        kind = self.request.headers.get("Content-Type", "")
        if data.strip() and kind.split(";")[0].strip().lower() != "application/json":
            raise BadRequestError("Send the request body as JSON (Content-Type: application/json).")
        return data

    def options(self, *args: str, **kwargs: str) -> None:
        """A browser's preflight: which methods and headers an allowed origin may use."""
        self.admit()
        self.set_status(204)
        self.set_header("Allow", ", ".join([*self.allowed_methods(), "OPTIONS"]))
        if self.request.headers.get("Origin") is not None:
            self.set_header("Access-Control-Allow-Methods", CORS_METHODS)
            self.set_header("Access-Control-Allow-Headers", CORS_HEADERS)
            self.set_header("Access-Control-Max-Age", CORS_MAX_AGE)
        self.clear_header("Content-Type")
        self.finish()

    def answer(self, status: int, document: dict[str, Any] | None) -> None:
        """Send ``document`` as JSON with ``status`` (``None``: no body, e.g. 204)."""
        self.set_status(status)
        if document is None:
            self.clear_header("Content-Type")
            self.finish()
        else:
            self.finish(json.dumps(document, ensure_ascii=False))


class OtherHostHandler(ServiceHandler):
    """Any request for a name other than this computer's, to a service that listens on this
    computer only: a page elsewhere whose name was made to point here (DNS rebinding) gets a
    403 (:func:`~.app.make_app` routes only this computer's names to the service)."""

    def prepare(self) -> None:
        raise ForbiddenError("This class service answers only at the address it printed.")
