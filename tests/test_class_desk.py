"""The class's desk: answers judged by the package, attempts kept once, seats kept by their code."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import sqlalchemy as sa
from support.puzzles import PETER

from dekbovinoj_edu.classroom.assignment import at_level_assignment, codes_assignment
from dekbovinoj_edu.classroom.contract import MAX_HINTS, MAX_SECONDS
from dekbovinoj_edu.classroom.errors import (
    NicknameError,
    NicknameTakenError,
    PuzzleNotOpenError,
    SeatTakenError,
    UnknownClassError,
    UnknownSessionError,
)
from dekbovinoj_edu.classroom.store import SQLiteStore
from dekbovinoj_edu.classroom.store.desk import ClassDesk
from dekbovinoj_edu.rules.limits import MAX_CHARS
from dekbovinoj_edu.rules.puzzle import Puzzle

NO_TEN = Puzzle.parse("2♠ | 3♣", level=1)  # 2 and 3 never make 10: the right call is mu


@pytest.fixture
def desk(tmp_path: object) -> Iterator[ClassDesk]:
    store = SQLiteStore(f"{tmp_path}/classes.sqlite3")
    store.add_class(codes_assignment("4a", f"{PETER.code},{NO_TEN.code},{PETER.code}"))
    yield ClassDesk(store, "4a", clock=lambda: 1_000.0)
    store.close()


def test_the_desk_judges_the_answer_itself(desk: ClassDesk) -> None:
    ana = desk.join("Ana")
    wrong = desk.attempt(ana.token, "w1", 1, "13+3")
    assert (wrong.attempt.verdict, wrong.attempt.cards, wrong.seat.puzzle) == ("not-target", 0, 1)
    right = desk.attempt(ana.token, "r1", 1, "13*2+3-9-3-7", hints=2, seconds=12.345)
    assert (right.attempt.verdict, right.attempt.cards, right.attempt.best) == ("ok", 6, 6)
    assert (right.attempt.hints, right.attempt.seconds, right.seat.puzzle) == (2, 12.3, 2)
    assert right.attempt.nickname == "Ana" and right.attempt.code == PETER.code


def test_mu_is_judged_by_the_solver(desk: ClassDesk) -> None:
    ana = desk.join("Ana")
    early = desk.attempt(ana.token, "m1", 1, "anything", mu=True)
    assert (early.attempt.verdict, early.attempt.answer) == ("mu-wrong", "mu!")
    assert early.seat.puzzle == 2
    right = desk.attempt(ana.token, "m2", 2, "", mu=True)
    assert (right.attempt.verdict, right.attempt.best, right.seat.puzzle) == ("mu-right", 0, 3)


def test_a_resend_is_the_same_row(desk: ClassDesk) -> None:
    ana = desk.join("Ana")
    first = desk.attempt(ana.token, "same-id-1", 1, "13*2+3-9-3-7")
    again = desk.attempt(ana.token, "same-id-1", 1, "13*2+3-9-3-7")
    assert first.new and not again.new
    assert again.attempt == first.attempt and again.seat.puzzle == 2
    assert len(desk.store.attempts("4a")) == 1


def test_resends_from_many_threads_make_one_row_each(desk: ClassDesk) -> None:
    ana = desk.join("Ana")
    ids = [f"attempt-{n:03d}" for n in range(20)]
    errors: list[BaseException] = []

    def send(offset: int) -> None:
        try:
            for n in range(20):
                desk.attempt(ana.token, ids[(n + offset) % 20], 1, "9+3")
        except BaseException as error:  # the test reports it below
            errors.append(error)

    threads = [threading.Thread(target=send, args=(k,)) for k in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert errors == []
    assert len(desk.store.attempts("4a")) == 20


def test_only_the_current_puzzle_takes_attempts(desk: ClassDesk) -> None:
    ana = desk.join("Ana")
    with pytest.raises(PuzzleNotOpenError):
        desk.attempt(ana.token, "ahead-1", 2, "2+3")
    with pytest.raises(PuzzleNotOpenError):
        desk.attempt(ana.token, "none-1", 4, "2+3")
    with pytest.raises(PuzzleNotOpenError):
        desk.attempt(ana.token, "zero-1", 0, "2+3")
    desk.attempt(ana.token, "done-1", 1, "13*2+3-9-3-7")
    with pytest.raises(PuzzleNotOpenError):
        desk.attempt(ana.token, "done-2", 1, "13*2+3-9-3-7")
    assert [a.puzzle for a in desk.store.attempts("4a")] == [1]


def test_what_a_page_says_is_kept_within_bounds(desk: ClassDesk) -> None:
    ana = desk.join("Ana")
    long = "1+" * 400
    kept = desk.attempt(ana.token, "big-1", 1, long, hints=10**6, seconds=1e12).attempt
    assert len(kept.answer) == MAX_CHARS and kept.verdict == "too-long"
    assert (kept.hints, kept.seconds) == (MAX_HINTS, MAX_SECONDS)
    negative = desk.attempt(ana.token, "neg-1", 1, "9+3", hints=-5, seconds=-3.0).attempt
    assert (negative.hints, negative.seconds) == (0, 0.0)


def test_a_seat_needs_its_rejoin_code(desk: ClassDesk) -> None:
    rita = desk.join("Rita")
    desk.attempt(rita.token, "rita-1", 1, "13*2+3-9-3-7")
    for other in ("RITA", "rita", " Rita "):
        with pytest.raises(NicknameTakenError):
            desk.join(other)
        with pytest.raises(NicknameTakenError):
            desk.join(other, "AAAA-AAAA")
    back = desk.join("rita", rita.rejoin_code.lower().replace("-", " "))
    assert back.resumed and back.seat.puzzle == 2 and back.seat.nickname == "Rita"
    with pytest.raises(SeatTakenError):  # the first page is told its seat went elsewhere
        desk.place(rita.token)
    with pytest.raises(SeatTakenError):
        desk.attempt(rita.token, "rita-2", 2, "mu!", mu=True)
    assert desk.place(back.token).puzzle == 2


def test_tokens_are_checked(desk: ClassDesk) -> None:
    with pytest.raises(UnknownSessionError):
        desk.place("not-a-token")
    with pytest.raises(UnknownSessionError):
        desk.attempt("not-a-token", "x-000001", 1, "9+3")
    assert desk.store.attempts("4a") == []


def test_a_token_of_one_class_opens_nothing_in_another(desk: ClassDesk) -> None:
    desk.store.add_class(codes_assignment("4b", PETER.code))
    other = ClassDesk(desk.store, "4b")
    bo = other.join("Bo")
    with pytest.raises((UnknownSessionError, SeatTakenError)):
        desk.place(bo.token)
    with pytest.raises((UnknownSessionError, SeatTakenError)):
        desk.attempt(bo.token, "bo-00001", 1, "9+3")
    assert desk.store.attempts("4a") == []


def test_nicknames_are_checked_before_they_are_taken(desk: ClassDesk) -> None:
    for bad in ("", "   ", "x" * 21, "\u3164", "\u2800\u2800"):
        with pytest.raises(NicknameError):
            desk.join(bad)
    assert desk.store.seats("4a") == []


def test_alive_and_gone(desk: ClassDesk) -> None:
    ana = desk.join("Ana")
    assert desk.alive(ana.token, hints=3).hints == 3
    assert desk.alive(ana.token, hints=10**9).hints == MAX_HINTS
    desk.gone(ana.token)
    assert desk.store.seats("4a")[0].last_seen == 0.0


def test_an_unknown_class_has_no_desk(desk: ClassDesk) -> None:
    with pytest.raises(UnknownClassError):
        ClassDesk(desk.store, "9z")


def test_a_hub_user_joins_through_the_desk_like_everyone_else() -> None:
    """A student a JupyterHub signed in takes their seat at the desk: at each student's level
    the first puzzle is dealt at once, as for a nickname's join."""
    store = SQLiteStore(":memory:")
    store.add_class(at_level_assignment("4c", level=1, count=3, seed=5, jokers=False))
    desk = ClassDesk(store, "4c", clock=lambda: 1000.0)
    joined = desk.join_vouched("ana.lindqvist@school.example")
    assert joined.seat.nickname == "ana.lindqvist@school.example"
    assert joined.seat.code != "" and joined.seat.code == store.seats("4c")[0].code
    again = desk.join_vouched("ana.lindqvist@school.example")  # her other tab
    assert again.resumed and again.seat.code == joined.seat.code
    with pytest.raises(SeatTakenError):
        desk.place(joined.token)


