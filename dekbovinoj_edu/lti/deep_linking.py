"""Deep Linking 2.0: a teacher in the LMS picks a puzzle set, and the tool answers with one
resource link that carries it (1EdTech LTI Deep Linking 2.0).

:func:`request_of` reads a deep linking request's settings (where to answer, the opaque
``data`` to echo, whether a link is accepted); :func:`resource_link` is the content item of a
puzzle set (its custom parameters from :mod:`.puzzle_set`, its line item's maximum the set's
most points: :func:`~dekbovinoj_edu.classroom.grades.maximum`); :func:`response_claims` is
the ``LtiDeepLinkingResponse`` the tool signs with its current key and the browser posts back to
the LMS (``JWT``): ``iss`` the tool's client id, ``aud`` the platform's issuer, the request's
deployment and data, a nonce of its own.

>>> item = resource_link("Ten cows", "https://class.example/lti/launch", {"level": "2"}, 20)
>>> item["type"], item["custom"], item["lineItem"]["scoreMaximum"]
('ltiResourceLink', {'dkb_level': '2'}, 20)
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from . import claims as c
from .errors import LtiError
from .registration import Registration, check_url

__all__ = [
    "CONTENT_ITEMS",
    "DATA",
    "DEEP_LINKING_RESPONSE",
    "RESPONSE_SECONDS",
    "DeepLinkRequest",
    "request_of",
    "resource_link",
    "response_claims",
]

CONTENT_ITEMS = "https://purl.imsglobal.org/spec/lti-dl/claim/content_items"
DATA = "https://purl.imsglobal.org/spec/lti-dl/claim/data"
DEEP_LINKING_RESPONSE = "LtiDeepLinkingResponse"
RESPONSE_SECONDS = 600
"""How long the signed answer is good for (the teacher's browser posts it at once)."""
LTI_RESOURCE_LINK = "ltiResourceLink"


@dataclass(frozen=True)
class DeepLinkRequest:
    """What a deep linking request asks: where to answer, and what to echo."""

    issuer: str
    client_id: str
    deployment_id: str
    return_url: str
    data: Any
    """The request's ``data``, echoed as it came (a text, as the spec has it; an object, as
    some platforms send it); ``None``: none."""
    title: str
    """The title the LMS suggests for the item ("" when none)."""


def request_of(launch: Any) -> DeepLinkRequest:
    """The settings of a deep linking request (:class:`~.launch.Launch`): refused
    ``no-deep-link-settings`` without a return address, ``wrong-message-type`` when the LMS
    takes no resource link."""
    settings = launch.claims.get(c.DEEP_LINKING_SETTINGS)
    if not isinstance(settings, Mapping):
        raise LtiError("no-deep-link-settings", "The request has no deep linking settings.")
    url = settings.get("deep_link_return_url")
    if not isinstance(url, str) or not url:
        raise LtiError("no-deep-link-settings", "The request names no return address.")
    try:
        check_url(url, "deep_link_return_url")
    except LtiError:
        raise LtiError("no-deep-link-settings", "The return address is not https.") from None
    accepted = settings.get("accept_types", [LTI_RESOURCE_LINK])
    if not isinstance(accepted, list) or LTI_RESOURCE_LINK not in accepted:
        raise LtiError("wrong-message-type", "The LMS takes no resource link here.")
    data = settings.get("data")
    title = settings.get("title")
    registration: Registration = launch.registration
    return DeepLinkRequest(
        registration.issuer,
        registration.client_id,
        launch.deployment_id,
        url,
        data,
        title if isinstance(title, str) else "",
    )


def resource_link(title: str, url: str, fields: Mapping[str, object], most: int) -> dict[str, Any]:
    """The content item of a puzzle set: a resource link to the tool at ``url`` whose custom
    parameters carry ``fields`` and whose line item (the gradebook's column) is out of
    ``most`` points."""
    from .puzzle_set import custom_from_fields

    return {
        "type": LTI_RESOURCE_LINK,
        "title": title,
        "url": url,
        "custom": custom_from_fields(fields),
        "lineItem": {"scoreMaximum": most, "label": title},
    }


def response_claims(
    request: DeepLinkRequest, items: list[dict[str, Any]], *, now: float
) -> dict[str, Any]:
    """The claims of the ``LtiDeepLinkingResponse`` carrying ``items`` (to be signed by the
    tool's current key)."""
    claims: dict[str, Any] = {
        "iss": request.client_id,
        "aud": request.issuer,
        "iat": int(now),
        "exp": int(now) + RESPONSE_SECONDS,
        "nonce": secrets.token_urlsafe(16),
        c.MESSAGE_TYPE: DEEP_LINKING_RESPONSE,
        c.VERSION: c.LTI_VERSION,
        c.DEPLOYMENT_ID: request.deployment_id,
        CONTENT_ITEMS: items,
    }
    if request.data is not None:
        claims[DATA] = request.data
    return claims
