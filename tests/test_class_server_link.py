"""A link cannot send a student's seat elsewhere (issue 37, finding 3).

The static site's class page took ``?server=`` from its address as it came: a changed link
sent the nickname, the rejoin code, the token and every answer to a classmate's laptop, and
the student saw a normal class. Now the page's ``?server=`` is taken only for the page's own
origin or a class service the site was built for (``build-site --class --class-server URL``
writes the site's ``class-servers.json``, which the page reads first); any other address is
refused with one sentence, and the app connects nowhere. The browser's side is
tests/browser/test_class_service_in_browser.py; the build's, tests/test_site_build.py.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support.servers import recording_server

from dekbovinoj_edu.classroom.views import student
from dekbovinoj_edu.classroom.views.keeper import (
    CLASS_SERVERS,
    KEEPER_SCRIPT,
    MAX_SERVERS,
    SITE_KEEPER_SCRIPT,
    read_page,
)
from dekbovinoj_edu.i18n import gettext
from dekbovinoj_edu.site.pages import add_keeper_script
from dekbovinoj_edu.widgets.progress import SITE_PATH_SCRIPT

SITE = "https://site.school.example"
SERVICE = "http://192.168.1.23:8870"
CLASSMATE = "http://192.168.1.66:8870"
REFUSED = (
    "This link sends your work to another computer ({server}), which this site does not know. "
    "Ask your teacher for the class's link."
)


def page_says(server: str | None, allowed: Any = None, origin: str = SITE) -> str:
    page: dict[str, Any] = {"origin": origin, "class": "4a", "scope": "/"}
    if server is not None:
        page["server"] = server
    if allowed is not None:
        page["allowed"] = allowed
    return json.dumps({"page": page, "kept": {}})


def server_of(server: str | None, allowed: Any = None, origin: str = SITE) -> tuple[Any, Any]:
    read = read_page(page_says(server, allowed, origin))
    assert read is not None
    info = read[0]
    return info.service, info.refused


# --- what Python takes from the page -----------------------------------------------------------


@pytest.mark.parametrize("server", [SITE, SITE + "/", "HTTPS://Site.School.Example", SITE + ":443"])
def test_the_pages_own_origin_is_taken(server: str) -> None:
    assert server_of(server) == server_of(None) == (None, None)
    read = read_page(page_says(server))
    assert read is not None and read[0].server == SITE


def test_a_service_the_site_lists_is_taken() -> None:
    assert server_of(SERVICE, [SERVICE]) == (SERVICE, None)
    assert server_of(SERVICE + "/", ["http://192.168.1.23:8870/"]) == (SERVICE, None)
    assert server_of(SERVICE, ["https://other.example", SERVICE]) == (SERVICE, None)
    with_path = "https://school.example/dekbovinoj"
    assert server_of(with_path, [with_path + "/"]) == (with_path, None)


def test_any_other_service_is_refused() -> None:
    """Before: ``PageInfo.server`` was the classmate's laptop."""
    assert server_of(CLASSMATE) == (None, CLASSMATE)
    assert server_of(CLASSMATE, [SERVICE]) == (None, CLASSMATE)
    assert server_of(SERVICE.replace("http:", "https:"), [SERVICE]) == (
        None,
        SERVICE.replace("http:", "https:"),
    )
    assert server_of(SERVICE.replace("8870", "8871"), [SERVICE])[0] is None
    assert server_of(SERVICE + "/elsewhere", [SERVICE])[0] is None  # exactly as listed
    assert server_of(SITE + "/api", [])[0] is None  # a path on the own origin is not the origin
    # a service's address that another page reports as its origin lets no one else in
    assert server_of(CLASSMATE, [], origin="http://127.0.0.1:8000")[1] == CLASSMATE
    read = read_page(page_says(CLASSMATE))
    assert read is not None and read[0].server == SITE  # never the refused address


def test_a_list_that_is_not_a_list_of_addresses_lets_nothing_in() -> None:
    for allowed in [
        SERVICE,  # a string, not a list
        {"servers": [SERVICE]},
        {SERVICE: True},
        7,
        [[SERVICE]],
        [{"url": SERVICE}],
        ["ftp://192.168.1.23:8870", "192.168.1.23:8870", "http://me:pw@192.168.1.23:8870"],
        ["x" * 3000],
    ]:
        assert server_of(SERVICE, allowed) == (None, SERVICE), allowed
    # one bad entry does not spoil the others
    assert server_of(SERVICE, [7, None, "javascript:alert(1)", SERVICE]) == (SERVICE, None)


