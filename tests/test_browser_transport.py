"""The browser's transport speaks the DOM's ``XMLHttpRequest`` by its real names.

The browser tests run it in Pyodide; this runs it in CPython against a stand-in whose members
are exactly the ones of the WHATWG XMLHttpRequest interface the transport may use (any other
name raises ``AttributeError``, as a JavaScript proxy does), so a misspelt method fails here in
the quick loop too.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from typing import Any, ClassVar

import pytest

from dekbovinoj_edu.classroom.transport import HttpReply, Unreachable, browser_transport

XHR_MEMBERS = {
    "open",
    "setRequestHeader",
    "send",
    "getResponseHeader",
    "getAllResponseHeaders",
    "abort",
    "timeout",
    "status",
    "statusText",
    "responseText",
    "readyState",
    "withCredentials",
}
"""The XMLHttpRequest members (https://xhr.spec.whatwg.org/#interface-xmlhttprequest) a
synchronous text request can use."""


class StandInRequest:
    """An ``XMLHttpRequest`` that answers with ``status``, ``text`` and ``headers``."""

    answer: ClassVar[tuple[int, str, dict[str, str]]] = (200, "{}", {})
    sent: ClassVar[list[tuple[str, str, dict[str, str], str | None]]] = []

    def __init__(self) -> None:
        object.__setattr__(self, "_headers", {})
        object.__setattr__(self, "_opened", ("", ""))

    @classmethod
    def new(cls) -> StandInRequest:
        return cls()

    def __getattribute__(self, name: str) -> Any:
        if not name.startswith("_") and name not in XHR_MEMBERS and name != "new":
            raise AttributeError(name)
        return object.__getattribute__(self, name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in XHR_MEMBERS:
            raise AttributeError(name)
        object.__setattr__(self, name, value)

    def open(self, method: str, url: str, asynchronous: bool) -> None:
        assert asynchronous is False
        object.__setattr__(self, "_opened", (method, url))

    def setRequestHeader(self, name: str, value: str) -> None:
        self._headers[name] = value

    def send(self, body: str | None) -> None:
        method, url = self._opened
        StandInRequest.sent.append((method, url, dict(self._headers), body))
        status, text, headers = StandInRequest.answer
        object.__setattr__(self, "status", status)
        object.__setattr__(self, "responseText", text)
        object.__setattr__(self, "_answer_headers", headers)

    def getResponseHeader(self, name: str) -> str | None:
        headers: dict[str, str] = self._answer_headers
        return headers.get(name)


@pytest.fixture
def in_the_browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    js = types.ModuleType("js")
    js.XMLHttpRequest = StandInRequest  # type: ignore[attr-defined]
    pyodide = types.ModuleType("pyodide")
    ffi = types.ModuleType("pyodide.ffi")

    class JsException(Exception):
        pass

    ffi.JsException = JsException  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "js", js)
    monkeypatch.setitem(sys.modules, "pyodide", pyodide)
    monkeypatch.setitem(sys.modules, "pyodide.ffi", ffi)
    StandInRequest.sent = []
    yield


def test_a_request_and_its_answer_go_through_the_dom_names(in_the_browser: None) -> None:
    StandInRequest.answer = (503, '{"error": "busy"}', {"Retry-After": "7"})
    reply = browser_transport(
        "POST", "http://127.0.0.1:8870/api/4a/join", b'{"nickname": "Ana"}', {"X-A": "1"}, 5.0
    )
    assert reply == HttpReply(503, b'{"error": "busy"}', 7.0)
    assert StandInRequest.sent == [
        ("POST", "http://127.0.0.1:8870/api/4a/join", {"X-A": "1"}, '{"nickname": "Ana"}')
    ]


def test_no_answer_at_all_is_unreachable(in_the_browser: None) -> None:
    StandInRequest.answer = (0, "", {})
    with pytest.raises(Unreachable):
        browser_transport("GET", "http://127.0.0.1:9/api/4a", None, {}, 1.0)
