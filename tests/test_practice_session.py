"""The practice session, the model behind the widget: taps, typing, answers, mu, hints, score."""

from __future__ import annotations

import pytest
from support.puzzles import PETER, SOFIA, TARGET_24

from dekbovinoj_edu.checking.checker import check
from dekbovinoj_edu.i18n import gettext
from dekbovinoj_edu.rules.levels import LEVELS
from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.sessions.feedback import FeedbackKind
from dekbovinoj_edu.sessions.practice import PracticeSession
from dekbovinoj_edu.solving.solver import solve, solve_all

PETERS_TAPS = ["K♣", "×", "2♣", "+", "3♠", "−", "9♦", "−", "3♥", "−", "7♥"]


@pytest.fixture
def peter() -> PracticeSession:
    return PracticeSession(puzzle=PETER)


@pytest.fixture
def sofia() -> PracticeSession:
    return PracticeSession(puzzle=SOFIA)


def no_dek_bovinoj() -> Puzzle:
    puzzle = Puzzle.parse("A♣ | 2♣", level=1)
    assert solve(puzzle) is None
    return puzzle


def test_peter_taps_his_cards_and_takes_all_six(peter: PracticeSession) -> None:
    for step in PETERS_TAPS:
        assert peter.tap(step)
    assert peter.text == "K♣ × 2♣ + 3♠ − 9♦ − 3♥ − 7♥"
    feedback = peter.submit()
    assert feedback.kind is FeedbackKind.SOLVED
    assert (feedback.taken, feedback.best) == (6, 6)
    assert "6 cards" in feedback.message
    assert peter.score.solved == 1 and peter.score.streak == 1
    assert (peter.score.cards_taken, peter.score.cards_possible) == (6, 6)


def test_tapped_cards_are_marked_used_and_cannot_be_tapped_again(peter: PracticeSession) -> None:
    assert peter.tap(3)
    assert peter.used == (3,)
    assert not peter.tap(3)
    assert not peter.tap("K♣")
    assert peter.text == "K♣"


def test_typing_and_tapping_stay_in_step(peter: PracticeSession) -> None:
    peter.type("13*2")
    assert peter.used == (3, 4)
    peter.tap("+")
    peter.tap("3♠")
    assert peter.used == (3, 4, 5)
    peter.backspace()
    assert peter.used == (3, 4)
    peter.clear()
    assert peter.used == () and peter.text == ""


def test_only_the_levels_operations_can_be_tapped() -> None:
    session = PracticeSession(puzzle=Puzzle.parse("5♠ 3♣ | 2♣", level=1))
    assert session.operations == ("+", "−")
    assert not session.tap("×")
    assert "×" in PracticeSession(puzzle=PETER).operations


def test_level_three_taps_roots_and_factorials_onto_their_cards() -> None:
    session = PracticeSession(puzzle=Puzzle.parse("9♣ 3♠ | 7♣ 4♠", level=3))
    for step in ["√", "9♣", "+", "3♠", "!", "+", "(", "7♣", ")"]:
        assert session.tap(step)
    assert session.text == "√9♣ + 3♠! + (7♣)"
    assert session.echo() == f"{check(session.puzzle, session.text).reading} = 16"
    assert session.used == (0, 1, 2)


def test_the_echo_shows_how_the_input_is_read_and_its_value(peter: PracticeSession) -> None:
    peter.type("13*2+3")
    verdict = check(peter.puzzle, "13*2+3")
    assert peter.echo() == f"{verdict.reading} = {verdict.value}"
    assert peter.problem() == ""


def test_while_typing_a_broken_rule_is_explained(peter: PracticeSession) -> None:
    peter.type("13 + 9")
    assert peter.problem() == check(peter.puzzle, "13 + 9").message


def test_the_echo_follows_the_value_while_a_sign_waits_for_its_card(
    peter: PracticeSession,
) -> None:
    peter.type("13*2 +")
    assert peter.echo() == f"{check(peter.puzzle, '13*2').reading} = 26"
    assert peter.problem() == ""


def test_a_smaller_answer_is_compared_with_the_best(peter: PracticeSession) -> None:
    peter.type("13 − 3")
    feedback = peter.submit()
    best = len(solve(peter.puzzle).cards)
    assert feedback.kind is FeedbackKind.SOLVED
    assert (feedback.taken, feedback.best) == (2, best)
    assert feedback.message == gettext(
        "en", "ui", "Dek bovinoj! {taken}; the best answer takes {best}.", taken="2 cards", best=6
    )


def test_a_better_second_answer_adds_only_the_extra_cards(peter: PracticeSession) -> None:
    peter.type("13 − 3")
    peter.submit()
    peter.type("13*2+3-9-3-7")
    peter.submit()
    assert peter.score.solved == 1
    assert (peter.score.cards_taken, peter.score.cards_possible) == (6, 6)


def test_a_colour_mistake_shows_the_checkers_message_and_ends_the_streak(
    peter: PracticeSession,
) -> None:
    peter.score.streak = 3
    peter.type("13 + 9")
    feedback = peter.submit()
    assert feedback.kind is FeedbackKind.MISTAKE
    assert feedback.message == check(peter.puzzle, "13 + 9").message
    assert str(feedback.verdict.code) == "colour"
    assert peter.score.streak == 0


@pytest.mark.parametrize("text", ["", "13 +", "((("])
def test_unreadable_input_costs_nothing(peter: PracticeSession, text: str) -> None:
    peter.score.streak = 3
    peter.type(text)
    feedback = peter.submit()
    assert feedback.kind is FeedbackKind.UNREADABLE
    assert feedback.message == check(peter.puzzle, text).message
    assert peter.score.streak == 3


