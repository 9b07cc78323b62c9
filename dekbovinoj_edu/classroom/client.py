"""The class service seen from a student's app: the desk's methods over the HTTP API.

:class:`ClassClient` asks the class service (``dekbovinoj class serve``) what a
:class:`~dekbovinoj_edu.classroom.desk.ClassDesk` answers in the same process: join, the
student's place, a sign of life, an attempt, their attempts. A refusal of the service is
the same :class:`~dekbovinoj_edu.classroom.errors.ClassroomError` subclass as the desk's
(chosen by the error's code), with the service's sentence.

An attempt is never lost to the network: it gets an id, waits in an ordered queue, and is
sent (oldest first) until the service acknowledges it, on this attempt, the next one, the
next sign of life or :meth:`ClassClient.flush`. A service that is restarting, a dropped
network, a timeout or a busy service (502, 503, 504, 429) only delay it; since the id goes
with it, a resend of an attempt the service already kept is the same row, never a second
one. With a ``keep`` (:class:`Keep`), the queue and the seat's token and rejoin code
survive the page too (the page's local storage:
:class:`~dekbovinoj_edu.classroom.views.keeper.PageKeeper`).

Requests go through a :data:`Transport`: :func:`urllib_transport` in CPython, and in the
browser's Python (Pyodide, in a web worker) :func:`browser_transport`, a synchronous
``XMLHttpRequest``. Nothing here opens a database: the browser runs this module.

>>> client = ClassClient("http://127.0.0.1:9", "4a")
>>> client.url("join")
'http://127.0.0.1:9/api/v1/classes/4a/join'
>>> ClassClient("file:///etc/passwd", "4a")
Traceback (most recent call last):
...
dekbovinoj_edu.classroom.client.AddressError: The class service's address must start with ...
>>> Pending.read({"id": "a1b2c3d4e5", "puzzle": 1, "answer": "3+7"})
Pending(id='a1b2c3d4e5', puzzle=1, answer='3+7', joker=False, mu=False, hints=0, seconds=0.0)
>>> Pending.read({"id": "no", "puzzle": 1, "answer": "3+7"}) is None  # not an id
True
"""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import json
import math
import re
import secrets
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, replace
from email.message import Message
from typing import Any, Protocol

from ..i18n import normalise_lang
from ..rules.limits import MAX_CHARS
from . import errors
from .assignment import Assignment
from .attempts import MU_TYPED, Attempt
from .errors import ClassroomError, SeatTakenError, UnknownSessionError
from .nicknames import check_nickname
from .seat import REJOIN_ALPHABET, Joined, Recorded, Seat, normalise_rejoin_code, token_hash

__all__ = [
    "API",
    "BROWSER",
    "CLASS_ENV",
    "MAX_PENDING",
    "SERVER_ENV",
    "TIMEOUT",
    "AddressError",
    "ClassClient",
    "Keep",
    "KeptSeat",
    "MemoryKeep",
    "OfflineError",
    "Pending",
    "QueueFullError",
    "Response",
    "ServiceError",
    "Transport",
    "Unreachable",
    "UnreadableError",
    "browser_transport",
    "new_attempt_id",
    "service_address",
    "urllib_transport",
]

CLASS_ENV = "DEKBOVINOJ_CLASS"
"""The environment variable that names the class for the app in a kernel (``serve --class``)."""

SERVER_ENV = "DEKBOVINOJ_CLASS_SERVER"
"""The environment variable that names the class service for the app in a kernel."""

API = "/api/v1"
"""The API's route prefix on the service."""

TIMEOUT = 8.0
"""Seconds a request may take before the service counts as unreachable for now."""

MAX_PENDING = 500
"""The most attempts that may wait to be sent (an offline student is stopped there)."""

BROWSER = sys.platform == "emscripten"
"""Whether this Python runs in the browser (Pyodide)."""


def _transient(status: int) -> bool:
    """Whether an answer with ``status`` means "not now": the service (or a proxy before it)
    is busy, restarting or failing, so a request is sent again later.

    >>> [_transient(status) for status in (429, 502, 503, 409, 422)]
    [True, True, True, False, False]
    """
    return status == 429 or status >= 500


