"""Classes managed by the teacher (issue 38, item 5): rename one with its seats and attempts,
end one (no more joins or answers, the board kept), on SQLite and PostgreSQL; revision 0004
adds the column an ended class needs, and goes up and down with every row."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
import sqlalchemy as sa
from support.puzzles import PETER

from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.errors import (
    ClassEndedError,
    ClassExistsError,
    PuzzleNotOpenError,
    UnknownClassError,
)
from dekbovinoj_edu.classroom.store import SQLStore
from dekbovinoj_edu.classroom.store.desk import ClassDesk
from dekbovinoj_edu.classroom.store.migrating import migrate
from dekbovinoj_edu.classroom.store.tables import HEAD_REVISION

BEST = "13*2+3-9-3-7"


def _class_with_ana(store: SQLStore, name: str = "4a") -> str:
    """Class ``name`` with Ana, who answered once, wrong; returns her token."""
    store.add_class(codes_assignment(name, f"{PETER.code},{PETER.code}"))
    desk = ClassDesk(store, name, clock=lambda: 1000.0)
    ana = desk.join("Ana")
    desk.attempt(ana.token, "a1", 1, "13 + 9")
    return ana.token


def test_a_renamed_class_keeps_its_seats_sessions_and_attempts(any_store: SQLStore) -> None:
    token = _class_with_ana(any_store)
    assert any_store.rename_class("4A", " Maths 4a ") == "Maths 4a"
    assert [a.name for a in any_store.classes()] == ["Maths 4a"]
    with pytest.raises(UnknownClassError):
        any_store.assignment("4a")
    assert [a.nickname for a in any_store.attempts("maths 4A")] == ["Ana"]
    desk = ClassDesk(any_store, "Maths 4a", clock=lambda: 1001.0)
    assert desk.place(token).nickname == "Ana"  # her page goes on, under the new name
    assert desk.attempt(token, "a2", 1, BEST).attempt.verdict == "ok"
    assert any_store.rename_class("maths 4a", "MATHS 4A") == "MATHS 4A"  # only the case
    assert len(any_store.attempts("MATHS 4A")) == 2


def test_a_class_is_not_renamed_onto_another(any_store: SQLStore) -> None:
    _class_with_ana(any_store, "4a")
    any_store.add_class(codes_assignment("4b", PETER.code))
    with pytest.raises(ClassExistsError, match="'4b' exists already"):
        any_store.rename_class("4a", "4B")
    with pytest.raises(UnknownClassError):
        any_store.rename_class("4z", "4y")
    assert [a.name for a in any_store.classes()] == ["4a", "4b"]
    assert len(any_store.attempts("4a")) == 1


def test_an_ended_class_takes_no_join_and_no_answer_and_keeps_its_rows(
    any_store: SQLStore,
) -> None:
    token = _class_with_ana(any_store)
    assert any_store.ended_classes() == set() and not any_store.is_ended("4a")
    assert any_store.end_class("4A") == "4a"
    assert any_store.ended_classes() == {"4a"} and any_store.is_ended("4a")
    desk = ClassDesk(any_store, "4a", clock=lambda: 1002.0)
    with pytest.raises(ClassEndedError) as ended:
        desk.join("Bo")
    assert isinstance(ended.value, PuzzleNotOpenError) and ended.value.code == "puzzle-not-open"
    assert "has ended" in ended.value.message("en")
    assert ended.value.message("eo") != ended.value.message("en")
    with pytest.raises(ClassEndedError):
        desk.attempt(token, "a2", 1, BEST)
    with pytest.raises(ClassEndedError):  # a page that never joined is told the same
        desk.attempt("a token nobody has", "a3", 1, BEST)
    resent = desk.attempt(token, "a1", 1, "13 + 9")  # an answer kept before the end, again
    assert not resent.new and resent.attempt.answer == "13 + 9"
    with pytest.raises(ClassEndedError):
        desk.join_vouched("cy@school.example")
    assert [a.nickname for a in any_store.seats("4a")] == ["Ana"]
    assert len(any_store.attempts("4a")) == 1
    assert any_store.end_class("4a") == "4a"  # again: nothing changes
    assert any_store.rename_class("4a", "4a old") == "4a old"
    assert any_store.ended_classes() == {"4a old"}


# --- revision 0004: ended classes ------------------------------------------------------------


def _columns(engine: sa.Engine) -> set[str]:
    return {c["name"] for c in sa.inspect(engine).get_columns("classes")}


def _check_0004_up_and_down(url: str) -> None:
    """A database at 0003 with a class and an attempt goes up to 0004 (a class ends there)
    and back down to 0003 with every row, then up again."""
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        migrate(connection, "0003")
    assert "ended" not in _columns(engine)
    engine.dispose()
    store = SQLStore(url)  # opening migrates to the newest revision
    assert HEAD_REVISION >= "0004"
    _class_with_ana(store)
    store.end_class("4a")
    store.close()
    engine = sa.create_engine(url)
    assert "ended" in _columns(engine)
    with engine.begin() as connection:
        migrate(connection, "0003")
    assert "ended" not in _columns(engine)
    with engine.connect() as connection:
        rows = connection.execute(sa.text('SELECT "class", nickname FROM attempts')).all()
        version = connection.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
    assert ([tuple(row) for row in rows], version) == ([("4a", "Ana")], "0003")
    engine.dispose()
    again = SQLStore(url)
    assert again.ended_classes() == set()  # the older version had no ended class
    assert [a.nickname for a in again.attempts("4a")] == ["Ana"]
    again.close()


def test_revision_0004_goes_up_and_down_with_every_row_on_sqlite(tmp_path: Path) -> None:
    _check_0004_up_and_down(f"sqlite:///{tmp_path / 'c.sqlite3'}")
    with sa.create_engine(f"sqlite:///{tmp_path / 'c.sqlite3'}").connect() as connection:
        assert connection.exec_driver_sql("PRAGMA user_version").scalar() == int(HEAD_REVISION)


@pytest.mark.postgres
def test_revision_0004_goes_up_and_down_with_every_row_on_postgresql(
    fresh_postgres_url: str,
) -> None:
    _check_0004_up_and_down(fresh_postgres_url)


# --- the same from a terminal: class rename, class end ----------------------------------------


def _cli(*words: str) -> tuple[int, str, str]:
    from dekbovinoj_edu.cli import main

    with (
        contextlib.redirect_stdout(io.StringIO()) as out,
        contextlib.redirect_stderr(io.StringIO()) as err,
    ):
        code = main(["class", *words])
    return code, out.getvalue(), err.getvalue()


def test_class_rename_and_end_change_the_class_in_the_store(any_db: str) -> None:
    store = SQLStore(any_db)
    _class_with_ana(store)
    store.add_class(codes_assignment("4b", PETER.code))
    store.close()
    assert _cli("rename", "4A", "Maths 4a", "--db", any_db)[:2] == (
        0, "Class 4A is now called Maths 4a.\n",
    )  # fmt: skip
    code, _, err = _cli("rename", "maths 4a", "4B", "--db", any_db)
    assert (code, err) == (2, "dekbovinoj: A class named '4b' exists already: pick another "
                              "name, or forget it first.\n")  # fmt: skip
    assert _cli("end", "4z", "--db", any_db)[::2] == (2, "dekbovinoj: Unknown class '4z'.\n")
    assert _cli("end", "MATHS 4A", "--db", any_db)[0] == 0
    store = SQLStore(any_db)
    try:
        assert store.ended_classes() == {"Maths 4a"}
        assert [a.nickname for a in store.attempts("Maths 4a")] == ["Ana"]
    finally:
        store.close()


def test_class_help_names_rename_end_and_roster() -> None:
    with contextlib.redirect_stdout(io.StringIO()) as out, pytest.raises(SystemExit):
        from dekbovinoj_edu.cli import main

        main(["class", "--help"])
    for command in ("rename", "end", "roster"):
        assert f"    {command} " in out.getvalue(), out.getvalue()
