"""Scores to the LMS's gradebook (``class_service/lti_scores.py``) against PyPI's
``lti1p3platform`` with its own token endpoint and Assignment and Grade Services
(tests/support/lti_services.py), through a real class service: thirty students launched from
the LMS, each answering, get their score in the gradebook exactly once (the line item made
once), each as the documented rule says; nothing more is sent while nothing changes, nor after
a restart; an LMS that is down gets every score, once, when it is back; a token without the
score scope is refused; the service's own loop sends them; an ended class completes everyone."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import datetime, timezone
from pathlib import Path

import pytest
from support.lti_course import (
    BEST,
    CLASS,
    FEWER,
    TEACHER,
    Served,
    lms_and_service,
    lms_launch,
    student_answers,
)

from dekbovinoj_edu.class_service.lti_scores import FIRST_PAUSE, ScoreSender
from dekbovinoj_edu.classroom.grades import grades_of_class
from dekbovinoj_edu.lti import LtiError
from dekbovinoj_edu.lti.courses import CourseStore
from dekbovinoj_edu.lti.service_token import SCORE_SCOPE, ServiceTokens
from dekbovinoj_edu.lti.store import LtiStore


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Served]:
    with lms_and_service(tmp_path, own_loop=False) as running:
        yield running


def test_thirty_students_scores_arrive_exactly_once(served: Served) -> None:
    store, server, _, lms = served
    lms_launch(served, TEACHER)
    students = [student_answers(served, n, BEST if n % 3 else FEWER) for n in range(30)]
    sender = ScoreSender(server.service)
    assert sender.send_once(time.time()) == 30
    book = lms.gradebook()
    assert len(lms.lineitems) == 1  # the link's column, made once
    (item,) = lms.lineitems.values()
    assert (item["label"], item["scoreMaximum"], item["resourceLinkId"]) == (
        "Ten cows",
        2,
        "link-1",
    )
    rule = {g.student: g for g in grades_of_class(store, CLASS)}
    people = {p.subject: p.nickname for p in CourseStore(store.database).people(CLASS)}
    for student in students:
        (score,) = book[student.sub]  # exactly once
        grade = rule[people[student.sub]]
        assert (score["scoreGiven"], score["scoreMaximum"]) == (grade.points, 2)
        assert (score["activityProgress"], score["gradingProgress"]) == ("Completed", "FullyGraded")
    given = sorted(score["scoreGiven"] for (score,) in book.values())
    assert given == [1] * 10 + [2] * 20  # 2 for the best answer, 1 for another solution
    assert sender.send_once(time.time()) == 0  # nothing changed: nothing sent
    assert ScoreSender(server.service).send_once(time.time()) == 0  # a restart: the same
    assert sum(len(scores) for scores in lms.gradebook().values()) == 30


def test_an_lms_that_was_down_gets_every_score_once(served: Served) -> None:
    _, server, _, lms = served
    lms_launch(served, TEACHER)
    students = [student_answers(served, n, BEST) for n in range(3)]
    sender = ScoreSender(server.service)
    lms.down = True
    now = time.time()
    assert sender.send_once(now) == 0 and lms.scores == []
    lms.down = False
    assert sender.send_once(now + 1) == 0  # it waits before asking again
    assert sender.send_once(now + FIRST_PAUSE + 1) == 3
    assert sorted(lms.gradebook()) == sorted(s.sub for s in students)
    assert all(len(scores) == 1 for scores in lms.gradebook().values())


def test_a_token_without_the_score_scope_is_refused(served: Served) -> None:
    store, server, _, lms = served
    lms_launch(served, TEACHER)
    student_answers(served, 1, BEST)
    lms.granted = "https://purl.imsglobal.org/spec/lti-ags/scope/result.readonly"
    key = LtiStore(store.database).key_ring(datetime.now(timezone.utc)).current
    with pytest.raises(LtiError) as refused:
        ServiceTokens().token(lms.registration(), key, (SCORE_SCOPE,))
    assert refused.value.code == "wrong-scope"
    assert ScoreSender(server.service).send_once(time.time()) == 0 and lms.scores == []


def test_an_ended_class_completes_everyone_and_a_student_who_answered_nothing_scores_0(
    served: Served,
) -> None:
    store, server, _, lms = served
    lms_launch(served, TEACHER)
    idle = student_answers(served, 1, None)
    sender = ScoreSender(server.service)
    assert sender.send_once(time.time()) == 0  # no puzzle ended yet: nothing to say
    store.end_class(CLASS)
    assert sender.send_once(time.time()) == 1
    (score,) = lms.gradebook()[idle.sub]
    assert (score["scoreGiven"], score["activityProgress"]) == (0, "Completed")


def test_the_services_own_loop_sends_them(tmp_path: Path) -> None:
    with lms_and_service(tmp_path, own_loop=True) as served:
        lms = served[3]
        lms_launch(served, TEACHER)
        student = student_answers(served, 1, BEST)
        deadline = time.monotonic() + 30
        while student.sub not in lms.gradebook() and time.monotonic() < deadline:
            time.sleep(0.25)
        assert [s["scoreGiven"] for s in lms.gradebook()[student.sub]] == [2]