LONG_LOGIN = "anna.svensson.2015@larkstadens-skola.example"
"""A school's e-mail login (44 characters), as Google or Entra ID gives a hub."""


def test_any_hub_name_is_a_student_however_long_and_however_alike() -> None:
    store = SQLiteStore(":memory:")
    store.add_class(codes_assignment("4a", PETER.code))
    desk = ClassDesk(store, "4a", clock=lambda: 1000.0)
    long = desk.join_vouched(LONG_LOGIN)
    assert long.seat.nickname == LONG_LOGIN and not long.resumed
    # look-alike logins are two students on a hub; typed nicknames stay one seat
    first, second = desk.join_vouched("emma1"), desk.join_vouched("emmal")
    assert first.seat.nickname == "emma1" and second.seat.nickname == "emmal"
    assert not second.resumed
    assert {seat.nickname for seat in store.seats("4a")} == {LONG_LOGIN, "emma1", "emmal"}
    desk.join("a.kim")
    with pytest.raises(NicknameTakenError):
        desk.join("a.kirn")
    with pytest.raises(NicknameError):
        desk.join_vouched("x" * 256)


def test_a_hub_students_seat_of_an_earlier_version_stays_theirs(tmp_path: Path) -> None:
    """Seats an earlier version gave hub users were keyed like typed nicknames: the same user
    comes back to the same seat, with their attempts."""
    from dekbovinoj_edu.classroom.nicknames import nickname_key
    from dekbovinoj_edu.classroom.store.rows import SEATS
    from dekbovinoj_edu.classroom.store.tables import seats as seats_table

    store = SQLiteStore(tmp_path / "classes.sqlite3")
    store.add_class(codes_assignment("4a", PETER.code))
    desk = ClassDesk(store, "4a", clock=lambda: 1000.0)
    joined = desk.join_vouched("cyd")
    desk.attempt(joined.token, "old-0001", 1, "13*2+3-9-3-7")  # Peter's best: on to puzzle 2
    store.database.run(  # as the earlier version kept it
        lambda db: db.execute(
            sa.update(seats_table).where(SEATS.nickname == "cyd").values(key=nickname_key("cyd"))
        ),
        write=True,
    )
    again = desk.join_vouched("cyd")
    assert again.resumed and again.seat.puzzle == 2
    assert [seat.nickname for seat in store.seats("4a")] == ["cyd"]
    assert len(store.attempts("4a", "cyd")) == 1
    store.close()
