"""A student's class session: joining with a nickname, the puzzles in order, what test mode
holds back, what counts as a wrong attempt, what is stored, what the overview makes of it
(states, verdict codes and figures, as data), coming back after a reload with the seat's
rejoin code, and a page told plainly that its seat went to another page.

The session here talks to a desk in this process (a store given, or a
:class:`~dekbovinoj_edu.classroom.store.desk.ClassDesk`); ``tests/test_classroom_client.py`` runs
it through the class service."""

from __future__ import annotations

import re
from dataclasses import astuple

import pytest
from support.puzzles import PETER

from dekbovinoj_edu.checking.checker import check
from dekbovinoj_edu.classroom.assignment import codes_assignment, deal_assignment
from dekbovinoj_edu.classroom.attempts import MU_TYPED
from dekbovinoj_edu.classroom.errors import (
    NicknameError,
    NicknameTakenError,
    PuzzleNotOpenError,
    SeatTakenError,
)
from dekbovinoj_edu.classroom.overview import CellState, ClassOverview, class_overview
from dekbovinoj_edu.classroom.seat import REJOIN_ALPHABET
from dekbovinoj_edu.classroom.session import ClassSession, HelpLockedError, check_nickname
from dekbovinoj_edu.classroom.store import SQLiteStore
from dekbovinoj_edu.classroom.store.desk import ClassDesk
from dekbovinoj_edu.dealing.dealer import deal_many
from dekbovinoj_edu.dealing.teaching import REVEALING_HINT
from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.sessions.feedback import FeedbackKind
from dekbovinoj_edu.solving.solver import solve

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
    session = ClassSession(name, ClassDesk(store, name, clock=clock), clock=clock)
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
        ClassSession("practice", ClassDesk(store, "practice")).join(nickname)
    assert store.seats("practice") == []


def test_twenty_characters_are_fine(store: SQLiteStore) -> None:
    session = ClassSession("practice", ClassDesk(store, "practice"))
    session.join("é" * 20)
    assert session.nickname == "é" * 20


def test_a_taken_nickname_gets_a_clear_message_in_the_students_language(
    store: SQLiteStore,
) -> None:
    clock = Clock()
    student(store, "practice", clock)
    other = ClassSession(
        "practice", ClassDesk(store, "practice", clock=clock), clock=clock, lang="sv"
    )
    with pytest.raises(NicknameTakenError) as refused:
        other.join("ana")
    assert "taken" in str(refused.value) and "rejoin code" in str(refused.value)
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
    assert [cell.state for cell in summary.cells] == [
        CellState.SOLVED_BEST,
        CellState.MU_RIGHT,
        CellState.MU_WRONG,
    ]
    solved, mu, wrong_mu = summary.cells
    assert (solved.verdict, solved.cards, solved.best, solved.seconds) == ("ok", 6, 6, 42.0)
    assert (mu.verdict, mu.cards, mu.best) == ("mu-right", 0, 0)
    assert (wrong_mu.verdict, wrong_mu.attempts, wrong_mu.last_answer) == ("mu-wrong", 2, MU_TYPED)
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
    cell = overview.cell("Ana", 1)
    assert (cell.state, cell.verdict, cell.last_answer) == (CellState.UNREADABLE, code, typed)
    assert overview.stats[0].mistake is None
    assert not session.puzzle_done  # the student fixes it and tries again


# --- the overview, as data ----------------------------------------------------------------


def answer(session: ClassSession, *typed: str) -> None:
    for text in typed:
        session.practice.type(text)
        session.submit()


def test_each_student_on_each_puzzle_is_a_state_with_the_verdict_cards_and_best(
    store: SQLiteStore,
) -> None:
    clock = Clock()
    ana, bo, cy = (student(store, "practice", clock, nick) for nick in ("Ana", "Bo", "Cy"))
    answer(ana, PETERS_ANSWER)
    answer(bo, "13 + 9")
    answer(cy, "13 +", "13*2-9-7")  # unreadable first, then 4 of the 6 cards
    student(store, "practice", clock, "Di")
    overview = class_overview(store, "practice")
    assert overview.students == ("Ana", "Bo", "Cy", "Di")
    cells = {nick: overview.cell(nick, 1) for nick in overview.students}
    assert {nick: cell.state for nick, cell in cells.items()} == {
        "Ana": CellState.SOLVED_BEST,
        "Bo": CellState.WRONG,
        "Cy": CellState.SOLVED,
        "Di": CellState.NOT_TRIED,
    }
    assert {nick: cell.verdict for nick, cell in cells.items()} == {
        "Ana": "ok",
        "Bo": "colour",
        "Cy": "ok",
        "Di": None,
    }
    assert [(c.cards, c.best, c.attempts) for c in cells.values()] == [
        (6, 6, 1),
        (0, 6, 1),
        (4, 6, 2),
        (0, 0, 0),
    ]
    assert overview.cell("Ana", 2).state is CellState.NOT_TRIED
    assert overview.attempt_count == 4


