"""The recorded turns' stored facts are the solver's, and every filter on them is a lookup.

Issue 39, item 4: an at-level deal with ``needs ×`` solved 12-card candidates on the fly (16.5
processor-seconds each) and failed on a loaded machine. The facts every filter asks are now
stored for the recorded turns (``data/facts-level-N.txt``); these tests hold the files to the
solver, and the dealing to the files.
"""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest
from support.puzzles import GAME24, PETER

from dekbovinoj_edu.dealing.answer_facts import LiveFacts, StoredFacts, advanced_form
from dekbovinoj_edu.dealing.filters import Filters
from dekbovinoj_edu.dealing.rated_turns import stored_scores
from dekbovinoj_edu.dealing.rating import rate
from dekbovinoj_edu.dealing.recorded_turns import parse_turn, recorded_turns
from dekbovinoj_edu.dealing.turn_facts import (
    facts_line,
    facts_path,
    known,
    stored_facts,
    stored_hands,
)
from dekbovinoj_edu.rules.cards import Card, Suit
from dekbovinoj_edu.rules.levels import LEVELS, Op
from dekbovinoj_edu.rules.puzzle import Puzzle
from dekbovinoj_edu.solving.normal_form import Num, Power, Product, Sum, Wrap
from dekbovinoj_edu.solving.solver import simplest, solve


def _short_turns(level: int, count: int, most: int) -> list[str]:
    """``count`` recorded turns of at most ``most`` cards, chosen at random (seeded)."""
    short = [
        line for line in recorded_turns(level) if len(parse_turn(line, LEVELS[level]).cards) <= most
    ]
    return random.Random(f"facts {level}").sample(short, count)


@pytest.mark.parametrize("level", [1, 2, 3])
def test_every_recorded_turn_has_its_facts_beside_its_score(level: int) -> None:
    stored = stored_facts(level)
    assert facts_path(level).exists() and len(stored) == len(set(recorded_turns(level)))
    scores = stored_scores(level)
    assert all((known.facts is None) == (scores[turn] is None) for turn, known in stored.items())
    assert sum(known.facts is not None for known in stored.values()) > len(stored) // 2


@pytest.mark.parametrize(
    ("level", "count", "most"),
    [(1, 25, 8), (2, 25, 7), (3, 12, 6), pytest.param(3, 40, 9, marks=pytest.mark.slow)],
)
def test_the_stored_facts_are_the_solvers(level: int, count: int, most: int) -> None:
    for line in _short_turns(level, count, most):
        puzzle = parse_turn(line, LEVELS[level])
        assert stored_facts(level)[line].facts == (
            None if solve(puzzle) is None else StoredFacts.parse(facts_line(puzzle), _ops(level))
        ), line


def _ops(level: int) -> frozenset[Op]:
    return frozenset(op for op in LEVELS[level].operations if isinstance(op, Op))


@pytest.mark.parametrize("level", [2, 3])
def test_stored_and_live_facts_answer_every_set_of_operations_alike(level: int) -> None:
    ops = sorted(_ops(level), key=lambda op: op.symbol)
    for line in _short_turns(level, 6, 5):
        puzzle = parse_turn(line, LEVELS[level])
        best = solve(puzzle)
        stored = stored_facts(level)[line].facts
        if best is None or stored is None:
            continue
        live = LiveFacts(puzzle, best)
        for size in range(1, len(ops) + 1):
            for chosen in itertools.combinations(ops, size):
                assert stored.can_do_without(chosen) == live.can_do_without(chosen), (line, chosen)


def test_a_turn_is_known_at_its_own_level_and_a_hand_of_the_24_game_by_its_ranks() -> None:
    line = recorded_turns(2)[3]
    assert known(parse_turn(line, LEVELS[2])) is stored_facts(2)[line]
    twenty = dataclasses.replace(LEVELS[1], name="20", target=20)
    assert known(parse_turn(recorded_turns(1)[0], twenty)) is None  # another house rule: live
    hard = known(Puzzle.parse("3♣ 3♦ 8♠ 8♥", level=GAME24))
    assert hard is not None and hard is known(Puzzle.parse("8♦ 3♠ 8♣ 3♥", level=GAME24))
    assert known(Puzzle.parse("3♣ 3♦ 8♠ | 8♥", level=GAME24)) is None  # not a hand of four
    assert known(PETER) is None  # Peter's turn was never recorded: asked of the solver


def test_the_24_games_stored_hands_are_the_solvers() -> None:
    hands = stored_hands()
    assert len(hands) == 1820
    easy = [ranks for ranks, kept in hands.items() if kept.score is not None and kept.score <= 3]
    assert 0 < len(easy) < 10  # the 24 game has hardly an easy hand
    for ranks in random.Random(24).sample(sorted(hands), 30):
        hand = Puzzle(tuple(Card(rank, Suit.SPADES) for rank in ranks), (), GAME24)
        rating = rate(hand)
        assert hands[ranks].score == (None if rating is None else rating.score)
        best = solve(hand)
        expected = None if best is None else StoredFacts.of(LiveFacts(hand, best))
        assert hands[ranks].facts == expected, ranks


def test_filters_read_stored_facts_as_they_read_the_solver() -> None:
    wishes = [
        Filters(needs={"×"}),
        Filters(needs_any={"×", "÷"}, cards=(2, 4), fractions=False),
        Filters(fractions=True),
        Filters(cards=5),
    ]
    for line in _short_turns(2, 30, 7):
        puzzle = parse_turn(line, LEVELS[2])
        best = solve(puzzle)
        stored = stored_facts(2)[line].facts
        if best is None or stored is None:
            continue
        for wish in wishes:
            assert wish.admits_facts(stored) == wish.admits(puzzle, best), (line, wish)


def test_advanced_forms_are_negative_and_fractional_exponents_and_roots_of_roots() -> None:
    ten, six, four = Num(10), Num(6), Num(4)
    assert advanced_form(Power(ten, Num(6, negative=True)))  # 10 ^ (−6)
    assert advanced_form(Power(Num(8), Product(((four, False), (Num(12), True)))))  # 8^(4÷12)
    assert advanced_form(Wrap("√", Sum(((Num(9, unary="√"), False), (six, False)))))  # √(√9+6)
    assert advanced_form(Num(16, unary="√√"))
    assert not advanced_form(Power(ten, Num(2)))
    assert not advanced_form(Sum(((Num(9, unary="√"), False), (Num(4, unary="√"), False))))
    assert not advanced_form(Num(3, unary="!"))


def test_no_advanced_form_means_the_hints_show_none() -> None:
    lesson4 = Filters(needs_any={"^", "√", "!"}, advanced=False)
    plain = 0
    for line in _short_turns(3, 40, 5):
        puzzle = parse_turn(line, LEVELS[3])
        stored = stored_facts(3)[line].facts
        if stored is None or not lesson4.admits_facts(stored):
            continue
        plain += 1
        shown = simplest(puzzle)
        assert shown is not None and not advanced_form(shown.tree), line
    assert plain > 0
