"""Words for an 8-year-old at level 1: "take away", never "negative"; a first hint that names a
card to start with; one best answer said as one.

Lesson 1 promises no negative numbers, and its pupils read the checker's messages and *How to
play*. At a level with + and − alone, a card of the wrong colour is said in words of adding and
taking away, in every language, and never invites a negative start.
"""

from __future__ import annotations

import pytest
from support.puzzles import PETER

from dekbovinoj_edu import Puzzle, check, solve
from dekbovinoj_edu.i18n import LANGUAGES, gettext
from dekbovinoj_edu.sessions.practice import PracticeSession
from dekbovinoj_edu.widgets.app import how_to_play_html
from dekbovinoj_edu.widgets.practice import Practice

NEGATIVE = ("negative", "negativ", "マイナス", "positive", "pozitiv", "プラス")
"""The words (and stems) of negative and positive numbers in the four languages."""

LESSON_1 = Puzzle.parse("8♣ 2♦ | 4♠ 6♣ K♥", level=1)
WRONG_COLOUR = ["8 + 2", "8 − 4 + 2", "2 + 8", "8 × 2", "−8 + 4 + 2"]
"""Answers with a card of the wrong colour (a red card added, a black one taken away)."""


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_card_of_the_wrong_colour_at_level_1_is_said_without_negative(lang: str) -> None:
    said = 0
    for text in WRONG_COLOUR:
        verdict = check(LESSON_1, text, lang=lang)
        assert not verdict.ok
        if verdict.code.value != "colour":
            continue
        said += 1
        sentence = verdict.sentence.lower()
        assert not any(word in sentence for word in NEGATIVE), (text, sentence)
        assert "−" in sentence or "+" in sentence, sentence  # which sign to write
        assert "−2" not in sentence and "−8" not in sentence  # no negative start offered
    assert said >= 3


def test_at_level_2_the_colour_rule_still_names_every_sign_allowed() -> None:
    level_2 = Puzzle.parse("8♣ 2♦ | 4♠ 6♣ K♥", level=2)
    assert "− or ÷" in check(level_2, "8 + 2").sentence


@pytest.mark.parametrize("lang", LANGUAGES)
def test_how_to_play_says_add_and_take_away(lang: str) -> None:
    text = how_to_play_html(lang).lower()
    assert not any(word in text for word in NEGATIVE), lang
    assert "−9" not in text  # no negative start offered


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_first_hint_names_the_card_the_best_answer_starts_with(lang: str) -> None:
    session = PracticeSession(puzzle=LESSON_1, lang=lang)
    best = solve(LESSON_1)
    assert best is not None
    first = check(LESSON_1, best.expression).cards[0]
    assert session.hint().message.endswith(
        " " + gettext(lang, "ui", "Start with {card}.", card=str(first))
    )


def test_a_single_best_answer_is_said_as_one() -> None:
    only = Puzzle.parse("A♣ | 9♣", level=1)  # 1 + 9, and nothing else
    view = Practice(puzzle=only)
    view.answers_button.click()
    assert "only this one" in view.answers.value
    assert "1 different" not in view.answers.value
    many = Practice(puzzle=PETER)
    many.answers_button.click()
    assert "different ones" in many.answers.value
