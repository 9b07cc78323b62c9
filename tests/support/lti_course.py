"""A course of the LMS of tests/support/lti_services.py opening a class service: the
service and the LMS (with its roster of :data:`ROSTER` learners), a launch from the course,
a student opening the class and answering Peter's puzzle."""

from __future__ import annotations

import re
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from dekbovinoj_edu.class_service.run import ClassServer
from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.store import SQLStore, open_store
from dekbovinoj_edu.cli.class_form import make_from_form
from dekbovinoj_edu.lti.puzzle_set import custom_from_fields
from dekbovinoj_edu.lti.store import LtiStore

from .class_service import Api, running_service
from .lti_launching import FORM, press
from .lti_platform import LmsUser
from .lti_services import Member, ServicesLms
from .puzzles import PETER

__all__ = ["BEST", "CLASS", "COURSE", "FEWER", "ROSTER", "TEACHER", "Served",
           "lms_and_service", "lms_launch", "student_answers"]  # fmt: skip

INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"
LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"
COURSE = {"id": "course-3b", "title": "Class 3B mathematics", "link": "link-1",
          "link_title": "Ten cows"}  # fmt: skip
CLASS = "Class 3B mathematics · Ten cows"
BEST = "13*2+3-9-3-7"  # Peter's puzzle, every card: 2 points
FEWER = "13-3"  # two cards: another solution, 1 point
TEACHER = LmsUser("t-1", "Karin Berg", (INSTRUCTOR,))
ROSTER = 30
"""The course's learners: ``s-0`` … ``s-29``."""

Served = tuple[SQLStore, ClassServer, Api, ServicesLms]


@contextmanager
def lms_and_service(tmp_path: Path, *, own_loop: bool, **more: Any) -> Iterator[Served]:
    """The service (``own_loop``: with its loop sending the scores; else the test sends them
    itself, with no loop racing it; ``more``: the service's other options), and the LMS with its
    services."""
    store = open_store(tmp_path / "classes.sqlite3")
    store.add_class(codes_assignment("4a", PETER.code))
    options = {"class_maker": make_from_form, "sends_scores": own_loop, **more}
    with running_service(store, "4a", **options) as (server, api):
        lms = ServicesLms(server.url.rstrip("/"))
        lms.members = [Member(f"s-{n}", f"Student Number{n}") for n in range(ROSTER)]
        try:
            LtiStore(store.database).register(lms.registration(), datetime.now(timezone.utc))
            yield store, server, api, lms
        finally:
            lms.close()
    store.close()


def lms_launch(
    served: Served,
    user: LmsUser,
    *,
    status: int = 200,
    lang: str = "en",
    custom: dict[str, str] | None = None,
) -> Any:
    """``user`` opens the course's link from the LMS: the launch's page (of ``status``, in
    the reader's ``lang``); the link's ``custom`` parameters, Peter's puzzle by default."""
    _, _, api, lms = served
    login = urllib.parse.urlsplit(lms.login_url(user, "link-1"))
    location = api.call("GET", f"{login.path}?{login.query}").headers["location"]
    authorization = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))
    if custom is None:
        custom = custom_from_fields({"codes": PETER.code})
    posted = lms.service_launch(authorization, user, COURSE, custom)
    body = urllib.parse.urlencode({"id_token": posted["id_token"], "state": posted["state"]})
    headers = {**FORM, "Accept-Language": lang}
    page = api.call("POST", "/lti/launch", raw=body.encode(), headers=headers)
    assert page.status == status, page.text
    return page


def student_answers(served: Served, number: int, answer: str | None) -> LmsUser:
    """Student ``number`` opens the link and (``answer``) answers the puzzle."""
    api = served[2]
    student = LmsUser(f"s-{number}", f"Student Number{number}", (LEARNER,))
    opened = press(api, lms_launch(served, student), "/lti/start")
    nickname = re.search(r"Your name in the class: ([^<]+)<", opened.text)
    code = re.search(r"Your code: ([A-Z0-9-]+)<", opened.text)
    assert nickname is not None and code is not None, opened.text
    where = f"/api/v1/classes/{urllib.parse.quote(CLASS, safe='')}"
    joined = api.call("POST", f"{where}/join", {"nickname": nickname.group(1),
                                                "rejoin_code": code.group(1)})  # fmt: skip
    assert joined.status == 200, joined.text
    if answer is not None:
        body = {"id": f"attempt-{number:06d}-xxxxxxxxxxxx", "puzzle": 1, "answer": answer}
        sent = api.call("POST", f"{where}/attempts", body, token=joined.document["token"])
        assert sent.status in (200, 201), sent.text
    return student
