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
import urllib.request
from collections.abc import Callable, Mapping
from typing import Any

from .errors import LtiError
from .registration import check_url

__all__ = ["FETCH_TIMEOUT", "MAX_ANSWER_BYTES", "Http", "lms_json"]

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


def lms_json(
    method: str, url: str, headers: Mapping[str, str], body: bytes | None, *, code: str
) -> Any:
    """The JSON the LMS answers at ``url`` (``None`` for an empty answer, as a score's may
    be); ``LtiError(code)`` for anything else."""
    check_url(url, "the LMS's address")
    request = urllib.request.Request(url, data=body, headers=dict(headers), method=method)
    try:
        with _OPENER.open(request, timeout=FETCH_TIMEOUT) as response:
            raw = response.read(MAX_ANSWER_BYTES + 1)
        if len(raw) > MAX_ANSWER_BYTES:
            raise ValueError("the answer is too large")
        return json.loads(raw) if raw.strip() else None
    except (OSError, ValueError) as error:
        raise LtiError(code, f"The LMS at {url}: {error}") from None
