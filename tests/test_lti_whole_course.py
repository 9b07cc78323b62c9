"""A whole course with the LMS, end to end, against PyPI's ``lti1p3platform`` and its own
services (tests/support/lti_services.py): the teacher picks a puzzle set inside the LMS (Deep
Linking; the LMS checks the tool's answer), opens the link (the class is made from the set and
the course's thirty learners are on the board), the thirty students come and answer, and each
score arrives in the LMS's gradebook exactly once, out of the set's most points."""

from __future__ import annotations

import re
import time
import urllib.parse
from pathlib import Path

from support.lti_course import BEST, CLASS, ROSTER, TEACHER, lms_and_service, lms_launch
from support.lti_launching import FORM, press
from support.lti_platform import LmsUser
from support.puzzles import PETER

from dekbovinoj_edu.class_service.lti_scores import ScoreSender

LEARNER = "http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"


def test_deep_link_launch_roster_and_thirty_scores_exactly_once(tmp_path: Path) -> None:
    with lms_and_service(tmp_path, own_loop=False) as served:
        store, server, api, lms = served
        login = urllib.parse.urlsplit(lms.login_url(TEACHER, "dl"))
        location = api.call("GET", f"{login.path}?{login.query}").headers["location"]
        authorization = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))
        course = {"id": "course-3b", "title": "Class 3B mathematics"}
        posted = lms.deep_linking_launch(authorization, TEACHER, course, "opaque")
        body = urllib.parse.urlencode({"id_token": posted["id_token"], "state": posted["state"]})
        form = api.call("POST", "/lti/launch", raw=body.encode(), headers=FORM)
        ticket = re.search(r"name='ticket' value='([^']+)'", form.text)
        assert form.status == 200 and ticket is not None, form.text
        picked = {"name": "Ten cows", "codes": PETER.code, "ticket": ticket.group(1)}
        sent = api.call("POST", "/lti/deep-link", raw=urllib.parse.urlencode(picked).encode(),
                        headers=FORM)  # fmt: skip
        token = re.search(r"name='JWT' value='([^']+)'", sent.text)
        assert token is not None, sent.text
        (item,) = lms.content_items(token.group(1))  # the LMS checks the tool's answer
        assert item["lineItem"]["scoreMaximum"] == 2

        lms_launch(served, TEACHER, custom=item["custom"])
        assert len(store.seats(CLASS)) == ROSTER  # the course on the board before anyone came
        where = f"/api/v1/classes/{urllib.parse.quote(CLASS, safe='')}"
        for number in range(ROSTER):
            student = LmsUser(f"s-{number}", f"Student Number{number}", (LEARNER,))
            opened = press(api, lms_launch(served, student, custom=item["custom"]), "/lti/start")
            nickname = re.search(r"Your name in the class: ([^<]+)<", opened.text)
            code = re.search(r"Your code: ([A-Z0-9-]+)<", opened.text)
            assert nickname is not None and code is not None
            joined = api.call("POST", f"{where}/join", {"nickname": nickname.group(1),
                                                        "rejoin_code": code.group(1)})  # fmt: skip
            answer = {"id": f"attempt-{number:06d}-xxxxxxxxxxxx", "puzzle": 1, "answer": BEST}
            api.call("POST", f"{where}/attempts", answer, token=joined.document["token"])
        sender = ScoreSender(server.service)
        assert sender.send_once(time.time()) == ROSTER
        assert sender.send_once(time.time()) == 0
        book = lms.gradebook()
        assert sorted(book) == sorted(f"s-{n}" for n in range(ROSTER))
        assert all(
            [(s["scoreGiven"], s["scoreMaximum"], s["activityProgress"]) for s in scores]
            == [(2, 2, "Completed")]
            for scores in book.values()
        )
