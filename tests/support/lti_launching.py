"""A launch as an LMS makes it, against a class service of the tests: the login the service
begins, the platform's signed answer posted from the LMS's page, and a launch page's button
pressed."""

from __future__ import annotations

import re
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.store import SQLStore, open_store
from dekbovinoj_edu.cli.class_form import make_from_form
from dekbovinoj_edu.lti import claims as c
from dekbovinoj_edu.lti.store import LtiStore

from .class_service import Answer, Api, running_service
from .lti_hostile import DEPLOYMENT, LEARNER, HostilePlatform, hostile_platform
from .puzzles import PETER

__all__ = ["CORE", "FORM", "LMS", "HostileCourse", "hostile_course", "launch", "press", "ticket_of"]

LMS = "https://school.instructure.com"
"""The origin of the LMS's page the launch is posted from."""
FORM = {"Content-Type": "application/x-www-form-urlencoded"}
CORE = frozenset(
    {"iss", "aud", "azp", "exp", "iat", "nonce", c.MESSAGE_TYPE, c.VERSION, c.DEPLOYMENT_ID,
     c.TARGET_LINK_URI}
)  # fmt: skip
"""The claims every launch has whatever its LMS: the platform's own."""


def launch(
    api: Api,
    platform: HostilePlatform,
    *,
    roles: tuple[str, ...] = (LEARNER,),
    change: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
    lms: dict[str, Any] | None = None,
) -> Answer:
    """A launch the LMS signs for a login the service began (its claims ``change``d); with
    ``lms``, only the core's claims are the platform's (iss, aud, times, nonce, message,
    version, deployment, target) and every other is ``lms``'s."""
    login = {
        "iss": platform.issuer,
        "login_hint": "hint",
        "target_link_uri": f"http://{api.host}:{api.port}/lti/launch",
        "client_id": platform.registration().client_id,
        "lti_deployment_id": DEPLOYMENT,
    }
    location = api.call("GET", "/lti/login?" + urllib.parse.urlencode(login)).headers["location"]
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))
    claims = {**platform.claims(query["nonce"], time.time(), roles=roles), **(change or {})}
    if lms is not None:
        claims = {**{k: v for k, v in claims.items() if k in CORE}, **lms}
    form = urllib.parse.urlencode({"id_token": platform.sign(claims), "state": query["state"]})
    sent = {**FORM, "Origin": LMS, **(headers or {})}
    return api.call("POST", "/lti/launch", raw=form.encode(), headers=sent)


def ticket_of(page: Answer) -> str:
    found = re.search(r"name='ticket' value='([^']+)'", page.text)
    assert found is not None, page.text
    return found.group(1)


def press(api: Api, page: Answer, path: str, **headers: str) -> Answer:
    """The page's button pressed: its ticket posted to ``path``."""
    body = urllib.parse.urlencode({"ticket": ticket_of(page)}).encode()
    return api.call("POST", path, raw=body, headers={**FORM, **headers})


HostileCourse = tuple[SQLStore, Api, HostilePlatform]


@contextmanager
def hostile_course(tmp_path: Path) -> Iterator[HostileCourse]:
    """A class service that makes classes (class ``4a`` served) with the hostile platform
    registered: the store, the service's API, the platform."""
    store = open_store(tmp_path / "classes.sqlite3")
    store.add_class(codes_assignment("4a", PETER.code))
    with hostile_platform() as platform:
        LtiStore(store.database).register(platform.registration(), datetime.now(timezone.utc))
        with running_service(store, "4a", class_maker=make_from_form) as (_, api):
            yield store, api, platform
    store.close()
