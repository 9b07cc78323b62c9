"""The hub's identities without a hub: who teaches (groups, a scope, ``teachers-<class>``),
the seat a hub user is vouched into (on SQLite and PostgreSQL), and the student API under a
hub, with a stand-in for JupyterHub's ``HubOAuth`` that knows two tokens. The real hub is
tests/test_hub_service.py.
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from dekbovinoj_edu.class_service.hub_identity import HubIdentity, Teachers
from dekbovinoj_edu.class_service.hub_pages import make_hub_app
from dekbovinoj_edu.class_service.limits import Rate, RateLimits
from dekbovinoj_edu.class_service.run import ClassServer
from dekbovinoj_edu.class_service.state import Service
from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.errors import SeatTakenError
from dekbovinoj_edu.classroom.roster import parse_roster
from dekbovinoj_edu.classroom.store import SQLStore

CODE = "68VN-AV66-GGK"


def test_members_of_the_group_or_holders_of_the_scope_teach_every_class() -> None:
    teachers = Teachers("staff", "custom:dekbovinoj:teach")
    assert teachers.admits({"groups": ["staff"]}, "4a")
    assert teachers.admits({"groups": [], "scopes": ["custom:dekbovinoj:teach"]}, "4b")
    assert not teachers.admits({"groups": ["teachers"], "scopes": []}, "4a")  # another group
    assert teachers.admits({"groups": ["staff-4a"]}, "4a")
    assert not teachers.admits({"groups": ["staff-4a"]}, "4b")
    assert not teachers.any_class({"groups": ["staff-"], "scopes": []})


def test_a_vouched_seat_is_the_users_own_and_a_look_alike_login_is_another(
    any_store: SQLStore,
) -> None:
    any_store.add_class(codes_assignment("4a", CODE))
    first = any_store.join_vouched("4a", "ana", "a" * 24, 10.0)
    assert (first.seat.nickname, first.resumed) == ("ana", False)
    again = any_store.join_vouched("4a", "ana", "b" * 24, 11.0)  # another device, no code
    assert again.resumed
    with pytest.raises(SeatTakenError):
        any_store.seat_of("4a", "a" * 24)
    other = any_store.join_vouched("4a", "\u0430na", "c" * 24, 12.0)  # a Cyrillic а: the hub
    assert (other.seat.nickname, other.resumed) == ("\u0430na", False)  # says it is another
    typed = any_store.join("4a", "ana", "d" * 24, 13.0)  # a typed nickname never takes it
    assert not typed.resumed and any_store.seat_of("4a", "b" * 24).nickname == "ana"


class FakeHubAuth:
    """What :class:`HubIdentity` asks of JupyterHub's ``HubOAuth``, for two tokens."""

    base_url = "/services/dekbovinoj/"
    login_url = "/hub/api/oauth2/authorize"
    access_scopes: ClassVar[set[str]] = {"access:services!service=dekbovinoj"}
    users: ClassVar[dict[str, dict[str, Any]]] = {
        "ana-token-0123456789": {
            "kind": "user",
            "name": "ana",
            "scopes": list(access_scopes),
            "groups": ["4a"],
        },
        "bob-token-0123456789": {"kind": "user", "name": "bob", "scopes": []},
        "cyd-token-0123456789": {
            "kind": "user",
            "name": "cyd",
            "scopes": list(access_scopes),
            "groups": ["4b"],
        },
        "dan-token-0123456789": {"kind": "user", "name": "dan", "scopes": list(access_scopes)},
        "svc-token-0123456789": {"kind": "service", "name": "x", "scopes": list(access_scopes)},
    }

    async def user_for_token(self, token: str, sync: bool = True) -> dict[str, Any] | None:
        return self.users.get(token)

    def check_scopes(self, required: set[str], user: dict[str, Any]) -> set[str]:
        return required & set(user["scopes"])

    def get_user(self, handler: object, sync: bool = True) -> None:
        return None  # no browser here is signed in


@pytest.fixture
def hub_service(any_store: SQLStore) -> Iterator[str]:
    any_store.add_class(codes_assignment("4a", CODE))
    any_store.add_class(codes_assignment("4r", CODE), parse_roster("group:4a\ndan"))
    limits = RateLimits(join=Rate(burst=2, per_second=0.01))
    service = Service(any_store, None, hub=HubIdentity(Teachers(), FakeHubAuth()), limits=limits)
    server = ClassServer(service, app=make_hub_app)
    server.start()
    try:
        yield f"{server.url}services/dekbovinoj/"
    finally:
        server.close()


