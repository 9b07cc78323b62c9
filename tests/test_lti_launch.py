"""A school's LMS opens the class of a course's link, against a real class service on 127.0.0.1
(``class_service/lti_launch.py``): the teacher's first launch makes the class and its button
signs that teacher in to that class only; a student who comes first is told to wait, one who
comes after is seated under their LMS name with a code only the launch knows; a link's puzzle
set makes its class; the buttons work once; the page may be framed by the LMS; a restarted
service still serves the course's class. Launches are signed by the hostile platform
(tests/support/lti_hostile.py) for a login the service began."""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from support.class_service import Api, running_service
from support.lti_hostile import INSTRUCTOR, HostilePlatform, hostile_platform
from support.lti_launching import launch, press
from support.puzzles import PETER

from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.store import SQLStore, open_store
from dekbovinoj_edu.cli.class_form import make_from_form
from dekbovinoj_edu.i18n import gettext
from dekbovinoj_edu.lti import claims as c
from dekbovinoj_edu.lti.courses import CourseStore
from dekbovinoj_edu.lti.pages import DOMAIN, SENTENCES
from dekbovinoj_edu.lti.puzzle_set import custom_from_fields
from dekbovinoj_edu.lti.store import LtiStore

CLASS = "Class 3B mathematics · Ten cows"


@pytest.fixture
def platform() -> Iterator[HostilePlatform]:
    with hostile_platform() as running:
        yield running


@pytest.fixture
def store(tmp_path: Path, platform: HostilePlatform) -> Iterator[SQLStore]:
    opened = open_store(tmp_path / "classes.sqlite3")
    opened.add_class(codes_assignment("4a", PETER.code))
    LtiStore(opened.database).register(platform.registration(), datetime.now(timezone.utc))
    yield opened
    opened.close()


@pytest.fixture
def api(store: SQLStore) -> Iterator[Api]:
    with running_service(store, "4a", class_maker=make_from_form) as (_, running):
        yield running


def test_the_teachers_first_launch_makes_the_class_and_signs_in_to_it_only(
    api: Api, store: SQLStore, platform: HostilePlatform
) -> None:
    page = launch(api, platform, roles=(INSTRUCTOR,))
    assert page.status == 200, page.text
    assert (
        "frame-ancestors https://school.instructure.com" in page.headers["content-security-policy"]
    )
    assert "x-frame-options" not in page.headers
    assert "target=_blank" in page.text and "/lti/teacher" in page.text
    assert CLASS in [a.name for a in store.classes()]
    (link,) = CourseStore(store.database).links(CLASS)
    assert link.lineitems == f"{platform.url}/api/lti/courses/1/line_items"
    dashboard = f"/teacher/classes/{urllib.parse.quote(CLASS, safe='')}/"
    assert api.call("GET", dashboard).status == 404  # not signed in
    signed = press(api, page, "/lti/teacher")
    assert signed.status == 303 and signed.headers["location"] == dashboard
    cookie = signed.headers["set-cookie"]
    assert "HttpOnly" in cookie and f"Path={dashboard}" in cookie and "SameSite=Lax" in cookie
    jar = {"Cookie": cookie.split(";")[0]}
    assert api.call("GET", dashboard, headers=jar).status == 200
    assert api.call("GET", dashboard + "board", headers=jar).status == 200
    assert api.call("GET", "/teacher/classes/4a/", headers=jar).status == 404  # not their class
    again = press(api, page, "/lti/teacher", **{"Accept-Language": "sv"})
    assert again.status == 410 and gettext("sv", DOMAIN, SENTENCES[410]) in again.text
    second = launch(api, platform, roles=(INSTRUCTOR,))  # the same link: the same class
    assert second.status == 200 and len([a for a in store.classes() if a.name == CLASS]) == 1


def test_a_student_before_the_teacher_is_told_to_wait(api: Api, platform: HostilePlatform) -> None:
    page = launch(api, platform, headers={"Accept-Language": "sv"})
    assert page.status == 409
    assert gettext("sv", DOMAIN, SENTENCES[409]) in page.text and "not-opened-yet" in page.text
    assert (
        "frame-ancestors https://school.instructure.com" in page.headers["content-security-policy"]
    )


