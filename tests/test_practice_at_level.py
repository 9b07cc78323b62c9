"""Practising "at my level": the session's learner model, its choices, its bar and its switches.

No browser: the session and the widget are driven as a student would (taps, buttons, menus).
"""

from __future__ import annotations

import pytest
from support.puzzles import PETER, TARGET_24

from dekbovinoj_edu.dealing.at_level import CHALLENGE, GENTLE, TARGET
from dekbovinoj_edu.dealing.learner import Learner
from dekbovinoj_edu.dealing.rating import Difficulty, rate
from dekbovinoj_edu.dealing.scope import Scope
from dekbovinoj_edu.i18n import LANGUAGES, gettext
from dekbovinoj_edu.rules.levels import LEVELS
from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.sessions.learning import LEVEL_TARGETS, PLACEMENT, LearnerTrack
from dekbovinoj_edu.sessions.practice import DIFFICULTY_CHOICES, PracticeSession
from dekbovinoj_edu.widgets.practice import Practice

SOFIA = Puzzle.parse("9♦ 3♥ | Q♠ JK 7♥", level=2)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def at_level(puzzle: Puzzle = PETER, clock: Clock | None = None) -> PracticeSession:
    """A session "at my level" on ``puzzle``."""
    return PracticeSession(puzzle=puzzle, difficulty="level", clock=clock or Clock())


def answer_right(session: PracticeSession) -> None:
    """Type the solver's best answer (or say "mu!" when there is none)."""
    best = session.best
    if best is None:
        session.mu()
        return
    session.set_joker(best.joker)
    session.type(best.expression)
    assert session.submit().good


def ability(session: PracticeSession) -> float:
    return session.track.learner.ability(session.level.name).value


def answers(session: PracticeSession) -> int:
    return session.track.learner.ability(session.level.name).answers


# --- who starts where --------------------------------------------------------------------------


def test_a_first_time_student_starts_at_level_one_with_printed_colours_and_no_jokers() -> None:
    for view in (Practice(seed=3, prepare_in_background=False), PracticeSession(seed=3)):
        session = view.session if isinstance(view, Practice) else view
        assert session.level == LEVELS[1]
        assert session.difficulty == "level"
        assert not session.puzzle.has_joker and not session.puzzle.flipped
        for _ in range(5):
            session.new_puzzle()
            assert not session.puzzle.has_joker and not session.puzzle.flipped


def test_a_chosen_level_a_fixed_puzzle_and_a_lessons_difficulty_keep_theirs() -> None:
    assert PracticeSession(level=2, seed=1).level == LEVELS[2]
    assert PracticeSession(level=2, seed=1).difficulty == "level"
    assert PracticeSession(puzzle=PETER).difficulty == "medium"
    lesson = Scope("lesson 1", [LEVELS[1]], jokers=False, flipped=False, decks=1)
    assert PracticeSession(scope=lesson, difficulty="easy", seed=1).difficulty == "easy"
    given = PracticeSession(level=2, seed=1, jokers=True)
    assert given.filters.jokers is True and given.puzzle.has_joker


def test_every_choice_of_difficulty_is_known_and_at_my_level_aims_as_asked() -> None:
    assert DIFFICULTY_CHOICES[:3] == ("gentle", "level", "challenge")
    assert LEVEL_TARGETS == {"gentle": GENTLE, "level": TARGET, "challenge": CHALLENGE}
    assert (GENTLE, TARGET, CHALLENGE) == (0.9, 0.75, 0.6)
    with pytest.raises(ValueError):
        PracticeSession(seed=1, difficulty="impossible")


# --- the outcome is taken once, when the puzzle is first resolved ---------------------------


def test_a_solved_puzzle_raises_the_ability_once_and_the_best_answers_after_change_nothing() -> (
    None
):
    session = at_level()
    start = ability(session)
    answer_right(session)
    after = ability(session)
    assert after > start and answers(session) == 1
    assert session.best_answers
    answer_right(session)
    assert (ability(session), answers(session)) == (after, 1)


def test_a_wrong_mu_lowers_the_ability() -> None:
    session = at_level()
    start = ability(session)
    session.mu()
    assert ability(session) < start and answers(session) == 1
    assert session.track.learner.ability("2").recent == (False,)


def test_the_best_answers_shown_first_are_not_a_solved_puzzle() -> None:
    session = at_level()
    start = ability(session)
    assert session.best_answers
    assert ability(session) < start
    shown = ability(session)
    answer_right(session)  # typed after the answer was shown: not scored
    assert (ability(session), answers(session)) == (shown, 1)
    assert session.track.learner.ability("2").recent == (False,)


def test_the_last_hint_shows_the_answer_and_fewer_hints_teach_more() -> None:
    shown = at_level()
    for _ in range(4):
        shown.hint()
    assert (
        shown.revealed
        and answers(shown) == 1
        and ability(shown) < LearnerTrack().learner.ability("2").value
    )
    helped, alone = at_level(), at_level()
    helped.hint()
    answer_right(helped)
    answer_right(alone)
    assert ability(alone) > ability(helped) > Learner().ability("2").value


def test_a_puzzle_left_for_a_new_one_is_not_solved_but_a_new_level_is_no_leaving() -> None:
    left = at_level()
    start = ability(left)
    left.new_puzzle()  # untried: not learnt (issue 39: a read-through is not measured)
    assert ability(left) == start and answers(left) == 0
    left.type("13 + 9")
    assert not left.submit().good
    left.new_puzzle()  # tried: not solved
    assert ability(left) < start and answers(left) == 1
    switched = at_level()
    switched.set_level(1)
    switched.set_difficulty("challenge")
    assert switched.track.learner.abilities == {}