_ID = re.compile(r"[A-Za-z0-9_-]{8,64}")
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,128}")
_CODE = re.compile(f"[{REJOIN_ALPHABET}]{{4}}-[{REJOIN_ALPHABET}]{{4}}")
_MAX_HINTS = 20
_MAX_SECONDS = 86_400.0


def new_attempt_id() -> str:
    """A fresh attempt id: 12 random bytes in hex, what the service keeps a resend apart by.

    >>> len(new_attempt_id()), new_attempt_id() != new_attempt_id()
    (24, True)
    """
    return secrets.token_hex(12)


# ---------------------------------------------------------------------------- errors
class OfflineError(ClassroomError):
    """The class service does not answer now (stopped, restarting, the network gone)."""

    code = "offline"


class QueueFullError(ClassroomError):
    """So many attempts wait to be sent (:data:`MAX_PENDING`) that no more are taken."""

    code = "queue-full"


class ServiceError(ClassroomError):
    """A refusal of the service with a code class mode has no error class for (``invalid``,
    ``rate-limited``…): :attr:`code` is the service's."""

    code = "service"


class AddressError(ServiceError):
    """An address for the class service that is not one (another scheme, a password in it…)."""

    code = "address"


class UnreadableError(ServiceError):
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
    chosen = ERRORS.get(code, ServiceError)
    error = chosen.__new__(chosen)
    ClassroomError.__init__(error, "{sentence}", sentence=sentence)
    if chosen is ServiceError:
        error.code = code
    return error


# ------------------------------------------------------------------------- transports
@dataclass(frozen=True)
class Response:
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
    ) -> Response: ...


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
) -> Response:
    """One request with the standard library (proxies from the environment, none for this
    computer; redirects are not followed)."""
    request = urllib.request.Request(url, data=body, method=method, headers=dict(headers))
    try:
        with _opener(url).open(request, timeout=timeout) as answer:
            return Response(
                answer.status, answer.read(), _retry_after(answer.headers["Retry-After"])
            )
    except urllib.error.HTTPError as refused:
        with refused:
            data = refused.read()
        found: Message | None = refused.headers
        return Response(refused.code, data, _retry_after(found["Retry-After"] if found else None))
    except (OSError, http.client.HTTPException) as lost:
        raise Unreachable(str(lost) or type(lost).__name__) from lost


