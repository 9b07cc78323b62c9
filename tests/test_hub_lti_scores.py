"""Scores and roster for a real JupyterHub whose users the school's LMS signs in: the fragment
``dekbovinoj hub config --lti-… --lti-token-url`` prints, jupyterhub-ltiauthenticator from
PyPI, the stand-in LMS of tests/support/lms_stand_in.py for the launches, and PyPI's
``lti1p3platform`` for the LMS's token endpoint, gradebook and roster
(tests/support/lti_services.py), which checks the class service's signed requests against
the keys the service publishes under the hub (``/services/dekbovinoj/lti/jwks``).

A teacher's launch from the course's link to class ``m4`` fills the class with the course's
learners under the hub names they will arrive with; a learner launched from the same link
joins that seat, answers, and their score reaches the gradebook once, under the LMS's ``sub``;
a learner who never came has no score.
"""

from __future__ import annotations

import time
import urllib.parse
import uuid
from collections.abc import Iterator

import pytest
import requests
from support.hub import RunningHub
from support.lms_stand_in import CLIENT_ID, INSTRUCTOR, LEARNER, MATH, Lms, lti_hub
from support.lti_services import Member, ServicesLms
from support.postgres import PostgresServer

from dekbovinoj_edu.classroom.roster import parse_roster
from dekbovinoj_edu.classroom.store import open_store
from dekbovinoj_edu.hub.lti import course_group
from dekbovinoj_edu.lti.claims import AGS_ENDPOINT, NRPS
from dekbovinoj_edu.lti.service_token import LINEITEM_SCOPE, SCORE_SCOPE

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

ANA, BO, TESS = "ana@skolo.example", "bo@skolo.example", "tess@skolo.example"


def sub(email: str) -> str:
    """The stand-in LMS's ``sub`` of ``email`` (as its launches give it)."""
    return uuid.uuid5(uuid.NAMESPACE_URL, email).hex


@pytest.fixture(scope="module")
def services() -> Iterator[ServicesLms]:
    lms = ServicesLms("http://127.0.0.1:1", client_id=CLIENT_ID)  # the tool's keys: below
    lms.members = [
        Member(sub(ANA), "Ana Lind", email="Ana@Skolo.example"),
        Member(sub(BO), "Bo Ek", email=BO),
        Member(sub(TESS), "Tess Holm", roles=(INSTRUCTOR,), email=TESS),
    ]
    yield lms
    lms.server.shutdown()
    lms.server.server_close()


@pytest.fixture(scope="module")
def lms(services: ServicesLms) -> Iterator[Lms]:
    platform = Lms()
    platform.token_url = f"{services.url}/token"
    platform.services = {
        AGS_ENDPOINT: {"lineitems": services.lineitems_url, "scope": [LINEITEM_SCOPE, SCORE_SCOPE]},
        NRPS: {"context_memberships_url": services.members_url, "service_versions": ["2.0"]},
    }
    yield platform
    platform.close()


@pytest.fixture(scope="module")
def hub(postgres: PostgresServer, lms: Lms, services: ServicesLms) -> Iterator[RunningHub]:
    roster = parse_roster(f"group:{course_group(lms.issuer, MATH)}")
    with lti_hub(postgres, lms, roster) as running:
        keys = f"{running.service_url}lti/jwks"
        services.platform_registration.set_tool_key_set_url(keys)
        lms.target = (
            f"{running.url}/hub/user-redirect/voila/render/dekbovinoj/classroom.ipynb?class=m4"
        )
        yield running


def launch(hub: RunningHub, lms: Lms, email: str, roles: list[str]) -> requests.Response:
    """A browser launched from the course's link: the hub's login, the LMS, the callback."""
    browser = requests.Session()
    browser.trust_env = False
    start = lms.login_start(email, lms.target)
    asked = browser.post(f"{hub.url}/hub/lti13/oauth_login", data=start,
                         allow_redirects=False, timeout=60)  # fmt: skip
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(asked.headers["location"]).query))
    token = lms.id_token(query["nonce"], email, roles, MATH)
    return browser.post(query["redirect_uri"], data={"id_token": token, "state": query["state"]},
                        allow_redirects=False, timeout=60)  # fmt: skip


def scores_of(services: ServicesLms, student: str, at_least: int, seconds: float) -> list[dict]:
    """The scores the gradebook received for ``student``, once it has ``at_least`` of them
    or ``seconds`` passed."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = services.gradebook().get(student, [])
        if len(found) >= at_least:
            return found
        time.sleep(0.25)
    return services.gradebook().get(student, [])


def test_the_lms_gradebook_gets_a_hub_students_score_once_and_the_roster_fills_the_class(
    hub: RunningHub, lms: Lms, services: ServicesLms
) -> None:
    keys = requests.get(f"{hub.service_url}lti/jwks", timeout=60)
    assert keys.status_code == 200 and keys.json()["keys"][0]["alg"] == "RS256"

    assert launch(hub, lms, TESS, [INSTRUCTOR]).status_code == 302
    store = open_store(hub.options.db)
    try:
        waiting = {seat.nickname for seat in store.seats("m4")}
        assert waiting == {ANA, BO}, waiting  # the roster's learners, under their hub names

        assert launch(hub, lms, ANA, [LEARNER]).status_code == 302
        headers = {"Authorization": f"token {hub.token_for(ANA)}"}
        joined = requests.post(f"{hub.service_url}api/v1/classes/m4/join",
                               json={"nickname": ANA}, headers=headers, timeout=60)  # fmt: skip
        assert joined.status_code == 200 and joined.json()["resumed"], joined.text  # the seat
        session = joined.json()["token"]
        answered = requests.post(
            f"{hub.service_url}api/v1/classes/m4/attempts",
            json={"id": "attempt-ana-1", "puzzle": 1, "answer": "13*2+3-9-3-7"},
            headers={"Authorization": f"Bearer {session}"}, timeout=60,
        )  # fmt: skip
        assert answered.status_code in (200, 201), answered.text
        assert [seat.nickname for seat in store.seats("m4")].count(ANA) == 1
    finally:
        store.close()

    ana = scores_of(services, sub(ANA), 1, 60)
    assert [(s["scoreGiven"], s["scoreMaximum"], s["activityProgress"]) for s in ana] == [
        (2.0, 4.0, "InProgress")
    ], ana
    assert ana[0]["gradingProgress"] == "FullyGraded"
    time.sleep(12)  # two more of the service's passes: nothing changed, nothing sent again
    assert len(services.gradebook().get(sub(ANA), [])) == 1
    assert sub(BO) not in services.gradebook()  # on the roster, never came: no score
    assert len(services.lineitems) == 1  # the link's column, made once
