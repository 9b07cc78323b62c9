"""Deep Linking through a real class service (``class_service/lti_deep_link.py``): a teacher's
deep linking launch shows the class form's fields (no roster) inside the LMS's frame; the set
they pick comes back to the LMS as one signed resource link whose custom parameters carry it
and whose line item is out of the set's most points, with the request's data echoed; the
link's first launch makes that class. A set the form refuses is said on the form, filled in
again; a learner, a request without settings, and a form sent twice are refused. PyPI's
``lti1p3platform`` checks the answer as an LMS does."""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import jwt
import pytest
from support.class_service import Answer, Api, running_service
from support.lti_hostile import INSTRUCTOR
from support.lti_launching import FORM, LMS, HostileCourse, hostile_course, launch, ticket_of
from support.lti_platform import CANVAS, PypiPlatform
from support.puzzles import PETER

from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.store import open_store
from dekbovinoj_edu.cli.class_form import make_from_form
from dekbovinoj_edu.lti import claims as c
from dekbovinoj_edu.lti.deep_linking import CONTENT_ITEMS, DATA, DEEP_LINKING_RESPONSE
from dekbovinoj_edu.lti.store import LtiStore

RETURN = "https://school.instructure.com/courses/4/deep_linking_response"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[HostileCourse]:
    with hostile_course(tmp_path) as course:
        yield course


def deep_linking(settings: dict[str, Any] | None = None) -> dict[str, Any]:
    """A deep linking request's claims (Canvas's shape): no resource link, its settings."""
    found: dict[str, Any] = {
        c.MESSAGE_TYPE: c.DEEP_LINKING_REQUEST,
        c.RESOURCE_LINK: None,
        c.AGS_ENDPOINT: None,
    }
    found[c.DEEP_LINKING_SETTINGS] = (
        settings
        if settings is not None
        else {
            "deep_link_return_url": RETURN,
            "accept_types": ["ltiResourceLink"],
            "accept_presentation_document_targets": ["iframe", "window"],
            "accept_multiple": False,
            "data": "canvas-opaque-42",
        }
    )
    return found


def pick(api: Api, page: Answer, fields: dict[str, str]) -> Answer:
    body = urllib.parse.urlencode({**fields, "ticket": ticket_of(page)}).encode()
    return api.call("POST", "/lti/deep-link", raw=body, headers=FORM)


def answer_token(page: Answer) -> str:
    found = re.search(r"name='JWT' value='([^']+)'", page.text)
    assert found is not None, page.text
    return found.group(1)


def tool_claims(api: Api, token: str) -> dict[str, Any]:
    """The answer's claims, checked with the tool's published keys (as the LMS does)."""
    keys = api.call("GET", "/lti/jwks").document["keys"]
    kid = jwt.get_unverified_header(token)["kid"]
    (key,) = [jwt.algorithms.RSAAlgorithm.from_jwk(k) for k in keys if k["kid"] == kid]
    decoded: dict[str, Any] = jwt.decode(
        token,
        key,
        algorithms=["RS256"],
        options={"verify_aud": False},  # type: ignore[arg-type]
    )
    return decoded


