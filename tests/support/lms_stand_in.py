"""A stand-in for a school's LMS in a hub's LTI 1.3 launch (the hub's side is JupyterHub's own
``jupyterhub-ltiauthenticator``): an RSA key of its own, its public keys served as JWKS on
127.0.0.1, the launches it signs, and its authorisation page, which answers the hub's
authentication request as an LMS does: a page whose form posts the signed id_token and the
hub's state back to the hub (``form_post``). The LMS's course pages and sign-in are left out:
every user it is asked about is signed in, with the roles and the course the test gave.

Its address is ``http://localhost:PORT``, another site than the hub's ``127.0.0.1``: a browser
treats the launch as the cross-site navigation it is in a school.
"""

from __future__ import annotations

import html
import json
import threading
import time
import urllib.parse
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa

from dekbovinoj_edu.classroom.roster import Roster
from dekbovinoj_edu.classroom.store.classes import new_class
from dekbovinoj_edu.hub.lti import CONTEXT, ROLES, LtiSignIn

from .hub import RunningHub, left_running, running_hub
from .postgres import PostgresServer
from .puzzles import PETER

__all__ = [
    "CLIENT_ID",
    "DEPLOYMENT",
    "INSTRUCTOR",
    "LEARNER",
    "MATH",
    "Lms",
    "hub_groups",
    "lti_hub",
    "school_lms",
]

CLIENT_ID = "10000000000042"
DEPLOYMENT = "1:deployment-of-the-school"
INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
MATH = {"id": "course-77", "label": "Math 4a", "title": "Mathematics, year 4"}
"""A course of the LMS (its context claim)."""


class Lms:
    """The LMS's part of a launch, on 127.0.0.1 until :meth:`close`. ``users`` maps a login
    hint (the user's e-mail address) to their roles and course, for its authorisation page."""

    def __init__(self) -> None:
        self.key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.kid = uuid.uuid4().hex
        self.users: dict[str, tuple[list[str], dict[str, str]]] = {}
        self.target = "/"
        """The address a launch opens (its ``target_link_uri`` claim)."""
        self.services: dict[str, Any] = {}
        """Claims of the LMS's services a launch carries (grades, roster), when it has them."""
        self.token_url: str | None = None
        """The LMS's token endpoint, as its administrator copies it into the hub."""
        public = json.loads(jwt.algorithms.RSAAlgorithm.to_jwk(self.key.public_key()))
        keys = json.dumps({"keys": [{**public, "kid": self.kid, "alg": "RS256", "use": "sig"}]})
        lms = self

        class Pages(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                where = urllib.parse.urlsplit(self.path)
                if where.path == "/jwks":
                    self._send("application/json", keys)
                elif where.path == "/authorize":
                    query = dict(urllib.parse.parse_qsl(where.query))
                    self._send("text/html; charset=utf-8", lms.answer_page(query))
                else:
                    self.send_error(404)

            def _send(self, kind: str, body: str) -> None:
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.end_headers()
                self.wfile.write(body.encode())

            def log_message(self, *args: Any) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Pages)
        self.url = f"http://localhost:{self.server.server_address[1]}"
        self.issuer = self.url  # an issuer is the platform's address
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def sign_in(self) -> LtiSignIn:
        """The hub's registration, as the LMS's administrator copies it into the hub."""
        return LtiSignIn(
            issuer=self.issuer,
            client_id=CLIENT_ID,
            authorize_url=f"{self.url}/authorize",
            jwks_url=f"{self.url}/jwks",
            token_url=self.token_url,
        )

    def login_start(self, email: str, target: str) -> dict[str, str]:
        """What the LMS sends the hub to start a launch of ``email`` (OIDC third-party
        initiated login), ``target`` the address the launch opens."""
        return {"iss": self.issuer, "login_hint": email, "target_link_uri": target,
                "client_id": CLIENT_ID, "lti_deployment_id": DEPLOYMENT,
                "lti_message_hint": "opaque-hint-42"}  # fmt: skip

    def id_token(
        self, nonce: str, email: str, roles: list[str], course: dict[str, str], key: Any = None
    ) -> str:
        """The launch's id_token for ``email`` (signed with ``key``, by default the LMS's)."""
        now = int(time.time())
        claims = {
            "iss": self.issuer, "aud": CLIENT_ID, "azp": CLIENT_ID,
            "sub": uuid.uuid5(uuid.NAMESPACE_URL, email).hex, "email": email,
            "name": email.split("@")[0].title(), "iat": now, "exp": now + 300, "nonce": nonce,
            "https://purl.imsglobal.org/spec/lti/claim/message_type": "LtiResourceLinkRequest",
            "https://purl.imsglobal.org/spec/lti/claim/version": "1.3.0",
            "https://purl.imsglobal.org/spec/lti/claim/deployment_id": DEPLOYMENT,
            "https://purl.imsglobal.org/spec/lti/claim/target_link_uri": self.target,
            "https://purl.imsglobal.org/spec/lti/claim/resource_link": {"id": "link-1"},
            ROLES: roles, CONTEXT: course, **self.services,
        }  # fmt: skip
        headers = {"kid": self.kid}
        return jwt.encode(claims, key or self.key, algorithm="RS256", headers=headers)

    def answer_page(self, query: dict[str, str]) -> str:
        """The authorisation page's answer to the hub's request ``query``: the signed launch of
        the user ``login_hint`` names, in a form that posts itself to ``redirect_uri``."""
        roles, course = self.users[query["login_hint"]]
        token = self.id_token(query["nonce"], query["login_hint"], roles, course)
        fields = {"id_token": token, "state": query["state"]}
        inputs = "".join(
            f"<input type='hidden' name='{name}' value='{html.escape(value, quote=True)}'>"
            for name, value in fields.items()
        )
        target = html.escape(query["redirect_uri"], quote=True)
        return (
            f"<!DOCTYPE html><html><body><form method='post' action='{target}'>{inputs}</form>"
            "<script>document.forms[0].submit()</script></body></html>"
        )

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@contextmanager
def school_lms() -> Iterator[Lms]:
    """The stand-in LMS with a course (:data:`MATH`): Ana its learner, Tess its instructor."""
    lms = Lms()
    lms.users["ana@skolo.example"] = ([LEARNER], MATH)
    lms.users["tess@skolo.example"] = ([INSTRUCTOR], MATH)
    try:
        yield lms
    finally:
        lms.close()


@contextmanager
def lti_hub(
    postgres: PostgresServer, lms: Lms, roster: Roster | None = None
) -> Iterator[RunningHub]:
    """A real hub whose sign-in is ``lms`` (the fragment ``hub config --lti-…`` prints), its
    class service with class ``m4`` (Peter's puzzle twice; ``roster``: who may join) in a
    database of its own; every process stopped and the database dropped at the end."""
    name = postgres.create_database()
    url = postgres.url(name)
    new_class("m4", codes=f"{PETER.code},{PETER.code}", db=url, roster=roster)
    try:
        with running_hub(url, (), {}, lti=lms.sign_in()) as running:
            yield running
        assert left_running(running) == [], "a process of the hub is still running"
    finally:
        postgres.drop_database(name)


def hub_groups(hub: RunningHub, user: str) -> list[str] | None:
    """The hub groups of ``user``, by name; ``None`` when the hub has no such user."""
    answer = hub.api("GET", f"users/{urllib.parse.quote(user)}")
    if answer.status_code == 404:
        return None
    answer.raise_for_status()
    return sorted(answer.json()["groups"])
