"""The progress store, on SQLite and on PostgreSQL: classes, seats that belong to their
students (a rejoin code, never "wait 12 seconds"), one row per attempt however often it is
sent, classes forgotten completely, and many writers at once without a lost row or a
"database is locked"."""

from __future__ import annotations

import multiprocessing
import sqlite3
import threading
import time
from collections import Counter
from dataclasses import fields, replace
from pathlib import Path

import pytest
import sqlalchemy as sa
from support import puzzles

from dekbovinoj_edu.classroom.assignment import codes_assignment
from dekbovinoj_edu.classroom.attempts import CSV_COLUMNS, Attempt, to_csv
from dekbovinoj_edu.classroom.errors import (
    ClassExistsError,
    NicknameTakenError,
    PuzzleNotOpenError,
    SeatTakenError,
    StoreError,
    UnknownClassError,
    UnknownSeatError,
    UnknownSessionError,
)
from dekbovinoj_edu.classroom.report import REPORT_COLUMNS
from dekbovinoj_edu.classroom.seat import token_hash
from dekbovinoj_edu.classroom.store import (
    DB_ENV,
    SQLiteStore,
    SQLStore,
    default_db_path,
    open_store,
)
from dekbovinoj_edu.classroom.store.tables import HEAD_REVISION
from dekbovinoj_edu.rules.limits import MAX_CHARS

PETER = puzzles.PETER.code  # Peter's puzzle as the store keeps it: its code
WRITERS, EACH = 30, 100


def attempt(
    number: int = 1, verdict: str = "colour", answer: str = "x", nickname: str = "Ana"
) -> Attempt:
    return Attempt(
        "4a", nickname, number, PETER, answer, verdict, 6, 6, 0, 3.5, "2026-12-01T09:00:00Z"
    )


@pytest.fixture
def store(any_store: SQLStore) -> SQLStore:
    """Class 4a (two puzzles) in an empty store, on SQLite and on PostgreSQL."""
    any_store.add_class(codes_assignment("4a", f"{PETER},{PETER}"))
    return any_store


