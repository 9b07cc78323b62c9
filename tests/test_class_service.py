"""The class service over a real store: the student API as the OpenAPI file describes it, a
seat that belongs to its student, every refusal a 4xx with its code (never a 500, never a
stored row), rate limits, CORS, the teacher's routes behind the secret, the site from the
same origin, and a clean stop."""

from __future__ import annotations

import ast
import builtins
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from support.class_service import Answer, Api, running_service
from support.processes import children
from support.puzzles import PETER
from support.servers import other_address

from dekbovinoj_edu.class_service.limits import Rate, RateLimits
from dekbovinoj_edu.class_service.run import ClassServer
from dekbovinoj_edu.class_service.state import Service
from dekbovinoj_edu.class_service.teacher_access import (
    SESSION_SECONDS,
    TeacherAccess,
    teacher_networks,
)
from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.errors import StoreError
from dekbovinoj_edu.classroom.store import SQLStore, open_store
from dekbovinoj_edu.classroom.views.teacher import ACTIONS, TeacherView
from dekbovinoj_edu.i18n import catalog_path
from dekbovinoj_edu.rules.puzzle import Puzzle

NO_TEN = Puzzle.parse("A♣ | 2♣", level=1)
"""A puzzle with no dek bovinoj: the right call is "mu!"."""
PETERS_BEST = "13*2+3-9-3-7"


def make_class(store: SQLStore, name: str = "4a") -> SQLStore:
    store.add_class(codes_assignment(name, f"{PETER.code},{NO_TEN.code}"))
    return store


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLStore]:
    made = make_class(open_store(tmp_path / "classes.sqlite3"))
    yield made
    made.close()


@pytest.fixture
def served(store: SQLStore) -> Iterator[tuple[ClassServer, Api]]:
    with running_service(store, "4a") as running:
        yield running


@pytest.fixture
def api(served: tuple[ClassServer, Api]) -> Api:
    return served[1]


def joined(api: Api, nickname: str = "Ana") -> dict[str, str]:
    answer = api.join(nickname)
    assert answer.status == 201, answer.text
    return {"token": answer.document["token"], "code": answer.document["rejoin_code"]}


# --- the student API --------------------------------------------------------------------------


def test_the_assignment_is_open_to_anyone(api: Api) -> None:
    answer = api.call("GET", "/api/v1/classes/4a")
    assert answer.status == 200
    assert answer.document == {
        "name": "4a",
        "mode": "practice",
        "count": 2,
        "level": None,
        "codes": [PETER.code, NO_TEN.code],
        "at_level": False,
        "target": None,
    }


def test_a_student_joins_works_and_finishes_on_either_store(any_store: SQLStore) -> None:
    make_class(any_store)
    with running_service(any_store, "4a") as (_, api):
        first = api.join("Ana")
        assert first.status == 201 and first.document["resumed"] is False
        token = first.document["token"]
        assert len(token) >= 32 and len(first.document["rejoin_code"]) == 9
        assert first.document["seat"] == {
            "nickname": "Ana", "puzzle": 1, "hints": 0, "finished": False, "count": 2,
            "code": None,
        }  # fmt: skip
        wrong = api.attempt(token, "ana-0001", 1, "13 + 9", hints=1, seconds=12.5)
        assert wrong.status == 201
        assert wrong.document["attempt"]["verdict"] == "colour"
        assert wrong.document["attempt"]["hints"] == 1
        assert wrong.document["seat"]["puzzle"] == 1
        right = api.attempt(token, "ana-0002", 1, PETERS_BEST)
        assert right.document["attempt"] | {"time": "T"} == {
            "id": "ana-0002", "puzzle": 1, "code": PETER.code, "answer": PETERS_BEST,
            "verdict": "ok", "cards": 6,
            "best": 6, "hints": 0, "seconds": 0.0, "time": "T", "counted": True,
            "finishes": True, "solved": True,
        }  # fmt: skip
        assert right.document["seat"]["puzzle"] == 2
        mu = api.attempt(token, "ana-0003", 2, "", mu=True)
        assert mu.document["attempt"]["verdict"] == "mu-right"
        assert mu.document["seat"]["finished"] is True
        me = api.call("GET", "/api/v1/classes/4a/me", token=token)
        assert me.status == 200
        assert [a["verdict"] for a in me.document["attempts"]] == ["colour", "ok", "mu-right"]
        assert api.call("POST", "/api/v1/classes/4a/alive", {}, token=token).status == 200
        assert api.call("POST", "/api/v1/classes/4a/gone", token=token).status == 204
        assert [a.verdict for a in any_store.attempts("4a")] == ["colour", "ok", "mu-right"]


def test_an_attempt_sent_twice_is_one_row_and_the_same_answer(any_store: SQLStore) -> None:
    make_class(any_store)
    with running_service(any_store, "4a") as (_, api):
        token = joined(api)["token"]
        first = api.attempt(token, "resend-01", 1, PETERS_BEST)
        again = api.attempt(token, "resend-01", 1, PETERS_BEST)
        assert (first.status, again.status) == (201, 200)
        assert again.document["attempt"] == first.document["attempt"]
        assert len(any_store.attempts("4a")) == 1
        # Resent after the seat moved on (the first answer was lost on the way back): still
        # the row kept then, not a refusal for a puzzle that is no longer open.
        late = api.attempt(token, "resend-01", 1, PETERS_BEST)
        assert late.status == 200 and late.document["attempt"]["id"] == "resend-01"
        assert len(any_store.attempts("4a")) == 1


def test_the_service_judges_the_answer_so_a_page_cannot_claim_a_verdict(api: Api) -> None:
    token = joined(api)["token"]
    claim = api.attempt(token, "claim-001", 1, "13 + 9", verdict="ok", cards=6)
    refused = (claim.status, claim.code, claim.document["error"]["field"])
    assert refused == (422, "invalid", "verdict")
    ahead = api.attempt(token, "ahead-001", 2, "", mu=True)
    assert (ahead.status, ahead.code) == (409, "puzzle-not-open")


