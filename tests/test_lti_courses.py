"""The classes an LMS opens, in the class database (``dekbovinoj_edu/lti/courses.py``,
revision 0007): links kept once, people seated under names the LMS gives (a classmate typing
the name is refused, the launch's own code resumes the seat), tickets taken once even by
browsers at once, scores acknowledged; renamed and forgotten with their class; on SQLite and
PostgreSQL; and revision 0007 up and down with every other row kept."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
import sqlalchemy as sa
from support.puzzles import PETER

from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.errors import NicknameTakenError
from dekbovinoj_edu.classroom.store import SQLStore
from dekbovinoj_edu.classroom.store.database import migrate
from dekbovinoj_edu.classroom.store.tables import HEAD_REVISION
from dekbovinoj_edu.lti.courses import STUDENT, TEACHER, CourseStore, Link, LinkKey, Sent

KEY = LinkKey("https://canvas.example", "10000000000007", "d1", "course-4a", "link-1")
LINK = Link(
    KEY,
    "4a",
    "Maths 4A",
    "Ten cows",
    lineitem=None,
    lineitems="https://canvas.example/api/lti/courses/4/line_items",
    scopes=("https://purl.imsglobal.org/spec/lti-ags/scope/score",),
    members_url="https://canvas.example/api/lti/courses/4/names_and_roles",
)
COURSE_TABLES = {"lti_links", "lti_people", "lti_tickets", "lti_scores"}


def _class(store: SQLStore, name: str = "4a") -> CourseStore:
    store.add_class(codes_assignment(name, PETER.code))
    return CourseStore(store.database)


def test_a_link_is_kept_once_and_its_services_follow_the_latest_launch(any_store: SQLStore) -> None:
    courses = _class(any_store)
    assert courses.link(KEY) is None
    assert courses.put_link(LINK, now=0.0) == LINK
    any_store.add_class(codes_assignment("4a 2", PETER.code))
    later = Link(KEY, "4a 2", "Maths 4A", "Ten cows", lineitem="https://canvas.example/li/9")
    kept = courses.put_link(later, now=5.0)
    assert kept.class_name == "4a" and kept.lineitem == "https://canvas.example/li/9"
    assert courses.links("4a") == [kept] and courses.links("4a 2") == []


def test_a_student_is_seated_under_their_name_and_only_the_launch_has_the_code(
    any_store: SQLStore,
) -> None:
    courses = _class(any_store)
    ana, code = courses.seat_person("4a", "u-1", "Ana Lind", STUDENT, now=10.0, came=True)
    assert ana.nickname == "Ana Lind" and code is not None
    joined = any_store.join("4a", "Ana Lind", "page-token", 11.0, rejoin_code=code)
    assert joined.resumed and joined.seat.puzzle == 1
    with pytest.raises(NicknameTakenError):
        any_store.join("4a", "ana lind", "classmate", 12.0)
    _, again = courses.seat_person("4a", "u-1", "Ana Lind", STUDENT, now=20.0, came=True)
    assert again != code
    with pytest.raises(NicknameTakenError):  # the earlier launch's code stops working
        any_store.join("4a", "Ana Lind", "old-page", 21.0, rejoin_code=code)
    teacher, none = courses.seat_person("4a", "t-1", "Mr Berg", TEACHER, now=30.0, came=True)
    assert none is None and teacher.nickname == ""
    assert [s.nickname for s in any_store.seats("4a")] == ["Ana Lind"]


def test_the_roster_seats_people_before_they_come(any_store: SQLStore) -> None:
    courses = _class(any_store)
    waiting, code = courses.seat_person("4a", "u-2", "Bo Ek", STUDENT, now=1.0, came=False)
    assert code is None and waiting.seen is None
    seat = any_store.seats("4a")[0]
    assert seat.nickname == "Bo Ek" and seat.last_seen == 0.0
    with pytest.raises(NicknameTakenError):  # nobody knows the waiting seat's code
        any_store.join("4a", "Bo Ek", "someone", 2.0)
    came, code = courses.seat_person("4a", "u-2", "Bo Ek", STUDENT, now=3.0, came=True)
    assert came.seen is not None and code is not None
    assert courses.people("4a") == [came]


def test_a_ticket_is_taken_once_by_browsers_at_once(any_store: SQLStore) -> None:
    courses = _class(any_store)
    ticket = courses.issue_ticket("start", {"class": "4a", "nickname": "Ana"}, now=100.0)
    taken: list[object] = []
    start = threading.Barrier(5)

    def browser() -> None:
        start.wait()
        taken.append(courses.take_ticket(ticket, "start", now=101.0))

    threads = [threading.Thread(target=browser) for _ in range(5)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(taken, key=bool) == [None] * 4 + [{"class": "4a", "nickname": "Ana"}]
    late = courses.issue_ticket("start", {}, now=100.0, seconds=10.0)
    assert courses.take_ticket(late, "start", now=111.0) is None
    other = courses.issue_ticket("teacher", {}, now=100.0)
    assert courses.take_ticket(other, "start", now=101.0) is None
    assert courses.take_ticket(other, "teacher", now=101.0) is None  # a wrong try spends it


def test_scores_acknowledged_are_kept_and_replaced(any_store: SQLStore) -> None:
    courses = _class(any_store)
    assert courses.acknowledged("4a") == {}
    courses.acknowledge("4a", "u-1", Sent(2.0, 20.0, "InProgress", "FullyGraded"), now=1.0)
    courses.acknowledge("4a", "u-1", Sent(6.0, 20.0, "Completed", "FullyGraded"), now=2.0)
    assert courses.acknowledged("4a") == {"u-1": Sent(6.0, 20.0, "Completed", "FullyGraded")}


def test_a_class_renamed_or_forgotten_takes_its_lms_rows(any_store: SQLStore) -> None:
    courses = _class(any_store)
    courses.put_link(LINK, now=0.0)
    courses.seat_person("4a", "u-1", "Ana Lind", STUDENT, now=1.0, came=True)
    courses.acknowledge("4a", "u-1", Sent(2.0, 20.0, "InProgress", "FullyGraded"), now=1.0)
    any_store.rename_class("4a", "4A maths")
    assert courses.link(KEY).class_name == "4A maths"  # type: ignore[union-attr]
    assert [p.nickname for p in courses.people("4A maths")] == ["Ana Lind"]
    assert set(courses.acknowledged("4A maths")) == {"u-1"}
    any_store.forget("4A maths")
    assert courses.link(KEY) is None and courses.people("4A maths") == []
    assert courses.acknowledged("4A maths") == {}


def _check_0007_up_and_down(url: str) -> None:
    store = SQLStore(url)
    courses = _class(store)
    courses.put_link(LINK, now=0.0)
    courses.seat_person("4a", "u-1", "Ana Lind", STUDENT, now=1.0, came=True)
    store.close()
    engine = sa.create_engine(url)
    assert set(sa.inspect(engine).get_table_names()) >= COURSE_TABLES
    with engine.begin() as connection:
        migrate(connection, "0006")
    assert not COURSE_TABLES & set(sa.inspect(engine).get_table_names())
    with engine.connect() as connection:
        nicknames = connection.execute(sa.text("SELECT nickname FROM seats")).scalars().all()
    assert nicknames == ["Ana Lind"]  # the seat and its attempts stay
    engine.dispose()
    again = SQLStore(url)  # opening migrates up again
    assert CourseStore(again.database).links() == []
    assert [a.name for a in again.classes()] == ["4a"]
    again.close()


def test_revision_0007_goes_up_and_down_on_sqlite(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'c.sqlite3'}"
    _check_0007_up_and_down(url)
    engine = sa.create_engine(url)
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA user_version").scalar() == int(HEAD_REVISION)
    engine.dispose()


@pytest.mark.postgres
def test_revision_0007_goes_up_and_down_on_postgresql(fresh_postgres_url: str) -> None:
    _check_0007_up_and_down(fresh_postgres_url)
