"""The solver against the deliberately simple exhaustive reference, and against the checker.

Thousands of random puzzles of up to six cards, levels 1 and 2, colour rule on
and off, targets 10 and 24: the solver's best move (cards, pasture cards,
joker) is the reference's every time, and every answer passes ``check()``
with exactly the cards it claims. The reference computes every value of every
subset, which for six cards without the colour rule takes seconds per puzzle,
so those puzzles have at most five cards in the big run and one six-card
puzzle gets its own test.
"""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest
from support.puzzles import TARGET_24

from dekbovinoj_edu import JOKER, LEVELS, Limits, Puzzle, full_deck, solve, solve_all
from dekbovinoj_edu.checking.checker import check
from dekbovinoj_edu.rules.levels import Level, Op
from dekbovinoj_edu.solving import search_base
from dekbovinoj_edu.solving.reference import best_move
from dekbovinoj_edu.solving.search import Grammar, tokens

pytestmark = pytest.mark.slow  # thousands of puzzles against the exhaustive reference
DECK = full_deck(jokers=0)


def random_puzzle(rng: random.Random, level: Level, max_cards: int) -> Puzzle:
    """Up to ``max_cards`` cards split between pasture and barn, sometimes a joker, any parity."""
    size = rng.randint(1, max_cards)
    cards = [rng.choice(DECK) for _ in range(size)]  # duplicates as with several decks
    on_pasture = rng.randint(0, size)
    barn = cards[on_pasture:]
    if rng.random() < 0.3:
        barn.insert(rng.randint(0, len(barn)), JOKER)
    return Puzzle(tuple(cards[:on_pasture]), tuple(barn), level, rng.random() < 0.3)


def assert_matches_reference(puzzle: Puzzle) -> None:
    expected = best_move(puzzle)
    found = solve(puzzle)
    got = None if found is None else (found.size, found.pasture, found.joker)
    assert got == expected, f"{puzzle!r} at {puzzle.level}: solver {found}, reference {expected}"
    if found is not None:
        verdict = check(puzzle, found.expression, joker=found.joker)
        assert verdict.ok, f"{puzzle!r}: {found.expression} — {verdict.message}"
        assert Counter(verdict.cards) == Counter(found.cards)


CONFIGS = [
    # (level, colour rule, target, puzzles, most cards)
    (1, True, 10, 600, 6),
    (1, True, 24, 300, 6),
    (1, False, 10, 500, 6),
    (1, False, 24, 300, 6),
    (2, True, 10, 150, 6),
    (2, True, 24, 80, 6),
    (2, False, 10, 150, 5),
    (2, False, 24, 150, 5),
]


@pytest.mark.parametrize(("number", "colour", "target", "count", "most"), CONFIGS)
def test_best_move_matches_the_reference(
    number: int, colour: bool, target: int, count: int, most: int
) -> None:
    level = dataclasses.replace(LEVELS[number], colour_rule=colour, target=target)
    rng = random.Random(f"{number}-{colour}-{target}")
    for _ in range(count):
        assert_matches_reference(random_puzzle(rng, level, most))


HOUSE_RULES = [
    {"brackets": False},
    {"operations": frozenset({Op.ADD, Op.SUB, Op.MUL})},
    {"operations": frozenset({Op.ADD, Op.SUB, Op.MUL}), "brackets": False},
    {"operations": frozenset({Op.ADD, Op.SUB}), "brackets": True},
    # other subsets of the operations
    {"operations": frozenset({Op.ADD, Op.SUB, Op.DIV})},
    {"operations": frozenset({Op.ADD, Op.MUL})},
    {"operations": frozenset({Op.ADD, Op.SUB, Op.DIV}), "brackets": False},
    {"operations": frozenset({Op.SUB, Op.MUL, Op.DIV})},
    {"operations": frozenset({Op.MUL, Op.DIV}), "brackets": False},
    {"operations": frozenset({Op.ADD})},
    {"operations": frozenset({Op.SUB})},
    {"operations": frozenset({Op.SUB, Op.DIV}), "brackets": False},
    {"all_cards": True},
    {"all_cards": True, "operations": frozenset({Op.ADD, Op.SUB}), "target": 3},
]


@pytest.mark.parametrize("changes", HOUSE_RULES)
@pytest.mark.parametrize("colour", [True, False])
def test_house_rule_levels_match_the_reference(changes: dict, colour: bool) -> None:
    level = dataclasses.replace(LEVELS[2], name="house", colour_rule=colour, **changes)
    rng = random.Random(f"house-{sorted(changes.items(), key=str)}-{colour}")
    for _ in range(50):
        assert_matches_reference(random_puzzle(rng, level, 5))


def test_six_cards_of_the_24_game_match_the_reference() -> None:
    level = TARGET_24
    cards = tuple(random.Random("six").choice(DECK) for _ in range(6))
    assert_matches_reference(Puzzle(cards[:3], cards[3:], level))


@pytest.mark.parametrize("number", [1, 2, 3])
def test_every_answer_passes_the_checker(number: int) -> None:
    """Bigger puzzles than the reference can do, level 3 too, and solve_all's answers."""
    rng = random.Random(f"check-{number}")
    for _ in range(100):
        level = dataclasses.replace(LEVELS[number], colour_rule=rng.random() < 0.7)
        # Listing answers at level 3 (solve_all) walks far more trees: a little smaller there.
        puzzle = random_puzzle(rng, level, 9 if number < 3 else 7)
        best = solve(puzzle)
        answers = solve_all(puzzle, limit=4) if best is not None and rng.random() < 0.3 else []
        for answer in [best, *answers] if best is not None else []:
            assert answer.rank == best.rank
            verdict = check(puzzle, answer.expression, joker=answer.joker)
            assert verdict.ok, f"{puzzle!r} at {level}: {answer.expression} — {verdict.message}"
            assert Counter(verdict.cards) == Counter(answer.cards)


@pytest.mark.parametrize("number", [2, 3])
@pytest.mark.parametrize("colour", [True, False])
def test_goal_directed_search_agrees_with_full_value_sets(
    number: int, colour: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The two halves of the search: asking for one target finds it exactly when the set of
    every value holds it (level 3 too, whose inverse steps are the subtle ones)."""
    monkeypatch.setattr(search_base, "ADAPT_SIZE", 0)  # never fall back to full sets
    # Small exponents keep level 3 without the colour rule (any part may be an exponent) quick.
    level = dataclasses.replace(
        LEVELS[number], colour_rule=colour, limits=Limits(max_exponent=6, max_magnitude=10**4)
    )
    most = 4 if number == 3 and not colour else 5
    rng = random.Random(f"halves-{number}-{colour}")
    for _ in range(15):
        cards = tokens(
            (rng.randint(1, 13), colour and rng.random() < 0.5) for _ in range(rng.randint(2, most))
        )
        values = Grammar(level).full(Grammar(level).top, cards)
        for target in [(t, 1) for t in range(-12, 30)] + list(values)[:20]:
            goal_directed = Grammar(level)
            goal_directed.full_size = 1
            found = goal_directed.ask(goal_directed.top, cards, target)
            assert (found is not None) == (target in values), (level, cards, target)