def test_a_seat_is_taken_back_only_with_its_rejoin_code(api: Api) -> None:
    ana = joined(api, "Ana")
    for lookalike in ("ana", "ANA", "Аna", " Ana "):  # the third has a Cyrillic А
        answer = api.join(lookalike)
        assert (answer.status, answer.code) == (409, "nickname-taken"), lookalike
    assert api.join("Ana", "WRONG-CODE").code == "nickname-taken"
    back = api.join("ana", ana["code"].lower().replace("-", " "))
    assert back.status == 200 and back.document["resumed"] is True
    assert back.document["seat"]["nickname"] == "Ana"
    # The page that held the seat is told so, and writes nothing more under Ana's name.
    old = api.attempt(ana["token"], "old-page-1", 1, "13 + 9")
    assert (old.status, old.code) == (409, "seat-taken")
    mine = api.call("GET", "/api/v1/classes/4a/me", token=ana["token"])
    assert mine.code == "seat-taken"


def test_a_token_opens_only_its_own_seat_in_its_own_class(store: SQLStore) -> None:
    make_class(store, "4b")
    with running_service(store, "4a") as (_, api):
        ana, bo = joined(api, "Ana"), joined(api, "Bo")
        assert api.attempt(ana["token"], "ana-secret", 1, "13 + 9").status == 201
        bos = api.call("GET", "/api/v1/classes/4a/me", token=bo["token"])
        assert bos.document["attempts"] == [] and bos.document["seat"]["nickname"] == "Bo"
        # Bo sends an attempt under Ana's id: refused, and Ana's row is not shown to him.
        stolen = api.attempt(bo["token"], "ana-secret", 1, PETERS_BEST)
        assert stolen.status == 409 and "13 + 9" not in stolen.text
        assert [a.nickname for a in store.attempts("4a")] == ["Ana"]
        # Another class of the same store is not served, whatever the token.
        other = api.call("GET", "/api/v1/classes/4b/me", token=ana["token"])
        assert (other.status, other.code) == (404, "unknown-class")
        made_up = api.call("GET", "/api/v1/classes/4a/me", token="A" * 32)
        assert (made_up.status, made_up.code) == (401, "unauthorized")
        assert "Bearer" in made_up.headers["www-authenticate"]


# --- every refusal has its code ---------------------------------------------------------------

JSON = {"Content-Type": "application/json"}

