"""Reaching the class service: one request through a :data:`Transport` (the standard library
in CPython, a synchronous ``XMLHttpRequest`` in the browser's Python), its checked address, and
what can go wrong on the way (the service silent, an address that is not one, an answer that is
not the API's, a refusal class mode has no error class for).

>>> service_address("http://127.0.0.1:8867/")
'http://127.0.0.1:8867'
"""

from __future__ import annotations

import http.client
import ipaddress
import math
import sys
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from email.message import Message
from typing import Any, Protocol

from . import errors
from .errors import ClassroomError

__all__ = [
    "BROWSER",
    "TIMEOUT",
    "AddressError",
    "HttpReply",
    "OfflineError",
    "ServiceRefusalError",
    "Transport",
    "Unreachable",
    "UnreadableError",
    "browser_transport",
    "default_transport",
    "refusal",
    "service_address",
    "urllib_transport",
]

TIMEOUT = 8.0
"""Seconds a request may take before the service counts as unreachable for now."""

MAX_PENDING = 500
"""The most attempts that may wait to be sent (an offline student is stopped there)."""

BROWSER = sys.platform == "emscripten"
"""Whether this Python runs in the browser (Pyodide)."""


# ---------------------------------------------------------------------------- errors
class OfflineError(ClassroomError):
    """The class service does not answer now (stopped, restarting, the network gone)."""

    code = "offline"


class ServiceRefusalError(ClassroomError):
    """A refusal of the service with a code class mode has no error class for (``invalid``,
    ``rate-limited``…): :attr:`code` is the service's."""

    code = "service"


class AddressError(ServiceRefusalError):
    """An address for the class service that is not one (another scheme, a password in it…)."""

    code = "address"


class UnreadableError(ServiceRefusalError):
    """An answer that is not the API's (a web server without the class service, a proxy)."""

    code = "unreadable"


def _error_classes() -> dict[str, type[ClassroomError]]:
    """Every error class of :mod:`.errors`, by its code (``seat-taken`` → SeatTakenError)."""
    found: dict[str, type[ClassroomError]] = {}
    for name in errors.__all__:
        value = getattr(errors, name)
        if isinstance(value, type) and issubclass(value, ClassroomError):
            found[value.code] = value
    return found


ERRORS = _error_classes()


def refusal(code: str, sentence: str) -> ClassroomError:
    """The error the service's refusal ``code`` stands for, saying ``sentence``.

    >>> error = refusal("seat-taken", "Another page took your place.")
    >>> type(error).__name__, error.code, error.message("sv")
    ('SeatTakenError', 'seat-taken', 'Another page took your place.')
    >>> refusal("rate-limited", "Slow down.").code
    'rate-limited'
    """
    chosen = ERRORS.get(code, ServiceRefusalError)
    error = chosen.__new__(chosen)
    ClassroomError.__init__(error, "{sentence}", sentence=sentence)
    if chosen is ServiceRefusalError:
        error.code = code
    return error


# ------------------------------------------------------------------------- transports
@dataclass(frozen=True)
class HttpReply:
    """What the service answered: the status, the body, and how long to wait if it asks."""

    status: int
    body: bytes = b""
    retry_after: float | None = None


class Unreachable(Exception):
    """A request that got no answer (refused, dropped, timed out)."""


class Transport(Protocol):
    """Send one request and return the answer; :class:`Unreachable` if there is none."""

    def __call__(
        self, method: str, url: str, body: bytes | None, headers: Mapping[str, str], timeout: float
    ) -> HttpReply: ...


def _retry_after(text: str | None) -> float | None:
    """``Retry-After`` in seconds, if it is a number.

    >>> _retry_after("3"), _retry_after("soon"), _retry_after(None)
    (3.0, None, None)
    """
    try:
        seconds = float(text) if text else None
    except ValueError:
        return None
    return seconds if seconds is not None and math.isfinite(seconds) and seconds >= 0 else None


