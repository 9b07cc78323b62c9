"""Sums-only levels (level 1 and its house rules) are solved by a knapsack over the sums."""

from __future__ import annotations

import dataclasses
import random

import pytest

from dekbovinoj_edu import LEVELS, Puzzle, check, solve, solve_all
from dekbovinoj_edu.rules.cards import shuffled_decks
from dekbovinoj_edu.solving.reference import best_move

LEVEL_1_FREE = dataclasses.replace(LEVELS[1], colour_rule=False)


def _random_puzzle(rng: random.Random, cards: int, level: object) -> Puzzle:
    deck = shuffled_decks(rng, decks=2)
    barn = [card for card in deck[:3]]
    pasture = [card for card in deck[3:] if not card.is_joker][: cards - 3]
    return Puzzle(tuple(pasture), tuple(barn), level, flipped=rng.random() < 0.3)


@pytest.mark.slow  # 150 puzzles of up to nine cards against the exhaustive reference, six times
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


def test_every_best_answer_of_a_level_1_puzzle_is_listed_once() -> None:
    rng = random.Random("all best sums")
    for _ in range(120):
        puzzle = _random_puzzle(rng, rng.randint(3, 9), LEVELS[1])
        best = solve(puzzle)
        answers = solve_all(puzzle, limit=None)
        if best is None:
            assert answers == []
            continue
        played = puzzle.after_joker() if best.joker else puzzle
        usable = [(card, on_pasture) for card, on_pasture in _usable(played)]
        expected = set()
        for mask in range(1, 1 << len(usable)):
            chosen = [usable[i] for i in range(len(usable)) if mask >> i & 1]
            pasture = sum(on_pasture for _, on_pasture in chosen)
            total = sum(card.signed_value(played.flipped) for card, _ in chosen)
            if (len(chosen), pasture) == (len(best.cards), best.pasture) and total == 10:
                expected.add(tuple(sorted(card.signed_value(played.flipped) for card, _ in chosen)))
        found = {
            tuple(sorted(card.signed_value(played.flipped) for card in answer.cards))
            for answer in answers
        }
        assert found == expected, str(puzzle)
        assert len(answers) == len(expected)  # one answer per way, never a reordering
        for answer in answers:
            assert check(puzzle, answer.expression, joker=answer.joker).ok


def _usable(puzzle: Puzzle) -> list[tuple[object, bool]]:
    return [(card, True) for card in puzzle.pasture] + [
        (card, False) for card in puzzle.barn if not card.is_joker
    ]
