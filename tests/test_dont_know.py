""" "I don't know" (issue 39, item 1): the puzzle ends without the wrong-answer penalty, the
best answer shown; a puzzle left untried is not learnt (a read-through's presses of "New
puzzle" no longer take a new pupil down to one-card puzzles)."""

from __future__ import annotations

from collections import Counter

from support.puzzles import PETER

from dekbovinoj_edu.dealing.learner import (
    Ability,
    Outcome,
    PuzzleRating,
    Response,
    update,
)
from dekbovinoj_edu.dealing.lessons import lesson_scope
from dekbovinoj_edu.i18n import gettext
from dekbovinoj_edu.sessions.feedback import FeedbackKind
from dekbovinoj_edu.sessions.practice import PracticeSession
from dekbovinoj_edu.solving.solver import solve
from dekbovinoj_edu.widgets.practice import Practice

MEDIUM = PuzzleRating(0.0, limit=40.0)


def _after(outcome: Outcome, ability: Ability | None = None) -> float:
    start = Ability() if ability is None else ability
    return update(start, MEDIUM, Response(outcome, 10.0))[0].value


def test_dont_know_lowers_less_than_a_wrong_answer_and_never_raises() -> None:
    start = Ability().value
    assert _after(Outcome.WRONG) < _after(Outcome.DONT_KNOW) < start
    weak = Ability(value=-2.0, variance=0.3, answers=9)  # E(S) below 0 there
    assert _after(Outcome.DONT_KNOW, weak) == weak.value


def test_dont_know_counts_as_not_solved_for_steering() -> None:
    learnt, _ = update(Ability(), MEDIUM, Response(Outcome.DONT_KNOW, 10.0))
    assert learnt.recent == (False,) and learnt.answers == 1


def test_the_practice_session_shows_the_best_answer_and_scores_no_wrong_answer() -> None:
    puzzle = PETER
    said = PracticeSession(puzzle=puzzle, difficulty="level", lang="sv")
    told = said.dont_know()
    best = solve(puzzle)
    assert best is not None
    assert told.kind is FeedbackKind.DONT_KNOW and told.best == len(best.cards)
    assert told.message.startswith("Det fanns")
    assert said.finished and said.revealed and said.score.solved == 0
    assert said.dont_know().kind is FeedbackKind.DONE  # once
    wrong = PracticeSession(puzzle=puzzle, difficulty="level")
    wrong.mu()
    assert said.track.learner.ability("2").value > wrong.track.learner.ability("2").value


def test_a_puzzle_left_untried_is_not_learnt_one_tried_is() -> None:
    session = PracticeSession(scope=lesson_scope(3), seed=1)
    for _ in range(20):
        session.new_puzzle()
    assert session.track.learner.ability(session.level.name).answers == 0
    session.hint()
    session.new_puzzle()
    assert session.track.learner.ability(session.level.name).answers == 1


def test_a_new_pupil_pressing_new_puzzle_sees_puzzles_that_teach() -> None:
    for lesson in (3, 5):
        session = PracticeSession(scope=lesson_scope(lesson), seed=1)
        cards: Counter[int] = Counter()
        for _ in range(40):
            best = solve(session.puzzle)
            cards[0 if best is None else len(best.cards)] += 1
            session.new_puzzle()
        assert cards[1] <= 4, (lesson, cards)


def test_the_button_is_on_the_practice_tab_in_every_language() -> None:
    view = Practice(puzzle=PETER)
    assert view.dont_know_button.description == "I don't know"
    for lang, words in (("eo", "Mi ne scias"), ("sv", "Jag vet inte"), ("ja", "わからない")):
        assert gettext(lang, "ui", "I don't know") == words
    view.dont_know_button.click()
    assert view.session.finished and "dkb-kind-dont-know" in view.feedback.value


def test_the_stake_bar_drains_calmly_while_the_bonus_is_at_stake_and_never_on_a_test() -> None:
    now = [0.0]
    session = PracticeSession(level=2, seed=3, clock=lambda: now[0])
    stake = session.stake()
    assert stake is not None and stake.share == 1.0
    now[0] = stake.seconds / 2
    half = session.stake()
    assert half is not None and abs(half.share - 0.5) < 1e-9
    session.dont_know()
    assert session.stake() is None
    view = Practice(level=2, seed=3)
    shown = view.stake_bar.value
    assert view.stake_bar.layout.display == "" and "dkb-drain" in shown
    assert "aria-hidden='true'" in shown and "red" not in shown
    view.dont_know_button.click()
    assert view.stake_bar.layout.display == "none"
    assert Practice(level=2, seed=3, difficulty="medium").stake_bar.layout.display == "none"
    exercise = PETER
    test = PracticeSession(puzzle=exercise, difficulty="level", assessed={exercise})
    assert test.stake() is None
