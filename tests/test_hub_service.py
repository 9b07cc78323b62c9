"""The class service under a real JupyterHub (tests/support/hub.py): JupyterHub from PyPI,
its real proxy from npm, users' servers on this machine, the class service as a managed
service on ``/services/dekbovinoj/`` with its classes in PostgreSQL.

Teachers sign in with the hub (OAuth) and see the classes their group, or the teachers'
custom scope, gives them; a student signed in gets a 403 page there. A student joins with
their server's token as their hub name, and only as it; their attempts go to their seat. In a
student's own server, the class link opens the class screens through Voilà, which say who
they are and ask for no nickname. Everything listens on 127.0.0.1, and nothing is left
running.
"""

from __future__ import annotations

import csv
import io
import json
import time
from collections.abc import Iterator

import pytest
import requests
from support.hub import RunningHub, left_running, running_hub
from support.postgres import PostgresServer
from support.puzzles import PETER

from dekbovinoj_edu.classroom.roster import parse_roster
from dekbovinoj_edu.classroom.store import open_store
from dekbovinoj_edu.classroom.store.classes import new_class

pytestmark = [pytest.mark.slow, pytest.mark.postgres]


@pytest.fixture(scope="module")
def hub_db(postgres: PostgresServer) -> Iterator[str]:
    name = postgres.create_database()
    url = postgres.url(name)
    for class_name in ("4a", "4b"):
        new_class(class_name, codes=f"{PETER.code},{PETER.code}", db=url)
    yield url
    postgres.drop_database(name)


LONG_LOGIN = "anna.svensson.2015@larkstadens-skola.example"
"""A school's e-mail login (44 characters), as Google or Entra ID gives a hub."""

SCOPE = "custom:dekbovinoj:teach"
"""The teachers' custom scope (``dekbovinoj hub config --scope``)."""
HEAD = {"name": "head-teacher", "scopes": [SCOPE], "users": ["sam"]}
"""A role of the hub's own that gives the scope to one user outside every group."""


@pytest.fixture(scope="module")
def hub(hub_db: str) -> Iterator[RunningHub]:
    users = ("tess", "tom", "sam", "ana", "bo", "cyd", LONG_LOGIN, "emma1", "emmal")
    groups = {"teachers": ["tess"], "teachers-4b": ["tom"], "pupils-4r": ["emma1"]}
    extra = f"c.JupyterHub.load_roles.append({HEAD!r})\n"
    with running_hub(hub_db, users, groups, scope=SCOPE, extra=extra) as running:
        yield running
    assert left_running(running) == [], "a process of the hub is still running"


def _join(hub: RunningHub, token: str | None, nickname: str, name: str = "4a") -> requests.Response:
    headers = {"Authorization": f"token {token}"} if token else {}
    return requests.post(
        f"{hub.service_url}api/v1/classes/{name}/join",
        json={"nickname": nickname}, headers=headers, timeout=60,
    )  # fmt: skip


def _attempt(hub: RunningHub, session: str, attempt_id: str, answer: str) -> requests.Response:
    return requests.post(
        f"{hub.service_url}api/v1/classes/4a/attempts",
        json={"id": attempt_id, "puzzle": 1, "answer": answer},
        headers={"Authorization": f"Bearer {session}"}, timeout=60,
    )  # fmt: skip


def test_everything_listens_on_loopback_only(hub: RunningHub) -> None:
    addresses = hub.listening()
    assert len(addresses) >= 4  # the proxy, its API, the hub, the class service
    assert all(address.startswith("127.0.0.1:") for address in addresses), addresses


def test_a_teacher_signs_in_with_the_hub_and_sees_every_class(hub: RunningHub) -> None:
    tess = hub.login("tess")
    index = tess.get(hub.service_url, timeout=60)
    assert index.status_code == 200, index.text
    assert index.url == hub.service_url  # back from the hub's OAuth, signed in
    assert "tess" in index.text and "classes/4a/" in index.text and "classes/4b/" in index.text
    assert "/hub/user-redirect/voila/render/dekbovinoj/classroom.ipynb?class=4a" in index.text
    page = tess.get(f"{hub.service_url}classes/4a/", timeout=60)
    assert page.status_code == 200 and "Class 4a" in page.text


