"""The school's LMS on the teacher's page (``class_service/lti_admin.py``), on a real class
service: the signed-in teacher sees what to paste and the LMSs registered, makes the one
address for Dynamic Registration (which then registers an LMS once) and registers an LMS by
hand (a refusal with its code when an address is not https); nobody else gets the page, nor a
teacher an LMS vouched for (their pass opens their own class only); the classes page links it."""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.class_service import Api, running_service
from support.lti_hostile import INSTRUCTOR
from support.lti_launching import hostile_course, launch, press
from support.puzzles import PETER

from dekbovinoj_edu.class_service.run import ClassServer
from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.store import SQLStore, open_store
from dekbovinoj_edu.cli.class_form import make_from_form
from dekbovinoj_edu.lti.courses import REGISTER, CourseStore
from dekbovinoj_edu.lti.store import LtiStore

JSON = {"Content-Type": "application/json"}
MOODLE = {
    "issuer": "https://moodle.school.example",
    "client_id": "Zx3qFhG2",
    "deployments": "1, 2",
    "auth_url": "https://moodle.school.example/mod/lti/auth.php",
    "token_url": "https://moodle.school.example/mod/lti/token.php",
    "jwks_url": "https://moodle.school.example/mod/lti/certs.php",
}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[SQLStore, ClassServer, Api]]:
    store = open_store(tmp_path / "classes.sqlite3")
    store.add_class(codes_assignment("4a", PETER.code))
    public = "https://class.school.example"
    with running_service(store, "4a", class_maker=make_from_form, public_url=public) as (
        server,
        api,
    ):
        yield store, server, api
    store.close()


def test_the_teacher_registers_an_lms_by_hand_and_makes_the_one_address(
    served: tuple[SQLStore, ClassServer, Api],
) -> None:
    store, server, api = served
    signed = api.sign_in(f"/teacher/{server.service.secret}/")
    page = api.call("GET", "/teacher/lti/", headers=signed)
    assert page.status == 200, page.text
    assert "https://class.school.example/lti/login" in page.text
    assert "No LMS is registered yet." in page.text
    made = api.call("POST", "/teacher/lti/platforms", MOODLE, headers={**signed, **JSON})
    assert made.status == 201, made.text
    (registration,) = LtiStore(store.database).registrations()
    assert registration.deployment_ids == ("1", "2")
    assert "https://moodle.school.example" in api.call("GET", "/teacher/lti/", headers=signed).text
    insecure = {**MOODLE, "jwks_url": "http://moodle.school.example/certs"}
    refused = api.call("POST", "/teacher/lti/platforms", insecure, headers={**signed, **JSON})
    assert refused.status == 400 and refused.code == "insecure-url"
    address = api.call("POST", "/teacher/lti/register-url", {}, headers={**signed, **JSON})
    assert address.status == 200
    url = address.document["address"]
    assert url.startswith("https://class.school.example/lti/register/")
    key = urllib.parse.urlsplit(url).path.rsplit("/", 1)[1]
    assert CourseStore(store.database).ticket_alive(key, REGISTER, now=server.service.clock())
    classes = api.call("GET", "/teacher/classes/", headers=signed)
    assert 'href="/teacher/lti/"' in classes.text


def test_nobody_else_gets_the_page(served: tuple[SQLStore, ClassServer, Api]) -> None:
    _, _, api = served
    assert api.call("GET", "/teacher/lti/").status == 404
    forged = api.call("POST", "/teacher/lti/platforms", MOODLE, headers=JSON)
    assert forged.status == 404


def test_a_teacher_the_lms_vouched_for_opens_only_their_class(tmp_path: Path) -> None:
    with hostile_course(tmp_path) as (_, api, platform):
        page = launch(api, platform, roles=(INSTRUCTOR,))
        signed = press(api, page, "/lti/teacher")
        jar = {"Cookie": signed.headers["set-cookie"].split(";")[0]}
        assert api.call("GET", signed.headers["location"], headers=jar).status == 200
        assert api.call("GET", "/teacher/lti/", headers=jar).status == 404
        assert api.call("GET", "/teacher/classes/", headers=jar).status == 404