# ------------------------------------------------------------------ the database itself
def test_a_new_file_is_in_wal_mode_at_the_newest_revision(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "classes.sqlite3"
    SQLiteStore(path).close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [(HEAD_REVISION,)]
    assert db.execute("PRAGMA user_version").fetchone()[0] == int(HEAD_REVISION)  # older: refused


def test_every_connection_writes_through_to_the_disk_before_a_commit_returns(
    tmp_path: Path,
) -> None:
    """WAL with ``synchronous=NORMAL`` may lose committed transactions on a power cut (SQLite's
    documentation); the page forgets an answer once the service acknowledged it, so every
    connection of the store commits with ``synchronous=FULL`` (2)."""
    store = SQLiteStore(tmp_path / "classes.sqlite3")
    try:
        engine = store.database.engine
        held = [engine.connect() for _ in range(3)]  # several of the pool's connections
        try:
            levels = {c.exec_driver_sql("PRAGMA synchronous").scalar() for c in held}
        finally:
            for connection in held:
                connection.close()
        assert levels == {2}
    finally:
        store.close()


def test_the_newest_revision_is_the_head_of_the_migrations() -> None:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from dekbovinoj_edu.classroom.store.migrating import MIGRATIONS
    from dekbovinoj_edu.classroom.store.sqlite_file import REVISIONS

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    script = ScriptDirectory.from_config(config)
    assert script.get_current_head() == HEAD_REVISION
    assert [r.revision for r in reversed(list(script.walk_revisions()))] == list(REVISIONS)


def test_the_report_has_the_issues_columns_one_a_field_of_the_attempt() -> None:
    header = "class,nickname,puzzle,code,answer,verdict,cards,best,hints,seconds,time"
    assert ",".join(CSV_COLUMNS) == header
    assert to_csv([]) == header + "\n"
    assert [f.name for f in fields(Attempt)] == ["class_name", *CSV_COLUMNS[1:]]


def test_the_tables_are_the_ones_described_in_either_database(store: SQLStore) -> None:
    from dekbovinoj_edu.classroom.store.tables import metadata

    found = sa.inspect(store.database.engine)
    for table in metadata.sorted_tables:
        assert [c["name"] for c in found.get_columns(table.name)] == list(table.columns.keys())
    columns = [c["name"] for c in found.get_columns("attempts")]
    assert columns == ["id", *CSV_COLUMNS, "attempt_id", "session"]


def test_the_default_file_is_in_the_data_directory_unless_the_environment_says(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.delenv(DB_ENV, raising=False)
    default = default_db_path()
    assert default.name == "classes.sqlite3" and "dekbovinoj" in default.parts
    monkeypatch.setenv(DB_ENV, str(tmp_path / "other.sqlite3"))
    assert default_db_path() == tmp_path / "other.sqlite3"
    open_store().close()
    assert (tmp_path / "other.sqlite3").exists()


def test_an_address_of_an_unknown_kind_is_a_sentence() -> None:
    with pytest.raises(StoreError, match="Unknown kind of database mysql://"):
        open_store("mysql://me:secret@db/classes")


# ------------------------------------------------------------------------ classes
def test_a_class_keeps_its_assignment_and_a_name_is_used_once(store: SQLStore) -> None:
    assert store.assignment("4a").codes == (PETER, PETER)
    with pytest.raises(ClassExistsError):
        store.add_class(codes_assignment("4a", PETER))
    with pytest.raises(UnknownClassError):
        store.assignment("4b")
    with pytest.raises(UnknownClassError):
        store.join("4b", "Ana", "t", now=0.0)
    assert [a.name for a in store.classes()] == ["4a"]


def test_forget_deletes_the_class_its_students_sessions_and_every_row(
    any_store: SQLStore,
) -> None:
    store = any_store
    store.add_class(codes_assignment("4a", PETER))
    store.add_class(codes_assignment("4b", PETER))
    store.join("4a", "Ana", "ana", now=0.0)
    store.join("4b", "Bo", "bo", now=0.0)
    store.record("4a", "ana", "ana-0001", attempt(answer="SECRET-ANSWER-4A"), now=1.0)
    store.record("4b", "bo", "bo-00001", replace(attempt(), class_name="4b"), now=1.0)
    assert store.forget("4a") == 1
    assert [a.name for a in store.classes()] == ["4b"]
    assert store.seats("4a") == [] and store.attempts("4a") == []
    assert len(store.attempts("4b")) == 1
    with pytest.raises(UnknownSessionError):
        store.seat_of("4a", "ana")
    with pytest.raises(UnknownClassError):
        store.forget("4a")


def test_a_forgotten_class_leaves_nothing_in_the_file(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "classes.sqlite3")
    store.add_class(codes_assignment("4a", PETER))
    store.join("4a", "Ana", "ana", now=0.0)
    store.record("4a", "ana", "ana-0001", attempt(answer="SECRET-ANSWER-4A"), now=1.0)
    store.forget("4a")
    store.close()
    leftovers = b"".join(p.read_bytes() for p in tmp_path.iterdir())
    assert b"SECRET-ANSWER-4A" not in leftovers  # overwritten, not just unlinked


# -------------------------------------------------------------------------- seats
def test_a_new_nickname_gets_a_seat_at_puzzle_one_and_a_rejoin_code(store: SQLStore) -> None:
    joined = store.join("4a", "Ana", "page-1", now=1000.0)
    assert not joined.resumed and joined.token == "page-1"
    assert (joined.seat.nickname, joined.seat.puzzle, joined.seat.hints) == ("Ana", 1, 0)
    assert joined.seat.session == token_hash("page-1")  # only the hash is kept
    assert len(joined.rejoin_code) == 9 and joined.rejoin_code[4] == "-"
    assert store.seat_of("4a", "page-1") == joined.seat
    assert store.seats("4a") == [joined.seat]


def test_ritas_seat_is_not_handed_to_a_classmate_who_types_her_nickname_later(
    store: SQLStore,
) -> None:
    # The audit: 12 s after Rita's last sign of life, "RITA" from another page took her seat.
    store.join("4a", "Rita", "rita", now=1000.0)
    for later in (1013.0, 5000.0, 90_000.0):
        with pytest.raises(NicknameTakenError) as refused:
            store.join("4a", "RITA", "classmate", now=later)
        assert refused.value.code == "nickname-taken"
    with pytest.raises(NicknameTakenError):
        store.join("4a", "rita", "classmate", now=5000.0, rejoin_code="2222-2222")
    assert store.seat_of("4a", "rita").session == token_hash("rita")
    with pytest.raises(UnknownSessionError):
        store.seat_of("4a", "classmate")


def test_a_cyrillic_look_alike_nickname_is_the_same_seat(store: SQLStore) -> None:
    store.join("4a", "Ana", "ana", now=0.0)
    with pytest.raises(NicknameTakenError):
        store.join("4a", "\u0410na", "troll", now=100.0)  # Cyrillic А
    with pytest.raises(NicknameTakenError):
        store.join("4a", "\u0430na", "troll", now=100.0)  # Cyrillic а
    assert len(store.seats("4a")) == 1


@pytest.mark.parametrize(
    ("first", "second"), [("Al", "AI"), ("AI", "Ai"), ("Bob", "B0b"), ("emma1", "Emmal")]
)
def test_a_new_nickname_that_reads_like_a_classmates_is_refused(
    store: SQLStore, first: str, second: str
) -> None:
    joined = store.join("4a", first, "first", now=0.0)
    with pytest.raises(NicknameTakenError) as refused:
        store.join("4a", second, "second", now=100.0)
    assert "looks too much like" in str(refused.value) or "taken" in str(refused.value)
    assert [seat.nickname for seat in store.seats("4a")] == [first]
    again = store.join("4a", first, "back", now=200.0, rejoin_code=joined.rejoin_code)
    assert again.resumed  # the first student comes back to their seat as before


def test_a_hub_name_is_never_refused_for_reading_like_a_nickname(store: SQLStore) -> None:
    store.join("4a", "Al", "al", now=0.0)
    store.join_vouched("4a", "AI", "ai-hub", now=1.0)
    assert sorted(seat.nickname for seat in store.seats("4a")) == ["AI", "Al"]


def test_a_reload_resumes_at_once_with_the_rejoin_code(store: SQLStore) -> None:
    first = store.join("4a", "Ana", "page-1", now=1000.0)
    store.record("4a", "page-1", "a-000001", attempt(verdict="ok"), now=1001.0)
    again = store.join("4a", "ana", "page-2", now=1001.5, rejoin_code=first.rejoin_code)
    assert again.resumed and again.rejoin_code == first.rejoin_code
    assert (again.seat.nickname, again.seat.puzzle) == ("Ana", 2)
    assert store.seat_of("4a", "page-2").session == token_hash("page-2")


def test_a_rejoin_code_reads_back_ignoring_case_spaces_and_dashes(store: SQLStore) -> None:
    code = store.join("4a", "Ana", "page-1", now=0.0).rejoin_code
    typed = " " + code.lower().replace("-", " ") + " "
    assert store.join("4a", "Ana", "page-2", now=1.0, rejoin_code=typed).resumed


def test_the_page_whose_seat_was_resumed_elsewhere_is_told_so(store: SQLStore) -> None:
    first = store.join("4a", "Ana", "tablet", now=1000.0)
    store.join("4a", "Ana", "laptop", now=1013.0, rejoin_code=first.rejoin_code)
    for action in (
        lambda: store.seat_of("4a", "tablet"),
        lambda: store.touch("4a", "tablet", now=1014.0),
        lambda: store.leave("4a", "tablet"),
        lambda: store.record("4a", "tablet", "t-000001", attempt(), now=1014.0),
    ):
        with pytest.raises(SeatTakenError) as refused:
            action()
        assert refused.value.code == "seat-taken"
    assert store.attempts("4a") == []  # the old page wrote nothing
    assert store.seat_of("4a", "laptop").nickname == "Ana"


def test_an_unknown_token_is_unauthorized(store: SQLStore) -> None:
    store.join("4a", "Ana", "ana", now=0.0)
    with pytest.raises(UnknownSessionError) as refused:
        store.seat_of("4a", "guessed")
    assert refused.value.code == "unauthorized"
    with pytest.raises(UnknownSessionError):
        store.record("4a", "guessed", "g-000001", attempt(), now=1.0)
    with pytest.raises(UnknownSessionError):
        store.seat_of("4b", "ana")  # a token opens its own class only


def test_touch_and_leave_keep_the_seats_sign_of_life_and_hints(store: SQLStore) -> None:
    store.join("4a", "Ana", "ana", now=10.0)
    assert store.touch("4a", "ana", now=18.0).last_seen == 18.0  # older than FRESH_SECONDS
    seat = store.touch("4a", "ana", now=19.0, hints=2)  # fresh, but new hints: kept
    assert (seat.last_seen, seat.hints) == (19.0, 2)
    store.leave("4a", "ana")
    assert store.seat_of("4a", "ana").last_seen == 0.0
    assert store.seat_of("4a", "ana").hints == 2


def test_seats_are_listed_in_the_order_the_students_joined(store: SQLStore) -> None:
    for number, nickname in enumerate(["Zoe", "Ana", "Mo", "Bo"]):
        store.join("4a", nickname, f"t{number}", now=float(number))
    assert [seat.nickname for seat in store.seats("4a")] == ["Zoe", "Ana", "Mo", "Bo"]


# -------------------------------------------------------------- the teacher's actions
def test_a_released_seat_waits_for_its_student_with_the_teachers_new_code(
    store: SQLStore,
) -> None:
    first = store.join("4a", "Bo", "bo-1", now=0.0)
    store.record("4a", "bo-1", "b-000001", attempt(verdict="ok", nickname="Bo"), now=1.0)
    new_code = store.release_seat("4a", "Bo")
    assert new_code != first.rejoin_code and len(new_code) == 9
    with pytest.raises(SeatTakenError):
        store.seat_of("4a", "bo-1")
    with pytest.raises(NicknameTakenError):  # a classmate polling with the nickname: no seat
        store.join("4a", "bo", "classmate", now=1.01)
    with pytest.raises(NicknameTakenError):  # the old code opens it no more
        store.join("4a", "Bo", "bo-3", now=6.0, rejoin_code=first.rejoin_code)
    again = store.join("4a", "bo", "bo-2", now=5.0, rejoin_code=new_code.lower())
    assert again.resumed and again.seat.puzzle == 2 and again.rejoin_code == new_code
    assert [a.nickname for a in store.attempts("4a")] == ["Bo"]


def test_a_seat_from_before_rejoin_codes_is_taken_by_the_next_join(store: SQLStore) -> None:
    store.join("4a", "Bo", "bo-1", now=0.0)
    store.database.run(lambda db: db.execute(sa.text("UPDATE seats SET secret = NULL")), write=True)
    again = store.join("4a", "Bo", "bo-2", now=5.0)
    assert again.resumed and len(again.rejoin_code) == 9


def test_the_trolls_early_bo_is_reset_and_bo_starts_clean(store: SQLStore) -> None:
    store.join("4a", "Bo", "troll", now=0.0)
    store.record("4a", "troll", "x-000001", attempt(verdict="mu-wrong", nickname="Bo"), now=1.0)
    store.reset_seat("4a", "Bo", now=50.0)
    seat = store.seats("4a")[0]
    assert (seat.puzzle, seat.hints, seat.started) == (1, 0, 50.0)
    assert store.attempts("4a") == []
    code = store.release_seat("4a", "Bo")
    assert store.join("4a", "Bo", "bo", now=60.0, rejoin_code=code).seat.puzzle == 1
    with pytest.raises(SeatTakenError):
        store.seat_of("4a", "troll")


def test_a_join_sent_again_with_its_code_is_the_same_seat_and_no_second_one(
    store: SQLStore,
) -> None:
    first = store.join("4a", "Ana", "page-1", now=0.0, new_code="K7QM-2XHD")
    assert first.rejoin_code == "K7QM-2XHD" and not first.resumed
    again = store.join("4a", "Ana", "page-1", now=0.5, new_code="K7QM-2XHD")
    assert again.resumed and again.rejoin_code == "K7QM-2XHD"
    assert store.seat_of("4a", "page-1").nickname == "Ana"
    assert len(store.seats("4a")) == 1
    with pytest.raises(NicknameTakenError):  # another page's join: another code
        store.join("4a", "Ana", "page-2", now=1.0, new_code="ABCD-EFGH")


def test_a_new_seat_may_be_refused_before_it_is_made_and_a_rejoin_is_never(
    store: SQLStore,
) -> None:
    made: list[str] = []
    ana = store.join("4a", "Ana", "ana", now=0.0, on_new_seat=lambda: made.append("Ana"))

    def full() -> None:
        raise UnknownSeatError("No more seats now.")

    with pytest.raises(UnknownSeatError):
        store.join("4a", "Bo", "bo", now=1.0, on_new_seat=full)
    back = store.join("4a", "Ana", "ana-2", now=2.0, rejoin_code=ana.rejoin_code, on_new_seat=full)
    assert back.resumed and made == ["Ana"]
    assert [seat.nickname for seat in store.seats("4a")] == ["Ana"]


def test_the_seats_of_a_flood_go_in_one_go_and_a_student_who_answered_stays(
    store: SQLStore,
) -> None:
    store.join("4a", "Ana", "ana", now=0.0)  # joined before the flood
    flood = [f"spam {n}" for n in range(5)]
    for n, nickname in enumerate(flood):
        store.join("4a", nickname, f"spam-{n}", now=1.0)
    store.record("4a", "spam-2", "s-000002", attempt(nickname="spam 2"), now=2.0)
    since = store.seats("4a")[1].joined  # the flood's first seat
    store.database.run(
        lambda db: db.execute(
            sa.text("UPDATE seats SET joined = '2000-01-01T00:00:00Z' WHERE nickname = 'Ana'")
        ),
        write=True,
    )
    removed = store.remove_new_seats("4a", ["Ana", *flood, "nobody"], since)
    assert removed == ["spam 0", "spam 1", "spam 3", "spam 4"]
    assert [seat.nickname for seat in store.seats("4a")] == ["Ana", "spam 2"]
    with pytest.raises(SeatTakenError):
        store.seat_of("4a", "spam-0")
    assert store.remove_new_seats("4a", [], since) == []


def test_a_removed_student_is_gone_with_every_attempt(store: SQLStore) -> None:
    store.join("4a", "Ana", "ana", now=0.0)
    store.join("4a", "Spam", "spam", now=0.0)
    store.record("4a", "spam", "s-000001", attempt(nickname="Spam"), now=1.0)
    store.record("4a", "ana", "a-000001", attempt(), now=1.0)
    store.remove_seat("4a", "Spam")
    assert [s.nickname for s in store.seats("4a")] == ["Ana"]
    assert [a.nickname for a in store.attempts("4a")] == ["Ana"]
    with pytest.raises(SeatTakenError):
        store.seat_of("4a", "spam")
    with pytest.raises(UnknownSeatError) as refused:
        store.remove_seat("4a", "Spam")
    assert refused.value.code == "unknown-seat"
    assert store.join("4a", "Spam", "spam-2", now=9.0).resumed is False  # a new seat


def test_merging_two_seats_keeps_every_attempt_under_one_nickname(store: SQLStore) -> None:
    store.join("4a", "Ana", "ana", now=0.0)
    store.join("4a", "Ana K", "ana-k", now=0.0)
    store.record("4a", "ana", "a-000001", attempt(), now=1.0)
    store.record("4a", "ana-k", "k-000001", attempt(verdict="ok", nickname="Ana K"), now=2.0)
    store.merge_seats("4a", "Ana K", "Ana")
    assert [s.nickname for s in store.seats("4a")] == ["Ana"]
    assert store.seats("4a")[0].puzzle == 2
    assert [a.nickname for a in store.attempts("4a")] == ["Ana", "Ana"]
    with pytest.raises(SeatTakenError):
        store.seat_of("4a", "ana-k")
    with pytest.raises(UnknownSeatError):
        store.merge_seats("4a", "Ana", "Ana")
    with pytest.raises(UnknownSeatError):
        store.merge_seats("4a", "Nobody", "Ana")


def test_the_teachers_actions_find_a_nickname_ignoring_case(store: SQLStore) -> None:
    store.join("4a", "Ana", "ana", now=0.0)
    store.release_seat("4a", "ANA")
    with pytest.raises(SeatTakenError):
        store.seat_of("4a", "ana")


# ----------------------------------------------------------------------- attempts
def test_every_attempt_is_one_row_with_every_field(store: SQLStore) -> None:
    store.join("4a", "Ana", "ana", now=0.0)
    store.join("4a", "Bo", "bo", now=0.0)
    first = store.record("4a", "ana", "a-000001", attempt(verdict="ok", answer="3+7"), now=1.0)
    second = store.record("4a", "bo", "b-000001", attempt(answer="13 + 9"), now=2.0)
    assert store.attempts("4a") == [first.attempt, second.attempt]
    assert store.attempts("4a", "Bo") == [second.attempt]
    lines = to_csv(store.attempts("4a")).splitlines()
    assert lines[0] == ",".join(CSV_COLUMNS)
    assert lines[2].split(",")[:7] == ["4a", "Bo", "1", PETER, "13 + 9", "colour", "6"]


def test_a_row_keeps_the_seats_nickname_the_session_and_the_attempt_id(
    store: SQLStore,
) -> None:
    store.join("4a", "Ana", "ana", now=0.0)
    kept = store.record("4a", "ana", "a-000001", attempt(nickname="Someone else"), now=1.0)
    assert kept.attempt.nickname == "Ana" and kept.attempt_id == "a-000001"
    with store.database.engine.connect() as db:
        row = db.execute(sa.text("SELECT nickname, session, attempt_id FROM attempts")).one()
    assert tuple(row) == ("Ana", token_hash("ana"), "a-000001")


def test_a_finished_puzzle_moves_the_seat_on_in_the_same_write(store: SQLStore) -> None:
    store.join("4a", "Ana", "ana", now=0.0)
    store.touch("4a", "ana", now=1.0, hints=1)
    wrong = store.record("4a", "ana", "a-000001", attempt(verdict="colour"), now=5.0)
    assert (wrong.seat.puzzle, wrong.seat.hints, wrong.new) == (1, 1, True)
    right = store.record("4a", "ana", "a-000002", attempt(verdict="ok"), now=9.0)
    assert (right.seat.puzzle, right.seat.started, right.seat.hints) == (2, 9.0, 0)
    assert store.seat_of("4a", "ana") == right.seat


def test_an_attempt_at_a_puzzle_that_is_not_open_is_refused(store: SQLStore) -> None:
    store.join("4a", "Ana", "ana", now=0.0)
    store.record("4a", "ana", "a-000001", attempt(1, "mu-wrong"), now=1.0)  # "Mu!" ends it
    for number in (1, 3):
        with pytest.raises(PuzzleNotOpenError) as refused:
            store.record("4a", "ana", f"a-00000{number + 1}", attempt(number, "ok"), now=2.0)
        assert refused.value.code == "puzzle-not-open"
    assert len(store.attempts("4a")) == 1  # a second "Mu!" on the same test puzzle: refused


def test_a_resend_is_the_row_stored_the_first_time_and_writes_nothing(store: SQLStore) -> None:
    store.join("4a", "Ana", "ana", now=0.0)
    first = store.record("4a", "ana", "a-000001", attempt(verdict="ok", answer="3+7"), now=1.0)
    again = store.record("4a", "ana", "a-000001", attempt(verdict="ok", answer="other"), now=2.0)
    assert first.new and not again.new
    assert again.attempt == first.attempt and again.seat.puzzle == 2
    assert len(store.attempts("4a")) == 1
    assert store.seat_of("4a", "ana").last_seen == 1.0  # nothing written


def test_a_resend_after_the_seat_was_resumed_elsewhere_still_finds_its_row(
    store: SQLStore,
) -> None:
    first = store.join("4a", "Ana", "tablet", now=0.0)
    stored = store.record("4a", "tablet", "a-000001", attempt(), now=1.0)
    store.join("4a", "Ana", "laptop", now=2.0, rejoin_code=first.rejoin_code)
    assert store.record("4a", "tablet", "a-000001", attempt(), now=3.0).attempt == stored.attempt
    assert store.record("4a", "laptop", "a-000001", attempt(), now=3.0).new is False


def test_another_students_attempt_id_reads_nothing_of_theirs(store: SQLStore) -> None:
    store.join("4a", "Ana", "ana", now=0.0)
    store.join("4a", "Bo", "bo", now=0.0)
    store.record("4a", "ana", "a-000001", attempt(answer="ANAS-ANSWER"), now=1.0)
    with pytest.raises(PuzzleNotOpenError) as refused:
        store.record("4a", "bo", "a-000001", attempt(nickname="Bo"), now=2.0)
    assert "ANAS-ANSWER" not in str(refused.value)
    assert [a.nickname for a in store.attempts("4a")] == ["Ana"]


def test_an_answer_is_stored_at_most_the_checkers_length(store: SQLStore) -> None:
    # The audit: four 5 MB submits added 25 MB to the file.
    store.join("4a", "Ana", "ana", now=0.0)
    kept = store.record("4a", "ana", "a-000001", attempt(answer="9" * 5_000_000), now=1.0)
    assert kept.attempt.answer == "9" * MAX_CHARS == store.attempts("4a")[0].answer
    assert MAX_CHARS == 200


def test_attempts_since_gives_only_the_rows_after_the_last_one_read(store: SQLStore) -> None:
    store.join("4a", "Ana", "ana", now=0.0)
    for number in range(5):
        store.record("4a", "ana", f"a-00000{number}", attempt(answer=str(number)), now=1.0)
    every = store.attempts_since("4a")
    assert [a.answer for _, a in every] == ["0", "1", "2", "3", "4"]
    ids = [row for row, _ in every]
    assert ids == sorted(ids)
    later = store.attempts_since("4a", after=ids[2])
    assert [a.answer for _, a in later] == ["3", "4"]
    assert store.attempts_since("4a", after=ids[-1]) == []


# --------------------------------------------------------------------- many at once
def test_threads_joining_one_nickname_at_once_make_one_seat(any_db: str) -> None:
    setup = open_store(any_db)
    setup.add_class(codes_assignment("4a", PETER))
    stores = [open_store(any_db) for _ in range(4)]  # as four processes would
    start = threading.Barrier(20, timeout=60)
    outcomes: list[str] = []

    def join(number: int) -> None:
        start.wait()
        try:
            joined = stores[number % 4].join("4a", "Ana", f"page-{number}", now=float(number))
            outcomes.append("resumed" if joined.resumed else "new")
        except NicknameTakenError:
            outcomes.append("taken")
        except Exception as error:  # what would reach a student
            outcomes.append(repr(error))

    threads = [threading.Thread(target=join, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert Counter(outcomes) == {"new": 1, "taken": 19}
    assert len(setup.seats("4a")) == 1
    for store in [setup, *stores]:
        store.close()


def test_twenty_threads_sending_the_same_ids_store_one_row_per_id(any_db: str) -> None:
    setup = open_store(any_db)
    setup.add_class(codes_assignment("4a", PETER))
    setup.join("4a", "Ana", "ana", now=0.0)
    stores = [open_store(any_db) for _ in range(4)]
    start = threading.Barrier(20, timeout=60)
    news: list[str] = []
    errors: list[str] = []

    def send(number: int) -> None:
        start.wait()
        for index in range(10):
            try:
                kept = stores[number % 4].record(
                    "4a", "ana", f"id-{index:05d}", attempt(answer=str(index)), now=1.0
                )
                if kept.new:
                    news.append(kept.attempt_id)
            except Exception as error:
                errors.append(repr(error))

    threads = [threading.Thread(target=send, args=(n,)) for n in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == []
    assert sorted(news) == [f"id-{index:05d}" for index in range(10)]  # each once
    assert sorted(a.answer for a in setup.attempts("4a")) == [str(i) for i in range(10)]
    for store in [setup, *stores]:
        store.close()


def _writer(path: str, worker: int, start: object, results: object) -> None:
    """One student's kernel: 100 attempts as fast as it can, every error reported."""
    errors: list[str] = []
    try:
        store = SQLiteStore(path)
        store.join("4a", f"s{worker}", f"token-{worker}", now=0.0)
        start.wait(60)  # type: ignore[attr-defined]
        for number in range(EACH):
            try:
                store.record(
                    "4a",
                    f"token-{worker}",
                    f"w{worker}-{number:05d}",
                    attempt(answer=f"{worker}:{number}"),
                    now=1.0,
                )
            except Exception as error:  # what would reach the student
                errors.append(repr(error))
        store.close()
    except Exception as error:
        errors.append(repr(error))
    results.put((worker, errors))  # type: ignore[attr-defined]


@pytest.mark.slow  # thirty processes started and joined
def test_thirty_processes_write_a_hundred_attempts_each_and_nothing_is_lost(
    tmp_path: Path,
) -> None:
    path = tmp_path / "classes.sqlite3"
    store = SQLiteStore(path)
    store.add_class(codes_assignment("4a", PETER))
    context = multiprocessing.get_context("spawn")
    start, results = context.Event(), context.Queue()
    workers = [
        context.Process(target=_writer, args=(str(path), n, start, results)) for n in range(WRITERS)
    ]
    for worker in workers:
        worker.start()
    time.sleep(1.0)
    start.set()
    reports = dict(results.get(timeout=300) for _ in workers)
    for worker in workers:
        worker.join(timeout=60)
    assert {n: errors for n, errors in reports.items() if errors} == {}
    rows = store.attempts("4a")
    assert len(rows) == WRITERS * EACH == 3000
    assert {row.answer for row in rows} == {f"{w}:{n}" for w in range(WRITERS) for n in range(EACH)}


def test_a_write_waits_past_the_busy_timeout_and_then_succeeds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dekbovinoj_edu.classroom.store.database as database

    monkeypatch.setattr(database, "BUSY_TIMEOUT_MS", 50)
    path = tmp_path / "classes.sqlite3"
    store = SQLiteStore(path)
    store.add_class(codes_assignment("4a", PETER))
    store.join("4a", "Ana", "ana", now=0.0)
    other = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the lock for a second
    release = threading.Timer(1.0, lambda: other.execute("COMMIT"))
    release.start()
    before = time.monotonic()
    store.record("4a", "ana", "a-000001", attempt(), now=1.0)
    assert time.monotonic() - before >= 0.9
    assert len(store.attempts("4a")) == 1
    release.join()


def test_a_lock_held_past_the_patience_is_a_sentence_without_database_is_locked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dekbovinoj_edu.classroom.store.database as database

    monkeypatch.setattr(database, "BUSY_TIMEOUT_MS", 50)
    monkeypatch.setattr(database, "WRITE_PATIENCE", 0.5)
    path = tmp_path / "classes.sqlite3"
    store = SQLiteStore(path)
    store.add_class(codes_assignment("4a", PETER))
    store.join("4a", "Ana", "ana", now=0.0)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    with pytest.raises(StoreError) as refused:
        store.record("4a", "ana", "a-000001", attempt(), now=1.0)
    other.execute("ROLLBACK")
    assert "busy: try again" in refused.value.message("en")
    assert "locked" not in refused.value.message("en")


def test_the_cli_and_the_authors_api_take_a_path_or_an_address(any_db: str) -> None:
    import contextlib
    import io

    from dekbovinoj_edu.classroom.store.classes import class_report, list_classes, new_class
    from dekbovinoj_edu.cli import main

    where = any_db if "://" in any_db else "sqlite:///" + any_db
    new_class("4a", codes=PETER, db=where)
    assert [c.name for c in list_classes(db=where)] == ["4a"]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["class", "new", "4b", "--codes", PETER, "--db", where]) == 0
        assert main(["class", "list", "--db", where]) == 0
    assert [line.split("\t")[0] for line in out.getvalue().splitlines()[-2:]] == ["4a", "4b"]
    assert class_report("4b", db=where).splitlines() == [",".join(REPORT_COLUMNS)]
    assert "PATH_OR_URL" in _help(["class", "list", "--help"])


def _help(args: list[str]) -> str:
    import contextlib
    import io

    from dekbovinoj_edu.cli import main

    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main(args)
    return out.getvalue()
