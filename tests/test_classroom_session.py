"""A student's class session: joining with a nickname, the puzzles in order, what test mode
holds back, what counts as a wrong attempt, what is stored, and coming back after a reload."""

from __future__ import annotations

import re

import pytest

from dekbovinoj_edu.checking.checker import check
from dekbovinoj_edu.classroom.assignment import codes_assignment, deal_assignment
from dekbovinoj_edu.classroom.attempts import MU_TYPED
from dekbovinoj_edu.classroom.errors import NicknameError, NicknameTakenError
from dekbovinoj_edu.classroom.overview import ClassOverview
from dekbovinoj_edu.classroom.session import LIVE_SECONDS, ClassSession, HelpLockedError
from dekbovinoj_edu.classroom.store import SQLiteStore
from dekbovinoj_edu.dealing.dealer import deal_many
from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.sessions.feedback import FeedbackKind
from dekbovinoj_edu.solving.solver import solve

PETER = Puzzle.parse("9♦ 3♥ 7♥ | K♣ 2♣ 3♠", level=2)
PETERS_ANSWER = "13*2+3-9-3-7"
NO_TEN = Puzzle.parse("A♣ | 2♣", level=1)  # 1, 2, 1 + 2: no 10, the right call is mu


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def store() -> SQLiteStore:
    made = SQLiteStore(":memory:")
    codes = ",".join([PETER.code, NO_TEN.code, PETER.code])
    made.add_class(codes_assignment("practice", codes))
    made.add_class(codes_assignment("test", codes, mode="test"))
    return made


def student(store: SQLiteStore, name: str, clock: Clock, nickname: str = "Ana") -> ClassSession:
    session = ClassSession(name, store, clock=clock)
    session.join(nickname)
    return session


# --- assignments ---------------------------------------------------------------------------


def test_an_assignment_is_dealt_again_from_its_seed() -> None:
    first = deal_assignment("4a", level=2, count=5, seed="class 4a", difficulty="medium")
    again = deal_assignment("4a", level=2, count=5, seed="class 4a", difficulty="medium")
    other = deal_assignment("4a", level=2, count=5, seed="class 4b", difficulty="medium")
    assert first.codes == again.codes != other.codes
    assert list(first.puzzles) == deal_many(5, 2, "class 4a", "medium")  # as `dekbovinoj deal`
    assert (first.level, first.count, first.seed, first.difficulty) == (
        "2",
        5,
        "class 4a",
        "medium",
    )


def test_that_solver_agrees_no_ten_is_a_mu_puzzle() -> None:
    assert solve(NO_TEN) is None and solve(PETER) is not None


# --- joining -------------------------------------------------------------------------------


@pytest.mark.parametrize("nickname", ["", "   ", "x" * 21, "a\x00b"])
def test_a_nickname_has_one_to_twenty_characters(store: SQLiteStore, nickname: str) -> None:
    with pytest.raises(NicknameError):
        ClassSession("practice", store).join(nickname)
    assert store.seats("practice") == []


def test_twenty_characters_are_fine(store: SQLiteStore) -> None:
    session = ClassSession("practice", store)
    session.join("é" * 20)
    assert session.nickname == "é" * 20


def test_a_taken_nickname_gets_a_clear_message_in_the_students_language(
    store: SQLiteStore,
) -> None:
    clock = Clock()
    student(store, "practice", clock)
    other = ClassSession("practice", store, clock=clock, lang="sv")
    with pytest.raises(NicknameTakenError) as refused:
        other.join("ana")
    assert "taken" in str(refused.value)
    assert "smeknamnet" in refused.value.message("sv").lower()
    assert not other.joined


def test_the_same_nickname_in_another_class_is_another_student(store: SQLiteStore) -> None:
    clock = Clock()
    student(store, "practice", clock)
    assert student(store, "test", clock).shown == 1


# --- working through the puzzles -----------------------------------------------------------


def test_the_puzzles_come_in_order_with_a_counter_and_a_summary_at_the_end(
    store: SQLiteStore,
) -> None:
    clock = Clock()
    session = student(store, "practice", clock)
    assert session.counter() == "Puzzle 1 of 3"
    assert session.practice.puzzle == PETER
    session.next()  # not before the puzzle is done
    assert session.counter() == "Puzzle 1 of 3"
    session.practice.type(PETERS_ANSWER)
    clock.now += 42
    assert session.submit().kind is FeedbackKind.SOLVED
    session.next()
    assert (session.counter(), session.practice.puzzle) == ("Puzzle 2 of 3", NO_TEN)
    assert session.mu().kind is FeedbackKind.MU_RIGHT
    session.next()
    session.practice.type("13 + 9")
    assert session.submit().kind is FeedbackKind.MISTAKE
    assert session.mu().kind is FeedbackKind.MU_WRONG
    assert session.finished
    summary = session.summary()
    assert [cell.mark for cell in summary.cells] == ["✓ 6/6", "✓ mu", "✗ mu"]
    assert (summary.solved, summary.cards, summary.possible) == (2, 6, 12)
    assert session.summary_text() == "Solved 2 of 3 · Cards 6 of 12"


