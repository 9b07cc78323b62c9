"""Launches shaped as Canvas, Moodle, Blackboard, Brightspace and Schoology document theirs
(tests/support/lms_launches.py), through a real class service: the teacher's launch makes the
course's class (from the link's puzzle set when it carries one) and keeps where the gradebook
and the roster are, or that there are none; the student's launch seats them under a nickname
made from the name the LMS gives; a teacher the LMS names not is greeted without a name."""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.lms_launches import LMS_LAUNCHES
from support.lti_launching import HostileCourse, hostile_course, launch, press

from dekbovinoj_edu.lti import claims as c
from dekbovinoj_edu.lti.courses import CourseStore

EXPECTED = {
    # the LMS: (the class's name, its puzzles, the student's nickname)
    "canvas": ("Mathematics 4", 10, "Astrid Lindqvist"),
    "moodle": ("Maths year 4 · Ten cows", 5, "Bo Ek"),
    "blackboard": ("Maths 4 · Ten cows", 10, "Chen Wei"),
    "brightspace": ("Maths 4 — autumn · Ten cows", 10, "Ana-María O."),
    "schoology": ("Maths 4: Section 1 · Ten cows", 10, "Li Na"),
}


@pytest.fixture
def served(tmp_path: Path) -> Iterator[HostileCourse]:
    with hostile_course(tmp_path) as course:
        yield course


@pytest.mark.parametrize("lms", list(LMS_LAUNCHES))
def test_each_lms_launch_opens_its_class(lms: str, served: HostileCourse) -> None:
    store, api, platform = served
    name, size, nickname = EXPECTED[lms]
    claims = LMS_LAUNCHES[lms]
    teacher = launch(api, platform, lms=claims(True))
    assert teacher.status == 200, teacher.text
    greeting = re.search(r"<h1>([^<]*)</h1>", teacher.text)
    assert greeting is not None
    assert greeting.group(1) == (
        "Hello!" if "name" not in claims(True) else f"Hello, {claims(True)['name']}!"
    )
    made = next(a for a in store.classes() if a.name == name)
    assert made.size == size
    (link,) = CourseStore(store.database).links(name)
    ags = claims(True).get(c.AGS_ENDPOINT, {})
    assert (link.lineitem, link.lineitems) == (ags.get("lineitem"), ags.get("lineitems"))
    assert link.scopes == tuple(ags.get("scope", ()))
    assert link.members_url == claims(True).get(c.NRPS, {}).get("context_memberships_url")

    student = launch(api, platform, lms=claims(False))
    assert student.status == 200, student.text
    opened = press(api, student, "/lti/start")
    code = re.search(r"Your code: ([A-Z0-9-]+)<", opened.text)
    assert code is not None, opened.text
    path = f"/api/v1/classes/{urllib.parse.quote(name, safe='')}/join"
    joined = api.call("POST", path, {"nickname": nickname, "rejoin_code": code.group(1)})
    assert joined.status == 200, joined.text
    people = {p.subject: p for p in CourseStore(store.database).people(name)}
    assert people[claims(False)["sub"]].nickname == nickname
    assert people[claims(True)["sub"]].role == "teacher"
