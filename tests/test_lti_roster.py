"""The course's roster from the LMS (``class_service/lti_roster.py``) against PyPI's
``lti1p3platform`` with its own Names and Role Provisioning handler (tests/support/
lti_services.py): a teacher's launch seats the course's thirty learners, so the board shows
them before anyone arrives; a student the roster does not list is refused with one sentence in
their language; one added to the course later is let in once the roster is read again; an LMS
whose roster cannot be read refuses nobody."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.lti_course import (
    CLASS,
    ROSTER,
    TEACHER,
    Served,
    lms_and_service,
    lms_launch,
    student_answers,
)
from support.lti_launching import press
from support.lti_platform import LmsUser
from support.lti_services import Member

from dekbovinoj_edu.class_service.lti_roster import AGAIN_SECONDS
from dekbovinoj_edu.i18n import gettext
from dekbovinoj_edu.lti.courses import CourseStore
from dekbovinoj_edu.lti.pages import CODE_SENTENCES, DOMAIN

LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"


class Clock:
    """The service's clock, moved on by the test (from the real time: the LMS signs with it)."""

    def __init__(self) -> None:
        self.ahead = 0.0

    def __call__(self) -> float:
        return time.time() + self.ahead


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def served(tmp_path: Path, clock: Clock) -> Iterator[Served]:
    with lms_and_service(tmp_path, own_loop=False, clock=clock) as running:
        yield running


def test_the_teachers_launch_shows_the_course_on_the_board_before_anyone_comes(
    served: Served,
) -> None:
    store, _, api, _ = served
    page = lms_launch(served, TEACHER)
    seats = store.seats(CLASS)
    assert len(seats) == ROSTER and {s.nickname for s in seats} == {
        f"Student Number{n}" for n in range(ROSTER)
    }
    people = CourseStore(store.database).people(CLASS)
    assert all(p.seen is None for p in people if p.role == "student")  # on the roster only
    signed = press(api, page, "/lti/teacher")
    jar = {"Cookie": signed.headers["set-cookie"].split(";")[0]}
    board = api.call("GET", signed.headers["location"].split("?")[0] + "board", headers=jar)
    assert board.status == 200 and "Student Number7" in board.text


def test_a_student_the_roster_does_not_list_is_refused_in_their_language(
    served: Served, clock: Clock
) -> None:
    _, _, _, lms = served
    lms_launch(served, TEACHER)
    stranger = LmsUser("s-999", "Eve Stranger", (LEARNER,))
    clock.ahead += AGAIN_SECONDS + 1
    refused = lms_launch(served, stranger, status=403, lang="sv")
    assert gettext("sv", DOMAIN, CODE_SENTENCES["not-in-course"]) in refused.text
    assert "Kod: not-in-course" in refused.text
    lms.members.append(Member("s-999", "Eve Stranger"))  # the school adds her to the course
    assert lms_launch(served, stranger, status=403).status == 403  # read again only after a while
    clock.ahead += AGAIN_SECONDS + 1
    assert lms_launch(served, stranger).status == 200


def test_an_lms_whose_roster_cannot_be_read_refuses_nobody(served: Served, clock: Clock) -> None:
    store, _, _, lms = served
    lms.members = []
    lms_launch(served, TEACHER)
    lms.members_down = True
    clock.ahead += AGAIN_SECONDS + 1
    student_answers(served, 3, None)
    people = CourseStore(store.database).people(CLASS)
    assert [p.nickname for p in people if p.seen and p.role == "student"] == ["Student Number3"]