def test_a_student_is_seated_under_their_name_with_a_code_only_the_launch_knows(
    api: Api, store: SQLStore, platform: HostilePlatform
) -> None:
    launch(api, platform, roles=(INSTRUCTOR,))
    page = launch(api, platform)
    assert page.status == 200 and "/lti/start" in page.text
    opened = press(api, page, "/lti/start")
    assert opened.status == 200
    nickname = re.search(r"Your name in the class: ([^<]+)<", opened.text)
    code = re.search(r"Your code: ([A-Z0-9-]+)<", opened.text)
    assert nickname is not None and code is not None
    assert nickname.group(1) == "Astrid Lindqvist"
    path = f"/api/v1/classes/{urllib.parse.quote(CLASS, safe='')}/join"
    joined = api.call("POST", path, {"nickname": "Astrid Lindqvist", "rejoin_code": code.group(1)})
    assert joined.status == 200, joined.text
    assert joined.document["seat"]["nickname"] == "Astrid Lindqvist"
    typed = api.call("POST", path, {"nickname": "astrid lindqvist"})
    assert typed.status == 409 and typed.code == "nickname-taken"
    stranger = api.call("POST", path, {"nickname": "Bo"})  # not from the LMS: no seat
    assert stranger.status == 403 and stranger.code == "not-on-roster"
    assert press(api, page, "/lti/start").status == 410


def test_the_links_puzzle_set_makes_its_class_even_for_a_student(
    api: Api, store: SQLStore, platform: HostilePlatform
) -> None:
    custom = custom_from_fields({"level": "1", "count": "4"})
    page = launch(api, platform, change={c.CUSTOM: custom})
    assert page.status == 200, page.text
    made = next(a for a in store.classes() if a.name == CLASS)
    assert made.size == 4
    wrong = {c.CUSTOM: {"dkb_count": "many"}, c.RESOURCE_LINK: {"id": "other", "title": "X"}}
    refused = launch(api, platform, change=wrong)
    assert refused.status == 400 and "bad-puzzle-set" in refused.text


def test_a_window_of_its_own_goes_on_by_itself(api: Api, platform: HostilePlatform) -> None:
    page = launch(api, platform, roles=(INSTRUCTOR,), headers={"Sec-Fetch-Dest": "document"})
    assert page.status == 200
    assert "target=_blank" not in page.text and ".submit()" in page.text


def test_a_restarted_service_still_serves_the_courses_class(
    store: SQLStore, platform: HostilePlatform
) -> None:
    with running_service(store, "4a", class_maker=make_from_form) as (_, first):
        launch(first, platform, roles=(INSTRUCTOR,))
        page = launch(first, platform)
    with running_service(store, "4a", class_maker=make_from_form) as (_, second):
        opened = press(second, page, "/lti/start")
        code = re.search(r"Your code: ([A-Z0-9-]+)<", opened.text)
        assert code is not None, opened.text
        path = f"/api/v1/classes/{urllib.parse.quote(CLASS, safe='')}/join"
        body = {"nickname": "Astrid Lindqvist", "rejoin_code": code.group(1)}
        assert second.call("POST", path, body).status == 200


def test_behind_the_schools_web_server_the_public_url_is_the_tools(
    store: SQLStore, platform: HostilePlatform
) -> None:
    public = "https://class.school.example"
    with running_service(store, "4a", public_url=public) as (_, api):
        login = {
            "iss": platform.issuer,
            "login_hint": "hint",
            "target_link_uri": f"{public}/lti/launch",
            "client_id": platform.registration().client_id,
        }
        answer = api.call("GET", "/lti/login?" + urllib.parse.urlencode(login))
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(answer.headers["location"]).query))
    assert query["redirect_uri"] == f"{public}/lti/launch"


def test_the_public_url_must_be_https(capsys: pytest.CaptureFixture[str]) -> None:
    from dekbovinoj_edu.cli import main

    with pytest.raises(SystemExit) as stopped:
        main(["class", "serve", "4a", "--public-url", "http://class.school.example"])
    assert stopped.value.code == 2 and "--public-url" in capsys.readouterr().err
