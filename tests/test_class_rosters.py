"""Rosters (issue 38, item 6): a class limited to a hub group or to a pasted list of names,
on SQLite and PostgreSQL; the desk refuses a new seat to anyone not on it (hub names exactly,
typed nicknames by their key), keeps the seats taken before; revision 0005 adds the column
and goes up and down with every row; ``class new --roster``; the service answers 403
``not-on-roster`` in the student's language."""

from __future__ import annotations

import contextlib
import io
import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from support.puzzles import PETER

from dekbovinoj_edu.class_service.run import ClassServer
from dekbovinoj_edu.class_service.state import Service
from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.errors import BadAssignmentError, NotOnRosterError
from dekbovinoj_edu.classroom.roster import MAX_ROSTER, Roster, parse_roster
from dekbovinoj_edu.classroom.store import SQLStore
from dekbovinoj_edu.classroom.store.desk import ClassDesk
from dekbovinoj_edu.classroom.store.migrating import migrate
from dekbovinoj_edu.cli import main
from dekbovinoj_edu.cli.class_form import make_from_form

E_MAIL = "anna.svensson.2015@larkstadens-skola.se"


def test_a_roster_is_kept_read_and_moved_with_a_renamed_class(any_store: SQLStore) -> None:
    any_store.add_class(codes_assignment("4a", PETER.code), parse_roster("Ana\nBo, group:4a"))
    assert any_store.roster("4A") == Roster(("Ana", "Bo"), ("4a",))
    any_store.add_class(codes_assignment("4b", PETER.code))
    assert any_store.roster("4b") is None
    assert any_store.rename_class("4a", "Maths 4a") == "Maths 4a"
    assert any_store.roster("maths 4a") == Roster(("Ana", "Bo"), ("4a",))
    assert any_store.set_roster("Maths 4a", None) == "Maths 4a"
    assert any_store.roster("Maths 4a") is None


def test_off_a_hub_only_nicknames_on_the_list_take_a_seat_as_the_store_keys_them(
    any_store: SQLStore,
) -> None:
    any_store.add_class(codes_assignment("4a", PETER.code))
    desk = ClassDesk(any_store, "4a", clock=lambda: 1000.0)
    early = desk.join("Dan")  # before the roster: Dan's seat stays his
    any_store.set_roster("4a", parse_roster("\u0410na\nBo\ngroup:4a"))  # a Cyrillic А
    with pytest.raises(NotOnRosterError) as refused:
        desk.join("Cy")
    assert refused.value.code == "not-on-roster"
    assert refused.value.message("en") == ("You are not on the list of class 4a. Ask your teacher.")
    assert {refused.value.message(lang) for lang in ("eo", "sv", "ja")}.isdisjoint(
        {refused.value.message("en")}
    )
    with pytest.raises(NotOnRosterError):
        desk.join("4a")  # a group's name is not a nickname
    assert not desk.join("ANA").resumed  # case and look-alike letters: the nickname key
    assert not desk.join("Bo").resumed
    assert desk.join("Dan", early.rejoin_code).resumed
    assert [seat.nickname for seat in any_store.seats("4a")] == ["Dan", "ANA", "Bo"]


def test_on_a_hub_a_name_is_compared_exactly_and_a_group_admits_its_members(
    any_store: SQLStore,
) -> None:
    any_store.add_class(codes_assignment("4a", PETER.code), parse_roster(f"{E_MAIL}\ngroup:4a"))
    desk = ClassDesk(any_store, "4a", clock=lambda: 1000.0)
    assert desk.join_vouched(E_MAIL).seat.nickname == E_MAIL
    with pytest.raises(NotOnRosterError):
        desk.join_vouched(E_MAIL.upper())  # another hub user, whatever it looks like
    with pytest.raises(NotOnRosterError):
        desk.join_vouched("bo", ["4b", "chess"])
    assert not desk.join_vouched("bo", ["4a"]).resumed
    assert desk.join_vouched("bo", []).resumed  # left the group: the seat stays
    assert len(any_store.seats("4a")) == 2


def test_a_pasted_roster_is_checked() -> None:
    assert parse_roster("a;b\r\nc,,a") == Roster(("a", "b", "c"))
    with pytest.raises(BadAssignmentError):
        parse_roster("x" * 300)
    with pytest.raises(BadAssignmentError):
        parse_roster(",".join(str(n) for n in range(MAX_ROSTER + 1)))
    with pytest.raises(BadAssignmentError):
        parse_roster("group:  ")


def test_class_new_and_the_form_take_a_roster(tmp_path: Path) -> None:
    db = str(tmp_path / "c.sqlite3")
    with contextlib.redirect_stdout(io.StringIO()) as out:
        code = main(["class", "new", "4a", "--codes", PETER.code, "--roster", "group:4a",
                     "--roster", "Ana,Bo", "--db", db])  # fmt: skip
    assert code == 0 and "Who may join: Ana, Bo, group:4a" in out.getvalue()
    store = SQLStore(db)
    try:
        assert store.roster("4a") == Roster(("Ana", "Bo"), ("4a",))
        made = make_from_form(
            store, {"name": "4b", "codes": PETER.code, "roster": "Cy\nDi", "roster_group": "4b"}
        )
        assert store.roster(made.name) == Roster(("Cy", "Di"), ("4b",))
        make_from_form(store, {"name": "4c", "codes": PETER.code, "roster": " \n "})
        assert store.roster("4c") is None
        with pytest.raises(BadAssignmentError):
            make_from_form(store, {"name": "4d", "codes": PETER.code, "roster": "group:"})
        assert [a.name for a in store.classes()] == ["4a", "4b", "4c"]
    finally:
        store.close()