REFUSALS: list[tuple[str, str, str, dict[str, object], int, str]] = [
    # (what, method, path, request, status, code); "TOKEN" is a token of a joined page
    ("not JSON", "POST", "join", {"raw": b"{nickname: Ana}", "headers": JSON}, 400, "bad-request"),
    ("not an object", "POST", "join", {"body": ["Ana"]}, 400, "bad-request"),
    ("not UTF-8", "POST", "join", {"raw": b'{"nickname": "\xff"}', "headers": JSON}, 400,
     "bad-request"),
    ("NaN", "POST", "attempts", {"raw": b'{"id": "abcdefgh", "puzzle": NaN, "answer": ""}',
                                 "headers": JSON, "auth": True}, 400, "bad-request"),
    ("no JSON type", "POST", "join", {"raw": b'{"nickname": "Ana"}'}, 400, "bad-request"),
    ("no token", "GET", "me", {}, 401, "unauthorized"),
    ("not bearer", "GET", "me", {"headers": {"Authorization": "Basic YTpi"}}, 401, "unauthorized"),
    ("other origin", "POST", "join", {"body": {"nickname": "Eve"},
                                      "headers": {"Origin": "https://evil.example"}}, 403,
     "forbidden"),
    ("unknown class", "GET", "/api/v1/classes/4z", {}, 404, "unknown-class"),
    ("no such route", "GET", "/api/v1/classes/4a/admin", {}, 404, "not-found"),
    ("no such version", "GET", "/api/v2/classes/4a", {}, 404, "not-found"),
    ("wrong method", "DELETE", "/api/v1/classes/4a", {}, 405, "method-not-allowed"),
    ("wrong method", "GET", "join", {}, 405, "method-not-allowed"),
    ("taken", "POST", "join", {"body": {"nickname": "ANA"}}, 409, "nickname-taken"),
    ("not open", "POST", "attempts", {"body": {"id": "abcdefgh", "puzzle": 2, "answer": "1"},
                                      "auth": True}, 409, "puzzle-not-open"),
    ("too large", "POST", "join", {"raw": b'{"nickname": "' + b"x" * 20_000 + b'"}',
                                   "headers": JSON}, 413, "too-large"),
    ("unknown field", "POST", "join", {"body": {"nickname": "Eve", "admin": True}}, 422,
     "invalid"),
    ("field twice", "POST", "join", {"raw": b'{"nickname": "Eve", "nickname": "Bo"}',
                                     "headers": JSON}, 422, "invalid"),
    ("missing field", "POST", "attempts", {"body": {"puzzle": 1, "answer": "1"}, "auth": True},
     422, "invalid"),
    ("bool for a number", "POST", "attempts", {"body": {"id": "abcdefgh", "puzzle": True,
                                               "answer": "1"}, "auth": True}, 422, "invalid"),
    ("text for a number", "POST", "alive", {"body": {"hints": "2"}, "auth": True}, 422,
     "invalid"),
    ("out of bounds", "POST", "attempts", {"body": {"id": "abcdefgh", "puzzle": 1, "answer": "1",
                                           "seconds": 1e9}, "auth": True}, 422, "invalid"),
    ("huge number", "POST", "attempts", {"body": {"id": "abcdefgh", "puzzle": 10**40,
                                         "answer": "1"}, "auth": True}, 422, "invalid"),
    ("bad id", "POST", "attempts", {"body": {"id": "../../etc", "puzzle": 1, "answer": "1"},
                                    "auth": True}, 422, "invalid"),
    ("long nickname", "POST", "join", {"body": {"nickname": "x" * 21}}, 422, "nickname"),
    ("blank nickname", "POST", "join", {"body": {"nickname": "\u3164\u2800"}}, 422, "nickname"),
    ("invisible nickname", "POST", "join", {"body": {"nickname": "Ana\u200b"}}, 422, "nickname"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("what", "method", "path", "request_", "status", "code"),
    REFUSALS,
    ids=[f"{row[5]}: {row[0]}" for row in REFUSALS],
)
def test_every_bad_request_is_refused_with_its_code_and_stores_nothing(
    api: Api,
    store: SQLStore,
    what: str,
    method: str,
    path: str,
    request_: dict[str, object],
    status: int,
    code: str,
) -> None:
    ana = joined(api, "Ana")
    before = (len(store.seats("4a")), len(store.attempts("4a")))
    full = path if path.startswith("/") else f"/api/v1/classes/4a/{path}"
    answer = api.call(
        method,
        full,
        request_.get("body"),
        raw=request_.get("raw"),  # type: ignore[arg-type]
        headers=request_.get("headers"),  # type: ignore[arg-type]
        token=ana["token"] if request_.get("auth") else None,
    )
    assert (answer.status, answer.code) == (status, code), answer.text
    assert answer.document["error"]["message"].endswith(".")
    assert answer.headers["content-type"].startswith("application/json")
    assert (len(store.seats("4a")), len(store.attempts("4a"))) == before


def test_an_answer_over_200_characters_is_refused_and_nothing_is_stored(
    api: Api, store: SQLStore
) -> None:
    token = joined(api)["token"]
    for size in (201, 5_000, 16_000):
        answer = api.attempt(token, f"long-{size:05d}", 1, "1" * size)
        assert answer.status in (413, 422) and answer.code in ("too-large", "invalid")
    answer = api.attempt(token, "long-00201", 1, "1" * 201)
    assert answer.document["error"] == {
        "code": "invalid", "message": "An answer has at most 200 characters.", "field": "answer",
    }  # fmt: skip
    assert store.attempts("4a") == []
    assert api.attempt(token, "just-0200", 1, "1" * 200).status == 201


def test_a_refusal_speaks_the_readers_language(api: Api) -> None:
    english = api.call("GET", "/api/v1/classes/4z").document["error"]["message"]
    esperanto = api.call("GET", "/api/v1/classes/4z?lang=eo").document["error"]["message"]
    japanese = api.call("GET", "/api/v1/classes/4z", headers={"Accept-Language": "de, ja;q=0.8"})
    assert english == "Unknown class '4z'."
    assert esperanto != english and "4z" in esperanto
    assert japanese.document["error"]["message"] not in (english, esperanto)


def test_a_body_larger_than_any_is_cut_off_and_the_service_goes_on(api: Api) -> None:
    huge = api.call("POST", "/api/v1/classes/4a/join", raw=b"x" * 200_000, headers=JSON)
    assert huge.status in (400, 413)
    with socket.create_connection((api.host, api.port), timeout=30) as raw:
        chunks = b"".join(b"1000\r\n" + b"x" * 4096 + b"\r\n" for _ in range(5)) + b"0\r\n\r\n"
        raw.sendall(
            b"POST /api/v1/classes/4a/join HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            b"Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks
        )
        status_line = raw.recv(4096).split(b"\r\n", 1)[0]
    assert status_line == b"HTTP/1.1 413 Request Entity Too Large"
    assert api.join("Eve").status == 201


def test_a_storage_failure_is_a_503_and_one_line_for_the_teacher(
    api: Api, store: SQLStore, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    token = joined(api)["token"]

    def full(*_: object, **__: object) -> None:
        raise StoreError("The disk of the class database is full.")

    monkeypatch.setattr(store, "record", full)
    with caplog.at_level(logging.ERROR, logger="dekbovinoj.service"):
        for number in range(3):
            answer = api.attempt(token, f"full-{number:04d}", 1, "13 + 9")
            assert (answer.status, answer.code) == (503, "store")
            assert answer.document["error"]["message"] == "The disk of the class database is full."
    lines = [r.getMessage() for r in caplog.records if r.name == "dekbovinoj.service"]
    assert lines == ["class database: The disk of the class database is full."]
    assert all(record.exc_info is None for record in caplog.records)


def test_a_store_that_does_not_answer_in_time_is_a_503(
    store: SQLStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    with running_service(store, "4a", inline=False, patience=0.2) as (_, api):
        token = joined(api)["token"]
        slow_record = store.record

        def slow(*args: object, **kwargs: object) -> object:
            time.sleep(0.5)
            return slow_record(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(store, "record", slow)
        late = api.attempt(token, "slow-0001", 1, "13 + 9")
        assert (late.status, late.code) == (503, "store")
        assert late.document["error"]["message"] == (
            "The class database did not answer within 0.2 s."
        )
        time.sleep(0.5)  # the write went through after all: the resend is the same row
        monkeypatch.setattr(store, "record", slow_record)
        again = api.attempt(token, "slow-0001", 1, "13 + 9")
        assert again.status == 200 and len(store.attempts("4a")) == 1


# --- rate limits ------------------------------------------------------------------------------


def test_one_address_making_seats_in_a_loop_is_slowed_down(store: SQLStore) -> None:
    limits = RateLimits(join=Rate(burst=10, per_second=0.1))
    with running_service(store, "4a", limits=limits) as (_, api):
        answers = [api.join(f"troll {n}") for n in range(17)]
    assert [a.status for a in answers] == [201] * 10 + [429] * 7
    refused = answers[-1]
    assert refused.code == "rate-limited" and int(refused.headers["retry-after"]) >= 1
    assert len(store.seats("4a")) == 10


def test_new_seats_from_one_address_are_limited_apart_from_rejoins(store: SQLStore) -> None:
    limits = RateLimits(seat=Rate(burst=3, per_second=0.01))
    with running_service(store, "4a", limits=limits) as (_, api):
        first = [api.join(f"student {n}") for n in range(3)]
        assert [answer.status for answer in first] == [201] * 3
        flood = api.join("troll")
        assert (flood.status, flood.code) == (429, "rate-limited")
        assert int(flood.headers["retry-after"]) >= 1
        code = first[0].document["rejoin_code"]
        back = [api.join("student 0", code).status for _ in range(5)]  # reloads: no new seat
        assert back == [200] * 5
    assert len(store.seats("4a")) == 3


def test_a_join_sent_again_under_its_id_is_the_same_seat_token_and_code(
    api: Api, store: SQLStore
) -> None:
    body = {"nickname": "Ana", "join_id": "dkb-join-7fQ2xL9pR4sT1vW8yZ3bN6m"}
    first = api.call("POST", "/api/v1/classes/4a/join", body)  # its answer lost on the way
    again = api.call("POST", "/api/v1/classes/4a/join", body)
    assert (first.status, again.status) == (201, 200)
    assert again.document["token"] == first.document["token"]
    assert again.document["rejoin_code"] == first.document["rejoin_code"]
    assert len(store.seats("4a")) == 1
    token = again.document["token"]
    assert api.attempt(token, "ana-00001", 1, PETERS_BEST).status == 201
    another = {"nickname": "Ana", "join_id": "another-page-" + "x" * 12}
    other = api.call("POST", "/api/v1/classes/4a/join", another)
    assert other.code == "nickname-taken"  # another page's join: not Ana's seat
    short = api.call("POST", "/api/v1/classes/4a/join", {"nickname": "Bo", "join_id": "a1b2"})
    assert (short.status, short.code) == (422, "invalid")
    assert api.join("Bo").status == 201  # a page without a join id still joins


def test_a_page_that_sends_heartbeats_in_a_loop_is_refused(api: Api, store: SQLStore) -> None:
    token = joined(api)["token"]
    statuses = [
        api.call("POST", "/api/v1/classes/4a/alive", {}, token=token).status for _ in range(40)
    ]
    assert statuses.count(200) <= 4 and statuses.count(429) >= 36
    attempts = [api.attempt(token, f"loop-{n:05d}", 1, "13 + 9").status for n in range(40)]
    assert attempts.count(201) <= 22 and attempts.count(429) >= 18
    other = joined(api, "Bo")["token"]  # another page is not slowed down by Ana's
    assert api.call("POST", "/api/v1/classes/4a/alive", {}, token=other).status == 200


@pytest.mark.slow  # the quick loop leaves it to the whole suite
def test_a_class_of_300_behind_one_school_address_joins_at_once(api: Api, store: SQLStore) -> None:
    statuses = [api.join(f"student {n}").status for n in range(300)]
    assert statuses == [201] * 300
    assert len(store.seats("4a")) == 300


# --- CORS and headers -------------------------------------------------------------------------


def test_cors_is_only_for_the_origins_allowed(store: SQLStore) -> None:
    allowed = "https://school.example"
    with running_service(store, "4a", allow_origins=[allowed]) as (server, api):
        preflight = api.call(
            "OPTIONS",
            "/api/v1/classes/4a/attempts",
            headers={
                "Origin": allowed,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "authorization, content-type",
            },
        )
        assert preflight.status == 204
        assert preflight.headers["access-control-allow-origin"] == allowed
        assert "POST" in preflight.headers["access-control-allow-methods"]
        assert "Authorization" in preflight.headers["access-control-allow-headers"]
        join = api.call(
            "POST", "/api/v1/classes/4a/join", {"nickname": "Ana"}, headers={"Origin": allowed}
        )
        assert join.status == 201 and join.headers["access-control-allow-origin"] == allowed
        other = api.call(
            "OPTIONS", "/api/v1/classes/4a/join", headers={"Origin": "https://x.example"}
        )
        assert other.status == 403 and "access-control-allow-origin" not in other.headers
        same = api.call(
            "POST", "/api/v1/classes/4a/join", {"nickname": "Bo"},
            headers={"Origin": server.url.rstrip("/")},
        )  # fmt: skip
        assert same.status == 201 and "access-control-allow-origin" not in same.headers


def test_the_answers_carry_the_security_headers(served: tuple[ClassServer, Api]) -> None:
    server, api = served
    for path in ("/api/v1/classes/4a", "/api/v1/classes/4z", "/"):
        answer = api.call("GET", path)
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "no-referrer"
        assert answer.headers["cache-control"] == "no-store"
        assert "default-src 'none'" in answer.headers["content-security-policy"]
        assert "server" not in answer.headers
    page = api.call("GET", "/teacher/", headers=api.sign_in(teacher(server)))
    assert "default-src 'none'" in page.headers["content-security-policy"]
    assert "http" not in page.text.split("<script>")[1]  # nothing is fetched from elsewhere


# --- the teacher's side -----------------------------------------------------------------------


def teacher(server: ClassServer, rest: str = "") -> str:
    return f"/teacher/{server.service.secret}/{rest}"


def test_the_teachers_routes_open_only_with_the_secret(served: tuple[ClassServer, Api]) -> None:
    server, api = served
    token = joined(api)["token"]
    secret = server.service.secret
    assert len(secret) >= 24
    assert api.call("GET", teacher(server)).status == 303  # the page's address signs in
    for rest in ("", "board", "report.csv"):
        if rest:  # a script that names the secret is answered as it always was
            assert api.call("GET", teacher(server, rest)).status == 200
        for wrong in ("", secret[:-1], secret + "x", secret.upper(), "..", token):
            answer = api.call("GET", f"/teacher/{wrong}/{rest}", token=token)
            assert answer.status == 404, (wrong, rest)
            assert "<h1>Not found</h1>" in answer.text and secret not in answer.text
            assert "set-cookie" not in answer.headers
    action = api.call("POST", "/teacher/guess/seats/remove", {"nickname": "Ana"}, token=token)
    assert action.status == 404
    assert api.call("GET", f"/teacher/{secret}").headers["location"] == "/teacher/"


def _set_cookie(answer: Answer) -> dict[str, str]:
    """The attributes of the cookie an answer sets (lower-case names; the cookie's own as
    ``name`` and ``value``)."""
    first, *attributes = answer.headers["set-cookie"].split(";")
    name, _, value = first.strip().partition("=")
    found = {"name": name, "value": value}
    for attribute in attributes:
        key, _, given = attribute.strip().partition("=")
        found[key.lower()] = given
    return found


def tampered(last: str) -> str:
    """Another character than ``last`` (a signature's last one changed, never kept)."""
    return "1" if last == "0" else "0"


def test_the_secret_address_signs_the_browser_in_and_the_address_keeps_no_secret(
    served: tuple[ClassServer, Api],
) -> None:
    server, api = served
    joined(api)
    secret = server.service.secret
    signing = api.call("GET", teacher(server, "?projector=1&lang=ja"))
    assert signing.status == 303
    assert signing.headers["location"] == "/teacher/?projector=1&lang=ja"
    cookie = _set_cookie(signing)
    assert {"httponly", "samesite", "path", "max-age"} <= set(cookie)
    assert cookie["samesite"] == "Strict" and cookie["path"] == "/teacher/"
    assert int(cookie["max-age"]) <= 24 * 3600
    assert secret not in signing.headers["set-cookie"] and len(cookie["value"]) >= 40
    signed = {"Cookie": f"{cookie['name']}={cookie['value']}"}

    page = api.call("GET", "/teacher/?projector=1&lang=ja", headers=signed)
    assert page.status == 200 and '<html lang="ja">' in page.text and secret not in page.text
    assert 'class="dkb-projector" autocomplete="off"\n checked' in page.text
    board = api.call("GET", "/teacher/board", headers=signed)
    assert board.status == 200 and "1 students · 0 attempts" in board.text
    csv = api.call("GET", "/teacher/report.csv", headers=signed)
    assert csv.status == 200 and csv.headers["content-type"].startswith("text/csv")
    released = api.call("POST", "/teacher/seats/release", {"nickname": "Ana"}, headers=signed)
    assert released.status == 200, released.text
    assert released.document["message"].startswith("The new rejoin code of Ana is ")

    other = TeacherAccess("another service's secret")  # another service's sign-in
    foreign = f"{cookie['name']}={other.session()}"
    for sent in (
        {},
        {"Cookie": f"{cookie['name']}={secret}"},
        {"Cookie": f"{cookie['name']}={cookie['value'][:-1]}{tampered(cookie['value'][-1])}"},
        {"Cookie": foreign},
        {"Cookie": f"{other.cookie}={cookie['value']}"},
        {"Authorization": f"Bearer {secret}"},
    ):
        for path in ("/teacher/", "/teacher/board", "/teacher/report.csv"):
            refused = api.call("GET", path, headers=sent)
            assert refused.status == 404, (sent, path)
            assert "<h1>Not found</h1>" in refused.text and "Ana" not in refused.text
        action = api.call("POST", "/teacher/seats/remove", {"nickname": "Ana"}, headers=sent)
        assert action.status == 404 and "<h1>Not found</h1>" in action.text
    assert [seat.nickname for seat in server.service.store.seats("4a")] == ["Ana"]


def test_a_sign_in_lasts_a_school_day_and_only_on_its_own_service() -> None:
    now = [1_000_000.0]
    access = TeacherAccess("the secret", clock=lambda: now[0])
    token = access.session()
    assert access.signed_in(token)
    now[0] += SESSION_SECONDS - 1
    assert access.signed_in(token)
    now[0] += 2
    assert not access.signed_in(token)
    assert access.signed_in(access.session())
    another = TeacherAccess("another secret", clock=lambda: now[0])
    assert not another.signed_in(access.session()) and another.cookie != access.cookie
    issued, nonce, mac = access.session().split(".")
    later = format(int(issued, 16) + 3600, "x")
    assert not access.signed_in(f"{later}.{nonce}.{mac}")  # its time is signed too
    for bad in ("", "a.b", "a.b.c.d", "zz.x.y", "..", None, "1" * 13 + ".x.y"):
        assert not access.signed_in(bad)


def test_the_teachers_routes_answer_this_computer_and_the_addresses_named() -> None:
    alone = TeacherAccess("s")
    for here in ("127.0.0.1", "127.8.0.3", "::1", "::ffff:127.0.0.1"):
        assert alone.admits(here), here
    for there in ("192.0.2.7", "10.0.0.5", "::ffff:192.0.2.7", "fe80::1%eth0", "", None, "x"):
        assert not alone.admits(there), there
    named = TeacherAccess("s", networks=teacher_networks("192.0.2.7, 10.1.0.0/16,fd00::/64"))
    for allowed in ("127.0.0.1", "192.0.2.7", "::ffff:192.0.2.7", "10.1.255.3", "fd00::9"):
        assert named.admits(allowed), allowed
    for refused in ("192.0.2.8", "10.2.0.1", "fd01::9"):
        assert not named.admits(refused), refused
    for wrong in ("school", "192.0.2.300", "10.1.0.0/33", ",", ""):
        with pytest.raises(ValueError):
            teacher_networks(wrong)


@pytest.mark.parametrize("allowed", [False, True], ids=["loopback-only", "teacher-from"])
def test_another_computer_gets_403_unless_the_teacher_named_it(
    store: SQLStore, allowed: bool
) -> None:
    here = other_address()
    if here is None:
        pytest.skip("this computer has no address but loopback")
    networks = teacher_networks(here) if allowed else ()
    service = Service(store, "4a", teacher_from=networks)
    server = ClassServer(service, host="0.0.0.0")  # students' way: every network
    server.start()
    try:
        local, remote = Api(server.url), Api(f"http://{here}:{server.port}/")
        signed = local.sign_in(teacher(server))  # the teacher, on this computer
        assert remote.join("Ana").status == 201  # the students' API answers everyone
        spoofed = {"X-Forwarded-For": "127.0.0.1", "X-Real-Ip": "127.0.0.1"}
        tries = [
            ("GET", teacher(server), {}),
            ("GET", teacher(server, "board"), spoofed),
            ("GET", "/teacher/", signed),
            ("GET", "/teacher/board", {**signed, **spoofed}),
            ("GET", "/teacher/report.csv", {**signed, "Accept-Language": "sv"}),
        ]
        for method, path, headers in tries:
            answer = remote.call(method, path, headers=headers)
            if allowed:
                assert answer.status in (200, 303), (path, answer.status)
            else:
                assert answer.status == 403, (path, answer.status)
                assert "--teacher-from" in answer.text and "Ana" not in answer.text
                assert "set-cookie" not in answer.headers
        action = remote.call("POST", "/teacher/seats/remove", {"nickname": "Ana"},
                             headers=signed)  # fmt: skip
        assert action.status == (200 if allowed else 403)
        if not allowed:
            swedish = remote.call("GET", "/teacher/", headers={"Accept-Language": "sv"})
            assert "Lärarens sida öppnas bara på lärarens egen dator" in swedish.text
            assert local.call("GET", "/teacher/board", headers=signed).status == 200
    finally:
        server.close()


def test_the_board_is_sent_again_only_when_something_changed(
    served: tuple[ClassServer, Api],
) -> None:
    server, api = served
    token = joined(api)["token"]
    first = api.call("GET", teacher(server, "board"))
    assert first.status == 200 and "1 students · 0 attempts" in first.text
    tag = first.headers["etag"]
    unchanged = api.call("GET", teacher(server, "board"), headers={"If-None-Match": tag})
    assert unchanged.status == 304 and unchanged.data == b""
    projector = api.call(
        "GET", teacher(server, "board?projector=1"), headers={"If-None-Match": tag}
    )
    assert projector.status == 200 and "Ana" not in projector.text
    api.attempt(token, "changes-1", 1, "13 + 9")
    changed = api.call("GET", teacher(server, "board"), headers={"If-None-Match": tag})
    assert changed.status == 200 and "1 students · 1 attempts" in changed.text
    assert changed.headers["etag"] != tag


def test_the_board_sees_what_another_process_did_to_a_seat(
    served: tuple[ClassServer, Api], store: SQLStore
) -> None:
    server, api = served
    bo = joined(api, "Bo")
    api.attempt(bo["token"], "bo-wrong-1", 1, "13 + 9")
    assert "1 students · 1 attempts" in api.call("GET", teacher(server, "board")).text
    other = TeacherView(store, "4a")  # a second service, or the command line, on the class
    other.act("reset", "Bo")
    assert "1 students · 0 attempts" in api.call("GET", teacher(server, "board")).text


def test_the_board_shows_a_storage_failure(
    served: tuple[ClassServer, Api], store: SQLStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    server, api = served
    token = joined(api)["token"]

    def read_only(*_: object, **__: object) -> None:
        raise StoreError("The class database is read-only.")

    monkeypatch.setattr(store, "record", read_only)
    assert api.attempt(token, "readonly-1", 1, "13 + 9").code == "store"
    board = api.call("GET", teacher(server, "board"))
    assert "dkb-problem" in board.text and "The class database is read-only." in board.text
    monkeypatch.setattr(store, "attempts_since", read_only)
    failed = api.call("GET", teacher(server, "board"))
    assert (failed.status, failed.code) == (503, "store")


def test_the_csv_downloads_as_a_file(served: tuple[ClassServer, Api]) -> None:
    server, api = served
    token = joined(api)["token"]
    api.attempt(token, "formula-1", 1, "-9+13+3+3")
    report = api.call("GET", teacher(server, "report.csv"))
    assert report.status == 200 and report.headers["content-type"].startswith("text/csv")
    assert report.headers["content-disposition"].startswith('attachment; filename="4a.csv"')
    assert "filename*=UTF-8''4a.csv" in report.headers["content-disposition"]
    assert report.text.splitlines()[1].split(",")[4] == "'-9+13+3+3"


def act(api: Api, server: ClassServer, action: str, **body: object) -> Answer:
    return api.call("POST", teacher(server, f"seats/{action}"), body)


def test_the_teacher_releases_resets_merges_and_removes_seats(
    served: tuple[ClassServer, Api], store: SQLStore
) -> None:
    server, api = served
    ana, bo, cy = joined(api, "Ana"), joined(api, "Bo"), joined(api, "Cy")
    api.attempt(ana["token"], "ana-00001", 1, PETERS_BEST)
    api.attempt(bo["token"], "bo-000001", 1, "13 + 9")
    released = act(api, server, "release", nickname="Ana")
    new_code = released.document["rejoin_code"]
    assert released.status == 200 and new_code in released.document["message"]
    assert new_code != ana["code"] and "Ana" in released.document["message"]
    assert api.call("GET", "/api/v1/classes/4a/me", token=ana["token"]).code == "seat-taken"
    again = api.join("Ana", new_code)  # the code the teacher gave her
    assert again.status == 200 and again.document["rejoin_code"] == new_code
    assert again.document["seat"]["puzzle"] == 2
    assert act(api, server, "reset", nickname="Bo").status == 200
    assert store.attempts("4a", "Bo") == [] and store.seats("4a")[1].puzzle == 1
    api.attempt(cy["token"], "cy-000001", 1, "13 + 9")
    merged = act(api, server, "merge", nickname="Cy", into="Bo")
    assert merged.status == 200
    assert [s.nickname for s in store.seats("4a")] == ["Ana", "Bo"]
    assert [a.nickname for a in store.attempts("4a")] == ["Ana", "Bo"]
    assert act(api, server, "remove", nickname="Bo").status == 200
    assert [s.nickname for s in store.seats("4a")] == ["Ana"]
    assert "Bo" not in api.call("GET", teacher(server, "board")).text
    unknown = act(api, server, "remove", nickname="Zed")
    assert (unknown.status, unknown.code) == (404, "unknown-seat")


def test_a_released_seat_goes_to_its_student_not_to_a_classmate_polling_the_nickname(
    served: tuple[ClassServer, Api], store: SQLStore
) -> None:
    server, api = served
    ana = joined(api, "Ana")
    api.attempt(ana["token"], "ana-00001", 1, PETERS_BEST)
    released = act(api, server, "release", nickname="Ana")
    polled = [api.join(nickname) for nickname in ("Ana", "ana", "ANA")]  # at once, and again
    assert [(answer.status, answer.code) for answer in polled] == [(409, "nickname-taken")] * 3
    assert api.join("Ana", ana["code"]).code == "nickname-taken"  # the old code: no more
    back = api.join("ana", released.document["rejoin_code"])
    assert back.status == 200 and back.document["seat"]["puzzle"] == 2
    assert [a.nickname for a in store.attempts("4a")] == ["Ana"]
    assert len(store.seats("4a")) == 1


def test_the_dashboard_removes_a_flood_of_seats_with_one_question(
    served: tuple[ClassServer, Api], store: SQLStore
) -> None:
    server, api = served
    ana = joined(api, "Ana")
    api.attempt(ana["token"], "ana-00001", 1, "13 + 9")  # a student who answered stays
    flood = [joined(api, f"spam {n}") for n in range(6)]
    asked = act(api, server, "remove-these", minutes=10)
    assert asked.status == 200, asked.text
    assert asked.document["nicknames"] == [f"spam {n}" for n in range(6)]
    assert len(store.seats("4a")) == 7  # asking removed nothing
    api.attempt(flood[5]["token"], "spam-0005", 1, "13 + 9")  # answered since the question
    names = asked.document["nicknames"]
    done = act(api, server, "remove-these", minutes=10, nicknames=names)
    assert done.status == 200 and done.document["removed"] == names[:5]
    assert done.document["message"] == "Seats removed: 5."
    assert [seat.nickname for seat in store.seats("4a")] == ["Ana", "spam 5"]
    nothing = act(api, server, "remove-these", minutes=10)
    assert nothing.document["nicknames"] == []
    assert "No seat without an answer" in nothing.document["message"]
    wrong = act(api, server, "remove-these", minutes=0)
    assert (wrong.status, wrong.code) == (422, "invalid")
    page = api.call("GET", "/teacher/", headers=api.sign_in(teacher(server)))
    assert "removeNew()" in page.text and "dkb-flood-minutes" in page.text


def test_a_seat_action_comes_only_from_the_dashboard_page(served: tuple[ClassServer, Api]) -> None:
    server, api = served
    joined(api)
    cross = api.call(
        "POST", teacher(server, "seats/remove"), {"nickname": "Ana"},
        headers={"Origin": "https://evil.example"},
    )  # fmt: skip
    assert (cross.status, cross.code) == (403, "forbidden")
    form = api.call(
        "POST", teacher(server, "seats/remove"), raw=b"nickname=Ana",
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )  # fmt: skip
    assert (form.status, form.code) == (400, "bad-request")
    assert api.call("POST", teacher(server, "seats/steal"), {"nickname": "Ana"}).status == 404
    assert api.call("GET", "/api/v1/classes/4a").status == 200


def test_the_dashboard_page_asks_before_it_acts(served: tuple[ClassServer, Api]) -> None:
    server, api = served
    page = api.call("GET", "/teacher/?lang=sv", headers=api.sign_in(teacher(server)))
    assert page.status == 200 and '<html lang="sv">' in page.text
    assert "confirm(question)" in page.text and "If-None-Match" in page.text
    board = api.call("GET", teacher(server, "board"))
    assert "data-action='release'" not in board.text  # no seats yet
    joined(api, "<b>Ana</b>")
    board = api.call("GET", teacher(server, "board"))
    assert "data-action='release' data-nickname='&lt;b&gt;Ana&lt;/b&gt;'" in board.text
    assert "<b>Ana</b>" not in board.text


# --- the site and the front door --------------------------------------------------------------


def test_the_site_is_served_from_the_same_origin(store: SQLStore, tmp_path: Path) -> None:
    site = tmp_path / "site"
    (site / "voici" / "render").mkdir(parents=True)
    (site / "index.html").write_text("<p>start</p>")
    (site / "voici" / "render" / "classroom.html").write_text("<p>class page</p>")
    (site / "pyodide.wasm").write_bytes(b"\0asm")
    with running_service(store, "4a", site=site) as (_, api):
        root = api.call("GET", "/")
        assert root.status == 302
        assert root.headers["location"] == "/voici/render/classroom.html?class=4a"
        page = api.call("GET", "/voici/render/classroom.html?class=4a")
        assert page.status == 200 and page.text == "<p>class page</p>"
        assert page.headers["x-content-type-options"] == "nosniff"
        assert api.call("GET", "/pyodide.wasm").headers["content-type"] == "application/wasm"
        assert api.call("GET", "/../classes.sqlite3").status in (400, 403, 404)
        assert api.call("GET", "/api/v1/classes/4a").status == 200  # the API still answers
    (site / "voici" / "render" / "classroom.html").unlink()
    with running_service(store, "4a", site=site) as (_, api):
        assert api.call("GET", "/").headers["location"] == "/index.html"


def test_without_a_site_the_front_door_says_where_the_app_is(store: SQLStore) -> None:
    with running_service(store, "4a", app_url="http://127.0.0.1:8866/") as (_, api):
        page = api.call("GET", "/", headers={"Accept-Language": "eo"})
        assert page.status == 200 and "href='http://127.0.0.1:8866/'" in page.text
        assert '<html lang="eo">' in page.text
        assert api.call("GET", "/favicon.ico").status == 404


# --- the command ------------------------------------------------------------------------------


def _start(
    arguments: list[str], env: dict[str, str] | None = None
) -> tuple[subprocess.Popen[str], list[str]]:
    process = subprocess.Popen(
        [sys.executable, "-m", "dekbovinoj_edu.cli", *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    lines: list[str] = []
    assert process.stdout is not None
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if "Ctrl+C" in line:
            break
    return process, lines


def test_class_serve_prints_the_addresses_and_stops_on_sigterm(tmp_path: Path) -> None:
    db = tmp_path / "classes.sqlite3"
    make_class(open_store(db)).close()
    process, lines = _start(["class", "serve", "4a", "--db", str(db), "--port", "0"])
    try:
        students = next(line for line in lines if line.startswith("Students: "))
        teacher_url = next(line for line in lines if line.startswith("Teacher: "))
        assert students.startswith("Students: http://127.0.0.1:")
        base = students.split(" ", 1)[1]
        api = Api(base)
        assert api.join("Ana").status == 201
        path = teacher_url.split(base, 1)[1]
        assert api.call("GET", "/" + path).status == 303  # it signs the browser in
        page = api.call("GET", "/teacher/", headers=api.sign_in("/" + path))
        assert page.status == 200 and "Class 4a" in page.text
        said = lines[lines.index(teacher_url) + 1]
        assert said == (
            "Open it on this computer: it signs this browser in, then the address bar shows "
            "no secret."
        )
    finally:
        process.send_signal(signal.SIGTERM)
        code = process.wait(timeout=20)
    assert code == 0
    assert process.stderr is not None and "Traceback" not in process.stderr.read()


@pytest.mark.slow  # the quick loop leaves it to the whole suite
def test_two_workers_share_one_address_and_end_together(tmp_path: Path) -> None:
    db = tmp_path / "classes.sqlite3"
    make_class(open_store(db)).close()
    arguments = ["class", "serve", "4a", "--db", str(db), "--port", "0", "--workers", "2"]
    process, lines = _start(arguments)
    try:
        base = next(line for line in lines if line.startswith("Students: ")).split(" ", 1)[1]
        api = Api(base)
        tokens = [joined(api, f"student {n}")["token"] for n in range(20)]
        for n, token in enumerate(tokens):
            assert api.attempt(token, f"work-{n:04d}", 1, PETERS_BEST).status == 201
        assert len(children(process.pid)) == 2
        secret = next(line for line in lines if line.startswith("Teacher: ")).split("/")[-2]
        for _ in range(4):  # whichever worker answers, the teacher's secret opens the board
            board = api.call("GET", f"/teacher/{secret}/board")
            assert board.status == 200 and "20 students · 20 attempts" in board.text
        workers = children(process.pid)
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
        assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()]
    finally:
        if process.poll() is None:
            process.kill()
    killed, lines = _start(arguments)
    deadline = time.monotonic() + 20
    while len(children(killed.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    workers = children(killed.pid)
    assert len(workers) == 2
    killed.kill()  # kill -9: the workers end with it
    killed.wait(timeout=20)
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{pid}").exists() for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists()]


def test_class_serve_refuses_an_unknown_class_in_one_line(tmp_path: Path) -> None:
    db = tmp_path / "classes.sqlite3"
    make_class(open_store(db)).close()
    result = subprocess.run(
        [sys.executable, "-m", "dekbovinoj_edu.cli", "class", "serve", "4z", "--db", str(db)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert (result.returncode, result.stderr) == (2, "dekbovinoj: Unknown class '4z'.\n")


def test_class_dashboard_serves_the_teacher_only_on_this_computer(tmp_path: Path) -> None:
    db = tmp_path / "classes.sqlite3"
    make_class(open_store(db)).close()
    process, lines = _start(
        ["class", "dashboard", "4a", "--db", str(db), "--no-browser", "--lang", "ja"]
    )
    try:
        address = lines[0].split(": ", 1)[1]
        assert address.startswith("http://127.0.0.1:") and "/teacher/" in address
        api = Api(address)
        signed = api.sign_in("/" + address.split("/", 3)[3])
        page = api.call("GET", "/teacher/", headers=signed)
        assert page.status == 200 and '<html lang="ja">' in page.text
        assert "it signs this browser in" in lines[1]
        assert api.call("POST", "/api/v1/classes/4a/join", {"nickname": "Ana"}).status == 404
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0


BROWSER_SCRIPT = """#!/bin/sh
# A browser: writes down its command line, then the mode and text of the page it was given.
echo "$@" > "$RECORD"
page="${1#file://}"
stat -c %a "$page" >> "$RECORD"
cat "$page" >> "$RECORD"
"""


def test_class_dashboard_never_puts_its_secret_on_a_command_line(tmp_path: Path) -> None:
    db = tmp_path / "classes.sqlite3"
    make_class(open_store(db)).close()
    browser, record = tmp_path / "browser", tmp_path / "record"
    browser.write_text(BROWSER_SCRIPT, encoding="utf-8")
    browser.chmod(0o700)
    env = {**os.environ, "BROWSER": str(browser), "RECORD": str(record)}
    process, lines = _start(["class", "dashboard", "4a", "--db", str(db)], env=env)
    try:
        address = lines[0].split(": ", 1)[1]
        secret = address.rstrip("/").rsplit("/", 1)[1]
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:  # the browser has written everything down
            if record.exists() and "</html>" in record.read_text(encoding="utf-8"):
                break
            time.sleep(0.05)
        command, mode, *page = record.read_text(encoding="utf-8").splitlines()
        assert command.startswith("file:///") and secret not in command
        assert mode == "600" and address in "".join(page)
        assert Path(command[7:]).parent.stat().st_mode & 0o777 == 0o700
        api = Api(address)  # the service is serving (it stops on SIGTERM from now on)
        assert api.call("GET", "/" + address.split("/", 3)[3]).status in (200, 302, 303)
    finally:
        process.send_signal(signal.SIGTERM)
        assert process.wait(timeout=20) == 0
    assert not Path(command[7:]).exists()  # the page is gone with the service


def test_the_service_description_is_served(api: Api) -> None:
    answer = api.call("GET", "/api/v1/openapi.json")
    assert answer.status == 200 and answer.document["openapi"].startswith("3.1")
    assert json.loads(answer.data) == answer.document


# --- every sentence in four languages ---------------------------------------------------------

SERVICE = Path(__file__).resolve().parents[1] / "dekbovinoj_edu" / "class_service"


def service_msgids(domain: str = "classroom") -> set[str]:
    """The service's sentences: its refusals, its pages' words, the seat actions' texts (the
    LTI tool's pages, ``lti_*.py``, are the ``lti`` catalogs': ``domain="lti"``)."""
    found: set[str] = set()
    for path in sorted(SERVICE.glob("*.py")):
        if path.name.startswith("lti_") != (domain == "lti"):
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            keyword = isinstance(node, ast.keyword) and node.arg == "too_long"
            if keyword and isinstance(node.value, ast.Constant):
                found.add(node.value.value)
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            texts = [a.value for a in node.args if isinstance(a, ast.Constant)]
            texts = [text for text in texts if isinstance(text, str)]
            refusal = called.endswith("Error") and not hasattr(builtins, called)
            refusal = refusal and called != "LtiError"  # its first text is a code
            if texts and (refusal or called in ("t", "gettext")):
                found.add(texts[-1] if called == "gettext" else texts[0])
    if domain == "classroom":
        for action in ACTIONS.values():
            found.update((action.label, action.confirm, action.done))
    return found


def test_the_service_has_the_sentences_we_expect() -> None:
    found = service_msgids()
    assert {"The request body is not JSON.", "An answer has at most {most} characters."} <= found
    assert {"Too many requests: wait {seconds} s and try again.", "Release"} <= found


@pytest.mark.parametrize("domain", ["classroom", "lti"])
@pytest.mark.parametrize("lang", ["eo", "sv", "ja"])
def test_every_sentence_of_the_service_is_translated(lang: str, domain: str) -> None:
    with catalog_path(lang, domain).open("rb") as handle:
        catalog = read_po(handle, locale=lang)
    translated = {str(m.id) for m in catalog if m.id and m.string}
    missing = sorted(service_msgids(domain) - translated)
    assert service_msgids(domain) and not missing, f"{lang}/{domain}.po lacks {missing}"


@pytest.mark.parametrize("lang", ["en", "eo", "sv", "ja"])
def test_a_storage_failure_never_names_the_database_to_a_student(lang: str) -> None:
    from dekbovinoj_edu.class_service.errors import HIDDEN_PLACE, describe
    from dekbovinoj_edu.classroom.errors import StoreError
    from dekbovinoj_edu.i18n import gettext

    told = describe(
        StoreError(
            "Cannot reach the class database {where}: connection refused.",
            where="postgresql://dekbovinoj@db.school.example:5432/classes",
        ),
        lang,
    )
    assert told.status == 503 and told.code == "store"
    assert "db.school.example" not in told.message and "dekbovinoj@" not in told.message
    assert told.message == gettext(lang, "classroom", HIDDEN_PLACE)
    assert lang == "en" or told.message != HIDDEN_PLACE


def test_in_a_test_an_answer_that_does_not_count_tells_nothing_of_the_best(
    tmp_path: Path,
) -> None:
    store = open_store(tmp_path / "test.sqlite3")
    store.add_class(codes_assignment("4a", f"{NO_TEN.code},{PETER.code}", mode="test"))
    try:
        with running_service(store, "4a") as (_, api):
            token = joined(api)["token"]
            typo = api.attempt(token, "typo-0001", 1, "A♣ +")  # malformed: not counted
            assert typo.status == 201 and typo.document["attempt"]["counted"] is False
            assert typo.document["attempt"]["best"] is None  # 0 would say "Mu!" is right
            mine = api.call("GET", "/api/v1/classes/4a/me", token=token).document
            assert [a["best"] for a in mine["attempts"]] == [None]
            ended = api.attempt(token, "call-0001", 1, "", mu=True)
            assert ended.document["attempt"]["finishes"] is True
            assert ended.document["attempt"]["best"] == 0  # the puzzle is over: now it may say
    finally:
        store.close()
