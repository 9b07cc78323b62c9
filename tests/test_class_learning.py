"""Class mode learns: every attempt that ends a puzzle updates the student's ability and the
puzzle's rating in the store (SQLite and PostgreSQL), under concurrency without losing an
update, with the server's clock; a class can deal each student's puzzles at their level,
within its filters, reproducibly; and class names ignore case."""

from __future__ import annotations

import contextlib
import io
import threading
import time
from dataclasses import replace
from pathlib import Path

import pytest
import sqlalchemy as sa
from support.class_service import running_service
from support.puzzles import PETER

from dekbovinoj_edu.classroom.assignment import at_level_assignment, codes_assignment
from dekbovinoj_edu.classroom.client import ClassClient
from dekbovinoj_edu.classroom.errors import ClassExistsError, PuzzleNotOpenError
from dekbovinoj_edu.classroom.overview import class_overview
from dekbovinoj_edu.classroom.session import ClassSession
from dekbovinoj_edu.classroom.store import SQLStore, open_store
from dekbovinoj_edu.classroom.store.database import migrate
from dekbovinoj_edu.classroom.store.desk import ClassDesk
from dekbovinoj_edu.classroom.store.learning import response_of
from dekbovinoj_edu.classroom.views.board import board_html
from dekbovinoj_edu.classroom.views.student import ClassApp
from dekbovinoj_edu.cli import main
from dekbovinoj_edu.dealing.dealer import MU_SHARE
from dekbovinoj_edu.dealing.learner import (
    MAX_LIMIT,
    START_ABILITY,
    Ability,
    Outcome,
    Response,
    own_limit,
    prior,
    update,
)
from dekbovinoj_edu.dealing.teaching import REVEALING_HINT
from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.solving.solver import solve

PETER_ANSWER = "13*2+3-9-3-7"


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float | None = None) -> None:
        self.now = time.time() if now is None else now

    def __call__(self) -> float:
        return self.now


def test_an_answer_updates_the_ability_and_the_rating_and_both_round_trip(any_db: str) -> None:
    any_store = SQLStore(any_db)
    any_store.add_class(codes_assignment("4a", f"{PETER.code},{PETER.code}"))
    clock = Clock()
    desk = ClassDesk(any_store, "4a", clock=clock)
    ana = desk.join("Ana")
    clock.now += 6.0
    desk.attempt(ana.token, "a1", 1, PETER_ANSWER, seconds=9999.0)  # the page's time is ignored
    any_store.learnt()
    expected_ability, expected_rating = update(
        Ability(), prior(PETER), Response(Outcome.BEST, seconds=6.0)
    )
    assert expected_ability.speed != 0.0  # the student's own speed: kept by the store too
    assert any_store.learner("4a", "Ana").ability("2") == expected_ability
    assert any_store.puzzle_rating(PETER) == expected_rating
    any_store.close()
    reopened = SQLStore(any_db)
    try:  # another process reads the same rows back
        assert reopened.learner("4a", "ana").ability("2") == expected_ability
        assert reopened.puzzle_ratings().rating(PETER) == expected_rating
    finally:
        reopened.close()


def test_a_puzzle_left_open_for_an_hour_counts_as_one_answered_at_the_limit(
    any_store: SQLStore,
) -> None:
    any_store.add_class(codes_assignment("4a", PETER.code))
    clock = Clock()
    desk = ClassDesk(any_store, "4a", clock=clock)
    ana = desk.join("Ana")
    clock.now += 3600.0
    desk.attempt(ana.token, "a1", 1, PETER_ANSWER)
    any_store.learnt()
    limit = prior(PETER).limit
    assert limit <= MAX_LIMIT < 3600.0
    at_limit = update(Ability(), prior(PETER), Response(Outcome.BEST, seconds=limit))
    an_hour = update(Ability(), prior(PETER), Response(Outcome.BEST, seconds=3600.0))
    kept = any_store.learner("4a", "Ana").ability("2")
    assert kept == an_hour[0] and replace(kept, speed=0.0) == replace(at_limit[0], speed=0.0)
    assert 0.0 < at_limit[0].speed < kept.speed  # slower than the limit, as slow as counts
    assert any_store.puzzle_rating(PETER) == at_limit[1]
    after_hour = any_store.learner("4a", "Ana").ability("2")
    assert after_hour.value >= START_ABILITY  # right, however slow: never learnt down
    assert any_store.puzzle_rating(PETER).value <= prior(PETER).value


