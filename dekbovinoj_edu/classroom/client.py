"""The class service seen from a student's app: the desk's methods over the HTTP API.

:class:`ClassClient` asks the class service (``dekbovinoj class serve``) what a
:class:`~dekbovinoj_edu.classroom.store.desk.ClassDesk` answers in the same process: join, the
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
dekbovinoj_edu.classroom.transport.AddressError: The class service's address must start with ...
"""

from __future__ import annotations

import contextlib
import json
import secrets
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..i18n import normalise_lang
from .assignment import Assignment
from .attempts import DONT_KNOW_TYPED, MU_TYPED, Attempt
from .contract import API_ROOT, MAX_ANSWER, MAX_HINTS, MAX_SECONDS, transient
from .errors import ClassroomError, SeatTakenError, UnknownClassError, UnknownSessionError
from .keeping import MAX_PENDING, Keep, KeptSeat, MemoryKeep, Pending, QueueFullError, read_kept
from .seat import Joined, Recorded, Seat, token_hash
from .transport import (
    BROWSER,
    TIMEOUT,
    AddressError,
    HttpReply,
    OfflineError,
    ServiceRefusalError,
    Transport,
    Unreachable,
    UnreadableError,
    default_transport,
    refusal,
    service_address,
)

__all__ = [
    "BROWSER",
    "MAX_PENDING",
    "TIMEOUT",
    "AddressError",
    "ClassClient",
    "Keep",
    "KeptSeat",
    "MemoryKeep",
    "OfflineError",
    "Pending",
    "QueueFullError",
    "ServiceRefusalError",
    "Transport",
    "Unreachable",
    "UnreadableError",
    "new_attempt_id",
    "new_join_id",
    "service_address",
]


def new_attempt_id() -> str:
    """A fresh attempt id: 12 random bytes in hex, what the service keeps a resend apart by.

    >>> len(new_attempt_id()), new_attempt_id() != new_attempt_id()
    (24, True)
    """
    return secrets.token_hex(12)


def new_join_id() -> str:
    """A fresh join id (:data:`~.contract.JOIN_ID`): 24 random bytes, URL-safe; the join's
    token and code are drawn from it, so it is as secret as they are.

    >>> len(new_join_id()), new_join_id() != new_join_id()
    (32, True)
    """
    return secrets.token_urlsafe(24)


