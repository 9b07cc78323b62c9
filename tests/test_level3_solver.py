"""Level 3: the solver searches the expressions the checker accepts.

Worked level-3 examples, and a brute force over the checker's own grammar
(:mod:`brute_force`) on every hand of up to four cards of a sample: both find
the same best move.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from pathlib import Path

import pytest

from dekbovinoj_edu import JOKER, LEVELS, Puzzle, check, full_deck, solve, solve_all
from dekbovinoj_edu.solving.solver import LISTED_LEVEL_3_CARDS

sys.path.insert(0, str(Path(__file__).parent))
from brute_force import best_move

DECK = full_deck(jokers=0)


def assert_best(puzzle: Puzzle) -> None:
    expected = best_move(puzzle)
    found = solve(puzzle)
    got = None if found is None else (found.size, found.pasture, found.joker)
    assert got == expected, f"{puzzle!r}: solver {found}, brute force {expected}"
    if found is not None:
        verdict = check(puzzle, found.expression, joker=found.joker)
        assert verdict.ok, f"{puzzle!r}: {found.expression} — {verdict.message}"
        assert Counter(verdict.cards) == Counter(found.cards)


def test_a_root_of_a_product_is_no_mu() -> None:
    puzzle = Puzzle.from_code("C0Y0-FFYN")
    assert str(puzzle) == "| Q♥ 2♦ Q♦" and puzzle.level == LEVELS[3]
    assert check(puzzle, "√(−Q♥ × (−Q♦)) − 2♦").ok
    best = solve(puzzle)
    assert best is not None and best.size == 3
    assert_best(puzzle)


def test_the_best_answer_takes_three_cards_with_a_root_of_a_product() -> None:
    puzzle = Puzzle.parse("2♣ 8♣ 6♣ |", level=3)
    assert check(puzzle, "√(2 × 8) + 6").ok
    best = solve(puzzle)
    assert best is not None and best.size == 3
    assert_best(puzzle)


def test_two_red_fives_on_the_pasture_and_a_black_five_in_the_barn() -> None:
    """A game's end: after 7 + 3, 5♦ 5♥ stay on the pasture and a 5♣ is held."""
    puzzle = Puzzle.parse("5♦ 5♥ | 5♣", level=3)
    assert check(puzzle, "√(−5 × (−5)) + 5").ok
    best = solve(puzzle)
    assert best is not None and best.size == 3
    assert_best(puzzle)


@pytest.mark.parametrize(
    ("text", "answer"),
    [
        ("3♣ 3♠ 4♣ |", "(3 + 3)! ÷ (4! × 3)"),  # not needed here, but a factorial of a bracket
        ("4♣ 2♣ |", "4! − 2 ^ √(4 × 4) + 2"),
        ("9♣ 2♣ |", "√9! + 2 × 2"),
    ],
)
def test_the_checker_and_the_solver_agree_on_nested_level_3_forms(text: str, answer: str) -> None:
    """Chains of roots and factorials, roots of products: the solver's space holds them."""
    puzzle = Puzzle.parse(text, level=3)
    verdict = check(puzzle, answer)
    best = solve(puzzle)
    if verdict.ok:
        assert best is not None and best.size >= len(verdict.cards)
    assert_best(puzzle)


def sample_hands(seed: str, count: int) -> list[Puzzle]:
    """Hands of one to four cards, pasture and barn, sometimes a joker, either parity."""
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        size = rng.choice((1, 2, 3, 3, 4, 4, 4))
        cards = [rng.choice(DECK) for _ in range(size)]
        split = rng.randint(0, size)
        barn = cards[split:]
        if rng.random() < 0.25:
            barn.append(JOKER)
        hands.append(Puzzle(tuple(cards[:split]), tuple(barn), LEVELS[3], rng.random() < 0.3))
    return hands


@pytest.mark.slow
@pytest.mark.parametrize("part", range(3))
def test_the_brute_force_over_the_checkers_grammar_agrees_on_every_best_move(part: int) -> None:
    for puzzle in sample_hands(f"level-3-{part}", 15):
        assert_best(puzzle)


def test_a_long_level_3_best_move_is_listed_with_its_plain_answers() -> None:
    """Ten cards at level 3, the best move written with + − × ÷: listing every form with
    roots, powers and factorials of ten cards would take minutes, so the plain ones are
    listed, and each passes the checker."""
    puzzle = Puzzle.parse("4♣ 9♦ 6♥ 7♠ 8♦ 5♣ J♥ | A♥ 2♦ 8♣", level=3)
    best = solve(puzzle)
    assert best is not None and best.size == 10 > LISTED_LEVEL_3_CARDS
    listed = solve_all(puzzle, limit=5)
    assert len(listed) == 5
    for answer in listed:
        assert answer.size == best.size and answer.pasture == best.pasture
        assert not any(mark in answer.expression for mark in "√!^")
        assert check(puzzle, answer.expression, joker=answer.joker).ok