def _loopback(host: str) -> bool:
    """Whether ``host`` is this computer.

    >>> _loopback("127.0.0.1"), _loopback("localhost"), _loopback("::1"), _loopback("10.0.0.2")
    (True, True, True, False)
    """
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    """A redirect is an answer (never followed: the token would go along)."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _opener(url: str) -> urllib.request.OpenerDirector:
    host = urllib.parse.urlsplit(url).hostname or ""
    handlers: list[urllib.request.BaseHandler] = [_NoRedirect()]
    if _loopback(host):
        handlers.append(urllib.request.ProxyHandler({}))  # this computer: never a proxy
    return urllib.request.build_opener(*handlers)


def urllib_transport(
    method: str, url: str, body: bytes | None, headers: Mapping[str, str], timeout: float
) -> HttpReply:
    """One request with the standard library (proxies from the environment, none for this
    computer; redirects are not followed)."""
    request = urllib.request.Request(url, data=body, method=method, headers=dict(headers))
    try:
        with _opener(url).open(request, timeout=timeout) as answer:
            return HttpReply(
                answer.status, answer.read(), _retry_after(answer.headers["Retry-After"])
            )
    except urllib.error.HTTPError as refused:
        with refused:
            data = refused.read()
        found: Message | None = refused.headers
        return HttpReply(refused.code, data, _retry_after(found["Retry-After"] if found else None))
    except (OSError, http.client.HTTPException) as lost:
        raise Unreachable(str(lost) or type(lost).__name__) from lost


def browser_transport(  # pragma: no cover (the browser's Python only)
    method: str, url: str, body: bytes | None, headers: Mapping[str, str], timeout: float
) -> HttpReply:
    """One request from the browser's Python: a synchronous ``XMLHttpRequest`` (allowed in
    the web worker the kernel runs in), with a timeout."""
    import js  # type: ignore[import-not-found]
    from pyodide.ffi import JsException  # type: ignore[import-not-found]

    request = js.XMLHttpRequest.new()
    try:
        request.open(method, url, False)
        request.timeout = int(timeout * 1000)
        for name, value in headers.items():
            request.setRequestHeader(name, value)
        request.send(None if body is None else body.decode("utf-8"))
    except JsException as lost:
        raise Unreachable(str(lost)) from lost
    status = int(request.status)
    if status == 0:
        raise Unreachable(f"no answer from {url}")
    text = str(request.responseText or "")
    return HttpReply(
        status, text.encode("utf-8"), _retry_after(request.getResponseHeader("Retry-After"))
    )


def default_transport() -> Transport:
    """The transport of this Python: the browser's in Pyodide, else the standard library's."""
    return browser_transport if BROWSER else urllib_transport


def service_address(text: str) -> str:
    """The class service's address, checked: ``http`` or ``https``, a host, no query, no
    password; without the final ``/``.

    >>> service_address("http://127.0.0.1:8867/")
    'http://127.0.0.1:8867'
    >>> service_address("https://school.example/dekbovinoj")
    'https://school.example/dekbovinoj'
    >>> service_address("http://me:secret@school.example")
    Traceback (most recent call last):
    ...
    dekbovinoj_edu.classroom.transport.AddressError: The class service's address cannot hold a ...
    """
    try:
        parts = urllib.parse.urlsplit(text.strip())
        host = parts.hostname
        parts.port  # noqa: B018 (a port that is not a number raises here)
    except ValueError:
        host, parts = None, urllib.parse.urlsplit("")
    if parts.scheme not in ("http", "https"):
        raise AddressError("The class service's address must start with http:// or https://.")
    if not host:
        raise AddressError("The class service's address has no computer name in it.")
    if parts.username is not None or parts.password is not None:
        raise AddressError("The class service's address cannot hold a name or a password.")
    if parts.query or parts.fragment:
        raise AddressError("The class service's address cannot hold a ? or a #.")
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/"), "", ""))
