"""The 24 game as a house rule: level 2 without the colour rule, target 24, every card.

``Level.all_cards`` asks for answers that use every card: the checker refuses
one that leaves a card out, and the solver only counts moves that take them all.
"""

from __future__ import annotations

import dataclasses
import re
from itertools import combinations_with_replacement

import pytest
from support.puzzles import GAME24

from dekbovinoj_edu import LEVELS, Puzzle, VerdictCode, check, solve, solve_all
from dekbovinoj_edu.rules.cards import RANK_NAMES

SUITS = "♣♦♥♠"


def hand(ranks: tuple[int, ...], level=GAME24) -> Puzzle:
    """Four cards on the pasture, each of its own suit (so equal ranks are two cards)."""
    names = [RANK_NAMES.get(rank, str(rank)) + SUITS[i] for i, rank in enumerate(ranks)]
    return Puzzle.parse(" ".join(names) + " |", level=level)


def without_suits(expression: str) -> str:
    return re.sub(f"[{SUITS}]", "", expression)


def test_3_3_8_8_is_solved_by_8_over_3_minus_8_over_3() -> None:
    p = hand((3, 3, 8, 8))
    assert check(p, "8 ÷ (3 − 8 ÷ 3)").ok
    best = solve(p)
    assert best is not None and best.size == 4
    assert check(p, best.expression).ok
    assert "8 ÷ (3 − 8 ÷ 3)" in {without_suits(s.expression) for s in solve_all(p)}


@pytest.mark.slow  # the quick loop leaves it to the whole suite
def test_exactly_1362_of_the_1820_hands_are_solvable() -> None:
    solvable = 0
    hands = list(combinations_with_replacement(range(1, 14), 4))
    for ranks in hands:
        found = solve(hand(ranks))
        if found is not None:
            solvable += 1
            assert found.size == 4
    assert (solvable, len(hands)) == (1362, 1820)


def test_a_short_answer_does_not_count_when_every_card_is_asked_for() -> None:
    p = hand((3, 3, 8, 8))
    v = check(p, "8 × 3")
    assert v.code is VerdictCode.NOT_ALL_CARDS
    assert re.search("left out: 3[♣♦] 8[♥♠]$", v.sentence), v.sentence
    # Without the house rule the same answer is fine.
    assert check(hand((3, 3, 8, 8), dataclasses.replace(GAME24, all_cards=False)), "8 × 3").ok


def test_1_1_1_1_has_no_answer_although_no_card_alone_could_help() -> None:
    assert solve(hand((1, 1, 1, 1))) is None
    assert solve(hand((1, 1, 1, 1), dataclasses.replace(GAME24, target=4))) is not None


def test_every_card_with_the_colour_rule_and_a_joker() -> None:
    level = dataclasses.replace(LEVELS[1], all_cards=True)
    p = Puzzle.parse("7♣ 3♣ 5♦ | 5♣", level=level)
    best = solve(p)
    assert best is not None and best.size == 4 and check(p, best.expression).ok
    assert solve(Puzzle.parse("7♣ 3♣ 5♦ |", level=level)) is None
    assert solve(Puzzle.parse("7♣ 3♣ 5♦ |", level=LEVELS[1])) is not None
    # The joker is played, never counted: every other card is used.
    flipped = solve(Puzzle.parse("7♦ 3♦ | JK", level=level))
    assert flipped is not None and flipped.joker and flipped.size == 2
