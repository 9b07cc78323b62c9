"""The student API, ``/api/v1/…``: join a class, read the assignment and one's own place,
record an attempt, say the page is alive or gone (``openapi.json`` describes each route).

Each handler checks, in this order: the class (``404 unknown-class``), the session token of
``Authorization: Bearer …`` (``401 unauthorized``; a token opens only its own seat in its
own class), the session's rate (``429``), the body (``400``/``413``/``422``); then it asks
the class's desk (:meth:`~.state.Service.call`: a short store call, on the event loop
unless the service was told to use its pool), and answers with the shapes of :mod:`.shapes`.
An attempt sent again under the same id is answered ``200`` with the row kept the first
time, and nothing is written; a join sent again under the same ``join_id`` is answered
``200`` with the same seat, token and code. A new seat counts against its address's rate of
new seats (``seat``), only when it is made. Under a JupyterHub
(:attr:`~.state.Service.hub`), joining needs the student's hub token instead of a rejoin
code, and gives them their own seat only.
"""

from __future__ import annotations

from importlib import resources
from typing import Any

from ..classroom.contract import API_ROOT, TOKEN
from ..classroom.seat import Joined
from ..classroom.store.desk import ClassDesk
from .base import ApiHandler
from .errors import ForbiddenError, NotFoundError, NoTokenError
from .shapes import assignment_json, attempt_json, joined_json, recorded_json, seat_json
from .validation import ALIVE, ATTEMPT, HUB_JOIN, JOIN, read_body

__all__ = [
    "API_ROOT",
    "TOKEN",
    "AliveHandler",
    "ApiNotFoundHandler",
    "AttemptsHandler",
    "ClassHandler",
    "GoneHandler",
    "JoinHandler",
    "MeHandler",
    "OpenApiHandler",
    "openapi_text",
]


def openapi_text() -> str:
    """The API's description, ``openapi.json``, as the package ships it."""
    return resources.files(__package__).joinpath("openapi.json").read_text("utf-8")


class ClassApiHandler(ApiHandler):
    """A route of one class (``/api/v1/classes/{class}/…``)."""

    def class_desk(self, name: str) -> ClassDesk:
        """The desk of the class in the address (``404 unknown-class`` for another), once
        the request is admitted (:meth:`~.base.ApiHandler.admit`)."""
        self.admit()
        return self.service.desk_for(name)

    def token(self, kind: str) -> str:
        """The request's session token (``401`` without one), counted as one ``kind``."""
        scheme, _, token = self.request.headers.get("Authorization", "").partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not TOKEN.fullmatch(token):
            raise NoTokenError("This needs the session token of a page that joined the class.")
        self.service.limit(kind, token)
        return token


class ClassHandler(ClassApiHandler):
    """``GET /api/v1/classes/{class}``: the assignment (no token needed; under a hub, a hub
    user's token: only who signed in to the school's hub reads it)."""

    async def get(self, name: str) -> None:
        if self.service.hub is not None:
            user = await self.service.hub.student(self.request.headers.get("Authorization", ""))
            self.service.limit("read", f"hub-user:{user}")
        desk = self.class_desk(name)
        self.answer(200, assignment_json(desk.assignment))


class JoinHandler(ClassApiHandler):
    """``POST …/join``: a seat for a nickname (201), or one's own again with its code (200)."""

    async def post(self, name: str) -> None:
        desk = self.class_desk(name)
        if self.service.hub is None:  # under a hub: per user, once the hub has said who
            self.service.limit("join", self.request.remote_ip or "")
        fields = read_body(self.request_body(), JOIN if self.service.hub is None else HUB_JOIN)
        if self.service.hub is not None:
            joined = await self._join_as_hub_user(desk, fields["nickname"])
        else:
            address = self.request.remote_ip or ""
            joined = await self.blocking(
                desk.join,
                fields["nickname"],
                fields.get("rejoin_code") or None,
                join_id=fields.get("join_id"),
                on_new_seat=lambda: self.service.limit("seat", address),
            )
        self.answer(200 if joined.resumed else 201, joined_json(joined, desk.count))

    async def _join_as_hub_user(self, desk: ClassDesk, nickname: str) -> Joined:
        """Under a hub: the seat of the user whose server's token the request carries
        (:meth:`~.hub_identity.HubIdentity.student_of`), by their hub name, without a code; a
        class's roster reads their hub groups."""
        assert self.service.hub is not None
        student = await self.service.hub.student_of(self.request.headers.get("Authorization", ""))
        user = student.name
        if nickname != user:
            raise ForbiddenError("You can join only as yourself, {name}.", name=user)
        # One school address may be every student (a TLJH server's kernels all call from it).
        self.service.limit("join", f"hub-user:{user}")
        return await self.blocking(desk.join_vouched, user, student.groups)


class MeHandler(ClassApiHandler):
    """``GET …/me``: the student's place and every attempt of theirs."""

    async def get(self, name: str) -> None:
        desk = self.class_desk(name)
        token = self.token("read")

        def mine() -> dict[str, Any]:
            seat = desk.place(token)
            attempts = desk.mine(token)
            return {
                "seat": seat_json(seat, desk.count),
                "attempts": [
                    attempt_json(attempt, test=desk.assignment.test) for attempt in attempts
                ],
            }

        self.answer(200, await self.blocking(mine))


class AttemptsHandler(ClassApiHandler):
    """``POST …/attempts``: one attempt, judged and kept (201), or a resend (200)."""

    async def post(self, name: str) -> None:
        desk = self.class_desk(name)
        token = self.token("attempt")
        fields = read_body(self.request_body(), ATTEMPT)
        recorded = await self.blocking(
            desk.attempt,
            token,
            fields["id"],
            fields["puzzle"],
            fields["answer"],
            joker=fields.get("joker", False),
            mu=fields.get("mu", False),
            hints=fields.get("hints", 0),
            seconds=fields.get("seconds", 0.0),
            dont_know=fields.get("dont_know", False),
        )
        self.answer(
            201 if recorded.new else 200,
            recorded_json(recorded, desk.count, test=desk.assignment.test),
        )


class AliveHandler(ClassApiHandler):
    """``POST …/alive``: the page is still open (and has used ``hints`` on its puzzle)."""

    async def post(self, name: str) -> None:
        desk = self.class_desk(name)
        token = self.token("alive")
        fields = read_body(self.request_body(), ALIVE)
        seat = await self.blocking(desk.alive, token, fields.get("hints"))
        self.answer(200, {"seat": seat_json(seat, desk.count)})


class GoneHandler(ClassApiHandler):
    """``POST …/gone``: the page was closed (204)."""

    async def post(self, name: str) -> None:
        desk = self.class_desk(name)
        token = self.token("read")
        read_body(self.request_body(), ())
        await self.blocking(desk.gone, token)
        self.answer(204, None)


class OpenApiHandler(ApiHandler):
    """``GET /api/v1/openapi.json``: the API's description."""

    async def get(self) -> None:
        self.admit()
        self.finish(openapi_text())


class ApiNotFoundHandler(ApiHandler):
    """Any other address under ``/api/``: ``404 not-found``, as JSON, whatever the method."""

    def _not_found(self, *args: str, **kwargs: str) -> None:
        self.admit()
        raise NotFoundError("There is nothing at this address.")

    get = post = put = patch = delete = head = options = _not_found
