"""The teacher's classes on a class service's page (issue 38, item 5; issue 41, item 10): the
list and the form behind the teacher's sign-in, a class made with ``class new``'s own rules,
served to students at once, renamed, ended (no more answers, the board kept) and forgotten
(its name typed, in any case); every action a JSON POST of the page itself, every refusal a
4xx with a stable code in the teacher's language (never a 500); the dashboard shows the
address students type, the class's QR code, and the table in large type on the projector."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from support.class_service import Api, running_service
from support.puzzles import PETER
from support.servers import other_address

from dekbovinoj_edu.class_service.run import ClassServer
from dekbovinoj_edu.class_service.state import Service
from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.store import SQLStore, open_store
from dekbovinoj_edu.cli.class_form import make_from_form


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SQLStore]:
    made = open_store(tmp_path / "classes.sqlite3")
    made.add_class(codes_assignment("4a", PETER.code))
    yield made
    made.close()


@pytest.fixture
def served(store: SQLStore) -> Iterator[tuple[ClassServer, Api, dict[str, str]]]:
    with running_service(store, "4a", class_maker=make_from_form) as (server, api):
        signed = api.sign_in(f"/teacher/{server.service.secret}/")
        yield server, api, signed


def test_the_classes_page_opens_only_for_the_signed_in_teacher(
    served: tuple[ClassServer, Api, dict[str, str]],
) -> None:
    _, api, signed = served
    page = api.call("GET", "/teacher/classes/", headers=signed)
    assert page.status == 200 and "Your classes" in page.text
    assert "href='4a/'" in page.text and "<form class='dkb-new-class'" in page.text
    assert api.call("GET", "/teacher/classes", headers=signed).status == 302
    for path in ("/teacher/classes/", "/teacher/classes/4a/"):
        stranger = api.call("GET", path)
        assert stranger.status == 404 and "4a" not in stranger.text
    made = api.call("POST", "/teacher/classes/new", {"name": "4x", "level": "1"})
    assert made.status == 404 and store_classes(api, signed) == ["4a"]
    for lang in ("eo", "sv", "ja"):  # every word of the page in the teacher's language
        other = api.call("GET", f"/teacher/classes/?lang={lang}", headers=signed).text
        shown = re.sub(r"<[^>]+>", " ", other[other.index("<body") : other.index("<script>")])
        words = ("Class", "Level", "Make", "Rename", "Forget", "Puzzles", "either", "Content-Type")
        english = [word for word in words if re.search(rf"\b{word}\b", shown)]
        assert english == [], (lang, english)


def store_classes(api: Api, signed: dict[str, str]) -> list[str]:
    page = api.call("GET", "/teacher/classes/", headers=signed).text
    return re.findall(r"<tr class='dkb-class[^']*' data-name='([^']+)'", page)


def test_a_class_made_in_the_form_is_served_to_students_at_once(
    served: tuple[ClassServer, Api, dict[str, str]], store: SQLStore
) -> None:
    server, api, signed = served
    fields = {"name": "4b", "level": "1", "count": "3", "seed": "7", "jokers": "no",
              "mode": "test", "difficulty": "easy"}  # fmt: skip
    made = api.call("POST", "/teacher/classes/new?lang=en", fields, headers=signed)
    assert made.status == 201, made.text
    assert made.document == {
        "message": "Class 4b is made. Puzzles: 3.", "name": "4b", "dashboard": "4b/",
    }  # fmt: skip
    assignment = store.assignment("4b")
    assert (assignment.size, assignment.mode, assignment.level) == (3, "test", "1")
    assert all(not puzzle.has_joker for puzzle in assignment.puzzles)
    joined = api.join("Ana", name="4b")
    assert joined.status == 201, joined.text
    dashboard = api.call("GET", "/teacher/classes/4b/", headers=signed)
    assert dashboard.status == 200 and "Class 4b" in dashboard.text
    assert server.url in dashboard.text and "<svg" in dashboard.text  # the address, the QR
    board = api.call("GET", "/teacher/classes/4b/board", headers=signed)
    assert "Ana" in board.text
    assert store_classes(api, signed) == ["4a", "4b"]


def test_an_older_class_of_the_store_is_shown_but_not_served(
    store: SQLStore,
) -> None:
    store.add_class(codes_assignment("3c", PETER.code))  # made before the service started
    with running_service(store, "4a", class_maker=make_from_form) as (server, api):
        signed = api.sign_in(f"/teacher/{server.service.secret}/")
        assert api.join("Bo", name="3c").code == "unknown-class"
        page = api.call("GET", "/teacher/classes/3c/", headers=signed)
        assert page.status == 200 and "dekbovinoj class serve 3c" in page.text
        assert "<svg" not in page.text


@pytest.mark.parametrize(
    ("fields", "code", "field"),
    [
        ({"name": "4a", "level": "1"}, "class-exists", None),
        ({"name": "4c", "level": "1", "count": "many"}, "bad-assignment", None),
        ({"name": "4c", "level": "7"}, "bad-assignment", None),
        ({"name": "4c", "codes": "NOT-A-CODE"}, "bad-assignment", None),
        ({"name": "4c", "codes": PETER.code, "level": "1"}, "bad-assignment", None),
        ({"name": "4c", "lesson": "1", "jokers": "yes"}, "bad-assignment", None),
        ({"name": "4c", "colour": "red"}, "bad-assignment", None),
        ({"name": "", "level": "1"}, "bad-assignment", None),
        ({"name": "--help"}, None, None),  # a name is never an option: this one is made
        ({"name": "4c", "at_level": "maybe"}, "bad-assignment", None),
        ({"name": ["4c"]}, "bad-assignment", None),
    ],
)
def test_bad_input_in_the_form_is_a_4xx_with_a_stable_code(
    served: tuple[ClassServer, Api, dict[str, str]],
    fields: dict[str, object],
    code: str | None,
    field: str | None,
) -> None:
    _, api, signed = served
    answer = api.call("POST", "/teacher/classes/new?lang=sv", fields, headers=signed)
    if code is None:
        assert answer.status == 201, answer.text
        return
    assert 400 <= answer.status < 500, answer.text
    assert answer.code == code and answer.document["error"]["message"]


def test_a_refusal_speaks_the_teachers_language(
    served: tuple[ClassServer, Api, dict[str, str]],
) -> None:
    _, api, signed = served
    english = api.call("POST", "/teacher/classes/new?lang=en", {"name": "4A"}, headers=signed)
    esperanto = api.call("POST", "/teacher/classes/new?lang=eo", {"name": "4A"}, headers=signed)
    assert english.code == esperanto.code == "class-exists"
    assert english.document["error"]["message"] != esperanto.document["error"]["message"]
    bad = api.call("POST", "/teacher/classes/new?lang=ja", {"name": "4c", "count": "x"},
                   headers=signed)  # fmt: skip
    assert bad.code == "bad-assignment" and "クラス" in bad.document["error"]["message"]


def test_every_action_is_a_json_post_of_the_page_itself(
    served: tuple[ClassServer, Api, dict[str, str]], store: SQLStore
) -> None:
    _, api, signed = served
    elsewhere = {**signed, "Origin": "http://evil.example"}
    for path, body in (
        ("/teacher/classes/new", {"name": "4z", "level": "1"}),
        ("/teacher/classes/4a/end", {}),
        ("/teacher/classes/4a/rename", {"name": "4q"}),
        ("/teacher/classes/4a/forget", {"confirm": "4a"}),
    ):
        other = api.call("POST", path, body, headers=elsewhere)
        assert (other.status, other.code) == (403, "forbidden"), path
        form = api.call("POST", path, raw=b"name=4z&level=1", headers={
            **signed, "Content-Type": "application/x-www-form-urlencoded"})  # fmt: skip
        assert (form.status, form.code) == (400, "bad-request"), path
        assert api.call("GET", path, headers=signed).status in (404, 405)
    assert [a.name for a in store.classes()] == ["4a"] and store.ended_classes() == set()


def test_a_class_is_renamed_ended_and_forgotten_from_the_page(
    served: tuple[ClassServer, Api, dict[str, str]], store: SQLStore
) -> None:
    _, api, signed = served
    assert api.call("POST", "/teacher/classes/new", {"name": "5b", "level": "1", "count": "2"},
                    headers=signed).status == 201  # fmt: skip
    token = api.join("Ana", name="5b").document["token"]
    renamed = api.call("POST", "/teacher/classes/5B/rename?lang=en", {"name": "5c"},
                       headers=signed)  # fmt: skip
    assert renamed.status == 200, renamed.text
    assert renamed.document["message"] == "Class 5b is now called 5c."
    assert api.call("GET", "/api/v1/classes/5c/me", token=token).status == 200
    taken = api.call("POST", "/teacher/classes/5c/rename", {"name": "4A"}, headers=signed)
    assert (taken.status, taken.code) == (409, "class-exists")
    ended = api.call("POST", "/teacher/classes/5c/end?lang=en", {}, headers=signed)
    assert ended.document["message"] == "Class 5c has ended: its board and report stay."
    late = api.call("POST", "/api/v1/classes/5c/join", {"nickname": "Bo"})
    assert (late.status, late.code) == (409, "puzzle-not-open") and "ended" in late.text
    assert "dkb-ended" in api.call("GET", "/teacher/classes/", headers=signed).text
    assert "Ana" in api.call("GET", "/teacher/classes/5c/board", headers=signed).text
    for typed in ("", "5b", "5 c", None):
        kept = api.call("POST", "/teacher/classes/5c/forget", {"confirm": typed}, headers=signed)
        assert (kept.status, kept.code) == (422, "invalid"), typed
    assert store.assignment("5c").name == "5c"
    forgot = api.call("POST", "/teacher/classes/5c/forget?lang=en", {"confirm": " 5C "},
                      headers=signed)  # fmt: skip
    assert forgot.status == 200 and forgot.document["message"].startswith("Class 5c was forgotten")
    assert [a.name for a in store.classes()] == ["4a"]
    own = api.call("POST", "/teacher/classes/4a/forget", {"confirm": "4a"}, headers=signed)
    assert own.status == 422 and "stop it" in own.text and store.assignment("4a")
    unknown = api.call("POST", "/teacher/classes/9z/end", {}, headers=signed)
    assert (unknown.status, unknown.code) == (404, "unknown-class")


def test_renaming_the_services_own_class_keeps_it_served(
    served: tuple[ClassServer, Api, dict[str, str]],
) -> None:
    server, api, signed = served
    assert api.call("POST", "/teacher/classes/4a/rename", {"name": "4a maths"},
                    headers=signed).status == 200  # fmt: skip
    assert server.service.name == "4a maths"
    assert api.join("Ana", name="4a%20maths").status == 201
    assert "Class 4a maths" in api.call("GET", "/teacher/", headers=signed).text


def test_the_dashboard_shows_where_students_go_and_projects_in_large_type(
    served: tuple[ClassServer, Api, dict[str, str]],
) -> None:
    server, api, signed = served
    page = api.call("GET", "/teacher/?projector=1", headers=signed).text
    assert f"<p class='dkb-address-text'>{server.url}</p>" in page
    assert re.search(r"<div class='dkb-address-qr'[^>]*><svg[^>]*viewBox", page)
    assert 'class="dkb-dashboard dkb-projecting"' in page
    assert ".dkb-projecting .dkb-board table { font-size: 28px; }" in page
    assert "href='classes/'" in page  # the way to the teacher's classes
    assert "http://" not in page.replace(server.url, "")  # nothing from another server


def test_beside_voila_the_dashboard_shows_the_apps_address_for_its_own_class(
    store: SQLStore,
) -> None:
    from dekbovinoj_edu.serving.class_process import service_command

    app = "http://192.0.2.7:8866/?key=cow7"  # serve --class: Voilà runs class 4a
    assert service_command("4a", port=0, app_url=app)[-2:] == ["--app-url", app]
    with running_service(store, "4a", class_maker=make_from_form, app_url=app) as (server, api):
        signed = api.sign_in(f"/teacher/{server.service.secret}/")
        own = api.call("GET", "/teacher/", headers=signed).text
        assert f"<p class='dkb-address-text'>{app.replace('&', '&amp;')}</p>" in own
        assert f"data-link='{app}'" in own
        made = api.call("POST", "/teacher/classes/new", {"name": "4b", "level": "1"},
                        headers=signed)  # fmt: skip
        assert made.status == 201
        other = api.call("GET", "/teacher/classes/4b/", headers=signed).text
        assert "dekbovinoj serve --class 4b" in other and "<svg" not in other


def test_another_computer_signed_in_or_not_gets_403_on_the_classes(store: SQLStore) -> None:
    here = other_address()
    if here is None:
        pytest.skip("this computer has no address but loopback")
    server = ClassServer(Service(store, "4a", class_maker=make_from_form), host="0.0.0.0")
    server.start()
    try:
        local, remote = Api(server.url), Api(f"http://{here}:{server.port}/")
        signed = local.sign_in(f"/teacher/{server.service.secret}/")
        for method, path, body in (
            ("GET", "/teacher/classes/", None),
            ("GET", "/teacher/classes/4a/", None),
            ("POST", "/teacher/classes/new", {"name": "4x", "level": "1"}),
            ("POST", "/teacher/classes/4a/end", {}),
        ):
            answer = remote.call(method, path, body, headers=signed)
            assert answer.status == 403 and "--teacher-from" in answer.text, path
        assert [a.name for a in store.classes()] == ["4a"] and store.ended_classes() == set()
        page = local.call("GET", "/teacher/", headers=signed).text
        shown = re.search(rf"dkb-address-text'>http://([\d.]+):{server.port}/<", page)
        assert shown and not shown[1].startswith("127.")  # a network's address, typed
    finally:
        server.close()


def test_a_deal_longer_than_the_stores_patience_is_waited_for(store: SQLStore) -> None:
    import time

    def slow(opened: object, fields: object) -> object:
        time.sleep(0.6)  # a long deal: 100 puzzles of level 3 with a filter
        return make_from_form(opened, fields)  # type: ignore[arg-type]

    with running_service(store, "4a", class_maker=slow, patience=0.2) as (server, api):
        signed = api.sign_in(f"/teacher/{server.service.secret}/")
        made = api.call("POST", "/teacher/classes/new", {"name": "4s", "level": "1"},
                        headers=signed)  # fmt: skip
        assert made.status == 201, made.text
        assert api.join("Ana", name="4s").status == 201


def test_the_page_makes_a_class_with_a_roster_and_changes_who_may_join(
    served: tuple[ClassServer, Api, dict[str, str]], store: SQLStore
) -> None:
    _, api, signed = served
    page = api.call("GET", "/teacher/classes/", headers=signed).text
    assert "<textarea name='roster'" in page and "name='roster_group'" not in page  # no hub
    fields = {"name": "4r", "codes": PETER.code, "roster": "Ana\nBo"}
    assert api.call("POST", "/teacher/classes/new", fields, headers=signed).status == 201
    joined = api.call("POST", "/api/v1/classes/4r/join?lang=ja", {"nickname": "Cy"})
    assert (joined.status, joined.document["error"]["code"]) == (403, "not-on-roster")
    assert (
        "4r" in joined.document["error"]["message"]
        and "Ask" not in joined.document["error"]["message"]
    )
    assert api.call("POST", "/api/v1/classes/4r/join", {"nickname": "bo"}).status == 201
    assert "data-roster='Ana, Bo'" in api.call("GET", "/teacher/classes/", headers=signed).text
    changed = api.call("POST", "/teacher/classes/4r/roster?lang=en", {"roster": "Cy, Ana"},
                       headers=signed)  # fmt: skip
    assert changed.status == 200, changed.text
    assert changed.document["message"] == "Only those on the list may join class 4r."
    assert api.call("POST", "/api/v1/classes/4r/join", {"nickname": "Cy"}).status == 201
    bad = api.call("POST", "/teacher/classes/4r/roster", {"roster": 3}, headers=signed)
    assert bad.status == 422 and bad.document["error"]["field"] == "roster"
    lifted = api.call("POST", "/teacher/classes/4r/roster?lang=sv", {"roster": " "},
                      headers=signed)  # fmt: skip
    assert lifted.document["message"] == "Klassen 4r tar emot alla som har länken."
    assert store.roster("4r") is None
    assert api.call("POST", "/api/v1/classes/4r/join", {"nickname": "Di"}).status == 201
