"""The school's LMS as a real JupyterHub's sign-in: the fragment ``dekbovinoj hub config
--lti-…`` prints, jupyterhub-ltiauthenticator from PyPI, and a stand-in for the LMS on
127.0.0.1 (tests/support/lms_stand_in.py: its own RSA key, its public keys served as JWKS,
the launches a browser carries from it) in place of Canvas.

A teacher and a student are launched from the same course: the teacher arrives in the hub's
teachers' group and opens the teachers' pages; the student arrives as their e-mail address, in
the course's group, and joins a class whose roster is that group; a student of another course
is refused. A launch the LMS did not sign gets no user.
"""

from __future__ import annotations

import urllib.parse
from collections.abc import Iterator
from typing import Any

import pytest
import requests
from cryptography.hazmat.primitives.asymmetric import rsa
from support.hub import RunningHub
from support.lms_stand_in import INSTRUCTOR, LEARNER, MATH, Lms, hub_groups, lti_hub
from support.postgres import PostgresServer

from dekbovinoj_edu.classroom.roster import parse_roster
from dekbovinoj_edu.hub.lti import course_group

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

ART = {"id": "course-78", "label": "Art 4a", "title": "Art, year 4"}


@pytest.fixture(scope="module")
def lms() -> Iterator[Lms]:
    platform = Lms()
    yield platform
    platform.close()


@pytest.fixture(scope="module")
def hub(postgres: PostgresServer, lms: Lms) -> Iterator[RunningHub]:
    roster = parse_roster(f"group:{course_group(lms.issuer, MATH)}")
    with lti_hub(postgres, lms, roster) as running:
        yield running


def launch(
    hub: RunningHub, lms: Lms, email: str, roles: list[str], course: dict[str, str], key: Any = None
) -> tuple[requests.Session, requests.Response]:
    """A browser launched from the LMS: the hub's login, the LMS's answer, the hub's callback."""
    browser = requests.Session()
    browser.trust_env = False
    start = lms.login_start(email, f"{hub.url}/hub/home")
    asked = browser.post(f"{hub.url}/hub/lti13/oauth_login", data=start,
                         allow_redirects=False, timeout=60)  # fmt: skip
    assert asked.status_code == 302, asked.text[:500]
    where = urllib.parse.urlsplit(asked.headers["location"])
    assert f"{where.scheme}://{where.netloc}{where.path}" == f"{lms.url}/authorize"
    query = dict(urllib.parse.parse_qsl(where.query))
    assert query["lti_message_hint"] == "opaque-hint-42" and query["login_hint"] == email
    token = lms.id_token(query["nonce"], email, roles, course, key)
    answer = browser.post(query["redirect_uri"], data={"id_token": token, "state": query["state"]},
                          allow_redirects=False, timeout=60)  # fmt: skip
    return browser, answer


def _join(hub: RunningHub, user: str, name: str = "m4") -> requests.Response:
    return requests.post(
        f"{hub.service_url}api/v1/classes/{name}/join", json={"nickname": user},
        headers={"Authorization": f"token {hub.token_for(user)}"}, timeout=60,
    )  # fmt: skip


def test_a_teacher_launched_from_the_lms_teaches_and_a_student_joins_their_course(
    hub: RunningHub, lms: Lms
) -> None:
    math = course_group(lms.issuer, MATH)
    teacher, signed = launch(hub, lms, "tess@skolo.example", [INSTRUCTOR], MATH)
    assert signed.status_code == 302, signed.text[:500]
    assert hub_groups(hub, "tess@skolo.example") == sorted(["teachers", str(math)])
    pages = teacher.get(hub.service_url, timeout=60)  # the hub's OAuth, then the class list
    assert pages.status_code == 200 and "m4" in pages.text, pages.text[:500]
    assert f"<datalist id='dkb-groups'><option value='{math}'></datalist>" in pages.text

    student, ana = launch(hub, lms, "ana@skolo.example", [LEARNER], MATH)
    assert ana.status_code == 302
    assert hub_groups(hub, "ana@skolo.example") == [math]
    assert student.get(hub.service_url, timeout=60).status_code == 403  # no teacher's page
    joined = _join(hub, "ana@skolo.example")
    assert joined.status_code == 201, joined.text
    assert joined.json()["seat"]["nickname"] == "ana@skolo.example"

    _, bo = launch(hub, lms, "bo@skolo.example", [LEARNER], ART)  # another course
    assert bo.status_code == 302
    refused = _join(hub, "bo@skolo.example")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not-on-roster"
    assert hub_groups(hub, "bo@skolo.example") == [course_group(lms.issuer, ART)]


def test_a_launch_the_lms_did_not_sign_makes_no_user(hub: RunningHub, lms: Lms) -> None:
    forger = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    _, forged = launch(hub, lms, "mallory@skolo.example", [INSTRUCTOR], MATH, key=forger)
    assert 400 <= forged.status_code < 500
    assert hub.api("GET", "users/mallory@skolo.example").status_code == 404
