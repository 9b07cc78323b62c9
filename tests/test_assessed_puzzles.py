"""A lesson's exercises and exit ticket keep their answers for the teacher (issue 40, item 2).

A pupil who types an exercise's code into the lesson's widget gets the answer checked, but
no hint, no best answer, no "mu!" verdict and no score that would tell the best; every other
puzzle still helps as before. Also here: a house rule's target says "Right!", not "Dek
bovinoj!" (finding M3), and a lesson that keeps to whole numbers hints a whole-number answer
(finding P4).
"""

from __future__ import annotations

import dataclasses

import pytest

from dekbovinoj_edu import LEVELS, Puzzle, solve, solve_all
from dekbovinoj_edu.dealing.filters import passes_through_fraction
from dekbovinoj_edu.dealing.scope import Scope
from dekbovinoj_edu.i18n import LANGUAGES, gettext
from dekbovinoj_edu.sessions.feedback import FeedbackKind
from dekbovinoj_edu.sessions.practice import PracticeSession
from dekbovinoj_edu.widgets import Practice

EXERCISE = Puzzle.parse("2♣ 6♥ | 6♠ 8♣ Q♦", level=1)
"""Lesson 1's third exercise: its best answer takes four cards."""
SCOPE = Scope("lesson 1", [LEVELS[1]], jokers=False, flipped=False, decks=1)
KEPT_BACK = "This is an exercise: no help here. Write your answer on paper for your teacher."


def _best_texts(puzzle: Puzzle) -> list[str]:
    """Every best answer as a pupil would read it, with and without the cards' suits."""
    answers = [solution.expression for solution in solve_all(puzzle, limit=None)]
    plain = [" ".join(part.rstrip("♣♠♦♥") for part in text.split()) for text in answers]
    return answers + plain


def _said(widget: Practice) -> str:
    return widget.feedback.value + widget.answers.value


def test_an_assessed_puzzle_opened_from_its_code_shows_no_answer() -> None:
    widget = Practice(scope=SCOPE, seed=1, assessed=[EXERCISE], prepare_in_background=False)
    widget.code_field.value = EXERCISE.code
    widget.load_button.click()
    assert widget.session.puzzle == EXERCISE and widget.session.is_assessed
    seen = []
    for pressed in [widget.hint_button] * 4 + [widget.answers_button, widget.mu_button]:
        pressed.click()
        seen.append(_said(widget))
        assert KEPT_BACK in widget.feedback.value, widget.feedback.value
    for answer in _best_texts(EXERCISE):
        assert not any(answer in text for text in seen), answer
    assert "card" not in " ".join(seen), "not even how many cards the best takes"
    assert EXERCISE.code not in widget.code_label.value, "its code would open it in the app"
    assert widget.session.score.puzzles == 0 and not widget.session.finished


def test_an_assessed_puzzle_is_checked_without_a_word_on_the_best() -> None:
    session = PracticeSession(puzzle=EXERCISE, assessed={EXERCISE})
    session.type("8 + 2")  # two cards, the best takes four
    feedback = session.submit()
    assert feedback.kind is FeedbackKind.SOLVED and feedback.best == 0
    assert feedback.message == "Dek bovinoj! 2 cards."
    assert session.score.cards_possible == 0, "the score would tell the best"
    session.type("8 + 4")
    assert session.submit().kind is FeedbackKind.MISTAKE  # refusals still teach


def test_the_same_puzzle_unassessed_still_helps() -> None:
    """The control: without the mark, the same buttons show the answer."""
    widget = Practice(scope=SCOPE, seed=1, prepare_in_background=False)
    widget.code_field.value = EXERCISE.code
    widget.load_button.click()
    widget.answers_button.click()
    best = solve(EXERCISE)
    assert best is not None
    assert any(answer in widget.answers.value for answer in _best_texts(EXERCISE))
    assert KEPT_BACK not in widget.feedback.value


def test_puzzles_marked_after_the_widget_was_built_count_too() -> None:
    """A lesson's widgets come before its exercises: the set they share is read, not copied."""
    assessed: set[Puzzle] = set()
    widget = Practice(scope=SCOPE, seed=1, assessed=assessed, prepare_in_background=False)
    assessed.add(EXERCISE)
    widget.code_field.value = EXERCISE.code
    widget.load_button.click()
    widget.answers_button.click()
    assert widget.answers.value == "" and KEPT_BACK in widget.feedback.value


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_kept_back_sentence_is_told_in_every_language(lang: str) -> None:
    session = PracticeSession(puzzle=EXERCISE, assessed=[EXERCISE], lang=lang)
    assert session.hint().message == gettext(lang, "ui", KEPT_BACK)
    if lang != "en":
        assert session.hint().message != KEPT_BACK


def test_a_house_rule_s_target_says_right_not_dek_bovinoj() -> None:
    twenty = Puzzle.parse(
        "Q♣ 5♦ | 7♠ 6♣ 4♥", level=dataclasses.replace(LEVELS[1], name="20", target=20)
    )
    session = PracticeSession(puzzle=twenty)
    session.type("12 + 7 + 6 − 5")
    message = session.submit().message
    assert message.startswith("Right! 4 cards"), message
    ten = PracticeSession(puzzle=EXERCISE)
    ten.type("8 + 2")
    assert ten.submit().message.startswith("Dek bovinoj! 2 cards")


def test_a_lesson_that_keeps_to_whole_numbers_hints_a_whole_number_answer() -> None:
    """Lesson 2's widget hinted `8♣ × 5♣ × (9♠ ÷ 4♦ − 2♦)` where `9♠ + 5♣ − 2♦ × 8♣ ÷ 4♦`
    stays whole (the review's finding P4)."""
    puzzle = Puzzle.parse("4♦ 8♣ | 2♦ 5♣ 9♠", level=2)
    plain = PracticeSession(puzzle=puzzle).shown
    whole = PracticeSession(puzzle=puzzle, fractions=False).shown
    assert plain is not None and whole is not None
    assert passes_through_fraction(plain.tree), "the control: the simplest passes through 9/4"
    assert not passes_through_fraction(whole.tree)
    assert whole.size == plain.size
