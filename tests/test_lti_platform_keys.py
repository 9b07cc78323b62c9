"""Fetching a platform's keys (``dekbovinoj_edu/lti/platform_keys.py``): JSON from https or
this machine only, no redirect followed, bounded in size; keys of other kinds left out."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from dekbovinoj_edu.lti import LtiError
from dekbovinoj_edu.lti.keys import new_key
from dekbovinoj_edu.lti.platform_keys import MAX_JWKS_BYTES, fetch_jwks, parse_jwks

KEY = new_key(datetime(2026, 12, 7, tzinfo=timezone.utc))
PAGES: dict[str, tuple[int, dict[str, str], bytes]] = {
    "/jwks": (200, {}, json.dumps({"keys": [KEY.public_jwk()]}).encode()),
    "/moved": (302, {"Location": "/jwks"}, b""),
    "/huge": (200, {}, b" " * (MAX_JWKS_BYTES + 1)),
    "/html": (200, {}, b"<html>not keys</html>"),
}


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    class Pages(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            status, headers, body = PAGES[self.path]
            self.send_response(status)
            for name, value in headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Pages)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_the_keys_are_read(site: str) -> None:
    keys = parse_jwks(fetch_jwks(f"{site}/jwks"))
    assert list(keys) == [KEY.kid]


@pytest.mark.parametrize("path", ["/moved", "/huge", "/html"])
def test_a_redirect_a_huge_or_a_non_json_answer_is_refused(site: str, path: str) -> None:
    with pytest.raises(LtiError) as refused:
        fetch_jwks(site + path)
    assert refused.value.code == "platform-keys-unavailable"


def test_plain_http_elsewhere_is_never_fetched() -> None:
    with pytest.raises(LtiError) as refused:
        fetch_jwks("http://lms.example/jwks")
    assert refused.value.code == "insecure-url"


def test_keys_of_other_kinds_or_uses_are_left_out() -> None:
    rsa = KEY.public_jwk()
    document = {
        "keys": [
            {**rsa, "kid": "enc", "use": "enc"},
            {"kty": "EC", "kid": "ec", "crv": "P-256", "x": "", "y": ""},
            {**rsa, "kid": 7},
            {"kty": "RSA", "kid": "broken", "n": "!", "e": "AQAB"},
            rsa,
        ]
    }
    assert list(parse_jwks(document)) == [KEY.kid]


@pytest.mark.parametrize("document", [[], {"keys": {}}, "keys", None])
def test_a_document_that_is_no_jwks_is_refused(document: object) -> None:
    with pytest.raises(LtiError, match="not a JWKS"):
        parse_jwks(document)