def test_a_holder_of_the_teachers_scope_sees_every_class(hub: RunningHub) -> None:
    sam = hub.login("sam")  # in no group: the scope, granted by the hub's role, is in the token
    index = sam.get(hub.service_url, timeout=60)
    assert index.status_code == 200, index.text
    assert "classes/4a/" in index.text and "classes/4b/" in index.text
    assert sam.get(f"{hub.service_url}classes/4a/", timeout=60).status_code == 200


def test_a_teacher_of_one_class_sees_only_that_class(hub: RunningHub) -> None:
    tom = hub.login("tom")
    index = tom.get(hub.service_url, timeout=60)
    assert index.status_code == 200
    assert "classes/4b/" in index.text and "classes/4a/" not in index.text
    assert tom.get(f"{hub.service_url}classes/4b/", timeout=60).status_code == 200
    other = tom.get(f"{hub.service_url}classes/4a/", timeout=60)
    assert other.status_code == 403 and "signed in as tom" in other.text


def test_a_student_gets_a_403_page_on_the_dashboard(hub: RunningHub) -> None:
    ana = hub.login("ana")
    for address in (hub.service_url, f"{hub.service_url}classes/4a/"):
        page = ana.get(address, timeout=60)
        assert page.status_code == 403, address
        assert "Only for teachers" in page.text and "You are signed in as ana." in page.text
    board = ana.get(f"{hub.service_url}classes/4a/report.csv", timeout=60)
    assert board.status_code == 403 and "ana," not in board.text


def test_nobody_signed_in_is_sent_to_the_hub_to_sign_in(hub: RunningHub) -> None:
    answer = requests.get(hub.service_url, allow_redirects=False, timeout=60)
    assert answer.status_code == 302
    assert "/hub/api/oauth2/authorize" in answer.headers["Location"]


def test_a_student_joins_as_their_hub_user_and_only_as_it(hub: RunningHub) -> None:
    token = hub.token_for("cyd")
    assert _join(hub, None, "cyd").status_code == 401
    assert _join(hub, "not-a-token-the-hub-knows-at-all", "cyd").status_code == 401
    as_bo = _join(hub, token, "bo")
    assert as_bo.status_code == 403 and as_bo.json()["error"]["code"] == "forbidden"
    joined = _join(hub, token, "cyd")
    assert joined.status_code == 201, joined.text
    assert joined.json()["seat"]["nickname"] == "cyd"
    again = _join(hub, token, "cyd")  # another page of hers: her seat, no code asked
    assert again.status_code == 200 and again.json()["resumed"] is True


def test_an_e_mail_login_and_look_alike_logins_are_each_a_student(hub: RunningHub) -> None:
    joined = _join(hub, hub.token_for(LONG_LOGIN), LONG_LOGIN)
    assert joined.status_code == 201, joined.text
    assert joined.json()["seat"]["nickname"] == LONG_LOGIN
    first = _join(hub, hub.token_for("emma1"), "emma1")
    second = _join(hub, hub.token_for("emmal"), "emmal")  # looks like emma1: another student
    assert (first.status_code, second.status_code) == (201, 201), second.text
    assert second.json()["seat"]["nickname"] == "emmal"