def test_a_teacher_picks_a_set_and_the_lms_gets_one_link_carrying_it(
    served: HostileCourse,
) -> None:
    store, api, platform = served
    form = launch(api, platform, roles=(INSTRUCTOR,), change=deep_linking())
    assert form.status == 200, form.text
    assert f"frame-ancestors {LMS}" in form.headers["content-security-policy"]
    assert "name='level'" in form.text and "name='count'" in form.text
    assert "name='roster'" not in form.text  # the LMS's course is who joins
    sent = pick(api, form, {"name": "Ten cows", "level": "1", "count": "4", "mode": "practice"})
    assert sent.status == 200, sent.text
    assert f"action='{RETURN}'" in sent.text
    assert "form-action https://school.instructure.com" in sent.headers["content-security-policy"]
    claims = tool_claims(api, answer_token(sent))
    assert (claims["iss"], claims["aud"]) == (platform.registration().client_id, platform.issuer)
    assert claims[c.MESSAGE_TYPE] == DEEP_LINKING_RESPONSE and claims[DATA] == "canvas-opaque-42"
    assert claims[c.DEPLOYMENT_ID] == platform.registration().deployment_ids[0]
    (item,) = claims[CONTENT_ITEMS]
    assert item["type"] == "ltiResourceLink" and item["title"] == "Ten cows"
    assert item["custom"] == {"dkb_level": "1", "dkb_count": "4", "dkb_mode": "practice"}
    assert item["lineItem"]["scoreMaximum"] == 8  # 2 points a puzzle
    assert pick(api, form, {"name": "Again", "count": "4"}).status == 410  # the form works once

    link = {"id": "link-from-deep-linking", "title": item["title"]}
    student = launch(api, platform, change={c.CUSTOM: item["custom"], c.RESOURCE_LINK: link})
    assert student.status == 200, student.text
    made = next(a for a in store.classes() if a.name == "Class 3B mathematics · Ten cows")
    assert made.size == 4


def test_a_set_the_form_refuses_is_said_on_the_form_filled_in_again(
    served: HostileCourse,
) -> None:
    _, api, platform = served
    form = launch(api, platform, roles=(INSTRUCTOR,), change=deep_linking())
    refused = pick(api, form, {"name": "Too many", "count": "500"})
    assert refused.status == 400 and "role='alert'" in refused.text
    assert "count=500" in refused.text  # put back into the form
    fixed = pick(api, refused, {"name": "Enough", "count": "5"})
    assert fixed.status == 200 and "name='JWT'" in fixed.text


@pytest.mark.parametrize(
    ("roles", "settings", "status", "code"),
    [
        (("http://purl.imsglobal.org/vocab/lis/v2/membership#Learner",), None, 400,
         "wrong-message-type"),
        ((INSTRUCTOR,), {"accept_types": ["ltiResourceLink"]}, 400, "no-deep-link-settings"),
        ((INSTRUCTOR,), {"deep_link_return_url": "http://lms.example/return"}, 400,
         "no-deep-link-settings"),
        ((INSTRUCTOR,), {"deep_link_return_url": RETURN, "accept_types": ["file"]}, 400,
         "wrong-message-type"),
    ],
)  # fmt: skip
def test_a_request_that_cannot_be_answered_is_refused(
    roles: tuple[str, ...],
    settings: dict[str, Any] | None,
    status: int,
    code: str,
    served: HostileCourse,
) -> None:
    _, api, platform = served
    refused = launch(api, platform, roles=roles, change=deep_linking(settings))
    assert refused.status == status and f"Code: {code}" in refused.text


def test_pypis_lms_takes_the_answer(tmp_path: Path) -> None:
    store = open_store(tmp_path / "classes.sqlite3")
    store.add_class(codes_assignment("4a", PETER.code))
    with running_service(store, "4a", class_maker=make_from_form) as (server, api):
        platform = PypiPlatform(server.url.rstrip("/"))
        try:
            LtiStore(store.database).register(platform.registration(), datetime.now(timezone.utc))
            teacher = CANVAS["teacher"]
            login = urllib.parse.urlsplit(platform.login_url(teacher, "dl"))
            location = api.call("GET", f"{login.path}?{login.query}").headers["location"]
            authorization = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))
            course = {"id": "course-3b", "title": "Class 3B mathematics"}
            posted = platform.deep_linking_launch(authorization, teacher, course, {"a": 1})
            body = urllib.parse.urlencode(
                {"id_token": posted["id_token"], "state": posted["state"]}
            ).encode()
            form = api.call("POST", "/lti/launch", raw=body, headers=FORM)
            assert form.status == 200, form.text
            sent = pick(api, form, {"name": "Ten cows", "count": "3", "level": "2"})
            (item,) = platform.content_items(answer_token(sent))
            assert item["custom"]["dkb_count"] == "3" and item["lineItem"]["scoreMaximum"] == 6
            assert tool_claims(api, answer_token(sent))[DATA] == {"a": 1}
        finally:
            platform.close()
    store.close()
