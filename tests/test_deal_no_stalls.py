"""Dealing with any filter is a lookup: no solve, no clock, no failure while a puzzle passes.

Issue 39, item 4: "an at-level class with ``--needs`` stalls or fails: one 12-card candidate
costs 16.5 processor-seconds; 2 of 20 deals failed with ``DealError`` after 20 s on a loaded
machine, after the attempt was kept". Before: ``deal_at_level`` with a filter on the answers
dealt its candidates through the solver, within a 20 s wall-clock budget.
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

import dekbovinoj_edu.dealing.answer_facts as answer_facts
import dekbovinoj_edu.dealing.dealer as dealer
from dekbovinoj_edu.dealing.answer_facts import DECIDED_CARDS
from dekbovinoj_edu.dealing.at_level import deal_at_level
from dekbovinoj_edu.dealing.dealer import deal, deal_many
from dekbovinoj_edu.dealing.learner import Ability, Learner, puzzle_key
from dekbovinoj_edu.dealing.turn_facts import known
from dekbovinoj_edu.rules.levels import LEVELS, Op
from dekbovinoj_edu.rules.puzzle import Puzzle

WISHES: list[tuple[int, dict[str, Any]]] = [
    (2, {"needs": {"×"}}),
    (2, {"needs": {"÷"}, "jokers": False}),
    (2, {"needs_any": {"×", "÷"}, "cards": (2, 4), "fractions": False}),
    (3, {"needs_any": {"^", "√", "!"}, "advanced": False, "jokers": False, "decks": 1}),
    (3, {"needs": {"×"}}),
    (1, {"cards": (4, 5), "flipped": False}),  # five different easy ones exist
]
"""Filters on the answers, each a wish that used to solve its candidates on the fly."""


@pytest.fixture
def no_solver(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The solver, as the dealer and the filters call it, refuses to run."""

    def refuse(puzzle: Puzzle) -> None:
        raise AssertionError(f"solved while dealing: {puzzle}")

    monkeypatch.setattr(dealer, "solve", refuse)
    monkeypatch.setattr(answer_facts, "solve", refuse)
    yield


@pytest.mark.parametrize(("level", "wish"), WISHES)
def test_an_at_level_deal_with_any_filter_solves_nothing(
    no_solver: None, level: int, wish: dict[str, Any]
) -> None:
    for seed in range(20):
        student = Learner({str(level): Ability((seed % 5) - 2.0)})
        puzzle = deal_at_level(student, level=level, seed=f"class {seed}", **wish)
        stored = known(puzzle)
        assert stored is not None and stored.facts is not None


@pytest.mark.parametrize("difficulty", ["easy", "medium", "hard", "any"])
def test_a_dealt_set_with_any_filter_solves_nothing(no_solver: None, difficulty: str) -> None:
    for level, wish in WISHES:
        puzzles = deal_many(5, level=level, seed=f"set {difficulty}", difficulty=difficulty, **wish)
        assert len({puzzle_key(puzzle) for puzzle in puzzles}) == 5


def test_the_clock_decides_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: a wall-clock deadline ended the search, so a slow machine dealt otherwise."""
    wishes = [(level, wish, f"seed {n}") for n, (level, wish) in enumerate(WISHES)]
    steady = [
        deal_at_level(Learner(), level=level, seed=seed, **wish) for level, wish, seed in wishes
    ]
    hours = iter(range(0, 10**9, 3600))
    monkeypatch.setattr(time, "monotonic", lambda: float(next(hours)))  # an hour per look
    crawling = [
        deal_at_level(Learner(), level=level, seed=seed, **wish) for level, wish, seed in wishes
    ]
    assert crawling == steady


def test_a_rare_wish_is_found_among_every_recorded_turn_that_passes() -> None:
    """Hard level-1 puzzles of exactly six cards without a joker are rare: a seed's 5,000
    random draws may miss them all, and the dealer then takes one of those there are."""
    wish: dict[str, Any] = {"cards": 6, "jokers": False, "difficulty": "hard"}
    for seed in range(30):
        puzzle = deal(level=1, seed=seed, tries=10, **wish)
        stored = known(puzzle)
        assert stored is not None and stored.facts is not None and stored.facts.cards == 6
        assert not puzzle.has_joker


def test_an_at_level_class_never_fails_after_an_attempt() -> None:
    """A class of 20 at level 2 with ``needs ×``, 10 puzzles each, every ability: no failure,
    and no student gets a puzzle twice."""
    for student in range(20):
        learner = Learner({"2": Ability(random.Random(student).uniform(-3, 3))})
        seen: list[str] = []
        for number in range(10):
            puzzle = deal_at_level(
                learner, level=2, seed=f"4b:{student}:{number}", avoid=set(seen), needs={"×"}
            )
            stored = known(puzzle)
            assert stored is not None and stored.facts is not None
            assert stored.facts.can_do_without({Op.MUL}) is False
            seen.append(puzzle_key(puzzle))
        assert len(set(seen)) == len(seen)


def test_a_house_rule_level_is_still_solved_and_timed() -> None:
    """Turns nobody recorded (a house rule's level) are solved live, within the seconds."""
    twenty = dataclasses.replace(LEVELS[1], name="20", target=20)
    puzzle = deal(level=twenty, seed=1, needs={"+"}, jokers=False)
    assert known(puzzle) is None and puzzle.level == twenty


def test_a_hand_too_big_to_decide_is_never_dealt_for_a_wish_on_operations() -> None:
    """Whether a 12-card level-2 hand can do without − takes the solver 380 processor-seconds:
    such a hand is not decided, and not dealt for ``needs`` (it still is for other wishes)."""
    for seed in range(40):
        wishes: list[dict[str, Any]] = [{"needs": {"×"}}, {"needs_any": {"×", "÷"}}]
        for wish in wishes:
            puzzle = deal(level=2, seed=seed, **wish)
            assert len(puzzle.cards) <= DECIDED_CARDS
    big = [deal(level=2, seed=seed, cards=(9, 12)) for seed in range(3)]
    assert all(len(puzzle.cards) > DECIDED_CARDS for puzzle in big)
    for puzzle in big:
        stored = known(puzzle)
        assert stored is not None and stored.facts is not None
        assert not stored.facts.decided
        level_2 = [op for op in Op if op in LEVELS[2].operations]
        assert any(stored.facts.can_do_without({op}) is None for op in level_2)