def test_a_class_limited_to_a_hub_group_takes_its_members_only(
    hub: RunningHub, hub_db: str
) -> None:
    tess = hub.login("tess")  # the teacher's form on a hub: a hub group, and names
    index = tess.get(hub.service_url, timeout=60)
    assert "name='roster_group'" in index.text and "<textarea name='roster'" in index.text
    signed = {"Sec-Fetch-Mode": "cors", "Sec-Fetch-Site": "same-origin",
              "X-XSRFToken": _page_token(index)}  # fmt: skip
    fields = {"name": "4r", "codes": f"{PETER.code},{PETER.code}", "roster_group": "pupils-4r",
              "roster": LONG_LOGIN}  # fmt: skip
    made = tess.post(f"{hub.service_url}classes/new", json=fields, headers=signed, timeout=60)
    assert made.status_code == 201, made.text
    store = open_store(hub_db)
    try:
        assert store.roster("4r") == parse_roster(f"{LONG_LOGIN}\ngroup:pupils-4r")
    finally:
        store.close()
    outside = _join(hub, hub.token_for("emmal"), "emmal", "4r")  # in no group of the roster
    assert outside.status_code == 403, outside.text
    assert outside.json()["error"]["code"] == "not-on-roster"
    assert "not on the list of class 4r" in outside.json()["error"]["message"]
    inside = _join(hub, hub.token_for("emma1"), "emma1", "4r")  # the hub says: in pupils-4r
    assert inside.status_code == 201, inside.text
    named = _join(hub, hub.token_for(LONG_LOGIN), LONG_LOGIN, "4r")  # named on the list
    assert named.status_code == 201, named.text


def test_only_a_hub_user_reads_a_class_s_assignment(hub: RunningHub) -> None:
    address = f"{hub.service_url}api/v1/classes/4a"
    anyone = requests.get(address, timeout=60)
    assert anyone.status_code == 401 and anyone.json()["error"]["code"] == "unauthorized"
    signed_in = requests.get(
        address, headers={"Authorization": f"token {hub.token_for('ana')}"}, timeout=60
    )
    assert signed_in.status_code == 200 and signed_in.json()["name"] == "4a"


def test_a_token_without_the_services_scope_is_refused(hub: RunningHub) -> None:
    token = hub.token_for("cyd", scopes=["read:users:name!user"])
    refused = _join(hub, token, "cyd")
    assert refused.status_code == 403, refused.text


def test_a_students_token_cannot_record_for_another(hub: RunningHub, hub_db: str) -> None:
    ana = _join(hub, hub.token_for("ana"), "ana").json()["token"]
    bo_hub_token = hub.token_for("bo")
    assert _join(hub, hub.token_for("ana"), "bo").status_code == 403  # ana's token, bo's name
    bo = _join(hub, bo_hub_token, "bo").json()["token"]
    assert _attempt(hub, ana, "ana-attempt-1", "13*2+3-9-3-7").status_code == 201
    assert _attempt(hub, bo, "bo-attempt-1", "3+7").status_code == 201
    # ana's hub token is not a session of the class: it records nothing
    assert _attempt(hub, hub.token_for("ana"), "ana-attempt-2", "3+7").status_code == 401
    store = open_store(hub_db)
    try:
        rows = {(a.nickname, a.answer) for a in store.attempts("4a")}
    finally:
        store.close()
    assert ("ana", "13*2+3-9-3-7") in rows and ("bo", "3+7") in rows
    assert not any(answer == "3+7" and who == "ana" for who, answer in rows)


def test_the_dashboard_shows_exactly_the_attempts_under_hub_names(
    hub: RunningHub, hub_db: str
) -> None:
    new_class("4c", codes=f"{PETER.code},{PETER.code}", db=hub_db)
    sent = {"ana": "13*2+3-9-3-7", "cyd": "3+7"}
    for user, answer in sent.items():
        session = _join(hub, hub.token_for(user), user, "4c").json()["token"]
        recorded = requests.post(
            f"{hub.service_url}api/v1/classes/4c/attempts",
            json={"id": f"{user}-4c-1", "puzzle": 1, "answer": answer},
            headers={"Authorization": f"Bearer {session}"}, timeout=60,
        )  # fmt: skip
        assert recorded.status_code == 201, recorded.text
    tess = hub.login("tess")
    report = tess.get(f"{hub.service_url}classes/4c/report.csv", timeout=60)
    assert report.status_code == 200
    rows = {(row["nickname"], row["answer"]) for row in csv.DictReader(io.StringIO(report.text))}
    assert rows == set(sent.items())
    board = tess.get(f"{hub.service_url}classes/4c/board", timeout=60)
    assert board.status_code == 200 and "ana" in board.text and "cyd" in board.text