def test_a_cell_shows_the_latest_counted_mistake_not_the_unreadable_input_after_it(
    store: SQLiteStore,
) -> None:
    clock = Clock()
    bo = student(store, "practice", clock, "Bo")
    bo.hint()
    clock.now += 8
    answer(bo, "13 + 9", "13 +")
    cell = class_overview(store, "practice").cell("Bo", 1)
    assert (cell.state, cell.verdict, cell.last_answer) == (CellState.WRONG, "colour", "13 +")
    assert (cell.hints, cell.seconds, cell.attempts) == (1, 8.0, 2)


def test_a_wrong_mu_ends_the_puzzle_unsolved_and_a_right_mu_solves_it_with_the_best(
    store: SQLiteStore,
) -> None:
    session = student(store, "practice", Clock())
    session.mu()  # Peter's puzzle has a dek bovinoj
    session.next()
    session.mu()  # this one has none
    overview = class_overview(store, "practice")
    wrong, right = overview.cell("Ana", 1), overview.cell("Ana", 2)
    assert (wrong.state, wrong.verdict) == (CellState.MU_WRONG, "mu-wrong")
    assert wrong.state.finished and not wrong.state.solved
    assert (right.state, right.verdict) == (CellState.MU_RIGHT, "mu-right")
    assert right.state.solved_best
    assert overview.stats[0].mistake == "mu-wrong"


def test_each_puzzles_figures_are_shares_of_the_class_and_its_most_common_mistake(
    store: SQLiteStore,
) -> None:
    clock = Clock()
    ana, bo, cy, di = (student(store, "practice", clock, n) for n in ("Ana", "Bo", "Cy", "Di"))
    answer(ana, "13 + 9", PETERS_ANSWER)
    answer(bo, "13 + 9", "13 + 9", "13 + 2")  # two colour mistakes and a 15
    answer(cy, "13*2-9-7")
    answer(di, "20")  # no such card: stored, never a mistake
    first, second, third = class_overview(store, "practice").stats
    assert (first.number, first.code) == (1, PETER.code)
    assert (first.reached, first.finished) == (4, 2)  # Bo and Di are still on it
    assert (first.solved, first.best) == (1.0, 0.5)  # Ana and Cy; only Ana with all 6
    assert (first.mistake, first.mistake_count) == ("colour", 3)  # not-target only once
    assert (second.solved, second.mistake, second.mistake_count) == (0.0, None, 0)
    assert third.code == PETER.code


def test_a_student_with_attempts_but_no_seat_still_has_a_row() -> None:
    from dekbovinoj_edu.classroom.attempts import Attempt

    row = Attempt("4a", "Eve", 1, PETER.code, "mu!", "mu-wrong", 0, 6, 0, 3.0, "T")
    overview = ClassOverview.build(["Ana"], [PETER.code], [row])
    assert overview.students == ("Ana", "Eve")
    assert overview.cell("Eve", 1).state is CellState.MU_WRONG


def test_the_overview_is_data_with_no_glyph_or_markup_in_it(store: SQLiteStore) -> None:
    clock = Clock()
    answer(student(store, "practice", clock, "Ana"), "13 + 9", "13 +", PETERS_ANSWER)
    answer(student(store, "practice", clock, "<b>Bo</b>"), "13 + 9")
    overview = class_overview(store, "practice")
    for (nick, _), cell in overview.cells.items():
        texts = [v for v in astuple(cell) if isinstance(v, str) and v != cell.last_answer]
        assert not any(mark in text for text in texts for mark in "✓✗·<>"), (nick, cell)
    for figures in overview.stats:
        assert figures.mistake in (None, "colour")


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
    assert store.seats("practice")[0].hints == 1
    assert session.best_answers()  # before solving: the hint that shows the whole answer
    assert store.seats("practice")[0].hints == REVEALING_HINT


# --- coming back ----------------------------------------------------------------------------


def test_a_reload_continues_where_the_student_was_with_the_rejoin_code(
    store: SQLiteStore,
) -> None:
    clock = Clock()
    first = student(store, "practice", clock)
    first.practice.type(PETERS_ANSWER)
    first.submit()
    first.next()
    first.hint()
    clock.now += 3
    first.heartbeat()
    # The page is reloaded: a new page joins with the code the first one showed, at once.
    again = ClassSession("practice", ClassDesk(store, "practice", clock=clock), clock=clock)
    again.join("ANA", first.rejoin_code.lower().replace("-", " "))
    assert again.resumed and again.rejoin_code == first.rejoin_code
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
    again = ClassSession("test", ClassDesk(store, "test", clock=clock), clock=clock)
    again.join("Ana", first.rejoin_code)
    assert again.finished and again.help_open
    assert [cell.state for cell in again.summary().cells] == [
        CellState.MU_WRONG,
        CellState.MU_RIGHT,
        CellState.MU_WRONG,
    ]


# --- a seat belongs to its student ---------------------------------------------------------


