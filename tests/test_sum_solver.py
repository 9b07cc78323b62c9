"""Sums-only levels (level 1 and its house rules) are solved by a knapsack over the sums."""

from __future__ import annotations

import dataclasses
import random

import pytest

from dekbovinoj_edu import LEVELS, Puzzle, check, solve
from dekbovinoj_edu.cards import shuffled_decks
from dekbovinoj_edu.reference import best_move

LEVEL_1_FREE = dataclasses.replace(LEVELS[1], colour_rule=False)


def _random_puzzle(rng: random.Random, cards: int, level: object) -> Puzzle:
    deck = shuffled_decks(rng, decks=2)
    barn = [card for card in deck[:3]]
    pasture = [card for card in deck[3:] if not card.is_joker][: cards - 3]
    return Puzzle(tuple(pasture), tuple(barn), level, flipped=rng.random() < 0.3)


@pytest.mark.parametrize("level", [LEVELS[1], LEVEL_1_FREE], ids=["colour-rule", "no-colour-rule"])
@pytest.mark.parametrize("target", [10, 24, -3])
def test_the_knapsack_finds_the_same_best_move_as_the_exhaustive_reference(
    level: object, target: int
) -> None:
    rng = random.Random(f"sums {target}")
    for _ in range(150):
        puzzle = _random_puzzle(rng, rng.randint(3, 9), dataclasses.replace(level, target=target))
        found = solve(puzzle)
        expected = best_move(puzzle)
        if expected is None:
            assert found is None
            continue
        assert found is not None, str(puzzle)
        assert (len(found.cards), found.pasture, found.joker) == expected, str(puzzle)


def test_a_long_level_1_pasture_is_solved_and_its_answer_passes_the_checker() -> None:
    rng = random.Random("long pasture")
    for _ in range(5):
        puzzle = _random_puzzle(rng, 30, LEVELS[1])
        found = solve(puzzle)
        if found is None:
            continue
        verdict = check(puzzle, found.expression, joker=found.joker)
        assert verdict.ok, (str(puzzle), found.expression, verdict.message)
        assert sorted(verdict.cards) == sorted(found.cards)
        assert len(found.cards) >= 20  # with thirty cards nearly all can be balanced to 10