# --- the service -------------------------------------------------------------------------


@pytest.fixture
def service_url(any_store: SQLStore) -> Iterator[str]:
    any_store.add_class(codes_assignment("4a", PETER.code), parse_roster("Ana"))
    server = ClassServer(Service(any_store, None))
    server.start()
    try:
        yield server.url
    finally:
        server.close()


def _post(url: str, body: dict[str, Any]) -> tuple[int, Any]:
    request = urllib.request.Request(
        url,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            return answer.status, json.loads(answer.read())
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read())


def test_the_service_refuses_a_student_not_on_the_roster_in_their_language(
    service_url: str,
) -> None:
    join = f"{service_url}api/v1/classes/4a/join"
    status, body = _post(f"{join}?lang=sv", {"nickname": "Bo"})
    assert (status, body["error"]["code"]) == (403, "not-on-roster")
    assert body["error"]["message"] == "Du står inte på listan för klass 4a. Fråga din lärare."
    status, body = _post(join, {"nickname": "ana"})
    assert status == 201 and body["seat"]["nickname"] == "ana"


# --- revision 0005: rosters ----------------------------------------------------------------


def _columns(engine: sa.Engine) -> set[str]:
    return {c["name"] for c in sa.inspect(engine).get_columns("classes")}


def _check_0005_up_and_down(url: str) -> None:
    """A database at 0004 with a class, a seat and an attempt goes up to 0005 (the class gets
    a roster there) and back down to 0004 with every row, then up again."""
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        migrate(connection, "0004")
    assert "roster" not in _columns(engine)
    engine.dispose()
    store = SQLStore(url)  # opening migrates to the newest revision
    store.add_class(codes_assignment("4a", PETER.code))
    desk = ClassDesk(store, "4a", clock=lambda: 1000.0)
    ana = desk.join("Ana")
    desk.attempt(ana.token, "a1", 1, "13 + 9")
    store.set_roster("4a", parse_roster("Bo"))
    store.end_class("4a")
    store.close()
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        migrate(connection, "0004")
    assert "roster" not in _columns(engine)
    with engine.connect() as connection:
        rows = connection.execute(sa.text('SELECT "class", nickname FROM attempts')).all()
        seats = connection.execute(sa.text("SELECT nickname FROM seats")).all()
        ended = connection.execute(sa.text("SELECT ended FROM classes")).scalar()
        version = connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
    assert [tuple(row) for row in rows] == [("4a", "Ana")]
    assert ([tuple(s) for s in seats], ended is not None, version) == ([("Ana",)], True, "0004")
    engine.dispose()
    again = SQLStore(url)
    assert again.roster("4a") is None  # the older version had no roster
    assert [a.nickname for a in again.attempts("4a")] == ["Ana"]
    again.close()


def test_revision_0005_goes_up_and_down_with_every_row_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'c.sqlite3'}"
    _check_0005_up_and_down(url)
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        migrate(connection, "0004")
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA user_version").scalar() == 4
    engine.dispose()


@pytest.mark.postgres
def test_revision_0005_goes_up_and_down_with_every_row_on_postgresql(
    fresh_postgres_url: str,
) -> None:
    _check_0005_up_and_down(fresh_postgres_url)


def test_class_roster_says_sets_and_lifts_who_may_join(tmp_path: Path) -> None:
    db = str(tmp_path / "c.sqlite3")
    store = SQLStore(db)
    store.add_class(codes_assignment("4a", PETER.code))
    store.close()

    def run(*words: str) -> tuple[int, str]:
        with (
            contextlib.redirect_stdout(io.StringIO()) as out,
            contextlib.redirect_stderr(io.StringIO()) as err,
        ):
            code = main(["class", "roster", *words, "--db", db])
        return code, out.getvalue() + err.getvalue()

    assert run("4a") == (0, "Who may join class 4a: anyone with the class's link.\n")
    assert run("4A", "--roster", "group:4a") == (0, "Who may join class 4a: group:4a.\n")
    assert run("4a", "--roster", "Bo", "--anyone")[0] == 2
    assert run("4a", "--roster", "group:")[0] == 2
    assert run("4a") == (0, "Who may join class 4a: group:4a.\n")
    assert run("4a", "--anyone") == (0, "Who may join class 4a: anyone with the class's link.\n")


def test_the_students_screen_says_who_is_not_on_the_list_in_their_language(
    tmp_path: Path,
) -> None:
    from dekbovinoj_edu.classroom import ClassApp

    store = SQLStore(str(tmp_path / "c.sqlite3"))
    try:
        store.add_class(codes_assignment("4a", PETER.code), parse_roster("Ana"))
        app = ClassApp("4a", store=store, lang="sv")
        app.nickname.value = "Bo"
        app.join_button.click()
        assert "Du står inte på listan för klass 4a. Fråga din lärare." in app.join_message.value
        app.nickname.value = "ana"
        app.join_button.click()
        assert [seat.nickname for seat in store.seats("4a")] == ["ana"]
    finally:
        store.close()
