"""Level 3 by brute force over texts: every expression of a family the checker accepts, and
the solver never takes fewer cards.

:mod:`brute_force` lists values, rational ones only. Here the expressions are written out
and each goes through :func:`~dekbovinoj_edu.check`, the authority, irrational steps and all
(``−√10♦ ^ √4♣`` is −10 through √10, and no bracket may gather it after ``−``, rule 3).

The family, for a hand of up to four cards: the cards in every order, each written plain
or under a root or a factorial (:func:`marks`: ``√9``, ``√√9``, ``9!``, ``√9!`` that is
√(9!), ``(√9)!``, ``((√9)!)!``, ``(3!)!``, those that give the card a new value), joined
by the operations the colour rule lets stand before them (``+ × ^`` before a black card,
``− ÷`` before a red one, a red card first with its sign) and no other brackets. For each
target from −20 to 30 that an accepted expression makes, the house level with that target
is solved, and its best move must take as many cards as the largest such expression.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Iterator
from fractions import Fraction

import pytest

from dekbovinoj_edu import (
    LEVELS,
    Card,
    Puzzle,
    Suit,
    VerdictCode,
    check,
    full_deck,
    parse_cards,
    solve,
)

TARGETS = range(-20, 31)
DECK = full_deck(jokers=0)


def marks(rank: int) -> list[str]:
    """The ways to write one card (``{}`` is the card) that give it a new value.

    >>> marks(9)
    ['{}', '√{}', '√√{}', '{}!', '√{}!', '(√{})!', '((√{})!)!']
    >>> marks(1), marks(12)
    (['{}'], ['{}', '√{}', '√√{}'])
    """
    found = ["{}"]
    if rank > 1:
        found += ["√{}", "√√{}"]  # √1 is 1
    if 3 <= rank <= 9:
        found += ["{}!", "√{}!"]  # 1! and 2! change nothing, 10! is too big
    if rank == 3:
        found.append("({}!)!")
    if rank == 9:
        found += ["(√{})!", "((√{})!)!"]  # (√4)! is 2, √4 already
    return found


def texts(cards: tuple[Card, ...], sizes: range, most_marked: int) -> Iterator[tuple[int, str]]:
    """Every expression of the family over ``sizes`` of the cards, at most ``most_marked`` of
    them under a mark: (how many cards, text)."""
    for size in sizes:
        for order in itertools.permutations(cards, size):
            written = [marks(card.rank) for card in order]
            for chosen in itertools.product(*written):
                if sum(mark != "{}" for mark in chosen) > most_marked:
                    continue
                parts = [mark.format(card) for mark, card in zip(chosen, order, strict=True)]
                fronts = [("+", "×", "^") if card.is_positive() else ("−", "÷") for card in order]
                lead = "" if order[0].is_positive() else "−"
                for ops in itertools.product(*fronts[1:]):
                    text = lead + parts[0]
                    for op, part in zip(ops, parts[1:], strict=True):
                        text += f" {op} {part}"
                    yield size, text


def largest_accepted(
    cards: tuple[Card, ...], sizes: range, most_marked: int
) -> dict[int, tuple[int, str]]:
    """For each target in :data:`TARGETS`, the most cards an accepted expression takes, and one.

    Each text is checked once at level 3: its exact value is the target it makes (the
    target of a level changes nothing else), and that is checked again at its own target.
    """
    puzzle = Puzzle(cards, (), LEVELS[3])
    best: dict[int, tuple[int, str]] = {}
    for size, text in texts(cards, sizes, most_marked):
        verdict = check(puzzle, text)
        if verdict.code not in (VerdictCode.OK, VerdictCode.NOT_TARGET):
            continue
        value = verdict.exact
        if not isinstance(value, Fraction) or value.denominator != 1 or int(value) not in TARGETS:
            continue
        if size > best.get(int(value), (0, ""))[0]:
            best[int(value)] = (size, text)
    return best


def at(target: int, cards: tuple[Card, ...]) -> Puzzle:
    level = dataclasses.replace(LEVELS[3], name=f"target {target}", target=target)
    return Puzzle(cards, (), level)


def assert_the_solver_takes_as_many(cards: tuple[Card, ...], sizes: range, marked: int) -> int:
    """The solver's best move at each target takes at least the cards of the largest accepted
    expression, and passes the checker; the number of targets compared."""
    found = largest_accepted(cards, sizes, marked)
    for target, (size, text) in found.items():
        puzzle = at(target, cards)
        assert check(puzzle, text).ok, (puzzle, text)
        best = solve(puzzle)
        assert best is not None and best.size >= size, (puzzle, text, best)
        verdict = check(puzzle, best.expression)
        assert verdict.ok, (puzzle, best.expression, verdict.message)
    return len(found)


@pytest.mark.parametrize(
    ("hand", "target", "text"),
    [
        ("10♦ 4♣", -10, "−√10♦ ^ √4♣"),  # the issue's: a red card's root to a power
        ("6♦ 2♣", -6, "−√6♦ ^ 2♣"),
        ("K♣ K♥ 2♠", 1, "K♣ ÷ √K♥ ^ 2♠"),  # after ÷ too
        ("3♦ 6♣", -6, "−√3♦! × √6♣"),  # √(3!) × √6: a root group of a factorial's root
        ("Q♣ 2♦ 8♥", 3, "Q♣ ÷ √2♦ ÷ √8♥"),  # two roots after ÷: no bracket gathers them
    ],
)
def test_the_irrational_forms_no_bracket_can_gather_are_found(
    hand: str, target: int, text: str
) -> None:
    cards = parse_cards(hand)
    puzzle = at(target, cards)
    verdict = check(puzzle, text)
    best = solve(puzzle)
    if verdict.ok:
        assert best is not None and best.size >= len(verdict.cards), (text, best)
    assert best is not None and check(puzzle, best.expression).ok


@pytest.mark.parametrize("rank", range(2, 14))
def test_a_red_root_to_a_power_is_found_at_any_house_target(rank: int) -> None:
    """``−√a ^ √b`` and ``−√a ^ b`` for every red rank ``a``: the best move takes both cards
    wherever the power is a whole number (2, 4 and 6 are even exponents, √4 is 2)."""
    red = Card(rank, Suit.DIAMONDS)
    found = 0
    for exponent in parse_cards("4♣ 2♣ 6♣"):
        cards = (red, exponent)
        for text in (f"−√{red} ^ √{exponent}", f"−√{red} ^ {exponent}"):
            value = check(Puzzle(cards, (), LEVELS[3]), text).exact
            if not isinstance(value, Fraction) or value.denominator != 1:
                continue
            puzzle = at(int(value), cards)
            assert check(puzzle, text).ok
            best = solve(puzzle)
            assert best is not None and best.size == 2, (text, best)
            found += 1
    assert found >= 3


@pytest.mark.slow
def test_every_pair_of_cards() -> None:
    """Every hand of two cards, any ranks and colours (the two may be alike: two decks)."""
    faces = [
        Card.parse(f"{rank}{suit}")
        for rank in "A 2 3 4 5 6 7 8 9 10 J Q K".split()
        for suit in "♣♦"
    ]
    compared = 0
    for first, second in itertools.combinations_with_replacement(faces, 2):
        if first == second:
            second = Card.parse(f"{str(second)[:-1]}{'♠' if second.is_positive() else '♥'}")
        compared += assert_the_solver_takes_as_many((first, second), range(1, 3), 2)
    assert compared > 1000


@pytest.mark.slow
@pytest.mark.parametrize("part", range(3))
def test_hands_of_three_cards(part: int) -> None:
    rng = random.Random(f"level-3-texts-{part}")
    for _ in range(4):
        cards = tuple(rng.sample(DECK, 3))
        assert assert_the_solver_takes_as_many(cards, range(1, 4), 3) > 0


@pytest.mark.slow
def test_hands_of_four_cards() -> None:
    """Every order of all four cards, one of them under a mark."""
    rng = random.Random("level-3-texts-4")
    for _ in range(3):
        cards = tuple(rng.sample(DECK, 4))
        assert_the_solver_takes_as_many(cards, range(4, 5), 1)