def _post(url: str, body: dict[str, Any], authorization: str | None) -> tuple[int, Any]:
    """POST ``body`` as JSON; the status and the JSON answer (synchronous, so it runs beside
    the session's browser, whose event loop holds the main thread in a full run)."""
    headers = {"Content-Type": "application/json"}
    if authorization:
        headers["Authorization"] = authorization
    request = urllib.request.Request(
        url, data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read() or b"null")
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read() or b"null")


class _Stay(urllib.request.HTTPRedirectHandler):
    """Follow no redirect: a 302 is the answer to look at."""

    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


def _get(url: str) -> tuple[int, Any]:
    """GET without following redirects: the status and the headers."""
    try:
        with urllib.request.build_opener(_Stay).open(url, timeout=30) as answer:
            return answer.status, answer.headers
    except urllib.error.HTTPError as refused:
        return refused.code, refused.headers


def test_under_a_hub_a_student_joins_only_as_the_tokens_user(hub_service: str) -> None:
    join = f"{hub_service}api/v1/classes/4a/join"
    assert _post(join, {"nickname": "ana"}, None)[0] == 401
    assert _post(join, {"nickname": "ana"}, "token not-known-at-all-00")[0] == 401
    assert _post(join, {"nickname": "ana"}, "Bearer ana-token-0123456789")[0] == 401
    status, body = _post(join, {"nickname": "bob"}, "token ana-token-0123456789")
    assert (status, body["error"]["code"]) == (403, "forbidden")
    assert _post(join, {"nickname": "bob"}, "token bob-token-0123456789")[0] == 403  # no scope
    assert _post(join, {"nickname": "x"}, "token svc-token-0123456789")[0] == 403  # a service
    status, body = _post(join, {"nickname": "ana"}, "token ana-token-0123456789")
    assert status == 201 and body["seat"]["nickname"] == "ana"
    attempt = f"{hub_service}api/v1/classes/4a/attempts"
    sent = {"id": "ana-attempt-1", "puzzle": 1, "answer": "3+7"}
    assert _post(attempt, sent, f"Bearer {body['token']}")[0] == 201
    assert _post(attempt, sent, "token ana-token-0123456789")[0] == 401


def test_under_a_hub_nobody_reaches_a_dashboard_without_signing_in(hub_service: str) -> None:
    assert _get(hub_service + "classes/4a/board")[0] == 403
    code, headers = _get(hub_service + "classes/4a/")
    assert code == 302 and headers["Location"].startswith("/hub/api/oauth2/authorize")
    assert _get(hub_service + "teacher/anything/")[0] == 404  # no secret routes under a hub


def test_under_a_hub_joins_are_limited_per_user_not_per_address(hub_service: str) -> None:
    join = f"{hub_service}api/v1/classes/4a/join"
    statuses = [
        _post(join, {"nickname": user}, f"token {user}-token-0123456789")[0]
        for user in ("ana", "cyd", "dan")
    ]
    assert statuses == [201, 201, 201]  # three students, one address, a burst of two
    again = [_post(join, {"nickname": "ana"}, "token ana-token-0123456789")[0] for _ in range(2)]
    assert again == [200, 429]  # one student reloading in a loop


def test_under_a_hub_a_roster_takes_the_groups_the_hub_names_and_exact_names(
    hub_service: str,
) -> None:
    join = f"{hub_service}api/v1/classes/4r/join"
    status, body = _post(f"{join}?lang=eo", {"nickname": "cyd"}, "token cyd-token-0123456789")
    assert (status, body["error"]["code"]) == (403, "not-on-roster")  # in 4b, not 4a
    assert (
        body["error"]["message"]
        == "Vi ne estas en la listo de la klaso 4r. Demandu vian instruiston."
    )
    status, body = _post(join, {"nickname": "ana"}, "token ana-token-0123456789")  # in 4a
    assert status == 201 and body["seat"]["nickname"] == "ana"
    status, body = _post(join, {"nickname": "dan"}, "token dan-token-0123456789")  # named
    assert status == 201 and body["seat"]["nickname"] == "dan"