def test_mu_is_right_when_there_is_no_dek_bovinoj() -> None:
    session = PracticeSession(puzzle=no_dek_bovinoj())
    feedback = session.mu()
    assert feedback.kind is FeedbackKind.MU_RIGHT and feedback.good
    assert session.score.solved == 1 and session.score.streak == 1


def test_sofia_missed_the_joker(sofia: PracticeSession) -> None:
    feedback = sofia.mu()
    assert feedback.kind is FeedbackKind.MU_WRONG
    assert "joker" in feedback.message
    assert "7♥" in feedback.message and "3♥" in feedback.message
    assert sofia.score.streak == 0 and sofia.score.solved == 0
    assert sofia.mu().kind is FeedbackKind.DONE


def test_sofia_plays_her_joker_and_makes_seven_plus_three(sofia: PracticeSession) -> None:
    assert not sofia.flipped
    assert sofia.set_joker(True)
    assert sofia.flipped
    sofia.type("7 + 3")
    feedback = sofia.submit()
    assert feedback.kind is FeedbackKind.SOLVED and feedback.taken == 2


def test_without_a_joker_the_joker_cannot_be_played(peter: PracticeSession) -> None:
    assert not peter.set_joker(True)
    assert not peter.joker


def test_hints_come_one_step_at_a_time(sofia: PracticeSession) -> None:
    best = solve(sofia.puzzle)
    hints = [sofia.hint().message for _ in range(4)]
    told = "The best answer takes 2 cards. Play the joker first. Start with "
    assert hints[0].startswith(told)  # the joker before the card: 7♥ counts plus only then
    assert best.expression.lstrip("−(").startswith(hints[0].removeprefix(told).rstrip("."))
    assert hints[1] == "It needs the joker."
    assert all(str(card) in hints[2] for card in best.cards)
    assert hints[3].startswith("Play the joker first.") and "7♥" in hints[3]
    assert sofia.revealed


def test_a_puzzle_without_a_joker_skips_the_joker_hint(peter: PracticeSession) -> None:
    first = peter.hint().message
    assert first.startswith("The best answer takes 6 cards. Start with ")
    assert peter.hint().message.startswith("It uses these cards:")


def test_a_shown_answer_is_not_scored(sofia: PracticeSession) -> None:
    for _ in range(4):
        sofia.hint()
    sofia.set_joker(True)
    sofia.type("7 + 3")
    feedback = sofia.submit()
    assert feedback.kind is FeedbackKind.SOLVED
    assert "Not scored" in feedback.message
    assert sofia.score.solved == 0


def test_the_hint_for_a_mu_puzzle_says_mu() -> None:
    session = PracticeSession(puzzle=no_dek_bovinoj())
    assert session.hint().message == "There is no dek bovinoj here. Say mu!"


def test_the_best_answers_are_every_solver_answer_told_like_peter(peter: PracticeSession) -> None:
    answers = peter.best_answers
    assert answers
    assert len(answers) <= len(solve_all(peter.puzzle))
    for answer in answers:
        assert len(answer.cards) == 6
        assert check(peter.puzzle, answer.expression).ok
        assert len(answer.steps) >= 7
        assert answer.steps[-1] == "That is 10: dek bovinoj!"
    assert peter.revealed


def test_the_session_speaks_the_chosen_language(sofia: PracticeSession) -> None:
    sofia.set_lang("eo")
    assert sofia.hint().message == " ".join(
        [
            gettext("eo", "ui", "The best answer takes {cards}.", cards="2 kartoj"),
            gettext("eo", "ui", "Play the joker first."),
            gettext("eo", "ui", "Start with {card}.", card="7♥"),
        ]
    )
    sofia.type("7 + 3")
    assert sofia.verdict.message == check(sofia.puzzle, "7 + 3", lang="eo").message


def test_a_puzzle_code_gives_the_whole_class_the_same_puzzle(peter: PracticeSession) -> None:
    other = PracticeSession(seed=5)
    other.load_code(peter.puzzle.code)
    assert other.puzzle == peter.puzzle


def test_a_mistyped_code_is_refused_with_a_value_error(peter: PracticeSession) -> None:
    with pytest.raises(ValueError):
        peter.load_code("not a code")
    assert str(peter.puzzle) == str(PETER)


def test_the_same_seed_deals_the_same_puzzles() -> None:
    first, second = PracticeSession(seed=11), PracticeSession(seed=11)
    first.new_puzzle()
    second.new_puzzle()
    assert first.puzzle == second.puzzle


def test_some_dealt_puzzles_are_mu_puzzles() -> None:
    always = PracticeSession(level=1, seed=8, mu=1.0)
    assert always.best is None
    assert always.mu().kind is FeedbackKind.MU_RIGHT
    never = PracticeSession(level=1, seed=8, mu=0.0)
    assert never.best is not None


def test_levels_and_difficulty_deal_new_puzzles() -> None:
    session = PracticeSession(level=1, difficulty="easy", seed=2)
    assert session.puzzle.level == LEVELS[1]
    session.set_level(3)
    assert session.puzzle.level == LEVELS[3]
    session.set_difficulty("hard")
    assert session.difficulty == "hard"
    with pytest.raises(ValueError):
        session.set_difficulty("impossible")


def test_an_authors_house_rule_level_can_be_chosen() -> None:
    game24 = TARGET_24
    session = PracticeSession(levels=[game24], seed=4)
    assert "24" in session.levels
    session.set_level("24")
    assert session.puzzle.level.target == 24


def test_the_score_line_counts_solved_cards_and_streak(peter: PracticeSession) -> None:
    peter.type("13*2+3-9-3-7")
    peter.submit()
    assert peter.score_text() == "Solved: 1 · Cards: 6 of 6 · Streak: 1"
    assert peter.score.percent == 100