def test_joining_gives_a_rejoin_code_of_two_groups_of_four(store: SQLiteStore) -> None:
    ana = student(store, "practice", Clock())
    first, dash, second = ana.rejoin_code.partition("-")
    assert dash == "-" and len(first) == len(second) == 4
    assert set(first + second) <= set(REJOIN_ALPHABET) and not ana.resumed
    assert ana.token and ana.token != ana.rejoin_code


def test_a_classmate_cannot_take_ritas_seat_however_long_her_page_is_silent(
    store: SQLiteStore,
) -> None:
    clock = Clock()
    rita = student(store, "test", clock, "Rita")
    rita.practice.type(PETERS_ANSWER)
    rita.submit()
    clock.now += 3600  # her tablet slept for an hour
    for typed in ("RITA", "rita", " Rita "):
        with pytest.raises(NicknameTakenError):
            ClassSession("test", ClassDesk(store, "test", clock=clock), clock=clock).join(typed)
    with pytest.raises(NicknameTakenError):
        ClassSession("test", ClassDesk(store, "test", clock=clock), clock=clock).join(
            "RITA", "2222-2222"
        )
    assert [a.nickname for a in store.attempts("test")] == ["Rita"]  # no "mu!" in her name
    assert rita.heartbeat() is False and rita.joined  # her own page still has it


def test_the_page_whose_seat_was_taken_up_elsewhere_is_told_and_writes_nothing(
    store: SQLiteStore,
) -> None:
    clock = Clock()
    tablet = student(store, "practice", clock)
    laptop = ClassSession("practice", ClassDesk(store, "practice", clock=clock), clock=clock)
    laptop.join("Ana", tablet.rejoin_code)
    with pytest.raises(SeatTakenError):
        tablet.heartbeat()
    assert not tablet.joined and tablet.token == ""
    with pytest.raises(NicknameError):  # "join first": the page is back at the join screen
        tablet.mu()
    laptop.practice.type(PETERS_ANSWER)
    laptop.submit()
    assert [(a.nickname, a.verdict) for a in store.attempts("practice")] == [("Ana", "ok")]


def test_an_answer_from_the_page_that_lost_its_seat_is_refused_and_not_stored(
    store: SQLiteStore,
) -> None:
    clock = Clock()
    tablet = student(store, "practice", clock)
    ClassSession("practice", ClassDesk(store, "practice", clock=clock), clock=clock).join(
        "Ana", tablet.rejoin_code
    )
    tablet.practice.type(PETERS_ANSWER)
    with pytest.raises(SeatTakenError):
        tablet.submit()
    assert store.attempts("practice") == [] and not tablet.joined


def test_a_page_follows_the_teacher_who_reset_its_seat(store: SQLiteStore) -> None:
    clock = Clock()
    ana = student(store, "practice", clock)
    ana.practice.type(PETERS_ANSWER)
    ana.submit()
    ana.next()
    assert ana.counter() == "Puzzle 2 of 3"
    store.reset_seat("practice", "Ana")
    assert ana.heartbeat() is True  # moved: the view shows the puzzle again
    assert ana.counter() == "Puzzle 1 of 3" and not ana.puzzle_done
    ana.practice.type(PETERS_ANSWER)
    assert ana.submit().kind is FeedbackKind.SOLVED


def test_an_answer_to_a_puzzle_the_class_has_moved_past_is_refused_and_the_page_follows(
    store: SQLiteStore,
) -> None:
    clock = Clock()
    ana = student(store, "practice", clock)
    desk = ClassDesk(store, "practice", clock=clock)
    desk.attempt(ana.token, "from-another-tab", 1, "", mu=True)  # the token, used elsewhere
    with pytest.raises(PuzzleNotOpenError):
        ana.mu()
    assert (ana.shown, ana.puzzle_done) == (2, False)  # the page shows where the class is
    assert len(store.attempts("practice")) == 1


def test_a_session_talks_to_a_desk_as_it_would_to_the_class_service(store: SQLiteStore) -> None:
    clock = Clock()
    desk = ClassDesk(store, "practice", clock=clock)
    session = ClassSession("practice", desk, clock=clock)
    session.join("Bo")
    session.practice.type(PETERS_ANSWER)
    assert session.submit().kind is FeedbackKind.SOLVED and session.waiting == 0
    assert [a.verdict for a in session.attempts()] == ["ok"]
    assert session.kept is None and session.remembered is None


def test_check_nickname_is_still_the_sessions() -> None:
    assert check_nickname(" Ana ") == "Ana"


def test_a_student_leaves_a_shared_computer_and_the_next_joins_with_their_own_nickname(
    store: SQLiteStore,
) -> None:
    clock = Clock()
    page = student(store, "practice", clock)
    code = page.rejoin_code
    page.leave()
    assert not page.joined and page.rejoin_code == "" and page.token == ""
    page.join("Bo")
    page.mu()
    assert [(a.nickname, a.verdict) for a in store.attempts("practice")] == [("Bo", "mu-wrong")]
    ana = ClassSession("practice", ClassDesk(store, "practice", clock=clock), clock=clock)
    ana.join("Ana", code)  # her seat is still hers, with her code
    assert ana.resumed and ana.counter() == "Puzzle 1 of 3"
