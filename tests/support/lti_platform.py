"""An LMS for the tests built on PyPI's ``lti1p3platform`` (pinned in the ``test`` extra): its
own registration of the tool, its RSA key and JWKS served on 127.0.0.1, its OIDC login
request and its signed launch, built by its own code, not ours.

Its launches carry claims shaped as Canvas and Moodle document theirs (see :data:`CANVAS` and
:data:`MOODLE`): names, roles, a course (context) and a resource link.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from lti1p3platform.ltiplatform import LTI1P3PlatformConfAbstract
from lti1p3platform.message_launch import (
    LTIAdvantageMessageLaunchAbstract,
    MessageLaunchAbstract,
)
from lti1p3platform.oidc_login import OIDCLoginAbstract
from lti1p3platform.registration import Registration as PlatformRegistration
from lti1p3platform.request import Request

from dekbovinoj_edu.lti import Registration

__all__ = ["CANVAS", "MOODLE", "LmsUser", "PypiPlatform"]

INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
STUDENT = "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Student"


@dataclass(frozen=True)
class LmsUser:
    """A person of the LMS, as its launch names them."""

    sub: str
    name: str
    roles: tuple[str, ...]


CANVAS = {
    "student": LmsUser("535fa085f22b4655f48cd5a36a9215f64c062838", "Astrid Lindqvist",
                       (LEARNER, STUDENT)),
    "teacher": LmsUser("86157096483e6b3a50bfedc6bac902c0b20a824f", "Karin Berg",
                       (INSTRUCTOR, "http://purl.imsglobal.org/vocab/lis/v2/institution/person#Instructor")),
}  # fmt: skip
"""People as Canvas launches them: a 40-hex ``sub``, membership and institution roles."""

MOODLE = {
    "student": LmsUser("7", "Ana Ferreira", (LEARNER,)),
    "teacher": LmsUser("3", "Lars Holm", (INSTRUCTOR,)),
}
"""People as Moodle launches them: its user id as ``sub``, membership roles only."""


class _Request(Request):
    def build_metadata(self, request: Any) -> Any:
        return {"method": "GET", "form_data": {}, "get_data": dict(request), "headers": {},
                "content_type": None, "path": "/authorize", "json": None}  # fmt: skip


class _Config(LTI1P3PlatformConfAbstract):
    def init_platform_config(self, **kwargs: Any) -> None:
        self.registration: PlatformRegistration = kwargs["registration"]

    def get_registration_by_params(self, **kwargs: Any) -> PlatformRegistration:
        return self.registration


class _Login(OIDCLoginAbstract):
    def set_lti_message_hint(self, **kwargs: Any) -> None:
        self._lti_message_hint = kwargs["hint"]

    def get_redirect(self, url: str) -> str:
        return url


class _Launch(MessageLaunchAbstract):
    def render_launch_form(self, launch_data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return launch_data


class _AdvantageLaunch(LTIAdvantageMessageLaunchAbstract):
    def render_launch_form(self, launch_data: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        return launch_data


class PypiPlatform:
    """``lti1p3platform``'s platform on 127.0.0.1, registered for the tool at ``tool_url``."""

    def __init__(
        self, tool_url: str, *, client_id: str = "pypi-tool", deployment: str = "1"
    ) -> None:
        key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        pem, pkcs8 = serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8
        private = key.private_bytes(pem, pkcs8, serialization.NoEncryption()).decode()
        spki = serialization.PublicFormat.SubjectPublicKeyInfo
        public = key.public_key().public_bytes(pem, spki).decode()
        self.platform_registration = (
            PlatformRegistration()
            .set_client_id(client_id)
            .set_deployment_id(deployment)
            .set_launch_url(f"{tool_url}/lti/launch")
            .set_deeplink_launch_url(f"{tool_url}/lti/launch")
            .set_oidc_login_url(f"{tool_url}/lti/login")
            .set_platform_public_key(public)
            .set_platform_private_key(private)
            .set_tool_key_set_url(f"{tool_url}/lti/jwks")
        )
        self.config = _Config(registration=self.platform_registration)
        self.config.get_registration()
        self.keys = json.dumps(self.config.get_jwks()).encode()
        platform = self

        class Pages(BaseHTTPRequestHandler):
            def _answer(self, method: str) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                status, kind, sent = platform.answer(method, self.path, dict(self.headers), body)
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(sent)))
                self.end_headers()
                self.wfile.write(sent)

            def do_GET(self) -> None:
                self._answer("GET")

            def do_POST(self) -> None:
                self._answer("POST")

            def log_message(self, *args: Any) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Pages)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.platform_registration.set_iss(self.url)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def answer(
        self, method: str, path: str, headers: dict[str, str], body: bytes
    ) -> tuple[int, str, bytes]:
        """The LMS's answer to a request from the tool: its keys (any other address too)."""
        return 200, "application/json", self.keys

    def registration(self) -> Registration:
        """The tool's registration of this platform, as its administrator would type it."""
        return Registration(
            issuer=self.url,
            client_id=self.platform_registration.get_client_id(),
            deployment_ids=(self.platform_registration.get_deployment_id(),),
            auth_url=f"{self.url}/authorize",
            token_url=f"{self.url}/token",
            jwks_url=f"{self.url}/jwks",
        )

    def login_url(self, user: LmsUser, message_hint: str) -> str:
        """The address the LMS sends the browser to: the tool's login, its hints attached."""
        login = _Login(_Request({}), self.config)
        login.set_lti_message_hint(hint=message_hint)
        return str(login.prepare_preflight_url(user.sub))

    def launch(
        self, authorization: Mapping[str, str], user: LmsUser, course: Mapping[str, str]
    ) -> dict[str, str]:
        """The LMS's answer to the tool's authorisation request: the form to post
        (``id_token``, ``state``) and where (``launch_url``)."""
        message = _Launch(_Request(authorization), self.config)
        message.set_user_data(user.sub, list(user.roles), full_name=user.name)
        message.set_resource_link_claim(course["link"], title=course.get("link_title"))
        message.set_launch_context_claim(course["id"], context_title=course.get("title"),
                                         context_label=course.get("label"))  # fmt: skip
        return dict(message.lti_launch())

    def deep_linking_launch(
        self,
        authorization: Mapping[str, str],
        user: LmsUser,
        course: Mapping[str, str],
        data: Any,
    ) -> dict[str, str]:
        """The LMS's deep linking request (a teacher adding the tool to ``course``): the form
        to post, its answer to come back to the LMS's own address with ``data``."""
        message = _AdvantageLaunch(_Request(authorization), self.config)
        message.set_user_data(user.sub, list(user.roles), full_name=user.name)
        message.set_launch_context_claim(course["id"], context_title=course.get("title"))
        message.set_dl(f"{self.url}/deep_link_return", title="Ten cows", extra_data=data)
        return dict(message.lti_launch())

    def content_items(self, token: str) -> list[dict[str, Any]]:
        """The content items of the tool's deep linking answer, as ``lti1p3platform`` checks
        it (the tool's signature against its JWKS, the message type)."""
        return list(self.config.validate_deeplinking_resp({"JWT": token}))

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