def test_the_class_link_opens_the_class_screens_in_the_students_server(
    hub: RunningHub, hub_db: str
) -> None:
    hub.start_server("bo")
    bo = hub.login("bo")
    started = time.monotonic()
    page = bo.get(
        f"{hub.url}/hub/user-redirect/voila/render/dekbovinoj/classroom.ipynb?class=4b",
        timeout=180,
    )
    assert page.status_code == 200, page.text[:500]
    assert page.url.startswith(f"{hub.url}/user/bo/voila/render/")
    assert "application/vnd.jupyter.widget-view+json" in page.text  # the app's widget
    store = open_store(hub_db)
    try:  # the kernel joined with the server's own token, as bo
        assert [seat.nickname for seat in store.seats("4b")] == ["bo"]
    finally:
        store.close()
    assert time.monotonic() - started < 180
    hub.stop_server("bo")


def test_the_class_screens_say_who_the_student_is_and_ask_no_nickname(
    hub: RunningHub, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dekbovinoj_edu.classroom.views.student import ClassApp

    monkeypatch.setenv("JUPYTERHUB_USER", "cyd")
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", hub.token_for("cyd"))
    monkeypatch.setenv("QUERY_STRING", "class=4a")
    app = ClassApp(server=hub.service_url)
    assert app.session is not None and app.session.joined
    assert app.session.nickname == "cyd"
    assert app.who.value == " · You are cyd."
    assert app.intro.value == "You are cyd."
    assert app.nickname.layout.display == "none" and app.rejoin.layout.display == "none"
    assert app.rejoin_line.value == "" and app.leave_button.layout.display == "none"
    app.answer.expression.value = "13*2+3-9-3-7"
    app.submit_button.click()
    assert app.session.waiting == 0
    monkeypatch.setenv("JUPYTERHUB_API_TOKEN", hub.token_for("bo"))
    impostor = ClassApp("4a", server=hub.service_url)  # bo's token, the name cyd: refused
    assert impostor.session is not None and not impostor.session.joined
    assert "only as yourself, bo" in impostor.join_message.value


def test_the_hub_runs_on_the_printed_fragment(hub: RunningHub) -> None:
    from dekbovinoj_edu.hub.config import jupyterhub_config

    assert hub.config_text.startswith(jupyterhub_config(hub.options))


def _page_token(page: requests.Response) -> str:
    """The XSRF token the dashboard's script sends with its requests."""
    settings = json.loads(page.text.split("const settings = ", 1)[1].split(";\n", 1)[0])
    return str(settings["xsrf"])


def test_a_seat_action_comes_only_from_the_dashboard_itself(hub: RunningHub) -> None:
    new_class("4d", codes=PETER.code, db=_db_of(hub))
    assert _join(hub, hub.token_for("ana"), "ana", "4d").status_code == 201
    tess = hub.login("tess")
    page = tess.get(f"{hub.service_url}classes/4d/", timeout=60)
    assert page.status_code == 200
    token = _page_token(page)
    assert len(token) > 20
    address = f"{hub.service_url}classes/4d/seats/reset"
    fetch = {"Sec-Fetch-Mode": "cors", "Content-Type": "application/json"}
    # Another page of the hub's origin (a student's server on a hub without subdomains) is
    # same-origin too: without the hub's token it is refused, whatever the browser says.
    for site in ("cross-site", "same-origin"):
        forged = tess.post(
            address, json={"nickname": "ana"}, headers={**fetch, "Sec-Fetch-Site": site},
            timeout=60,
        )  # fmt: skip
        assert forged.status_code == 403, site
    board = tess.get(
        f"{hub.service_url}classes/4d/board", timeout=60,
        headers={**fetch, "Sec-Fetch-Site": "same-origin", "X-XSRFToken": token},
    )  # fmt: skip
    assert board.status_code == 200 and "ana" in board.text
    done = tess.post(
        address, json={"nickname": "ana"}, timeout=60,
        headers={**fetch, "Sec-Fetch-Site": "same-origin", "X-XSRFToken": token},
    )  # fmt: skip
    assert done.status_code == 200, done.text
    assert "ana" in done.json()["message"]


def _db_of(hub: RunningHub) -> str:
    return hub.options.db


def test_no_kernel_is_left_behind_once_the_page_is_gone(hub: RunningHub) -> None:
    hub.start_server("ana")
    ana = hub.login("ana")
    page = ana.get(
        f"{hub.url}/hub/user-redirect/voila/render/dekbovinoj/dekbovinoj.ipynb", timeout=180
    )
    assert page.status_code == 200
    token = hub.token_for("ana", scopes=["access:servers!user=ana"])
    kernels = f"{hub.url}/user/ana/api/kernels"
    headers = {"Authorization": f"token {token}"}
    assert requests.get(kernels, headers=headers, timeout=60).json() != []  # the app, twice
    deadline = time.monotonic() + 75 + 15 + 60  # the culler's idle time and period, and slack
    while time.monotonic() < deadline:
        if requests.get(kernels, headers=headers, timeout=60).json() == []:
            break
        time.sleep(5)
    assert requests.get(kernels, headers=headers, timeout=60).json() == []
    hub.stop_server("ana")


def test_a_teacher_makes_and_manages_classes_in_the_browser_as_the_groups_allow(
    hub: RunningHub,
) -> None:
    fetch = {"Sec-Fetch-Mode": "cors", "Sec-Fetch-Site": "same-origin"}
    tess = hub.login("tess")  # the teachers' group: every class
    index = tess.get(hub.service_url, timeout=60)
    assert index.status_code == 200 and "<form class='dkb-new-class'" in index.text
    token = _page_token(index)
    new = f"{hub.service_url}classes/new"
    forged = tess.post(new, json={"name": "4m", "level": "1"}, headers=fetch, timeout=60)
    assert forged.status_code == 403  # no hub XSRF token: not the page itself
    signed = {**fetch, "X-XSRFToken": token}
    made = tess.post(new, json={"name": "4m", "level": "1", "count": "2", "seed": "3"},
                     headers=signed, timeout=60)  # fmt: skip
    assert made.status_code == 201, made.text
    assert made.json()["dashboard"] == "classes/4m/"
    dashboard = tess.get(f"{hub.service_url}classes/4m/", timeout=60)
    assert "voila/render/dekbovinoj/classroom.ipynb?class=4m" in dashboard.text
    assert "<svg" in dashboard.text
    assert _join(hub, hub.token_for("bo"), "bo", "4m").status_code == 201
    bad = tess.post(new, json={"name": "4n", "level": "9"}, headers=signed, timeout=60)
    assert (bad.status_code, bad.json()["error"]["code"]) == (422, "bad-assignment")
    # A teacher of 4b alone may make no other class and change no other class.
    tom = hub.login("tom")
    toms = {**fetch, "X-XSRFToken": _page_token(tom.get(hub.service_url, timeout=60))}
    other = tom.post(new, json={"name": "4p", "level": "1"}, headers=toms, timeout=60)
    assert (other.status_code, other.json()["error"]["code"]) == (403, "forbidden")
    ended = tom.post(f"{hub.service_url}classes/4m/end", json={}, headers=toms, timeout=60)
    assert ended.status_code == 403
    ana = hub.login("ana")  # a student: no page, no action
    assert ana.post(new, json={"name": "4q"}, headers=fetch, timeout=60).status_code == 403
    ended = tess.post(f"{hub.service_url}classes/4m/end", json={}, headers=signed, timeout=60)
    assert ended.status_code == 200, ended.text
    late = _join(hub, hub.token_for("cyd"), "cyd", "4m")
    assert late.status_code == 409 and late.json()["error"]["code"] == "puzzle-not-open"
    forgot = tess.post(f"{hub.service_url}classes/4m/forget", json={"confirm": "4M"},
                       headers=signed, timeout=60)  # fmt: skip
    assert forgot.status_code == 200, forgot.text
    assert "classes/4m/" not in tess.get(hub.service_url, timeout=60).text
