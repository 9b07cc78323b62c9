"""LTI Dynamic Registration 1.0 (``dekbovinoj_edu/lti/dynamic_registration.py``) against a fake
LMS of our own on 127.0.0.1: its OpenID configuration read with the registration token, the
tool's registration posted with the same token, and the answer kept; an LMS whose issuer is
not its address, or whose answer lacks a client or a deployment, is refused; and the one
address an administrator pastes (``/lti/register/<key>``) registers the LMS once, and
nothing without its key."""

from __future__ import annotations

import contextlib
import io
import json
import threading
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from support.class_service import running_service
from support.puzzles import PETER

from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.store import open_store
from dekbovinoj_edu.cli import main
from dekbovinoj_edu.lti import LtiError
from dekbovinoj_edu.lti.dynamic_registration import SCOPES, TOOL_CONFIGURATION, register
from dekbovinoj_edu.lti.store import LtiStore

TOOL = "https://class.school.example"


@dataclass
class FakeLms:
    """An LMS's registration side: its configuration, its registration endpoint, what came."""

    url: str = ""
    config_changes: dict[str, Any] = field(default_factory=dict)
    answer: dict[str, Any] = field(default_factory=dict)
    received: list[tuple[str, str, dict[str, str], Any]] = field(default_factory=list)

    def config(self) -> dict[str, Any]:
        return {
            "issuer": self.url,
            "authorization_endpoint": f"{self.url}/mod/lti/auth.php",
            "token_endpoint": f"{self.url}/mod/lti/token.php",
            "jwks_uri": f"{self.url}/mod/lti/certs.php",
            "registration_endpoint": f"{self.url}/mod/lti/openid-registration.php",
            "scopes_supported": list(SCOPES),
            "https://purl.imsglobal.org/spec/lti-platform-configuration": {
                "product_family_code": "moodle", "version": "4.5",
            },
            **self.config_changes,
        }  # fmt: skip


@pytest.fixture
def lms() -> Iterator[FakeLms]:
    fake = FakeLms(answer={"client_id": "Zx3qFhG2", TOOL_CONFIGURATION: {"deployment_id": "7"}})

    class Pages(BaseHTTPRequestHandler):
        def _answer(self, document: Any) -> None:
            body = json.dumps(document).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            fake.received.append(("GET", self.path, dict(self.headers), None))
            self._answer(fake.config())

        def do_POST(self) -> None:
            sent = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            fake.received.append(("POST", self.path, dict(self.headers), sent))
            self._answer(fake.answer)

        def log_message(self, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Pages)
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield fake
    server.shutdown()
    server.server_close()


def _configuration(lms: FakeLms) -> str:
    return f"{lms.url}/mod/lti/openid-configuration.php"


def test_the_tool_registers_itself_and_keeps_the_lms_answer(lms: FakeLms) -> None:
    registration = register(_configuration(lms), "one-time-token", TOOL)
    assert (registration.issuer, registration.client_id) == (lms.url, "Zx3qFhG2")
    assert registration.deployment_ids == ("7",)
    assert registration.jwks_url == f"{lms.url}/mod/lti/certs.php"
    (get, post) = lms.received
    assert get[1] == "/mod/lti/openid-configuration.php"
    assert get[2]["Authorization"] == post[2]["Authorization"] == "Bearer one-time-token"
    sent = post[3]
    assert post[1] == "/mod/lti/openid-registration.php"
    assert sent["initiate_login_uri"] == f"{TOOL}/lti/login"
    assert sent["redirect_uris"] == [f"{TOOL}/lti/launch"]
    assert sent["jwks_uri"] == f"{TOOL}/lti/jwks"
    assert sent["scope"].split() == list(SCOPES)
    assert sent[TOOL_CONFIGURATION]["domain"] == "class.school.example"


def test_without_a_token_no_authorization_is_sent(lms: FakeLms) -> None:
    register(_configuration(lms), None, TOOL)
    assert all("Authorization" not in headers for _, _, headers, _ in lms.received)


@pytest.mark.parametrize(
    ("config_changes", "answer", "why"),
    [
        ({"issuer": "https://evil.example"}, None, "not the LMS's address"),
        ({"registration_endpoint": "http://lms.example/register"}, None, "must be https"),
        ({"jwks_uri": ""}, None, "no jwks_uri"),
        ({}, {TOOL_CONFIGURATION: {"deployment_id": "7"}}, "no client_id"),
        ({}, {"client_id": "c"}, "no deployment id"),
        ({}, {"client_id": "c", TOOL_CONFIGURATION: {"deployment_id": 7}}, "no deployment id"),
    ],
)
def test_a_registration_that_does_not_fit_is_refused(
    config_changes: dict[str, Any], answer: dict[str, Any] | None, why: str, lms: FakeLms
) -> None:
    lms.config_changes = config_changes
    if answer is not None:
        lms.answer = answer
    with pytest.raises(LtiError, match=why) as refused:
        register(_configuration(lms), "t", TOOL)
    assert refused.value.code in {"registration-refused", "insecure-url"}


def test_an_lms_that_does_not_answer_is_refused() -> None:
    with pytest.raises(LtiError) as refused:
        register("http://127.0.0.1:9/openid-configuration", "t", TOOL)
    assert refused.value.code == "registration-refused"


# --- the address the administrator pastes: /lti/register/<key> on a real class service ----


def _served_register(lms: FakeLms, tmp_path: Path, key_of: Any) -> tuple[int, str, list[Any]]:
    """The administrator's paste: a key issued by ``class lti register-url`` (``key_of``
    changes it), then the LMS opening the address; the status, the page, the store's LMSs."""
    db = tmp_path / "classes.sqlite3"
    with contextlib.redirect_stdout(io.StringIO()) as out:
        assert (
            main(["class", "lti", "register-url", "--tool-url", "https://x", "--db", str(db)]) == 0
        )
    key = key_of(out.getvalue().split("/lti/register/")[1].strip())
    store = open_store(db)
    store.add_class(codes_assignment("4a", PETER.code))
    query = urllib.parse.urlencode(
        {"openid_configuration": _configuration(lms), "registration_token": "tok"}
    )
    with running_service(store, "4a") as (_, api):
        first = api.call("GET", f"/lti/register/{key}?{query}")
        again = api.call("GET", f"/lti/register/{key}?{query}")
        assert again.status == 410 and "ticket-used" in again.text  # the key works once
    registrations = LtiStore(store.database).registrations()
    store.close()
    return first.status, first.text, registrations


def test_the_pasted_address_registers_the_lms_once(lms: FakeLms, tmp_path: Path) -> None:
    status, page, registrations = _served_register(lms, tmp_path, lambda key: key)
    assert status == 200 and "org.imsglobal.lti.close" in page
    assert [(r.issuer, r.client_id) for r in registrations] == [(lms.url, "Zx3qFhG2")]
    post = lms.received[-1]
    assert post[2]["Authorization"] == "Bearer tok"
    assert post[3]["initiate_login_uri"].startswith("http://127.0.0.1:")  # the service's own


def test_an_address_without_its_key_registers_nothing(lms: FakeLms, tmp_path: Path) -> None:
    status, page, registrations = _served_register(lms, tmp_path, lambda key: key[:-1] + "x")
    assert status == 410 and "ticket-used" in page
    assert registrations == [] and lms.received == []  # nothing fetched from the LMS
