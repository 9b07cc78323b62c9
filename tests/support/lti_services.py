"""The LMS's services for the tests, on PyPI's ``lti1p3platform`` (its own token endpoint, its
own Assignment and Grade Services and Names and Role Provisioning handlers, their checks of
the tool's signed proof and of the access token's scopes): :class:`ServicesLms` serves them on
127.0.0.1 beside the platform's keys, keeps the gradebook (every score received, in order) and
the course's roster, and can be made to fail (``down``: every service answers 503;
``members_down``: the roster does) or to grant other scopes than asked (``granted``).
"""

from __future__ import annotations

import json
import threading
import urllib.parse
from dataclasses import dataclass
from typing import Any

from lti1p3platform.lineitem import TLineItem
from lti1p3platform.membership import Context
from lti1p3platform.request import Request
from lti1p3platform.score import TScore, UpdateScoreStatus
from lti1p3platform.service_connector import (
    AssignmentsGradesService,
    NamesRoleProvisioningService,
    TPage,
)

from .lti_platform import LmsUser, PypiPlatform, _AdvantageLaunch, _Request

__all__ = ["Member", "ServicesLms"]

LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"


@dataclass(frozen=True)
class Member:
    """Someone on the course's roster."""

    user_id: str
    name: str
    roles: tuple[str, ...] = (LEARNER,)
    status: str = "Active"
    email: str | None = None


class _Call(Request):
    def build_metadata(self, request: Any) -> Any:
        return request


class _Grades(AssignmentsGradesService):
    lms: ServicesLms

    def find_lineitems(self, page: int = 1, limit: int | None = None, **_: Any) -> TPage:
        return {"content": list(self.lms.lineitems.values()), "has_next": False}

    def find_lineitem(self, line_item_id: str) -> TLineItem:
        return self.lms.lineitems[line_item_id]

    def create_lineitem(self, creation_data: TLineItem) -> TLineItem:
        with self.lms.lock:
            made = f"{self.lms.url}/lineitems/{len(self.lms.lineitems) + 1}"
            item: Any = {**creation_data, "id": made}
            self.lms.lineitems[made] = item
        return item  # type: ignore[no-any-return]

    def update_lineitem(self, update_data: TLineItem) -> TLineItem:
        return update_data

    def delete_lineitem(self, line_item_id: str) -> None:
        self.lms.lineitems.pop(line_item_id, None)

    def update_score(self, line_item_id: str, score: TScore) -> UpdateScoreStatus:
        with self.lms.lock:
            self.lms.scores.append((line_item_id, dict(score)))
        return UpdateScoreStatus.SUCCESS

    def get_results(self, line_item_id: str, page: int = 1, **_: Any) -> TPage:
        return {"content": [], "has_next": False}


class _Roster(NamesRoleProvisioningService):
    lms: ServicesLms

    def get_member_data_page(self, page: int = 1, limit: int | None = None, **_: Any) -> TPage:
        members = [
            {"user_id": m.user_id, "name": m.name, "roles": list(m.roles), "status": m.status,
             **({} if m.email is None else {"email": m.email})}
            for m in self.lms.members
        ]  # fmt: skip
        return {"content": members, "has_next": False}

    def get_context_by_id(self) -> Context:
        return Context(id="course-3b", label="3B", title="Class 3B mathematics")


class ServicesLms(PypiPlatform):
    """``lti1p3platform``'s platform with its services: ``/token``, ``/lineitems`` (and each
    line item's ``/scores``), ``/memberships``."""

    def __init__(self, tool_url: str, **kwargs: Any) -> None:
        super().__init__(tool_url, **kwargs)
        self.lock = threading.Lock()
        self.lineitems: dict[str, Any] = {}
        self.scores: list[tuple[str, dict[str, Any]]] = []
        self.members: list[Member] = []
        self.down = False
        self.members_down = False
        """Whether the roster alone answers 503."""
        self.granted: str | None = None
        """The scopes the token endpoint grants, when not those asked for."""
        self.tokens_asked = 0

    @property
    def lineitems_url(self) -> str:
        return f"{self.url}/lineitems"

    @property
    def members_url(self) -> str:
        return f"{self.url}/memberships"

    def answer(
        self, method: str, path: str, headers: dict[str, str], body: bytes
    ) -> tuple[int, str, bytes]:
        where = urllib.parse.urlsplit(path)
        if where.path == "/jwks":
            return 200, "application/json", self.keys
        if self.down:
            return 503, "text/plain", b"the LMS is down"
        if where.path == "/token" and method == "POST":
            self.tokens_asked += 1
            form = dict(urllib.parse.parse_qsl(body.decode()))
            token: dict[str, Any] = dict(self.config.get_access_token(form))
            if self.granted is not None:
                token["scope"] = self.granted
            return 200, "application/json", json.dumps(token).encode()
        call = {
            "method": method,
            "form_data": {},
            "get_data": dict(urllib.parse.parse_qsl(where.query)),
            "headers": {k.title(): v for k, v in headers.items()},
            "content_type": headers.get("Content-Type"),
            "path": where.path,
            "json": json.loads(body) if body else None,
        }
        if where.path == "/memberships" and self.members_down:
            return 503, "text/plain", b"the roster is down"
        if where.path == "/memberships":
            roster = _Roster(_Call(call), self.config, self.members_url)
            roster.lms = self
            response = roster.handle_resp(roster.handle_get_members)
        elif where.path.startswith("/lineitems"):
            grades = _Grades(_Call(call), self.config, self.lineitems_url)
            grades.lms = self
            item = f"{self.url}{where.path.removesuffix('/scores')}"
            if where.path == "/lineitems":
                handler = (
                    grades.handle_create_lineitem
                    if method == "POST"
                    else grades.handle_get_lineitems
                )
                response = grades.handle_resp(handler)
            else:
                response = grades.handle_resp(grades.handle_update_score, line_item_id=item)
        else:
            return 404, "text/plain", b"no such service"
        sent = b"" if response.result is None else json.dumps(response.result).encode()
        return response.code, response.media_type, sent

    def service_launch(
        self,
        authorization: dict[str, str],
        user: LmsUser,
        course: dict[str, str],
        custom: dict[str, str] | None = None,
    ) -> dict[str, str]:
        """The LMS's launch of ``course``'s link with its services: the course's line items
        (no line item of the link's own: the tool makes it) and its roster."""
        message = _AdvantageLaunch(_Request(authorization), self.config)
        message.set_user_data(user.sub, list(user.roles), full_name=user.name)
        message.set_resource_link_claim(course["link"], title=course.get("link_title"))
        message.set_launch_context_claim(course["id"], context_title=course.get("title"))
        message.set_custom_parameters_claim(custom or {})
        message.set_ags(self.lineitems_url)
        message.set_nrps(self.members_url)
        return dict(message.lti_launch())

    def gradebook(self) -> dict[str, list[dict[str, Any]]]:
        """Every score received, by student (``userId``), in order."""
        found: dict[str, list[dict[str, Any]]] = {}
        with self.lock:
            for _, score in self.scores:
                found.setdefault(str(score["userId"]), []).append(score)
        return found
