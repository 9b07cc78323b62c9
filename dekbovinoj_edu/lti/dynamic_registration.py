"""LTI Dynamic Registration 1.0: the LMS's administrator pastes one address (``/lti/register``)
and the tool registers itself.

The LMS opens that address with ``openid_configuration`` (where its OpenID configuration is)
and maybe ``registration_token``. The tool then:

1. fetches the configuration (the token as a bearer token), and checks that its ``issuer`` is
   the start of the configuration's address, on the same host, and that it names every
   endpoint the tool needs (https, or http to this machine: :func:`~.registration.check_url`);
2. posts its own client registration (:func:`tool_registration`: the login, launch and keys
   addresses, the messages it takes and the scopes it will ask for) to the LMS's
   ``registration_endpoint``;
3. keeps the answer's ``client_id`` and deployment id as a :class:`~.registration.Registration`.

Every failure is an :class:`~.errors.LtiError` (``registration-refused``).

>>> body = tool_registration("https://class.school.example")
>>> body["initiate_login_uri"], body["redirect_uris"], body["jwks_uri"]
('https://class.school.example/lti/login', ['https://class.school.example/lti/launch'], 'https://class.school.example/lti/jwks')
>>> [m["type"] for m in body[TOOL_CONFIGURATION]["messages"]]
['LtiResourceLinkRequest', 'LtiDeepLinkingRequest']
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from . import claims as c
from .addresses import tool_urls
from .errors import LtiError
from .lms_http import Http, lms_json
from .registration import Registration, check_url

__all__ = [
    "CLIENT_NAME",
    "SCOPES",
    "TOOL_CONFIGURATION",
    "Http",
    "http_json",
    "register",
    "tool_registration",
]

TOOL_CONFIGURATION = "https://purl.imsglobal.org/spec/lti-tool-configuration"
"""The member of a client registration that holds the LTI part."""
CLIENT_NAME = "Dek Bovinoj"
"""The tool's name in the LMS."""
SCOPES = (
    "https://purl.imsglobal.org/spec/lti-ags/scope/lineitem",
    "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly",
    "https://purl.imsglobal.org/spec/lti-ags/scope/score",
    "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly",
)
"""The scopes the tool asks for: the gradebook's line items and scores, and the roster."""


def http_json(method: str, url: str, headers: Mapping[str, str], body: bytes | None) -> Any:
    """The JSON an LMS answers (:func:`~.lms_http.lms_json`), a failure
    ``registration-refused``."""
    return lms_json(method, url, headers, body, code="registration-refused")


def tool_registration(tool_url: str) -> dict[str, Any]:
    """The tool's client registration (OpenID Connect Dynamic Client Registration with
    LTI's part) for the class service at ``tool_url``."""
    urls = tool_urls(tool_url)
    return {
        "application_type": "web",
        "response_types": ["id_token"],
        "grant_types": ["implicit", "client_credentials"],
        "initiate_login_uri": urls["login"],
        "redirect_uris": [urls["launch"]],
        "client_name": CLIENT_NAME,
        "jwks_uri": urls["jwks"],
        "token_endpoint_auth_method": "private_key_jwt",
        "scope": " ".join(SCOPES),
        TOOL_CONFIGURATION: {
            "domain": urlsplit(tool_url).netloc,
            "target_link_uri": urls["launch"],
            "claims": ["iss", "sub", "name", "given_name", "family_name"],
            "messages": [
                {"type": c.RESOURCE_LINK_REQUEST},
                {"type": c.DEEP_LINKING_REQUEST, "label": CLIENT_NAME},
            ],
        },
    }


def _text(document: Mapping[str, Any], name: str) -> str:
    value = document.get(name)
    if not isinstance(value, str) or not value:
        raise LtiError("registration-refused", f"The LMS's answer has no {name}.")
    return value


def register(
    openid_configuration: str,
    registration_token: str | None,
    tool_url: str,
    *,
    http: Http = http_json,
) -> Registration:
    """Register the tool at ``tool_url`` with the LMS whose configuration is at
    ``openid_configuration``: the registration to keep (see the module's steps)."""
    check_url(openid_configuration, "openid_configuration")
    bearer = {"Authorization": f"Bearer {registration_token}"} if registration_token else {}
    config = http("GET", openid_configuration, {"Accept": "application/json", **bearer}, None)
    if not isinstance(config, dict):
        raise LtiError("registration-refused", "The LMS's configuration is not a JSON object.")
    issuer = _text(config, "issuer")
    same_host = urlsplit(issuer).netloc == urlsplit(openid_configuration).netloc
    if not same_host or not openid_configuration.startswith(issuer.rstrip("/")):
        raise LtiError("registration-refused", f"The issuer {issuer!r} is not the LMS's address.")
    endpoint = check_url(_text(config, "registration_endpoint"), "registration_endpoint")
    auth_url = _text(config, "authorization_endpoint")
    token_url = _text(config, "token_endpoint")
    jwks_url = _text(config, "jwks_uri")
    body = json.dumps(tool_registration(tool_url)).encode()
    headers = {"Content-Type": "application/json", "Accept": "application/json", **bearer}
    answer = http("POST", endpoint, headers, body)
    if not isinstance(answer, dict):
        raise LtiError("registration-refused", "The LMS's registration is not a JSON object.")
    lti_part = answer.get(TOOL_CONFIGURATION)
    deployment = lti_part.get("deployment_id") if isinstance(lti_part, dict) else None
    if not isinstance(deployment, str) or not deployment:
        raise LtiError("registration-refused", "The LMS's registration has no deployment id.")
    try:
        return Registration(
            issuer, _text(answer, "client_id"), (deployment,), auth_url, token_url, jwks_url
        )
    except LtiError as error:
        raise LtiError("registration-refused", str(error)) from None