def test_answers_refused_before_the_right_one_teach_less() -> None:
    careful, hasty = at_level(), at_level()
    hasty.type("13 + 9")
    assert not hasty.submit().good
    answer_right(hasty)
    answer_right(careful)
    assert hasty.track.attempt is not None and hasty.track.attempt.mistakes == 1
    assert ability(careful) > ability(hasty)


def test_the_session_owns_the_clock_a_fast_answer_teaches_more_than_a_slow_one() -> None:
    fast_clock, slow_clock = Clock(), Clock()
    fast, slow = at_level(clock=fast_clock), at_level(clock=slow_clock)
    fast_clock.now += 3
    slow_clock.now += 60
    answer_right(fast)
    answer_right(slow)
    assert ability(fast) > ability(slow)
    assert fast.track.attempt is not None and fast.track.attempt.response is not None
    assert fast.track.attempt.response.seconds == 3


# --- placing a new student quickly -----------------------------------------------------------


def _practise(session: PracticeSession, right: bool, count: int) -> list[Puzzle]:
    dealt = []
    for _ in range(count):
        dealt.append(session.puzzle)
        if right:
            answer_right(session)
        elif session.best is None:
            session.hint()  # "say mu!": shown, not solved
        else:
            session.mu()
        session.new_puzzle()
    return [*dealt, session.puzzle]


def test_the_first_puzzles_place_a_new_student_quickly() -> None:
    strong = PracticeSession(level=2, seed=1, mu=0.0, clock=Clock())  # answers at once
    weak = PracticeSession(level=2, seed=1, mu=0.0, clock=Clock())
    strong_dealt = _practise(strong, True, 5)
    weak_dealt = _practise(weak, False, 5)
    assert ability(strong) > 2.0 > -1.0 > ability(weak)  # a new student starts at 0.72
    # from the second puzzle on, each is dealt where the answers put the student
    assert {rate(p).difficulty for p in strong_dealt[1:]} == {Difficulty.HARD}
    assert {rate(p).difficulty for p in weak_dealt[1:]} == {Difficulty.EASY}
    assert not strong.level_progress().placing and strong.level_progress().stars >= 4
    assert weak.level_progress().stars <= 1


# --- the view: the choice, the bar, the switches -----------------------------------------------


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_difficulty_menu_offers_at_my_level_in_every_language(lang: str) -> None:
    view = Practice(seed=1, lang=lang, prepare_in_background=False)
    labels = dict((value, label) for label, value in view.difficulty_menu.options)
    for value, words in (
        ("gentle", "gentle start"),
        ("level", "at my level"),
        ("challenge", "challenge"),
    ):
        assert labels[value] == gettext(lang, "ui", words)
        assert lang == "en" or labels[value] != words
    assert view.difficulty_menu.value == "level"


def test_the_level_bar_moves_when_a_puzzle_is_solved_and_hides_at_a_fixed_difficulty() -> None:
    view = Practice(level=2, seed=2, prepare_in_background=False)
    assert view.level_bar.layout.display == ""
    words = gettext("en", "ui", "Finding your level: puzzle {number} of {count}", number=1, count=3)
    assert words in view.level_bar.value
    for _ in range(PLACEMENT):
        before = view.level_bar.value
        best = view.session.best
        if best is None:
            view.mu_button.click()
        else:
            view.joker_toggle.value = best.joker
            view.expression.value = best.expression
            view.submit_button.click()
        assert view.level_bar.value != before
        view.new_button.click()
    assert "stars" in view.level_bar.value and "role='progressbar'" in view.level_bar.value
    view.difficulty_menu.value = "medium"
    assert view.level_bar.layout.display == "none"
    assert view.errors.outputs == ()


def test_the_switches_let_jokers_and_swapped_colours_in() -> None:
    view = Practice(seed=4, prepare_in_background=False)
    assert (view.jokers_switch.value, view.swapped_switch.value) == (False, False)
    assert view.jokers_switch.description == "Jokers"
    view.jokers_switch.value = True
    view.swapped_switch.value = True
    assert view.session.filters.jokers is None and view.session.filters.flipped is None
    view.jokers_switch.value = False
    assert view.session.filters.jokers is False and not view.session.puzzle.has_joker
    lesson = Scope("lesson 1", [LEVELS[1]], jokers=False, flipped=False, decks=1)
    in_lesson = Practice(scope=lesson, seed=1, prepare_in_background=False)
    assert in_lesson.jokers_switch.value is False
    switches = in_lesson.settings_box.children[1]
    assert switches.layout.display == "none"  # the lesson's filters hold


def test_a_house_rule_level_can_be_practised_at_my_level() -> None:
    game24 = TARGET_24
    session = PracticeSession(levels=[game24], seed=4, clock=Clock())
    session.set_level("24")
    answer_right(session)
    assert session.puzzle.level.target == 24 and session.level_progress().answers == 1


def test_a_gentle_start_deals_puzzles_the_student_solves_more_often_than_a_challenge() -> None:
    from dekbovinoj_edu.dealing.at_level import expected_success

    chances = {}
    for difficulty in ("gentle", "challenge"):
        session = PracticeSession(level=2, difficulty=difficulty, seed=5, mu=0.0)
        dealt = []
        for _ in range(8):
            session.set_difficulty(difficulty)  # deals again, nothing learnt: the same student
            rating = session.track.ratings.rating(session.puzzle)
            dealt.append(expected_success(session.track.learner.ability("2"), rating))
        chances[difficulty] = sum(dealt) / len(dealt)
    assert session.track.learner.abilities == {}
    assert chances["gentle"] > TARGET > chances["challenge"]
