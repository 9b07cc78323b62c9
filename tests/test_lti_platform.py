"""The tool against an LMS it did not write: PyPI's ``lti1p3platform`` (tests/support/
lti_platform.py) on 127.0.0.1 sends the browser to the class service's ``/lti/login``; the
service redirects to the LMS's authorisation address with its state and nonce; the LMS
answers with its own signed launch, which passes the tool's launch check against the class
database, for a student and a teacher, with people shaped as Canvas's and Moodle's."""

from __future__ import annotations

import time
import urllib.parse
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from support.class_service import Api, running_service
from support.lti_platform import CANVAS, MOODLE, LmsUser, PypiPlatform
from support.puzzles import PETER

from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.store import SQLStore, open_store
from dekbovinoj_edu.lti import LtiError, PlatformKeys, validate_launch
from dekbovinoj_edu.lti.store import LtiStore

COURSE = {"id": "course-3b", "title": "Class 3B mathematics", "label": "3B",
          "link": "link-ten-cows", "link_title": "Ten cows"}  # fmt: skip


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[SQLStore, Api, PypiPlatform]]:
    store = open_store(tmp_path / "classes.sqlite3")
    store.add_class(codes_assignment("4a", PETER.code))
    with running_service(store, "4a") as (server, api):
        platform = PypiPlatform(server.url.rstrip("/"))
        LtiStore(store.database).register(platform.registration(), datetime.now(timezone.utc))
        try:
            yield store, api, platform
        finally:
            platform.close()
    store.close()


def _login_and_launch(
    served: tuple[SQLStore, Api, PypiPlatform], user: LmsUser, hint: str = "link-ten-cows"
) -> dict[str, str]:
    _, api, platform = served
    login = urllib.parse.urlsplit(platform.login_url(user, hint))
    answer = api.call("GET", f"{login.path}?{login.query}")
    assert answer.status == 302, answer.text
    authorization = dict(
        urllib.parse.parse_qsl(urllib.parse.urlsplit(answer.headers["location"]).query)
    )
    assert authorization["lti_message_hint"] == hint
    assert authorization["login_hint"] == user.sub
    return platform.launch(authorization, user, COURSE)


@pytest.mark.parametrize(
    "user",
    [CANVAS["student"], CANVAS["teacher"], MOODLE["student"], MOODLE["teacher"]],
    ids=["canvas-student", "canvas-teacher", "moodle-student", "moodle-teacher"],
)
def test_the_lms_launch_passes_the_tools_check(
    user: LmsUser, served: tuple[SQLStore, Api, PypiPlatform]
) -> None:
    store = served[0]
    form = _login_and_launch(served, user)
    assert form["launch_url"].endswith("/lti/launch")
    lti = LtiStore(store.database)
    launch = validate_launch(
        form, registrations=lti.registrations(), platform_keys=PlatformKeys(),
        logins=lti, nonces=lti, now=time.time(),
    )  # fmt: skip
    assert (launch.subject, launch.name) == (user.sub, user.name)
    assert launch.is_teacher == (user in (CANVAS["teacher"], MOODLE["teacher"]))
    assert (launch.context_id, launch.resource_link_id) == ("course-3b", "link-ten-cows")
    assert launch.resource_link_title == "Ten cows"


def test_the_lms_launch_posted_twice_is_refused(
    served: tuple[SQLStore, Api, PypiPlatform],
) -> None:
    store = served[0]
    form = _login_and_launch(served, CANVAS["student"])
    lti = LtiStore(store.database)
    check = {"registrations": lti.registrations(), "platform_keys": PlatformKeys()}
    validate_launch(form, **check, logins=lti, nonces=lti, now=time.time())
    with pytest.raises(LtiError) as refused:
        validate_launch(form, **check, logins=lti, nonces=lti, now=time.time())
    assert refused.value.code == "nonce-replayed"
