"""No puzzle twice in a dealt set: assignments, at-level classes, worksheets, sheets, "New puzzle".

Issue 40, item 4: "6 of 30 easy first-lesson class sets of ten had the same puzzle twice (class
4b: ``48T7-0W5Q-GP3`` as puzzles 6 and 9)". Before, each puzzle of a set was drawn on its own.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from dekbovinoj_edu.classroom.assignment import deal_assignment
from dekbovinoj_edu.dealing.at_level import deal_at_level
from dekbovinoj_edu.dealing.dealer import DealError, deal_many
from dekbovinoj_edu.dealing.learner import Ability, Learner, puzzle_key
from dekbovinoj_edu.dealing.lessons import lesson_scope
from dekbovinoj_edu.dealing.worksheet import worksheet
from dekbovinoj_edu.rules.levels import LEVELS
from dekbovinoj_edu.sessions.practice import AVOIDED, PracticeSession

LESSON_1: dict[str, Any] = {"jokers": False, "flipped": False, "decks": 1}

KINDS: list[tuple[int, str, dict[str, Any]]] = [
    (1, "easy", LESSON_1),
    (1, "medium", {}),
    (2, "easy", {"jokers": False, "needs_any": {"×", "÷"}, "cards": (2, 4)}),
    (2, "hard", {}),
    (3, "any", {"needs_any": {"^", "√", "!"}, "advanced": False}),
    (2, "medium", {"mu": 0.3}),
]
"""A spread of sets: levels, difficulties, a lesson's filters, "mu!" puzzles mixed in."""


def _sets(count: int) -> list[list[str]]:
    found = []
    for number in range(count):
        level, difficulty, wish = KINDS[number % len(KINDS)]
        options = dict(wish)
        mu = float(options.pop("mu", 0.0))
        puzzles = deal_many(
            10, level=level, seed=f"class {number}", difficulty=difficulty, mu=mu, **options
        )
        found.append([puzzle_key(puzzle) for puzzle in puzzles])
    return found


def test_class_4b_gets_ten_different_puzzles() -> None:
    codes = deal_assignment(
        "4b", level=1, count=10, seed="class 4b", difficulty="easy", **LESSON_1
    ).codes
    assert len(set(codes)) == 10 and "48T7-0W5Q-GP3" in codes


def test_no_repeat_in_120_dealt_sets() -> None:
    assert all(len(set(keys)) == len(keys) == 10 for keys in _sets(120))


@pytest.mark.slow
def test_no_repeat_in_1000_dealt_sets() -> None:
    sets = _sets(1000)
    assert len(sets) == 1000 and all(len(set(keys)) == len(keys) == 10 for keys in sets)


def test_a_worksheet_and_a_lessons_sheet_have_no_repeat() -> None:
    sheet = worksheet(level=1, count=12, seed="class 4b", difficulty="easy", **LESSON_1)
    assert len({puzzle_key(puzzle) for puzzle in sheet.puzzles}) == 12
    lesson = lesson_scope(1).deal_many(12, seed="class 4b", difficulty="easy")
    assert len({puzzle_key(puzzle) for puzzle in lesson}) == 12


def test_a_set_larger_than_the_puzzles_there_are_is_refused() -> None:
    twenty = dataclasses.replace(LEVELS[1], name="20", target=20)
    with pytest.raises(DealError):  # two easy "make 20" puzzles without a joker, one deck
        deal_many(3, level=twenty, seed=6, difficulty="easy", tries=400, **LESSON_1)


def test_an_at_level_student_never_gets_a_puzzle_twice() -> None:
    for student in range(6):
        learner = Learner({"1": Ability(student - 3.0)})
        seen: list[str] = []
        for number in range(25):
            puzzle = deal_at_level(
                learner, level=1, seed=f"4b:{student}:{number}", avoid=set(seen), **LESSON_1
            )
            seen.append(puzzle_key(puzzle))
        assert len(set(seen)) == 25


def test_new_puzzle_never_deals_one_of_the_latest_again() -> None:
    """Lesson 6's "make 20" at *easy* dealt the same two puzzles in turn 195 times (P6)."""
    for difficulty in ("easy", "level"):
        session = PracticeSession(level=1, difficulty=difficulty, seed=4, **LESSON_1)
        shown = [puzzle_key(session.puzzle)]
        for _ in range(30):
            session.new_puzzle()
            shown.append(puzzle_key(session.puzzle))
        for at in range(len(shown)):
            assert shown[at] not in shown[max(0, at - AVOIDED) : at]
