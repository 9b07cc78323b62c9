"""Switching the language translates what is on screen: the last message and the best answers."""

from __future__ import annotations

import html

import pytest
from support.puzzles import PETER

from dekbovinoj_edu.i18n import gettext
from dekbovinoj_edu.rules.codes import PuzzleCodeError
from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.sessions.feedback import FeedbackKind
from dekbovinoj_edu.sessions.practice import PracticeSession
from dekbovinoj_edu.widgets.practice import Practice


def peter(lang: str = "en") -> Practice:
    return Practice(puzzle=PETER, lang=lang, prepare_in_background=False)


def test_a_solved_puzzles_message_is_told_again_in_the_new_language() -> None:
    view = peter()
    view.expression.value = "13*2+3-9-3-7"
    view.submit_button.click()
    assert "the best possible" in view.feedback.value
    view.language_menu.value = "sv"
    said = gettext("sv", "ui", "Dek bovinoj! {taken}: the best possible.", taken="6 kort")
    assert html.escape(said) in view.feedback.value
    assert view.session.score.solved == 1  # told again, not scored again


def test_a_mistakes_message_keeps_its_highlight_in_the_new_language() -> None:
    view = peter()
    view.expression.value = "13 + 9"
    view.submit_button.click()
    english = view.feedback.value
    view.language_menu.value = "eo"
    assert view.feedback.value not in ("", english)
    assert "dkb-kind-mistake" in view.feedback.value
    assert view.session.score.streak == 0


@pytest.mark.parametrize("lang", ["eo", "sv", "ja"])
def test_a_hint_and_a_missed_mu_are_told_again(lang: str) -> None:
    view = peter()
    view.hint_button.click()
    view.language_menu.value = lang
    hint = gettext(lang, "ui", "The best answer takes {cards}.", cards=view.session.cards_text(6))
    assert html.escape(hint) in view.feedback.value
    assert view.session.hints_given == 1  # no second hint given
    missed = peter()
    missed.mu_button.click()
    missed.language_menu.value = lang
    assert "dkb-kind-mu-wrong" in missed.feedback.value
    assert "There was a dek bovinoj" not in missed.feedback.value


def test_the_best_answers_shown_are_told_again_in_the_new_language() -> None:
    view = peter()
    view.answers_button.click()
    assert view.answers.value
    count = len(view.session.best_answers)
    view.language_menu.value = "sv"
    title = gettext("sv", "ui", "The best answers: {count} different ones", count=count)
    assert html.escape(title) in view.answers.value


def test_a_refused_code_is_told_again_in_the_new_language() -> None:
    view = peter()
    view.code_field.value = "A8WC"
    view.load_button.click()
    view.language_menu.value = "ja"
    with pytest.raises(PuzzleCodeError) as refused:
        Puzzle.from_code("A8WC")
    assert html.escape(refused.value.message("ja")) in view.feedback.value


def test_nothing_said_stays_nothing_and_a_new_puzzle_forgets_the_last_message() -> None:
    session = PracticeSession(puzzle=PETER)
    assert session.retell() is None
    session.hint()
    session.set_lang("sv")
    told = session.retell()
    assert told is not None and told.kind is FeedbackKind.HINT
    session.new_puzzle(PETER)
    assert session.retell() is None
    view = peter()
    view.language_menu.value = "eo"
    assert view.feedback.value == "" and view.answers.value == ""