def browser_transport(  # pragma: no cover (the browser's Python only)
    method: str, url: str, body: bytes | None, headers: Mapping[str, str], timeout: float
) -> Response:
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
    return Response(
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
    dekbovinoj_edu.classroom.client.AddressError: The class service's address cannot hold a ...
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


# ------------------------------------------------------------------------ the queue
@dataclass(frozen=True)
class Pending:
    """An attempt not yet acknowledged: the request body the service is sent (again)."""

    id: str
    puzzle: int
    answer: str
    joker: bool = False
    mu: bool = False
    hints: int = 0
    seconds: float = 0.0

    def body(self) -> dict[str, Any]:
        """The request's JSON object."""
        return asdict(self)

    @classmethod
    def read(cls, data: object) -> Pending | None:
        """A pending attempt from untrusted data (the browser's storage), or ``None`` if any
        field is not what the API takes.

        >>> Pending.read({"id": "x" * 10, "puzzle": 0, "answer": ""}) is None  # no puzzle 0
        True
        >>> Pending.read({"id": "x" * 10, "puzzle": 2, "answer": "", "hints": 3}).hints
        3
        """
        if not isinstance(data, dict) or set(data) - {f for f in cls.__dataclass_fields__}:
            return None
        ident, puzzle, answer = data.get("id"), data.get("puzzle"), data.get("answer")
        joker, mu = data.get("joker", False), data.get("mu", False)
        hints, seconds = data.get("hints", 0), data.get("seconds", 0.0)
        if not (isinstance(ident, str) and _ID.fullmatch(ident)):
            return None
        if type(puzzle) is not int or not 1 <= puzzle <= 10_000:
            return None
        if not isinstance(answer, str) or len(answer) > MAX_CHARS:
            return None
        if type(joker) is not bool or type(mu) is not bool:
            return None
        if type(hints) is not int or not 0 <= hints <= _MAX_HINTS:
            return None
        if type(seconds) not in (int, float) or not 0 <= seconds <= _MAX_SECONDS:
            return None
        return cls(ident, puzzle, answer, joker, mu, hints, float(seconds))


@dataclass(frozen=True)
class KeptSeat:
    """A seat this app held before (a reload): enough to take it up again at once."""

    nickname: str
    rejoin_code: str
    token: str = ""


class Keep(Protocol):
    """Where a client keeps what must outlive it: a JSON-able dict (the seat's nickname,
    token and rejoin code, the attempts not yet sent). ``load`` returns ``None`` if nothing
    is kept (or what is kept cannot be read)."""

    def load(self) -> dict[str, Any] | None: ...

    def save(self, data: dict[str, Any]) -> None: ...


class MemoryKeep:
    """A :class:`Keep` in memory: what a client keeps outlives the client, for as long as
    this object lives (a notebook's kernel; a test of a reload).

    >>> keep = MemoryKeep()
    >>> keep.save({"nickname": "Ana"}); keep.load()
    {'nickname': 'Ana'}
    """

    def __init__(self) -> None:
        self.data: dict[str, Any] | None = None

    def load(self) -> dict[str, Any] | None:
        return None if self.data is None else json.loads(json.dumps(self.data))

    def save(self, data: dict[str, Any]) -> None:
        self.data = json.loads(json.dumps(data))


def _read_kept(data: object) -> tuple[KeptSeat | None, list[Pending]]:
    """What a :class:`Keep` gave back, checked field by field (it comes from the browser).

    >>> seat, pending = _read_kept({"nickname": "Ana", "rejoin_code": "k7qm2xhd",
    ...     "token": "t" * 32, "pending": [{"id": "a" * 24, "puzzle": 1, "answer": "3+7"}, 5]})
    >>> seat.rejoin_code, [p.answer for p in pending]
    ('K7QM-2XHD', ['3+7'])
    >>> _read_kept({"nickname": "", "rejoin_code": "K7QM-2XHD"})
    (None, [])
    >>> _read_kept({"nickname": "Ana", "rejoin_code": "K7QM-2XH0"})  # no 0 in a code
    (None, [])
    """
    if not isinstance(data, dict):
        return None, []
    seat = None
    nickname, code, token = data.get("nickname"), data.get("rejoin_code"), data.get("token", "")
    if isinstance(nickname, str) and isinstance(code, str) and isinstance(token, str):
        try:
            chosen = check_nickname(nickname)
        except ClassroomError:
            chosen = ""
        shown = normalise_rejoin_code(code[:20]) if code else ""
        good_code = shown == "" or _CODE.fullmatch(shown) is not None
        good_token = token == "" or _TOKEN.fullmatch(token) is not None
        if chosen and good_code and good_token:
            seat = KeptSeat(chosen, shown, token)
    pending: list[Pending] = []
    seen: set[str] = set()
    found = data.get("pending", [])
    if seat is not None and isinstance(found, list):
        for item in found[:MAX_PENDING]:
            entry = Pending.read(item)
            if entry is not None and entry.id not in seen:
                seen.add(entry.id)
                pending.append(entry)
    return seat, pending


# ----------------------------------------------------------------------- the client
class ClassClient:
    """The student API of class ``class_name`` on the service at ``server``.

    ``transport`` sends the requests (:func:`default_transport`); ``keep`` keeps the seat
    and the queue beyond this object (:class:`Keep`); ``lang`` is the language the
    service's sentences come in; ``clock`` gives seconds (for :attr:`Response.retry_after`);
    ``hub_token``: the student's server's token on a JupyterHub, sent to join.
    """

    def __init__(
        self,
        server: str,
        class_name: str,
        *,
        transport: Transport | None = None,
        keep: Keep | None = None,
        lang: str = "en",
        clock: Callable[[], float] = time.monotonic,
        timeout: float = TIMEOUT,
        hub_token: str | None = None,
    ) -> None:
        self.server = service_address(server)
        self.hub_token = hub_token
        """Under a JupyterHub: the token of the student's own server, which joining sends
        (the service asks the hub whose it is; the seat is that user's)."""
        self.class_name = class_name
        self.transport = transport if transport is not None else default_transport()
        self.keep = keep
        self.lang = normalise_lang(lang)
        self.clock = clock
        self.timeout = timeout
        self._assignment: Assignment | None = None
        self._queue: list[Pending] = []
        self.refused: dict[str, ClassroomError] = {}
        """Attempts the service refused for good (a puzzle no longer open, say), by id: they
        left the queue."""
        self._owner: KeptSeat | None = None
        """The seat the queue belongs to: the one this client joined, or its keep remembers."""
        self._joined = False
        self._resumable = False
        self._quiet_until = 0.0
        self.restore()

    # --------------------------------------------------------------- requests
    def url(self, route: str = "") -> str:
        """The address of ``route`` under this class."""
        name = urllib.parse.quote(self.class_name, safe="")
        return f"{self.server}{API}/classes/{name}" + (f"/{route}" if route else "")

    def _send(
        self, method: str, route: str, token: str | None = None, body: dict[str, Any] | None = None
    ) -> Response:
        headers = {"Accept": "application/json", "Accept-Language": self.lang}
        data = None
        if body is not None:
            data = json.dumps(body, ensure_ascii=False).encode("utf-8")
            headers["Content-Type"] = "application/json; charset=utf-8"
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        elif route == "join" and self.hub_token:
            headers["Authorization"] = f"token {self.hub_token}"
        address = self.url(route) + "?" + urllib.parse.urlencode({"lang": self.lang})
        return self.transport(method, address, data, headers, self.timeout)

    def _answer(self, response: Response) -> dict[str, Any]:
        """The JSON object of a good answer; the service's refusal raised as its error."""
        data: object = None
        if response.body:
            try:
                data = json.loads(response.body.decode("utf-8"))
            except (UnicodeDecodeError, ValueError, RecursionError):
                data = None
        if 200 <= response.status < 300:
            if response.status == 204:
                return {}
            if isinstance(data, dict):
                return data
            raise self._unreadable(response.status)
        problem = data.get("error") if isinstance(data, dict) else None
        if isinstance(problem, dict) and isinstance(problem.get("code"), str):
            sentence = problem.get("message")
            code = str(problem["code"])[:64]
            raise refusal(code, sentence[:500] if isinstance(sentence, str) else code)
        if _transient(response.status):
            raise self._offline()
        raise self._unreadable(response.status)

    def _call(
        self, method: str, route: str, token: str | None = None, body: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        try:
            response = self._send(method, route, token, body)
        except Unreachable as lost:
            raise self._offline() from lost
        return self._answer(response)

    @staticmethod
    def _offline() -> OfflineError:
        return OfflineError(
            "The class computer is not answering. Your answers wait here and are sent when "
            "it is back."
        )

    @staticmethod
    def _unreadable(status: int) -> UnreadableError:
        return UnreadableError(
            "The class service gave an answer this app cannot read (HTTP {status}).",
            status=status,
        )

    # ----------------------------------------------------------- what it says
    @property
    def assignment(self) -> Assignment:
        """The class's assignment (asked once)."""
        if self._assignment is None:
            data = self._call("GET", "")
            try:
                codes = tuple(str(code) for code in data["codes"])
                level = data.get("level")
                count = data.get("count")
                target = data.get("target")
                self._assignment = Assignment(
                    str(data["name"]),
                    codes,
                    str(data["mode"]),
                    level=None if level is None else str(level),
                    count=count if type(count) is int else None,
                    at_level=data.get("at_level") is True,
                    target=float(target) if isinstance(target, int | float) else None,
                )
            except (KeyError, TypeError, ValueError) as wrong:
                raise self._unreadable(200) from wrong
        return self._assignment

    def _seat(self, data: object, token: str) -> Seat:
        if not isinstance(data, dict):
            raise self._unreadable(200)
        nickname, puzzle, hints = data.get("nickname"), data.get("puzzle"), data.get("hints", 0)
        code = data.get("code") or ""
        if not isinstance(nickname, str) or type(puzzle) is not int or type(hints) is not int:
            raise self._unreadable(200)
        if not isinstance(code, str):
            raise self._unreadable(200)
        now = time.time()
        return Seat(self.class_name, nickname, token_hash(token), puzzle, now, hints, now, "", code)

    def _attempt(self, data: object, nickname: str) -> Attempt:
        if not isinstance(data, dict):
            raise self._unreadable(200)
        try:
            puzzle = int(data["puzzle"])
            code = data.get("code")
            return Attempt(
                self.class_name,
                nickname,
                puzzle,
                str(code) if isinstance(code, str) else self.assignment.code(puzzle),
                str(data["answer"]),
                str(data["verdict"]),
                int(data["cards"]),
                int(data["best"]),
                int(data.get("hints", 0)),
                float(data.get("seconds", 0.0)),
                str(data.get("time", "")),
            )
        except (KeyError, TypeError, ValueError) as wrong:
            raise self._unreadable(200) from wrong

    # ------------------------------------------------------ the desk's methods
    def join(self, nickname: str, rejoin_code: str | None = None) -> Joined:
        """Take a seat with ``nickname``, or take one up again with its ``rejoin_code``.

        Attempts still waiting for the seat this client held (or its keep remembers) are
        sent first with that seat's token; those its token can no longer send go with the
        new one when the seat is the same, and are dropped (into :attr:`refused`) when the
        student joined with another nickname.
        """
        owner = self._owner
        if self._queue and owner is not None and owner.token:
            with contextlib.suppress(SeatTakenError, UnknownSessionError):
                self.flush(owner.token)  # else taken up elsewhere: sent with the new token
        body: dict[str, Any] = {"nickname": nickname}
        if rejoin_code:
            body["rejoin_code"] = rejoin_code
        data = self._call("POST", "join", body=body)
        token, code = data.get("token"), data.get("rejoin_code")
        if not isinstance(token, str) or not isinstance(code, str):
            raise self._unreadable(200)
        seat = self._seat(data.get("seat"), token)
        if self._queue and (owner is None or owner.nickname != seat.nickname):
            for entry in self._queue:  # another student's: never sent under this seat
                self.refused[entry.id] = refusal("seat-taken", "")
            self._queue = []
        self._owner = KeptSeat(seat.nickname, code, token)
        self._joined = True
        self._resumable = False
        self._save()
        for recorded in self._flush_quietly(token):
            seat = recorded.seat
        return Joined(seat, token, code, bool(data.get("resumed")))

    def place(self, token: str) -> Seat:
        """Where the student of ``token`` is (``SeatTakenError`` if the seat went elsewhere)."""
        return self._seat(self._call("GET", "me", token).get("seat"), token)

    def alive(self, token: str, hints: int | None = None) -> Seat:
        """The page is still open: waiting attempts are sent, then the sign of life."""
        self.flush(token)
        body = {} if hints is None else {"hints": max(0, min(hints, _MAX_HINTS))}
        return self._seat(self._call("POST", "alive", token, body).get("seat"), token)

    def gone(self, token: str) -> None:
        """The page is being closed, or its student leaves it: what waits is sent first."""
        self.flush(token)
        self._call("POST", "gone", token)

    def mine(self, token: str) -> list[Attempt]:
        """Every attempt the service kept for this student, oldest first (after sending those
        still waiting)."""
        self.flush(token)
        data = self._call("GET", "me", token)
        seat = self._seat(data.get("seat"), token)
        found = data.get("attempts", [])
        if not isinstance(found, list):
            raise self._unreadable(200)
        return [self._attempt(item, seat.nickname) for item in found]

    def attempt(
        self,
        token: str,
        attempt_id: str,
        puzzle: int,
        answer: str,
        *,
        joker: bool = False,
        mu: bool = False,
        hints: int = 0,
        seconds: float = 0.0,
    ) -> Recorded | None:
        """Send one attempt (after those waiting before it): the service's row and the seat
        after it, or ``None`` if it waits in the queue for the service to be back.

        A refusal of this attempt (a puzzle not open, a seat taken) is raised; it leaves the
        queue unless it is the seat's (``SeatTakenError``, ``UnknownSessionError``: it is
        sent once the seat is taken up again).
        """
        if attempt_id not in self.pending_ids():
            if len(self._queue) >= MAX_PENDING:
                raise QueueFullError(
                    "Too many answers are waiting to be sent. Wait until the class computer "
                    "answers again."
                )
            entry = Pending(
                attempt_id,
                puzzle,
                MU_TYPED if mu else answer[:MAX_CHARS],
                joker,
                mu,
                max(0, min(hints, _MAX_HINTS)),
                round(max(0.0, min(seconds, _MAX_SECONDS)), 1),
            )
            self._queue.append(entry)
            self._save()
        for recorded in self.flush(token):
            if recorded.attempt_id == attempt_id:
                return recorded
        if attempt_id in self.refused:
            raise self.refused[attempt_id]
        return None

    # ---------------------------------------------------------------- the queue
    @property
    def pending(self) -> tuple[Pending, ...]:
        """The attempts not yet acknowledged, oldest first."""
        return tuple(self._queue)

    def pending_ids(self) -> frozenset[str]:
        """The ids of :attr:`pending`."""
        return frozenset(entry.id for entry in self._queue)

    def flush(self, token: str) -> list[Recorded]:
        """Send the waiting attempts, oldest first, until one gets no answer; returns those
        the service acknowledged. ``SeatTakenError`` / ``UnknownSessionError`` (the queue is
        kept for the seat's next token) and ``UnknownClassError`` are raised; another refusal
        takes that attempt out of the queue, into :attr:`refused`."""
        acknowledged: list[Recorded] = []
        if self.clock() < self._quiet_until:
            return acknowledged
        while self._queue:
            entry = self._queue[0]
            try:
                response = self._send("POST", "attempts", token, entry.body())
            except Unreachable:
                break
            if _transient(response.status):
                if response.retry_after is not None:
                    self._quiet_until = self.clock() + min(response.retry_after, 60.0)
                break
            try:
                data = self._answer(response)
            except (SeatTakenError, UnknownSessionError, errors.UnknownClassError):
                raise
            except ClassroomError as refused:
                self.refused[entry.id] = refused
                self._queue.pop(0)
                self._save()
                continue
            seat = self._seat(data.get("seat"), token)
            row = self._attempt(data.get("attempt"), seat.nickname)
            acknowledged.append(Recorded(row, entry.id, seat, response.status == 201))
            self._queue.pop(0)
            self._save()
        return acknowledged

    def _flush_quietly(self, token: str) -> list[Recorded]:
        try:
            return self.flush(token)
        except ClassroomError:
            return []

    # ------------------------------------------------------------ what is kept
    @property
    def kept(self) -> KeptSeat | None:
        """The seat the keep remembered (from before a reload), to take up again at once:
        until this client joins, or the seat is lost or forgotten."""
        owner = self._owner
        if self._joined or not self._resumable or owner is None or not owner.rejoin_code:
            return None
        return owner

    @property
    def remembered(self) -> KeptSeat | None:
        """The seat last held here (its nickname and code, to fill in the join screen), while
        this client holds none and still knows its code."""
        owner = self._owner
        return None if self._joined or owner is None or not owner.rejoin_code else owner

    def restore(self) -> None:
        """Read the keep again (the page's storage arrives after the app starts): the seat it
        remembers and its waiting attempts. Nothing changes once this client has joined."""
        if self.keep is None or self._joined:
            return
        seat, pending = _read_kept(self.keep.load())
        if seat is None:
            return
        self._owner = seat
        self._resumable = True
        known = self.pending_ids()
        self._queue = [entry for entry in pending if entry.id not in known] + self._queue

    def forget_seat(self) -> None:
        """This page no longer holds its seat (another page took it up): its token is dead;
        the nickname and code stay, to fill in the join screen, never to take it back
        without the student asking."""
        if self._owner is not None:
            self._owner = replace(self._owner, token="")
        self._joined = False
        self._resumable = False
        self._save()

    def forget_kept(self) -> None:
        """Forget the seat's code here (it no longer opens the seat, or its student left the
        page to another one): the seat is not taken up again, nor filled in. Whose the
        waiting attempts are, and the token they may go with, stay."""
        if self._owner is not None:
            self._owner = replace(self._owner, rejoin_code="")
        self._joined = False
        self._resumable = False
        self._save()

    def _save(self) -> None:
        if self.keep is None:
            return
        seat = self._owner
        data: dict[str, Any] = {"pending": [entry.body() for entry in self._queue]}
        if seat is not None:
            data.update(nickname=seat.nickname, rejoin_code=seat.rejoin_code, token=seat.token)
        self.keep.save(data)