# ----------------------------------------------------------------------- the client
class ClassClient:
    """The student API of class ``class_name`` on the service at ``server``.

    ``transport`` sends the requests (:func:`default_transport`); ``keep`` keeps the seat
    and the queue beyond this object (:class:`Keep`); ``lang`` is the language the
    service's sentences come in; ``clock`` gives seconds (for :attr:`HttpReply.retry_after`);
    ``hub_token``: the student's server's token on a JupyterHub, sent to join and to read the
    assignment; ``wall_clock``: seconds since the epoch, for how old the keep's seat is (one
    written down more than :data:`~.keeping.RESUME_SECONDS` ago is not taken up again).
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
        wall_clock: Callable[[], float] = time.time,
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
        self.wall_clock = wall_clock
        """Seconds since the epoch: when the keep's seat was written down, and how long ago."""
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
        self._joining: tuple[str, str, str] | None = None
        """The join sent without an answer yet: its nickname, code and id (sent again, with
        the same nickname and code, under the same id)."""
        self.restore()

    # --------------------------------------------------------------- requests
    def url(self, route: str = "") -> str:
        """The address of ``route`` under this class."""
        name = urllib.parse.quote(self.class_name, safe="")
        return f"{self.server}{API_ROOT}/classes/{name}" + (f"/{route}" if route else "")

    def _send(
        self, method: str, route: str, token: str | None = None, body: dict[str, Any] | None = None
    ) -> HttpReply:
        headers = {"Accept": "application/json", "Accept-Language": self.lang}
        data = None
        if body is not None:
            data = json.dumps(body, ensure_ascii=False).encode("utf-8")
            headers["Content-Type"] = "application/json; charset=utf-8"
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        elif route in ("join", "") and self.hub_token:  # joining, and the assignment
            headers["Authorization"] = f"token {self.hub_token}"
        address = self.url(route) + "?" + urllib.parse.urlencode({"lang": self.lang})
        return self.transport(method, address, data, headers, self.timeout)

    def _answer(self, response: HttpReply) -> dict[str, Any]:
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
        if transient(response.status):
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
        limit = data.get("limit", 0.0)
        if type(limit) not in (int, float) or not 0 <= limit <= MAX_SECONDS:  # NaN too
            limit = 0.0
        now = time.time()
        return Seat(
            self.class_name,
            nickname,
            token_hash(token),
            puzzle,
            now,
            hints,
            now,
            "",
            code,
            float(limit),
        )

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
                int(data["best"] if data["best"] is not None else 0),  # hidden: a test's
                int(data.get("hints", 0)),
                float(data.get("seconds", 0.0)),
                str(data.get("time", "")),
            )
        except (KeyError, TypeError, ValueError) as wrong:
            raise self._unreadable(200) from wrong

    # ------------------------------------------------------ the desk's methods
    def join(self, nickname: str, rejoin_code: str | None = None) -> Joined:
        """Take a seat with ``nickname``, or take one up again with its ``rejoin_code``.

        Each join goes with an id (:func:`new_join_id`); a join that got no answer (the
        network dropped it, the service did not answer) is sent again under the same id when
        the student asks again with the same nickname and code: the service then gives the
        seat it made, with the same token and code, and the nickname is never taken by a
        seat whose code nobody has.

        Attempts still waiting for the seat this client held (or its keep remembers) are
        sent first with that seat's token; those its token can no longer send go with the
        new one when the seat is the same, and are dropped (into :attr:`refused`) when the
        student joined with another nickname.
        """
        owner = self._owner
        if self._queue and owner is not None and owner.token:
            with contextlib.suppress(SeatTakenError, UnknownSessionError):
                self.flush(owner.token)  # else taken up elsewhere: sent with the new token
        asked = rejoin_code or ""
        joining = self._joining
        if joining is None or joining[:2] != (nickname, asked):
            joining = self._joining = (nickname, asked, new_join_id())
        body: dict[str, Any] = {"nickname": nickname, "join_id": joining[2]}
        if rejoin_code:
            body["rejoin_code"] = rejoin_code
        data = self._call("POST", "join", body=body)
        self._joining = None
        token, code = data.get("token"), data.get("rejoin_code")
        if not isinstance(token, str) or not isinstance(code, str):
            raise self._unreadable(200)
        seat = self._seat(data.get("seat"), token)
        if self._queue and (owner is None or owner.nickname != seat.nickname):
            for entry in self._queue:  # another student's: never sent under this seat
                self.refused[entry.id] = refusal("seat-taken", "")
            self._queue = []
        lms = owner is not None and owner.lms and owner.nickname == seat.nickname
        self._owner = KeptSeat(seat.nickname, code, token, lms=lms)
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
        body = {} if hints is None else {"hints": max(0, min(hints, MAX_HINTS))}
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
        dont_know: bool = False,
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
                MU_TYPED if mu else DONT_KNOW_TYPED if dont_know else answer[:MAX_ANSWER],
                joker,
                mu,
                max(0, min(hints, MAX_HINTS)),
                round(max(0.0, min(seconds, MAX_SECONDS)), 1),
                dont_know and not mu,
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
            if transient(response.status):
                if response.retry_after is not None:
                    self._quiet_until = self.clock() + min(response.retry_after, 60.0)
                break
            try:
                data = self._answer(response)
            except (SeatTakenError, UnknownSessionError, UnknownClassError):
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

    @property
    def from_lms(self) -> bool:
        """Whether the seat held or remembered here is one the school's LMS gave
        (:attr:`~.keeping.KeptSeat.lms`)."""
        return self._owner is not None and self._owner.lms

    def restore(self) -> None:
        """Read the keep again (the page's storage arrives after the app starts): the seat it
        remembers and its waiting attempts. Nothing changes once this client has joined."""
        if self.keep is None or self._joined:
            return
        seat, pending = read_kept(self.keep.load())
        if seat is None:
            return
        known = self.pending_ids()
        self._queue = [entry for entry in pending if entry.id not in known] + self._queue
        if seat.fresh(self.wall_clock()):
            self._owner = seat
            self._resumable = True
            return
        # Written down long ago: the computer may have another student now. The code goes
        # (nobody resumes or reads it here); the token stays only while attempts wait for it.
        self._owner = replace(seat, rejoin_code="", token=seat.token if self._queue else "")
        self._resumable = False
        self._save()

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
            data.update(
                nickname=seat.nickname,
                rejoin_code=seat.rejoin_code,
                token=seat.token,
                saved=self.wall_clock(),
            )
            if seat.lms:
                data["lms"] = True
        self.keep.save(data)