def test_every_attempt_is_stored_with_what_the_report_needs(store: SQLiteStore) -> None:
    clock = Clock()
    session = student(store, "practice", clock)
    clock.now += 5
    session.hint()
    session.practice.type("13 + 9")
    clock.now += 7.3
    session.submit()
    session.practice.type(PETERS_ANSWER)
    clock.now += 3
    session.submit()
    session.next()
    session.mu()
    wrong, right, mu = store.attempts("practice")
    assert (wrong.nickname, wrong.puzzle, wrong.code, wrong.answer) == (
        "Ana",
        1,
        PETER.code,
        "13 + 9",
    )
    assert (wrong.verdict, wrong.cards, wrong.best, wrong.hints) == ("colour", 0, 6, 1)
    assert wrong.seconds == 12.3  # since the puzzle was shown, to a tenth
    assert (right.answer, right.verdict, right.cards, right.best, right.seconds) == (
        PETERS_ANSWER,
        "ok",
        len(check(PETER, PETERS_ANSWER).cards),
        6,
        15.3,
    )
    assert (mu.puzzle, mu.answer, mu.verdict, mu.best, mu.hints) == (2, MU_TYPED, "mu-right", 0, 0)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", mu.time)


@pytest.mark.parametrize("typed, code", [("", "empty"), ("13 +", "syntax"), ("20", "no-such-card")])
def test_malformed_input_is_stored_but_not_counted_as_wrong(
    store: SQLiteStore, typed: str, code: str
) -> None:
    session = student(store, "test", Clock())
    session.practice.type(typed)
    feedback = session.submit()
    assert feedback.kind is FeedbackKind.UNREADABLE
    assert "does not count" in feedback.message
    (row,) = store.attempts("test")
    assert row.verdict == code and not row.counted and not row.mistake
    overview = ClassOverview.build(["Ana"], store.assignment("test").codes, [row])
    assert overview.cell("Ana", 1).state == "malformed"
    assert overview.stats[0].mistake is None
    assert not session.puzzle_done  # the student fixes it and tries again


# --- test mode ------------------------------------------------------------------------------


def test_test_mode_holds_back_hints_and_the_best_answers_until_the_end(
    store: SQLiteStore,
) -> None:
    session = student(store, "test", Clock())
    assert not session.help_open
    with pytest.raises(HelpLockedError):
        session.hint()
    with pytest.raises(HelpLockedError):
        session.best_answers()
    assert session.mu().kind is FeedbackKind.MU_WRONG  # Peter's puzzle has a dek bovinoj
    best = solve(PETER)
    assert best is not None
    revealed = check(PETER, best.expression).reading
    shown = store.attempts("test")
    assert shown[0].verdict == "mu-wrong"
    with pytest.raises(HelpLockedError):  # still locked on the next puzzles
        session.hint()
    session.next()
    session.mu()
    session.next()
    session.practice.type(PETERS_ANSWER)
    assert session.submit().kind is FeedbackKind.SOLVED
    assert session.finished and session.help_open
    assert revealed in [answer.expression for answer in session.best_answers()]


def test_a_wrong_mu_in_a_test_does_not_give_the_answer_away(store: SQLiteStore) -> None:
    practice = student(store, "practice", Clock())
    test = student(store, "test", Clock())
    best = solve(PETER)
    assert best is not None
    answer = check(PETER, best.expression).reading
    assert answer in practice.mu().message  # practice shows what was missed
    message = test.mu().message
    assert answer not in message and "×" not in message and "K♣" not in message


def test_test_mode_buttons_in_the_practice_mode_work_at_once(store: SQLiteStore) -> None:
    session = student(store, "practice", Clock())
    assert session.hint().kind is FeedbackKind.HINT
    assert session.best_answers()
    assert store.seats("practice")[0].hints == 1


# --- coming back ----------------------------------------------------------------------------


def test_a_reload_continues_where_the_student_was(store: SQLiteStore) -> None:
    clock = Clock()
    first = student(store, "practice", clock)
    first.practice.type(PETERS_ANSWER)
    first.submit()
    first.next()
    first.hint()
    clock.now += 3
    first.heartbeat()
    # The page is reloaded: its heartbeat stops, a new page (a new session) joins.
    clock.now += LIVE_SECONDS + 1
    again = ClassSession("practice", store, clock=clock)
    again.join("ANA")
    assert (again.nickname, again.shown, again.counter()) == ("Ana", 2, "Puzzle 2 of 3")
    assert again.practice.puzzle == NO_TEN and again.practice.hints_given == 1
    again.mu()
    assert [a.puzzle for a in store.attempts("practice")] == [1, 2]
    assert store.attempts("practice")[1].hints == 1


def test_a_student_who_finished_comes_back_to_the_summary(store: SQLiteStore) -> None:
    clock = Clock()
    first = student(store, "test", clock)
    for _ in range(3):
        first.mu()
        first.next()
    clock.now += LIVE_SECONDS + 1
    again = student(store, "test", clock)
    assert again.finished and again.help_open
    assert [cell.mark for cell in again.summary().cells] == ["✗ mu", "✓ mu", "✗ mu"]
