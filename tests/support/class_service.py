"""The class service for the tests: running on 127.0.0.1 in a thread over a real store, and a
small client that says what the service answered.

>>> import tempfile
>>> from dekbovinoj_edu.classroom.assignment import codes_assignment
>>> from dekbovinoj_edu.classroom.store import open_store
>>> store = open_store(Path(tempfile.mkdtemp()) / "c.sqlite3")
>>> store.add_class(codes_assignment("4a", "68VN-AV66-GGK"))
>>> with running_service(store, "4a") as (server, api):
...     api.call("GET", "/api/v1/classes/4a").status
200
>>> store.close()
"""

from __future__ import annotations

import http.client
import json
import urllib.parse
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dekbovinoj_edu.class_service.run import ClassServer
from dekbovinoj_edu.class_service.state import Service
from dekbovinoj_edu.classroom.store import ProgressStore

__all__ = ["Answer", "Api", "running_service"]


@dataclass
class Answer:
    """What the service answered: the status, the headers, the body (and its JSON)."""

    status: int
    headers: dict[str, str]
    data: bytes
    document: Any = field(default=None)

    @property
    def code(self) -> str | None:
        """The refusal's error code, if this is a refusal."""
        if isinstance(self.document, dict) and isinstance(self.document.get("error"), dict):
            return str(self.document["error"]["code"])
        return None

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", "replace")


class Api:
    """Requests to the service at ``base`` (``http://127.0.0.1:port/``), one connection each."""

    def __init__(self, base: str) -> None:
        parts = urllib.parse.urlsplit(base)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80

    def call(
        self,
        method: str,
        path: str,
        body: object = None,
        *,
        token: str | None = None,
        headers: Mapping[str, str] | None = None,
        raw: bytes | None = None,
    ) -> Answer:
        """Send ``body`` as JSON (or ``raw`` bytes as they are); ``token`` as a bearer token."""
        sent: dict[str, str] = {}
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            sent["Content-Type"] = "application/json"
        if token is not None:
            sent["Authorization"] = f"Bearer {token}"
        sent.update(headers or {})
        connection = http.client.HTTPConnection(self.host, self.port, timeout=30)
        try:
            connection.request(method, path, body=data, headers=sent)
            response = connection.getresponse()
            received = response.read()
            answer = Answer(response.status, {k.lower(): v for k, v in response.getheaders()},
                            received)  # fmt: skip
        finally:
            connection.close()
        if answer.headers.get("content-type", "").startswith("application/json") and received:
            answer.document = json.loads(received)
        return answer

    def sign_in(self, path: str) -> dict[str, str]:
        """Open the teacher's secret address ``path`` (``/teacher/<secret>/``) as a browser
        does: the ``Cookie`` header its sign-in set, for the teacher's routes."""
        answer = self.call("GET", path)
        assert answer.status == 303, (answer.status, answer.text)
        cookie = answer.headers["set-cookie"].split(";", 1)[0]
        return {"Cookie": cookie}

    def join(self, nickname: str, rejoin_code: str | None = None, name: str = "4a") -> Answer:
        """``POST /api/v1/classes/{name}/join``."""
        body: dict[str, str] = {"nickname": nickname}
        if rejoin_code is not None:
            body["rejoin_code"] = rejoin_code
        return self.call("POST", f"/api/v1/classes/{name}/join", body)

    def attempt(self, token: str, attempt_id: str, puzzle: int, answer: str, **more: Any) -> Answer:
        """``POST /api/v1/classes/4a/attempts``."""
        body = {"id": attempt_id, "puzzle": puzzle, "answer": answer, **more}
        return self.call("POST", "/api/v1/classes/4a/attempts", body, token=token)


@contextmanager
def running_service(
    store: ProgressStore, name: str, **options: Any
) -> Iterator[tuple[ClassServer, Api]]:
    """Class ``name`` of ``store`` served on a free port of 127.0.0.1 while the block runs
    (``options`` go to :class:`~dekbovinoj_edu.class_service.state.Service`)."""
    site = options.pop("site", None)
    service = Service(store, name, site=Path(site) if site is not None else None, **options)
    server = ClassServer(service)
    server.start()
    try:
        yield server, Api(server.url)
    finally:
        server.close()
