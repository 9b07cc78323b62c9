"""How the tool talks to an LMS's services: JSON over https (or http to this machine, as tests
do), bounded in time and size, never following a redirect; every failure one
:class:`~.errors.LtiError` with the caller's code (the LMS's answer, a refused connection, a
timeout, too large an answer, or no JSON).

>>> lms_json("GET", "http://lms.example/x", {}, None, code="lms-unavailable")
Traceback (most recent call last):
...
dekbovinoj_edu.lti.errors.LtiError: the LMS's address must be https: 'http://lms.example/x'
"""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable, Mapping
from typing import Any

from .errors import LtiError
from .registration import check_url

__all__ = ["FETCH_TIMEOUT", "MAX_ANSWER_BYTES", "Http", "lms_json", "lms_page", "next_link"]

FETCH_TIMEOUT = 5.0
"""The longest the tool waits for an LMS's answer, in seconds."""
MAX_ANSWER_BYTES = 1_000_000
"""The largest answer read from an LMS."""

Http = Callable[[str, str, Mapping[str, str], bytes | None], Any]
"""``(method, url, headers, body) -> JSON``: how the tool talks to the LMS (tests give theirs)."""


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: Any, **kwargs: Any) -> None:
        return None


_OPENER = urllib.request.build_opener(_NoRedirect)


def _fetch(
    method: str, url: str, headers: Mapping[str, str], body: bytes | None, code: str
) -> tuple[Any, Mapping[str, str]]:
    check_url(url, "the LMS's address")
    request = urllib.request.Request(url, data=body, headers=dict(headers), method=method)
    try:
        with _OPENER.open(request, timeout=FETCH_TIMEOUT) as response:
            raw = response.read(MAX_ANSWER_BYTES + 1)
            answered = dict(response.headers.items())
        if len(raw) > MAX_ANSWER_BYTES:
            raise ValueError("the answer is too large")
        return (json.loads(raw) if raw.strip() else None), answered
    except (OSError, ValueError) as error:
        raise LtiError(code, f"The LMS at {url}: {error}") from None


def lms_json(
    method: str, url: str, headers: Mapping[str, str], body: bytes | None, *, code: str
) -> Any:
    """The JSON the LMS answers at ``url`` (``None`` for an empty answer, as a score's may
    be); ``LtiError(code)`` for anything else."""
    return _fetch(method, url, headers, body, code)[0]


def lms_page(url: str, headers: Mapping[str, str], *, code: str) -> tuple[Any, str | None]:
    """The JSON of one page the LMS answers at ``url``, and the next page's address (its
    ``Link: <…>; rel="next"`` header), ``None`` on the last page.

    >>> next_link('<https://lms.example/m?p=2>; rel="next", <https://lms.example/m>; rel="first"')
    'https://lms.example/m?p=2'
    """
    found, answered = _fetch("GET", url, headers, None, code)
    link = next((v for k, v in answered.items() if k.lower() == "link"), "")
    return found, next_link(link)


def next_link(header: str) -> str | None:
    """The ``rel="next"`` address of a ``Link`` header, if it names one."""
    for part in header.split(","):
        address, _, params = part.partition(";")
        if re.search(r'rel\s*=\s*"?next"?', params) and address.strip().startswith("<"):
            return address.strip()[1:-1]
    return None