def test_the_list_is_bounded() -> None:
    listed = [f"http://10.0.{n // 250}.{n % 250}:8870" for n in range(MAX_SERVERS - 1)]
    assert server_of(SERVICE, [*listed, SERVICE]) == (SERVICE, None)
    assert server_of(SERVICE, [*listed, "http://10.9.9.9", SERVICE]) == (None, SERVICE)


def test_a_malformed_server_is_ignored_as_before() -> None:
    for server in ["ftp://x", "", "not an address", 7, None]:
        read = read_page(json.dumps({"page": {"origin": SITE, "server": server}}))
        assert read is not None and read[0].server == SITE and read[0].refused is None


# --- the page's script -------------------------------------------------------------------------


def test_the_sites_class_page_reads_its_list_before_it_tells_the_app_anything() -> None:
    assert CLASS_SERVERS == "class-servers.json"
    assert f'var SERVERS = "{CLASS_SERVERS}";' in SITE_KEEPER_SCRIPT
    assert f"window.fetch({SITE_PATH_SCRIPT} + SERVERS," in SITE_KEEPER_SCRIPT  # the site's root
    assert "if (!input || allowed === null) { return; }" in SITE_KEEPER_SCRIPT
    assert "allowed: allowed" in SITE_KEEPER_SCRIPT
    assert SITE_KEEPER_SCRIPT in add_keeper_script("<body></body>")


def test_voilas_page_fetches_nothing() -> None:
    """The same script runs on Voilà's page, where no list is: no request, no 404."""
    assert "var SERVERS = null;" in KEEPER_SCRIPT and "var allowed = SERVERS ? null : [];" in (
        KEEPER_SCRIPT
    )
    for script in (KEEPER_SCRIPT, SITE_KEEPER_SCRIPT):  # both go into Jinja templates too
        assert not {"{{", "{%", "{#"} & {script[i : i + 2] for i in range(len(script) - 1)}


# --- the app -----------------------------------------------------------------------------------


@pytest.fixture
def browser_app(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """``make(lang)``: a class app as on the static site (the browser's Python), before the page
    has said where it is."""
    monkeypatch.setattr(student, "BROWSER", True)
    monkeypatch.delenv("DEKBOVINOJ_CLASS", raising=False)
    monkeypatch.delenv("DEKBOVINOJ_CLASS_SERVER", raising=False)
    yield lambda lang="en": student.ClassApp(lang=lang)


@pytest.mark.parametrize("lang", ["en", "eo", "sv", "ja"])
def test_a_changed_link_shows_one_sentence_and_sends_nothing(browser_app: Any, lang: str) -> None:
    with recording_server() as classmate:
        app = browser_app(lang)
        app.keeper.value = json.dumps(
            {
                "page": {
                    "origin": "http://127.0.0.1:8000",
                    "class": "4a",
                    "server": classmate.url,
                    "allowed": [SERVICE],
                },
                "kept": {},
            }
        )
        for _ in range(3):  # the page's signs of life try nothing either
            app.heartbeat.value += 1
        assert classmate.requests == []
    said = gettext(lang, "classroom", REFUSED, server=classmate.url)
    assert said != REFUSED.format(server=classmate.url) or lang == "en"
    assert said in app.title.value.replace("&#x27;", "'")
    assert app.session is None and app._backend is None
    assert not app._built  # no join screen: nowhere to type a nickname


def test_a_listed_service_is_reached(browser_app: Any, tmp_path: Path) -> None:
    from dekbovinoj_edu.classroom.store.classes import new_class
    from dekbovinoj_edu.serving.class_process import start_class_service

    db = tmp_path / "classes.sqlite3"
    new_class("4a", codes="68VN-AV66-GGK", db=db)
    service = start_class_service("4a", db=str(db))
    try:
        app = browser_app()
        page = {"origin": "http://127.0.0.1:8000", "class": "4a", "server": service.url}
        app.keeper.value = json.dumps({"page": {**page, "allowed": [service.url + "/"]}})
        assert app.session is not None and app.session.backend.server == service.url
        app.nickname.value = "Ana"
        app.join_button.click()
        assert "Puzzle 1 of 1" in app.counter.value
    finally:
        service.stop()
