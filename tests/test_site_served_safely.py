"""The class service's ``--site`` serves the built site and nothing else of the folder: no
hidden file or folder (``.ssh``, ``.git``), nothing a link leads to outside it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from support.class_service import Api, running_service
from support.puzzles import PETER

from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.store import SQLiteStore


@pytest.fixture
def site_api(tmp_path: Path) -> Iterator[Api]:
    site = tmp_path / "site"
    (site / ".ssh").mkdir(parents=True)
    (site / ".ssh" / "id_rsa").write_text("PRIVATE KEY")
    (site / ".env").write_text("SECRET=1")
    (site / "index.html").write_text("<!DOCTYPE html><p>the site</p>")
    (site / "lessons").mkdir()
    (site / "lessons" / "one.html").write_text("<p>lesson</p>")
    outside = tmp_path / "classes.sqlite3"
    store = SQLiteStore(outside)
    store.add_class(codes_assignment("4a", PETER.code))
    (site / "db.sqlite3").symlink_to(outside)
    try:
        with running_service(store, "4a", site=site) as (_, api):
            yield api
    finally:
        store.close()


def test_the_sites_files_are_served(site_api: Api) -> None:
    assert site_api.call("GET", "/index.html").status == 200
    assert site_api.call("GET", "/lessons/one.html").data == b"<p>lesson</p>"


@pytest.mark.parametrize("path", ["/.ssh/id_rsa", "/.env", "/lessons/../.env", "/db.sqlite3"])
def test_hidden_files_and_links_out_of_the_site_are_not_there(site_api: Api, path: str) -> None:
    answer = site_api.call("GET", path)
    assert answer.status in (403, 404)
    assert b"PRIVATE KEY" not in answer.data and b"SECRET" not in answer.data
    assert b"SQLite format" not in answer.data


@pytest.mark.parametrize("path", ["/api/v1/classes/4a", "/index.html", "/"])
def test_a_name_made_to_point_here_is_refused(site_api: Api, path: str) -> None:
    """DNS rebinding: a page of evil.example whose name now leads to 127.0.0.1."""
    assert site_api.call("GET", path, headers={"Host": "evil.example:8870"}).status == 403
    assert site_api.call("GET", path, headers={"Host": "localhost"}).status in (200, 302)
