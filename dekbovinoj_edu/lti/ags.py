"""Assignment and Grade Services 2.0: the tool's scores in the LMS's gradebook.

A score is posted to the line item's ``/scores`` (the line item's address with ``/scores``
after its path, its query kept: Moodle's carry one) as
``application/vnd.ims.lis.v1.score+json``; a post replaces the student's previous score, so
sending one again never counts it twice. ``gradingProgress`` is ``FullyGraded`` (Canvas shows no
score otherwise), ``activityProgress`` ``InProgress`` until the student has ended every puzzle
or the class ended, then ``Completed``. When the link has no line item of its own, the tool
makes one in the course's line items (:func:`create_lineitem`).

>>> scores_url("https://moodle.example/mod/lti/services.php/2/lineitems/7/lineitem?type_id=3")
'https://moodle.example/mod/lti/services.php/2/lineitems/7/lineitem/scores?type_id=3'
>>> score_body("u-1", 6, 8, "InProgress", now=0.0)["timestamp"]
'1970-01-01T00:00:00+00:00'
"""

from __future__ import annotations

import json
import urllib.parse
from datetime import datetime, timezone
from typing import Any

from .errors import LtiError
from .lms_http import Http, lms_json

__all__ = [
    "COMPLETED",
    "FULLY_GRADED",
    "IN_PROGRESS",
    "create_lineitem",
    "post_score",
    "score_body",
    "scores_url",
]

IN_PROGRESS = "InProgress"
COMPLETED = "Completed"
FULLY_GRADED = "FullyGraded"
SCORE_TYPE = "application/vnd.ims.lis.v1.score+json"
LINEITEM_TYPE = "application/vnd.ims.lis.v2.lineitem+json"


def _http(method: str, url: str, headers: Any, body: bytes | None) -> Any:
    return lms_json(method, url, headers, body, code="lms-unavailable")


def scores_url(lineitem: str) -> str:
    """Where the scores of ``lineitem`` are posted."""
    parts = urllib.parse.urlsplit(lineitem)
    return urllib.parse.urlunsplit(parts._replace(path=parts.path.rstrip("/") + "/scores"))


def score_body(
    user: str, given: float, most: float, activity: str, *, now: float
) -> dict[str, Any]:
    """The score of ``user`` (the LMS's ``sub``): ``given`` of ``most``, fully graded."""
    return {
        "userId": user,
        "scoreGiven": given,
        "scoreMaximum": most,
        "activityProgress": activity,
        "gradingProgress": FULLY_GRADED,
        "timestamp": datetime.fromtimestamp(now, timezone.utc).isoformat(),
    }


def post_score(lineitem: str, token: str, body: dict[str, Any], *, http: Http = _http) -> None:
    """Post ``body`` (:func:`score_body`) to ``lineitem``'s scores with the access ``token``."""
    headers = {"Authorization": f"Bearer {token}", "Content-Type": SCORE_TYPE}
    http("POST", scores_url(lineitem), headers, json.dumps(body).encode())


def create_lineitem(
    lineitems: str, token: str, label: str, most: float, link_id: str, *, http: Http = _http
) -> str:
    """Make the gradebook's column for the resource link ``link_id`` in the course's
    ``lineitems``, out of ``most``; its address."""
    headers = {
        "Authorization": f"Bearer {token}",
        "Content-Type": LINEITEM_TYPE,
        "Accept": LINEITEM_TYPE,
    }
    body = {"label": label, "scoreMaximum": most, "resourceLinkId": link_id}
    made = http("POST", lineitems, headers, json.dumps(body).encode())
    if not isinstance(made, dict) or not isinstance(made.get("id"), str):
        raise LtiError("lms-unavailable", "The LMS made no line item.")
    return str(made["id"])