def test_many_seats_answering_at_once_lose_no_update(any_store: SQLStore) -> None:
    any_store.add_class(codes_assignment("4a", f"{PETER.code},{PETER.code}"))
    desk = ClassDesk(any_store, "4a")
    students = [desk.join(f"Kid {n}") for n in range(12)]
    start = threading.Barrier(len(students), timeout=60)
    errors: list[str] = []

    def answer(index: int) -> None:
        start.wait()
        try:
            for number in (1, 2):  # bounded: two puzzles each
                desk.attempt(students[index].token, f"id-{index}-{number}", number, PETER_ANSWER)
        except Exception as error:  # reported below
            errors.append(repr(error))

    threads = [threading.Thread(target=answer, args=(n,)) for n in range(len(students))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert errors == [] and not any(thread.is_alive() for thread in threads)
    any_store.learnt()
    assert any_store.puzzle_rating(PETER).answers == 2 * len(students)
    for joined in students:
        assert any_store.learner("4a", joined.seat.nickname).ability("2").answers == 2


@pytest.mark.postgres
def test_answers_ended_together_are_learnt_in_one_batch_and_a_wait_skips_the_gap(
    fresh_postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import dekbovinoj_edu.classroom.store as store_module

    monkeypatch.setattr(store_module, "LEARNING_GAP", 120.0)  # far longer than the test
    store = SQLStore(fresh_postgres_url)
    batches: list[int] = []
    learn_all = store._learn_all
    monkeypatch.setattr(
        store, "_learn_all", lambda db, batch: (batches.append(len(batch)), learn_all(db, batch))
    )
    store.add_class(codes_assignment("4a", PETER.code))
    desk = ClassDesk(store, "4a")
    students = [desk.join(f"Kid {n}") for n in range(8)]
    for index, joined in enumerate(students):
        desk.attempt(joined.token, f"id-{index}", 1, PETER_ANSWER)
    waiting = threading.Thread(target=store.learnt)
    waiting.start()
    waiting.join(timeout=60)  # learnt() does not wait out the gap
    try:
        assert not waiting.is_alive()
        assert batches == [len(students)]
        assert store.puzzle_rating(PETER).answers == len(students)
    finally:
        store.close()


def test_the_board_shows_each_students_level_at_the_start_and_now(any_store: SQLStore) -> None:
    any_store.add_class(codes_assignment("4a", ",".join([PETER.code] * 6)))
    clock = Clock()
    desk = ClassDesk(any_store, "4a", clock=clock)
    ana, bo = desk.join("Ana"), desk.join("Bo")
    for attempt_id, number in (("a1", 1), ("a2", 2), ("a3", 3)):
        clock.now += 2.0
        desk.attempt(ana.token, attempt_id, number, PETER_ANSWER)
    desk.attempt(bo.token, "b1", 1, "", mu=True)  # a wrong "mu!"
    any_store.learnt()
    overview = class_overview(any_store, "4a")
    ana_level, bo_level = overview.progress["Ana"], overview.progress["Bo"]
    assert ana_level.start_step == bo_level.start_step == 5  # the default: no measurement
    assert not ana_level.start_measured and ana_level.start_text == "–"
    assert ana_level.now_step > 5 and ana_level.now_text == str(ana_level.now_step)
    assert ana_level.arrow == ""  # nothing measured to compare with
    assert bo_level.now < bo_level.start and bo_level.now_text == "–"  # one answer: placing
    page = board_html(overview)
    assert f"– → {ana_level.now_step}<" in page and "5 →" not in page
    assert overview.students == ("Ana", "Bo")  # the order they joined: never a ranking
    next_day = any_store.progress("4a", "2", clock.now + 86_400.0)["Ana"]
    assert next_day.start_measured and next_day.start == next_day.now and next_day.arrow == "→"


def test_at_each_students_level_never_deals_outside_the_filters_and_is_reproducible(
    tmp_path: Path,
) -> None:
    codes: list[list[str]] = []
    for copy in ("one", "two"):
        store = open_store(tmp_path / f"{copy}.sqlite3")
        store.add_class(
            at_level_assignment("4c", level=2, count=4, seed=11, jokers=False, flipped=False)
        )
        clock = Clock()
        desk = ClassDesk(store, "4c", clock=clock)
        dealt = []
        for nickname in ("Ana", "Bo"):
            joined = desk.join(nickname)
            seat = joined.seat
            for number in range(1, 5):
                assert seat.puzzle == number and seat.code
                puzzle = Puzzle.from_code(seat.code)
                assert not puzzle.has_joker and not puzzle.flipped
                assert puzzle.level.name == "2"
                dealt.append(seat.code)
                clock.now += 5.0
                recorded = desk.attempt(joined.token, f"{nickname}-{number}", number, "", mu=True)
                assert recorded.attempt.code == seat.code
                seat = recorded.seat
            assert seat.puzzle == 5 and seat.code == ""
            with pytest.raises(PuzzleNotOpenError):
                desk.attempt(joined.token, f"{nickname}-5", 5, "", mu=True)
        assert len(set(dealt[:4])) == 4  # a student is not dealt the same puzzle twice
        codes.append(dealt)
        store.close()
    assert codes[0] == codes[1]  # the same seed and the same answers: the same puzzles


def test_a_student_who_comes_back_keeps_their_own_puzzle(tmp_path: Path) -> None:
    store = open_store(tmp_path / "c.sqlite3")
    store.add_class(at_level_assignment("4c", level=1, count=3, seed=3, jokers=False))
    desk = ClassDesk(store, "4c")
    ana = desk.join("Ana")
    again = ClassDesk(store, "4C").join("ana", ana.rejoin_code)  # another page, another case
    assert again.resumed and again.seat.code == ana.seat.code
    store.close()


def test_class_names_ignore_case(any_store: SQLStore) -> None:
    any_store.add_class(codes_assignment("4b", PETER.code))
    with pytest.raises(ClassExistsError):
        any_store.add_class(codes_assignment("4B", PETER.code))
    desk = ClassDesk(any_store, "4B")
    joined = desk.join("Ana")
    assert desk.name == "4b" and joined.seat.class_name == "4b"
    desk.attempt(joined.token, "a1", 1, PETER_ANSWER)
    assert [a.class_name for a in any_store.attempts("4B")] == ["4b"]
    assert [s.nickname for s in any_store.seats("4B")] == ["Ana"]
    assert any_store.seat_of("4B", joined.token).puzzle == 2
    assert any_store.forget("4B") == 1
    assert any_store.classes() == []


@pytest.mark.parametrize("path", ["desk", "service"])
def test_a_students_app_shows_their_own_puzzles_on_every_path(tmp_path: Path, path: str) -> None:
    store = open_store(tmp_path / "c.sqlite3")
    store.add_class(at_level_assignment("4c", level=1, count=3, seed=9, jokers=False))
    with running_service(store, "4c") as (server, _):
        backend = ClassDesk(store, "4c") if path == "desk" else ClassClient(server.url, "4c")
        session = ClassSession("4c", backend)
        assert session.count == 3
        session.join("Ana")
        for number in (1, 2, 3):
            seat = next(s for s in store.seats("4c") if s.nickname == "Ana")
            assert session.counter() == f"Puzzle {number} of 3" and seat.puzzle == number
            assert session.practice.puzzle == Puzzle.from_code(seat.code)  # its own puzzle
            session.mu()
            session.next()
        assert session.finished
        mine = [a.code for a in store.attempts("4c")]
        assert [cell.code for cell in session.summary().cells] == mine and len(set(mine)) == 3
    store.close()


@pytest.mark.parametrize("path", ["desk", "service"])
def test_at_each_students_level_a_stake_bar_drains_over_their_own_limit_on_every_path(
    tmp_path: Path, path: str
) -> None:
    store = open_store(tmp_path / "c.sqlite3")
    store.add_class(at_level_assignment("4c", level=1, count=3, seed=9, jokers=False))
    store.add_class(codes_assignment("4a", PETER.code))
    clock = Clock(1_000.0)
    with running_service(store, "4c") as (server, _):
        backend = ClassDesk(store, "4c") if path == "desk" else ClassClient(server.url, "4c")
        session = ClassSession("4c", backend, clock=clock)
        session.join("Ana")
        seat = next(s for s in store.seats("4c") if s.nickname == "Ana")
        limit = own_limit(Ability(), prior(Puzzle.from_code(seat.code)))
        full = session.stake()
        assert full is not None and full.share == 1.0 and full.seconds == round(limit, 1)
        clock.now += full.seconds / 4  # the page's clock, from when it showed the puzzle
        quarter = session.stake()
        assert quarter is not None
        assert (quarter.share, quarter.seconds) == pytest.approx((0.75, full.seconds * 0.75))
        clock.now += full.seconds
        assert session.stake() is None  # the bonus is gone: no bar
        session.mu()
        assert session.stake() is None  # the puzzle is done
        session.next()
        again = session.stake()
        assert again is not None and again.share == 1.0  # the next one, from its showing
    app = ClassApp("4c", store=store)  # the student's screen: the bar under the counter
    app.nickname.value = "Cy"
    app.join_button.click()
    assert app.stake_bar.layout.display == "" and "dkb-stake" in app.stake_bar.value
    app.mu_button.click()
    assert app.stake_bar.layout.display == "none"
    fixed = ClassSession("4a", ClassDesk(store, "4a", clock=clock), clock=clock)
    fixed.join("Bo")
    assert fixed.stake() is None  # a fixed list: time earns nothing, no bar
    store.close()


def test_wrong_answers_before_the_right_one_are_counted_and_unreadable_ones_are_not(
    any_store: SQLStore,
) -> None:
    any_store.add_class(codes_assignment("4a", PETER.code))
    clock = Clock()
    desk = ClassDesk(any_store, "4a", clock=clock)
    ana = desk.join("Ana")
    for attempt_id, typed in (("a1", "13 + 9"), ("a2", "13 +"), ("a3", "13 + 9")):
        desk.attempt(ana.token, attempt_id, 1, typed)  # two colour mistakes, one syntax
    clock.now += 8.0
    desk.attempt(ana.token, "a4", 1, PETER_ANSWER, hints=1)
    any_store.learnt()
    expected = update(
        Ability(), prior(PETER), Response(Outcome.BEST, seconds=8.0, hints=1, mistakes=2)
    )
    assert any_store.learner("4a", "Ana").ability("2") == expected[0]
    assert any_store.puzzle_rating(PETER) == expected[1]


@pytest.mark.parametrize("path", ["desk", "service"])
def test_best_answers_shown_before_solving_make_the_answer_a_shown_one(
    tmp_path: Path, path: str
) -> None:
    store = open_store(tmp_path / "c.sqlite3")
    store.add_class(codes_assignment("4a", PETER.code))
    with running_service(store, "4a") as (server, _):
        backend = ClassDesk(store, "4a") if path == "desk" else ClassClient(server.url, "4a")
        session = ClassSession("4a", backend)
        session.join("Ana")
        assert session.best_answers()  # before solving
        session.practice.text = PETER_ANSWER
        session.submit()
    store.learnt()
    (typed,) = store.attempts("4a", "Ana")
    assert typed.verdict == "ok" and typed.hints == REVEALING_HINT
    assert response_of(typed, 0, 5.0, has_joker=False).outcome is Outcome.SHOWN
    assert store.learner("4a", "Ana").ability("2").value < START_ABILITY  # never raised
    store.close()


def test_a_strong_student_is_offered_the_next_level_on_the_board(any_store: SQLStore) -> None:
    easy = Puzzle.parse("3♠ 7♣ | 2♦", level=1)
    any_store.add_class(codes_assignment("4a", ",".join([easy.code] * 8)))
    clock = Clock()
    desk = ClassDesk(any_store, "4a", clock=clock)
    ana, bo = desk.join("Ana"), desk.join("Bo")
    for number in range(1, 9):
        clock.now += 5.0
        desk.attempt(ana.token, f"a{number}", number, "3+7", seconds=5.0)
        desk.attempt(bo.token, f"b{number}", number, "", mu=True)  # wrong every time
    any_store.learnt()
    overview = class_overview(any_store, "4a")
    assert overview.progress["Ana"].ready_for == "2" and overview.progress["Bo"].ready_for == ""
    page = board_html(overview)
    assert page.count("ready for level 2?") == 1


def _check_0008_up_and_down(url: str) -> None:
    store = SQLStore(url)
    store.add_class(codes_assignment("4a", PETER.code))
    clock = Clock()
    desk = ClassDesk(store, "4a", clock=clock)
    ana = desk.join("Ana")
    clock.now += 90.0  # slow and right: her own speed is slower than a child's typical
    desk.attempt(ana.token, "a1", 1, PETER_ANSWER)
    store.learnt()
    learnt = store.learner("4a", "Ana").ability("2")
    assert learnt.speed > 0.0
    store.close()
    engine = sa.create_engine(url)
    with engine.begin() as connection:
        migrate(connection, "0007")
    columns = {c["name"] for c in sa.inspect(engine).get_columns("abilities")}
    assert "speed" not in columns and "value" in columns
    engine.dispose()
    again = SQLStore(url)  # opening migrates up again: the ability stays, at a child's speed
    assert again.learner("4a", "Ana").ability("2") == replace(learnt, speed=0.0)
    again.close()


def test_revision_0008_keeps_each_students_speed_and_goes_down_and_up_on_sqlite(
    tmp_path: Path,
) -> None:
    _check_0008_up_and_down(f"sqlite:///{tmp_path / 'c.sqlite3'}")


@pytest.mark.postgres
def test_revision_0008_keeps_each_students_speed_and_goes_down_and_up_on_postgresql(
    fresh_postgres_url: str,
) -> None:
    _check_0008_up_and_down(fresh_postgres_url)


def test_a_class_at_each_students_level_deals_mu_puzzles_as_the_practice_tab_does(
    tmp_path: Path,
) -> None:
    db = tmp_path / "c.sqlite3"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["class", "new", "4m", "--at-level", "--level", "1", "--count", "40",
                     "--seed", "5", "--db", str(db)]) == 0  # fmt: skip
        assert main(["class", "new", "4all", "--at-level", "--level", "1", "--count", "3",
                     "--mu", "1", "--db", str(db)]) == 0  # fmt: skip
    store = open_store(db)
    shares = {a.name: a.mu for a in store.classes()}
    assert shares == {"4m": MU_SHARE, "4all": 1.0}
    desk = ClassDesk(store, "4all")
    ana = desk.join("Ana")
    assert solve(Puzzle.from_code(ana.seat.code)) is None  # no dek bovinoj: say "mu!"
    desk = ClassDesk(store, "4m")
    bo = desk.join("Bo")
    mus = 0
    for number in range(1, 41):
        seat = desk.place(bo.token)
        mus += solve(Puzzle.from_code(seat.code)) is None
        desk.attempt(bo.token, f"attempt-bo-{number:03d}", number, "", mu=True)
    assert 1 <= mus <= 10  # about one in ten, as on the practice tab
    store.close()


def test_two_hints_weigh_the_same_in_a_class_as_on_the_practice_tab(tmp_path: Path) -> None:
    store = open_store(tmp_path / "c.sqlite3")
    store.add_class(codes_assignment("4a", PETER.code))  # no joker: "needs the joker?" skipped
    clock = Clock(1_000.0)
    session = ClassSession("4a", ClassDesk(store, "4a", clock=clock), clock=clock)
    session.join("Ana")
    session.hint()
    session.hint()
    assert session.seat is not None and session.seat.hints == 3  # the page shows hint 3
    clock.now += 30.0
    session.practice.type(PETER_ANSWER)
    session.submit()
    store.learnt()
    pressed_twice = update(Ability(), prior(PETER), Response(Outcome.BEST, 30.0, hints=2))
    assert store.learner("4a", "Ana").ability("2") == pressed_twice[0]
    store.close()
